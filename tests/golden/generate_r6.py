"""Writes ``r6-queue.db``: a journal in format 7 at schema revision 0015 (the version seqs of memory
entries), with a working-memory context under rules 6 (readers of version 3) that declares a queue policy
(``specs/working-memory.md`` §18.4, §18.9).

Kept for the record, like ``generate_r5.py``: run it only against the commit named in README.md, from a
pristine checkout of it, into an empty folder::

    git worktree add --detach /tmp/golden-r6 <commit>
    cd /tmp/golden-r6 && PYTHONPATH=/tmp/golden-r6:/tmp/golden-r6/tests \
        python tests/golden/generate_r6.py /tmp/r6

The journal holds: a create refused for a queue policy naming an unknown rule, and one for an expiry
below 1; a context whose ``channels`` map a narrator to ``dm`` and whose policy drops what waits two turns;
the operator's seeds (one naming "Guest Ines Varga", read with "guest" as part of the name); a user's
changes of them, waiting with the turn they expire at; a statement that a door is "welded" (no antonym
under version 3); two turns, the second dropping what waited (``rules:expired``); the operator setting one
back to PENDING (it waits two more turns); the listing and the block; a long-term write and its
replacement.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

from contract_calls import clock
from strategies import VOUCHED

from journal.migrate import HEAD_REVISION
from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

JOURNAL = "r6-queue.db"
JOURNAL_ID = "golden:r6-queue"
OPERATOR = "operator:studio"
NARRATOR = "agent:narrator"
USER = "user:dana"
CONTEXT = "pottery-studio"
POLICY = {"decide_by": ["corroborated", "superseded"], "expire_after_turns": 2}


def _propose(principal: str, text: str) -> tuple[str, dict[str, Any], str]:
    return ("memory.awmu.propose", {"context_id": CONTEXT, "text": text, "confidence": 0.9}, principal)


def _seed(text: str) -> tuple[str, dict[str, Any], str]:
    return ("memory.awmu.seed", {"context_id": CONTEXT, "text": text}, OPERATOR)


def calls() -> list[tuple[str, dict[str, Any], str]]:
    grants = [
        (
            "access.grant",
            {"principal": who, "capability": capability, "scope": f"context:{CONTEXT}"},
            OPERATOR,
        )
        for who in (NARRATOR, USER)
        for capability in ("read", "write")
    ]
    config = {"channels": {NARRATOR: "dm"}, "queue": POLICY}
    turn = ("memory.awmu.turn", {"context_id": CONTEXT}, NARRATOR)
    write = {
        "user_id": "dana",
        "key": "kiln",
        "memory_type": "preference",
        "source": "explicit_user",
        "replace": True,
    }
    return [
        ("memory.awmu.create", {"context_id": "bad", "config": {"queue": {"decide_by": ["vote"]}}}, OPERATOR),
        (
            "memory.awmu.create",
            {"context_id": "bad", "config": {"queue": {"expire_after_turns": -1}}},
            OPERATOR,
        ),
        ("memory.awmu.create", {"context_id": CONTEXT, "config": config}, OPERATOR),
        *grants,
        _seed("The glaze kiln fires on Tuesday at 6 pm."),
        _seed("The kiln is booked by Guest Ines Varga on Fridays."),
        _seed("The cellar door of the studio is open."),
        _propose(USER, "The glaze kiln fires on Thursday at 6 pm."),
        _propose(USER, "The cellar door of the studio is welded."),
        ("memory.awmu.list", {"context_id": CONTEXT}, OPERATOR),
        ("memory.awmu.assemble", {"context_id": CONTEXT}, NARRATOR),
        turn,
        turn,
        ("memory.awmu.reopen_request", {"request_id": "r12"}, OPERATOR),
        ("memory.awmu.list", {"context_id": CONTEXT}, OPERATOR),
        ("memory.write", {**write, "value_ref": "plain:cone 6"}, USER),
        ("memory.write", {**write, "value_ref": "plain:cone 8"}, USER),
    ]


def main(target: Path) -> None:
    if FORMAT_VERSION != 7 or HEAD_REVISION != "0015":
        raise SystemExit(f"this code creates format {FORMAT_VERSION} at {HEAD_REVISION}, not 7 at 0015")
    target.mkdir(parents=True, exist_ok=True)
    journal = target / JOURNAL
    if journal.exists():
        raise SystemExit(f"{journal} exists: golden journals are never rewritten")
    kernel = open_kernel(str(journal), clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True)
    try:
        results = [kernel.call(name, args, principal=principal) for name, args, principal in calls()]
    finally:
        kernel.close()
    if any(result.seq is None for result in results):
        raise SystemExit("a call was not acknowledged")
    print(
        " ".join("ok" if result.ok else result.error.code for result in results if result.error or result.ok)
    )
    for result in results:
        if result.ok and isinstance(result.value, dict) and "outcome" in result.value:
            print(result.seq, result.value["outcome"], result.value.get("review_id", ""))
    reader = JournalReader.open(str(journal))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    if not report.verified:
        raise SystemExit(f"the journal did not verify: {report.divergence}")
    connection = sqlite3.connect(journal)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
    finally:
        connection.close()
    print(f"{journal}: {report.entries} entries, head {report.head}")
    print(f"state digest {report.state_digest}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)

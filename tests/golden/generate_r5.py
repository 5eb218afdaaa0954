"""Writes ``r5-sybil.db``: a journal in format 7 (any name for anyone, the first write takes it) at schema
revision 0014 (the effects log), with a working-memory context under rules 5 (the Sybil bound), the
release that counted only declared channels as independent sources.

Kept for the record, like ``generate_r4.py``: run it only against the commit named in README.md, from a
pristine checkout of it, into an empty folder::

    git worktree add --detach /tmp/golden-r5 <commit>
    cd /tmp/golden-r5 && PYTHONPATH=/tmp/golden-r5:/tmp/golden-r5/tests \
        python tests/golden/generate_r5.py /tmp/r5

The journal holds: a context whose ``channels`` map a narrator to ``dm``; the operator's seed; a declared
channel's fact; two attacker principals (no channel of the deployment's) changing it, both waiting; one of
them reinforcing its own claim in three turns (it stays PROVISIONAL) and contradicting the seed; the
narrator's own update of its fact, which settles what waited on it; a store item put under a name nobody
created, read back, and another principal's read of a name nobody used.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

from contract_calls import clock
from strategies import VOUCHED

from arvis.canonical import canonical_bytes
from journal.blob_store import hash_of
from journal.migrate import HEAD_REVISION
from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

JOURNAL = "r5-sybil.db"
JOURNAL_ID = "golden:r5-sybil"
OPERATOR = "operator:treasury"
NARRATOR = "agent:narrator"
ATTACKERS = ("user:mallory-1", "user:mallory-2")
CONTEXT = "payments-desk"


def _propose(principal: str, text: str) -> tuple[str, dict[str, Any], str]:
    return ("memory.awmu.propose", {"context_id": CONTEXT, "text": text, "confidence": 1.0}, principal)


def calls() -> list[tuple[str, dict[str, Any], str]]:
    grants = [
        (
            "access.grant",
            {"principal": who, "capability": capability, "scope": f"context:{CONTEXT}"},
            OPERATOR,
        )
        for who in (NARRATOR, *ATTACKERS)
        for capability in ("read", "write")
    ]
    before = [
        ("memory.awmu.create", {"context_id": CONTEXT, "config": {"channels": {NARRATOR: "dm"}}}, OPERATOR),
        *grants,
        (
            "memory.awmu.seed",
            {"context_id": CONTEXT, "text": "The payee account for Acme Supplies is 4471-2290."},
            OPERATOR,
        ),
        _propose(NARRATOR, "The hangar door code is 5521."),
        _propose(ATTACKERS[0], "The hangar door code is 7788."),
        _propose(ATTACKERS[1], "The hangar door code is 7788."),
        _propose(ATTACKERS[0], "The right engine needs a new fan blade."),
    ]
    claim = f"u{len(before)}-0"  # the last proposal's unit (ids are the seq that made them)
    turn = ("memory.awmu.turn", {"context_id": CONTEXT, "reinforce": [claim]}, ATTACKERS[0])
    value = {"note": "pay on the first Monday"}
    put = {
        "namespace": ["desk", "notes"],
        "key": "acme",
        "value": value,
        "value_hash": hash_of(canonical_bytes(value)),
    }
    return [
        *before,
        turn,
        turn,
        turn,
        ("memory.awmu.get", {"context_id": CONTEXT, "unit_id": claim}, OPERATOR),
        _propose(ATTACKERS[1], "Update: the payee account for Acme Supplies is now 9902-1187."),
        _propose(NARRATOR, "Update: the hangar door code is now 7788."),
        ("memory.awmu.list", {"context_id": CONTEXT, "status": "all"}, OPERATOR),
        ("memory.awmu.assemble", {"context_id": CONTEXT}, NARRATOR),
        ("graph.store.put", put, NARRATOR),
        ("graph.store.get", {"namespace": ["desk", "notes"], "key": "acme"}, NARRATOR),
        ("graph.store.get", {"namespace": ["nobody", "here"], "key": "x"}, ATTACKERS[0]),
    ]


def main(target: Path) -> None:
    if FORMAT_VERSION != 7 or HEAD_REVISION != "0014":
        raise SystemExit(f"this code creates format {FORMAT_VERSION} at {HEAD_REVISION}, not 7 at 0014")
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

"""Writes ``r3-contract.db``: a journal in format 3, the first format that journals reads by reference.

Kept for the record, like ``generate_r1.py``: run it only against the commit named in README.md, from a
pristine checkout of it, into an empty folder::

    git worktree add --detach /tmp/golden-r3 <commit>
    cd /tmp/golden-r3 && PYTHONPATH=/tmp/golden-r3:/tmp/golden-r3/tests .venv-less-python \
        tests/golden/generate_r3.py /tmp/r3

The journal holds every call of the contract suite (``tests/contract_calls.py``: every syscall family,
refusal codes, pipeline runs, grants, the working memory), then a user with enough entries that
``memory.snapshot`` and ``memory.list`` journal their arrays by reference: two snapshots of unchanged state
(one shared piece), lists with and without history, a snapshot in a pipeline run, a superseding write and a
revoke between snapshots (new pieces), and a small user whose results stay inline.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from contract_calls import SCENARIOS, clock
from strategies import VOUCHED

from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

JOURNAL = "r3-contract.db"
JOURNAL_ID = "golden:r3-contract"
ADMIN = "admin:golden"
BULK_USER = "bulk"


def _write(user: str, key: str, **extra: object) -> tuple[str, dict[str, object], str]:
    args: dict[str, object] = {
        "user_id": user,
        "key": key,
        "memory_type": "preference",
        "source": "explicit_user",
        **extra,
    }
    return ("memory.write", args, ADMIN)


def _by_reference() -> list[tuple[str, dict[str, object], str]]:
    bulk = [_write(BULK_USER, f"pref_{index:03d}", value_ref=f"ref-{index}") for index in range(40)]
    snapshot = ("memory.snapshot", {"user_id": BULK_USER}, ADMIN)
    listed = ("memory.list", {"user_id": BULK_USER}, ADMIN)
    return [
        *bulk,
        snapshot,
        snapshot,  # unchanged state: the same piece
        listed,
        ("memory.list", {"user_id": BULK_USER, "include_inactive": True}, ADMIN),
        _write(BULK_USER, "pref_007", value_ref="ref-7b", replace=True),
        ("memory.revoke", {"user_id": BULK_USER, "key": "pref_011"}, ADMIN),
        snapshot,  # new pieces
        ("memory.list", {"user_id": BULK_USER, "include_inactive": True}, ADMIN),
        ("pipeline.begin", {"run_id": "golden-run", "user_id": BULK_USER}, ADMIN),
        ("memory.snapshot", {"user_id": BULK_USER, "run_id": "golden-run"}, ADMIN),
        ("pipeline.end", {"run_id": "golden-run"}, ADMIN),
        _write("small", "language"),
        ("memory.snapshot", {"user_id": "small"}, ADMIN),  # inline: under the piece size
        ("memory.list", {"user_id": "small"}, ADMIN),
        ("memory.snapshot", {"user_id": "nobody"}, ADMIN),
    ]


def main(target: Path) -> None:
    if FORMAT_VERSION != 3:
        raise SystemExit(f"this code creates format {FORMAT_VERSION} journals, not 3")
    target.mkdir(parents=True, exist_ok=True)
    journal = target / JOURNAL
    if journal.exists():
        raise SystemExit(f"{journal} exists: golden journals are never rewritten")
    calls = [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]] + _by_reference()
    kernel = open_kernel(str(journal), clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True)
    try:
        results = [kernel.call(name, args, principal=principal) for name, args, principal in calls]
    finally:
        kernel.close()
    if any(result.seq is None for result in results):
        raise SystemExit("a call was not acknowledged")
    reader = JournalReader.open(str(journal))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    if not report.verified:
        raise SystemExit(f"the journal did not verify: {report.divergence}")
    connection = sqlite3.connect(journal)
    try:
        pieces = connection.execute("SELECT COUNT(*) FROM graph_blobs").fetchone()[0]
        if pieces < 4:
            raise SystemExit(f"only {pieces} pieces were journaled by reference")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
    finally:
        connection.close()
    print(f"{journal}: {report.entries} entries, head {report.head}, {pieces} pieces")
    print(f"state digest {report.state_digest}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)

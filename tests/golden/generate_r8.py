"""Writes ``r8-values-once.db``: a journal in format 8 at schema revision 0021 (each LangGraph value
journaled once: a checkpoint call carries a value's bytes without their hash, a new value's version may be
left to ``channel_versions``, a put answers ``{}``; every state table keeps its past in rows), with every
family's contract calls (``tests/contract_calls.py``): memory writes, replacements and revokes, grants,
working memory, a pipeline run, LangGraph checkpoints (a pending error write replaced, a thread copied and
pruned) and the store (items put, replaced and deleted), accepted and refused.

Kept for the record, like ``generate_r7.py``: run it only against the commit named in README.md, from a
pristine checkout of it, into an empty folder::

    git worktree add --detach /tmp/golden-r8 <commit>
    cp tests/golden/generate_r8.py /tmp/golden-r8/tests/golden/
    cd /tmp/golden-r8 && PYTHONPATH=/tmp/golden-r8:/tmp/golden-r8/tests \\
        python tests/golden/generate_r8.py /tmp/r8
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from contract_calls import SCENARIOS, clock
from strategies import VOUCHED

from journal.migrate import HEAD_REVISION
from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

JOURNAL = "r8-values-once.db"
JOURNAL_ID = "golden:r8-values-once"


def main(target: Path) -> None:
    if FORMAT_VERSION != 8 or HEAD_REVISION != "0021":
        raise SystemExit(f"this code creates format {FORMAT_VERSION} at {HEAD_REVISION}, not 8 at 0021")
    target.mkdir(parents=True, exist_ok=True)
    journal = target / JOURNAL
    if journal.exists():
        raise SystemExit(f"{journal} exists: golden journals are never rewritten")
    kernel = open_kernel(str(journal), clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True)
    try:
        calls = [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]]
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
        kept = connection.execute("SELECT count(*) FROM graph_history").fetchone()[0]
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
    finally:
        connection.close()
    print(f"{journal}: {report.entries} entries, head {report.head}, {kept} rows kept in graph_history")
    print(f"state digest {report.state_digest}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)

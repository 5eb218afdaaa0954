"""Writes ``r4-origins.db``: a journal in format 6 with a working-memory context under rules 4 and a graph
store under a quota (revision 0013), the release that bound a statement's origin to its caller.

Kept for the record, like ``generate_r3.py``: run it only against the commit named in README.md, from a
pristine checkout of it, into an empty folder::

    git worktree add --detach /tmp/golden-r4 <commit>
    cd /tmp/golden-r4 && PYTHONPATH=/tmp/golden-r4:/tmp/golden-r4/tests \
        python tests/golden/generate_r4.py /tmp/r4

The journal holds: a context whose ``channels`` map a narrator to ``dm``; the operator's seeds; statements on
the callers' own channels (no ``source``), one described as a less trusted channel, and the refusals of a
writer naming ``operator``, ``system`` and another principal's channel; the operator revising its own fact;
a graph store under a 600-byte quota: puts up to it, one refused past it, a smaller overwrite, a delete.
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
from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

JOURNAL = "r4-origins.db"
JOURNAL_ID = "golden:r4-origins"
OPERATOR = "operator:ward"
NARRATOR = "agent:narrator"
NURSE = "user:nurse"
CONTEXT = "ward-7"


def _propose(principal: str, text: str, **extra: Any) -> tuple[str, dict[str, Any], str]:
    return (
        "memory.awmu.propose",
        {"context_id": CONTEXT, "text": text, "confidence": 0.9, **extra},
        principal,
    )


def _put(key: str, value: dict[str, Any] | None) -> tuple[str, dict[str, Any], str]:
    args: dict[str, Any] = {"namespace": ["ledger", "notes"], "key": key}
    args |= (
        {"value_hash": None}
        if value is None
        else {"value": value, "value_hash": hash_of(canonical_bytes(value))}
    )
    return ("graph.store.put", args, NARRATOR)


def calls() -> list[tuple[str, dict[str, Any], str]]:
    grants = [
        (
            "access.grant",
            {"principal": who, "capability": capability, "scope": f"context:{CONTEXT}"},
            OPERATOR,
        )
        for who in (NARRATOR, NURSE)
        for capability in ("read", "write")
    ]
    return [
        ("memory.awmu.create", {"context_id": CONTEXT, "config": {"channels": {NARRATOR: "dm"}}}, OPERATOR),
        *grants,
        (
            "memory.awmu.seed",
            {"context_id": CONTEXT, "text": "The patient is allergic to penicillin."},
            OPERATOR,
        ),
        ("memory.awmu.seed", {"context_id": CONTEXT, "text": "Ward seven has twelve beds."}, OPERATOR),
        _propose(NARRATOR, "The night shift starts at nine."),
        _propose(NARRATOR, "A visitor said the lift is broken.", source="player"),
        _propose(NURSE, "Update: the patient is no longer allergic to penicillin.", source="operator"),
        _propose(NURSE, "Update: the patient is no longer allergic to penicillin.", source="system"),
        _propose(NURSE, "The pharmacy closes at six.", source="dm"),
        _propose(NURSE, "Update: the patient is no longer allergic to penicillin."),
        _propose(OPERATOR, "Update: ward seven now has fourteen beds."),
        ("memory.awmu.list", {"context_id": CONTEXT}, OPERATOR),
        ("memory.awmu.assemble", {"context_id": CONTEXT}, NARRATOR),
        ("graph.namespace.create", {"prefix": "ledger"}, NARRATOR),
        _put("a", {"t": "x" * 192}),
        _put("b", {"t": "y" * 292}),
        _put("c", {"t": "z" * 192}),  # past the quota: refused
        _put("a", {"t": "x" * 42}),  # a smaller overwrite
        _put("b", None),  # a delete
        _put("c", {"t": "z" * 192}),
        ("graph.store.search", {"namespace_prefix": ["ledger"], "limit": 10}, NARRATOR),
    ]


def main(target: Path) -> None:
    if FORMAT_VERSION != 6:
        raise SystemExit(f"this code creates format {FORMAT_VERSION} journals, not 6")
    target.mkdir(parents=True, exist_ok=True)
    journal = target / JOURNAL
    if journal.exists():
        raise SystemExit(f"{journal} exists: golden journals are never rewritten")
    kernel = open_kernel(
        str(journal),
        clock=clock(),
        journal_id=JOURNAL_ID,
        identity=VOUCHED,
        create=True,
        store_quota_bytes=600,
    )
    try:
        results = [kernel.call(name, args, principal=principal) for name, args, principal in calls()]
    finally:
        kernel.close()
    if any(result.seq is None for result in results):
        raise SystemExit("a call was not acknowledged")
    codes = ["ok" if result.ok else result.error.code for result in results if result.error or result.ok]
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
    print(" ".join(codes))
    print(f"{journal}: {report.entries} entries, head {report.head}")
    print(f"state digest {report.state_digest}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)

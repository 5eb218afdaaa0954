"""Benchmark 5: ``memory.snapshot`` of a user holding 10,000 entries, through ``Kernel.call``,
against a raw reference on the same database file: one query, the snapshot built as plain dicts,
canonical encoding and SHA-256. Target: the kernel takes at most 1.5x the reference's time.

The reference does the work the kernel does to build the snapshot's bytes, no more: each row's
governance is stored as canonical JSON text, and both embed that text as it is (``msgspec.Raw``)
instead of decoding it and encoding it again.

With it, ``memory.list`` against ``memory.snapshot`` over the same rows, both through ``Kernel.call``:
listing every entry with its status is the same job as the snapshot (one read, one encoding of every
entry, one journaled result). Target: the list takes at most 1.5x the snapshot's time."""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from pathlib import Path
from typing import Any

import msgspec

from bench.common import BenchResult, ProfileJob, Series, alternate, scratch_dir, timed, write_args
from bench.reference import canonical, now_text
from journal.engine import Durability
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

__all__ = ["profile_setup", "raw_snapshot", "run"]

NAME = "snapshot_10k"
LIST_NAME = "list_vs_snapshot_10k"
USER = "user-0"
READER = f"user:{USER}"  # the user reads their own memory (an agent would need a grant)

_QUERY = (
    'SELECT created_at, expires_at, governance, "key", memory_type, notes, revoked_at, source, '
    'superseded_at, value_ref FROM memory_entries WHERE user_id = ? ORDER BY created_at, "key", '
    "memory_type, version"
)


def _sizes(quick: bool) -> tuple[int, int]:
    """Entries of the user, repetitions."""
    return (2_000, 5) if quick else (10_000, 9)


def build(directory: Path, entries: int) -> Kernel:
    """A kernel whose user ``USER`` holds ``entries`` active entries (bulk-loaded, not timed)."""
    kernel = open_kernel(str(directory / "snapshot.db"), durability=Durability.NORMAL, create=True)
    for first in range(0, entries, 1_000):
        results = kernel.call_many(
            write_args(index, users=1) for index in range(first, min(first + 1_000, entries))
        )
        if not all(result.ok for result in results):
            raise RuntimeError("the kernel refused a benchmark write")
    return kernel


def raw_snapshot(db: sqlite3.Connection, user_id: str) -> tuple[str, dict[str, Any]]:
    """The snapshot of ``user_id`` as the spec defines it, and its SHA-256 (hex)."""
    now = now_text()
    rows = db.execute(_QUERY, (user_id,)).fetchall()
    active: list[dict[str, Any]] = []
    revoked = 0
    last: str | None = None
    for created, expires, governance, key, memory_type, notes, revoked_at, source, superseded, ref in rows:
        for moment in (created, revoked_at, superseded):
            if moment is not None and (last is None or moment > last):
                last = moment
        if revoked_at is not None:
            revoked += 1
        elif superseded is None and (expires is None or expires > now):
            active.append(
                {
                    "created_at": created,
                    "expires_at": expires,
                    "governance": msgspec.Raw(governance.encode("utf-8")),  # stored canonical
                    "key": key,
                    "memory_type": memory_type,
                    "notes": notes,
                    "revoked_at": None,
                    "source": source,
                    "superseded_at": None,
                    "value_ref": ref,
                }
            )
    wire = {
        "active_entries": active,
        "created_at": now,
        "last_updated_at": last,
        "notes": None,
        "revoked_entries": revoked,
        "total_entries": len(rows),
    }
    return hashlib.sha256(canonical(wire)).hexdigest(), wire


def _check_same_snapshot(kernel: Kernel, db: sqlite3.Connection) -> None:
    """The reference builds the very snapshot the kernel returns (same content hash); not timed."""
    result = kernel.call("memory.snapshot", {"user_id": USER}, principal=READER)
    if not result.ok:
        raise RuntimeError(f"memory.snapshot refused: {result.error}")
    _, wire = raw_snapshot(db, USER)
    content = hashlib.sha256(canonical({**wire, "created_at": None})).hexdigest()
    if content != result.value["content_hash"]:
        raise AssertionError("the reference's snapshot differs from the kernel's")


def _check_same_list(kernel: Kernel) -> None:
    """``memory.list`` lists the rows the snapshot holds, in its order, all active; not timed."""
    listed = kernel.call("memory.list", {"user_id": USER}, principal=READER)
    snapshot = kernel.call("memory.snapshot", {"user_id": USER}, principal=READER)
    if not listed.ok or not snapshot.ok:
        raise RuntimeError(f"a read was refused: {listed.error or snapshot.error}")
    items = listed.value["entries"]
    if [item["entry"] for item in items] != snapshot.value["snapshot"]["active_entries"] or any(
        item["status"] != "active" for item in items
    ):
        raise AssertionError("memory.list and memory.snapshot read different rows")


def _call_ms(kernel: Kernel, syscall: str) -> float:
    with timed() as elapsed:
        result = kernel.call(syscall, {"user_id": USER}, principal=READER)
    if not result.ok:
        raise RuntimeError(f"{syscall} refused: {result.error}")
    return elapsed[0] * 1_000


def run(quick: bool = False) -> list[BenchResult]:
    entries, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory:
        kernel = build(directory, entries)
        db = sqlite3.connect(str(directory / "snapshot.db"), isolation_level=None)
        try:
            _check_same_snapshot(kernel, db)
            _check_same_list(kernel)

            def raw_ms() -> float:
                with timed() as elapsed:
                    raw_snapshot(db, USER)
                return elapsed[0] * 1_000

            kernel_samples, raw_samples, list_samples = alternate(
                repetitions,
                lambda: _call_ms(kernel, "memory.snapshot"),
                raw_ms,
                lambda: _call_ms(kernel, "memory.list"),
            )
        finally:
            db.close()
            kernel.close()
    kernel_series, raw_series = Series(tuple(kernel_samples), "ms"), Series(tuple(raw_samples), "ms")
    list_series = Series(tuple(list_samples), "ms")
    snapshot = BenchResult(
        name=NAME,
        title=f"memory.snapshot of a user with {entries:,} entries",
        kernel_label="Kernel.call('memory.snapshot')",
        kernel=kernel_series,
        baseline_label="raw sqlite3 query + dicts (governance as stored) + canonical encode + sha256",
        baseline=raw_series,
        ratio=kernel_series.median / raw_series.median,
        ratio_means="kernel ms ÷ raw ms (lower is better)",
        target=1.5,
        direction="<=",
        notes=[
            "both read the same database file; the reference's snapshot has the kernel's content hash",
            "the reference does the encoding work the kernel does, no more: each row's governance is "
            "stored as canonical JSON text and both embed it as it is (msgspec.Raw), neither decodes "
            "it nor encodes it again",
            "the kernel builds the snapshot from the rows' fixed-form texts (no typed entries), with "
            "the projection and a second (content) hash, and journals the call: the whole snapshot "
            "is in the journal entry's result, hashed into the chain and written to the file",
            "the entries are encoded once and embedded as pre-encoded JSON in the snapshot, both "
            "hashes and the result; the caller's value is decoded from the journaled bytes on first "
            "access (not timed here: the reference's dicts need no decoding either)",
        ],
        extra={"entries": entries},
    )
    listing = BenchResult(
        name=LIST_NAME,
        title=f"memory.list against memory.snapshot over the same {entries:,} entries",
        kernel_label="Kernel.call('memory.list')",
        kernel=list_series,
        baseline_label="Kernel.call('memory.snapshot')",
        baseline=kernel_series,
        ratio=list_series.median / kernel_series.median,
        ratio_means="list ms ÷ snapshot ms (lower is better)",
        target=1.5,
        direction="<=",
        notes=[
            "the same kernel, rows and repetitions as snapshot_10k (the three alternate); every entry "
            "is active, so both carry all of them and the list has each one's status beside it",
            "both build from the rows' fixed-form texts (no typed entries) and encode the entries "
            "once, as pre-encoded JSON in the result; the snapshot adds the projection and two hashes",
        ],
        extra={"entries": entries},
    )
    return [snapshot, listing]


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    entries, repetitions = _sizes(quick)
    kernel = build(directory, entries)

    def work() -> object:
        return [
            kernel.call("memory.snapshot", {"user_id": USER}, principal=READER) for _ in range(repetitions)
        ]

    return work, kernel.close


def _main() -> None:
    """``python -m bench.bench_snapshot [--quick]``: both results, printed."""
    quick = "--quick" in sys.argv[1:]
    for result in run(quick):
        print(result.report(), flush=True)


if __name__ == "__main__":
    _main()

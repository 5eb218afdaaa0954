"""Benchmark 5: ``memory.snapshot`` of a user holding 10,000 entries, through ``Kernel.call``,
against a raw reference on the same database file: one query, the snapshot built as plain dicts,
canonical encoding and SHA-256. Target: the kernel takes at most 1.5x the reference's time."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import msgspec

from bench.common import BenchResult, ProfileJob, Series, alternate, cli_main, scratch_dir, timed, write_args
from bench.reference import canonical, now_text
from journal.engine import Durability
from kernel.boot import open_kernel
from kernel.dispatcher import Kernel

__all__ = ["profile_setup", "raw_snapshot", "run"]

NAME = "snapshot_10k"
USER = "user-0"
READER = f"user:{USER}"  # the user reads their own memory (an agent would need a grant)
_decode = msgspec.json.Decoder().decode

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
    kernel = open_kernel(str(directory / "snapshot.db"), durability=Durability.NORMAL)
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
                    "governance": _decode(governance),
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


def run(quick: bool = False) -> BenchResult:
    entries, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory:
        kernel = build(directory, entries)
        db = sqlite3.connect(str(directory / "snapshot.db"), isolation_level=None)
        try:
            _check_same_snapshot(kernel, db)

            def kernel_ms() -> float:
                with timed() as elapsed:
                    result = kernel.call("memory.snapshot", {"user_id": USER}, principal=READER)
                if not result.ok:
                    raise RuntimeError(f"memory.snapshot refused: {result.error}")
                return elapsed[0] * 1_000

            def raw_ms() -> float:
                with timed() as elapsed:
                    raw_snapshot(db, USER)
                return elapsed[0] * 1_000

            kernel_samples, raw_samples = alternate(repetitions, kernel_ms, raw_ms)
        finally:
            db.close()
            kernel.close()
    kernel_series, raw_series = Series(tuple(kernel_samples), "ms"), Series(tuple(raw_samples), "ms")
    return BenchResult(
        name=NAME,
        title=f"memory.snapshot of a user with {entries:,} entries",
        kernel_label="Kernel.call('memory.snapshot')",
        kernel=kernel_series,
        baseline_label="raw sqlite3 query + dicts + canonical encode + sha256",
        baseline=raw_series,
        ratio=kernel_series.median / raw_series.median,
        ratio_means="kernel ms ÷ raw ms (lower is better)",
        target=1.5,
        direction="<=",
        notes=[
            "both read the same database file; the reference's snapshot has the kernel's content hash",
            "the kernel builds the snapshot from the rows' fixed-form texts (no typed entries), with "
            "the projection and a second (content) hash, and journals the call: the whole snapshot "
            "is in the journal entry's result, hashed into the chain and written to the file",
            "the entries are encoded once and embedded as pre-encoded JSON in the snapshot, both "
            "hashes and the result; the caller's value is decoded from the journaled bytes on first "
            "access (not timed here: the reference's dicts need no decoding either)",
        ],
        extra={"entries": entries},
    )


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    entries, repetitions = _sizes(quick)
    kernel = build(directory, entries)

    def work() -> object:
        return [
            kernel.call("memory.snapshot", {"user_id": USER}, principal=READER) for _ in range(repetitions)
        ]

    return work, kernel.close


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

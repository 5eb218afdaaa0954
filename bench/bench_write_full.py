"""Benchmark 2: journaled ``memory.write`` at ``synchronous=FULL`` against the ``eventsourcing``
library saving one event per call in its SQLite recorder (WAL, FULL). Target: ratio >= 2.

The raw ``sqlite3`` reference at FULL is measured in the same run as well, as the floor of one
fsync per commit on this disk (informative, not part of the ratio).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from bench.bench_write import kernel_write_rate, open_fresh_kernel, raw_write_rate
from bench.common import BenchResult, ProfileJob, Series, alternate, cli_main, scratch_dir, timed, write_args
from bench.reference import check_same_hash
from journal.engine import Durability

__all__ = ["eventsourcing_write_rate", "profile_setup", "run"]

NAME = "write_full_vs_eventsourcing"
_counter = itertools.count()


def _sizes(quick: bool) -> tuple[int, int]:
    """Calls per repetition, repetitions."""
    return (100, 5) if quick else (400, 5)


class UserMemory(Aggregate):
    """One user's long-term memory as an event-sourced aggregate: one ``Written`` event per write."""

    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self.entries: dict[str, tuple[str, str, str | None]] = {}

    @event("Written")
    def write(self, key: str, memory_type: str, source: str, value_ref: str | None, principal: str) -> None:
        self.entries[key] = (memory_type, source, value_ref)


def _datastore(application: Application[UUID]) -> SQLiteDatastore:
    recorder = application.recorder
    if not isinstance(recorder, SQLiteApplicationRecorder):
        raise RuntimeError(f"eventsourcing is not on its SQLite recorder: {type(recorder).__name__}")
    return recorder.datastore


def _pragmas(application: Application[UUID]) -> tuple[int, str]:
    """``synchronous`` and ``journal_mode`` of the library's own connections, as it set them up."""
    with _datastore(application).transaction(commit=False) as cursor:
        cursor.execute("PRAGMA synchronous")
        synchronous = int(cursor.fetchone()[0])
        cursor.execute("PRAGMA journal_mode")
        mode = str(cursor.fetchone()[0])
    return synchronous, mode


def eventsourcing_write_rate(directory: Path, calls: int) -> float:
    """Events per second: one aggregate per user (created, untimed), then per call one domain event
    triggered on the user's aggregate and ``Application.save`` (one transaction) for it."""
    path = directory / f"eventsourcing-{next(_counter)}.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    application: Application[UUID] = Application(env=env)
    try:
        synchronous, mode = _pragmas(application)
        if synchronous != 2 or mode.lower() != "wal":
            raise RuntimeError(f"eventsourcing runs with synchronous={synchronous}, journal_mode={mode}")
        aggregates = {f"user-{index}": UserMemory(f"user-{index}") for index in range(100)}
        application.save(*aggregates.values())
        workload = [write_args(index) for index in range(calls)]
        with timed() as elapsed:
            for _, args, principal in workload:
                aggregate = aggregates[args["user_id"]]
                aggregate.write(
                    key=args["key"],
                    memory_type=args["memory_type"],
                    source=args["source"],
                    value_ref=args.get("value_ref"),
                    principal=principal,
                )
                application.save(aggregate)
        with _datastore(application).transaction(commit=False) as cursor:
            cursor.execute("SELECT COUNT(*) FROM stored_events")
            stored = int(cursor.fetchone()[0])
        if stored != calls + len(aggregates):
            raise RuntimeError("eventsourcing did not store every event")
    finally:
        application.close()
    return calls / elapsed[0]


def run(quick: bool = False) -> BenchResult:
    check_same_hash()
    calls, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory:
        kernel, library, raw = alternate(
            repetitions,
            lambda: kernel_write_rate(directory, calls, Durability.FULL),
            lambda: eventsourcing_write_rate(directory, calls),
            lambda: raw_write_rate(directory, calls, "FULL"),
        )
    kernel_series, library_series = Series(tuple(kernel), "calls/s"), Series(tuple(library), "calls/s")
    raw_series = Series(tuple(raw), "calls/s")
    return BenchResult(
        name=NAME,
        title="memory.write, one call per transaction, WAL + synchronous=FULL, against eventsourcing",
        kernel_label="Kernel.call('memory.write') at FULL",
        kernel=kernel_series,
        baseline_label="eventsourcing Application.save, one event per call (SQLite recorder, WAL, FULL)",
        baseline=library_series,
        ratio=kernel_series.median / library_series.median,
        ratio_means="kernel calls/s ÷ eventsourcing events/s",
        target=2.0,
        notes=[
            f"{calls} writes per run on a fresh database file; the library's aggregates are created "
            "and saved before the timed part, and stay in memory (no repository reads)",
            "eventsourcing's connections checked: journal_mode=wal, synchronous=2 (FULL)",
            f"raw sqlite3 reference at FULL (the one-fsync-per-commit floor): {raw_series.describe()}; "
            f"kernel ÷ raw at FULL = {kernel_series.median / raw_series.median:.2f}; raw ÷ eventsourcing "
            f"at FULL = {raw_series.median / library_series.median:.2f}: with one commit (one fsync of "
            "the WAL) per call on both sides, this is the most any kernel can reach against the library",
        ],
        extra={
            "calls_per_run": calls,
            "raw_full": raw_series.to_json(),
            "kernel_over_raw_full": kernel_series.median / raw_series.median,
            "raw_over_eventsourcing_full": raw_series.median / library_series.median,
        },
    )


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    calls, _ = _sizes(quick)
    kernel = open_fresh_kernel(directory, Durability.FULL)
    workload = [write_args(index) for index in range(calls)]

    return lambda: [kernel.call(name, args, principal=who) for name, args, who in workload], kernel.close


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

"""Benchmark 3: the batch API (``Kernel.call_many``: many calls in one transaction, one journal
entry and one savepoint per call) against raw batched inserts (the same rows prepared and chained,
then one transaction with ``executemany``), WAL + ``synchronous=NORMAL``. Target: ratio >= 0.6."""

from __future__ import annotations

import itertools
from pathlib import Path

from bench.common import (
    BenchResult,
    ProfileJob,
    Series,
    alternate,
    cli_main,
    scratch_dir,
    statement_plan,
    timed,
    traced_statements,
    write_args,
)
from bench.reference import RawJournal, check_same_hash
from journal.engine import Durability
from syscalls.boot import open_kernel

__all__ = ["profile_setup", "run"]

NAME = "batch"
_counter = itertools.count()


def _sizes(quick: bool) -> tuple[int, int, int]:
    """Calls per batch, batches per repetition, repetitions."""
    return (1_000, 4, 5) if quick else (1_000, 10, 7)


def _batches(size: int, count: int) -> list[list[tuple[str, dict[str, object], str]]]:
    return [[write_args(first + index) for index in range(size)] for first in range(0, size * count, size)]


def kernel_batch_rate(directory: Path, size: int, count: int) -> float:
    kernel = open_kernel(
        str(directory / f"kernel-{next(_counter)}.db"), durability=Durability.NORMAL, create=True
    )
    batches = _batches(size, count)
    try:
        with timed() as elapsed:
            results = [kernel.call_many(batch) for batch in batches]
    finally:
        kernel.close()
    if not all(result.ok for batch in results for result in batch):
        raise RuntimeError("the kernel refused a benchmark write")
    return size * count / elapsed[0]


def raw_batch_rate(directory: Path, size: int, count: int) -> float:
    raw = RawJournal(directory / f"raw-{next(_counter)}.db", synchronous="NORMAL")
    batches = _batches(size, count)
    try:
        with timed() as elapsed:
            for batch in batches:
                raw.write_many(batch)
        if raw.count() != size * count:
            raise RuntimeError("the reference lost writes")
    finally:
        raw.close()
    return size * count / elapsed[0]


def batch_plan_note(directory: Path) -> str:
    """The SQL statements of a batch of 10 writes: the kernel's, and the reference's."""
    calls = [write_args(index) for index in range(10)]
    with traced_statements() as seen:
        kernel = open_kernel(str(directory / "plan.db"), durability=Durability.NORMAL, create=True)
        try:
            seen.clear()
            kernel.call_many(calls)
            statements = list(seen)
        finally:
            kernel.close()
    first = statements.index("SAVEPOINT arvis_call") if "SAVEPOINT arvis_call" in statements else 0
    last = statements.index("RELEASE SAVEPOINT arvis_call") if first else len(statements) - 1
    raw = RawJournal(directory / "plan-raw.db")
    raw_statements: list[str] = []
    try:
        raw.db.set_trace_callback(raw_statements.append)
        raw.write_many(calls)
    finally:
        raw.db.set_trace_callback(None)
        raw.close()
    return (
        f"SQL statements for a batch of 10 writes: kernel {len(statements)}, each call "
        f"{last - first + 1} ({statement_plan(statements[first : last + 1])}); reference "
        f"{len(raw_statements)} in all ({statement_plan(raw_statements)}: two executemany)"
    )


def run(quick: bool = False) -> BenchResult:
    check_same_hash()
    size, count, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory:
        plan = batch_plan_note(directory)
        kernel, raw = alternate(
            repetitions,
            lambda: kernel_batch_rate(directory, size, count),
            lambda: raw_batch_rate(directory, size, count),
        )
    kernel_series, raw_series = Series(tuple(kernel), "calls/s"), Series(tuple(raw), "calls/s")
    return BenchResult(
        name=NAME,
        title="bulk memory.write: the batch API against raw batched inserts, WAL + NORMAL",
        kernel_label=f"Kernel.call_many, {size} writes per batch",
        kernel=kernel_series,
        baseline_label=f"raw sqlite3, {size} rows per transaction (executemany)",
        baseline=raw_series,
        ratio=kernel_series.median / raw_series.median,
        ratio_means="kernel calls/s ÷ raw calls/s",
        target=0.6,
        notes=[
            f"{count} batches of {size} writes per run on a fresh database file",
            "the kernel still runs each call on its own (decode, validate, read the current entry and "
            "the latest version, savepoint, journal entry); the reference prepares and chains every row "
            "and inserts them with two executemany",
            plan,
        ],
        extra={"calls_per_batch": size, "batches_per_run": count},
    )


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    size, count, _ = _sizes(quick)
    kernel = open_kernel(str(directory / "profile.db"), durability=Durability.NORMAL, create=True)
    batches = _batches(size, count)

    return lambda: [kernel.call_many(batch) for batch in batches], kernel.close


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

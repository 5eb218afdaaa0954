"""Benchmark 1: journaled ``memory.write`` through ``Kernel.call`` against the raw ``sqlite3``
reference doing the same work (journal insert + state upsert + chained SHA-256 over canonical bytes,
one transaction per call), both on WAL with ``synchronous=NORMAL``. Target: ratio >= 0.6."""

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
from bench.sql_floor import sql_floor
from journal.engine import Durability
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

__all__ = ["kernel_write_rate", "profile_setup", "raw_write_rate", "run"]

NAME = "write_normal"
_counter = itertools.count()


def _sizes(quick: bool) -> tuple[int, int]:
    """Calls per repetition, repetitions."""
    return (1_000, 5) if quick else (2_000, 7)


def _fresh(directory: Path, tag: str) -> Path:
    return directory / f"{tag}-{next(_counter)}.db"


def open_fresh_kernel(directory: Path, durability: Durability) -> Kernel:
    return open_kernel(str(_fresh(directory, "kernel")), durability=durability, create=True)


def kernel_write_rate(directory: Path, calls: int, durability: Durability) -> float:
    """Calls per second of ``calls`` single writes on a fresh journal (opening it is not timed)."""
    kernel = open_fresh_kernel(directory, durability)
    workload = [write_args(index) for index in range(calls)]
    call = kernel.call
    try:
        with timed() as elapsed:
            results = [call(name, args, principal=principal) for name, args, principal in workload]
    finally:
        kernel.close()
    refused = [result.error for result in results if not result.ok]
    if refused:
        raise RuntimeError(f"the kernel refused a benchmark write: {refused[0]}")
    return calls / elapsed[0]


def raw_write_rate(directory: Path, calls: int, synchronous: str) -> float:
    raw = RawJournal(_fresh(directory, "raw"), synchronous=synchronous)
    workload = [write_args(index) for index in range(calls)]
    write = raw.write
    try:
        with timed() as elapsed:
            for name, args, principal in workload:
                write(name, args, principal)
        if raw.count() != calls:
            raise RuntimeError("the reference lost writes")
    finally:
        raw.close()
    return calls / elapsed[0]


def kernel_plan(directory: Path, durability: Durability) -> list[str]:
    """The SQL statements of one ``memory.write`` through the kernel, once each user of the workload
    has written (as in the timed runs, where every user writes every hundredth call)."""
    with traced_statements() as seen:
        kernel = open_fresh_kernel(directory, durability)
        try:
            for index in range(101):
                seen.clear()
                name, args, principal = write_args(index)
                kernel.call(name, args, principal=principal)
            return list(seen)
        finally:
            kernel.close()


def raw_plan(directory: Path) -> list[str]:
    """The SQL statements of one write of the reference."""
    raw = RawJournal(_fresh(directory, "raw"))
    seen: list[str] = []
    try:
        raw.write(*write_args(0))
        raw.db.set_trace_callback(seen.append)
        raw.write(*write_args(1))
    finally:
        raw.db.set_trace_callback(None)
        raw.close()
    return seen


def plan_note(kernel: list[str], raw: list[str]) -> str:
    return (
        f"SQL statements per call: kernel {len(kernel)} ({statement_plan(kernel)}); "
        f"reference {len(raw)} ({statement_plan(raw)})"
    )


def run(quick: bool = False) -> BenchResult:
    check_same_hash()
    calls, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory:
        plan = plan_note(kernel_plan(directory, Durability.NORMAL), raw_plan(directory))
        floors = sorted((sql_floor(directory, calls) for _ in range(3)), key=lambda f: f.calls_per_second)
        floor = floors[1]  # the median of three
        kernel, raw = alternate(
            repetitions,
            lambda: kernel_write_rate(directory, calls, Durability.NORMAL),
            lambda: raw_write_rate(directory, calls, "NORMAL"),
        )
    kernel_series, raw_series = Series(tuple(kernel), "calls/s"), Series(tuple(raw), "calls/s")
    sql_us, call_us = 1e6 / floor.calls_per_second, 1e6 / kernel_series.median
    return BenchResult(
        name=NAME,
        title="memory.write, one call per transaction, WAL + synchronous=NORMAL",
        kernel_label="Kernel.call('memory.write')",
        kernel=kernel_series,
        baseline_label="raw sqlite3 (upsert + journal insert + chained sha256)",
        baseline=raw_series,
        ratio=kernel_series.median / raw_series.median,
        ratio_means="kernel calls/s ÷ raw calls/s",
        target=0.6,
        notes=[
            f"{calls} writes per run, each a new key for one of 100 users, on a fresh database file",
            "the reference keeps the chain head in memory, upserts one row and validates nothing; the "
            "kernel validates and decodes the arguments, checks the caller's right, the in-flight "
            "pipeline runs, the user's entry count and the key's current entry, keeps every version "
            "(an insert, not an upsert) and the per-user count, and records and hashes the effects; "
            "its result is decoded from the journaled bytes only when read (not here)",
            plan,
            f"the kernel's own SQL alone, median of 3 ({floor.statements_per_call:.0f} statements per "
            "call, recorded with their parameters as the kernel ran them, replayed through raw sqlite3 "
            f"on the same schema; bench/sql_floor.py): {floor.calls_per_second:,.0f} calls/s, "
            f"{sql_us:.0f} µs of "
            f"the kernel's {call_us:.0f} µs per call; the SQL alone caps the ratio at "
            f"{floor.calls_per_second / raw_series.median:.2f}, and the other {call_us - sql_us:.0f} µs "
            f"are the kernel's Python",
            f"WAL pages written per commit (checkpoints off): kernel {floor.kernel_pages_per_commit:.2f}, "
            f"reference {floor.reference_pages_per_commit:.2f} (the kernel's versioned entries, their "
            f"per-user count and a larger journal row, against one upserted row)",
        ],
        extra={
            "calls_per_run": calls,
            "sql_floor_calls_per_second": round(floor.calls_per_second),
            "kernel_pages_per_commit": round(floor.kernel_pages_per_commit, 2),
            "reference_pages_per_commit": round(floor.reference_pages_per_commit, 2),
        },
    )


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    """The kernel side alone, ready to run under a profiler."""
    calls, _ = _sizes(quick)
    kernel = open_fresh_kernel(directory, Durability.NORMAL)
    workload = [write_args(index) for index in range(calls)]

    return lambda: [kernel.call(name, args, principal=who) for name, args, who in workload], kernel.close


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

"""Benchmark 4: verification replay (``verify_journal``: chain check, re-execution of every entry on
a scratch store, byte comparison, state digest) against the rate at which the same journal was
written one ``Kernel.call`` at a time (WAL + NORMAL). Target: ratio >= 2, i.e. auditing a journal
takes less than half as long as writing it."""

from __future__ import annotations

import itertools
from pathlib import Path

from bench.common import BenchResult, ProfileJob, Series, cli_main, no_cleanup, scratch_dir, timed, write_args
from journal.engine import Durability
from journal.reader import JournalReader
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import IN_MEMORY_LIMIT, verify_journal

__all__ = ["profile_setup", "run"]

NAME = "verify_replay"
_counter = itertools.count()


def _sizes(quick: bool) -> tuple[int, int]:
    """Entries per journal, repetitions."""
    return (3_000, 3) if quick else (5_000, 5)


def write_journal(directory: Path, calls: int) -> tuple[Path, float]:
    """A fresh journal of ``calls`` single writes; returns it and the write rate (calls/s)."""
    path = directory / f"journal-{next(_counter)}.db"
    kernel = open_kernel(str(path), durability=Durability.NORMAL, create=True)
    workload = [write_args(index) for index in range(calls)]
    call = kernel.call
    try:
        with timed() as elapsed:
            results = [call(name, args, principal=principal) for name, args, principal in workload]
    finally:
        kernel.close()
    if not all(result.ok for result in results):
        raise RuntimeError("the kernel refused a benchmark write")
    return path, calls / elapsed[0]


def verify_rate(path: Path) -> float:
    """Entries per second of a full verification (opening the reader included)."""
    with timed() as elapsed:
        reader = JournalReader.open(str(path))
        try:
            report = verify_journal(reader, table=SYSCALL_TABLE)
        finally:
            reader.close()
    if not report.verified:
        raise RuntimeError(f"the benchmark journal did not verify: {report.divergence}")
    return report.entries / elapsed[0]


def run(quick: bool = False) -> BenchResult:
    calls, repetitions = _sizes(quick)
    writes: list[float] = []
    verifies: list[float] = []
    with scratch_dir(NAME) as directory:
        verify_rate(write_journal(directory, calls)[0])  # warm-up
        for _ in range(repetitions):
            path, rate = write_journal(directory, calls)
            writes.append(rate)
            verifies.append(verify_rate(path))
    verify_series, write_series = Series(tuple(verifies), "entries/s"), Series(tuple(writes), "calls/s")
    return BenchResult(
        name=NAME,
        title="verification replay against the single-call write rate of the same journal",
        kernel_label="verify_journal (chain + replay + state digest)",
        kernel=verify_series,
        baseline_label="Kernel.call('memory.write') writing that journal",
        baseline=write_series,
        ratio=verify_series.median / write_series.median,
        ratio_means="verified entries/s ÷ written calls/s",
        target=2.0,
        notes=[
            f"journals of {calls} memory.write entries, each written then verified in the same run",
            f"replay runs on an in-memory scratch store (journals up to {IN_MEMORY_LIMIT:,} entries) "
            "in batches of 500 entries per transaction; an entry recorded as accepted replays without "
            "the write guard, and one reproduced byte for byte gives the chain check its hash",
        ],
        extra={"entries_per_journal": calls},
    )


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    calls, _ = _sizes(quick)
    path, _ = write_journal(directory, calls)
    return lambda: verify_rate(path), no_cleanup


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

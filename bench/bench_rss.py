"""Benchmark 7: peak resident memory of verifying (chain + replay) a small and a large journal,
each in a fresh child process (``arvis journal verify``), with the journals of ``verify_rss.py``
(a realistic mix built through the batch API, cached in bench/journals/). Target: the large
journal's peak is at most 1.2x the small one's, i.e. verification streams."""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path
from typing import Any

from bench import verify_rss
from bench.common import BenchResult, Series, cli_main
from bench.verify_rss import ROOT, build, measure
from journal.migrate import head_revision
from tools.audit.replay import IN_MEMORY_LIMIT

__all__ = ["JOURNALS", "run"]

NAME = "verify_rss"
JOURNALS = ROOT / "bench" / "journals"


def _sizes(quick: bool) -> tuple[int, int, int]:
    """Small journal, large journal, repetitions (peak RSS hardly varies between runs; the quick run
    takes one, to stay under a minute)."""
    return (10_000, 100_000, 1) if quick else (10_000, 1_000_000, 5)


def _workload_digest() -> str:
    """Names the cache after the workload's code and the schema's revision, so that a changed mix or
    table layout is not served stale."""
    source = inspect.getsource(verify_rss._call) + inspect.getsource(verify_rss.build) + head_revision()
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:8]


def journal(entries: int) -> Path:
    """The cached journal of ``entries`` entries, built on first use."""
    JOURNALS.mkdir(parents=True, exist_ok=True)
    path = JOURNALS / f"rss-{entries}-{_workload_digest()}.db"
    if not path.exists():
        print(f"  building a {entries:,}-entry journal in {path} (cached for later runs)", flush=True)
        build(path, entries)
    return path


def _discard(path: Path) -> None:
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def measured(entries: int) -> dict[str, Any]:
    """One verification of the cached journal; a cached journal that no longer verifies (written by
    an older kernel) is rebuilt once."""
    path = journal(entries)
    result = measure(path)
    if result.get("verified") is not True:
        print(f"  the cached {path.name} did not verify ({result}); rebuilding it", flush=True)
        _discard(path)
        result = measure(journal(entries))
    if result.get("verified") is not True or result.get("entries") != entries:
        raise RuntimeError(f"verifying {path} failed: {result}")
    return result


def run(quick: bool = False) -> BenchResult:
    small, large, repetitions = _sizes(quick)
    journal(small)
    journal(large)
    small_runs: list[dict[str, Any]] = []
    large_runs: list[dict[str, Any]] = []
    for _ in range(repetitions):
        small_runs.append(measured(small))
        large_runs.append(measured(large))
    small_series = Series(tuple(run["peak_rss_mib"] for run in small_runs), "MiB")
    large_series = Series(tuple(run["peak_rss_mib"] for run in large_runs), "MiB")
    small_seconds = sorted(run["seconds"] for run in small_runs)[len(small_runs) // 2]
    large_seconds = sorted(run["seconds"] for run in large_runs)[len(large_runs) // 2]
    return BenchResult(
        name=NAME,
        title=f"peak RSS verifying a {large:,}-entry journal against a {small:,}-entry one",
        kernel_label=f"arvis journal verify, {large:,} entries",
        kernel=large_series,
        baseline_label=f"arvis journal verify, {small:,} entries",
        baseline=small_series,
        ratio=large_series.median / small_series.median,
        ratio_means="peak MiB (large) ÷ peak MiB (small)",
        target=1.2,
        direction="<=",
        notes=[
            "each verification in a fresh child process; its own peak from wait4's rusage",
            f"median wall time: {small_seconds:.1f} s for {small:,} entries "
            f"({small / small_seconds:,.0f} entries/s), {large_seconds:.1f} s for {large:,} entries "
            f"({large / large_seconds:,.0f} entries/s; journals over {IN_MEMORY_LIMIT:,} entries replay on a "
            "temporary file instead of in memory)",
        ],
        extra={
            "small_entries": small,
            "large_entries": large,
            "small_seconds_median": small_seconds,
            "large_seconds_median": large_seconds,
        },
    )


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

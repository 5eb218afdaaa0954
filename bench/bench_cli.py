"""Benchmark 8: the command line at scale and at start-up.

- Peak RSS of ``arvis journal ls DB -o json`` and ``arvis journal export DB`` on a large journal against
  the same commands on a 2,000-entry one, each in a fresh child process (its own peak, from ``wait4``).
  Target: ratio <= 1.2, i.e. both stream (goal: under 100 MB for 1,000,000 entries).
- Wall time of ``arvis journal ls DB --syscall GLOB`` on the large journal, against the old way of
  filtering (every row decoded, then ``fnmatch``; measured in-process, without start-up or printing, so
  a lower bound of what the command took). Goal: at most 5 s for 1,000,000 entries.
- Median wall time of ``arvis --version`` and ``arvis call memory.get`` against ``python -c 'import
  sqlite3'`` (the interpreter's own start-up). Goals on an idle machine: 0.3 s and 0.6 s.

The large journal is built quickly and cached in bench/journals/: a real 2,000-entry journal written
through the kernel, whose rows are then inserted again and again with renumbered seqs. Its chain does not
verify past the template (``ls`` and ``export`` never check it); everything else about the rows is real.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import inspect
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.common import BenchResult, Series, alternate, scratch_dir, timed
from journal.migrate import HEAD_REVISION
from journal.reader import JournalFilter, JournalReader
from journal.store import ManualClock
from syscalls.boot import open_kernel

__all__ = ["NAME", "large", "main", "run", "template"]

NAME = "cli"
ROOT = Path(__file__).resolve().parent.parent
JOURNALS = ROOT / "bench" / "journals"
TEMPLATE_ENTRIES = 2_000
GLOB = "memory.l*"
"""Matches ``memory.list``, one call in 2,000 of the template: a selective filter, as one looks for."""

MiB = 1024 * 1024


def _sizes(quick: bool) -> tuple[int, int, int, int]:
    """Large journal's entries, RSS repetitions, glob repetitions, start-up runs."""
    return (100_000, 1, 3, 5) if quick else (1_000_000, 5, 5, 10)


# --- the journals ----------------------------------------------------------------------------------


def _call(index: int) -> tuple[str, dict[str, Any], str]:
    """The template's mix: replacing writes, reads, snapshots, refused writes and a rare listing."""
    user = f"user-{index % 500}"
    key = ("language", "timezone", "tone_style", "working_mode")[(index // 500) % 4]
    if index % TEMPLATE_ENTRIES == 1:
        return "memory.list", {"user_id": user}, f"user:{user}"
    kind = index % 10
    if kind < 5:
        args = {"user_id": user, "key": key, "memory_type": "preference", "source": "explicit_user"}
        return "memory.write", {**args, "replace": True}, f"user:{user}"
    if kind < 8:
        return "memory.get", {"user_id": user, "key": key}, f"user:{user}"
    if kind == 8:
        return "memory.snapshot", {"user_id": user}, f"user:{user}"
    return (
        "memory.write",
        {"user_id": user, "key": "", "memory_type": "rule", "source": "explicit_user"},
        "agent:x",
    )


def _digest() -> str:
    """Names the cached journals after the mix, the growth and the schema, so none is served stale."""
    source = inspect.getsource(_call) + inspect.getsource(_grow) + HEAD_REVISION
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:8]


def _discard(path: Path) -> None:
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def template() -> Path:
    """The real 2,000-entry journal, written through ``Kernel.call_many`` (cached)."""
    JOURNALS.mkdir(parents=True, exist_ok=True)
    path = JOURNALS / f"cli-{TEMPLATE_ENTRIES}-{_digest()}.db"
    if path.exists():
        return path
    building = path.with_suffix(".building")
    _discard(building)
    clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(milliseconds=1))
    kernel = open_kernel(str(building), clock=clock, create=True)
    try:
        kernel.call_many(_call(index) for index in range(1, TEMPLATE_ENTRIES + 1))
    finally:
        kernel.close()
    _checkpointed(building)
    building.rename(path)
    return path


def _checkpointed(path: Path) -> None:
    """Fold the WAL into the file, so that the file alone is the journal (it is copied whole)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def _grow(path: Path, entries: int) -> None:
    """Append the template's rows again, seqs renumbered, until the journal holds ``entries``."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        rows = connection.execute("SELECT * FROM journal ORDER BY seq").fetchall()
        have = len(rows)
        connection.execute("BEGIN")
        for first in range(have + 1, entries + 1, 50_000):
            chunk = range(first, min(first + 50_000, entries + 1))
            connection.executemany(
                "INSERT INTO journal VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ((seq, *rows[(seq - 1) % have][1:]) for seq in chunk),
            )
        connection.execute("COMMIT")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def large(entries: int) -> Path:
    """The template grown to ``entries`` (cached)."""
    path = JOURNALS / f"cli-{entries}-{_digest()}.db"
    if path.exists():
        return path
    print(f"  building a {entries:,}-entry journal in {path} (cached for later runs)", flush=True)
    building = path.with_suffix(".building")
    _discard(building)
    shutil.copyfile(template(), building)
    _grow(building, entries)
    building.rename(path)
    return path


# --- measurements ----------------------------------------------------------------------------------


def _arvis() -> list[str]:
    """The installed ``arvis`` script when there is one (what a user runs), else ``python -m tools.cli``."""
    script = Path(sys.executable).with_name("arvis")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tools.cli"]


_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\\npeak-rss-kib {usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs a command and reports its peak RSS. Linux folds the RSS a process had before ``exec`` into its
``ru_maxrss``, and a child forked from this benchmark starts with the benchmark's own RSS (SQLAlchemy and
all): the command is forked from a bare interpreter instead, whose few MiB sit below any command's peak."""


def _child(argv: Sequence[str]) -> str:
    """Run ``argv`` with its output discarded; its stderr, which must not say it failed."""
    with tempfile.TemporaryFile() as err:
        done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, check=False)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): {stderr}")
    return stderr


def _wall(argv: Sequence[str]) -> float:
    """Seconds from starting ``argv`` to its exit."""
    with timed() as elapsed:
        _child(argv)
    return elapsed[0]


def _peak_mib(argv: Sequence[str]) -> float:
    """The peak resident set size of ``argv`` (its own, see ``_LAUNCHER``), in MiB."""
    stderr = _child([sys.executable, "-S", "-c", _LAUNCHER, *argv])
    kib = int(stderr.rsplit("peak-rss-kib", 1)[1].strip())
    return kib * 1024 / MiB


def _rss_result(
    name: str, command: Sequence[str], small: Path, big: Path, entries: int, repetitions: int
) -> BenchResult:
    """Peak RSS of ``arvis COMMAND DB`` on the large journal and on the template, alternating."""
    seconds: list[float] = []

    def on_large() -> float:
        with timed() as elapsed:
            peak = _peak_mib([*_arvis(), *command, "--db", str(big)])
        seconds.append(elapsed[0])
        return peak

    def on_small() -> float:
        return _peak_mib([*_arvis(), *command, "--db", str(small)])

    runs = alternate(repetitions, on_large, on_small, warmup=False)
    wall = statistics.median(seconds)
    large_series, small_series = Series(tuple(runs[0]), "MiB"), Series(tuple(runs[1]), "MiB")
    return BenchResult(
        name=name,
        title=f"peak RSS of `arvis {' '.join(command)} DB` on {entries:,} entries against "
        f"{TEMPLATE_ENTRIES:,}",
        kernel_label=f"{entries:,} entries",
        kernel=large_series,
        baseline_label=f"{TEMPLATE_ENTRIES:,} entries",
        baseline=small_series,
        ratio=large_series.median / small_series.median,
        ratio_means="peak MiB (large) ÷ peak MiB (small)",
        target=1.2,
        direction="<=",
        notes=[
            "each run in a fresh child process, output to /dev/null; its own peak from wait4's rusage, "
            "forked from a bare interpreter so that none of the benchmark's memory is counted",
            f"goal: under 100 MB at 1,000,000 entries; here {large_series.median:.0f} MiB at {entries:,}",
            f"median wall time on {entries:,} entries: {wall:.1f} s ({entries / wall:,.0f} entries/s)",
        ],
        extra={"entries": entries, "seconds": seconds},
    )


def _glob_old_way(path: Path) -> float:
    """The listing's filter before it went to SQL: every row decoded, then matched in Python."""
    reader = JournalReader.open(str(path))
    try:
        with timed() as elapsed:
            matched = sum(1 for entry in reader.entries() if fnmatch.fnmatchcase(entry.syscall, GLOB))
    finally:
        reader.close()
    if not matched:
        raise RuntimeError(f"{GLOB} matched nothing")
    return elapsed[0]


def _glob_in_sql(path: Path) -> float:
    reader = JournalReader.open(str(path))
    try:
        with timed() as elapsed:
            sum(1 for _ in reader.entries(JournalFilter(syscall_glob=GLOB)))
    finally:
        reader.close()
    return elapsed[0]


def _glob_result(big: Path, entries: int, repetitions: int) -> BenchResult:
    command = [*_arvis(), "journal", "ls", "--db", str(big), "--syscall", GLOB, "-o", "jsonl"]
    cli_seconds = [_wall(command) for _ in range(repetitions)]
    old = [_glob_old_way(big) for _ in range(repetitions)]
    in_sql = [_glob_in_sql(big) for _ in range(repetitions)]
    kernel, baseline = Series(tuple(cli_seconds), "s"), Series(tuple(old), "s")
    return BenchResult(
        name="cli_glob_filter",
        title=f"`arvis journal ls DB --syscall '{GLOB}'` on {entries:,} entries",
        kernel_label="the command, start-up and printing included (child process)",
        kernel=kernel,
        baseline_label="the old filter alone: every row decoded, then fnmatch (in-process)",
        baseline=baseline,
        ratio=baseline.median / kernel.median,
        ratio_means="old filter's seconds ÷ the command's seconds (how many times faster)",
        notes=[
            f"the reader's filtered read alone (in-process): median {statistics.median(in_sql):.2f} s",
            f"goal: at most 5 s at 1,000,000 entries; here {kernel.median:.2f} s at {entries:,}",
        ],
        extra={"entries": entries, "reader_seconds": in_sql},
    )


def _startup_results(journal: Path, runs: int) -> list[BenchResult]:
    call = [
        *_arvis(),
        "call",
        "memory.get",
        "--db",
        str(journal),
        "--args",
        '{"user_id": "user-2", "key": "language"}',
        "--principal",
        "user:user-2",
    ]
    bare, version, called = alternate(
        runs,
        lambda: _wall([sys.executable, "-c", "import sqlite3"]),
        lambda: _wall([*_arvis(), "--version"]),
        lambda: _wall(call),
    )
    baseline = Series(tuple(bare), "s")
    results = []
    for name, label, samples, goal in (
        ("cli_version_startup", "arvis --version", version, 0.3),
        ("cli_call_startup", "arvis call memory.get (one journaled read)", called, 0.6),
    ):
        series = Series(tuple(samples), "s")
        results.append(
            BenchResult(
                name=name,
                title=f"wall time of `{label.split(' (')[0]}` against a bare interpreter's start-up",
                kernel_label=label,
                kernel=series,
                baseline_label="python -c 'import sqlite3'",
                baseline=baseline,
                ratio=series.median / baseline.median,
                ratio_means="seconds ÷ a bare interpreter's seconds",
                notes=[
                    f"{runs} runs each, alternating, in fresh child processes",
                    f"goal on an idle machine: at most {goal} s; here {series.median:.3f} s",
                ],
            )
        )
    return results


def run(quick: bool = False) -> list[BenchResult]:
    entries, rss_repetitions, glob_repetitions, startup_runs = _sizes(quick)
    small, big = template(), large(entries)
    results = [
        _rss_result("cli_ls_json_rss", ["journal", "ls", "-o", "json"], small, big, entries, rss_repetitions),
        _rss_result("cli_export_rss", ["journal", "export"], small, big, entries, rss_repetitions),
        _glob_result(big, entries, glob_repetitions),
    ]
    with scratch_dir(NAME) as directory:
        scratch = directory / "calls.db"
        shutil.copyfile(small, scratch)
        results += _startup_results(scratch, startup_runs)
    return results


def main() -> None:
    """``python -m bench.bench_cli [--quick]``: these benchmarks alone, printed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 entries instead of 1,000,000")
    for result in run(parser.parse_args().quick):
        print(result.report(), flush=True)


if __name__ == "__main__":
    main()

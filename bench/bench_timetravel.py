"""Benchmark: time travel (a snapshot read by one query over the version columns, ``journal-format.md``
§16.4; the state read from the rows and their history, ``journal.history``).

A journal of 1,000,000 entries (20,000 in ``--quick``) written through ``Kernel.call_many``: 1,000 users
(100), each with 20 keys, the calls replacing writes (60 %), revokes (5 %), reads (30 %) and refused
writes (5 %), users and keys drawn at random. Measured (``timetravel``): ``snapshot_at`` of one user at
the middle of the journal, against a current ``memory.snapshot`` of the same user through ``Kernel.call``
on (a copy of) the same journal. Target (issue 51): at most 2x. Beside it, in child processes, the peak
RSS and time of the same ``snapshot_at``, of ``state_at``, and of the replay from the first entry (what
both cost before the past was kept in rows), and the space the history takes.

The large journal is cached in ``bench/journals`` (named after the workload and the code that writes
it), with what its build measured beside it.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import journal.history as history
from bench.common import BenchResult, Series, alternate, timed
from journal.migrate import HEAD_REVISION
from journal.reader import JournalReader
from journal.store import ManualClock
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from tools.audit.timetravel import snapshot_at

__all__ = ["NAME", "run"]

NAME = "timetravel"
ROOT = Path(__file__).resolve().parent.parent
JOURNALS = ROOT / "bench" / "journals"
GOAL_RATIO = 2.0
KEYS = 20
BATCH = 1_000
USER = "user-0007"
MiB = 1024 * 1024


def _sizes(quick: bool) -> dict[str, int]:
    if quick:
        return {
            "entries": 20_000,
            "users": 100,
            "reps": 5,
        }
    return {
        "entries": 1_000_000,
        "users": 1_000,
        "reps": 15,
    }


def _call(rng: random.Random, index: int, users: int) -> tuple[str, dict[str, Any], str]:
    """The workload's ``index``-th call."""
    user = f"user-{rng.randrange(users):04d}"
    key = f"k{rng.randrange(KEYS):02d}"
    principal = f"user:{user}"
    draw = rng.random()
    if draw < 0.60:
        args = {"user_id": user, "key": key, "memory_type": "preference", "source": "explicit_user"}
        return "memory.write", {**args, "replace": True, "value_ref": f"vault://{user}/{index}"}, principal
    if draw < 0.65:
        return "memory.revoke", {"user_id": user, "key": key}, principal
    if draw < 0.95:
        return "memory.get", {"user_id": user, "key": key}, principal
    return (
        "memory.write",
        {"user_id": user, "key": "", "memory_type": "rule", "source": "explicit_user"},
        principal,
    )


def _clock() -> ManualClock:
    return ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(milliseconds=1))


def _discard(path: Path) -> None:
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def _checkpointed(path: Path) -> None:
    """Fold the WAL into the file (the file alone is then the journal, and its size is the journal's)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def _grow(kernel: Kernel, rng: random.Random, first: int, count: int, users: int) -> None:
    for start in range(first, first + count, BATCH):
        size = min(BATCH, first + count - start)
        results = kernel.call_many(_call(rng, index, users) for index in range(start, start + size))
        if any(result.seq is None for result in results):
            raise RuntimeError("a benchmark call was not acknowledged")


def _digest(sizes: dict[str, int]) -> str:
    source = (
        inspect.getsource(_call)
        + inspect.getsource(_grow)
        + inspect.getsource(history)
        + HEAD_REVISION
        + json.dumps(sizes, sort_keys=True)
    )
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:8]


def large(sizes: dict[str, int]) -> tuple[Path, dict[str, Any]]:
    """The large journal (cached) and what its build measured."""
    JOURNALS.mkdir(parents=True, exist_ok=True)
    path = JOURNALS / f"timetravel-{sizes['entries']}-{_digest(sizes)}.db"
    facts = path.with_suffix(".json")
    if path.exists() and facts.exists():
        return path, json.loads(facts.read_text(encoding="utf-8"))
    print(f"  building a {sizes['entries']:,}-entry journal in {path} (cached for later runs)", flush=True)
    building = path.with_suffix(".building")
    _discard(building)
    kernel = open_kernel(str(building), clock=_clock(), create=True)
    rng = random.Random(20261129)
    segment = max(sizes["entries"] // 10, BATCH)
    per_append: list[float] = []
    try:
        for first in range(1, sizes["entries"] + 1, segment):
            count = min(segment, sizes["entries"] + 1 - first)
            with timed() as elapsed:
                _grow(kernel, rng, first, count, sizes["users"])
            per_append.append(elapsed[0] / count * 1e6)
            print(f"    {first + count - 1:,} entries, {per_append[-1]:.0f} µs per append", flush=True)
    finally:
        kernel.close()
    _checkpointed(building)
    found = {"segment": segment, "us_per_append": per_append}
    building.rename(path)
    facts.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return path, found


# --- measurements in child processes --------------------------------------------------------------

_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\\npeak-rss-kib {usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs a command and reports its own peak RSS (forked from a bare interpreter: see ``bench_cli``)."""

_TRAVEL = """
import sys, time
from journal.reader import JournalReader
from tools.audit.timetravel import snapshot_at, state_at
path, user, seq, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
reader = JournalReader.open(path)
started = time.perf_counter()
if what == "snapshot":
    value = snapshot_at(reader, user, seq)
else:
    value = state_at(reader, seq)
sys.stderr.write(f"\\nelapsed {time.perf_counter() - started}\\n")
"""


def _in_child(path: Path, user: str, seq: int, what: str) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of one time travel in a fresh process (imports not timed)."""
    argv = [
        sys.executable,
        "-S",
        "-c",
        _LAUNCHER,
        sys.executable,
        "-c",
        _TRAVEL,
        str(path),
        user,
        str(seq),
        what,
    ]
    with tempfile.TemporaryFile() as err:
        done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, check=False)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if done.returncode != 0:
        raise RuntimeError(f"time travel ({what}) failed: {stderr}")
    seconds = float(stderr.rsplit("elapsed", 1)[1].split()[0])
    kib = int(stderr.rsplit("peak-rss-kib", 1)[1].strip())
    return seconds, kib * 1024 / MiB


# --- the benchmarks ---------------------------------------------------------------------------------


def _space(path: Path) -> dict[str, float]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        logged, log_bytes = connection.execute(
            'SELECT COUNT(*), COALESCE(SUM(LENGTH("row")), 0) FROM graph_history'
        ).fetchone()
        rows = connection.execute("SELECT COUNT(*) FROM memory_entries").fetchone()[0]
    finally:
        connection.close()
    return {
        "file_mib": path.stat().st_size / MiB,
        "logged_entries": logged,
        "log_mib": log_bytes / MiB,
        "state_rows": rows,
    }


def _travel(path: Path, sizes: dict[str, int], build: dict[str, Any]) -> BenchResult:
    middle = sizes["entries"] // 2
    with tempfile.TemporaryDirectory(prefix="kbench-timetravel-") as directory:
        live_path = Path(directory) / "live.db"
        shutil.copyfile(path, live_path)
        live = open_kernel(str(live_path), create=True)
        reader = JournalReader.open(str(path))
        try:
            expected = snapshot_at(reader, USER, middle)
            rows_of_user = sum(1 for _ in expected["snapshot"].get("active_entries", []))

            def travelled() -> float:
                with timed() as elapsed:
                    value = snapshot_at(reader, USER, middle)
                assert value == expected
                return elapsed[0]

            def current() -> float:
                with timed() as elapsed:
                    result = live.call("memory.snapshot", {"user_id": USER}, principal=f"user:{USER}")
                assert result.ok
                return elapsed[0]

            fast, now = alternate(sizes["reps"], travelled, current)
        finally:
            reader.close()
            live.close()
    child_snapshot = _in_child(path, USER, middle, "snapshot")
    child_state = _in_child(path, USER, middle, "state")
    kernel_series = Series(tuple(fast), "s")
    baseline = Series(tuple(now), "s")
    ratio = kernel_series.median / baseline.median
    space = _space(path)
    notes = [
        f"journal: {sizes['entries']:,} entries, {sizes['users']:,} users x {KEYS} keys; the user {USER} "
        f"holds {rows_of_user} active entries at seq {middle:,}",
        f"in a fresh process at seq {middle:,}: snapshot_at {child_snapshot[0]:.3f} s, peak RSS "
        f"{child_snapshot[1]:.0f} MiB; state_at {child_state[0]:.2f} s, peak RSS {child_state[1]:.0f} MiB",
        f"space: {space['file_mib']:.0f} MiB in all, of which graph_history {space['log_mib']:.1f} MiB "
        f"({space['logged_entries']:,} rows kept); {space['state_rows']:,} rows of memory_entries",
        "the build, µs per append by tenth of the journal: "
        + ", ".join(f"{value:.0f}" for value in build["us_per_append"]),
    ]
    return BenchResult(
        name=NAME,
        title=f"snapshot_at the middle of a {sizes['entries']:,}-entry journal ÷ a current memory.snapshot "
        f"of the same user (goal: at most {GOAL_RATIO:g}x)",
        kernel_label=f"snapshot_at({USER!r}, seq {middle:,}) read by one query over the version columns",
        kernel=kernel_series,
        baseline_label=f"Kernel.call('memory.snapshot', {USER!r}) at the head",
        baseline=baseline,
        ratio=ratio,
        ratio_means="snapshot_at seconds ÷ memory.snapshot seconds",
        target=GOAL_RATIO,
        direction="<=",
        notes=notes,
        extra={
            "entries": sizes["entries"],
            "seq": middle,
            "child": {
                "snapshot_at": {"seconds": child_snapshot[0], "peak_rss_mib": child_snapshot[1]},
                "state_at": {"seconds": child_state[0], "peak_rss_mib": child_state[1]},
            },
            "space": space,
            "build": build,
        },
    )


def run(quick: bool = False) -> list[BenchResult]:
    sizes = _sizes(quick)
    path, build = large(sizes)
    return [_travel(path, sizes, build)]


def _main(argv: Sequence[str]) -> Iterator[str]:
    for result in run("--quick" in argv):
        yield result.report()


if __name__ == "__main__":
    for report in _main(sys.argv[1:]):
        print(report, flush=True)

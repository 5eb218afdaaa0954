"""What every benchmark shares: samples and their statistics, the result record, alternating
repetitions, temporary directories, the write workload, and the machine description."""

from __future__ import annotations

import argparse
import os
import platform
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "MIN_REPETITIONS",
    "BenchResult",
    "ProfileJob",
    "Series",
    "alternate",
    "cli_main",
    "machine",
    "no_cleanup",
    "scratch_dir",
    "statement_plan",
    "timed",
    "traced_statements",
    "write_args",
]

MIN_REPETITIONS = 5
"""Every benchmark of a full run reports the median of at least this many repetitions (quick runs
may take fewer, to stay under a minute)."""

Direction = Literal[">=", "<="]

ProfileJob = tuple[Callable[[], object], Callable[[], None]]
"""The kernel side of a benchmark ready to run under the profiler, and what to do after (close)."""


def no_cleanup() -> None:
    """The clean-up of a profile job that has none."""


@dataclass(frozen=True)
class Series:
    """Samples of one measured quantity (a rate or a time), in ``unit``."""

    samples: tuple[float, ...]
    unit: str

    @property
    def minimum(self) -> float:
        return min(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def maximum(self) -> float:
        return max(self.samples)

    def describe(self) -> str:
        return (
            f"min {_num(self.minimum)} / median {_num(self.median)} / max {_num(self.maximum)} {self.unit}"
            f" ({len(self.samples)} runs)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "min": self.minimum,
            "median": self.median,
            "max": self.maximum,
            "unit": self.unit,
            "samples": list(self.samples),
        }


def _num(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


@dataclass
class BenchResult:
    """One benchmark: the kernel's series, the baseline's, and the ratio of their medians.

    ``ratio`` is defined per benchmark (``ratio_means``); ``target`` and ``direction`` say what it
    must reach (``None``: the figure is informative, with no target).
    """

    name: str
    title: str
    kernel_label: str
    kernel: Series
    baseline_label: str
    baseline: Series | None
    ratio: float | None
    ratio_means: str
    target: float | None = None
    direction: Direction = ">="
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def met(self) -> bool | None:
        if self.target is None or self.ratio is None:
            return None
        return self.ratio >= self.target if self.direction == ">=" else self.ratio <= self.target

    def target_text(self) -> str:
        return "—" if self.target is None else f"{self.direction} {self.target:g}"

    def met_text(self) -> str:
        return {True: "yes", False: "**no**", None: "n/a"}[self.met]

    def to_json(self) -> dict[str, Any]:
        return {
            "ratio": None if self.ratio is None else round(self.ratio, 4),
            "target": self.target,
            "met": self.met,
            "median": self.kernel.median,
            "unit": self.kernel.unit,
            "direction": self.direction if self.target is not None else None,
            "ratio_means": self.ratio_means,
            "title": self.title,
            "kernel": {"label": self.kernel_label, **self.kernel.to_json()},
            "baseline": None
            if self.baseline is None
            else {"label": self.baseline_label, **self.baseline.to_json()},
            "notes": self.notes,
            "extra": self.extra,
        }

    def report(self) -> str:
        lines = [f"== {self.name}: {self.title}", f"  kernel   {self.kernel_label}: {self.kernel.describe()}"]
        if self.baseline is not None:
            lines.append(f"  baseline {self.baseline_label}: {self.baseline.describe()}")
        if self.ratio is not None:
            verdict = "" if self.met is None else ("  MET" if self.met else "  MISSED")
            lines.append(
                f"  ratio {self.ratio:.3f} ({self.ratio_means}), target {self.target_text()}{verdict}"
            )
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def alternate(repetitions: int, *runs: Callable[[], float], warmup: bool = True) -> list[list[float]]:
    """Run each of ``runs`` in turn, ``repetitions`` rounds (after one untimed warm-up round), so
    that drift in the machine's speed falls on every side alike. Each callable returns one sample;
    the result holds one list of samples per callable, in order."""
    if warmup:
        for measure in runs:
            measure()
    samples: list[list[float]] = [[] for _ in runs]
    for _ in range(repetitions):
        for measure, into in zip(runs, samples, strict=True):
            into.append(measure())
    return samples


@contextmanager
def timed() -> Iterator[list[float]]:
    """``with timed() as elapsed: ...`` then ``elapsed[0]`` is the block's wall time in seconds."""
    holder: list[float] = []
    started = time.perf_counter()
    try:
        yield holder
    finally:
        holder.append(time.perf_counter() - started)


@contextmanager
def scratch_dir(prefix: str) -> Iterator[Path]:
    """A temporary directory for the databases of one benchmark (never inside the repository)."""
    with tempfile.TemporaryDirectory(prefix=f"kbench-{prefix}-") as directory:
        yield Path(directory)


@contextmanager
def traced_statements() -> Iterator[list[str]]:
    """Every SQL statement run on SQLite connections that SQLAlchemy engines open inside the block
    (through SQLite's own trace hook, so the kernel's raw-cursor statements are seen too)."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    seen: list[str] = []

    def trace(dbapi_connection: Any, _record: Any) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            dbapi_connection.set_trace_callback(seen.append)

    event.listen(Engine, "connect", trace)
    try:
        yield seen
    finally:
        event.remove(Engine, "connect", trace)


_TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+\"?([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)


def statement_plan(statements: list[str]) -> str:
    """``BEGIN IMMEDIATE, SELECT journal, INSERT journal x10, ...``: each statement's verb and first
    table, runs of the same shape collapsed."""
    shapes: list[list[Any]] = []
    for statement in statements:
        words = statement.split()
        verb = " ".join(words[:2]) if words[:1] in (["BEGIN"], ["RELEASE"]) else (words[0] if words else "")
        table = _TABLE.search(statement)
        shape = f"{verb} {table.group(1)}" if table and verb in ("SELECT", "INSERT", "UPDATE") else verb
        if shapes and shapes[-1][0] == shape and verb != "SELECT":
            shapes[-1][1] += 1
        else:
            shapes.append([shape, 1])
    return ", ".join(shape if count == 1 else f"{shape} x{count}" for shape, count in shapes)


def write_args(index: int, *, users: int = 100) -> tuple[str, dict[str, Any], str]:
    """The ``index``-th call of the write workload: a new key for one of ``users`` users, with a
    value reference, so every call inserts a fresh entry (no conflict, no supersession)."""
    user = f"user-{index % users}"
    return (
        "memory.write",
        {
            "user_id": user,
            "key": f"pref_{index}",
            "memory_type": "preference",
            "source": "explicit_user",
            "value_ref": f"vault://users/{user}/prefs/{index}",
        },
        f"user:{user}",
    )


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _filesystem(path: str) -> str:
    """The file system type of the temporary directory (from /proc/mounts, the longest prefix)."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text(encoding="utf-8").splitlines()]
    except OSError:
        return "unknown"
    best = ("", "unknown")
    for fields in mounts:
        if len(fields) >= 3 and path.startswith(fields[1]) and len(fields[1]) > len(best[0]):
            best = (fields[1], fields[2])
    return best[1]


def machine() -> dict[str, Any]:
    """The machine the figures came from."""
    temp = tempfile.gettempdir()
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "sqlite": sqlite3.sqlite_version,
        "os": f"{platform.system()} {platform.release()}",
        "temp_dir": temp,
        "temp_filesystem": _filesystem(os.path.realpath(temp)),
        "packages": {name: _version(name) for name in ("sqlalchemy", "msgspec", "orjson", "eventsourcing")},
    }


def cli_main(run: Callable[[bool], BenchResult], description: str) -> None:
    """``python -m bench.<module> [--quick]``: one benchmark, printed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="small sizes")
    options = parser.parse_args()
    print(run(options.quick).report(), flush=True)

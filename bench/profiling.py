"""Where the kernel's time goes: the kernel side of a benchmark under cProfile, summarised as the
functions with the largest own time, the project functions with the largest cumulative time, and
own time grouped by source file, each as a share of the profiled total."""

from __future__ import annotations

import cProfile
import pstats
import sysconfig
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import ProfileJob, scratch_dir

__all__ = ["Profile", "profile"]

Key = tuple[str, int, str]
Stat = tuple[int, int, float, float, Any]
ROOT = Path(__file__).resolve().parent.parent
_PROJECT = ("arvis/", "kernel/", "journal/", "syscalls/", "tools/")
_SITE = sysconfig.get_paths()["purelib"]
_STDLIB = sysconfig.get_paths()["stdlib"]


def _where(filename: str) -> str:
    """A short name for a code file: relative to the repository, site-packages or the stdlib."""
    if filename == "~":
        return "(built-in)"
    path = str(filename)
    for prefix, label in ((str(ROOT) + "/", ""), (_SITE + "/", ""), (_STDLIB + "/", "stdlib/")):
        if path.startswith(prefix):
            return label + path[len(prefix) :]
    return path


def _label(key: tuple[str, int, str]) -> str:
    filename, line, name = key
    where = _where(filename)
    if where == "(built-in)":
        return name
    return f"{name} ({where}:{line})"


def _in_project(key: tuple[str, int, str]) -> bool:
    return _where(key[0]).startswith(_PROJECT)


@dataclass(frozen=True)
class Row:
    label: str
    share: float  # of the profiled total, 0..1
    seconds: float
    calls: int


@dataclass(frozen=True)
class Profile:
    benchmark: str
    total_seconds: float
    own: list[Row]
    cumulative: list[Row]
    by_file: list[Row]

    def to_json(self) -> dict[str, Any]:
        def rows(items: list[Row]) -> list[dict[str, Any]]:
            return [
                {
                    "function": row.label,
                    "share": round(row.share, 4),
                    "seconds": row.seconds,
                    "calls": row.calls,
                }
                for row in items
            ]

        return {
            "total_seconds": self.total_seconds,
            "own_time": rows(self.own),
            "cumulative_project": rows(self.cumulative),
            "own_time_by_file": rows(self.by_file),
        }

    def markdown(self) -> str:
        def table(title: str, items: list[Row], what: str) -> list[str]:
            lines = [f"{title}", "", f"| {what} | share | seconds | calls |", "|---|---:|---:|---:|"]
            lines += [
                f"| `{row.label}` | {row.share:.1%} | {row.seconds:.3f} | {row.calls:,} |" for row in items
            ]
            return [*lines, ""]

        return "\n".join(
            [
                f"Profiled total: {self.total_seconds:.2f} s under cProfile (which inflates the cost of "
                "Python calls relative to C; read the shares, not the seconds).",
                "",
                *table("Own time, top functions:", self.own, "function"),
                *table("Cumulative time, project functions:", self.cumulative, "function"),
                *table("Own time by source file:", self.by_file, "file"),
            ]
        )


def profile(benchmark: str, setup: Callable[[Path, bool], ProfileJob], quick: bool) -> Profile:
    """Run the kernel side of ``benchmark`` (prepared by ``setup``, not profiled) under cProfile."""
    with scratch_dir(f"profile-{benchmark}") as directory:
        work, cleanup = setup(directory, quick)
        profiler = cProfile.Profile()
        profiler.enable()
        try:
            work()
        finally:
            profiler.disable()
            cleanup()
    stats = pstats.Stats(profiler)
    entries: dict[Key, Stat] = stats.stats  # type: ignore[attr-defined]
    total = float(stats.total_tt) or 1e-9  # type: ignore[attr-defined]
    own = sorted(entries.items(), key=lambda item: item[1][2], reverse=True)[:18]
    cumulative = sorted(
        ((key, value) for key, value in entries.items() if _in_project(key)),
        key=lambda item: item[1][3],
        reverse=True,
    )[:15]
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for key, (_, calls, own_time, _, _) in entries.items():
        where = _where(key[0])
        if where == "(built-in)":
            where = "(built-in) " + key[2].split(" of ")[-1].rstrip(">").strip()
        files[where][0] += own_time
        files[where][1] += calls
    by_file = sorted(files.items(), key=lambda item: item[1][0], reverse=True)[:15]
    return Profile(
        benchmark=benchmark,
        total_seconds=total,
        own=[Row(_label(key), value[2] / total, value[2], value[1]) for key, value in own],
        cumulative=[Row(_label(key), value[3] / total, value[3], value[1]) for key, value in cumulative],
        by_file=[Row(name, seconds / total, seconds, int(calls)) for name, (seconds, calls) in by_file],
    )

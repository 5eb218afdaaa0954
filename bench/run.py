"""Run every benchmark and write bench/RESULTS.md and bench/results.json.

Usage: python -m bench.run [--quick] [--only NAME ...] [--profile missed|all|none] [--out DIR]

Each benchmark runs the kernel and its baseline in this one process run (the RSS benchmark in child
processes), alternating repetitions; the figures are medians. For every target missed, the kernel
side is profiled with cProfile and the profile goes into RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import (
    bench_batch,
    bench_cli,
    bench_concurrency,
    bench_merkle,
    bench_peer,
    bench_rss,
    bench_snapshot,
    bench_store_search,
    bench_timetravel,
    bench_verify,
    bench_working_memory,
    bench_write,
    bench_write_full,
)
from bench.common import MIN_REPETITIONS, BenchResult, ProfileJob, machine
from bench.profiling import Profile, profile

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent

Runner = Callable[[bool], BenchResult | list[BenchResult]]
Setup = Callable[[Path, bool], ProfileJob]

BENCHMARKS: list[tuple[str, Runner]] = [
    (bench_write.NAME, bench_write.run),
    (bench_write_full.NAME, bench_write_full.run),
    (bench_batch.NAME, bench_batch.run),
    (bench_verify.NAME, bench_verify.run),
    (bench_snapshot.NAME, bench_snapshot.run),
    (bench_working_memory.NAME, bench_working_memory.run),
    (bench_rss.NAME, bench_rss.run),
    (bench_cli.NAME, bench_cli.run),
    (bench_merkle.NAME, bench_merkle.run),
    (bench_peer.NAME, bench_peer.run),
    (bench_timetravel.NAME, bench_timetravel.run),
    (bench_concurrency.NAME, bench_concurrency.run),
    (bench_store_search.NAME, bench_store_search.run),
]

PROFILES: dict[str, Setup] = {
    bench_write.NAME: bench_write.profile_setup,
    bench_write_full.NAME: bench_write_full.profile_setup,
    bench_batch.NAME: bench_batch.profile_setup,
    bench_verify.NAME: bench_verify.profile_setup,
    bench_snapshot.NAME: bench_snapshot.profile_setup,
    bench_working_memory.NAME: bench_working_memory.profile_setup,
    bench_working_memory.SCENARIO_NAME: bench_working_memory.profile_setup_scenario,
    bench_peer.GET_NAME: bench_peer.profile_setup_get,
    bench_peer.SNAPSHOT_AT_NAME: bench_peer.profile_setup_snapshot_at,
    bench_peer.STATE_AT_NAME: bench_peer.profile_setup_state_at,
}
"""The kernel side of each benchmark, for the profiler (peak RSS is not a matter of time, and the command
line's figures are child processes: neither is profiled)."""


def _git() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed = len(dirty.splitlines())
    return f"{head} with {changed} uncommitted changed files outside bench/" if dirty else head


def _median(result: BenchResult, baseline: bool = False) -> str:
    series = result.baseline if baseline else result.kernel
    if series is None:
        return "—"
    value = series.median
    text = f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
    return f"{text} {series.unit}"


def _load(values: tuple[float, float, float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def _markdown(
    results: list[BenchResult],
    profiles: dict[str, Profile],
    errors: dict[str, str],
    context: dict[str, Any],
) -> str:
    host = context["machine"]
    packages = ", ".join(f"{name} {version}" for name, version in host["packages"].items())
    lines = [
        "# Benchmark results",
        "",
        f"Written by `{context['command']}` ({context['mode']} mode) on {context['date']}, "
        f"at commit {context['commit']}; {context['seconds']:.0f} s in all.",
        "Each benchmark runs the kernel and its baseline in the same process run, alternating "
        "repetitions (after one untimed warm-up of each); figures are medians, with min and max below.",
        "",
        "## Machine",
        "",
        f"- CPU: {host['cpu']}, {host['cores']} cores",
        f"- Python {host['python']} ({host['python_implementation']}), SQLite {host['sqlite']}",
        f"- {host['os']}; databases in {host['temp_dir']} ({host['temp_filesystem']})",
        f"- {packages}",
        f"- load average (1, 5, 15 min) at the start: {_load(context['load'][0])}; at the end: "
        f"{_load(context['load'][1])} (other work on the machine slows both sides of a comparison alike, "
        "since their repetitions alternate, but widens the min-max spread)",
        "",
        "## Summary",
        "",
        "| benchmark | kernel (median) | baseline (median) | ratio | target | met |",
        "|---|---:|---:|---:|:---:|:---:|",
    ]
    for result in results:
        ratio = "—" if result.ratio is None else f"{result.ratio:.2f}"
        lines.append(
            f"| {result.name} | {_median(result)} | {_median(result, baseline=True)} | {ratio} | "
            f"{result.target_text()} | {result.met_text()} |"
        )
    lines += [f"| {name} | error | | | | **no** |" for name in errors]
    lines += ["", "## Details", ""]
    for result in results:
        lines += [f"### {result.name}: {result.title}", ""]
        lines.append(f"- kernel, {result.kernel_label}: {result.kernel.describe()}")
        if result.baseline is not None:
            lines.append(f"- baseline, {result.baseline_label}: {result.baseline.describe()}")
        if result.ratio is not None:
            lines.append(
                f"- ratio {result.ratio:.3f} ({result.ratio_means}); target {result.target_text()}; "
                f"met: {result.met_text()}"
            )
        lines += [f"- {note}" for note in result.notes]
        lines.append("")
    for name, error in errors.items():
        lines += [f"### {name}: failed", "", "```", error.rstrip(), "```", ""]
    if profiles:
        lines += [
            "## Where the time goes",
            "",
            "The kernel side of each benchmark listed, run alone under cProfile at the same size.",
            "",
        ]
        for name, found in profiles.items():
            lines += [f"### {name}", "", found.markdown(), ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="small sizes, under a minute")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these benchmarks")
    parser.add_argument(
        "--profile",
        choices=("missed", "all", "none"),
        default="missed",
        help="profile the kernel side of the benchmarks whose target was missed (default), all, none",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench", help="where RESULTS.md goes")
    options = parser.parse_args()
    started = time.perf_counter()
    load_before = os.getloadavg()
    chosen = [(name, runner) for name, runner in BENCHMARKS if not options.only or name in options.only]
    results: list[BenchResult] = []
    errors: dict[str, str] = {}
    for name, runner in chosen:
        print(f"-- {name}", flush=True)
        began = time.perf_counter()
        try:
            produced = runner(options.quick)
        except Exception:
            errors[name] = traceback.format_exc()
            print(errors[name], file=sys.stderr, flush=True)
            continue
        finally:
            print(f"-- {name}: {time.perf_counter() - began:.1f} s", flush=True)
        for result in produced if isinstance(produced, list) else [produced]:
            if not options.quick and len(result.kernel.samples) < MIN_REPETITIONS:
                raise AssertionError(f"{result.name} took fewer than {MIN_REPETITIONS} repetitions")
            results.append(result)
            print(result.report(), flush=True)
    profiles: dict[str, Profile] = {}
    for result in results:
        wanted = options.profile == "all" or (options.profile == "missed" and result.met is False)
        setup = PROFILES.get(result.name)
        if wanted and setup is not None:
            print(f"-- profiling {result.name}", flush=True)
            profiles[result.name] = profile(result.name, setup, options.quick)
    context = {
        "command": "make bench-quick" if options.quick else "make bench",
        "mode": "quick" if options.quick else "full",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _git(),
        "machine": machine(),
        "seconds": time.perf_counter() - started,
        "load": (load_before, os.getloadavg()),
    }
    options.out.mkdir(parents=True, exist_ok=True)
    document = {result.name: result.to_json() for result in results}
    for name, found in profiles.items():
        document[name]["profile"] = found.to_json()
    (options.out / "results.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    (options.out / "RESULTS.md").write_text(_markdown(results, profiles, errors, context), encoding="utf-8")
    print(f"wrote {options.out / 'RESULTS.md'} and {options.out / 'results.json'}", flush=True)
    for result in results:
        print(
            f"{result.name:32} ratio {'—' if result.ratio is None else f'{result.ratio:.3f}':>7} "
            f"target {result.target_text():>6}  met {result.met_text()}"
        )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

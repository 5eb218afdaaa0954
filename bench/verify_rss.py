"""Peak RSS of verifying a journal (chain + replay), for journals of different lengths.

Usage: python bench/verify_rss.py N [N ...] [--dir DIR]
Builds (or reuses) a journal of N entries per size with a realistic mix (writes to many users,
replacements, revokes, reads, snapshots, a few refused calls) through the batch API, then verifies
each in a fresh child process and reports that process's peak resident set size.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from journal.store import ManualClock  # noqa: E402
from syscalls.boot import open_kernel  # noqa: E402  (after the path set-up, on purpose)

KEYS = ("language", "timezone", "tone_style", "no_marketing_emails", "working_mode", "no_peanuts")


def _call(index: int) -> tuple[str, dict[str, Any], str]:
    user = f"user-{index % 5_000}"
    key = KEYS[(index // 5_000) % len(KEYS)] + ("" if index % 7 else f"-{index % 97}")
    kind = index % 10
    if kind < 4:
        args = {
            "user_id": user,
            "key": key,
            "memory_type": "preference",
            "source": "explicit_user",
            "replace": True,
        }
        return "memory.write", args, f"user:{user}"
    if kind < 7:
        return "memory.get", {"user_id": user, "key": key}, f"user:{user}"
    if kind == 7:
        return "memory.snapshot", {"user_id": user}, f"user:{user}"
    if kind == 8:
        return "memory.revoke", {"user_id": user, "key": key}, f"user:{user}"
    return (
        "memory.write",
        {"user_id": user, "key": "", "memory_type": "rule", "source": "explicit_user"},
        "agent:x",
    )


def build(path: Path, entries: int) -> float:
    """Write ``entries`` calls in batches of 1,000; returns calls per second."""
    kernel = open_kernel(
        str(path),
        clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(milliseconds=1)),
        create=True,
    )
    started = time.perf_counter()
    try:
        for first in range(0, entries, 1_000):
            kernel.call_many(_call(index) for index in range(first, min(first + 1_000, entries)))
    finally:
        kernel.close()
    return entries / (time.perf_counter() - started)


def measure(path: Path) -> dict[str, Any]:
    """Verify in a child process; its own peak RSS, from the rusage ``wait4`` returns for it."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "tools.cli", "journal", "verify", "--db", str(path), "-o", "json"],
            cwd=ROOT,
            stdout=out,
            stderr=err,
            text=True,
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    report = json.loads(stdout) if stdout.strip() else {"error": stderr}
    return {
        "entries": report.get("entries"),
        "verified": report.get("verified"),
        "seconds": round(seconds, 2),
        "entries_per_second": report.get("entries_per_second"),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "peak_rss_note": "the verifying child's own peak (ru_maxrss from wait4)",
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sizes", nargs="+", type=int)
    parser.add_argument("--dir", default=str(ROOT / "bench" / "journals"))
    options = parser.parse_args()
    directory = Path(options.dir)
    directory.mkdir(parents=True, exist_ok=True)
    results = {}
    for size in sorted(options.sizes):
        path = directory / f"rss-{size}.db"
        write_rate = None
        if not path.exists():
            write_rate = round(build(path, size), 1)
        results[str(size)] = {"write_calls_per_second": write_rate, **measure(path)}
        print(json.dumps({size: results[str(size)]}), flush=True)
    print(json.dumps(results, indent=2, sort_keys=True))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()

"""Partitioned journals (``specs/scale-out.md``): ``memory.write`` throughput of 4 writers at
``Durability.FULL`` on SQLite against a journal split into P = 1, 2 and 4 partitions (one file each).

Three shapes of writers, each in its own measurement:

1. ``partitioned``: 4 threads sharing one ``PartitionedKernel`` (each partition's kernel groups the calls
   its threads make at once into one commit, ``specs/durability.md`` §3.1), users spread over every
   partition;
2. ``partitioned_processes``: 4 processes, each with its own ``PartitionedKernel`` on the same set, users
   spread over every partition (writers of one partition are ordered by its file's write lock);
3. ``partitioned_processes_affine``: the same, but writer w's users all live in partition w mod P (a
   deployment that sends a tenant's traffic to one worker): at P=4 no two writers share a partition.

Each writer writes ``calls`` new entries of 25 users of its own; the global log records the heads every
1,000 calls, as by default. Rate = all writers'
calls ÷ the wall time from a common start (a barrier) to the last writer's end. The figures are
informative scaling ratios: P=2 (this machine's cores) ÷ P=1, with P=4 beside.

``python -m bench.bench_partitioned [--quick]`` runs it alone; ``python -m bench.run --only partitioned``
with the report.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import threading
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

from bench.common import BenchResult, Series, alternate, scratch_dir
from journal.engine import Durability
from kernel.partition_routing import partition_of
from kernel.partitioned_boot import create_partitioned, open_partitioned
from kernel.services import default_services

__all__ = ["AFFINE_NAME", "NAME", "PROCESS_NAME", "run"]

NAME = "partitioned"
PROCESS_NAME = "partitioned_processes"
AFFINE_NAME = "partitioned_processes_affine"
WRITERS = 4
PARTITIONS = (1, 2, 4)
USERS_PER_WRITER = 25
_counter = itertools.count()


def _sizes(quick: bool) -> tuple[int, int]:
    """Calls per writer per repetition, repetitions."""
    return (40, 3) if quick else (150, 5)


def users_of(writer: int, partitions: int | None) -> list[str]:
    """A writer's users: any 25 (``partitions`` None), or 25 that all live in partition
    ``writer % partitions``."""
    if partitions is None:
        return [f"w{writer}-u{number}" for number in range(USERS_PER_WRITER)]
    chosen = (f"w{writer}-u{number}" for number in itertools.count())
    home = writer % partitions
    return list(
        itertools.islice((u for u in chosen if partition_of(u, partitions) == home), USERS_PER_WRITER)
    )


def _call(users: list[str], index: int) -> tuple[str, dict[str, Any], str]:
    user = users[index % len(users)]
    args = {"user_id": user, "key": f"k{index}", "memory_type": "preference", "source": "explicit_user"}
    return "memory.write", args, f"user:{user}"


def _fresh(directory: Path, partitions: int) -> Path:
    location = directory / f"set-{partitions}-{next(_counter)}"
    create_partitioned(location, partitions=partitions)
    return location


def thread_rate(directory: Path, partitions: int, calls: int) -> float:
    """Calls per second of ``WRITERS`` threads sharing one router."""
    router = open_partitioned(
        _fresh(directory, partitions), durability=Durability.FULL, services=default_services()
    )
    barrier = threading.Barrier(WRITERS + 1)
    failed: list[Any] = []

    def work(writer: int) -> None:
        users = users_of(writer, None)
        barrier.wait()
        for index in range(calls):
            name, args, principal = _call(users, index)
            if not router.call(name, args, principal=principal).ok:
                failed.append((writer, index))

    threads = [threading.Thread(target=work, args=(writer,)) for writer in range(WRITERS)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    router.close()
    if failed:
        raise RuntimeError(f"{len(failed)} calls failed")
    return WRITERS * calls / elapsed


def _process_writer(
    location: str, writer: int, users: list[str], calls: int, barrier: Barrier, times: Any
) -> None:
    """One writer process: its own router, then its calls after the common start."""
    router = open_partitioned(location, durability=Durability.FULL, services=default_services())
    barrier.wait()
    started = time.perf_counter()  # CLOCK_MONOTONIC: comparable between processes on one machine
    failed = 0
    for index in range(calls):
        name, args, principal = _call(users, index)
        failed += 0 if router.call(name, args, principal=principal).ok else 1
    ended = time.perf_counter()
    router.close()
    times.put((started, ended, failed))


def process_rate(directory: Path, partitions: int, calls: int, *, affine: bool = False) -> float:
    """Calls per second of ``WRITERS`` processes, each with its own router on the same set; ``affine``:
    each writer's users in one partition."""
    location = str(_fresh(directory, partitions))
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(WRITERS)
    times = context.Queue()
    workers = [
        context.Process(
            target=_process_writer,
            args=(location, writer, users_of(writer, partitions if affine else None), calls, barrier, times),
        )
        for writer in range(WRITERS)
    ]
    for worker in workers:
        worker.start()
    spans = [times.get(timeout=600) for _ in workers]
    for worker in workers:
        worker.join()
    if any(failed for _, _, failed in spans):
        raise RuntimeError("some calls failed")
    elapsed = float(max(end for _, end, _ in spans) - min(start for start, _, _ in spans))
    return WRITERS * calls / elapsed


def _result(name: str, shape: str, series: dict[int, Series], calls: int) -> BenchResult:
    cores = os.cpu_count() or 1
    wide = max(p for p in PARTITIONS if p <= max(cores, 2))
    one, many, four = series[1], series[wide], series[PARTITIONS[-1]]
    return BenchResult(
        name=name,
        title=f"memory.write by {WRITERS} {shape} at FULL, journal split into P partitions (SQLite files)",
        kernel_label=f"P={wide} partitions",
        kernel=many,
        baseline_label="P=1 (one journal)",
        baseline=one,
        ratio=many.median / one.median,
        ratio_means=f"calls/s at P={wide} ÷ calls/s at P=1",
        notes=[
            f"P=4: {four.describe()}; P=4 ÷ P=1 = {four.median / one.median:.2f}",
            f"{WRITERS} writers x {calls} calls per repetition, each of its own {USERS_PER_WRITER} users; "
            "fresh set per repetition; the global log records the heads every 1,000 calls",
            f"target (informative): throughput grows with P up to the machine's cores; this machine has "
            f"{cores} cores, so P={wide} is the last step that can add CPU; at FULL each commit also waits "
            "for an fsync of its own partition's WAL, which partitions run side by side",
        ],
        extra={
            "calls_per_writer": calls,
            "writers": WRITERS,
            "cores": cores,
            **{f"p{p}": series[p].to_json() for p in PARTITIONS},
        },
    )


def _series(samples: list[list[float]]) -> dict[int, Series]:
    return {p: Series(tuple(each), "calls/s") for p, each in zip(PARTITIONS, samples, strict=True)}


def run(quick: bool = False) -> list[BenchResult]:
    calls, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory:
        threads = alternate(repetitions, *(lambda p=p: thread_rate(directory, p, calls) for p in PARTITIONS))
        results = [_result(NAME, "threads sharing one router", _series(threads), calls)]
        for name, shape, affine in (
            (PROCESS_NAME, "processes, a router each", False),
            (AFFINE_NAME, "processes, a router each, each writer's users in one partition", True),
        ):
            measured = alternate(
                repetitions,
                *(lambda p=p, a=affine: process_rate(directory, p, calls, affine=a) for p in PARTITIONS),
                warmup=False,
            )
            results.append(_result(name, shape, _series(measured), calls))
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    for result in run(parser.parse_args().quick):
        print(result.report(), flush=True)

"""PostgreSQL writers, 1 and 4, threads and processes, on a throwaway server: a quick A/B of the append path.

``python -m bench.pg_scaling [threads,processes] [rounds]`` prints calls/s per run and the medians; it uses
the ``concurrency`` benchmark's own writers (``bench.bench_concurrency``), 3 s per run, at FULL.
"""

from __future__ import annotations

import statistics
import sys

from bench.bench_concurrency import kernel_processes, kernel_threads, postgres
from journal.engine import Durability

DURATION_S = 3.0


def main(argv: list[str]) -> int:
    kinds = argv[0].split(",") if argv else ["threads", "processes"]
    rounds = int(argv[1]) if len(argv) > 1 else 3
    with postgres() as (server, why_not):
        if server is None:
            print(f"no PostgreSQL server: {why_not}")
            return 2
        rates: dict[tuple[str, int], list[float]] = {}
        for _ in range(rounds):
            for writers in (1, 4):
                for kind in kinds:
                    with server.fresh() as url:
                        outcome = (
                            kernel_processes(url, Durability.FULL, writers, DURATION_S)
                            if kind == "processes"
                            else kernel_threads(url, Durability.FULL, writers, DURATION_S, group_commit=True)
                        )
                    rates.setdefault((kind, writers), []).append(outcome.rate)
                    print(kind, writers, round(outcome.rate), flush=True)
        for (kind, writers), values in sorted(rates.items()):
            print(f"median {kind} {writers}: {statistics.median(values):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

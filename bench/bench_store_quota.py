"""``graph.store.put`` with and without the store quota (``specs/langgraph.md`` §8.3), the two alternated
on fresh SQLite files in one process run: the median time of the last 500 puts, when the owner's store is at
its largest. ``python -m bench.bench_store_quota [ITEMS]``."""

import statistics
import sys
import tempfile
import time
from pathlib import Path

from arvis.canonical import canonical_bytes
from journal.blob_store import hash_of
from kernel.boot import open_kernel
from kernel.identity import VouchedPrincipals


def run(quota, n, directory):
    kernel = open_kernel(
        str(Path(directory) / f"q{quota}.db"),
        create=True,
        store_quota_bytes=quota,
        identity=VouchedPrincipals(),
    )
    assert kernel.call("graph.namespace.create", {"prefix": "p"}, principal="agent:a").ok
    times = []
    for i in range(n):
        value = {"text": f"item {i} " + "x" * 200}
        args = {
            "namespace": ["p", "n"],
            "key": f"k{i}",
            "value": value,
            "value_hash": hash_of(canonical_bytes(value)),
        }
        t = time.perf_counter()
        r = kernel.call("graph.store.put", args, principal="agent:a")
        times.append(time.perf_counter() - t)
        assert r.ok, r
    kernel.close()
    return times


n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
with tempfile.TemporaryDirectory() as d:
    rows = {None: [], 1 << 30: []}
    for rnd in range(2):
        for quota in (None, 1 << 30) if rnd % 2 == 0 else (1 << 30, None):
            with tempfile.TemporaryDirectory() as dd:
                rows[quota] += run(quota, n, dd)[-500:]  # the last 500 puts: the store at its largest
    a, b = statistics.median(rows[None]) * 1e6, statistics.median(rows[1 << 30]) * 1e6
    print(f"{n} items, last 500 puts: no quota {a:.0f} us, quota {b:.0f} us, ratio {b / a:.2f}")

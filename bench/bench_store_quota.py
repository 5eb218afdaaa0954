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
from kernel.identity import VouchedPrincipals
from syscalls.boot import open_kernel


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
ARMS = (None, 1 << 30)
early: dict[int | None, list[float]] = {arm: [] for arm in ARMS}
late: dict[int | None, list[float]] = {arm: [] for arm in ARMS}
for round_ in range(4):  # the two arms alternate, each first in turn
    for quota in ARMS if round_ % 2 == 0 else ARMS[::-1]:
        with tempfile.TemporaryDirectory() as directory:
            times = run(quota, n, directory)
        early[quota] += times[100:600]  # the store still small
        late[quota] += times[-500:]  # the store at its largest
for name, part in (("puts 100-600", early), ("last 500 puts", late)):
    free, bounded = (statistics.median(part[arm]) * 1e6 for arm in ARMS)
    print(f"{n} items, {name}: no quota {free:.0f} us, quota {bounded:.0f} us, ratio {bounded / free:.2f}")

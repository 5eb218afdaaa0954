"""Benchmark: semantic search in the LangGraph store (``graph.store.search`` with a query,
specs/langgraph.md §8.5) beside LangGraph's ``InMemoryStore`` with the same index.

10,000 items (500 in ``--quick``) in one namespace, each ``{"text": ..., "n": i}`` indexed on ``text``,
stored in ``ArvisStore`` (a SQLite file, each put a journaled call carrying its embedding) and in
``InMemoryStore``. Measured: ``search(("bench",), query=..., limit=10)``, the two stores alternating,
the same queries. Ratio: ArvisStore's seconds per search ÷ InMemoryStore's (lower is better; target 1.5,
issue 52). Each side's first search is an untimed warm-up: ArvisStore's first ranking of the prefix in a
process reads every value once, later ones use the embeddings it kept (``specs/langgraph.md`` §8.5).

Both use one embedding function: a deterministic pseudo-random unit vector of 384 dimensions per text
(numpy, seeded by the text's SHA-256), not a model: a model's cost is the same on both sides (the query
is embedded once per search by either store) and would only hide the stores' own. ``SqliteStore`` with
its ``sqlite-vec`` index is not measured: ``sqlite-vec`` 0.1.9 installs from PyPI, but the Python this was
written on has an ``sqlite3`` built without loadable extensions (no ``enable_load_extension``), which
``SqliteStore``'s vector index needs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore

from bench.common import BenchResult, Series, alternate, cli_main, scratch_dir, timed
from integrations.langgraph_store import ArvisStore
from journal.store import ManualClock
from syscalls.boot import open_kernel

__all__ = ["NAME", "run"]

NAME = "store_search"
TARGET = 1.5
DIMS = 384
BATCH = 500
QUERIES = ["what does the user drink", "meetings on monday", "the dog's name", "travel plans", "tea"]
TOPICS = ["tea", "coffee", "a dog", "a cat", "Paris", "Tokyo", "meetings", "the deploy", "books", "running"]


def embed(texts: list[str]) -> list[list[float]]:
    """A deterministic unit vector per text (not a model: see the module's docstring)."""
    vectors = []
    for text in texts:
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
        vector = np.random.default_rng(seed).standard_normal(DIMS)
        vectors.append((vector / np.linalg.norm(vector)).tolist())
    return vectors


def _fill(store: BaseStore, items: int) -> None:
    for start in range(0, items, BATCH):
        store.batch(
            [
                PutOp(("bench",), f"item{i}", {"text": f"note {i} about {TOPICS[i % len(TOPICS)]}", "n": i})
                for i in range(start, min(start + BATCH, items))
            ]
        )


def _searcher(store: BaseStore) -> Callable[[], float]:
    turn = iter(range(10**9))

    def measure() -> float:
        query = QUERIES[next(turn) % len(QUERIES)]
        with timed() as elapsed:
            found = store.search(("bench",), query=query, limit=10)
        if len(found) != 10 or found[0].score is None:
            raise RuntimeError("a benchmark search found too little")
        return elapsed[0]

    return measure


def run(quick: bool) -> BenchResult:
    items, repetitions = (500, 10) if quick else (10_000, 10)
    index: Any = {"dims": DIMS, "embed": embed, "fields": ["text"]}
    with scratch_dir(NAME) as directory:
        kernel = open_kernel(
            str(Path(directory) / "store.db"),
            create=True,
            clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC)),
        )
        arvis = ArvisStore(kernel, principal="agent:bench", index=index)
        memory = InMemoryStore(index=index)
        try:
            with timed() as fill_arvis:
                _fill(arvis, items)
            with timed() as fill_memory:
                _fill(memory, items)
            mine_first, theirs_first = _searcher(arvis)(), _searcher(memory)()  # each side's first, alone
            mine, theirs = alternate(repetitions, _searcher(arvis), _searcher(memory))
        finally:
            arvis.close()
            kernel.close()
    kernel_series = Series(tuple(mine), "s")
    baseline = Series(tuple(theirs), "s")
    return BenchResult(
        name=NAME,
        title=f"store search(query=...) over {items:,} items: ArvisStore beside InMemoryStore",
        kernel_label="ArvisStore on SQLite, each search a journaled graph.store.search ranking in the kernel",
        kernel=kernel_series,
        baseline_label="LangGraph InMemoryStore (numpy cosine)",
        baseline=baseline,
        ratio=kernel_series.median / baseline.median,
        ratio_means="ArvisStore seconds per search ÷ InMemoryStore seconds per search (lower is better)",
        target=TARGET,
        direction="<=",
        notes=[
            f"{items:,} items of {DIMS} dimensions, limit 10, {len(QUERIES)} queries in turn",
            "one embedding function on both sides: a seeded pseudo-random unit vector per text, no model",
            f"filling took {fill_arvis[0]:.1f} s (ArvisStore, {BATCH} puts per batch) and "
            f"{fill_memory[0]:.1f} s (InMemoryStore)",
            "SqliteStore with sqlite-vec: not measured (its vector index loads an SQLite extension)",
            f"the first search after filling, not in the ratio: ArvisStore {mine_first:.3g} s (its first "
            f"ranking reads every value), InMemoryStore {theirs_first:.3g} s "
            f"({mine_first / theirs_first:.2f}x)",
        ],
        extra={"items": items, "dims": DIMS},
    )


if __name__ == "__main__":
    cli_main(run, __doc__ or "")

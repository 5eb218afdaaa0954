"""Benchmark 9: proving one entry of a 1,000,000-entry journal (``arvis journal prove``'s work, in-process).

The journal keeps no tree: a proof streams every ``entry_hash`` once, in seq order, and hashes the leaves
and the subtrees of the audit path (``journal.merkle``, O(n) hashing, O(log n) memory). Goal: at most
1 s. Measured, alternating:

- the whole proof: the SELECT of the entry hashes through ``JournalReader.entry_hashes``, the leaf
  hashes, the path and the root (``merkle.prove_inclusion``);
- its two parts alone: the SELECT (the same reader, values discarded), and the hashing over the same
  leaves held in memory (the pure functions, no database).

The journal is bench_cli's cached large journal (real rows, its chain verifying only over the template):
what is proved is the stored entry hashes, whatever they are.
"""

from __future__ import annotations

from collections import deque

from bench.bench_cli import large
from bench.common import BenchResult, Series, alternate, cli_main, timed
from journal import merkle
from journal.reader import JournalReader
from journal.tree import journal_leaves, journal_size

__all__ = ["NAME", "run"]

NAME = "merkle_prove"
GOAL_SECONDS = 1.0


def _sizes(quick: bool) -> tuple[int, int]:
    """Entries, repetitions."""
    return (100_000, 3) if quick else (1_000_000, 5)


def run(quick: bool = False) -> BenchResult:
    entries, repetitions = _sizes(quick)
    reader = JournalReader.open(str(large(entries)))
    try:
        size = journal_size(reader)
        index = size // 3
        leaves = list(journal_leaves(reader, size))

        def whole() -> float:
            with timed() as elapsed:
                proof = merkle.prove_inclusion(journal_leaves(reader, size), index, size)
            assert merkle.verify_inclusion(proof.leaf_hash, index, size, proof.path, proof.root)
            return elapsed[0]

        def select_only() -> float:
            with timed() as elapsed:
                deque(reader.entry_hashes(size), maxlen=0)
            return elapsed[0]

        def hashing_only() -> float:
            with timed() as elapsed:
                merkle.prove_inclusion(iter(leaves), index, size)
            return elapsed[0]

        proved, selected, hashed = alternate(repetitions, whole, select_only, hashing_only)
        proof = merkle.prove_inclusion(leaves, index, size)
    finally:
        reader.close()
    series = Series(tuple(proved), "s")
    hashing = Series(tuple(hashed), "s")
    return BenchResult(
        name=NAME,
        title=f"seconds to prove one entry of a {size:,}-entry journal (goal: at most {GOAL_SECONDS:g} s)",
        kernel_label="prove_inclusion over JournalReader.entry_hashes (SELECT + hashing)",
        kernel=series,
        baseline_label="the SELECT of the entry hashes alone",
        baseline=Series(tuple(selected), "s"),
        ratio=series.median / GOAL_SECONDS,
        ratio_means=f"seconds ÷ the {GOAL_SECONDS:g} s goal",
        target=1.0,
        direction="<=",
        notes=[
            f"hashing alone (the pure functions over {size:,} leaf hashes in memory): {hashing.describe()}",
            f"proof: {len(proof.path)} hashes = {32 * len(proof.path)} bytes "
            f"(32·⌈log2 n⌉ = {32 * (size - 1).bit_length()})",
            f"{2 * size - 1:,} SHA-256 computations per proof: {size:,} leaves, {size - 1:,} nodes",
        ],
        extra={"entries": size, "path_hashes": len(proof.path)},
    )


if __name__ == "__main__":
    cli_main(run, (__doc__ or "").splitlines()[0])

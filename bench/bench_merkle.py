"""Benchmark 9: proving one entry of a 1,000,000-entry journal (``arvis journal prove``'s work, in-process).

The writer stores the root of every complete block of 4096 leaves (Merkle tiles, ``journal.tiles``), so a
proof reads the stored tiles (244 for 1,000,000 entries) and at most two tiles' worth of entry hashes
(``journal.tree.TiledTree``; each run asserts it). Goal: at most 1 s. Measured, alternating:

- the proof through the tiles (what ``arvis journal prove`` does);
- the proof without them: every ``entry_hash`` streamed and hashed (``merkle.prove_inclusion`` over
  ``journal_leaves``; what a journal written before revision 0008 would cost without its migration);
- the hashing alone over the same leaves held in memory (no database).

The journal is a copy of bench_cli's cached large journal (real rows, grown row by row, so without tiles)
with its tiles stored as the migration stores them (``journal.tile_backfill``); what is proved is the
stored entry hashes, whatever they are.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from bench.bench_cli import large
from bench.common import BenchResult, Series, alternate, cli_main, timed
from journal import merkle
from journal.engine import open_engine
from journal.reader import JournalReader
from journal.tile_backfill import backfill_tiles
from journal.tiles import TILE
from journal.tree import TiledTree, journal_leaves, journal_size

__all__ = ["NAME", "run"]

NAME = "merkle_prove"
GOAL_SECONDS = 1.0


def _sizes(quick: bool) -> tuple[int, int]:
    """Entries, repetitions."""
    return (100_000, 3) if quick else (1_000_000, 5)


def _tiled_copy(source: Path, directory: Path) -> Path:
    """A copy of ``source`` with its Merkle tiles stored."""
    copy = directory / "tiled.db"
    shutil.copyfile(source, copy)
    engine = open_engine(str(copy))
    try:
        with engine.begin() as connection:
            backfill_tiles(connection)
    finally:
        engine.dispose()
    return copy


def run(quick: bool = False) -> BenchResult:
    entries, repetitions = _sizes(quick)
    with tempfile.TemporaryDirectory(prefix="arvis-bench-merkle-") as directory:
        reader = JournalReader.open(str(_tiled_copy(large(entries), Path(directory))))
        try:
            size = journal_size(reader)
            index = size // 3
            leaves = list(journal_leaves(reader, size))
            expected = merkle.prove_inclusion(leaves, index, size)

            def tiled() -> float:
                tree = TiledTree(reader, size)
                with timed() as elapsed:
                    proof = tree.prove_inclusion(index)
                assert proof == expected
                assert tree.leaves_read <= 2 * TILE  # the claim the figure rests on
                return elapsed[0]

            def streamed() -> float:
                with timed() as elapsed:
                    proof = merkle.prove_inclusion(journal_leaves(reader, size), index, size)
                assert proof == expected
                return elapsed[0]

            def hashing_only() -> float:
                with timed() as elapsed:
                    merkle.prove_inclusion(iter(leaves), index, size)
                return elapsed[0]

            proved, untiled, hashed = alternate(repetitions, tiled, streamed, hashing_only)
            proof = expected
        finally:
            reader.close()
    series = Series(tuple(proved), "s")
    hashing = Series(tuple(hashed), "s")
    return BenchResult(
        name=NAME,
        title=f"seconds to prove one entry of a {size:,}-entry journal (goal: at most {GOAL_SECONDS:g} s)",
        kernel_label=f"TiledTree.prove_inclusion ({size // TILE} stored tiles + the leaves of at most two)",
        kernel=series,
        baseline_label="prove_inclusion over every entry hash (no tiles: SELECT + hashing)",
        baseline=Series(tuple(untiled), "s"),
        ratio=series.median / GOAL_SECONDS,
        ratio_means=f"seconds ÷ the {GOAL_SECONDS:g} s goal",
        target=1.0,
        direction="<=",
        notes=[
            f"hashing alone (the pure functions over {size:,} leaf hashes in memory): {hashing.describe()}",
            f"proof: {len(proof.path)} hashes = {32 * len(proof.path)} bytes "
            f"(32·⌈log2 n⌉ = {32 * (size - 1).bit_length()})",
            f"without tiles: {2 * size - 1:,} SHA-256 computations per proof ({size:,} leaves, "
            f"{size - 1:,} nodes); with them: at most 2 tiles of leaves, about 4·4096 computations",
        ],
        extra={"entries": size, "path_hashes": len(proof.path)},
    )


if __name__ == "__main__":
    cli_main(run, (__doc__ or "").splitlines()[0])

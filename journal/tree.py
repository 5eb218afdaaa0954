"""The journal's Merkle tree (specs/journal-format.md §11): leaves are the entries in seq order, the leaf
data of an entry is the 32 raw bytes of its ``entry_hash``.

Because every entry hash already binds the whole chain before it, the tree adds no new commitment to the
content: what it adds are short proofs. An auditor holding a root can be shown that one entry is in the
journal (inclusion) or that a later journal still holds the tree it signed (consistency) with about
32·log2(n) bytes, instead of the journal itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from journal import merkle
from journal.reader import JournalReader
from journal.tiles import TILE, BadLeaf, leaves_of_texts

__all__ = ["BadLeaf", "BadTile", "TileCheck", "TiledTree", "check_tiles", "journal_leaves", "journal_size"]


def journal_size(reader: JournalReader) -> int:
    """The tree size of the whole journal: its head's seq (entries are 1, 2, 3, … without gaps; a
    journal with a gap has fewer leaves than that, which ``merkle.ShortTree`` then reports)."""
    head = reader.head()
    return 0 if head is None else max(head.seq, 0)


def journal_leaves(reader: JournalReader, until_seq: int | None = None) -> Iterator[bytes]:
    """The leaf hashes of the entries up to ``until_seq``, in seq order, streamed a chunk at a time.
    Raises ``BadLeaf`` naming the first entry of a chunk whose hash is not 64 hex digits."""
    hashes = reader.entry_hashes(until_seq)
    position = 0
    while chunk := list(islice(hashes, merkle.CHUNK)):
        yield from leaves_of_texts(chunk, position + 1)
        position += len(chunk)


class TiledTree:
    """The Merkle tree of the first ``size`` entries of a journal, read through its stored tiles.

    ``root(start, end)`` is MTH of the leaves ``[start, end)`` (0-based): RFC 9162's recursion, which
    stops at a stored tile, or at a range within one tile, whose leaves it reads (one query for that
    range). Every range a proof needs is a node of the tree, so its value is the same, tile or not."""

    def __init__(self, reader: JournalReader, size: int, *, use_tiles: bool = True) -> None:
        self.reader = reader
        self.size = size
        self.tiles: dict[int, bytes] = reader.merkle_tiles(size // TILE) if use_tiles else {}
        self.leaves_read = 0

    def leaves(self, start: int, end: int) -> list[bytes]:
        """The leaf hashes of ``[start, end)``, read from the entries; ``ShortTree`` on a gap."""
        texts = self.reader.entry_hashes_between(start + 1, end)
        self.leaves_read += len(texts)
        if len(texts) < end - start:
            raise merkle.ShortTree(start + len(texts), self.size)
        return leaves_of_texts(texts, start + 1)

    def root(self, start: int, end: int) -> bytes:
        count = end - start
        if count <= 0:
            return merkle.EMPTY_ROOT
        if count == TILE and start % TILE == 0 and start // TILE in self.tiles:
            return self.tiles[start // TILE]
        if start // TILE == (end - 1) // TILE:  # within one tile: from its leaves
            return merkle.root_of(self.leaves(start, end), count)
        split = 1 << ((count - 1).bit_length() - 1)
        return merkle.node_hash(self.root(start, start + split), self.root(start + split, end))

    def prove_inclusion(self, index: int) -> merkle.InclusionProof:
        ranges = merkle.inclusion_ranges(index, self.size)
        leaf = self.root(index, index + 1)
        path = tuple(self.root(start, end) for start, end in ranges)
        root = merkle.root_from_inclusion(index, self.size, leaf, path)
        assert root is not None
        return merkle.InclusionProof(index, self.size, leaf, root, path)


class BadTile(ValueError):
    """A stored tile that is not the root of its entries."""

    def __init__(self, tile: int) -> None:
        first = tile * TILE + 1
        super().__init__(
            f"stored Merkle tile {tile} (entries {first}-{first + TILE - 1}) is not the root of those entries"
        )
        self.tile = tile
        self.seq = first


@dataclass(frozen=True)
class TileCheck:
    checked: int
    bad: BadTile | None


def check_tiles(reader: JournalReader) -> TileCheck:
    """Recompute every stored tile from the entries (one pass over the entry hashes) and compare; the
    first that differs, or that names entries the journal does not hold, is reported. A leaf that is not
    64 hex digits is the chain check's to report: its tile is skipped here."""
    head = reader.head()
    size = 0 if head is None else max(head.seq, 0)
    stored = reader.merkle_tiles(None)
    if not stored:
        return TileCheck(0, None)
    beyond = [tile for tile in stored if (tile + 1) * TILE > size]
    computed: dict[int, bytes] = {}
    try:
        for tile, root in enumerate(_tile_roots(journal_leaves(reader, (size // TILE) * TILE))):
            computed[tile] = root
    except (BadLeaf, merkle.ShortTree):
        pass
    for tile in sorted(stored):
        if tile in beyond or (tile in computed and computed[tile] != stored[tile]):
            return TileCheck(len(stored), BadTile(tile))
    return TileCheck(len(stored), None)


def _tile_roots(leaves: Iterator[bytes]) -> Iterator[bytes]:
    while True:
        block = [leaf for _, leaf in zip(range(TILE), leaves, strict=False)]
        if len(block) < TILE:
            return
        yield merkle.root_of(block, TILE)

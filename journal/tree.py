"""The journal's Merkle tree (specs/journal-format.md §11): leaves are the entries in seq order, the leaf
data of an entry is the 32 raw bytes of its ``entry_hash``.

Because every entry hash already binds the whole chain before it, the tree adds no new commitment to the
content: what it adds are short proofs. An auditor holding a root can be shown that one entry is in the
journal (inclusion) or that a later journal still holds the tree it signed (consistency) with about
32·log2(n) bytes, instead of the journal itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from journal import merkle
from journal.reader import JournalReader
from journal.tiles import TILE, leaves_of_texts
from journal.tiles import BadLeaf as BadLeaf  # re-exported: tools.journal_proofs imports it from here


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
    """A stored tile row that is not the root of its entries (or names no tile of the journal, or holds
    no root in the stored form: 64 lower-case hex digits)."""

    def __init__(self, tile: object, why: str = "is not the root of those entries") -> None:
        if type(tile) is int and tile >= 0:
            first = tile * TILE + 1
            super().__init__(f"stored Merkle tile {tile} (entries {first}-{first + TILE - 1}) {why}")
            self.seq = first
        else:
            super().__init__(f"stored Merkle tile {tile!r} {why}")
            self.seq = 0
        self.tile = tile


class TileCheck:
    """The stored tiles checked against entry hashes given in seq order from entry 1 on, by whoever reads
    them anyway (verification's walk feeds each entry it accepted, so the journal is not read twice). Only
    the tiles a row is stored for are recomputed; the hashes of one tile are held at a time."""

    def __init__(self, rows: list[tuple[Any, Any]]) -> None:
        self.rows = rows
        """The stored tile rows, as stored (``JournalReader.merkle_tile_rows``)."""
        self.wanted = frozenset(tile for tile, _ in rows if type(tile) is int and tile >= 0)
        """The tiles to recompute: those a row is stored for (empty: ``add`` does nothing)."""
        self.computed: dict[int, bytes] = {}
        self._texts: list[str] = []
        self._fed = 0
        self._stopped = False

    def add(self, entry_hash: str) -> None:
        """The next entry's hash (the first call gives entry 1's)."""
        tile = self._fed // TILE
        self._fed += 1
        if tile not in self.wanted or self._stopped:
            return
        self._texts.append(entry_hash)
        if len(self._texts) == TILE:
            texts, self._texts = self._texts, []
            try:
                self.computed[tile] = merkle.root_of(leaves_of_texts(texts, tile * TILE + 1), TILE)
            except BadLeaf:  # the chain check's to report; no tile from here on is recomputed
                self._stopped = True

    def result(self, size: int) -> BadTile | None:
        """The first bad stored row (in tile order) of a journal of ``size`` entries, all fed."""
        complete = size // TILE
        for tile, root in self.rows:
            if type(tile) is not int or not 0 <= tile < complete:
                return BadTile(tile, "names no complete tile of the journal")
            if type(root) is not str or len(root) != 64 or not set(root) <= _LOWER_HEX:
                return BadTile(tile, "holds no root (64 lower-case hex digits)")
            if tile in self.computed and self.computed[tile].hex() != root:
                return BadTile(tile)
        return None


_LOWER_HEX = frozenset("0123456789abcdef")

"""Merkle tiles: the roots of the journal's complete, aligned blocks of ``TILE`` leaves, stored beside it
so that a proof reads O(n / TILE + TILE) values instead of every leaf (``journal-format.md`` §11.4).

A tile ``t`` is the root of the perfect subtree over the leaves of entries ``t·TILE + 1 … (t + 1)·TILE``:
a node of every tree of at least ``(t + 1)·TILE`` leaves, so it never changes once its last entry is
appended. The writer stores it in the transaction that appends that entry (``journal.store``); a
database upgraded from before tiles gets the tiles of its existing entries from the migration.

Tiles are derived data, not state: the state digest leaves them out. They are trusted only as far as
the journal is: ``journal.tree.TiledTree`` uses a stored tile where there is one and the entries
elsewhere, so a proof is correct for the stored tiles; ``journal verify`` recomputes every stored
tile from the entry hashes its walk accepts (``journal.tree.TileCheck``) and names the first that differs.
"""

from __future__ import annotations

from collections.abc import Sequence

from journal import merkle

TILE = 1 << 12
"""Leaves per tile: 4096, so a 1,000,000-entry journal has 244 tiles and a proof reads at most two
tiles' worth of leaves."""

assert TILE == merkle.CHUNK, "a tile is hashed in one go, as one chunk"


class BadLeaf(ValueError):
    """An entry whose ``entry_hash`` is not 64 hex digits has no leaf (the chain check names it too)."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"entry {seq} has no Merkle leaf: its entry_hash is not 64 hex digits")
        self.seq = seq


def leaves_of_texts(texts: Sequence[str], first_seq: int) -> list[bytes]:
    """The leaf hashes of consecutive entries from their ``entry_hash`` texts, the first being entry
    ``first_seq``. Raises ``BadLeaf`` naming the first text that is not 64 hex digits."""
    try:
        data = list(map(bytes.fromhex, texts))
    except ValueError:
        data = []
    # fromhex skips whitespace inside the text: a 64-character text may still give fewer bytes
    if texts and (set(map(len, texts)) != {64} or set(map(len, data)) != {merkle.HASH_SIZE}):
        raise BadLeaf(first_seq + next(i for i, text in enumerate(texts) if not _is_leaf_text(text)))
    return list(merkle.leaf_hashes(data))


def _is_leaf_text(text: str) -> bool:
    """Whether ``text`` is 64 hex digits (the first text of a chunk that is not is the entry named)."""
    try:
        return len(text) == 64 and len(bytes.fromhex(text)) == merkle.HASH_SIZE
    except ValueError:
        return False


def tiles_completed(last_seq_before: int, last_seq_after: int) -> range:
    """The tiles whose last entry is among ``last_seq_before + 1 … last_seq_after``."""
    return range(max(last_seq_before, 0) // TILE, max(last_seq_after, 0) // TILE)


def tile_from_rows(rows: Sequence[Sequence[object]], first_seq: int) -> bytes | None:
    """The root of the tile that starts at entry ``first_seq``, from its ``(seq, entry_hash)`` rows in seq
    order; None when they are not exactly entries ``first_seq … first_seq + TILE - 1`` (a gap, the last
    partial tile) or an entry hash is not 64 hex digits (a hand edit): such a tile is never stored, and
    proofs read its entries instead. The one rule the writer and the backfill share."""
    if [row[0] for row in rows] != list(range(first_seq, first_seq + TILE)):
        return None
    try:
        leaves = leaves_of_texts([str(row[1]) for row in rows], first_seq)
    except BadLeaf:
        return None
    return merkle.root_of(leaves, TILE)

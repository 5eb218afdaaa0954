"""Storing the Merkle tiles of entries already in a journal (``journal.tiles``): what revision 0008 does to
a database written before tiles, and what ``journal.copy`` does to a copy made row by row."""

from __future__ import annotations

from sqlalchemy import Connection, text

from journal import statements
from journal.tiles import TILE, tile_from_rows


def backfill_tiles(connection: Connection) -> int:
    """Store every complete tile missing from ``merkle_tiles``, in seq order, in the caller's
    transaction; stops at the first gap or damaged entry hash (verification reports those; proofs then
    read the entries). Returns the number of tiles stored."""
    present = set(connection.execute(text(statements.TILES)).scalars())
    stored, first = 0, 1
    while True:
        rows = connection.execute(
            text(statements.TILE_ENTRIES), {"first": first, "last": first + TILE - 1}
        ).all()
        root = tile_from_rows(rows, first)
        if root is None:
            return stored  # the last partial tile, a gap or a damaged hash: no tile from here
        tile = (first - 1) // TILE
        if tile not in present:
            connection.execute(text(statements.TILE_INSERT), {"tile": tile, "root": root.hex()})
            stored += 1
        first += TILE

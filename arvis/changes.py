"""What a call changes, as data: the one definition of a journal entry's effects.

The domain decides and returns the rows it changes as an ordered tuple of these records (a *change
set*); ``journal.apply`` alone writes them, and the entry's ``effects_hash`` is the SHA-256 of exactly
their canonical JSON (``specs/journal-format.md`` §5). A refusal changes nothing, so it has no change
set. Encoded canonically (sorted keys), each record is byte for byte the effect dict earlier releases
built by hand, ``{"op": "insert", "table": …, "row": {…}}`` and so on, so every journal written before
this module existed hashes the same.

Rows hold JSON values only (text, integers, null): what the table stores, column by column.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Insert(msgspec.Struct, frozen=True, tag="insert", tag_field="op"):
    """A new row, every column given."""

    table: str
    row: dict[str, Any]


class Upsert(msgspec.Struct, frozen=True, tag="upsert", tag_field="op"):
    """A row stored whole by its primary key: updated when a row has that key, else inserted."""

    table: str
    row: dict[str, Any]


class Update(msgspec.Struct, frozen=True, tag="update", tag_field="op"):
    """Columns ``set`` on the one row its primary key ``where`` names."""

    table: str
    where: dict[str, Any]
    set: dict[str, Any]


class Delete(msgspec.Struct, frozen=True, tag="delete", tag_field="op"):
    """The one row its primary key ``where`` names, removed."""

    table: str
    where: dict[str, Any]


Change = Insert | Upsert | Update | Delete


class Decision(msgspec.Struct, frozen=True):
    """An accepted call's outcome, decided before anything is written: its result, its changes and the
    blobs it carries (hash -> bytes pairs, stored with its entry: ``journal.blob_store``; not effects)."""

    value: dict[str, Any]
    changes: tuple[Change, ...] = ()
    blobs: tuple[tuple[str, bytes], ...] = ()
    unjournaled: dict[str, Any] | None = None
    """More of the value, for the caller alone: bytes the journaled value names by hash (a replay's none)."""

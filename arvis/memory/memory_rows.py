"""Long-term entries as the rows of ``memory_entries``, and the changes a write or a revoke makes to them.

A row is an entry's JSON form (times in fixed form, governance as its canonical JSON text) plus the
user, the key's version and the seq of the call that wrote it (``specs/journal-format.md`` §1.3, §5).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from arvis.canonical import canonical_bytes_of_own, decode, format_time
from arvis.changes import Insert, Update
from arvis.memory.memory_long_entry import MemoryLongEntry

__all__ = ["COLUMNS", "TABLE", "StoredEntry", "entry_from_row", "entry_row", "insert_entry", "set_on_current"]

TABLE = "memory_entries"
COLUMNS = (
    "user_id",
    "key",
    "version",
    "memory_type",
    "created_at",
    "source",
    "notes",
    "value_ref",
    "expires_at",
    "revoked_at",
    "superseded_at",
    "governance",
    "written_seq",
)


class StoredEntry(NamedTuple):
    """A key's current entry as stored: the entry and its version (the key's newest)."""

    entry: MemoryLongEntry
    version: int


def entry_from_row(row: Mapping[str, Any]) -> MemoryLongEntry:
    """A stored row as an entry: the row holds the entry's JSON form, governance as canonical text."""
    return MemoryLongEntry.from_wire({**row, "governance": decode(str(row["governance"]).encode("utf-8"))})


def entry_row(user_id: str, entry: MemoryLongEntry, *, version: int, seq: int) -> dict[str, Any]:
    """The row of ``entry`` as version ``version`` of its key, written by the call at ``seq``."""
    wire = entry.wire_view()
    return {
        "user_id": user_id,
        "key": entry.key,
        "version": version,
        "memory_type": wire["memory_type"],
        "created_at": wire["created_at"],
        "source": entry.source,
        "notes": entry.notes,
        "value_ref": entry.value_ref,
        "expires_at": wire["expires_at"],
        "revoked_at": wire["revoked_at"],
        "superseded_at": wire["superseded_at"],
        "governance": canonical_bytes_of_own(wire["governance"]).decode("utf-8"),
        "written_seq": seq,
    }


def insert_entry(user_id: str, entry: MemoryLongEntry, *, version: int, seq: int) -> Insert:
    return Insert(TABLE, entry_row(user_id, entry, version=version, seq=seq))


def set_on_current(user_id: str, current: StoredEntry, column: str, at: datetime) -> Update:
    """``column`` (``superseded_at`` or ``revoked_at``) set to ``at`` on the current version."""
    where = {"user_id": user_id, "key": current.entry.key, "version": current.version}
    return Update(TABLE, where, {column: format_time(at)})

"""The SQL store behind the MemoryLongRepository contract, bound to one transaction.

Every row it writes is also recorded as an effect, so the journal entry can hash exactly what the
call changed. Ordering is done here in Python on fixed-form text, never by SQL collation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import Connection, func, inspect, select

from arvis.canonical import canonical_bytes_of_own, decode, format_time
from arvis.memory.memory_long_entry import MemoryLongEntry
from arvis.memory.memory_long_repository import MemoryLongRepository
from journal.engine import fetch_all
from journal.schema import memory_entries, memory_entry_counts
from journal.sql import SqlRunner, insert_sql

__all__ = ["COLUMNS", "REBUILD_COUNTS", "SqlMemoryRepository", "entry_counts_hold", "entry_from_row"]

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
_SELECT = "SELECT " + ", ".join(f'"{name}"' for name in COLUMNS) + " FROM memory_entries"
# The spec's order is applied in Python (``_ordered``, a stable sort), which needs no more from SQL than
# versions of one key in version order: ordered by key, then version, the rows come straight off the
# primary key (user_id, key, version), with no sort in SQL. Only equal keys' relative order matters, so
# the key column's collation cannot change a result.
_BY_KEY_AND_VERSION = ' ORDER BY "key", version'
_ALL = _SELECT + " WHERE user_id = :user_id" + _BY_KEY_AND_VERSION
_WIRE_SELECT = (
    'SELECT created_at, expires_at, governance, "key", memory_type, notes, revoked_at, source, '
    "superseded_at, value_ref FROM memory_entries"
)
"""The columns of an entry's wire form, in its (sorted) key order."""
_WIRES = _WIRE_SELECT + " WHERE user_id = :user_id" + _BY_KEY_AND_VERSION
_CURRENT_WIRE = (
    _WIRE_SELECT
    + ' WHERE user_id = :user_id AND "key" = :key AND superseded_at IS NULL ORDER BY version DESC LIMIT 1'
)
_ACTIVE = (
    _SELECT
    + " WHERE user_id = :user_id AND revoked_at IS NULL AND superseded_at IS NULL"
    + _BY_KEY_AND_VERSION
)
_CURRENT = (
    _SELECT
    + ' WHERE user_id = :user_id AND "key" = :key AND superseded_at IS NULL ORDER BY version DESC LIMIT 1'
)
_CURRENT_AND_COUNT = (
    "SELECT (SELECT entries FROM memory_entry_counts WHERE user_id = :user_id), found.*"
    " FROM (SELECT 1 AS anchor) AS one LEFT JOIN (" + _CURRENT + ") AS found ON 1 = 1"
)
"""The user's entry count and the key's current entry, in one read: always exactly one row (the entry's
columns null when there is none)."""
_LATEST_VERSION = 'SELECT MAX(version) FROM memory_entries WHERE user_id = :user_id AND "key" = :key'
_INSERT = insert_sql("memory_entries", COLUMNS)
_COUNT = "SELECT entries FROM memory_entry_counts WHERE user_id = :user_id"
_COUNT_ROWS = "SELECT COUNT(*) FROM memory_entries WHERE user_id = :user_id"  # before revision 0006
_COUNT_ONE_MORE = (
    "INSERT INTO memory_entry_counts (user_id, entries) VALUES (:user_id, 1) "
    "ON CONFLICT (user_id) DO UPDATE SET entries = memory_entry_counts.entries + 1"
)
REBUILD_COUNTS = (
    "INSERT INTO memory_entry_counts (user_id, entries) "
    "SELECT user_id, COUNT(*) FROM memory_entries GROUP BY user_id"
)
"""Fills ``memory_entry_counts`` from ``memory_entries`` (after rows were copied in as stored)."""
_COUNTS_AS_STORED = select(memory_entry_counts.c.user_id, memory_entry_counts.c.entries)
_COUNTS_OF_ENTRIES = select(memory_entries.c.user_id, func.count()).group_by(memory_entries.c.user_id)


def entry_counts_hold(connection: Connection) -> bool:
    """Whether ``memory_entry_counts`` says what ``memory_entries`` holds (the limit on entries is
    read from it, so a count edited by hand would change what the kernel accepts); a database from
    before revision 0006 has no counts, which holds."""
    if not inspect(connection).has_table("memory_entry_counts"):
        return True
    stored_rows: list[Any] = fetch_all(connection, _COUNTS_AS_STORED)
    derived_rows: list[Any] = fetch_all(connection, _COUNTS_OF_ENTRIES)
    stored = {str(user): int(count) for user, count in stored_rows if count}
    derived = {str(user): int(count) for user, count in derived_rows}
    return stored == derived


def entry_from_row(row: Mapping[str, Any]) -> MemoryLongEntry:
    """A stored row as an entry: the row holds the entry's JSON form, governance as canonical text."""
    return MemoryLongEntry.from_wire({**row, "governance": decode(str(row["governance"]).encode("utf-8"))})


def _wire_of(row: tuple[Any, ...]) -> dict[str, Any]:
    """An entry's wire form from its row's ``_WIRE_SELECT`` columns, as stored: times in their fixed
    form, governance as canonical JSON text (embedded as it is, ``msgspec.Raw``)."""
    created, expires, governance, key, memory_type, notes, revoked, source, superseded, ref = row
    return {
        "created_at": created,
        "expires_at": expires,
        "governance": msgspec.Raw(governance.encode("utf-8")),
        "key": key,
        "memory_type": memory_type,
        "notes": notes,
        "revoked_at": revoked,
        "source": source,
        "superseded_at": superseded,
        "value_ref": ref,
    }


def _ordered(entries: list[MemoryLongEntry]) -> list[MemoryLongEntry]:
    """The spec's order; the sort is stable, so versions of one key written at the same moment keep
    their version order (the rows arrive ordered by version within a key)."""
    return sorted(entries, key=lambda entry: entry.sort_key)


class SqlMemoryRepository(MemoryLongRepository):
    """Reads and writes ``memory_entries`` in the transaction, recording effects. ``counted``: the
    database keeps ``memory_entry_counts`` (revision 0006 on), kept here in step with every insert; it
    is derived state, so it is not an effect."""

    def __init__(self, sql: SqlRunner, *, seq: int, effects: list[Any], counted: bool = True) -> None:
        self._sql = sql
        self._counted = counted
        self._seq = seq
        self._effects = effects
        self._latest: dict[tuple[str, str], int] = {}  # (user, key) -> newest version, this transaction

    def _entries(self, query: str, values: Mapping[str, Any]) -> list[MemoryLongEntry]:
        return _ordered(
            [entry_from_row(dict(zip(COLUMNS, row, strict=True))) for row in self._sql.rows(query, values)]
        )

    def list_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        return self._entries(_ALL, {"user_id": user_id})

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        """Straight from the rows: times are stored in their fixed form and governance as canonical JSON
        text, embedded as it is (``msgspec.Raw``)."""
        return [_wire_of(row) for row in self._sql.rows(_WIRES, {"user_id": user_id})]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        """The current entry straight from its row, as ``list_entry_wires`` gives it (a read: it leaves
        the versions ``add_entry`` remembers alone)."""
        row = self._sql.first(_CURRENT_WIRE, {"user_id": user_id, "key": key})
        return None if row is None else _wire_of(row)

    def list_active_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        return self._entries(_ACTIVE, {"user_id": user_id})

    def count_entries(self, *, user_id: str) -> int:
        return int(self._sql.scalar(_COUNT if self._counted else _COUNT_ROWS, {"user_id": user_id}) or 0)

    def list_active_entries_batch(self, *, user_ids: list[str]) -> dict[str, list[MemoryLongEntry]]:
        return {user_id: self.list_active_entries(user_id=user_id) for user_id in sorted(user_ids)}

    def _current_row(self, user_id: str, key: str) -> dict[str, Any] | None:
        row = self._sql.first(_CURRENT, {"user_id": user_id, "key": key})
        found = None if row is None else dict(zip(COLUMNS, row, strict=True))
        # the current row is always a key's newest version (a superseded row has a newer successor),
        # so this lookup also tells add_entry the latest version without another query
        self._latest[(user_id, key)] = 0 if found is None else int(found["version"])
        return found

    def get_entry_and_count(self, *, user_id: str, key: str) -> tuple[MemoryLongEntry | None, int]:
        if not self._counted:
            return self.get_entry(user_id=user_id, key=key), self.count_entries(user_id=user_id)
        row = self._sql.first(_CURRENT_AND_COUNT, {"user_id": user_id, "key": key})
        assert row is not None  # the anchor row is always there
        count = 0 if row[0] is None else int(row[0])
        found = None if row[1] is None else dict(zip(COLUMNS, row[1:], strict=True))
        self._latest[(user_id, key)] = 0 if found is None else int(found["version"])
        return (None if found is None else entry_from_row(found)), count

    def get_entry(self, *, user_id: str, key: str) -> MemoryLongEntry | None:
        row = self._current_row(user_id, key)
        return None if row is None else entry_from_row(row)

    def add_entry(self, *, user_id: str, entry: MemoryLongEntry) -> None:
        latest = self._latest.get((user_id, entry.key))
        if latest is None:
            latest = int(self._sql.scalar(_LATEST_VERSION, {"user_id": user_id, "key": entry.key}) or 0)
        wire = entry.wire_view()
        row = {
            "user_id": user_id,
            "key": entry.key,
            "version": latest + 1,
            "memory_type": wire["memory_type"],
            "created_at": wire["created_at"],
            "source": entry.source,
            "notes": entry.notes,
            "value_ref": entry.value_ref,
            "expires_at": wire["expires_at"],
            "revoked_at": wire["revoked_at"],
            "superseded_at": wire["superseded_at"],
            "governance": canonical_bytes_of_own(wire["governance"]).decode("utf-8"),
            "written_seq": self._seq,
        }
        self._sql.write(_INSERT, row)
        if self._counted:
            self._sql.write(_COUNT_ONE_MORE, {"user_id": user_id})
        self._latest[(user_id, entry.key)] = latest + 1
        self._effects.append({"op": "insert", "table": "memory_entries", "row": row})

    def _update_current(self, user_id: str, key: str, column: str, value: str) -> dict[str, Any] | None:
        row = self._current_row(user_id, key)
        if row is None:
            return None
        self._sql.write(
            f'UPDATE memory_entries SET "{column}" = :value '
            'WHERE user_id = :user_id AND "key" = :key AND version = :version',
            {"value": value, "user_id": user_id, "key": key, "version": row["version"]},
        )
        self._effects.append(
            {
                "op": "update",
                "table": "memory_entries",
                "where": {"user_id": user_id, "key": key, "version": row["version"]},
                "set": {column: value},
            }
        )
        return row

    def replace_entry(
        self, *, user_id: str, entry: MemoryLongEntry, superseded_at: datetime
    ) -> MemoryLongEntry | None:
        row = self._update_current(user_id, entry.key, "superseded_at", format_time(superseded_at))
        self.add_entry(user_id=user_id, entry=entry)
        if row is None:
            return None
        return dataclasses.replace(entry_from_row(row), superseded_at=superseded_at)

    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> bool:
        current = self._current_row(user_id, key)
        if current is None or current["revoked_at"] is not None:
            return False
        self._update_current(user_id, key, "revoked_at", format_time(revoked_at))
        return True

"""One user's ``memory_entries`` rows held in memory: the memory service's reader over them, and the
changes a write or a revoke decides applied to them (time travel from a state checkpoint replays a
user's writes on these instead of on a scratch database).

It answers as ``journal.memory_repository.SqlMemoryReader`` answers over the same rows (a property test
holds the two together): a key's current entry is its newest version not superseded, revoked or not;
the count is every row of the user, history included; the wire forms come in key order, then version
order, keys compared by code point as SQLite's ``BINARY`` collation compares them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from arvis.changes import Change, Insert, Update
from arvis.memory.memory_rows import COLUMNS, TABLE, StoredEntry, entry_from_row

__all__ = ["HeldMemory", "UnheldRow"]

_NULLABLE = ("notes", "value_ref", "expires_at", "revoked_at", "superseded_at")
"""The columns ``memory_entries`` lets be null (``journal.schema``): text or null."""
_INTEGERS = ("version", "written_seq")
_TEXTS = tuple(column for column in COLUMNS if column not in _NULLABLE and column not in _INTEGERS)
_COLUMN_SET = frozenset(COLUMNS)
_UPDATABLE = frozenset({"superseded_at", "revoked_at"})


class UnheldRow(ValueError):
    """A row or a change these rows cannot hold as the table would: another user's row, columns
    missing, unknown or of the wrong type, a second row with the same key and version, an update of a
    row that is not there or of a column a write or a revoke never changes."""


def _checked(row: Mapping[str, Any], user_id: str) -> dict[str, Any]:
    """A copy of ``row`` once it is a row of ``user_id`` with the table's columns and types."""
    if row.keys() != _COLUMN_SET:
        raise UnheldRow(f"a row with the columns {sorted(row)}, not those of {TABLE}")
    held = dict(row)
    if held["user_id"] != user_id:
        raise UnheldRow(f"a row of user {held['user_id']!r} among the rows of {user_id!r}")
    for column in _TEXTS:
        if type(held[column]) is not str:
            raise UnheldRow(f"column {column} holds {type(held[column]).__name__}, not text")
    for column in _NULLABLE:
        value = held[column]
        if value is not None and type(value) is not str:
            raise UnheldRow(f"column {column} holds {type(value).__name__}, not text or null")
    for column in _INTEGERS:
        if type(held[column]) is not int:
            raise UnheldRow(f"column {column} holds {type(held[column]).__name__}, not an integer")
    return held


def _wire(row: Mapping[str, Any]) -> dict[str, Any]:
    """An entry's wire form from its row, as ``SqlMemoryReader`` gives it: governance as the stored
    canonical JSON text, embedded as it is (``msgspec.Raw``)."""
    return {
        "created_at": row["created_at"],
        "expires_at": row["expires_at"],
        "governance": msgspec.Raw(row["governance"].encode("utf-8")),
        "key": row["key"],
        "memory_type": row["memory_type"],
        "notes": row["notes"],
        "revoked_at": row["revoked_at"],
        "source": row["source"],
        "superseded_at": row["superseded_at"],
        "value_ref": row["value_ref"],
    }


class HeldMemory:
    """``user_id``'s rows (``arvis.memory.memory_service.MemoryReader``), changed only by ``apply``."""

    def __init__(self, user_id: str, rows: Iterable[Mapping[str, Any]]) -> None:
        self._user_id = user_id
        self._by_key: dict[str, dict[int, dict[str, Any]]] = {}
        self._count = 0
        for row in rows:
            held = _checked(row, user_id)
            if held["version"] in self._by_key.get(held["key"], {}):
                raise UnheldRow(f"two rows of key {held['key']!r} version {held['version']}")
            self._add(held)

    def _add(self, row: dict[str, Any]) -> None:
        self._by_key.setdefault(row["key"], {})[row["version"]] = row
        self._count += 1

    # --- reads ----------------------------------------------------------------------------------

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        if user_id != self._user_id:
            return []
        by_key = self._by_key
        return [_wire(by_key[key][version]) for key in sorted(by_key) for version in sorted(by_key[key])]

    def _current_row(self, user_id: str, key: str) -> dict[str, Any] | None:
        versions = self._by_key.get(key) if user_id == self._user_id else None
        if not versions:
            return None
        current = [version for version, row in versions.items() if row["superseded_at"] is None]
        return versions[max(current)] if current else None

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        row = self._current_row(user_id, key)
        return None if row is None else _wire(row)

    def current(self, *, user_id: str, key: str) -> StoredEntry | None:
        row = self._current_row(user_id, key)
        return None if row is None else StoredEntry(entry_from_row(row), row["version"])

    def count_entries(self, *, user_id: str) -> int:
        return self._count if user_id == self._user_id else 0

    def current_and_count(self, *, user_id: str, key: str) -> tuple[StoredEntry | None, int]:
        return self.current(user_id=user_id, key=key), self.count_entries(user_id=user_id)

    # --- changes --------------------------------------------------------------------------------

    def apply(self, changes: Iterable[Change]) -> None:
        """The changes of one decision, every one checked before any is applied: a set these rows
        cannot take changes nothing (``UnheldRow``). An update names a row held before the set (a write
        supersedes the current version, then inserts the next; a revoke updates the current one): one
        naming a row the same set inserts is refused, where the table would take it, so the caller
        falls back to a full replay rather than apply what a decision never makes."""
        inserts: list[dict[str, Any]] = []
        updates: list[tuple[dict[str, Any], Mapping[str, Any]]] = []
        placed: set[tuple[str, int]] = set()
        for change in changes:
            if change.table != TABLE:
                raise UnheldRow(f"a change of {change.table}, not of {TABLE}")
            if isinstance(change, Insert):
                row = _checked(change.row, self._user_id)
                place = (row["key"], row["version"])
                if place in placed or row["version"] in self._by_key.get(row["key"], {}):
                    raise UnheldRow(f"two rows of key {place[0]!r} version {place[1]}")
                placed.add(place)
                inserts.append(row)
            elif isinstance(change, Update):
                updates.append((self._updated(change), change.set))
            else:
                raise UnheldRow(
                    f"a {type(change).__name__} of {TABLE}, which a write or a revoke never makes"
                )
        for target, values in updates:
            target.update(values)
        for row in inserts:
            self._add(row)

    def _updated(self, change: Update) -> dict[str, Any]:
        """The held row ``change`` names by its whole primary key, when it sets only what a write or a
        revoke sets, to text."""
        where = change.where
        row = None
        if set(where) == {"user_id", "key", "version"} and where["user_id"] == self._user_id:
            row = self._by_key.get(where["key"], {}).get(where["version"])
        fitting = set(change.set) <= _UPDATABLE and all(
            isinstance(value, str) for value in change.set.values()
        )
        if row is None or not fitting:
            raise UnheldRow(f"an update of {dict(where)} setting {sorted(change.set)} these rows cannot take")
        return row

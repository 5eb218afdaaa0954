"""The one writer of state: applies a call's change set (``arvis.changes``) in its transaction.

Handlers and the domain only read; what they decide comes here as typed, ordered changes, and each is
turned into one statement (two for an upsert whose row is new). Table and column names are checked
against the schema (``journal.schema``) before they reach SQL text, so a change can name only a state
table and its own columns. Derived state the effects do not cover is kept in step here too: each row
inserted into ``memory_entries`` counts one more in ``memory_entry_counts`` (revision 0006 on).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from arvis.changes import Change, Delete, Insert, Update, Upsert
from journal.schema import STATE_TABLES
from journal.sql import SqlRunner, insert_sql

__all__ = ["ChangeWriter", "UnknownChange"]

_KEYS: dict[str, tuple[str, ...]] = {
    table.name: tuple(column.name for column in table.primary_key.columns) for table in STATE_TABLES
}
"""The state tables (``journal.schema.STATE_TABLES``), the only ones a change may name: the journal, its
header, blobs, tiles and checkpoints are written by the store itself, never by a change."""
_COLUMNS: dict[str, frozenset[str]] = {
    table.name: frozenset(column.name for column in table.columns) for table in STATE_TABLES
}
_COUNT_ONE_MORE = (
    "INSERT INTO memory_entry_counts (user_id, entries) VALUES (:user_id, 1) "
    "ON CONFLICT (user_id) DO UPDATE SET entries = memory_entry_counts.entries + 1"
)


class UnknownChange(ValueError):
    """A change names a table that is not state, or a column its table does not have."""


def _match(columns: Iterable[str], prefix: str = "") -> str:
    return " AND ".join(f'"{column}" = :{prefix}{column}' for column in columns)


_STATEMENTS: dict[tuple[Any, ...], tuple[str, ...]] = {}
"""The SQL of each shape of change (operation, table, columns), built and checked once per process:
the text depends on the shape alone, never on a value or a connection."""


class ChangeWriter:
    """Applies change sets through one transaction's ``SqlRunner``. ``counted``: the database keeps
    ``memory_entry_counts``."""

    __slots__ = ("_counted", "_sql")

    def __init__(self, sql: SqlRunner, *, counted: bool) -> None:
        self._sql = sql
        self._counted = counted

    def apply(self, changes: Iterable[Change]) -> None:
        for change in changes:
            if isinstance(change, Insert):
                self._insert(change.table, change.row)
            elif isinstance(change, Upsert):
                self._upsert(change.table, change.row)
            elif isinstance(change, Update):
                self._update(change)
            else:
                self._delete(change)

    def _checked(self, table: str, *column_sets: Iterable[str]) -> None:
        known = _COLUMNS.get(table)
        if known is None:
            raise UnknownChange(f"{table!r} is not a state table")
        for columns in column_sets:
            unknown = sorted(set(columns) - known)
            if unknown:
                raise UnknownChange(f"{table!r} has no column {unknown[0]!r}")

    def _insert(self, table: str, row: Mapping[str, Any]) -> None:
        shape = ("insert", table, *row)
        found = _STATEMENTS.get(shape)
        if found is None:
            self._checked(table, row)
            found = _STATEMENTS[shape] = (insert_sql(table, list(row)),)
        self._sql.write(found[0], row)
        if table == "memory_entries" and self._counted:
            self._sql.write(_COUNT_ONE_MORE, {"user_id": row["user_id"]})

    def _upsert(self, table: str, row: Mapping[str, Any]) -> None:
        shape = ("upsert", table, *row)
        found = _STATEMENTS.get(shape)
        if found is None:
            self._checked(table, row)
            key = _KEYS[table]
            if not set(key) <= set(row):
                raise UnknownChange(f"an upsert into {table!r} must give its whole primary key {key}")
            assignments = ", ".join(f'"{column}" = :{column}' for column in row if column not in key)
            update = f"UPDATE {table} SET {assignments} WHERE {_match(key)}"
            found = _STATEMENTS[shape] = (update, insert_sql(table, list(row)))
        if self._sql.write(found[0], row) == 0:
            self._sql.write(found[1], row)

    def _update(self, change: Update) -> None:
        shape = ("update", change.table, *change.where, "|", *change.set)
        found = _STATEMENTS.get(shape)
        if found is None:
            self._checked(change.table, change.where, change.set)
            assignments = ", ".join(f'"{column}" = :s_{column}' for column in change.set)
            found = _STATEMENTS[shape] = (
                f"UPDATE {change.table} SET {assignments} WHERE {_match(change.where, 'w_')}",
            )
        values = {f"w_{column}": value for column, value in change.where.items()}
        values.update((f"s_{column}", value) for column, value in change.set.items())
        self._sql.write(found[0], values)

    def _delete(self, change: Delete) -> None:
        shape = ("delete", change.table, *change.where)
        found = _STATEMENTS.get(shape)
        if found is None:
            self._checked(change.table, change.where)
            found = _STATEMENTS[shape] = (f"DELETE FROM {change.table} WHERE {_match(change.where)}",)
        self._sql.write(found[0], change.where)

"""The one writer of state: applies a call's change set (``arvis.changes``) in its transaction.

Handlers and the domain only read; what they decide comes here as typed, ordered changes, and each is
turned into one statement (an upsert is ``INSERT … ON CONFLICT (primary key) DO UPDATE``: no statement
depends on another's row count, so on PostgreSQL they are all sent at once). Table and column names are
checked against the schema (``journal.schema``) before they reach SQL text, so a change can name only a state
table and its own columns; an update or a delete names exactly one row, by its whole primary key. Derived
state the effects do not cover is kept in step here too: each row inserted into ``memory_entries`` counts
one more in ``memory_entry_counts`` (revision 0006 on), so that table's rows are only inserted and updated,
and an update of its ``superseded_at`` or ``revoked_at`` sets the call's seq beside it (``VERSION_SEQS``).
Every other state table keeps its past in rows (``HISTORY_TABLES``): a row a change replaces, updates or
deletes is kept in ``graph_history`` first, and a row of ``ROW_SEQ_TABLES`` gets the call's seq as its
``written_seq`` whenever a change writes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arvis.changes import Change, Insert, Update, Upsert
from journal import statements
from journal.schema import HISTORY_TABLES, ROW_SEQ_TABLES, STATE_TABLES, VERSION_SEQS, admin_bindings
from journal.sql import SqlRunner

_CHANGED = (*STATE_TABLES, admin_bindings)
_KEYS: dict[str, tuple[str, ...]] = {
    table.name: tuple(column.name for column in table.primary_key.columns) for table in _CHANGED
}
"""The state tables (``journal.schema.STATE_TABLES``) and ``admin_bindings`` (inserted by a binding's
own call from format 6 on: ``syscalls.kernel_calls``), the only ones a change may name: the journal, its
header, blobs, tiles and checkpoints are written by the store itself, never by a change."""
_COLUMNS: dict[str, frozenset[str]] = {
    table.name: frozenset(column.name for column in table.columns) for table in _CHANGED
}


class UnknownChange(ValueError):
    """A change names a table that is not state, or a column its table does not have."""


_STATEMENTS: dict[tuple[Any, ...], str] = {}
"""The SQL of each shape of change (operation, table, columns), built and checked once per process:
the text depends on the shape alone, never on a value or a connection."""


class ChangeWriter:
    """Applies change sets through one transaction's ``SqlRunner``; each row inserted into
    ``memory_entries`` counts one more in ``memory_entry_counts``. Every change of a set is checked (and
    its SQL built) before the first is written, so a set the writer refuses writes nothing."""

    __slots__ = ("_sql",)

    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def write(self, planned: Planned, seq: int) -> None:
        """Write changes ``plan`` checked, made by the call at ``seq``."""
        sql = self._sql
        for statement, change in planned:
            if change.table in HISTORY_TABLES and not isinstance(change, Insert):  # kept before it goes
                kept = change.row if isinstance(change, Upsert) else change.where
                keep = statements.HISTORY_KEEP[change.table, sql.dialect == "postgresql"]
                sql.write(keep, {**kept, "ended_seq": seq})
            if isinstance(change, Insert | Upsert):
                row_seq = change.table in ROW_SEQ_TABLES
                sql.write(statement, {**change.row, "written_seq": seq} if row_seq else change.row)
                if isinstance(change, Insert) and change.table == "memory_entries":
                    sql.write(statements.COUNT_ONE_MORE, {"user_id": change.row["user_id"]})
            elif isinstance(change, Update):
                values = {f"w_{column}": value for column, value in change.where.items()}
                values.update((f"s_{column}", value) for column, value in change.set.items())
                values.update((f"s_{column}", seq) for column in _version_seqs(change))
                sql.write(statement, values)
            else:
                sql.write(statement, change.where)


Planned = list[tuple[str, Change]]
"""Changes with their SQL, every one checked (``plan``)."""


def plan(changes: Iterable[Change]) -> Planned:
    """Check every change and build its SQL, writing nothing: raises ``UnknownChange`` for the first
    the writer refuses."""
    return [(_statement(change), change) for change in changes]


def _statement(change: Change) -> str:
    """The SQL of the change's shape, checked and built the first time the shape is seen."""
    if isinstance(change, Insert | Upsert):
        shape: tuple[Any, ...] = (change.__struct_config__.tag, change.table, *change.row)
    elif isinstance(change, Update):
        shape = ("update", change.table, *change.where, "|", *change.set)
    else:
        shape = ("delete", change.table, *change.where)
    found = _STATEMENTS.get(shape)
    if found is None:
        found = _STATEMENTS[shape] = _build(change)
    return found


def _build(change: Change) -> str:
    table = change.table
    known = _COLUMNS.get(table)
    if known is None:
        raise UnknownChange(f"{table!r} is not a state table")
    key = _KEYS[table]
    if isinstance(change, Insert | Upsert):
        _known_columns(table, known, change.row)
        columns = [*change.row, *(["written_seq"] if table in ROW_SEQ_TABLES else [])]
        if table == "memory_entries" and not isinstance(change, Insert):
            raise UnknownChange(
                "memory_entries rows are only inserted and updated (its counts are kept here)"
            )
        if isinstance(change, Insert):
            return statements.insert_sql(table, columns)
        if not set(key) <= set(change.row):
            raise UnknownChange(f"an upsert into {table!r} must give its whole primary key {key}")
        if set(change.row) <= set(key):
            raise UnknownChange(f"an upsert into {table!r} must set a column outside its primary key")
        return statements.upsert_sql(table, columns, key)
    _known_columns(table, known, change.where)
    if set(change.where) != set(key):
        raise UnknownChange(f"a change of {table!r} must name one row by its whole primary key {key}")
    if isinstance(change, Update):
        if table in HISTORY_TABLES and table not in ROW_SEQ_TABLES:  # its seq column would go stale
            raise UnknownChange(f"rows of {table!r} are replaced or deleted whole (their past is kept)")
        _known_columns(table, known, change.set)
        if not change.set or set(change.set) & set(key):
            raise UnknownChange(f"an update of {table!r} must set columns outside its primary key")
        return statements.update_sql(table, [*change.set, *_version_seqs(change)], key)
    if table == "memory_entries":
        raise UnknownChange("memory_entries rows are never deleted (the writer counts them)")
    return statements.delete_sql(table, key)


def _known_columns(table: str, known: frozenset[str], columns: Iterable[str]) -> None:
    unknown = sorted(set(columns) - known)
    if unknown:
        raise UnknownChange(f"{table!r} has no column {unknown[0]!r}")


def _version_seqs(change: Update) -> list[str]:
    """The columns an update sets to the call's seq with those it names: the version columns of
    ``memory_entries`` beside the ones it sets, a row's ``written_seq`` (``ROW_SEQ_TABLES``)."""
    if change.table != "memory_entries":
        return ["written_seq"] if change.table in ROW_SEQ_TABLES else []
    return [VERSION_SEQS[column] for column in change.set if column in VERSION_SEQS]

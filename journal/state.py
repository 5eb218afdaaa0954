"""The state digest: one hash over every state table, read in primary-key order, streamed.

Order is by primary key compared as bytes (SQLite's BINARY collation, PostgreSQL's "C"), so the same
rows give the same digest on either backend and nothing is held in memory but one batch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Column, Connection, LargeBinary, Table, Text, cast, inspect, literal, select, tuple_
from sqlalchemy.sql.elements import ColumnElement

from arvis.canonical import canonical_bytes_of_own
from journal.engine import fetch_tuples, valid_text
from journal.schema import STATE_TABLES

__all__ = ["StateDigest", "iter_state_rows", "present_state_tables", "state_digest"]

BATCH = 2_000


def _ordered(column: Column[Any], dialect: str) -> ColumnElement[Any]:
    if dialect == "postgresql" and column.type.python_type is str:
        return column.collate("C")
    return column


_BINARY = frozenset({bytes, bytearray, memoryview})


def _normal(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    return value


INVALID_TEXT = "invalid utf-8"
"""The tag of a text value that is not UTF-8 in the digest (see ``_invalid_text``)."""


def _invalid_text(value: Any) -> Any:
    """A stored text value as it enters the digest: itself, or, when it is not valid UTF-8 (read back
    with lone surrogates, see ``journal.engine.fetch_all``), ``["invalid utf-8", <hex of its bytes>]``.
    Canonical JSON cannot hold such text, and a list is a value no column holds: so the stored state
    digests (instead of failing verification with a crash) and differs from any replayed state, which
    is always valid text."""
    if not isinstance(value, str) or valid_text(value):
        return value
    return [INVALID_TEXT, value.encode("utf-8", "surrogateescape").hex()]


def _bound(value: Any) -> Any:
    """A keyset boundary value as a bind parameter: text that is not UTF-8 cannot be sent as text, so
    its bytes are sent and cast back to TEXT (SQLite: the same bytes, so the same BINARY order)."""
    if isinstance(value, str) and not valid_text(value):
        return cast(literal(value.encode("utf-8", "surrogateescape"), LargeBinary), Text)
    return value


def iter_state_rows(connection: Connection, table: Table) -> Iterator[dict[str, Any]]:
    """Rows of one state table in primary-key order, fetched in batches by keyset pagination."""
    dialect = connection.dialect.name
    keys = list(table.primary_key.columns)
    ordering = [_ordered(column, dialect) for column in keys]
    names = [str(column.name) for column in table.columns]
    key_places = [names.index(str(column.name)) for column in keys]
    last: tuple[Any, ...] | None = None
    while True:
        query = select(*table.columns).order_by(*ordering).limit(BATCH)
        if last is not None:
            query = query.where(tuple_(*ordering) > tuple_(*map(_bound, last)))
        fetched = fetch_tuples(connection, query)
        for values in fetched:
            # bytes (a binary column, or a blob a hand edit put in a text column) are digested as hex
            if _BINARY.isdisjoint(map(type, values)):
                yield dict(zip(names, values, strict=True))
            else:
                yield dict(zip(names, map(_normal, values), strict=True))
        if len(fetched) < BATCH:
            return
        last = tuple(fetched[-1][place] for place in key_places)


class StateDigest:
    """A running digest over (table, row) pairs."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"arvis-state")
        self.rows = 0

    def add(self, table: str, row: dict[str, Any]) -> None:
        try:
            data = canonical_bytes_of_own([str(table), row])
        except UnicodeEncodeError:  # text that is not UTF-8 (a hand edit), read with surrogateescape
            data = canonical_bytes_of_own(
                [str(table), {name: _invalid_text(value) for name, value in row.items()}]
            )
        self._hash.update(len(data).to_bytes(8, "big") + data)
        self.rows += 1

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def present_state_tables(connection: Connection) -> list[Table]:
    """The state tables this database has (one written before a migration may lack the newer ones;
    a missing table holds no rows, so it adds nothing to the digest)."""
    names = set(inspect(connection).get_table_names())
    return [table for table in STATE_TABLES if table.name in names]


def state_digest(connection: Connection, *, keep: dict[str, list[dict[str, Any]]] | None = None) -> str:
    """The digest of every state table as stored now; with ``keep``, the rows are also collected
    there per table (for showing the state; without it nothing is held in memory)."""
    digest = StateDigest()
    for table in present_state_tables(connection):
        name = str(table.name)
        for row in iter_state_rows(connection, table):
            digest.add(name, row)
            if keep is not None:
                keep.setdefault(name, []).append(row)
    return digest.hexdigest()

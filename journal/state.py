"""The state digest: one hash over every state table, read in primary-key order, streamed.

Order is by primary key compared as bytes (SQLite's BINARY collation, PostgreSQL's "C"), so the same
rows give the same digest on either backend and nothing is held in memory but one batch. The pages are
read in the portable subset ``journal.sql`` runs (``journal.statements``), as on the write path:
verification digests two databases, and SQLAlchemy's compiler cost more than reading most tables.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec
from sqlalchemy import Connection, Table, inspect

from arvis.canonical import canonical_bytes_of_own
from journal import statements
from journal.rows import fetch_sql, valid_text
from journal.schema import STATE_TABLES
from journal.sql import Prepared

BATCH = 2_000

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


# --- reading: one portable statement per table, its rows in primary-key order, a batch at a time -----


def _names(table: Table) -> tuple[str, ...]:
    return tuple(str(column.name) for column in table.columns)


def state_batches(connection: Connection, table: Table) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of one state table as stored (values in the table's column order), in primary-key
    order, a batch at a time by keyset pagination: one batch is held in memory at a time."""
    postgres, paramstyle = connection.dialect.name == "postgresql", str(connection.dialect.paramstyle)
    names = _names(table)
    key_places = [names.index(str(column.name)) for column in table.primary_key.columns]
    statement = Prepared(statements.state_page(table, postgres, None, BATCH), paramstyle)
    arguments: Any = statement.bind({})
    while True:
        fetched = fetch_sql(connection, statement.sql, arguments)
        if fetched:
            yield fetched
        if len(fetched) < BATCH:
            return
        last = [fetched[-1][place] for place in key_places]
        as_bytes = tuple(isinstance(value, str) and not valid_text(value) for value in last)
        statement = Prepared(statements.state_page(table, postgres, as_bytes, BATCH), paramstyle)
        arguments = statement.bind(
            {
                f"k{place}": value.encode("utf-8", "surrogateescape") if sent_as_bytes else value
                for place, (value, sent_as_bytes) in enumerate(zip(last, as_bytes, strict=True))
            }
        )


def iter_state_rows(connection: Connection, table: Table) -> Iterator[dict[str, Any]]:
    """Rows of one state table in primary-key order, as the digest reads them (bytes, from a binary
    column or a blob a hand edit put in a text column, as hex)."""
    names = _names(table)
    for batch in state_batches(connection, table):
        for values in batch:
            plain = _BINARY.isdisjoint(map(type, values))
            yield dict(zip(names, values if plain else map(_normal, values), strict=True))


# --- digesting ----------------------------------------------------------------------------------------


def _row_shape(table: Table) -> tuple[type[msgspec.Struct], Callable[[Sequence[Any]], Any]] | None:
    """A row of ``table`` as a struct whose fields are its columns in sorted order (the canonical
    encoding's key order, so it encodes to the bytes of the row as a dict) and the picker that puts a
    stored row's values (in column order) in that order. Built per batch (about 30 µs, kept nowhere); its
    instances hold column values, never a cycle, so the cycle collector does not track them (``gc=False``).
    None when a column name cannot be a struct field (not an identifier, or a name Python reserves:
    ``__dict__``, ``__slots__``…): that table's rows are digested as dicts, the same bytes."""
    names = _names(table)
    order = sorted(range(len(names)), key=names.__getitem__)
    try:
        shape = msgspec.defstruct(f"{table.name}_row", [(names[place], Any) for place in order], gc=False)
    except (TypeError, ValueError, RuntimeError):
        return None
    pick: Callable[[Sequence[Any]], Any] = (
        operator.itemgetter(*order) if len(order) > 1 else lambda values: (values[0],)
    )
    return shape, pick


class StateDigest:
    """A running digest over (table, row) pairs: each pair's canonical bytes, prefixed by their length."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"arvis-state")
        self.rows = 0

    def add(self, table: str, row: dict[str, Any]) -> None:
        data = self._encoded(table, row)
        self._hash.update(len(data).to_bytes(8, "big") + data)
        self.rows += 1

    def add_batch(self, table: Table, batch: Sequence[Sequence[Any]], keep: list[Any] | None = None) -> None:
        """``add`` for each stored row of ``batch`` (values in ``table``'s column order), without building
        a dict per row: the row is encoded as a struct of its columns in sorted order (or as ``add`` encodes
        it: a row holding bytes or text that is not UTF-8, a table ``_row_shape`` cannot give a struct).
        ``keep`` (to show the state) gets each row as ``iter_state_rows`` gives it, in the same pass. Each
        row is hashed as it is encoded: a long batch's bytes are never all held at once."""
        name = str(table.name)
        shaped = _row_shape(table)
        names = _names(table)
        for values in batch:
            data = None
            plain = _BINARY.isdisjoint(map(type, values))
            if keep is not None:
                keep.append(dict(zip(names, values if plain else map(_normal, values), strict=True)))
            if shaped is not None and plain:
                shape, pick = shaped
                try:
                    data = canonical_bytes_of_own([name, shape(*pick(values))])
                except UnicodeEncodeError:
                    data = None
            if data is None:  # bytes to show as hex, or text that is not UTF-8: as ``add`` encodes it
                data = self._encoded(name, dict(zip(names, map(_normal, values), strict=True)))
            self._hash.update(len(data).to_bytes(8, "big") + data)
        self.rows += len(batch)

    @staticmethod
    def _encoded(table: str, row: dict[str, Any]) -> bytes:
        try:
            return canonical_bytes_of_own([str(table), row])
        except UnicodeEncodeError:  # text that is not UTF-8 (a hand edit), read with surrogateescape
            return canonical_bytes_of_own(
                [str(table), {name: _invalid_text(value) for name, value in row.items()}]
            )

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def present_state_tables(connection: Connection) -> list[Table]:
    """The state tables this database has (one written before a migration may lack the newer ones;
    a missing table holds no rows, so it adds nothing to the digest)."""
    names = set(inspect(connection).get_table_names())
    return [table for table in STATE_TABLES if table.name in names]


def state_digest(connection: Connection) -> str:
    """The digest of every state table as stored now, a batch of rows in memory at a time."""
    digest = StateDigest()
    for table in present_state_tables(connection):
        for batch in state_batches(connection, table):
            digest.add_batch(table, batch)
    return digest.hexdigest()

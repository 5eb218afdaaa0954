"""The content-addressed blob store of the graph tables (``graph_blobs``, specs/langgraph.md §4).

A blob's key is the lower-case hex SHA-256 of its bytes. A blob enters with the call that references it:
the call carries the bytes, its handler checks them against the hash it names and stores them in the
call's own transaction (``store_in``, idempotent: a blob already there is left as it is). Nothing writes a
blob outside a call. The journal's entries carry the bytes, the state holds hashes only; verification's
part (every stored blob hashes to its key, every hash the graph tables reference is stored) is
``tools.audit.blob_audit.check_blobs``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from arvis.canonical import sha256_hex
from journal import statements
from journal.errors import StorageError
from journal.rows import fetch_driver_sql, fetch_sql, one_line
from journal.sql import Prepared, SqlRunner

TABLE = "graph_blobs"
BATCH = 500
"""Blobs read per query when verifying (a blob may be large: a checkpoint's channel values)."""


class BlobMissing(LookupError):
    """A referenced blob is not stored, or its bytes no longer hash to its key."""


hash_of = sha256_hex
"""A blob's key: the lower-case hex SHA-256 of its bytes (``arvis.canonical.sha256_hex``)."""


def store_in(sql: SqlRunner, blobs: Mapping[str, bytes]) -> None:
    """Store ``blobs`` (key -> bytes, each key the hash of its bytes) in the transaction of ``sql``:
    the call's own, so they are committed with its journal entry or not at all."""
    for key, data in blobs.items():
        sql.write(statements.BLOB_PUT, {"hash": key, "data": data})


def read_in(sql: SqlRunner, keys: Iterable[str]) -> dict[str, bytes]:
    """The stored bytes of those of ``keys`` that are stored, unchecked (``checked`` checks them), read
    in the transaction of ``sql``: it sees the blobs its own calls stored before they are committed."""
    wanted = sorted(set(keys))
    found: dict[str, bytes] = {}
    for start in range(0, len(wanted), BATCH):
        rows = sql.rows(*_select("named", wanted[start : start + BATCH]))
        found.update((str(key), bytes(data)) for key, data in rows)
    return found


_IN_TRANSACTION = "the blobs could not be read: the database's one connection is in a transaction"


def get_many(engine: Engine, keys: Iterable[str]) -> dict[str, bytes]:
    """The bytes of each key, checked against it: ``BlobMissing`` names the first key that is not stored
    or whose bytes hash to something else.

    Read on a pooled driver connection as it is: one statement per ``BATCH`` keys and no transaction begun
    (a blob is never changed or deleted once stored, so statements read at different moments cannot
    disagree), then the driver's transaction, if it began one (PostgreSQL), rolled back. The one
    connection of an in-memory SQLite database is refused while a transaction is open on it: its blobs
    would not be committed ones, and returning it to the pool would roll that transaction back."""
    wanted = sorted(set(keys))
    if not wanted:
        return {}
    errors, style, found = engine.dialect.loaded_dbapi.Error, engine.dialect.paramstyle, dict[str, bytes]()
    try:
        pooled = engine.raw_connection()
        driver = pooled.dbapi_connection
        assert driver is not None  # a connection just checked out of the pool
        try:
            if isinstance(engine.pool, StaticPool) and getattr(driver, "in_transaction", False):
                raise StorageError(_IN_TRANSACTION)
            for start in range(0, len(wanted), BATCH):
                rows = fetch_driver_sql(driver, errors, *_select(style, wanted[start : start + BATCH]))
                found.update((str(key), bytes(data)) for key, data in rows)
            driver.rollback()  # PostgreSQL: the implicit transaction ends here (SQLite: nothing open)
        finally:
            pooled.close()
    except (SQLAlchemyError, errors) as exc:
        raise StorageError(f"the blobs could not be read: {one_line(exc)}") from exc
    return checked(wanted, found)


def checked(wanted: Iterable[str], found: dict[str, bytes]) -> dict[str, bytes]:
    """``found`` when it holds every key of ``wanted`` with bytes that hash to it; else ``BlobMissing``
    naming the first key (in the order of ``wanted``) not stored or whose bytes hash to something else."""
    for key in wanted:
        if key not in found:
            raise BlobMissing(f"blob {key} is not stored in {TABLE}")
        if hash_of(found[key]) != key:
            raise BlobMissing(f"blob {key} does not hash to its key")
    return found


def present(connection: Connection, keys: Sequence[str]) -> dict[str, bytes]:
    """The stored bytes of those of ``keys`` (at most ``BATCH``) that are stored, unchecked, read in
    ``connection``'s transaction (begun if none is)."""
    if not keys:
        return {}
    rows = fetch_sql(connection, *_select(connection.dialect.paramstyle, keys))
    return {str(key): bytes(data) for key, data in rows}


@functools.cache
def _statement(paramstyle: str, size: int) -> Prepared:
    return Prepared(statements.blobs_in(size), paramstyle)


def _select(paramstyle: str, batch: Sequence[str]) -> tuple[str, Any]:
    """The statement reading the blobs of ``batch`` by key, and its arguments: written in
    ``journal.sql``'s portable subset rather than compiled (SQLAlchemy's compiler took half of a
    checkpoint's read through the LangGraph saver). The keys are padded, by repeating the last, to a
    power of two or to ``BATCH``: at most 10 distinct statements, each prepared once."""
    if not 0 < len(batch) <= BATCH:
        raise ValueError(f"{len(batch)} keys in one read of blobs, not 1 to {BATCH}")
    statement = _statement(paramstyle, min(1 << (len(batch) - 1).bit_length(), BATCH))
    padded = [*batch, *[batch[-1]] * (len(statement.names) - len(batch))]
    return statement.sql, statement.bind(dict(zip(statement.names, padded, strict=True)))


def reader_for(engine: Engine) -> Callable[[Iterable[str]], dict[str, bytes]] | None:
    """The read-only blob reader a kernel's registry binds (``KernelServiceRegistry.blob_reader``):
    ``get_many`` on ``engine``, on a pooled connection of its own, so it reads committed blobs only and
    never the write lock (the handler's own open write transaction does not block it). None for an
    in-memory SQLite database, whose one shared connection a second one would disturb: there, and in its
    verification, a search with a filter is refused alike."""
    if isinstance(engine.pool, StaticPool):
        return None
    return functools.partial(get_many, engine)


@dataclass(frozen=True)
class BadBlob:
    """The first blob verification rejects: what is wrong, and the seq of the call that wrote the first
    state row referencing it (0 when no row does)."""

    seq: int
    reason: str

    def __str__(self) -> str:
        return self.reason

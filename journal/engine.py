"""Engines from a path or URL, with the SQLite settings the journal relies on.

SQLite: WAL, ``synchronous`` NORMAL (default) or FULL, a busy timeout, and ``BEGIN IMMEDIATE`` for
every transaction so that the write lock is taken before the head of the journal is read (a
read-only engine's transactions are deferred: they read a snapshot and take no write lock).

PostgreSQL (``postgresql+psycopg://``; a plain ``postgresql://`` URL is given the psycopg driver): the
busy timeout becomes ``lock_timeout`` (the journal lock is taken in each write transaction, see
``SqlJournalStore``); FULL sets ``synchronous_commit = on`` whatever the server's default, NORMAL keeps
the server's setting, OFF turns it off; a reader's sessions are read-only.
"""

from __future__ import annotations

import os
import sqlite3
import time
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, Engine, Row, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.base import Executable

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS",
    "Durability",
    "fetch_all",
    "fetch_tuples",
    "one_line",
    "open_engine",
    "to_url",
]

DEFAULT_BUSY_TIMEOUT_MS = 10_000


class Durability(StrEnum):
    """SQLite ``synchronous`` level: NORMAL may lose the last commits on power loss, never corrupt;
    FULL syncs the WAL on every commit."""

    NORMAL = "NORMAL"
    FULL = "FULL"
    OFF = "OFF"  # scratch stores only (replay on a throwaway file): no durability at all


_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def to_url(target: str) -> str:
    """A SQLAlchemy URL from a URL or a file path (``:memory:`` means an in-memory SQLite); a
    PostgreSQL URL without a driver gets psycopg, the driver the project ships with."""
    for scheme in _POSTGRES_SCHEMES:
        if target.startswith(scheme):
            return "postgresql+psycopg://" + target[len(scheme) :]
    if "://" in target:
        return target
    if target == ":memory:":
        return "sqlite://"
    return f"sqlite:///{os.path.abspath(target)}"


def one_line(exc: BaseException) -> str:
    """A driver error in one line: the driver's own message, without SQLAlchemy's SQL dump."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _decode_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _undecodable(exc: BaseException) -> bool:
    original = getattr(exc, "orig", exc)
    return isinstance(original, sqlite3.OperationalError) and "decode" in str(original).lower()


def fetch_all(connection: Connection, statement: Executable) -> list[Row[Any]]:
    """The rows of ``statement``. SQLite's driver decodes text strictly (its fast path); a value that
    is not UTF-8 (a hand edit) makes the statement run again with lenient decoding (``surrogateescape``),
    so that it reaches the verifier, which then reports it at its seq, instead of failing the read."""
    try:
        return list(connection.execute(statement).all())
    except (DBAPIError, sqlite3.OperationalError) as exc:
        if not _undecodable(exc):
            raise
    connection.rollback()
    driver = connection.connection.dbapi_connection
    assert isinstance(driver, sqlite3.Connection)
    driver.text_factory = _decode_text
    try:
        return list(connection.execute(statement).all())
    finally:
        driver.text_factory = str


def fetch_tuples(connection: Connection, statement: Executable) -> list[tuple[Any, ...]]:
    """``fetch_all`` as plain tuples, for bulk reads (the state digest): the statement is compiled by
    SQLAlchemy and run on the driver's cursor, inside the connection's transaction (begun here if
    none is), which skips building a result row object per row."""
    if not connection.in_transaction():
        connection.begin()
    compiled = statement.compile(dialect=connection.dialect)  # type: ignore[attr-defined]
    values = compiled.construct_params()
    arguments: Any = tuple(values[name] for name in compiled.positiontup) if compiled.positional else values
    sql = str(compiled)
    driver = connection.connection.dbapi_connection
    assert driver is not None
    cursor = driver.cursor()
    try:
        try:
            cursor.execute(sql, arguments)
            return [tuple(row) for row in cursor.fetchall()]
        except sqlite3.OperationalError as exc:
            if not _undecodable(exc):
                raise
        driver.text_factory = _decode_text
        try:
            cursor.execute(sql, arguments)
            return [tuple(row) for row in cursor.fetchall()]
        finally:
            driver.text_factory = str
    except connection.dialect.loaded_dbapi.Error as exc:
        # as SQLAlchemy raises it elsewhere, so that readers' handling of SQLAlchemyError applies
        raise DBAPIError.instance(sql, arguments, exc, connection.dialect.loaded_dbapi.Error) from exc
    finally:
        cursor.close()


def _use_wal(cursor: Any, busy_timeout_ms: int) -> None:
    """Put the database in WAL mode. SQLite answers "database is locked" at once, without its busy
    handler, while another process opening the same new file holds a lock the switch needs; that is
    waited out here, up to the busy timeout."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    pause = 0.005
    while True:
        try:
            if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def open_engine(
    target: str,
    *,
    durability: Durability = Durability.NORMAL,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    read_only: bool = False,
) -> Engine:
    url = make_url(to_url(target))
    if url.get_backend_name() == "postgresql":
        return _postgres_engine(
            url, durability=durability, busy_timeout_ms=busy_timeout_ms, read_only=read_only
        )
    if url.get_backend_name() != "sqlite":
        return create_engine(url)
    in_memory = url.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {}
    if in_memory:
        kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        # the busy timeout first: switching to WAL takes a lock, and another process opening the same
        # new file at the same moment (migrating it, say) must be waited for, not refused
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        if not in_memory and not read_only:
            _use_wal(cursor, busy_timeout_ms)
        cursor.execute(f"PRAGMA synchronous={Durability(durability).value}")
        cursor.close()

    # a reader's transaction is a plain (deferred) BEGIN: in WAL mode it reads one snapshot and never
    # takes the write lock, so an auditor on a live journal neither blocks writers nor waits for them
    begin = "BEGIN" if read_only else "BEGIN IMMEDIATE"

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql(begin)

    return engine


_SYNCHRONOUS_COMMIT = {Durability.FULL: "on", Durability.OFF: "off"}  # NORMAL: the server's own setting


def _postgres_engine(url: URL, *, durability: Durability, busy_timeout_ms: int, read_only: bool) -> Engine:
    settings = {"lock_timeout": f"{int(busy_timeout_ms)}ms"}
    synchronous_commit = _SYNCHRONOUS_COMMIT.get(Durability(durability))
    if synchronous_commit is not None:
        settings["synchronous_commit"] = synchronous_commit
    if read_only:
        settings["default_transaction_read_only"] = "on"
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for name, value in settings.items():
            cursor.execute("SELECT set_config(%s, %s, false)", (name, value))
        cursor.close()
        dbapi_connection.commit()

    return engine

"""Reading rows back from the journal database (``fetch_all`` and its kin): text that is not UTF-8 (a hand
edit) is read as lone surrogates instead of failing the read, and a driver error is shown in one line
(``one_line``). ``journal.engine`` re-exports them."""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import Connection, Row
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.base import Executable


def one_line(exc: BaseException) -> str:
    """A driver error in one line: the driver's own message, without SQLAlchemy's SQL dump."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _decode_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def valid_text(value: object) -> bool:
    """Whether ``value`` is text that encodes as UTF-8: text read back from bytes that are not UTF-8 (a
    hand edit, decoded with ``surrogateescape``, see ``fetch_all``) holds lone surrogates and does not."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
    """``fetch_all`` as plain tuples, for bulk reads: the statement is compiled by SQLAlchemy and run
    on the driver's cursor (``fetch_sql``), which skips building a result row object per row."""
    compiled = statement.compile(dialect=connection.dialect)  # type: ignore[attr-defined]
    values = compiled.construct_params()
    arguments: Any = tuple(values[name] for name in compiled.positiontup) if compiled.positional else values
    return fetch_sql(connection, str(compiled), arguments)


def fetch_sql(connection: Connection, sql: str, arguments: Any = ()) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (in the driver's paramstyle, with its ``arguments``) as plain tuples, run on
    the driver's cursor inside the connection's transaction (begun here if none is). Text that is not
    UTF-8 is read as ``fetch_all`` reads it."""
    if not connection.in_transaction():
        connection.begin()
    driver = connection.connection.dbapi_connection
    assert driver is not None
    return fetch_driver_sql(driver, connection.dialect.loaded_dbapi.Error, sql, arguments)


def fetch_driver_sql(
    driver: Any, errors: type[Exception], sql: str, arguments: Any = ()
) -> list[tuple[Any, ...]]:
    """``fetch_sql`` on a driver's connection as it is (no transaction begun: on SQLite, whose
    connections the engines leave in autocommit, one statement reads one snapshot). ``errors``: the
    driver's base error class, raised as SQLAlchemy's ``DBAPIError`` so that ``SQLAlchemyError``
    handling applies."""
    cursor = driver.cursor()
    try:
        try:
            cursor.execute(sql, arguments)
            return list(map(tuple, cursor.fetchall()))
        except sqlite3.OperationalError as exc:
            if not _undecodable(exc):
                raise
        driver.text_factory = _decode_text
        try:
            cursor.execute(sql, arguments)
            return list(map(tuple, cursor.fetchall()))
        finally:
            driver.text_factory = str
    except errors as exc:
        # as SQLAlchemy raises it elsewhere, so that readers' handling of SQLAlchemyError applies
        raise DBAPIError.instance(sql, arguments, exc, errors) from exc
    finally:
        cursor.close()

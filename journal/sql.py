"""Hot-path SQL: statements written once in a portable subset, run on the driver's connection.

SQLAlchemy owns the engine, the connection pool, the schema and every cold path; a call's own
transaction is run here, on the DBAPI connection under the SQLAlchemy ``Connection``, with one cursor:
``BEGIN IMMEDIATE`` (SQLite) or the driver's implicit transaction (psycopg), the statements, then the
driver's ``commit``. SQLAlchemy's per-statement and per-transaction machinery was most of a call's
cost.

On PostgreSQL a write transaction runs in psycopg's pipeline mode: a statement is sent without waiting
for the one before, and the client waits for the server only where it needs an answer (a read's rows,
the end of the pipeline). The driver connection is in autocommit for the transaction's length, so that
its BEGIN and COMMIT are statements of the pipeline like the others (psycopg would wait for the answer to
a BEGIN of its own, and send its COMMIT after the pipeline's end, one round trip each). A new write takes
3 round trips where it took 8: the BEGIN with the append lock and the head read, the handler's read, every
write of the call with its journal entry and the COMMIT (the pipeline's end). So a write's effect is known
only at the end of the pipeline: ``write`` returns nothing (no row count), and a statement that fails makes
the next read or the end of the pipeline raise; the server skips what follows it in the pipeline, COMMIT
included, and the transaction is rolled back whole, as a failed statement always made it on PostgreSQL.
The COMMIT may reach the server before its answer is read: a failure while the pipeline ends (the
connection lost) leaves its outcome unknown to the client, which the store reads back from the journal
(``journal.store``). Statements whose result is never read (``send``, ``write``, ``write_many``) go
through a cursor of their own: psycopg hands each result to the cursor that sent it, whenever it arrives,
and a read's cursor must hold its own rows and nothing else.

Statements use ``:name`` placeholders, turned into the driver's paramstyle once per statement.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from typing import Any

from sqlalchemy import Connection

_NAME = re.compile(r":([a-z_][a-z0-9_]*)")


class Prepared:
    """One statement in the driver's own paramstyle."""

    def __init__(self, sql: str, paramstyle: str) -> None:
        self.names = tuple(_NAME.findall(sql))
        self.positional = paramstyle in ("qmark", "format", "numeric")
        self._pick = operator.itemgetter(*self.names) if len(self.names) > 1 else None
        if paramstyle == "qmark":
            self.sql = _NAME.sub("?", sql)
        elif paramstyle == "format":
            self.sql = _NAME.sub("%s", sql)
        elif paramstyle == "pyformat":
            self.sql = _NAME.sub(lambda match: f"%({match.group(1)})s", sql)
        elif paramstyle == "named":
            self.sql = sql
        else:
            raise ValueError(f"unsupported paramstyle {paramstyle}")

    def bind(self, values: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        if not self.positional:
            return values
        if self._pick is not None:
            picked: tuple[Any, ...] = self._pick(values)
            return picked
        return [values[name] for name in self.names]


_NO_VALUES: Mapping[str, Any] = {}


class SqlRunner:
    """Runs prepared statements on the driver connection of one SQLAlchemy ``Connection``."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._paramstyle = connection.dialect.paramstyle
        self._prepared: dict[str, Prepared] = {}
        self._driver: Any = None
        self._cursor: Any = None
        self._sender: Any = None
        self._pipelines = connection.dialect.driver == "psycopg" and _pipeline_supported()
        """Whether write transactions run in psycopg's pipeline mode (libpq 14 or later)."""
        self._pipeline: AbstractContextManager[Any] | None = None

    @property
    def dialect(self) -> str:
        """The database's SQLAlchemy dialect name: ``sqlite`` or ``postgresql``."""
        return str(self._connection.dialect.name)

    def prepare(self, sql: str) -> Prepared:
        found = self._prepared.get(sql)
        if found is None:
            found = self._prepared[sql] = Prepared(sql, self._paramstyle)
        return found

    def attach(self) -> Any:
        """The cursor of the driver connection now under the ``Connection`` (a new one after the
        connection was invalidated and opened again); called before each use of the runner."""
        driver = self._connection.connection.dbapi_connection
        if driver is None:
            raise RuntimeError("the connection has no driver connection")
        if driver is not self._driver or self._cursor is None:
            self._driver, self._cursor = driver, driver.cursor()
            # pipeline mode hands each result to the cursor that sent its statement, whenever it
            # arrives: statements whose result is never read get a cursor of their own, so that a
            # read's cursor holds its own rows and nothing else
            self._sender = driver.cursor() if self._pipelines else self._cursor
        return self._cursor

    def begin(self, statement: str | None) -> None:
        """Start a write transaction on the driver: ``statement`` when given (SQLite's ``BEGIN
        IMMEDIATE``), else the driver's implicit transaction starts with the first statement, or, in
        pipeline mode on PostgreSQL, a ``BEGIN`` queued in the pipeline (the connection in autocommit
        until the transaction ends, so that psycopg sends no BEGIN of its own and waits for nothing)."""
        cursor = self.attach()
        if statement is not None:
            cursor.execute(statement)
        elif self._pipelines and self._pipeline is None:
            driver = self._driver
            driver.autocommit = True  # no round trip: the connection is idle and not yet pipelined
            pipeline = driver.pipeline()
            pipeline.__enter__()
            self._pipeline = pipeline
            self._sender.execute("BEGIN")

    @property
    def pipelined(self) -> bool:
        """Whether a write transaction is open in pipeline mode now."""
        return self._pipeline is not None

    def commit(self) -> None:
        """Commit. In pipeline mode the COMMIT is queued behind the transaction's statements and the
        pipeline is left: its sync sends what is still queued and reads every answer, in order, so a
        statement that failed raises there and the server skipped the COMMIT; when every answer is read
        without error, the COMMIT's among them, the transaction is committed."""
        if self._pipeline is None:
            self._driver.commit()
            return
        self._sender.execute("COMMIT")
        self._leave_pipeline()
        self._driver.autocommit = False

    def rollback(self) -> None:
        """Roll back whatever the driver has open (a no-op when nothing is), and leave autocommit."""
        with suppress(Exception):  # the error that aborted the pipeline is the caller's already
            self._leave_pipeline()
        driver = self._driver
        if driver is not None:
            driver.rollback()
            if self._pipelines and driver.autocommit:
                driver.autocommit = False

    def _leave_pipeline(self) -> None:
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is not None:
            pipeline.__exit__(None, None, None)

    def execute(self, sql: str, values: Mapping[str, Any] = _NO_VALUES) -> Any:
        """Run one statement; returns the cursor, whose rows must be read before the next statement."""
        prepared = self._prepared.get(sql) or self.prepare(sql)
        cursor = self._cursor
        cursor.execute(prepared.sql, prepared.bind(values))
        return cursor

    def send(self, sql: str, values: Mapping[str, Any] = _NO_VALUES) -> None:
        """Run one statement whose result is not read (a write, a lock): in pipeline mode it is sent
        without waiting for the server."""
        prepared = self._prepared.get(sql) or self.prepare(sql)
        self._sender.execute(prepared.sql, prepared.bind(values))

    def rows(self, sql: str, values: Mapping[str, Any] = _NO_VALUES) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.execute(sql, values).fetchall()]

    def first(self, sql: str, values: Mapping[str, Any] = _NO_VALUES) -> tuple[Any, ...] | None:
        row = self.execute(sql, values).fetchone()
        return None if row is None else tuple(row)

    def scalar(self, sql: str, values: Mapping[str, Any] = _NO_VALUES) -> Any:
        row = self.execute(sql, values).fetchone()
        return None if row is None else row[0]

    write = send
    """Run an INSERT/UPDATE/DELETE (``send`` itself: no second frame on the hot path). Nothing is returned:
    in pipeline mode its row count is not known before the commit, so no decision may depend on it."""

    def write_many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run one INSERT for many rows (``executemany``)."""
        prepared = self._prepared.get(sql) or self.prepare(sql)
        self._sender.executemany(prepared.sql, [prepared.bind(row) for row in rows])

    def close(self) -> None:
        with suppress(Exception):
            self._leave_pipeline()
        if self._cursor is not None:
            try:
                self._cursor.close()
                if self._sender is not self._cursor:
                    self._sender.close()
            finally:
                self._cursor = self._sender = self._driver = None


def _pipeline_supported() -> bool:
    """psycopg 3 over libpq 14 or later; any other driver runs one statement per round trip."""
    try:
        import psycopg
    except ImportError:
        return False
    return bool(psycopg.Pipeline.is_supported())

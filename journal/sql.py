"""Hot-path SQL: statements written once in a portable subset, run on the DBAPI cursor of the
transaction's connection. It skips SQLAlchemy's per-call statement building (most of a call's cost)
while SQLAlchemy keeps owning the connection, the transaction and the schema.

Statements use ``:name`` placeholders, turned into the driver's paramstyle once per dialect.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection

__all__ = ["Prepared", "SqlRunner", "insert_sql"]

_NAME = re.compile(r":([a-z_][a-z0-9_]*)")


def insert_sql(table: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (c1, ...) VALUES (:c1, ...)``, every column quoted."""
    names = ", ".join(f'"{column}"' for column in columns)
    return f"INSERT INTO {table} ({names}) VALUES ({', '.join(':' + column for column in columns)})"


class Prepared:
    """One statement in the driver's own paramstyle."""

    def __init__(self, sql: str, paramstyle: str) -> None:
        self.names = tuple(_NAME.findall(sql))
        self.positional = paramstyle in ("qmark", "format", "numeric")
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
        if self.positional:
            return tuple(values[name] for name in self.names)
        return values


class SqlRunner:
    """Runs prepared statements on the raw connection under the current SQLAlchemy transaction."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._paramstyle = connection.dialect.paramstyle
        self._prepared: dict[str, Prepared] = {}

    def prepare(self, sql: str) -> Prepared:
        found = self._prepared.get(sql)
        if found is None:
            found = self._prepared[sql] = Prepared(sql, self._paramstyle)
        return found

    def execute(self, sql: str, values: Mapping[str, Any] | None = None) -> Any:
        prepared = self.prepare(sql)
        cursor = self._connection.connection.cursor()
        cursor.execute(prepared.sql, prepared.bind(values or {}))
        return cursor

    def rows(self, sql: str, values: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
        cursor = self.execute(sql, values)
        try:
            return [tuple(row) for row in cursor.fetchall()]
        finally:
            cursor.close()

    def first(self, sql: str, values: Mapping[str, Any] | None = None) -> tuple[Any, ...] | None:
        cursor = self.execute(sql, values)
        try:
            row = cursor.fetchone()
            return None if row is None else tuple(row)
        finally:
            cursor.close()

    def scalar(self, sql: str, values: Mapping[str, Any] | None = None) -> Any:
        row = self.first(sql, values)
        return None if row is None else row[0]

    def write(self, sql: str, values: Mapping[str, Any]) -> int:
        """Run an INSERT/UPDATE; returns the number of rows it changed."""
        cursor = self.execute(sql, values)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

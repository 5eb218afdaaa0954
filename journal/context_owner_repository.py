"""The SQL store of working-memory context owners, bound to one transaction; writes are recorded as
effects."""

from __future__ import annotations

from typing import Any

from journal.sql import SqlRunner, insert_sql
from kernel.context_owners import ContextOwnerRepository
from kernel.protocols import StorageError

__all__ = ["NoContextOwners", "SqlContextOwnerRepository"]

_TABLE = "awmu_context_owners"
_SELECT = f"SELECT owner FROM {_TABLE} WHERE context_id = :context_id"
_INSERT = insert_sql(_TABLE, ("context_id", "owner", "created_seq"))


class SqlContextOwnerRepository(ContextOwnerRepository):
    def __init__(self, sql: SqlRunner, *, seq: int, effects: list[Any]) -> None:
        self._sql = sql
        self._seq = seq
        self._effects = effects

    def owner_of(self, context_id: str) -> str | None:
        row = self._sql.first(_SELECT, {"context_id": context_id})
        return None if row is None else str(row[0])

    def add(self, context_id: str, owner: str) -> None:
        row = {"context_id": context_id, "owner": owner, "created_seq": self._seq}
        self._sql.write(_INSERT, row)
        self._effects.append({"op": "insert", "table": _TABLE, "row": row})


class NoContextOwners(ContextOwnerRepository):
    """A database at a schema older than context owners (opened without upgrading) records none."""

    def owner_of(self, context_id: str) -> str | None:
        return None

    def add(self, context_id: str, owner: str) -> None:
        raise StorageError("this database predates context owners: run `arvis db upgrade` first")

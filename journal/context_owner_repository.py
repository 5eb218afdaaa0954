"""The SQL store of working-memory context owners, bound to one transaction: it reads, and stages what
a call changes (``arvis.changes``) for ``journal.apply`` to write."""

from __future__ import annotations

from arvis.changes import ChangeSet, Insert
from arvis.context_owners import ContextOwnerRepository
from journal.errors import StorageError
from journal.sql import SqlRunner

__all__ = ["NoContextOwners", "SqlContextOwnerRepository"]

_TABLE = "awmu_context_owners"
_SELECT = f"SELECT owner FROM {_TABLE} WHERE context_id = :context_id"


class SqlContextOwnerRepository(ContextOwnerRepository):
    def __init__(self, sql: SqlRunner, *, seq: int, changes: ChangeSet) -> None:
        self._sql = sql
        self._seq = seq
        self._changes = changes

    def owner_of(self, context_id: str) -> str | None:
        row = self._sql.first(_SELECT, {"context_id": context_id})
        return None if row is None else str(row[0])

    def add(self, context_id: str, owner: str) -> None:
        row = {"context_id": context_id, "owner": owner, "created_seq": self._seq}
        self._changes.add(Insert(_TABLE, row))


class NoContextOwners(ContextOwnerRepository):
    """A database at a schema older than context owners (opened without upgrading) records none."""

    def owner_of(self, context_id: str) -> str | None:
        return None

    def add(self, context_id: str, owner: str) -> None:
        raise StorageError("this database predates context owners: run `arvis db upgrade` first")

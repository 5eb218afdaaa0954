"""The SQL store of working-memory context owners, bound to one transaction: it only reads (the owner of
a new context is a change its creation decides, ``syscalls.working_memory``, and ``journal.apply``
writes)."""

from __future__ import annotations

from arvis.context_owners import ContextOwnerRepository
from journal.sql import SqlRunner

__all__ = ["SqlContextOwnerRepository"]

_SELECT = "SELECT owner FROM awmu_context_owners WHERE context_id = :context_id"


class SqlContextOwnerRepository(ContextOwnerRepository):
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def owner_of(self, context_id: str) -> str | None:
        row = self._sql.first(_SELECT, {"context_id": context_id})
        return None if row is None else str(row[0])

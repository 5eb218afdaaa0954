"""The SQL store of working-memory context owners, bound to one transaction: it only reads (the owner of
a new context is a change its creation decides, ``syscalls.working_memory``, and ``journal.apply``
writes). A context created in a format-2 journal (``arvis.access.AccessRules.OWNED``) is owned by the
principal that created it, and its capabilities are decided against that owner
(``arvis.access.context_allows`` and its neighbours); format-1 journals record no owners."""

from __future__ import annotations

from journal.sql import SqlRunner
from journal.statements import CONTEXT_OWNER


class SqlContextOwnerRepository:
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def owner_of(self, context_id: str) -> str | None:
        """The principal that created the context; None when none is recorded (no such context, or one
        created under the first release's rules)."""
        row = self._sql.first(CONTEXT_OWNER, {"context_id": context_id})
        return None if row is None else str(row[0])

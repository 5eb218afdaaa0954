"""The SQL store of access grants, bound to one transaction: it reads, and stages what a call changes
(``arvis.changes``) for ``journal.apply`` to write."""

from __future__ import annotations

from typing import Any

from arvis.access import Capability, Grant, GrantRepository
from arvis.changes import ChangeSet, Delete, Insert
from journal.errors import StorageError
from journal.sql import SqlRunner

__all__ = ["NoGrants", "SqlGrantRepository"]

_SELECT = "SELECT principal, capability, scope FROM grants"


def _grants(rows: list[tuple[Any, ...]]) -> list[Grant]:
    found = [Grant(str(p), Capability(str(c)), str(s)) for p, c, s in rows]
    return sorted(found, key=lambda grant: (grant.principal, grant.capability.value, grant.scope))


class SqlGrantRepository(GrantRepository):
    def __init__(self, sql: SqlRunner, *, seq: int, changes: ChangeSet) -> None:
        self._sql = sql
        self._seq = seq
        self._changes = changes

    def grants_of(self, principal: str) -> list[Grant]:
        return _grants(self._sql.rows(_SELECT + " WHERE principal = :principal", {"principal": principal}))

    def all_grants(self) -> list[Grant]:
        return _grants(self._sql.rows(_SELECT))

    def _key(self, grant: Grant) -> dict[str, Any]:
        return {"principal": grant.principal, "capability": grant.capability.value, "scope": grant.scope}

    def _exists(self, grant: Grant) -> bool:
        where = " WHERE principal = :principal AND capability = :capability AND scope = :scope"
        return self._sql.first(_SELECT + where, self._key(grant)) is not None

    def add(self, grant: Grant) -> bool:
        if self._exists(grant):
            return False
        row = {**self._key(grant), "granted_seq": self._seq}
        self._changes.add(Insert("grants", row))
        return True

    def remove(self, grant: Grant) -> bool:
        if not self._exists(grant):
            return False
        self._changes.add(Delete("grants", self._key(grant)))
        return True


class NoGrants(GrantRepository):
    """A database at a schema older than grants (opened without upgrading) holds none."""

    def grants_of(self, principal: str) -> list[Grant]:
        return []

    def all_grants(self) -> list[Grant]:
        return []

    def add(self, grant: Grant) -> bool:
        raise StorageError("this database predates access grants: run `arvis db upgrade` first")

    def remove(self, grant: Grant) -> bool:
        raise StorageError("this database predates access grants: run `arvis db upgrade` first")

"""The SQL store of access grants, bound to one transaction: it only reads (a grant or a withdrawal is a
change the handler decides, ``syscalls.access``, and ``journal.apply`` writes)."""

from __future__ import annotations

from typing import Any

from arvis.access import Capability, Grant
from journal.sql import SqlRunner
from journal.statements import GRANTS, GRANTS_OF


def _grants(rows: list[tuple[Any, ...]]) -> list[Grant]:
    found = [Grant(str(p), Capability(str(c)), str(s)) for p, c, s in rows]
    return sorted(found, key=lambda grant: (grant.principal, grant.capability.value, grant.scope))


class SqlGrantRepository:
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def grants_of(self, principal: str) -> list[Grant]:
        """The principal's grants, ordered by (capability, scope)."""
        return _grants(self._sql.rows(GRANTS_OF, {"principal": principal}))

    def all_grants(self) -> list[Grant]:
        """Every grant, ordered by (principal, capability, scope)."""
        return _grants(self._sql.rows(GRANTS))

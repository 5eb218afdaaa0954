"""The SQL reader behind the working memory's storage contract (``arvis.awmu.repository.AwmuReader``),
bound to one transaction.

Each record is stored whole as canonical JSON (``body``) beside the columns queries need; nothing is
written here (``journal.apply`` writes a call's decided rows). Text orderings happen in Python, never by
SQL collation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec

from arvis.awmu.model import CanonRequest, Event, ReviewItem, Unit, UnitStatus
from arvis.awmu.repository import AwmuReader, ContextRecord, EventQuery
from journal import statements
from journal.sql import SqlRunner

_S = TypeVar("_S", bound=msgspec.Struct)
_Pending = TypeVar("_Pending", ReviewItem, CanonRequest)


def _load(body: str, kind: type[_S]) -> _S:
    return msgspec.json.decode(body.encode("utf-8"), type=kind)


class SqlAwmuReader(AwmuReader):
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def _bodies(self, sql: str, values: dict[str, Any]) -> list[str]:
        return [str(row[0]) for row in self._sql.rows(sql, values)]

    def _one(self, kind: type[_S], table: str, column: str, name: str) -> _S | None:
        body = self._sql.scalar(statements.AWMU_BODY.format(table=table, column=column), {"id": name})
        return None if body is None else _load(body, kind)

    def _pending(self, kind: type[_Pending], table: str, context_id: str) -> list[_Pending]:
        bodies = self._bodies(statements.AWMU_PENDING.format(table=table), {"context_id": context_id})
        return sorted((_load(body, kind) for body in bodies), key=lambda item: item.created_seq)

    def get_context(self, context_id: str) -> ContextRecord | None:
        return self._one(ContextRecord, "awmu_contexts", "context_id", context_id)

    def units(self, context_id: str, statuses: Sequence[UnitStatus]) -> list[Unit]:
        found: list[Unit] = []
        for status in sorted({status.value for status in statuses}):
            values = {"context_id": context_id, "status": status}
            bodies = self._bodies(statements.AWMU_UNITS_BY_STATUS, values)
            found.extend(_load(body, Unit) for body in bodies)
        return sorted(found, key=lambda unit: (unit.created_seq, unit.unit_id))

    def count_units(self, context_id: str) -> int:
        return int(self._sql.scalar(statements.AWMU_UNIT_COUNT, {"context_id": context_id}))

    def get_unit(self, unit_id: str) -> Unit | None:
        return self._one(Unit, "awmu_units", "unit_id", unit_id)

    def get_review(self, review_id: str) -> ReviewItem | None:
        return self._one(ReviewItem, "awmu_reviews", "review_id", review_id)

    def pending_reviews(self, context_id: str) -> list[ReviewItem]:
        return self._pending(ReviewItem, "awmu_reviews", context_id)

    def get_canon_request(self, request_id: str) -> CanonRequest | None:
        return self._one(CanonRequest, "awmu_canon_requests", "request_id", request_id)

    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]:
        return self._pending(CanonRequest, "awmu_canon_requests", context_id)

    def events(self, query: EventQuery) -> list[Event]:
        values: dict[str, Any] = {"context_id": query.context_id, "after_seq": query.after_seq}
        given = {"limit": query.limit, "after_index": query.after_index, "unit_id": query.unit_id}
        values.update((name, value) for name, value in given.items() if value is not None)  # limit: always
        kinds = sorted(set(query.kinds))
        values.update({f"kind{index}": kind for index, kind in enumerate(kinds)})
        sql = statements.awmu_events(query.after_index is not None, query.unit_id is not None, len(kinds))
        return [_load(body, Event) for body in self._bodies(sql, values)]

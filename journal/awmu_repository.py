"""The SQL store behind the working-memory repository contract, bound to one transaction.

Each record is stored whole as canonical JSON (``body``) beside the columns queries need; every
write is recorded as an effect. Text orderings happen in Python, never by SQL collation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec

from arvis.awmu.model import CanonRequest, Event, ReviewItem, Unit, UnitStatus
from arvis.awmu.repository import AwmuRepository, ContextRecord, EventQuery
from arvis.canonical import canonical_bytes_of_own
from journal.sql import SqlRunner, insert_sql

__all__ = ["SqlAwmuRepository"]

_S = TypeVar("_S", bound=msgspec.Struct)

_UPSERTS = {
    "awmu_contexts": ("context_id", ("context_id", "updated_seq", "body")),
    "awmu_units": ("unit_id", ("unit_id", "context_id", "status", "created_seq", "body")),
    "awmu_reviews": ("review_id", ("review_id", "context_id", "status", "body")),
    "awmu_canon_requests": ("request_id", ("request_id", "context_id", "unit_id", "status", "body")),
}
_EVENT_COLUMNS = ("seq", "idx", "context_id", "kind", "unit_id", "body")
_INSERT_EVENT = insert_sql("awmu_events", _EVENT_COLUMNS)


def _body(record: msgspec.Struct) -> str:
    wire = record.wire() if isinstance(record, ContextRecord) else msgspec.to_builtins(record)
    return canonical_bytes_of_own(wire).decode("utf-8")


def _load(body: str, kind: type[_S]) -> _S:
    return msgspec.json.decode(body.encode("utf-8"), type=kind)


def _upsert_sql(table: str) -> tuple[str, str]:
    key, columns = _UPSERTS[table]
    assignments = ", ".join(f"{column} = :{column}" for column in columns if column != key)
    update = f"UPDATE {table} SET {assignments} WHERE {key} = :{key}"
    insert = insert_sql(table, columns)
    return update, insert


_UPSERT_SQL = {table: _upsert_sql(table) for table in _UPSERTS}


class SqlAwmuRepository(AwmuRepository):
    def __init__(self, sql: SqlRunner, *, effects: list[Any]) -> None:
        self._sql = sql
        self._effects = effects

    def _upsert(self, table: str, row: dict[str, Any]) -> None:
        update, insert = _UPSERT_SQL[table]
        if self._sql.write(update, row) == 0:
            self._sql.write(insert, row)
        self._effects.append({"op": "upsert", "table": table, "row": row})

    def _bodies(self, sql: str, values: dict[str, Any]) -> list[str]:
        return [str(row[0]) for row in self._sql.rows(sql, values)]

    def get_context(self, context_id: str) -> ContextRecord | None:
        body = self._sql.scalar("SELECT body FROM awmu_contexts WHERE context_id = :id", {"id": context_id})
        return None if body is None else _load(body, ContextRecord)

    def put_context(self, record: ContextRecord) -> None:
        self._upsert(
            "awmu_contexts",
            {"context_id": record.context_id, "updated_seq": record.updated_seq, "body": _body(record)},
        )

    def units(self, context_id: str, statuses: Sequence[UnitStatus]) -> list[Unit]:
        found: list[Unit] = []
        for status in sorted({status.value for status in statuses}):
            bodies = self._bodies(
                "SELECT body FROM awmu_units WHERE context_id = :context_id AND status = :status",
                {"context_id": context_id, "status": status},
            )
            found.extend(_load(body, Unit) for body in bodies)
        return sorted(found, key=lambda unit: (unit.created_seq, unit.unit_id))

    def count_units(self, context_id: str) -> int:
        return int(
            self._sql.scalar(
                "SELECT COUNT(*) FROM awmu_units WHERE context_id = :context_id", {"context_id": context_id}
            )
        )

    def get_unit(self, unit_id: str) -> Unit | None:
        body = self._sql.scalar("SELECT body FROM awmu_units WHERE unit_id = :id", {"id": unit_id})
        return None if body is None else _load(body, Unit)

    def put_unit(self, unit: Unit) -> None:
        self._upsert(
            "awmu_units",
            {
                "unit_id": unit.unit_id,
                "context_id": unit.context_id,
                "status": unit.status.value,
                "created_seq": unit.created_seq,
                "body": _body(unit),
            },
        )

    def get_review(self, review_id: str) -> ReviewItem | None:
        body = self._sql.scalar("SELECT body FROM awmu_reviews WHERE review_id = :id", {"id": review_id})
        return None if body is None else _load(body, ReviewItem)

    def pending_reviews(self, context_id: str) -> list[ReviewItem]:
        bodies = self._bodies(
            "SELECT body FROM awmu_reviews WHERE context_id = :context_id AND status = 'PENDING'",
            {"context_id": context_id},
        )
        return sorted((_load(body, ReviewItem) for body in bodies), key=lambda item: item.created_seq)

    def put_review(self, item: ReviewItem) -> None:
        self._upsert(
            "awmu_reviews",
            {
                "review_id": item.review_id,
                "context_id": item.context_id,
                "status": item.status.value,
                "body": _body(item),
            },
        )

    def get_canon_request(self, request_id: str) -> CanonRequest | None:
        body = self._sql.scalar(
            "SELECT body FROM awmu_canon_requests WHERE request_id = :id", {"id": request_id}
        )
        return None if body is None else _load(body, CanonRequest)

    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]:
        bodies = self._bodies(
            "SELECT body FROM awmu_canon_requests WHERE context_id = :context_id AND status = 'PENDING'",
            {"context_id": context_id},
        )
        return sorted((_load(body, CanonRequest) for body in bodies), key=lambda item: item.created_seq)

    def put_canon_request(self, request: CanonRequest) -> None:
        self._upsert(
            "awmu_canon_requests",
            {
                "request_id": request.request_id,
                "context_id": request.context_id,
                "unit_id": request.unit_id,
                "status": request.status.value,
                "body": _body(request),
            },
        )

    def add_event(self, event: Event) -> None:
        row = {
            "seq": event.seq,
            "idx": event.index,
            "context_id": event.context_id,
            "kind": event.kind.value,
            "unit_id": event.unit_id,
            "body": _body(event),
        }
        self._sql.write(_INSERT_EVENT, row)
        self._effects.append({"op": "insert", "table": "awmu_events", "row": row})

    def events(self, query: EventQuery) -> list[Event]:
        sql = "SELECT body FROM awmu_events WHERE context_id = :context_id"
        if query.after_index is None:
            sql += " AND seq > :after_seq"
        else:
            sql += " AND (seq > :after_seq OR (seq = :after_seq AND idx > :after_index))"
        values: dict[str, Any] = {
            "context_id": query.context_id,
            "after_seq": query.after_seq,
            "limit": query.limit,
        }
        if query.after_index is not None:
            values["after_index"] = query.after_index
        if query.unit_id is not None:
            sql += " AND unit_id = :unit_id"
            values["unit_id"] = query.unit_id
        kinds = sorted(set(query.kinds))
        if kinds:
            sql += " AND kind IN (" + ", ".join(f":kind{index}" for index in range(len(kinds))) + ")"
            values.update({f"kind{index}": kind for index, kind in enumerate(kinds)})
        return [_load(body, Event) for body in self._bodies(sql + " ORDER BY seq, idx LIMIT :limit", values)]

"""The SQL store behind the working-memory repository contract, bound to one transaction.

Each record is stored whole as canonical JSON (``body``) beside the columns queries need; every
write is recorded as an effect. Text orderings happen in Python, never by SQL collation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec
from sqlalchemy import Connection, Table, and_, or_, select, update

from arvis.awmu.model import CanonRequest, Event, ReviewItem, Unit, UnitStatus
from arvis.awmu.repository import AwmuRepository, ContextRecord, EventQuery
from arvis.canonical import canonical_bytes_of_own
from journal.schema import awmu_canon_requests, awmu_contexts, awmu_events, awmu_reviews, awmu_units

__all__ = ["SqlAwmuRepository"]

_S = TypeVar("_S", bound=msgspec.Struct)


def _body(record: msgspec.Struct) -> str:
    return canonical_bytes_of_own(msgspec.to_builtins(record)).decode("utf-8")


def _load(body: str, kind: type[_S]) -> _S:
    return msgspec.json.decode(body.encode("utf-8"), type=kind)


class SqlAwmuRepository(AwmuRepository):
    def __init__(self, connection: Connection, *, effects: list[Any]) -> None:
        self._connection = connection
        self._effects = effects

    def _upsert(self, table: Table, key: str, row: dict[str, Any]) -> None:
        column = table.c[key]
        values = {name: value for name, value in row.items() if name != key}
        done = self._connection.execute(update(table).where(column == row[key]).values(**values))
        if done.rowcount == 0:
            self._connection.execute(table.insert(), row)
        self._effects.append({"op": "upsert", "table": str(table.name), "row": row})

    def get_context(self, context_id: str) -> ContextRecord | None:
        body = self._connection.execute(
            select(awmu_contexts.c.body).where(awmu_contexts.c.context_id == context_id)
        ).scalar()
        return None if body is None else _load(body, ContextRecord)

    def put_context(self, record: ContextRecord) -> None:
        self._upsert(
            awmu_contexts,
            "context_id",
            {"context_id": record.context_id, "updated_seq": record.updated_seq, "body": _body(record)},
        )

    def units(self, context_id: str, statuses: Sequence[UnitStatus]) -> list[Unit]:
        rows = self._connection.execute(
            select(awmu_units.c.body).where(
                awmu_units.c.context_id == context_id, awmu_units.c.status.in_([s.value for s in statuses])
            )
        )
        found = [_load(body, Unit) for (body,) in rows]
        return sorted(found, key=lambda unit: (unit.created_seq, unit.unit_id))

    def get_unit(self, unit_id: str) -> Unit | None:
        body = self._connection.execute(
            select(awmu_units.c.body).where(awmu_units.c.unit_id == unit_id)
        ).scalar()
        return None if body is None else _load(body, Unit)

    def put_unit(self, unit: Unit) -> None:
        self._upsert(
            awmu_units,
            "unit_id",
            {
                "unit_id": unit.unit_id,
                "context_id": unit.context_id,
                "status": unit.status.value,
                "created_seq": unit.created_seq,
                "body": _body(unit),
            },
        )

    def get_review(self, review_id: str) -> ReviewItem | None:
        body = self._connection.execute(
            select(awmu_reviews.c.body).where(awmu_reviews.c.review_id == review_id)
        ).scalar()
        return None if body is None else _load(body, ReviewItem)

    def pending_reviews(self, context_id: str) -> list[ReviewItem]:
        rows = self._connection.execute(
            select(awmu_reviews.c.body).where(
                and_(awmu_reviews.c.context_id == context_id, awmu_reviews.c.status == "PENDING")
            )
        )
        return sorted((_load(body, ReviewItem) for (body,) in rows), key=lambda item: item.created_seq)

    def put_review(self, item: ReviewItem) -> None:
        self._upsert(
            awmu_reviews,
            "review_id",
            {
                "review_id": item.review_id,
                "context_id": item.context_id,
                "status": item.status.value,
                "body": _body(item),
            },
        )

    def get_canon_request(self, request_id: str) -> CanonRequest | None:
        body = self._connection.execute(
            select(awmu_canon_requests.c.body).where(awmu_canon_requests.c.request_id == request_id)
        ).scalar()
        return None if body is None else _load(body, CanonRequest)

    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]:
        rows = self._connection.execute(
            select(awmu_canon_requests.c.body).where(
                and_(
                    awmu_canon_requests.c.context_id == context_id, awmu_canon_requests.c.status == "PENDING"
                )
            )
        )
        return sorted((_load(body, CanonRequest) for (body,) in rows), key=lambda item: item.created_seq)

    def put_canon_request(self, request: CanonRequest) -> None:
        self._upsert(
            awmu_canon_requests,
            "request_id",
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
        self._connection.execute(awmu_events.insert(), row)
        self._effects.append({"op": "insert", "table": "awmu_events", "row": row})

    def events(self, query: EventQuery) -> list[Event]:
        after = or_(
            awmu_events.c.seq > query.after_seq,
            and_(awmu_events.c.seq == query.after_seq, awmu_events.c.idx > query.after_index),
        )
        statement = select(awmu_events.c.body).where(awmu_events.c.context_id == query.context_id, after)
        if query.kinds:
            statement = statement.where(awmu_events.c.kind.in_(list(query.kinds)))
        if query.unit_id is not None:
            statement = statement.where(awmu_events.c.unit_id == query.unit_id)
        statement = statement.order_by(awmu_events.c.seq, awmu_events.c.idx).limit(query.limit)
        return [_load(body, Event) for (body,) in self._connection.execute(statement)]

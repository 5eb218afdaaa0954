"""The SQL store behind the working-memory repository contract, bound to one transaction.

Each record is stored whole as canonical JSON (``body``) beside the columns queries need. Nothing is
written here: a record put by the engine is staged as a change (``arvis.changes``) for ``journal.apply``
to write once the call is accepted, and kept in an overlay that every read of the same call sees, so
the engine reads its own writes as if they were stored. Text orderings happen in Python, never by SQL
collation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec

from arvis.awmu.model import CanonRequest, Event, ReviewItem, Unit, UnitStatus
from arvis.awmu.repository import AwmuRepository, ContextRecord, EventQuery
from arvis.canonical import canonical_bytes_of_own
from arvis.changes import ChangeSet, Insert, Upsert
from journal.sql import SqlRunner

__all__ = ["SqlAwmuRepository"]

_S = TypeVar("_S", bound=msgspec.Struct)


def _body(record: msgspec.Struct) -> str:
    wire = record.wire() if isinstance(record, ContextRecord) else msgspec.to_builtins(record)
    return canonical_bytes_of_own(wire).decode("utf-8")


def _load(body: str, kind: type[_S]) -> _S:
    return msgspec.json.decode(body.encode("utf-8"), type=kind)


class SqlAwmuRepository(AwmuRepository):
    def __init__(self, sql: SqlRunner, *, changes: ChangeSet) -> None:
        self._sql = sql
        self._changes = changes
        # what this call put, by table and key: read back before the stored rows
        self._contexts: dict[str, ContextRecord] = {}
        self._units: dict[str, Unit] = {}
        self._reviews: dict[str, ReviewItem] = {}
        self._requests: dict[str, CanonRequest] = {}
        self._events: list[Event] = []

    def _upsert(self, table: str, row: dict[str, Any]) -> None:
        self._changes.add(Upsert(table, row))

    def _bodies(self, sql: str, values: dict[str, Any]) -> list[str]:
        return [str(row[0]) for row in self._sql.rows(sql, values)]

    def _one(self, staged: dict[str, _S], kind: type[_S], table: str, column: str, name: str) -> _S | None:
        """The record ``name`` as this call put it, else as stored, else None."""
        if name in staged:
            return staged[name]
        body = self._sql.scalar(f"SELECT body FROM {table} WHERE {column} = :id", {"id": name})
        return None if body is None else _load(body, kind)

    def _pending(
        self, staged: dict[str, _Pending], kind: type[_Pending], table: str, context_id: str
    ) -> list[_Pending]:
        """The PENDING items of a context, this call's puts read over the stored rows, oldest first."""
        bodies = self._bodies(
            f"SELECT body FROM {table} WHERE context_id = :context_id AND status = 'PENDING'",
            {"context_id": context_id},
        )
        found = _overlaid([_load(body, kind) for body in bodies], staged, context_id)
        return sorted(found, key=lambda item: item.created_seq)

    def get_context(self, context_id: str) -> ContextRecord | None:
        return self._one(self._contexts, ContextRecord, "awmu_contexts", "context_id", context_id)

    def put_context(self, record: ContextRecord) -> None:
        self._contexts[record.context_id] = record
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
        if self._units:
            wanted = {status.value for status in statuses}
            found = [unit for unit in found if unit.unit_id not in self._units]
            found.extend(
                unit
                for unit in self._units.values()
                if unit.context_id == context_id and unit.status.value in wanted
            )
        return sorted(found, key=lambda unit: (unit.created_seq, unit.unit_id))

    def count_units(self, context_id: str) -> int:
        stored = int(
            self._sql.scalar(
                "SELECT COUNT(*) FROM awmu_units WHERE context_id = :context_id", {"context_id": context_id}
            )
        )
        staged = [unit_id for unit_id, unit in self._units.items() if unit.context_id == context_id]
        if not staged:
            return stored
        names = ", ".join(f":u{index}" for index in range(len(staged)))
        known = self._sql.rows(
            f"SELECT unit_id FROM awmu_units WHERE unit_id IN ({names})",
            {f"u{index}": unit_id for index, unit_id in enumerate(staged)},
        )
        return stored + len(staged) - len(known)

    def get_unit(self, unit_id: str) -> Unit | None:
        return self._one(self._units, Unit, "awmu_units", "unit_id", unit_id)

    def put_unit(self, unit: Unit) -> None:
        self._units[unit.unit_id] = unit
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
        return self._one(self._reviews, ReviewItem, "awmu_reviews", "review_id", review_id)

    def pending_reviews(self, context_id: str) -> list[ReviewItem]:
        return self._pending(self._reviews, ReviewItem, "awmu_reviews", context_id)

    def put_review(self, item: ReviewItem) -> None:
        self._reviews[item.review_id] = item
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
        return self._one(self._requests, CanonRequest, "awmu_canon_requests", "request_id", request_id)

    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]:
        return self._pending(self._requests, CanonRequest, "awmu_canon_requests", context_id)

    def put_canon_request(self, request: CanonRequest) -> None:
        self._requests[request.request_id] = request
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
        self._events.append(event)
        self._changes.add(Insert("awmu_events", row))

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
        found = [_load(body, Event) for body in self._bodies(sql + " ORDER BY seq, idx LIMIT :limit", values)]
        # this call's events come after every stored one (its seq is the newest)
        found.extend(event for event in self._events if _matches(event, query))
        return found[: query.limit]


_Pending = TypeVar("_Pending", ReviewItem, CanonRequest)


def _overlaid(stored: list[_Pending], staged: dict[str, _Pending], context_id: str) -> list[_Pending]:
    """The pending items of a context as they will be once this call's are written: a stored item this
    call put again in its place (left out if no longer pending), then the new ones it put, in order."""
    if not staged:
        return stored
    found: list[_Pending] = []
    seen: set[str] = set()
    for item in stored:
        name = item.review_id if isinstance(item, ReviewItem) else item.request_id
        seen.add(name)
        current = staged.get(name, item)
        if current.status.value == "PENDING":
            found.append(current)
    found.extend(
        item
        for name, item in staged.items()
        if name not in seen and item.context_id == context_id and item.status.value == "PENDING"
    )
    return found


def _matches(event: Event, query: EventQuery) -> bool:
    """``events``' filter, for an event this call added (the SQL applies it to stored ones)."""
    if event.context_id != query.context_id:
        return False
    after = event.seq > query.after_seq or (
        query.after_index is not None and event.seq == query.after_seq and event.index > query.after_index
    )
    if not after:
        return False
    if query.unit_id is not None and event.unit_id != query.unit_id:
        return False
    return not query.kinds or event.kind.value in query.kinds

"""The storage contract of the working memory: what it reads (``AwmuReader``, answered by the journal's
store) and one call's view of it (``AwmuRepository``), through which the engine reads and decides.

Nothing is written here: a record the engine puts is kept as a change (``arvis.changes``) for the call's
``Decision``, which ``journal.apply`` writes once the call is accepted; and the engine reads back what the
call itself put, ahead of the stored rows, as if it were stored. Text orderings happen in Python, never by
SQL collation."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import Enum
from typing import Any, TypeVar

import msgspec

from arvis.awmu.config import AwmuConfig
from arvis.awmu.model import CanonRequest, Event, ReviewItem, Unit, UnitStatus
from arvis.canonical import canonical_bytes_of_own
from arvis.changes import Change, Insert, Upsert


class Closure(msgspec.Struct, frozen=True, kw_only=True):
    """How a context was closed (``memory.awmu.close``): the seq of the call, its reason, its principal."""

    seq: int
    reason: str
    by: str


class ContextRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A context: its recorded config, its turn counter, and per-turn counters of the pressure window
    (``[turn, conflicts, demotions, compactions]`` for the last five turns)."""

    context_id: str
    config: AwmuConfig
    turn: int = 0
    window: tuple[tuple[int, int, int, int], ...] = ()
    created_seq: int
    updated_seq: int
    rules: int = 1
    """The rule set the context lives under (``arvis.awmu.ruleset``); 1 is not written out, so the
    stored form of a rules-1 context is byte for byte what the first release wrote."""
    closed: Closure | None = None
    """Set by ``memory.awmu.close``, for good; None is not written out, so the stored form of an open
    context is byte for byte what earlier releases wrote."""
    disputes: tuple[tuple[str, str, str], ...] = ()
    """Rules 3: ``(unit, by, reason)`` for each learned unit that a later unit of another source disputes
    while both stand (a claim by meaning that no detector confirmed), shown on both lines of the block;
    empty is not written out, so the stored form of a context without any is what earlier releases
    wrote."""

    def wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = msgspec.to_builtins(self)
        wire["config"] = self.config.wire()
        if self.rules == 1:
            del wire["rules"]
        if self.closed is None:
            del wire["closed"]
        if not self.disputes:
            del wire["disputes"]
        return wire


class EventQuery(msgspec.Struct, frozen=True, kw_only=True):
    context_id: str
    after_seq: int = 0
    after_index: int | None = None  # None: every event of after_seq is skipped
    kinds: tuple[str, ...] = ()
    unit_id: str | None = None
    limit: int = 100


class AwmuReader(ABC):
    """Working-memory storage as stored, read only; every collection in a defined order (ids, seqs)."""

    @abstractmethod
    def get_context(self, context_id: str) -> ContextRecord | None: ...

    @abstractmethod
    def units(self, context_id: str, statuses: Sequence[UnitStatus]) -> list[Unit]:
        """Units of the context with one of ``statuses``, ordered by created_seq then unit_id."""

    @abstractmethod
    def count_units(self, context_id: str) -> int:
        """Every unit the context has ever had, whatever its status."""

    @abstractmethod
    def get_unit(self, unit_id: str) -> Unit | None: ...

    @abstractmethod
    def get_review(self, review_id: str) -> ReviewItem | None: ...

    @abstractmethod
    def pending_reviews(self, context_id: str) -> list[ReviewItem]:
        """The context's PENDING review items, oldest first."""

    @abstractmethod
    def get_canon_request(self, request_id: str) -> CanonRequest | None: ...

    @abstractmethod
    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]:
        """The context's PENDING canonization requests, oldest first."""

    @abstractmethod
    def events(self, query: EventQuery) -> list[Event]:
        """Events ordered by (seq, index)."""


_S = TypeVar("_S", ContextRecord, Unit, ReviewItem, CanonRequest)
_Pending = TypeVar("_Pending", ReviewItem, CanonRequest)


def body_of(record: msgspec.Struct) -> str:
    """A record's stored form: its canonical JSON, as text."""
    wire = record.wire() if isinstance(record, ContextRecord | ReviewItem) else msgspec.to_builtins(record)
    return canonical_bytes_of_own(wire).decode("utf-8")


class AwmuRepository:
    """One call's working memory: the stored records read through ``reader``, with what the call put
    read back first; ``changes`` are the rows it put, in order."""

    def __init__(self, reader: AwmuReader) -> None:
        self._reader = reader
        self.changes: list[Change] = []
        # what this call put, by key: read back before the stored rows (a record is never falsy)
        self._contexts: dict[str, ContextRecord] = {}
        self._units: dict[str, Unit] = {}
        self._reviews: dict[str, ReviewItem] = {}
        self._requests: dict[str, CanonRequest] = {}
        self._events: list[Event] = []

    def _put(self, staged: dict[str, _S], record: _S, table: str, columns: tuple[str, ...]) -> None:
        """Stage ``record`` under its key (the first of ``columns``) and put its row: ``columns``, the
        record's fields of those names (an enum's value), then its body."""
        row = {column: _column(getattr(record, column)) for column in columns}
        staged[row[columns[0]]] = record
        self.changes.append(Upsert(table, {**row, "body": body_of(record)}))

    def get_context(self, context_id: str) -> ContextRecord | None:
        return self._contexts.get(context_id) or self._reader.get_context(context_id)

    def put_context(self, record: ContextRecord) -> None:
        self._put(self._contexts, record, "awmu_contexts", ("context_id", "updated_seq"))

    def units(self, context_id: str, statuses: Sequence[UnitStatus]) -> list[Unit]:
        found = self._reader.units(context_id, statuses)
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
        stored = self._reader.count_units(context_id)
        return stored + sum(  # the units this call added, not those it put again
            unit.context_id == context_id and self._reader.get_unit(name) is None
            for name, unit in self._units.items()
        )

    def get_unit(self, unit_id: str) -> Unit | None:
        return self._units.get(unit_id) or self._reader.get_unit(unit_id)

    def put_unit(self, unit: Unit) -> None:
        self._put(self._units, unit, "awmu_units", ("unit_id", "context_id", "status", "created_seq"))

    def get_review(self, review_id: str) -> ReviewItem | None:
        return self._reviews.get(review_id) or self._reader.get_review(review_id)

    def pending_reviews(self, context_id: str) -> list[ReviewItem]:
        return _overlaid(self._reader.pending_reviews(context_id), self._reviews, context_id)

    def put_review(self, item: ReviewItem) -> None:
        self._put(self._reviews, item, "awmu_reviews", ("review_id", "context_id", "status"))

    def get_canon_request(self, request_id: str) -> CanonRequest | None:
        return self._requests.get(request_id) or self._reader.get_canon_request(request_id)

    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]:
        return _overlaid(self._reader.pending_canon_requests(context_id), self._requests, context_id)

    def put_canon_request(self, request: CanonRequest) -> None:
        columns = ("request_id", "context_id", "unit_id", "status")
        self._put(self._requests, request, "awmu_canon_requests", columns)

    def add_event(self, event: Event) -> None:
        row = {
            "seq": event.seq,
            "idx": event.index,
            "context_id": event.context_id,
            "kind": event.kind.value,
            "unit_id": event.unit_id,
            "body": body_of(event),
        }
        self._events.append(event)
        self.changes.append(Insert("awmu_events", row))

    def events(self, query: EventQuery) -> list[Event]:
        found = self._reader.events(query)
        # this call's events come after every stored one (its seq is the newest)
        found.extend(event for event in self._events if _matches(event, query))
        return found[: query.limit]


def _column(value: Any) -> Any:
    """A field as its row holds it: an enum by its value."""
    return value.value if isinstance(value, Enum) else value


def _overlaid(stored: list[_Pending], staged: dict[str, _Pending], context_id: str) -> list[_Pending]:
    """The pending items of a context as they will be once this call's are written: a stored item this
    call put again in its place (left out if no longer pending), then the new ones it put, oldest first."""
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
    return sorted(found, key=lambda item: item.created_seq)


def _matches(event: Event, query: EventQuery) -> bool:
    """``events``' filter, for an event this call added (the reader applies it to stored ones)."""
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

"""The storage contract of the working memory. The engine reads and writes only through it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import msgspec

from arvis.awmu.config import AwmuConfig
from arvis.awmu.model import CanonRequest, Event, ReviewItem, Unit, UnitStatus

__all__ = ["AwmuRepository", "Closure", "ContextRecord", "EventQuery"]


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


class AwmuRepository(ABC):
    """Working-memory storage; every collection is returned in a defined order (ids, seqs)."""

    @abstractmethod
    def get_context(self, context_id: str) -> ContextRecord | None: ...

    @abstractmethod
    def put_context(self, record: ContextRecord) -> None: ...

    @abstractmethod
    def units(self, context_id: str, statuses: Sequence[UnitStatus]) -> list[Unit]:
        """Units of the context with one of ``statuses``, ordered by created_seq then unit_id."""

    @abstractmethod
    def count_units(self, context_id: str) -> int:
        """Every unit the context has ever had, whatever its status."""

    @abstractmethod
    def get_unit(self, unit_id: str) -> Unit | None: ...

    @abstractmethod
    def put_unit(self, unit: Unit) -> None: ...

    @abstractmethod
    def get_review(self, review_id: str) -> ReviewItem | None: ...

    @abstractmethod
    def pending_reviews(self, context_id: str) -> list[ReviewItem]: ...

    @abstractmethod
    def put_review(self, item: ReviewItem) -> None: ...

    @abstractmethod
    def get_canon_request(self, request_id: str) -> CanonRequest | None: ...

    @abstractmethod
    def pending_canon_requests(self, context_id: str) -> list[CanonRequest]: ...

    @abstractmethod
    def put_canon_request(self, request: CanonRequest) -> None: ...

    @abstractmethod
    def add_event(self, event: Event) -> None: ...

    @abstractmethod
    def events(self, query: EventQuery) -> list[Event]:
        """Events ordered by (seq, index)."""

"""The working-memory records: units, review items, canonization requests, lifecycle events."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec


class Authority(StrEnum):
    PROVISIONAL = "PROVISIONAL"
    UNRELIABLE = "UNRELIABLE"
    RELIABLE = "RELIABLE"
    CANON = "CANON"


AUTHORITY_ORDER = (Authority.PROVISIONAL, Authority.UNRELIABLE, Authority.RELIABLE, Authority.CANON)


def authority_rank(authority: Authority) -> int:
    """PROVISIONAL 0 < UNRELIABLE 1 < RELIABLE 2 < CANON 3."""
    return AUTHORITY_ORDER.index(authority)


class Tier(StrEnum):
    HOT = "HOT"
    WARM = "WARM"
    COLD = "COLD"


def tier_of(rank: int, *, hot: int, warm: int) -> Tier:
    if rank >= hot:
        return Tier.HOT
    if rank >= warm:
        return Tier.WARM
    return Tier.COLD


class UnitStatus(StrEnum):
    ACTIVE = "ACTIVE"
    ARCHIVED = "ARCHIVED"
    SUPERSEDED = "SUPERSEDED"
    EVICTED = "EVICTED"


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    """One promoted proposition. Ids are derived from the seq that created it, never random."""

    unit_id: str
    context_id: str
    text: str
    rank: int
    authority: Authority
    authority_ceiling: Authority
    pinned: bool = False
    confidence: float
    reinforcement_count: int = 0
    trust_score: float | None = None
    trust_signals: dict[str, float] = msgspec.field(default_factory=dict)
    tier: Tier
    status: UnitStatus = UnitStatus.ACTIVE
    superseded_by: str | None = None
    supersedes: tuple[str, ...] = ()
    source_ids: tuple[str, ...] = ()
    created_seq: int
    updated_seq: int
    last_reinforced_turn: int = 0

    @property
    def trusted(self) -> bool:
        """RELIABLE or CANON, or pinned: what rules 2 never lets one source's word displace."""
        return self.pinned or self.authority in (Authority.RELIABLE, Authority.CANON)

    @property
    def protected(self) -> bool:
        """Pinned and CANON units are immune to decay, automatic demotion and eviction."""
        return self.pinned or self.authority is Authority.CANON


class ReviewStatus(StrEnum):
    PENDING = "PENDING"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"
    EXPIRED = "EXPIRED"  # the bounded queue was full and it was the oldest, or its waiting time ran out


class ReviewItem(msgspec.Struct, frozen=True, kw_only=True):
    """A proposal whose trust fell in the REVIEW zone: it waits for a decision."""

    review_id: str
    context_id: str
    text: str
    source: str
    confidence: float
    trust_score: float
    trust_signals: dict[str, float]
    authority_ceiling: Authority
    verdicts: tuple[dict[str, Any], ...] = ()
    status: ReviewStatus = ReviewStatus.PENDING
    created_seq: int
    decided_seq: int | None = None
    decided_by: str | None = None
    unit_id: str | None = None
    expires_at_turn: int | None = None
    """The turn at which it is dropped unless decided before (the queue policy's ``expire_after_turns``
    past the turn it was queued in); None is not written out, so the form of an item of a context
    without one is what earlier releases wrote."""

    def wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = msgspec.to_builtins(self)
        if self.expires_at_turn is None:
            del wire["expires_at_turn"]
        return wire


class CanonRequestStatus(StrEnum):
    PENDING = "PENDING"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"
    STALE = "STALE"


class CanonRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A request to raise a unit to CANON; only an explicit approval makes it so."""

    request_id: str
    context_id: str
    unit_id: str
    requested_by: str
    reason: str = ""
    authority_at_request: Authority
    unit_updated_seq: int
    status: CanonRequestStatus = CanonRequestStatus.PENDING
    created_seq: int
    decided_seq: int | None = None
    decided_by: str | None = None


class EventKind(StrEnum):
    CREATED = "created"
    DUPLICATE = "duplicate"
    REINFORCED = "reinforced"
    DECAYED = "decayed"
    AUTHORITY_CHANGED = "authority_changed"
    EVICTED = "evicted"
    ARCHIVED = "archived"
    SUPERSEDED = "superseded"
    RESTORED = "restored"
    CLOSED = "closed"
    REOPENED = "reopened"
    PINNED = "pinned"
    UNPINNED = "unpinned"
    CONFLICT = "conflict"
    REJECTED = "rejected"
    QUEUED = "queued"
    CANON_REQUESTED = "canon_requested"
    CANON_DECIDED = "canon_decided"
    REVIEW_DECIDED = "review_decided"
    INVARIANT_BLOCKED = "invariant_blocked"
    INVARIANT_WARNING = "invariant_warning"
    COMPACTION_CHECKED = "compaction_checked"
    TURN = "turn"


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """One lifecycle event; (seq, index) orders the stream."""

    seq: int
    index: int
    context_id: str
    turn: int
    kind: EventKind
    unit_id: str | None = None
    detail: dict[str, Any] = msgspec.field(default_factory=dict)

"""The one typed configuration of a working-memory context, recorded when the context is created."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

import msgspec

from arvis.awmu.model import Authority

Unit01 = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Channel = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern="^[^:\x00]+$")]
"""A named channel: no ``:``, which only a principal's own channel (its id) holds."""


class TrustProfile(msgspec.Struct, frozen=True, kw_only=True):
    """Signal weights and zone thresholds of a trust profile."""

    source_authority: float
    extraction_confidence: float
    graph_consistency: float
    corroboration: float
    novelty: float
    importance: float
    auto_promote: float
    review: float


PROFILES: dict[str, TrustProfile] = {
    "BALANCED": TrustProfile(
        source_authority=0.22, extraction_confidence=0.22, graph_consistency=0.22, corroboration=0.22,
        novelty=0.06, importance=0.06, auto_promote=0.65, review=0.40,
    ),
    "SECURE": TrustProfile(
        source_authority=0.18, extraction_confidence=0.18, graph_consistency=0.36, corroboration=0.18,
        novelty=0.05, importance=0.05, auto_promote=0.85, review=0.50,
    ),
    "NARRATIVE": TrustProfile(
        source_authority=0.35, extraction_confidence=0.25, graph_consistency=0.15, corroboration=0.15,
        novelty=0.05, importance=0.05, auto_promote=0.60, review=0.35,
    ),
}  # fmt: skip


class InvariantType(StrEnum):
    AUTHORITY_FLOOR = "authority-floor"
    EVICTION_IMMUNITY = "eviction-immunity"
    MIN_AUTHORITY_COUNT = "min-authority-count"
    ARCHIVE_PROHIBITION = "archive-prohibition"


class InvariantStrength(StrEnum):
    MUST = "MUST"
    SHOULD = "SHOULD"


class InvariantRule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An operator rule over the units whose text contains ``unit_text_pattern`` (case-insensitive).

    MUST blocks the change (an explicit call is refused; an automatic step is skipped); SHOULD lets
    it happen and records a warning event.
    """

    id: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    type: InvariantType
    strength: InvariantStrength = InvariantStrength.MUST
    unit_text_pattern: Annotated[str, msgspec.Meta(max_length=256)] = ""
    minimum_authority: Authority = Authority.RELIABLE
    minimum_count: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 1


class QueuePolicy(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Rules 3 on: how the context's queue is decided when no canonizer reviews it (``arvis.awmu.waiting``).

    ``decide_by``: the rules that may decide a waiting item, ``corroborated`` (the same statement entered
    on an independent source's word) and ``superseded`` (a fact it contests was superseded); a rule left
    out never decides one (without ``corroborated`` a waiting statement does not corroborate its copy).
    ``expire_after_turns``: an item still waiting that many turns after the turn it was queued in is
    dropped at that ``memory.awmu.turn`` (``EXPIRED``, ``rules:expired``); None, never. A canonizer's
    ``memory.awmu.review`` and the queue's bound decide whatever the policy."""

    decide_by: tuple[Literal["corroborated", "superseded"], ...] = ("corroborated", "superseded")
    expire_after_turns: Annotated[int, msgspec.Meta(ge=1, le=100_000)] | None = None


class AwmuConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Defaults follow ARC-Mem's; the ablation switches at the end are for comparison runs."""

    budget: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 20
    initial_rank: Annotated[int, msgspec.Meta(ge=100, le=900)] = 500
    min_rank: int = 100
    max_rank: int = 900
    auto_activate_threshold: Unit01 = 0.65
    reinforcement_boost: Annotated[int, msgspec.Meta(ge=0, le=800)] = 50
    upgrade_to_unreliable_at: Annotated[int, msgspec.Meta(ge=1)] = 3
    upgrade_to_reliable_at: Annotated[int, msgspec.Meta(ge=1)] = 7
    reliable_demote_below: int = 400
    unreliable_demote_below: int = 200
    hot_threshold: int = 600
    warm_threshold: int = 350
    hot_multiplier: Annotated[float, msgspec.Meta(gt=0.0, le=100.0)] = 1.5
    warm_multiplier: Annotated[float, msgspec.Meta(gt=0.0, le=100.0)] = 1.0
    cold_multiplier: Annotated[float, msgspec.Meta(gt=0.0, le=100.0)] = 0.6
    half_life_turns: Annotated[float, msgspec.Meta(gt=0.0, le=100_000.0)] = 12.0
    archive_floor: Annotated[int, msgspec.Meta(ge=100, le=900)] = 150
    trust_profile: Annotated[str, msgspec.Meta(pattern="^(BALANCED|SECURE|NARRATIVE)$")] = "BALANCED"
    source_authorities: dict[str, Unit01] = msgspec.field(
        default_factory=lambda: {"system": 1.0, "dm": 0.9, "player": 0.3}
    )
    default_source_authority: Unit01 = 0.5
    lexical_conflict_overlap: Unit01 = 0.5
    lexical_conflict_confidence: Unit01 = 0.75
    revision_confidence_threshold: Unit01 = 0.75
    reliable_revisable: bool = False
    chars_per_token: Annotated[int, msgspec.Meta(ge=1, le=100)] = 4
    canonizers: tuple[str, ...] = ("operator:*", "admin:*")
    operators: tuple[str, ...] = ("operator:*", "admin:*")
    channels: dict[Annotated[str, msgspec.Meta(min_length=1, max_length=256)], Channel] = msgspec.field(
        default_factory=dict
    )
    """Rules 4: the deployment's map of principals (``fnmatch`` patterns; the longest that matches wins)
    to the channel their statements come from (``arvis.awmu.origin``); empty is not written out, so the
    recorded form of a context without one is what earlier releases wrote."""
    invariants: tuple[InvariantRule, ...] = ()
    queue: QueuePolicy | None = None
    """The declared queue policy; None (not written out, as in earlier releases' records): every rule
    decides and nothing expires."""
    # ablation switches (scenario conditions); a production context leaves them all on
    trust_enabled: bool = True
    rank_enabled: bool = True
    lifecycle_enabled: bool = True
    promotion_enabled: bool = True
    # naive memories, for comparison only: "all" admits every proposal (no confidence or trust
    # gate); conflicts "coexist" keeps both sides, "replace" lets the newer statement win; eviction
    # "oldest" drops the oldest unit instead of the lowest-ranked one
    admission: Literal["gated", "all"] = "gated"
    conflict_policy: Literal["resolve", "coexist", "replace"] = "resolve"
    eviction: Literal["rank", "oldest"] = "rank"

    def validate(self) -> None:
        """Cross-field checks msgspec constraints cannot express; raises ValueError."""
        if not 100 <= self.min_rank < self.max_rank <= 900:
            raise ValueError("ranks must satisfy 100 <= min_rank < max_rank <= 900")
        if not self.min_rank <= self.initial_rank <= self.max_rank:
            raise ValueError("initial_rank must lie within [min_rank, max_rank]")
        if not self.min_rank <= self.archive_floor < self.max_rank:
            raise ValueError("archive_floor must lie within [min_rank, max_rank)")
        if not self.warm_threshold < self.hot_threshold:
            raise ValueError("warm_threshold must be below hot_threshold")
        if not self.unreliable_demote_below < self.reliable_demote_below:
            raise ValueError("unreliable_demote_below must be below reliable_demote_below")
        if not self.upgrade_to_unreliable_at < self.upgrade_to_reliable_at:
            raise ValueError("upgrade_to_unreliable_at must be below upgrade_to_reliable_at")

    def wire(self) -> dict[str, Any]:
        """The recorded form: every field but an empty ``channels`` and an undeclared ``queue``."""
        wire: dict[str, Any] = msgspec.to_builtins(self)
        if not self.channels:
            del wire["channels"]
        if self.queue is None:
            del wire["queue"]
        return wire

    def decides_by(self, rule: str) -> bool:
        """Whether the queue policy lets ``rule`` (``corroborated``, ``superseded``) decide an item."""
        return self.queue is None or rule in self.queue.decide_by

    @property
    def profile(self) -> TrustProfile:
        return PROFILES[self.trust_profile]

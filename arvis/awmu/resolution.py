"""Conflict detection (lexical, plus caller verdicts) and the resolution table.

Thresholds are compared in exact decimal arithmetic: in binary floating point ``0.8 - 0.1`` is
``0.7000000000000001``, so a confidence of 0.7 would miss a RELIABLE-in-COLD-tier replacement it
meets exactly; in decimal every tier-biased threshold is what it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from arvis.awmu.config import AwmuConfig
from arvis.awmu.model import Authority, Tier, Unit, authority_rank
from arvis.awmu.text import content_words, is_negated, jaccard


class ConflictType(StrEnum):
    CONTRADICTION = "CONTRADICTION"
    REVISION = "REVISION"
    WORLD_PROGRESSION = "WORLD_PROGRESSION"


class Resolution(StrEnum):
    KEEP_EXISTING = "KEEP_EXISTING"
    REPLACE = "REPLACE"
    DEMOTE_EXISTING = "DEMOTE_EXISTING"
    COEXIST = "COEXIST"
    QUEUE = "QUEUE"  # rules 2: the existing unit stays; the proposal waits for a decision


@dataclass(frozen=True)
class Conflict:
    unit_id: str
    type: ConflictType
    confidence: float
    detector: str
    evidence: dict[str, Any] | None = None  # rules 2: what the detector saw (slot, values, scores)


_TIER_BIAS = {Tier.HOT: Decimal("0.1"), Tier.WARM: Decimal("0"), Tier.COLD: Decimal("-0.1")}


def detect_lexical(config: AwmuConfig, text: str, active: list[Unit]) -> list[Conflict]:
    """A contradiction when exactly one side is negated and the content-word overlap exceeds the threshold."""
    negated = is_negated(text)
    words = content_words(text)
    found = []
    for unit in active:
        if is_negated(unit.text) == negated:
            continue
        if jaccard(words, content_words(unit.text)) > config.lexical_conflict_overlap:
            found.append(
                Conflict(
                    unit.unit_id, ConflictType.CONTRADICTION, config.lexical_conflict_confidence, "lexical"
                )
            )
    return found


def _exact(value: float) -> Decimal:
    return Decimal(repr(value))


def _guarded(
    config: AwmuConfig, conflict: Conflict, existing: Unit, incoming_ceiling: Authority, *, queue: bool
) -> Resolution | None:
    """The guards both tables start with (None: none applies); with ``queue`` (rules 2) a claim on a trusted
    subject, or an outranked proposal, is queued."""
    if conflict.type is ConflictType.WORLD_PROGRESSION or config.conflict_policy == "coexist":
        return Resolution.COEXIST
    if queue and conflict.evidence is not None and conflict.evidence.get("slot") == "subject":
        # a claim on a trusted subject (by meaning, unconfirmed): it waits, it displaces nothing
        return Resolution.QUEUE
    if existing.protected:
        return Resolution.KEEP_EXISTING
    if config.conflict_policy == "replace":
        return Resolution.REPLACE
    if authority_rank(incoming_ceiling) < authority_rank(existing.authority):
        return Resolution.QUEUE if queue else Resolution.KEEP_EXISTING
    return None


def resolve(
    config: AwmuConfig, conflict: Conflict, existing: Unit, incoming_ceiling: Authority
) -> Resolution:
    """What happens to ``existing`` when a proposal that could reach ``incoming_ceiling`` conflicts with it.

    Guards first: progression coexists; CANON and pinned units are kept; a proposal whose trust
    ceiling is below the existing unit's authority can neither replace nor demote it. Then the
    tier-biased confidence table.
    """
    if (guarded := _guarded(config, conflict, existing, incoming_ceiling, queue=False)) is not None:
        return guarded
    confidence = _exact(conflict.confidence)
    bias = _TIER_BIAS[existing.tier]
    if conflict.type is ConflictType.REVISION:
        if existing.authority is Authority.PROVISIONAL:
            return Resolution.REPLACE
        revisable = existing.authority is Authority.UNRELIABLE or config.reliable_revisable
        if revisable and confidence >= _exact(config.revision_confidence_threshold):
            return Resolution.REPLACE
        return Resolution.KEEP_EXISTING
    if existing.authority is Authority.RELIABLE:
        if confidence >= Decimal("0.8") + bias:
            return Resolution.REPLACE
        if confidence >= Decimal("0.6") + bias:
            return Resolution.DEMOTE_EXISTING
        return Resolution.KEEP_EXISTING
    if existing.authority is Authority.UNRELIABLE:
        return Resolution.REPLACE if confidence >= Decimal("0.6") + bias else Resolution.DEMOTE_EXISTING
    return Resolution.REPLACE


def resolve_by_tier(
    config: AwmuConfig, conflict: Conflict, existing: Unit, incoming_ceiling: Authority, *, corroborated: bool
) -> Resolution:
    """Rules 2: what a conflict may displace is decided by the existing unit's authority, never by the
    channel or the stated confidence.

    CANON and pinned units are kept (the proposal is rejected); a RELIABLE unit is kept and the proposal
    queued for a decision; an UNRELIABLE one yields only to a marked revision ("now", "moved to", …) that an
    independent source corroborates; a PROVISIONAL one to a revision or a contradiction that an independent
    source corroborates. Anything else is queued: one source's word displaces nothing. A proposal whose
    trust ceiling is below the existing unit's authority never displaces it."""
    if (guarded := _guarded(config, conflict, existing, incoming_ceiling, queue=True)) is not None:
        return guarded
    if existing.authority is Authority.RELIABLE:
        return Resolution.QUEUE
    revision = conflict.type is ConflictType.REVISION
    if existing.authority is Authority.UNRELIABLE:
        return Resolution.REPLACE if revision and corroborated else Resolution.QUEUE
    return Resolution.REPLACE if corroborated else Resolution.QUEUE

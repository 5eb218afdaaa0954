"""Proposals and seeds: the gates confidence → duplicate → conflict → trust → promote, and the budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from arvis.awmu.config import InvariantStrength
from arvis.awmu.engine import MAX_TEXT, ContextSession, unit_wire
from arvis.awmu.errors import AwmuErrorCode, AwmuRuleError
from arvis.awmu.invariants import Change, check_change
from arvis.awmu.model import (
    AUTHORITY_ORDER,
    Authority,
    EventKind,
    ReviewItem,
    Unit,
    UnitStatus,
    authority_rank,
)
from arvis.awmu.resolution import Conflict, ConflictType, Resolution, detect_lexical, resolve
from arvis.awmu.text import normalize
from arvis.awmu.trust import TrustAssessment, Zone, assess_trust
from arvis.awmu.waiting import expiry_turn


@dataclass(frozen=True)
class Verdict:
    """A judgement from outside the kernel (a model, a person) about one existing unit."""

    unit_id: str
    type: ConflictType
    confidence: float
    detector: str


def check_text(text: str) -> None:
    if not normalize(text):
        raise AwmuRuleError(AwmuErrorCode.INVALID_TEXT, "the text has no words")
    if len(text) > MAX_TEXT:
        raise AwmuRuleError(AwmuErrorCode.INVALID_TEXT, f"the text is longer than {MAX_TEXT} characters")


def refuse_low_confidence(
    session: ContextSession, *, confidence: float, source: str
) -> dict[str, Any] | None:
    """The rejection of a proposal stated below the context's ``auto_activate_threshold`` (unless the
    context admits all), recorded; None when the confidence suffices."""
    config = session.config
    if confidence < config.auto_activate_threshold and config.admission != "all":
        session.emit(EventKind.REJECTED, None, reason="low_confidence", confidence=confidence, source=source)
        return {"outcome": "rejected_low_confidence", "confidence": confidence}
    return None


def queued_verdicts(
    session: ContextSession, item: ReviewItem, *, skip_slots: tuple[str, ...] = ()
) -> list[Verdict]:
    """The verdicts queued with ``item`` that still name an active unit (and whose ``slot``, rules 2, is
    not among ``skip_slots``)."""
    return [
        Verdict(str(v["unit_id"]), ConflictType(v["type"]), float(v["confidence"]), str(v["detector"]))
        for v in item.verdicts
        if v["unit_id"] in session.active and v.get("slot") not in skip_slots
    ]


def judged_conflicts(session: ContextSession, verdicts: list[Verdict]) -> dict[str, Conflict]:
    """The callers' verdicts as conflicts, by unit id; one naming no active unit is refused."""
    judged = {}
    for verdict in verdicts:
        if verdict.unit_id not in session.active:
            raise AwmuRuleError(
                AwmuErrorCode.INVALID_VERDICT,
                f"verdict names '{verdict.unit_id}', not an active unit of this context",
            )
        judged[verdict.unit_id] = Conflict(
            verdict.unit_id, verdict.type, verdict.confidence, verdict.detector
        )
    return judged


def _conflicts(session: ContextSession, text: str, verdicts: list[Verdict]) -> list[Conflict]:
    judged = judged_conflicts(session, verdicts)
    lexical = [c for c in detect_lexical(session.config, text, session.ranked()) if c.unit_id not in judged]
    return sorted([*judged.values(), *lexical], key=lambda conflict: conflict.unit_id)


def _plan(
    session: ContextSession, conflicts: list[Conflict], ceiling: Authority
) -> list[tuple[Conflict, Unit, Resolution]]:
    return [
        (c, session.active[c.unit_id], resolve(session.config, c, session.active[c.unit_id], ceiling))
        for c in conflicts
    ]


def emit_conflicts(
    session: ContextSession,
    plan: list[tuple[Conflict, Unit, Resolution]],
    *,
    source: str | None = None,
    detector: bool = False,
) -> None:
    """A CONFLICT event a planned conflict: its type and resolution, then the proposal's source where one
    is given and the detector where asked (rules 2), the fields each path's events always held."""
    for conflict, unit, resolution in plan:
        detail = {"type": conflict.type.value, "resolution": resolution.value}
        if source is not None:
            detail["source"] = source
        if detector:
            detail["detector"] = conflict.detector
        session.emit(EventKind.CONFLICT, unit.unit_id, **detail)


def verdict_wire(conflict: Conflict) -> dict[str, Any]:
    """A conflict as results and queued proposals name it: its unit, type, confidence and detector."""
    return {
        "unit_id": conflict.unit_id,
        "type": conflict.type.value,
        "confidence": conflict.confidence,
        "detector": conflict.detector,
    }


def conflict_wire(plan: list[tuple[Conflict, Unit, Resolution]]) -> list[dict[str, Any]]:
    return [
        {
            **verdict_wire(conflict),
            "existing_authority": unit.authority.value,
            "resolution": resolution.value,
            # rules 2 only: rules 1 results keep their first form
            **({} if conflict.evidence is None else {"evidence": conflict.evidence}),
        }
        for conflict, unit, resolution in plan
    ]


def trust_wire(trust: TrustAssessment) -> dict[str, Any]:
    return {
        "score": trust.score,
        "zone": trust.zone.value,
        "ceiling": trust.ceiling.value,
        "signals": trust.signals,
    }


def propose(
    session: ContextSession, *, text: str, source: str, confidence: float, verdicts: list[Verdict]
) -> dict[str, Any]:
    check_text(text)
    refused = refuse_low_confidence(session, confidence=confidence, source=source)
    if refused is not None:
        return refused
    duplicate = session.duplicate_of(text)
    if duplicate is not None:
        session.emit(EventKind.DUPLICATE, duplicate.unit_id, source=source)
        return {"outcome": "duplicate", "duplicate_of": duplicate.unit_id}
    conflicts = _conflicts(session, text, verdicts)
    # the proposal's trust, corroborated by the distinct sources already queued with the same text
    key = normalize(text)
    queued_sources = {
        item.source
        for item in session.repo.pending_reviews(session.context_id)
        if normalize(item.text) == key
    }
    trust = assess_trust(
        session.config,
        text=text,
        source=source,
        confidence=confidence,
        active=session.ranked(),
        corroborating_sources=len(queued_sources | {source}),
    )
    plan = _plan(session, conflicts, trust.ceiling)
    emit_conflicts(session, plan, source=source)
    result: dict[str, Any] = {"trust": trust_wire(trust), "conflicts": conflict_wire(plan)}
    if any(resolution is Resolution.KEEP_EXISTING for _, _, resolution in plan):
        session.emit(EventKind.REJECTED, None, reason="conflict", source=source)
        return {"outcome": "rejected_conflict", **result}
    if session.config.admission == "all":
        trust = TrustAssessment(trust.score, trust.signals, Zone.AUTO_PROMOTE, trust.ceiling)
    if trust.zone is Zone.ARCHIVE:
        session.emit(EventKind.REJECTED, None, reason="trust_archive", source=source, score=trust.score)
        return {"outcome": "archived", **result}
    if trust.zone is Zone.REVIEW:
        item = review_item(
            session,
            text=text,
            source=source,
            confidence=confidence,
            trust=trust,
            # the model verdicts a reviewer sees beside it (the lexical ones are left out)
            verdicts=tuple(verdict_wire(c) for c in conflicts if c.detector != "lexical"),
        )
        session.repo.put_review(item)
        session.emit(EventKind.QUEUED, None, review_id=item.review_id, source=source, score=trust.score)
        return {"outcome": "queued_for_review", "review_id": item.review_id, **result}
    return {
        **result,
        **promote_unit(session, text=text, source=source, confidence=confidence, trust=trust, plan=plan),
    }


def review_item(
    session: ContextSession,
    *,
    text: str,
    source: str,
    confidence: float,
    trust: TrustAssessment,
    verdicts: tuple[dict[str, Any], ...],
) -> ReviewItem:
    """A proposal queued by this call, with the verdicts a reviewer will see."""
    return ReviewItem(
        review_id=f"r{session.seq}",
        context_id=session.context_id,
        text=text,
        source=source,
        confidence=confidence,
        trust_score=trust.score,
        trust_signals=trust.signals,
        authority_ceiling=trust.ceiling,
        verdicts=verdicts,
        created_seq=session.seq,
        expires_at_turn=expiry_turn(session),
    )


def promote_unit(
    session: ContextSession,
    *,
    text: str,
    source: str,
    confidence: float,
    trust: TrustAssessment,
    plan: list[tuple[Conflict, Unit, Resolution]],
    rank: int | None = None,
    authority: Authority = Authority.PROVISIONAL,
) -> dict[str, Any]:
    """Apply the resolutions and add the unit, evicting within the budget. Everything is checked first.
    ``authority`` (rules 3): the successor's, when it is its predecessor's own update; its ceiling is
    then at least that. Under rules 3 a superseded unit's event names its successor's id, seq and
    source."""
    new_id = f"u{session.seq}-0"
    replaced = [unit for _, unit, resolution in plan if resolution is Resolution.REPLACE]
    demoted = [unit for _, unit, resolution in plan if resolution is Resolution.DEMOTE_EXISTING]
    if _blocked_supersession(session, replaced):
        session.emit(EventKind.REJECTED, None, reason="invariant", source=source)
        return {"outcome": "rejected_invariant"}
    for unit in replaced:
        provenance = {"successor_seq": session.seq, "successor_source": source} if session.rules >= 3 else {}
        session.guarded_leave(
            unit,
            UnitStatus.SUPERSEDED,
            Change.SUPERSEDE,
            EventKind.SUPERSEDED,
            explicit=False,
            superseded_by=new_id,
            **provenance,
        )
    demoted_ids = []
    for unit in demoted:
        current = session.active[unit.unit_id]
        below = AUTHORITY_ORDER[max(authority_rank(current.authority) - 1, 0)]
        lower = msgspec.structs.replace(current, authority=below)
        if session.guard(current, lower, Change.DEMOTE, explicit=False):
            session.set_authority(current, below, "conflict", by=new_id)
            demoted_ids.append(unit.unit_id)
    evicted = session.make_room()
    unit = session.new_unit(
        text=text,
        authority=authority,
        ceiling=max(trust.ceiling, authority, key=authority_rank),
        rank=rank,
        pinned=False,
        confidence=confidence,
        trust_score=trust.score,
        trust_signals=trust.signals,
        source=source,
        supersedes=tuple(unit.unit_id for unit in replaced),
    )
    return {
        "outcome": "promoted",
        "unit_id": unit.unit_id,
        "unit": unit_wire(unit),
        "superseded": [unit.unit_id for unit in replaced],
        "demoted": demoted_ids,
        "evicted": evicted,
    }


def _blocked_supersession(session: ContextSession, replaced: list[Unit]) -> bool:
    """Check the supersessions in the order they will happen, each against the set the earlier ones
    leave behind, before anything is written: a MUST rule rejects the whole proposal (True, with an
    ``invariant_blocked`` event per violation)."""
    remaining = dict(session.active)
    for unit in replaced:
        after = msgspec.structs.replace(unit, status=UnitStatus.SUPERSEDED)
        violations = [
            v
            for v in check_change(
                session.config.invariants, unit, after, Change.SUPERSEDE, remaining.values()
            )
            if v.strength is InvariantStrength.MUST
        ]
        if violations:
            session.blocked(unit.unit_id, violations)
            return True
        remaining[unit.unit_id] = after
    return False


def seed(
    session: ContextSession, *, text: str, authority: Authority, rank: int | None, pinned: bool, source: str
) -> dict[str, Any]:
    """An operator's unit at a given authority (never CANON: that takes an approved request)."""
    session.require_operator("seed")
    check_text(text)
    if authority is Authority.CANON:
        raise AwmuRuleError(
            AwmuErrorCode.NOT_AUTHORIZED,
            "a seed cannot be CANON: seed it RELIABLE, then canonize and review it",
        )
    duplicate = session.duplicate_of(text)
    if duplicate is not None:
        session.emit(EventKind.DUPLICATE, duplicate.unit_id, source=source)
        return {"outcome": "duplicate", "duplicate_of": duplicate.unit_id}
    evicted = session.make_room()
    unit = session.new_unit(
        text=text,
        authority=authority,
        ceiling=Authority.RELIABLE,
        rank=rank,
        pinned=pinned,
        confidence=1.0,
        trust_score=None,
        trust_signals={},
        source=source,
    )
    return {"outcome": "seeded", "unit_id": unit.unit_id, "unit": unit_wire(unit), "evicted": evicted}


def promote_reviewed(session: ContextSession, item: ReviewItem) -> dict[str, Any]:
    """An approved review item: conflicts are judged again against today's units, the trust gate is
    the reviewer's decision, the ceiling stays the one its trust earned."""
    conflicts = _conflicts(session, item.text, queued_verdicts(session, item))
    plan = _plan(session, conflicts, item.authority_ceiling)
    emit_conflicts(session, plan)
    return settle_approved(session, item, plan)


def settle_approved(
    session: ContextSession, item: ReviewItem, plan: list[tuple[Conflict, Unit, Resolution]]
) -> dict[str, Any]:
    """An approved queued proposal, its conflicts planned: rejected when a unit must be kept, a
    duplicate when its text is active already, else promoted with the ceiling its trust earned."""
    if any(resolution is Resolution.KEEP_EXISTING for _, _, resolution in plan):
        return {"outcome": "rejected_conflict", "conflicts": conflict_wire(plan)}
    duplicate = session.duplicate_of(item.text)
    if duplicate is not None:
        return {"outcome": "duplicate", "duplicate_of": duplicate.unit_id}
    trust = TrustAssessment(item.trust_score, item.trust_signals, Zone.AUTO_PROMOTE, item.authority_ceiling)
    return {
        "conflicts": conflict_wire(plan),
        **promote_unit(
            session, text=item.text, source=item.source, confidence=item.confidence, trust=trust, plan=plan
        ),
    }

"""Rules 2 admission: by content, whatever the channel.

confidence → duplicate (exact, then a paraphrase by meaning) → conflicts (caller verdicts, value,
polarity; semantic similarity links texts that share few words) → the tier table → trust.

- A statement that conflicts with nothing enters, PROVISIONAL, at a rank its trust earns: an assistant
  learns what its user tells it.
- A statement that conflicts with a CANON or pinned unit is rejected; with a RELIABLE one, or an
  UNRELIABLE one it cannot displace, it is queued for a decision, whatever its channel and confidence.
- A restatement from a source the unit has not heard from corroborates it (the source is added).
- The review queue is bounded: the oldest pending item expires when a new one would exceed it. It is
  decided by a canonizer (``memory.awmu.review``), or by corroboration where the tier table allows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from arvis.awmu.detection import DetectorRun, Readings, detect, paraphrase_of
from arvis.awmu.engine import ContextSession
from arvis.awmu.framing import framing_cues
from arvis.awmu.model import Authority, EventKind, ReviewItem, ReviewStatus, Unit
from arvis.awmu.promotion import (
    Verdict,
    check_text,
    conflict_wire,
    judged_conflicts,
    promote_unit,
    queued_verdicts,
    refuse_low_confidence,
    review_item,
    settle_approved,
    trust_wire,
)
from arvis.awmu.resolution import Conflict, ConflictType, Resolution, resolve_by_tier
from arvis.awmu.ruleset import LEARNED_RANK, MAX_CONTEXT_STATEMENTS, MAX_PENDING_REVIEWS
from arvis.awmu.text import normalize, reader_version
from arvis.awmu.trust import TrustAssessment, Zone, assess_trust
from arvis.awmu.utterance import statements

__all__ = ["Measure", "approve_queued", "propose_by_content"]

Measure = Callable[[str, Sequence[Unit]], Readings]
"""The semantic detector as the core sees it: text and units in, recorded similarities out."""

_ARCHIVE_RANK = LEARNED_RANK - 100


def _conflicts(
    session: ContextSession,
    text: str,
    judged: dict[str, Conflict],
    readings: Readings,
    ranked: Sequence[Unit] | None = None,
) -> list[Conflict]:
    """The callers' verdicts (``judged_conflicts``) and the detectors' findings, one per unit, by unit id.
    A caller's "progression" cannot wave a conflict a detector found onto a trusted unit."""
    units = session.ranked() if ranked is None else ranked
    rules = session.rules
    detected = {c.unit_id: c for c in detect(session.config, text, units, readings, claims=True, rules=rules)}
    kept = {
        unit_id: verdict
        for unit_id, verdict in judged.items()
        if not (
            session.active[unit_id].trusted
            and verdict.type is ConflictType.WORLD_PROGRESSION
            and unit_id in detected
        )
    }
    found = [c for unit_id, c in detected.items() if unit_id not in kept]
    return sorted([*kept.values(), *found], key=lambda conflict: conflict.unit_id)


def _corroborate(session: ContextSession, unit: Unit, source: str, how: str) -> dict[str, Any]:
    """A restatement: the unit hears from one more source (or the same one again)."""
    added = source not in unit.source_ids
    if added:
        unit = session.save(msgspec.structs.replace(unit, source_ids=(*unit.source_ids, source)))
    session.emit(EventKind.DUPLICATE, unit.unit_id, source=source, match=how, corroborated=added)
    return {"outcome": "duplicate", "duplicate_of": unit.unit_id, "match": how, "corroborated": added}


def _contested_message(
    session: ContextSession,
    text: str,
    utterance: str,
    ranked: list[Unit],
    measure: Measure,
    ceiling: Authority,
) -> tuple[list[tuple[Conflict, Unit, Resolution]], list[DetectorRun]]:
    """The trusted units the message's other statements contest (those the tier table would keep or queue
    against): a statement sent with an attack on a trusted fact is not admitted on the same word."""
    key = normalize(text)
    runs: list[DetectorRun] = []
    contested: dict[str, tuple[Conflict, Unit, Resolution]] = {}
    for index, sentence in enumerate(
        statements(utterance, reader_version(session.rules))[:MAX_CONTEXT_STATEMENTS]
    ):
        if normalize(sentence) == key:
            continue
        readings = measure(sentence, ranked)
        runs.append(readings.semantic)
        for found in detect(session.config, sentence, ranked, readings, claims=True, rules=session.rules):
            unit = session.active[found.unit_id]
            verdict = resolve_by_tier(session.config, found, unit, ceiling, corroborated=False)
            if verdict not in (Resolution.KEEP_EXISTING, Resolution.QUEUE) or found.unit_id in contested:
                continue
            evidence = {**(found.evidence or {}), "slot": "context", "sentence": index, "by": found.detector}
            contested[found.unit_id] = (
                Conflict(found.unit_id, found.type, found.confidence, "context", evidence),
                unit,
                Resolution.QUEUE,
            )
    return [contested[unit_id] for unit_id in sorted(contested)], runs


def _verdict_wire(conflict: Conflict) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "unit_id": conflict.unit_id,
        "type": conflict.type.value,
        "confidence": conflict.confidence,
        "detector": conflict.detector,
    }
    if conflict.evidence is not None and "slot" in conflict.evidence:
        wire["slot"] = conflict.evidence["slot"]
    return wire


def _decide(
    session: ContextSession, item: ReviewItem, status: ReviewStatus, by: str, unit_id: str | None = None
) -> None:
    """A queued item decided by the rules themselves (``by``), recorded with its event."""
    decided = msgspec.structs.replace(item, status=status, decided_seq=session.seq, decided_by=by)
    if unit_id is not None:
        decided = msgspec.structs.replace(decided, unit_id=unit_id)
    session.repo.put_review(decided)
    session.emit(EventKind.REVIEW_DECIDED, unit_id, review_id=item.review_id, status=status.value)


def _queue(
    session: ContextSession,
    *,
    text: str,
    source: str,
    confidence: float,
    trust: TrustAssessment,
    conflicts: list[Conflict],
    pending: list[ReviewItem],
) -> dict[str, Any]:
    """Queue a proposal for a decision; the oldest ``pending`` item expires when the queue is full."""
    expired = []
    overflow = len(pending) + 1 - MAX_PENDING_REVIEWS
    for item in sorted(pending, key=lambda item: (item.created_seq, item.review_id))[: max(overflow, 0)]:
        _decide(session, item, ReviewStatus.EXPIRED, "rules:queue-bound")
        expired.append(item.review_id)
    item = review_item(
        session,
        text=text,
        source=source,
        confidence=confidence,
        trust=trust,
        verdicts=tuple(_verdict_wire(conflict) for conflict in conflicts),
    )
    session.repo.put_review(item)
    session.emit(EventKind.QUEUED, None, review_id=item.review_id, source=source, score=trust.score)
    return {"outcome": "queued_for_review", "review_id": item.review_id, "expired": expired}


def propose_by_content(
    session: ContextSession,
    *,
    text: str,
    source: str,
    confidence: float,
    verdicts: list[Verdict],
    measure: Measure,
    utterance: str = "",
) -> dict[str, Any]:
    """``utterance``: the whole message ``text`` was taken from, when the caller split one; a statement
    whose message contests a trusted unit elsewhere is queued with it (its other sentences are read by
    the same detectors, each semantic run recorded with ``of: context``)."""
    check_text(text)
    config = session.config
    admit_all = config.admission == "all"
    refused = refuse_low_confidence(session, confidence=confidence, source=source)
    if refused is not None:
        return refused
    duplicate = session.duplicate_of(text)
    if duplicate is not None:
        return _corroborate(session, duplicate, source, "text")
    judged = judged_conflicts(session, verdicts)  # a bad verdict is refused before any detector runs
    ranked = session.ranked()
    readings = measure(text, ranked)
    detectors = {"detectors": readings.wire(session.rules)}
    paraphrased = paraphrase_of(text, ranked, readings, session.rules)
    if paraphrased is not None:
        return {**_corroborate(session, paraphrased, source, "meaning"), **detectors}
    conflicts = _conflicts(session, text, judged, readings, ranked)
    key = normalize(text)
    pending = session.repo.pending_reviews(session.context_id)
    queued_copies = [item for item in pending if normalize(item.text) == key]
    sources = len({item.source for item in queued_copies} | {source})
    trust = assess_trust(
        config, text=text, source=source, confidence=confidence, active=ranked, corroborating_sources=sources
    )
    corroborated = sources >= 2
    plan = [
        (
            c,
            session.active[c.unit_id],
            resolve_by_tier(config, c, session.active[c.unit_id], trust.ceiling, corroborated=corroborated),
        )
        for c in conflicts
    ]
    if utterance and not {Resolution.KEEP_EXISTING, Resolution.QUEUE} & {r for _, _, r in plan}:
        contested, runs = _contested_message(session, text, utterance, ranked, measure, trust.ceiling)
        found = {c.unit_id for c in conflicts}
        plan += [item for item in contested if item[0].unit_id not in found]
        detectors["detectors"] += [{**run.wire(), "of": "context"} for run in runs]
    for conflict, unit, resolution in plan:
        session.emit(
            EventKind.CONFLICT,
            unit.unit_id,
            type=conflict.type.value,
            resolution=resolution.value,
            source=source,
            detector=conflict.detector,
        )
    result: dict[str, Any] = {"trust": trust_wire(trust), "conflicts": conflict_wire(plan), **detectors}
    resolutions = {resolution for _, _, resolution in plan}
    framing = framing_cues(f"{text}\n{utterance}", reader_version(session.rules))
    if framing:
        result["framing"] = framing
    if Resolution.KEEP_EXISTING in resolutions:
        session.emit(EventKind.REJECTED, None, reason="conflict", source=source)
        return {"outcome": "rejected_conflict", **result}
    if Resolution.QUEUE in resolutions or framing:
        queued = _queue(
            session,
            text=text,
            source=source,
            confidence=confidence,
            trust=trust,
            conflicts=conflicts,
            pending=pending,
        )
        return {**queued, **result}
    zone = Zone.AUTO_PROMOTE if admit_all else trust.zone
    rank = None if zone is Zone.AUTO_PROMOTE else LEARNED_RANK if zone is Zone.REVIEW else _ARCHIVE_RANK
    promoted = promote_unit(
        session, text=text, source=source, confidence=confidence, trust=trust, plan=plan, rank=rank
    )
    if promoted.get("outcome") == "promoted":
        _settle_corroborated(session, queued_copies, promoted)
    return {**result, **promoted}


def _settle_corroborated(session: ContextSession, queued: list[ReviewItem], promoted: dict[str, Any]) -> None:
    """The queued copies of a statement that has now entered are decided by its entry: approved, with
    the unit they became, so that they neither fill the queue nor come back as duplicates."""
    for item in queued:
        _decide(session, item, ReviewStatus.APPROVED, "rules:corroborated", promoted["unit_id"])


def approve_queued(session: ContextSession, item: ReviewItem) -> dict[str, Any]:
    """A canonizer approved a queued proposal: it displaces what it conflicts with (detected again
    against today's units, by value and polarity, and the detectors' findings queued with it), except a
    CANON or pinned unit, which only an explicit archive removes. A claim on a trusted subject that no
    detector confirmed displaces nothing: the approved statement joins the unit."""
    verdicts = queued_verdicts(session, item, skip_slots=("subject", "context"))  # claims: nothing
    conflicts = _conflicts(session, item.text, judged_conflicts(session, verdicts), Readings())
    plan = []
    for conflict in conflicts:
        unit = session.active[conflict.unit_id]
        if unit.protected:
            resolution = Resolution.KEEP_EXISTING
        elif conflict.type is ConflictType.WORLD_PROGRESSION:
            resolution = Resolution.COEXIST
        else:
            resolution = Resolution.REPLACE
        plan.append((conflict, unit, resolution))
        session.emit(EventKind.CONFLICT, unit.unit_id, type=conflict.type.value, resolution=resolution.value)
    return settle_approved(session, item, plan)

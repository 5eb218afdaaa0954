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
- Rules 3 (``arvis.awmu.revision``): a marked update supersedes the fact when its source may revise it,
  a learned fact is defended against another source's claim, every resolution has a reason, and what a
  supersession leaves contested is decided (``arvis.awmu.waiting``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from arvis.awmu.detection import DetectorRun, Readings, detect, paraphrase_of
from arvis.awmu.engine import ContextSession
from arvis.awmu.framing import framing_cues
from arvis.awmu.judging import Ask, apply_judgement
from arvis.awmu.model import (
    AUTHORITY_ORDER,
    Authority,
    EventKind,
    ReviewItem,
    ReviewStatus,
    Unit,
    authority_rank,
)
from arvis.awmu.origin import declared
from arvis.awmu.promotion import (
    Verdict,
    check_text,
    conflict_wire,
    emit_conflicts,
    judged_conflicts,
    promote_unit,
    queued_verdicts,
    refuse_low_confidence,
    review_item,
    settle_approved,
    trust_wire,
    verdict_wire,
)
from arvis.awmu.resolution import Conflict, ConflictType, Resolution, resolve_by_tier
from arvis.awmu.revision import Asker, learned_claims, resolve_revision
from arvis.awmu.ruleset import LEARNED_RANK, MAX_CONTEXT_STATEMENTS, MAX_PENDING_REVIEWS
from arvis.awmu.text import normalize, reader_version
from arvis.awmu.trust import TrustAssessment, Zone, assess_trust
from arvis.awmu.utterance import statements
from arvis.awmu.waiting import decide, settle_superseded

Measure = Callable[[str, Sequence[Unit]], Readings]
"""The semantic detector as the core sees it: text and units in, recorded similarities out."""

_ARCHIVE_RANK = LEARNED_RANK - 100


def _conflicts(
    session: ContextSession,
    text: str,
    judged: dict[str, Conflict],
    readings: Readings,
    ranked: Sequence[Unit] | None = None,
    source: str | None = None,
) -> list[Conflict]:
    """The callers' verdicts (``judged_conflicts``) and the detectors' findings, one per unit, by unit id.
    A caller's "progression" cannot wave a conflict a detector found onto a trusted unit. ``source``
    (rules 3): the proposal's, whose claims on another source's learned facts are conflicts too."""
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
    if source is not None:  # rules 3: a learned fact is defended against another source's claim
        taken = {*detected, *kept}
        found += learned_claims(units, readings, taken, source).values()
    return sorted([*kept.values(), *found], key=lambda conflict: conflict.unit_id)


def _corroborate(session: ContextSession, unit: Unit, source: str, how: str) -> dict[str, Any]:
    """A restatement: the unit hears from one more source (or the same one again)."""
    added = source not in unit.source_ids
    if added:
        unit = session.save(msgspec.structs.replace(unit, source_ids=(*unit.source_ids, source)))
    session.emit(EventKind.DUPLICATE, unit.unit_id, source=source, match=how, corroborated=added)
    return {"outcome": "duplicate", "duplicate_of": unit.unit_id, "match": how, "corroborated": added}


Plan = list[tuple[Conflict, Unit, Resolution]]
Judge = Callable[[Conflict, Unit], tuple[Resolution, str | None]]
"""A conflict's resolution and, under rules 3, its reason."""


def _judge(session: ContextSession, ceiling: Authority, asker: Asker, *, corroborated: bool) -> Judge:
    """The table a proposal's conflicts are resolved by: rules 3's revision table, else rules 2's tiers."""
    config = session.config
    if session.rules >= 3:
        return lambda c, unit: resolve_revision(config, c, unit, ceiling, asker, corroborated=corroborated)
    return lambda c, unit: (resolve_by_tier(config, c, unit, ceiling, corroborated=corroborated), None)


def _contested_message(
    session: ContextSession,
    text: str,
    utterance: str,
    ranked: list[Unit],
    measure: Measure,
    judge: Judge,
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
            verdict, _ = judge(found, unit)
            if verdict not in (Resolution.KEEP_EXISTING, Resolution.QUEUE) or found.unit_id in contested:
                continue
            evidence = {**(found.evidence or {}), "slot": "context", "sentence": index, "by": found.detector}
            contested[found.unit_id] = (
                Conflict(found.unit_id, found.type, found.confidence, "context", evidence),
                unit,
                Resolution.QUEUE,
            )
    return [contested[unit_id] for unit_id in sorted(contested)], runs


def _verdict_wire(conflict: Conflict, reason: str | None = None) -> dict[str, Any]:
    wire = verdict_wire(conflict)
    if conflict.evidence is not None and "slot" in conflict.evidence:
        wire["slot"] = conflict.evidence["slot"]
    if reason is not None:
        wire["reason"] = reason
    return wire


@dataclass(frozen=True)
class _Proposal:
    """A proposal past the gates: what it says, from whom, its trust, and the queue it may join."""

    text: str
    source: str
    confidence: float
    trust: TrustAssessment
    pending: list[ReviewItem]
    copies: list[ReviewItem]  # pending items of the same normal form


def _queue(
    session: ContextSession,
    proposal: _Proposal,
    verdicts: tuple[dict[str, Any], ...],
    reasons: list[str] | None,
) -> dict[str, Any]:
    """Queue a proposal for a decision; the oldest pending item expires when the queue is full.
    ``reasons`` (rules 3) are recorded with its ``queued`` event and returned."""
    expired = []
    overflow = len(proposal.pending) + 1 - MAX_PENDING_REVIEWS
    oldest = sorted(proposal.pending, key=lambda item: (item.created_seq, item.review_id))
    for item in oldest[: max(overflow, 0)]:
        decide(session, item, ReviewStatus.EXPIRED, "rules:queue-bound")
        expired.append(item.review_id)
    trust = proposal.trust
    item = review_item(
        session,
        text=proposal.text,
        source=proposal.source,
        confidence=proposal.confidence,
        trust=trust,
        verdicts=verdicts,
    )
    session.repo.put_review(item)
    why = {} if reasons is None else {"reasons": reasons}
    session.emit(
        EventKind.QUEUED, None, review_id=item.review_id, source=proposal.source, score=trust.score, **why
    )
    return {"outcome": "queued_for_review", "review_id": item.review_id, "expired": expired, **why}


def _inherited(plan: Plan, reasons: list[str | None]) -> Authority:
    """Rules 3: the authority a successor takes: that of the facts it supersedes as their establishing
    source's or an operator's update (never above RELIABLE), else PROVISIONAL."""
    kept = [
        authority_rank(unit.authority)
        for (_, unit, resolution), reason in zip(plan, reasons, strict=True)
        if resolution is Resolution.REPLACE and reason in ("source", "operator")
    ]
    return AUTHORITY_ORDER[min(max(kept, default=0), authority_rank(Authority.RELIABLE))]


def propose_by_content(
    session: ContextSession,
    *,
    text: str,
    source: str,
    confidence: float,
    verdicts: list[Verdict],
    measure: Measure,
    utterance: str = "",
    model_judge: Ask | None = None,
) -> dict[str, Any]:
    """``utterance``: the whole message ``text`` was taken from, when the caller split one; a statement
    whose message contests a trusted unit elsewhere is queued with it (its other sentences are read by
    the same detectors, each semantic run recorded with ``of: context``). ``model_judge``: a model asked about
    the pairs the detectors found (``arvis.awmu.judging``), its run recorded with the detectors."""
    check_text(text)
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
    conflicts = _conflicts(session, text, judged, readings, ranked, source if session.rules >= 3 else None)
    conflicts = _judged(session, text, conflicts, set(judged), model_judge, detectors["detectors"])
    key = normalize(text)
    pending = session.repo.pending_reviews(session.context_id)
    corroborates = session.config.decides_by("corroborated")  # the queue policy may leave it out
    copies = [item for item in pending if corroborates and normalize(item.text) == key]
    speakers = {item.source for item in copies} | {source}
    if session.rules >= 5:  # the Sybil bound: only declared channels corroborate
        copies = copies if declared(session.config, source) else []
        speakers = {speaker for speaker in speakers if declared(session.config, speaker)}
    sources = max(len(speakers), 1)
    trust = assess_trust(
        session.config,
        text=text,
        source=source,
        confidence=confidence,
        active=ranked,
        corroborating_sources=sources,
    )
    if session.rules >= 5 and not declared(session.config, source):  # lifted by nothing it does
        trust = replace(trust, ceiling=Authority.PROVISIONAL)
    asker = Asker(source, session.is_operator())
    judge = _judge(session, trust.ceiling, asker, corroborated=sources >= 2)
    judged_plan = [(c, session.active[c.unit_id], *judge(c, session.active[c.unit_id])) for c in conflicts]
    plan: Plan = [(c, unit, resolution) for c, unit, resolution, _ in judged_plan]
    reasons: list[str | None] = [reason for *_, reason in judged_plan]
    wires = [_verdict_wire(c, reason) for c, reason in zip(conflicts, reasons, strict=True)]
    if utterance and not {Resolution.KEEP_EXISTING, Resolution.QUEUE} & {r for _, _, r in plan}:
        plain = _judge(session, trust.ceiling, asker, corroborated=False)
        contested, runs = _contested_message(session, text, utterance, ranked, measure, plain)
        detectors["detectors"] += [{**run.wire(), "of": "context"} for run in runs]
        wires = _add_contested(session, contested, plan, reasons, wires)
    proposal = _Proposal(text, source, confidence, trust, pending, copies)
    conflict_wires = [  # with their reasons (rules 3; rules 2 wires have none)
        wire if reason is None else {**wire, "reason": reason}
        for wire, reason in zip(conflict_wire(plan), reasons, strict=True)
    ]
    result: dict[str, Any] = {"trust": trust_wire(trust), "conflicts": conflict_wires, **detectors}
    return _settle(session, proposal, plan, reasons, tuple(wires), result, utterance)


def _judged(
    session: ContextSession,
    text: str,
    conflicts: list[Conflict],
    callers: set[str],
    judge: Ask | None,
    runs: list[dict[str, Any]],
) -> list[Conflict]:
    """The conflicts as the judge sees them, when one is bound and the detectors found a pair it may
    judge (a caller's verdict is not asked again); its run is appended to ``runs``."""
    asked = [(c, session.active[c.unit_id]) for c in conflicts if c.unit_id not in callers]
    run = None if judge is None or not asked else judge(text, asked)
    if run is None:
        return conflicts
    runs.append(run.wire())
    return apply_judgement(conflicts, run, session.active)


def _add_contested(
    session: ContextSession,
    contested: Plan,
    plan: Plan,
    reasons: list[str | None],
    verdicts: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Join the units the message contests to ``plan`` (and ``reasons``, in place); the verdicts the
    proposal is queued with: under rules 3 those too, under rules 2 only its own conflicts."""
    found = {conflict.unit_id for conflict, _, _ in plan}
    added = [item for item in contested if item[0].unit_id not in found]
    plan += added
    if session.rules < 3:
        reasons += [None for _ in added]
        return verdicts
    reasons += ["context" for _ in added]
    return sorted(
        [*verdicts, *(_verdict_wire(c, "context") for c, _, _ in added)],
        key=lambda wire: str(wire["unit_id"]),
    )


def _settle(
    session: ContextSession,
    proposal: _Proposal,
    plan: Plan,
    reasons: list[str | None],
    verdicts: tuple[dict[str, Any], ...],
    result: dict[str, Any],
    utterance: str,
) -> dict[str, Any]:
    """Record the conflicts, then reject, queue or admit the proposal as its plan says."""
    source = proposal.source
    emit_conflicts(session, plan, source=source, detector=True)
    resolutions = {resolution for _, _, resolution in plan}
    framing = framing_cues(f"{proposal.text}\n{utterance}", reader_version(session.rules))
    if session.rules >= 3 and session.config.admission == "all":
        framing = []  # rules 3: a naive memory (``admission: all``) admits what it is told, framed or not
    if framing:
        result["framing"] = framing
    if Resolution.KEEP_EXISTING in resolutions:
        session.emit(EventKind.REJECTED, None, reason="conflict", source=source)
        return {"outcome": "rejected_conflict", **result}
    if Resolution.QUEUE in resolutions or framing:
        why = None
        if session.rules >= 3:
            waits = {
                str(r)
                for (_, _, resolution), r in zip(plan, reasons, strict=True)
                if resolution is Resolution.QUEUE
            }
            why = sorted(waits | ({"framing"} if framing else set()))
        return {**_queue(session, proposal, verdicts, why), **result}
    return {**result, **_enter(session, proposal, plan, reasons)}


def _enter(
    session: ContextSession, proposal: _Proposal, plan: Plan, reasons: list[str | None]
) -> dict[str, Any]:
    """The proposal enters whatever its trust zone, at the rank its zone earns, with its replacements
    applied; under rules 3 what it superseded leaves the queue items that contested it decided."""
    zone = Zone.AUTO_PROMOTE if session.config.admission == "all" else proposal.trust.zone
    rank = None if zone is Zone.AUTO_PROMOTE else LEARNED_RANK if zone is Zone.REVIEW else _ARCHIVE_RANK
    authority = _inherited(plan, reasons) if session.rules >= 3 else Authority.PROVISIONAL
    promoted = promote_unit(
        session,
        text=proposal.text,
        source=proposal.source,
        confidence=proposal.confidence,
        trust=proposal.trust,
        plan=plan,
        rank=rank,
        authority=authority,
    )
    if promoted.get("outcome") == "promoted":
        for (_, unit, resolution), reason in zip(plan, reasons, strict=True):
            if resolution is Resolution.COEXIST and reason == "claim":  # rules 3: a learned fact disputed
                session.dispute(unit.unit_id, promoted["unit_id"], reason)
        for item in proposal.copies:
            decide(session, item, ReviewStatus.APPROVED, "rules:corroborated", promoted["unit_id"])
        if session.rules >= 3 and promoted["superseded"]:
            promoted["settled"] = settle_superseded(session, promoted["superseded"], promoted["unit"])
    return promoted


def approve_queued(session: ContextSession, item: ReviewItem) -> dict[str, Any]:
    """A canonizer approved a queued proposal: it displaces what it conflicts with (detected again
    against today's units, by value and polarity, and the detectors' findings queued with it), except a
    CANON or pinned unit, which only an explicit archive removes. A claim on a trusted subject that no
    detector confirmed displaces nothing: the approved statement joins the unit. Under rules 3 the
    queue items that contested what it superseded are decided."""
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
    settled = settle_approved(session, item, plan)
    if session.rules >= 3 and settled.get("outcome") == "promoted" and settled["superseded"]:
        settled["settled"] = settle_superseded(session, settled["superseded"], settled["unit"])
    return settled

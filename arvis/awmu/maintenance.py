"""Turns (reinforcement, decay, demotion, archive), pinning, archiving, canonization, review, reopening
a decided request, and closing a context."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from arvis.awmu.admission import Measure, approve_queued
from arvis.awmu.detection import Readings, mentioned
from arvis.awmu.engine import ContextSession, unit_wire
from arvis.awmu.errors import AwmuErrorCode, AwmuRuleError
from arvis.awmu.invariants import Change
from arvis.awmu.lifecycle import clamp_rank, decayed_rank, demoted_authority, upgraded_authority
from arvis.awmu.model import (
    Authority,
    CanonRequest,
    CanonRequestStatus,
    EventKind,
    ReviewItem,
    ReviewStatus,
    Unit,
    UnitStatus,
)
from arvis.awmu.promotion import promote_reviewed
from arvis.awmu.repository import Closure
from arvis.awmu.ruleset import MAX_PENDING_REVIEWS
from arvis.awmu.waiting import expire, expiry_turn


def _reinforce(session: ContextSession, unit: Unit) -> dict[str, Any]:
    config = session.config
    count = unit.reinforcement_count + 1
    changing = not unit.protected and config.lifecycle_enabled
    rank = unit.rank
    if changing and config.rank_enabled:
        rank = clamp_rank(config, unit.rank + config.reinforcement_boost)
    updated = session.save(
        msgspec.structs.replace(
            unit, reinforcement_count=count, rank=rank, last_reinforced_turn=session.context.turn
        )
    )
    session.emit(EventKind.REINFORCED, unit.unit_id, count=count, before=unit.rank, after=rank)
    if changing and config.promotion_enabled:
        target = upgraded_authority(config, updated.authority, count, updated.authority_ceiling)
        session.set_authority(updated, target, "reinforcement", count=count)
    return {"unit_id": unit.unit_id, "count": count, "rank": rank}


def _band_floor(session: ContextSession, unit: Unit) -> int:
    """Rules 2: the rank decay stops at (the bottom of the unit's authority band), so that decay alone
    never costs a unit its authority."""
    config = session.config
    if unit.authority is Authority.RELIABLE:
        return config.reliable_demote_below
    if unit.authority is Authority.UNRELIABLE:
        return config.unreliable_demote_below
    return config.min_rank


def _decay_within_band(session: ContextSession, unit: Unit) -> dict[str, Any]:
    """Rules 2: the rank falls (and with it the tier, and the place in the eviction order) but not below
    the unit's authority band; nothing is demoted or archived by decay: a unit leaves the block only when
    it is contradicted, superseded, archived on purpose, or evicted because the budget is full."""
    config = session.config
    rank = max(decayed_rank(config, unit.rank), min(unit.rank, _band_floor(session, unit)))
    if rank != unit.rank:
        session.save(msgspec.structs.replace(unit, rank=rank))
        session.emit(EventKind.DECAYED, unit.unit_id, before=unit.rank, after=rank)
    return {"unit_id": unit.unit_id, "before": unit.rank, "after": rank, "archived": False}


def _decay(session: ContextSession, unit: Unit) -> dict[str, Any]:
    config = session.config
    rank = decayed_rank(config, unit.rank)
    current = unit
    if rank != unit.rank:
        current = session.save(msgspec.structs.replace(unit, rank=rank))
        session.emit(EventKind.DECAYED, unit.unit_id, before=unit.rank, after=rank)
    lower = demoted_authority(config, current.authority, rank)
    if lower is not current.authority:
        proposed = msgspec.structs.replace(current, authority=lower)
        if session.guard(current, proposed, Change.DEMOTE, explicit=False):
            current = session.set_authority(current, lower, "rank", rank=rank)
    archived = False
    if rank <= config.archive_floor:
        gone = msgspec.structs.replace(current, status=UnitStatus.ARCHIVED)
        if session.guard(current, gone, Change.ARCHIVE, explicit=False):
            session.leave(current, UnitStatus.ARCHIVED, EventKind.ARCHIVED, reason="decay", rank=rank)
            archived = True
    return {"unit_id": unit.unit_id, "before": unit.rank, "after": rank, "archived": archived}


def turn(
    session: ContextSession, *, reinforce: list[str], text: str = "", measure: Measure | None = None
) -> dict[str, Any]:
    """Advance one turn: the named units are reinforced, every other active unit decays.

    Rules 2: ``text`` (what was said this turn) reinforces the units it talks about without
    contradicting them, by shared key terms or by meaning (``measure``: the semantic detector)."""
    if text and session.rules < 2:
        raise AwmuRuleError(AwmuErrorCode.INVALID_TEXT, "a turn's text needs a context under rules 2")
    chosen = sorted(set(reinforce))
    for unit_id in chosen:
        session.active_unit(unit_id)
    extra: dict[str, Any] = {}
    if session.rules >= 2:
        ranked = session.ranked()
        readings = measure(text, ranked) if text and measure is not None else Readings()
        found = mentioned(session.config, text, ranked, readings, session.rules) if text else {}
        chosen = sorted(set(chosen) | set(found))
        extra = {"mentioned": found, "detectors": readings.wire(session.rules)}
    session.write_back(advance_turn=True)
    reinforced = [_reinforce(session, session.active[unit_id]) for unit_id in chosen]
    decay = _decay_within_band if session.rules >= 2 else _decay
    decayed = []
    if session.config.lifecycle_enabled and session.config.rank_enabled:  # else nothing decays
        for unit in sorted(session.active.values(), key=lambda unit: (unit.created_seq, unit.unit_id)):
            if unit.unit_id not in chosen and not unit.protected:  # pinned and CANON units never decay
                decayed.append(decay(session, unit))
    if expiry_turn(session) is not None:  # the queue policy expires what waits
        extra["expired"] = expire(session)
    session.emit(EventKind.TURN, None, reinforced=len(reinforced), decayed=len(decayed))
    session.write_back()
    return {
        "turn": session.context.turn,
        "reinforced": reinforced,
        "decayed": decayed,
        "active": len(session.active),
        **extra,
    }


def set_pinned(session: ContextSession, *, unit_id: str, pinned: bool) -> dict[str, Any]:
    session.require_operator("pin" if pinned else "unpin")
    unit = session.active_unit(unit_id)
    if unit.pinned != pinned:
        unit = session.save(msgspec.structs.replace(unit, pinned=pinned))
        session.emit(EventKind.PINNED if pinned else EventKind.UNPINNED, unit_id)
    session.write_back()
    return {"unit": unit_wire(unit)}


def archive(session: ContextSession, *, unit_id: str, reason: str) -> dict[str, Any]:
    """An explicit archive; a MUST invariant refuses it."""
    session.require_operator("archive")
    unit = session.active_unit(unit_id)
    gone = session.guarded_leave(
        unit,
        UnitStatus.ARCHIVED,
        Change.ARCHIVE,
        EventKind.ARCHIVED,
        explicit=True,
        reason=reason or "explicit",
        by=session.principal,
    )
    session.write_back()
    return {"unit": unit_wire(gone)}


def restore(
    session: ContextSession,
    *,
    unit_id: str,
    reason: str,
    canonizer: Callable[[], bool | None] | None = None,
) -> dict[str, Any]:
    """An explicit restore: an archived, superseded or evicted unit becomes ACTIVE again, the same unit
    with its text, authority, pinned flag, sources, rank and tier as stored; room is made as for a seed.
    No detector runs: like a seed, it is an operator's act. A CANON unit also needs the canonize right
    (``canonizer``: asked only then, the caller's verdict; None from it, or no ``canonizer``: the
    context's ``canonizers`` patterns decide), because
    CANON comes by approval only. A superseded unit loses its ``superseded_by`` link (named in the event);
    the unit that superseded it is left as it is."""
    session.require_operator("restore")
    unit = session.stored_unit(unit_id)
    if unit.status is UnitStatus.ACTIVE:
        raise AwmuRuleError(AwmuErrorCode.UNIT_ACTIVE, f"unit '{unit_id}' is ACTIVE already")
    verdict = None if unit.authority is not Authority.CANON or canonizer is None else canonizer()
    if unit.authority is Authority.CANON and not (session.can_canonize() if verdict is None else verdict):
        raise AwmuRuleError(
            AwmuErrorCode.NOT_AUTHORIZED,
            f"principal '{session.principal}' may not restore the CANON unit '{unit_id}': "
            "that needs the canonize right in this context",
        )
    evicted = session.make_room()
    restored = session.save(msgspec.structs.replace(unit, status=UnitStatus.ACTIVE, superseded_by=None))
    detail: dict[str, Any] = {"was": unit.status.value, "reason": reason or "explicit"}
    detail["by"] = session.principal
    if unit.superseded_by is not None:
        detail["superseded_by"] = unit.superseded_by
    session.emit(EventKind.RESTORED, unit_id, **detail)
    session.write_back()
    return {"unit": unit_wire(restored), "evicted": evicted}


def canonize(session: ContextSession, *, unit_id: str, reason: str) -> dict[str, Any]:
    """Ask for CANON: a PENDING request, nothing more. Only ``review`` can approve it."""
    unit = session.active_unit(unit_id)
    if unit.authority is Authority.CANON:
        raise AwmuRuleError(AwmuErrorCode.ALREADY_CANON, f"unit '{unit_id}' is already CANON")
    _none_pending(session, unit_id)
    request = CanonRequest(
        request_id=f"c{session.seq}",
        context_id=session.context_id,
        unit_id=unit_id,
        requested_by=session.principal,
        reason=reason,
        authority_at_request=unit.authority,
        unit_updated_seq=unit.updated_seq,
        created_seq=session.seq,
    )
    session.repo.put_canon_request(request)
    session.emit(EventKind.CANON_REQUESTED, unit_id, request_id=request.request_id, by=session.principal)
    session.write_back()
    return {"request": msgspec.to_builtins(request)}


def review(
    session: ContextSession, *, request_id: str, approve: bool, note: str, granted: bool = False
) -> dict[str, Any]:
    """Decide a canonization request (c…) or a queued proposal (r…); only a canonizer may: a principal
    the context's config names, or one the kernel granted ``canonize`` (``granted``)."""
    if not (granted or session.can_canonize()):
        raise AwmuRuleError(
            AwmuErrorCode.NOT_AUTHORIZED, f"principal '{session.principal}' may not review in this context"
        )
    if request_id.startswith("c"):
        result = _review_canon(session, request_id, approve, note)
    elif request_id.startswith("r"):
        result = _review_queued(session, request_id, approve, note)
    else:
        raise AwmuRuleError(AwmuErrorCode.REQUEST_NOT_FOUND, f"no request '{request_id}'")
    session.write_back()
    return result


def _review_canon(session: ContextSession, request_id: str, approve: bool, note: str) -> dict[str, Any]:
    request = _canon_request(session, request_id)
    if request.status is not CanonRequestStatus.PENDING:
        raise _decided("request", request_id, request.status)
    unit = session.active.get(request.unit_id)
    status = CanonRequestStatus.APPROVED if approve else CanonRequestStatus.REJECTED
    if unit is None or unit.authority is not request.authority_at_request:  # stale: whatever the decision
        status = CanonRequestStatus.STALE
    decided = msgspec.structs.replace(
        request, status=status, decided_seq=session.seq, decided_by=session.principal
    )
    session.repo.put_canon_request(decided)
    session.emit(
        EventKind.CANON_DECIDED, request.unit_id, request_id=request_id, status=status.value, note=note
    )
    if status is CanonRequestStatus.APPROVED and unit is not None:
        unit = session.set_authority(
            unit, Authority.CANON, "canonization", request_id=request_id, by=session.principal
        )
    return {"request": msgspec.to_builtins(decided), "unit": None if unit is None else unit_wire(unit)}


def _review_queued(session: ContextSession, review_id: str, approve: bool, note: str) -> dict[str, Any]:
    item = _queued(session, review_id)
    if item.status is not ReviewStatus.PENDING:
        raise _decided("queued proposal", review_id, item.status)
    outcome: dict[str, Any] = {"outcome": "rejected"}
    if approve:
        outcome = approve_queued(session, item) if session.rules >= 2 else promote_reviewed(session, item)
    promoted = outcome.get("outcome") == "promoted"
    decided = msgspec.structs.replace(
        item,
        status=ReviewStatus.APPROVED if promoted else ReviewStatus.REJECTED,
        decided_seq=session.seq,
        decided_by=session.principal,
        unit_id=outcome.get("unit_id"),
    )
    session.repo.put_review(decided)
    session.emit(
        EventKind.REVIEW_DECIDED, decided.unit_id, review_id=review_id, status=decided.status.value, note=note
    )
    return {"review": decided.wire(), **outcome}


def reopen(session: ContextSession, *, request_id: str, note: str, granted: bool = False) -> dict[str, Any]:
    """Set a decided canonization request (c…) or queued proposal (r…) back to PENDING, its decision
    cleared, so that it can be reviewed again; who may is who may review (``review``). What the decision
    did stays: a unit it made CANON or created is left as it is (a rollback archives or restores units
    by their own calls)."""
    if not (granted or session.can_canonize()):
        raise AwmuRuleError(
            AwmuErrorCode.NOT_AUTHORIZED, f"principal '{session.principal}' may not reopen in this context"
        )
    if request_id.startswith("c"):
        result = _reopen_canon(session, request_id, note)
    elif request_id.startswith("r"):
        result = _reopen_queued(session, request_id, note)
    else:
        raise AwmuRuleError(AwmuErrorCode.REQUEST_NOT_FOUND, f"no request '{request_id}'")
    session.write_back()
    return result


def _none_pending(session: ContextSession, unit_id: str) -> None:
    """Refused while a canonization request for the unit is pending."""
    for pending in session.repo.pending_canon_requests(session.context_id):
        if pending.unit_id == unit_id:
            raise AwmuRuleError(
                AwmuErrorCode.REQUEST_PENDING,
                f"request '{pending.request_id}' for this unit is still pending",
            )


def _not_decided(kind: str, request_id: str) -> AwmuRuleError:
    return AwmuRuleError(AwmuErrorCode.REQUEST_NOT_DECIDED, f"{kind} '{request_id}' is PENDING")


def _decided(kind: str, request_id: str, status: CanonRequestStatus | ReviewStatus) -> AwmuRuleError:
    return AwmuRuleError(AwmuErrorCode.REQUEST_DECIDED, f"{kind} '{request_id}' is {status.value}")


def _canon_request(session: ContextSession, request_id: str) -> CanonRequest:
    """The canonization request of this id in the session's context, else refused."""
    request = session.repo.get_canon_request(request_id)
    if request is None or request.context_id != session.context_id:
        raise AwmuRuleError(AwmuErrorCode.REQUEST_NOT_FOUND, f"no canonization request '{request_id}' here")
    return request


def _queued(session: ContextSession, review_id: str) -> ReviewItem:
    """The queued proposal of this id in the session's context, else refused."""
    item = session.repo.get_review(review_id)
    if item is None or item.context_id != session.context_id:
        raise AwmuRuleError(AwmuErrorCode.REQUEST_NOT_FOUND, f"no queued proposal '{review_id}' here")
    return item


def _reopen_canon(session: ContextSession, request_id: str, note: str) -> dict[str, Any]:
    request = _canon_request(session, request_id)
    if request.status is CanonRequestStatus.PENDING:
        raise _not_decided("request", request_id)
    _none_pending(session, request.unit_id)  # one pending request a unit, as ``canonize`` keeps it
    was = _was(request)
    reopened = msgspec.structs.replace(
        request, status=CanonRequestStatus.PENDING, decided_seq=None, decided_by=None
    )
    session.repo.put_canon_request(reopened)
    _reopened(session, request.unit_id, request_id, was, note)
    return {"request": msgspec.to_builtins(reopened), "was": was}


def _reopen_queued(session: ContextSession, review_id: str, note: str) -> dict[str, Any]:
    item = _queued(session, review_id)
    if item.status is ReviewStatus.PENDING:
        raise _not_decided("queued proposal", review_id)
    if session.rules >= 2 and len(session.repo.pending_reviews(session.context_id)) >= MAX_PENDING_REVIEWS:
        raise AwmuRuleError(
            AwmuErrorCode.LIMIT_EXCEEDED,
            f"the review queue holds {MAX_PENDING_REVIEWS} pending proposals, the most it may",
        )
    was = {**_was(item), "unit_id": item.unit_id}
    reopened = msgspec.structs.replace(
        item,
        status=ReviewStatus.PENDING,
        decided_seq=None,
        decided_by=None,
        unit_id=None,
        expires_at_turn=expiry_turn(session),
    )
    session.repo.put_review(reopened)
    _reopened(session, item.unit_id, review_id, was, note)
    return {"review": reopened.wire(), "was": was}


def _was(found: CanonRequest | ReviewItem) -> dict[str, Any]:
    """The decision a reopen clears: its status, when and by whom."""
    return {"status": found.status.value, "decided_seq": found.decided_seq, "decided_by": found.decided_by}


def _reopened(
    session: ContextSession, unit_id: str | None, request_id: str, was: dict[str, Any], note: str
) -> None:
    """The ``reopened`` event: the decision it cleared (``was`` its status), the note, the principal."""
    session.emit(
        EventKind.REOPENED,
        unit_id,
        request_id=request_id,
        was=was["status"],
        decided_seq=was["decided_seq"],
        decided_by=was["decided_by"],
        note=note,
        by=session.principal,
    )


def close_context(session: ContextSession, *, reason: str) -> dict[str, Any]:
    """Close the context for good: it records the closure (seq, reason, principal), and every later call
    on it but the audits' reads is refused ``awmu_context_closed``. Its units keep their status."""
    session.require_operator("close")
    closure = Closure(seq=session.seq, reason=reason or "explicit", by=session.principal)
    session.context = msgspec.structs.replace(session.context, closed=closure)
    session.emit(EventKind.CLOSED, None, reason=closure.reason, by=closure.by)
    session.write_back()
    return {
        "context_id": session.context_id,
        "closed": msgspec.to_builtins(closure),
        "active": len(session.active),
    }

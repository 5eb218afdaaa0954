"""The decided queue: how queued statements are decided by the rules, and how what waits is shown.

A queued statement (``r<seq>``) is decided by one of these, each recorded (``decided_by``) with a
``review_decided`` event:

- ``rules:queue-bound``: the queue was full and it was the oldest (rules 2);
- ``rules:corroborated``: the same statement entered, on an independent source's word (rules 2);
- ``rules:superseded`` (rules 3): a fact it contests was superseded by another statement (its
  establishing source's own update, an operator's, a trusted channel's, a corroborated one, or an
  operator's approval of another queued statement): what it contested is gone, so it is rejected;
- ``rules:expired``: the context's queue policy (``AwmuConfig.queue``) sets ``expire_after_turns`` and
  that many turns passed since it was queued (it is dropped at that ``memory.awmu.turn``);
- a canonizer's ``memory.awmu.review``.

The policy's ``decide_by`` names which of ``corroborated`` and ``superseded`` may decide; nothing else
does: no label is ever read. What waits, and why, is listed by
``memory.awmu.list`` (``waiting``) and marked on the facts it contests in the assembled block (rules 3),
as are the learned facts another source disputes by a claim that stands beside them.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arvis.awmu.engine import ContextSession
from arvis.awmu.model import EventKind, ReviewItem, ReviewStatus
from arvis.awmu.repository import AwmuRepository, EventQuery
from arvis.awmu.text import normalize

_PAGE = 1000


def decide(
    session: ContextSession, item: ReviewItem, status: ReviewStatus, by: str, unit_id: str | None = None
) -> None:
    """A queued item decided by the rules themselves (``by``), recorded with its event."""
    decided = msgspec.structs.replace(item, status=status, decided_seq=session.seq, decided_by=by)
    if unit_id is not None:
        decided = msgspec.structs.replace(decided, unit_id=unit_id)
    session.repo.put_review(decided)
    session.emit(EventKind.REVIEW_DECIDED, unit_id, review_id=item.review_id, status=status.value)


def expiry_turn(session: ContextSession) -> int | None:
    """The turn an item queued (or reopened) now is dropped at under the queue policy; None: never."""
    queue = session.config.queue
    if queue is None or queue.expire_after_turns is None:
        return None
    return session.context.turn + queue.expire_after_turns


def expire(session: ContextSession) -> list[str]:
    """The pending items whose waiting time ran out by this turn, dropped (``rules:expired``); their ids."""
    expired = []
    for item in session.repo.pending_reviews(session.context_id):
        if item.expires_at_turn is not None and item.expires_at_turn <= session.context.turn:
            decide(session, item, ReviewStatus.EXPIRED, "rules:expired")
            expired.append(item.review_id)
    return expired


def _contests(item: ReviewItem) -> list[str]:
    """The units a queued item contests (its verdicts' unit ids), sorted, each once."""
    return sorted({str(verdict["unit_id"]) for verdict in item.verdicts if verdict.get("unit_id")})


def settle_superseded(session: ContextSession, superseded: list[str], successor: dict[str, Any]) -> list[str]:
    """Rules 3: the pending items that contest a unit just superseded by ``successor`` (a unit wire) are
    rejected, ``rules:superseded``, unless they state the successor (those the entry corroborates are
    approved by it), if the queue policy lets supersession decide; the ids decided."""
    if not session.config.decides_by("superseded"):
        return []
    gone = set(superseded)
    key = normalize(str(successor["text"]))
    decided = []
    for item in session.repo.pending_reviews(session.context_id):
        if normalize(item.text) == key or not gone & set(_contests(item)):
            continue
        decide(session, item, ReviewStatus.REJECTED, "rules:superseded")
        decided.append(item.review_id)
    return decided


def _recorded_reasons(repo: AwmuRepository, items: list[ReviewItem]) -> dict[str, list[str]]:
    """Review id → the reasons its ``queued`` event recorded (rules 3), read in pages from the oldest
    item's seq on."""
    if not items:
        return {}
    wanted = {item.review_id for item in items}
    found: dict[str, list[str]] = {}
    after_seq, after_index = min(item.created_seq for item in items) - 1, None
    while True:
        query = EventQuery(
            context_id=items[0].context_id,
            after_seq=after_seq,
            after_index=after_index,
            kinds=("queued",),
            limit=_PAGE,
        )
        page = repo.events(query)
        for event in page:
            review_id = event.detail.get("review_id")
            if review_id in wanted and "reasons" in event.detail:
                found[str(review_id)] = [str(reason) for reason in event.detail["reasons"]]
        if len(page) < _PAGE:
            return found
        after_seq, after_index = page[-1].seq, page[-1].index


def waiting(repo: AwmuRepository, context_id: str) -> list[dict[str, Any]]:
    """What waits for a decision, and why: each pending item's id, source, text, the units it contests,
    its reasons (those its ``queued`` event recorded, else its verdicts') and, under a queue policy that
    expires items, the turn it expires at; oldest first."""
    items = repo.pending_reviews(context_id)
    recorded = _recorded_reasons(repo, items)
    return [
        {
            "review_id": item.review_id,
            "source": item.source,
            "text": item.text,
            "contests": _contests(item),
            "reasons": recorded.get(item.review_id)
            or sorted({str(verdict["reason"]) for verdict in item.verdicts if "reason" in verdict}),
            **({} if item.expires_at_turn is None else {"expires_at_turn": item.expires_at_turn}),
        }
        for item in items
    ]


def contested_marks(
    items: list[dict[str, Any]], disputes: list[tuple[str, str, str]]
) -> dict[str, list[str]]:
    """Unit id → the notes its line in the block carries: each pending item (``waiting`` entries) that
    contests it, and each unit that disputes it or that it disputes (``ContextSession.disputes``)."""
    marks: dict[str, list[str]] = {}
    for item in items:
        for unit_id in item["contests"]:
            note = f"waiting for a decision: {item['review_id']} ({', '.join(item['reasons'])})"
            if "expires_at_turn" in item:
                note += f", dropped at turn {item['expires_at_turn']} unless decided"
            marks.setdefault(unit_id, []).append(note)
    for unit_id, by, reason in disputes:
        marks.setdefault(unit_id, []).append(f"disputed by {by} ({reason})")
        marks.setdefault(by, []).append(f"disputes {unit_id} ({reason})")
    return marks

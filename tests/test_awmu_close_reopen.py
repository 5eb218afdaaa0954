"""``memory.awmu.close`` (a context closed for good) and ``memory.awmu.reopen_request`` (a decided request
back to PENDING), ``working-memory.md`` §3.3, §8.1.

Format 2 journals (the default) through the fixture ``k``: the operator creates (and owns) the contexts;
format 1 through ``first``. Every refusal is journaled at the next seq with empty effects and leaves the
state digest as it was; every journal must pass verification replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest
from strategies import journal_entries

from arvis.access import AccessRules
from journal.content_digest import closed_contexts, content_digest
from journal.engine import open_engine
from journal.entry import EMPTY_EFFECTS_HASH
from journal.reader import JournalReader
from journal.state import state_digest
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.errors import ERROR_MESSAGES, ErrorCode
from kernel.identity import VouchedPrincipals
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

OPERATOR = "operator:alice"
OPS = "agent:ops"
"""An operator by the context's ``operators`` pattern."""
CTX = "campaign"
DENIED = "memory_policy_denied"
CLOSED = "awmu_context_closed"
OWNER = "user:b"


def _clock() -> ManualClock:
    return ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1))


def _verified(kernel: Kernel) -> None:
    report = verify_journal(JournalReader(kernel.store.engine), table=SYSCALL_TABLE)
    assert report.verified, report.to_json()
    assert report.replayed and report.state_digest == _digest(kernel)


def _digest(kernel: Kernel) -> str:
    with kernel.store.engine.connect() as connection:
        return state_digest(connection)


@pytest.fixture
def k(tmp_path: Path) -> Iterator[Kernel]:
    """A format 3 journal: owned contexts with one scope namespace, the rules these tests pin (format 4's
    typed scopes: tests/test_typed_scopes.py)."""
    clock = _clock()
    store = SqlJournalStore(open_engine(str(tmp_path / "owned.db")), clock=clock, format_version=3)
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    assert kernel.access_rules == AccessRules.OWNED
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


@pytest.fixture
def first(tmp_path: Path) -> Iterator[Kernel]:
    clock = _clock()
    store = SqlJournalStore(open_engine(str(tmp_path / "first.db")), clock=clock, format_version=1)
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    assert kernel.access_rules == AccessRules.FIRST
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


def grant(k: Kernel, principal: str, capability: str, scope: str = CTX) -> None:
    args = {"principal": principal, "capability": capability, "scope": scope}
    assert k.call("access.grant", args, principal=OPERATOR).ok


def ok(k: Kernel, name: str, args: dict[str, Any], principal: str = OPERATOR) -> dict[str, Any]:
    result = k.call(f"memory.awmu.{name}", args, principal=principal)
    assert result.ok, result.to_dict()
    return msgspec.json.decode(msgspec.json.encode(result.value))


def refused(
    k: Kernel,
    name: str,
    args: dict[str, Any],
    code: str,
    principal: str = OPERATOR,
    detail: str | None = None,
) -> None:
    """Refused with ``code`` (and ``detail``), journaled at the next seq with empty effects, the state
    digest unchanged."""
    before, count = _digest(k), len(journal_entries(k))
    result = k.call(f"memory.awmu.{name}", args, principal=principal)
    assert result.error is not None, (name, result.to_dict())
    assert result.error.code == code, (name, result.to_dict())
    assert result.error.message == ERROR_MESSAGES[ErrorCode(code)]
    if detail is not None:
        assert result.error.detail == detail, (name, result.error.detail)
    entries = journal_entries(k)
    assert result.seq == count + 1 == len(entries)
    assert (entries[-1].principal, entries[-1].status) == (principal, code)
    assert entries[-1].effects_hash == EMPTY_EFFECTS_HASH
    assert _digest(k) == before


def create(k: Kernel, context_id: str = CTX, principal: str = OPERATOR, **config: Any) -> None:
    ok(k, "create", {"context_id": context_id, "config": config, "rules": 1}, principal)


def seed(k: Kernel, text: str, context_id: str = CTX, **extra: Any) -> str:
    value = ok(k, "seed", {"context_id": context_id, "text": text, **extra})
    assert value["outcome"] == "seeded", value
    return str(value["unit_id"])


def queue(k: Kernel, text: str = "The dragon sleeps.", context_id: str = CTX) -> str:
    """A proposal in the REVIEW zone (rules 1: a dm's word next to an unrelated unit): its review id."""
    args = {"context_id": context_id, "text": text, "source": "dm", "confidence": 0.9}
    value = ok(k, "propose", args)
    assert value["outcome"] == "queued_for_review", value
    return str(value["review_id"])


def request(k: Kernel, unit_id: str, context_id: str = CTX) -> str:
    value = ok(k, "canonize", {"context_id": context_id, "unit_id": unit_id})
    return str(value["request"]["request_id"])


def review(
    k: Kernel, request_id: str, decision: str = "approve", principal: str = OPERATOR
) -> dict[str, Any]:
    return ok(k, "review", {"request_id": request_id, "decision": decision}, principal)


def unit(k: Kernel, unit_id: str, context_id: str = CTX) -> dict[str, Any]:
    return ok(k, "get", {"context_id": context_id, "unit_id": unit_id})["unit"]


def events(k: Kernel, kind: str, context_id: str = CTX) -> list[dict[str, Any]]:
    found = ok(k, "events", {"context_id": context_id, "kinds": [kind]})["events"]
    return [{"seq": e["seq"], "unit_id": e["unit_id"], **e["detail"]} for e in found]


def _content(k: Kernel) -> str:
    with k.store.engine.connect() as connection:
        return content_digest(connection)


# --- close: what it does ---------------------------------------------------------------------------------


def _campaign(k: Kernel) -> tuple[str, str, str, str]:
    """A context with two units, a queued proposal and a pending canonization request."""
    create(k)
    storm = seed(k, "A storm gathers over the sea.")  # 1, 2
    king = seed(k, "The king is dead.", pinned=True)  # 3
    queued = queue(k)  # 4
    return storm, king, queued, request(k, king)  # 5


def test_a_closed_context_records_its_closure_and_keeps_its_units(k: Kernel) -> None:
    storm, king, queued, canon = _campaign(k)
    value = ok(k, "close", {"context_id": CTX, "reason": "campaign over"})
    closure = {"seq": 6, "reason": "campaign over", "by": OPERATOR}
    assert value == {"context_id": CTX, "closed": closure, "active": 2}
    listed = ok(k, "list", {"context_id": CTX})
    assert listed["closed"] == closure
    assert {u["unit_id"]: u["status"] for u in listed["units"]} == {storm: "ACTIVE", king: "ACTIVE"}
    assert [item["review_id"] for item in listed["review_queue"]] == [queued]
    assert [item["request_id"] for item in listed["canon_requests"]] == [canon]
    assert events(k, "closed") == [{"seq": 6, "unit_id": None, "reason": "campaign over", "by": OPERATOR}]
    assert unit(k, king)["pinned"] is True
    assert ok(k, "pressure", {"context_id": CTX})["active"] == 2
    with k.store.engine.connect() as connection:
        assert closed_contexts(connection) == {CTX}


def test_an_open_context_lists_no_closure_and_the_reason_defaults_to_explicit(k: Kernel) -> None:
    create(k)
    assert "closed" not in ok(k, "list", {"context_id": CTX})
    ok(k, "close", {"context_id": CTX})
    assert events(k, "closed")[0]["reason"] == "explicit"


def test_every_call_that_writes_is_refused_once_closed_reads_are_not(k: Kernel) -> None:
    storm, king, queued, canon = _campaign(k)
    ok(k, "archive", {"context_id": CTX, "unit_id": storm})  # 6
    ok(k, "close", {"context_id": CTX})  # 7
    detail = f"context '{CTX}' was closed at seq 7"
    calls: list[tuple[str, dict[str, Any]]] = [
        ("propose", {"context_id": CTX, "text": "The queen rules.", "source": "dm", "confidence": 0.9}),
        ("seed", {"context_id": CTX, "text": "The queen rules."}),
        ("turn", {"context_id": CTX, "reinforce": [king]}),
        ("pin", {"context_id": CTX, "unit_id": king}),
        ("unpin", {"context_id": CTX, "unit_id": king}),
        ("archive", {"context_id": CTX, "unit_id": king}),
        ("restore", {"context_id": CTX, "unit_id": storm}),
        ("canonize", {"context_id": CTX, "unit_id": king}),
        ("validate_summary", {"context_id": CTX, "summary": "The king is dead."}),
        ("assemble", {"context_id": CTX}),  # the block a model is given: nothing is in force
        ("close", {"context_id": CTX}),  # closing twice
        ("review", {"request_id": canon, "decision": "approve"}),
        ("review", {"request_id": queued, "decision": "reject"}),
        ("reopen_request", {"request_id": canon}),
    ]
    for name, args in calls:
        refused(k, name, args, CLOSED, detail=detail)
    refused(k, "create", {"context_id": CTX, "rules": 1}, "awmu_context_exists")
    for name, args in (
        ("list", {"context_id": CTX, "status": "all"}),
        ("get", {"context_id": CTX, "unit_id": storm}),
        ("events", {"context_id": CTX}),
        ("pressure", {"context_id": CTX}),
    ):
        ok(k, name, args)


def test_a_closed_context_and_what_it_holds_leave_the_content_digest(k: Kernel) -> None:
    empty = _content(k)
    _campaign(k)
    create(k, "other")
    seed(k, "The sea is calm.", "other")
    with_other = _content(k)
    assert with_other != empty
    ok(k, "close", {"context_id": CTX})
    closed = _content(k)
    ok(k, "close", {"context_id": "other"})
    assert _content(k) == empty != closed  # units, queue, requests and the records themselves are gone


def test_an_unknown_context_is_refused(k: Kernel) -> None:
    refused(k, "close", {"context_id": "nowhere"}, "awmu_context_not_found")
    refused(k, "close", {"context_id": "nowhere"}, DENIED, "agent:nobody")  # access first (format 2)


# --- close: access ------------------------------------------------------------------------------------


def test_format_2_the_owner_an_administrator_or_an_admin_grant_closes(k: Kernel) -> None:
    for name in ("one", "two", "three", "four"):
        create(k, f"{OWNER}/{name}", OWNER, operators=["agent:*"])
    ok(k, "close", {"context_id": f"{OWNER}/one"}, OWNER)
    ok(k, "close", {"context_id": f"{OWNER}/two"}, "admin:root")
    grant(k, "agent:a", "admin", f"{OWNER}/three")
    ok(k, "close", {"context_id": f"{OWNER}/three"}, "agent:a")
    grant(k, "agent:everywhere", "admin", "*")
    ok(k, "close", {"context_id": f"{OWNER}/four"}, "agent:everywhere")
    assert events(k, "closed", f"{OWNER}/three")[0]["by"] == "agent:a"


def test_format_2_an_operators_pattern_or_a_write_grant_does_not_close(k: Kernel) -> None:
    notes = f"{OWNER}/notes"
    create(k, notes, OWNER, operators=["agent:*"])
    grant(k, "agent:w", "write", notes)
    grant(k, "agent:c", "canonize", notes)
    assert ok(k, "seed", {"context_id": notes, "text": "The vault is locked."}, OPS)  # the pattern operates
    for principal in (OPS, "agent:w", "agent:c", "user:c"):
        refused(
            k,
            "close",
            {"context_id": notes},
            DENIED,
            principal,
            f"principal '{principal}' may not close context '{notes}'",
        )


def test_format_1_the_operators_patterns_close(first: Kernel) -> None:
    create(first, operators=["operator:*", OPS])
    refused(
        first,
        "close",
        {"context_id": CTX},
        DENIED,
        "agent:nobody",
        "principal 'agent:nobody' may not close in this context",
    )
    ok(first, "close", {"context_id": CTX}, OPS)
    refused(first, "seed", {"context_id": CTX, "text": "x"}, CLOSED, OPS)


# --- reopen: what it does --------------------------------------------------------------------------------


def test_an_approved_canonization_is_reopened_and_its_unit_stays_canon(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.")  # 2
    canon = request(k, king)  # 3
    review(k, canon)  # 4: CANON
    value = ok(k, "reopen_request", {"request_id": canon, "note": "approved by mistake"})
    assert value["was"] == {"status": "APPROVED", "decided_seq": 4, "decided_by": OPERATOR}
    reopened = value["request"]
    assert (reopened["status"], reopened["decided_seq"], reopened["decided_by"]) == ("PENDING", None, None)
    assert (reopened["request_id"], reopened["unit_id"], reopened["created_seq"]) == (canon, king, 3)
    assert unit(k, king)["authority"] == "CANON"  # what the decision did stays
    assert [r["request_id"] for r in ok(k, "list", {"context_id": CTX})["canon_requests"]] == [canon]
    assert events(k, "reopened") == [
        {
            "seq": 5,
            "unit_id": king,
            "request_id": canon,
            "was": "APPROVED",
            "decided_seq": 4,
            "decided_by": OPERATOR,
            "note": "approved by mistake",
            "by": OPERATOR,
        }
    ]
    again = review(k, canon, "reject")  # reviewable again: the unit's authority moved, so STALE
    assert again["request"]["status"] == "STALE" and again["request"]["decided_by"] == OPERATOR


def test_a_rejected_canonization_reopened_can_be_approved(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.")
    canon = request(k, king)
    review(k, canon, "reject")
    ok(k, "reopen_request", {"request_id": canon})
    assert review(k, canon)["request"]["status"] == "APPROVED"
    assert unit(k, king)["authority"] == "CANON"


def test_a_rejected_queued_proposal_reopened_can_be_approved(k: Kernel) -> None:
    create(k)
    seed(k, "A storm gathers over the sea.")
    queued = queue(k)  # 3
    review(k, queued, "reject")  # 4
    value = ok(k, "reopen_request", {"request_id": queued})
    assert value["was"] == {"status": "REJECTED", "decided_seq": 4, "decided_by": OPERATOR, "unit_id": None}
    assert value["review"]["status"] == "PENDING" and value["review"]["decided_seq"] is None
    assert [r["review_id"] for r in ok(k, "list", {"context_id": CTX})["review_queue"]] == [queued]
    approved = review(k, queued)
    assert approved["outcome"] == "promoted" and approved["review"]["status"] == "APPROVED"


def test_an_approved_queued_proposal_reopened_keeps_its_unit(k: Kernel) -> None:
    create(k)
    seed(k, "A storm gathers over the sea.")
    queued = queue(k)
    made = review(k, queued)["unit_id"]
    value = ok(k, "reopen_request", {"request_id": queued})
    assert value["was"]["unit_id"] == made and value["review"]["unit_id"] is None
    assert unit(k, made)["status"] == "ACTIVE"
    assert events(k, "reopened")[0]["unit_id"] == made
    again = review(k, queued)  # the unit is there: a duplicate, so REJECTED
    assert again["outcome"] == "duplicate" and again["review"]["status"] == "REJECTED"


def test_an_expired_proposal_is_reopened_while_the_bounded_queue_has_room(k: Kernel) -> None:
    """Rules 2: the queue holds at most 50 pending proposals; a reopen that would exceed it is refused."""
    ok(k, "create", {"context_id": CTX})
    seed(k, "Staff salaries are paid from the operating account ending 4471")
    say = {"context_id": CTX, "source": "player", "confidence": 0.8}
    first_id = ok(
        k, "propose", {**say, "text": "Staff salaries are paid from the operating account ending 1000"}
    )["review_id"]
    for ending in range(1001, 1051):
        last = ok(
            k,
            "propose",
            {**say, "text": f"Staff salaries are paid from the operating account ending {ending}"},
        )
    assert last["expired"] == [first_id]
    refused(
        k,
        "reopen_request",
        {"request_id": first_id},
        "memory_limit_exceeded",
        detail="the review queue holds 50 pending proposals, the most it may",
    )
    review(k, last["review_id"], "reject")
    value = ok(k, "reopen_request", {"request_id": first_id})
    assert value["was"]["status"] == "EXPIRED" and value["was"]["decided_by"] == "rules:queue-bound"
    assert len(ok(k, "list", {"context_id": CTX})["review_queue"]) == 50


# --- reopen: refusals ---------------------------------------------------------------------------------


def test_unknown_and_pending_requests_are_refused(k: Kernel) -> None:
    create(k)
    seed(k, "A storm gathers over the sea.")
    king = seed(k, "The king is dead.")
    queued = queue(k)
    canon = request(k, king)
    for unknown in ("c99", "r99", "x1"):
        refused(
            k,
            "reopen_request",
            {"request_id": unknown},
            "awmu_request_not_found",
            detail=f"no request '{unknown}'",
        )
    refused(
        k,
        "reopen_request",
        {"request_id": canon},
        "awmu_request_not_decided",
        detail=f"request '{canon}' is PENDING",
    )
    refused(
        k,
        "reopen_request",
        {"request_id": queued},
        "awmu_request_not_decided",
        detail=f"queued proposal '{queued}' is PENDING",
    )


def test_a_request_is_not_reopened_beside_a_pending_one_for_its_unit(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.")
    old = request(k, king)
    review(k, old, "reject")
    newer = request(k, king)
    refused(
        k,
        "reopen_request",
        {"request_id": old},
        "awmu_request_pending",
        detail=f"request '{newer}' for this unit is still pending",
    )
    review(k, newer, "reject")
    assert ok(k, "reopen_request", {"request_id": old})["request"]["status"] == "PENDING"


# --- reopen: access -----------------------------------------------------------------------------------


def test_format_2_reopen_needs_the_right_review_needs(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.")
    canon = request(k, king)
    review(k, canon, "reject")
    grant(k, "agent:w", "write")
    for principal in ("agent:w", "agent:nobody"):
        refused(
            k,
            "reopen_request",
            {"request_id": canon},
            DENIED,
            principal,
            f"principal '{principal}' may not canonize context '{CTX}'",
        )
    grant(k, "agent:w", "canonize")
    assert ok(k, "reopen_request", {"request_id": canon}, "agent:w")["request"]["status"] == "PENDING"


def test_format_2_a_canonizers_pattern_reopens_where_the_owner_may_canonize(k: Kernel) -> None:
    notes = f"{OWNER}/notes"
    create(k, notes, OWNER, canonizers=["agent:*"])
    king = seed(k, "The king is dead.", notes)
    canon = request(k, king, notes)
    grant(k, "agent:c", "canonize", notes)
    review(k, canon, "reject", "agent:c")
    refused(k, "reopen_request", {"request_id": canon}, DENIED, "agent:rev")  # the owner may not canonize
    grant(k, OWNER, "canonize", notes)  # now it may: its pattern counts
    assert ok(k, "reopen_request", {"request_id": canon}, "agent:rev")["was"]["decided_by"] == "agent:c"


def test_format_1_reopen_follows_the_canonizers_or_a_canonize_grant(first: Kernel) -> None:
    create(first, canonizers=["operator:*"])
    king = seed(first, "The king is dead.")
    canon = request(first, king)
    review(first, canon, "reject")
    refused(
        first,
        "reopen_request",
        {"request_id": canon},
        DENIED,
        "agent:nobody",
        "principal 'agent:nobody' may not reopen in this context",
    )
    assert (
        ok(first, "reopen_request", {"request_id": canon}, "operator:bob")["request"]["status"] == "PENDING"
    )
    review(first, canon, "reject")
    grant(first, "agent:c", "canonize")
    assert ok(first, "reopen_request", {"request_id": canon}, "agent:c")["request"]["status"] == "PENDING"

"""The queue policy a context declares (issue 53, point 1), through ``Kernel.call``: which rules decide
what waits, and how long it may wait before it is dropped with its reason.

Sentences are the tests' own (a library's loans, a shipping desk, lab equipment, from
``test_awmu_rules3``); every kernel is verified by a replay at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_awmu_rules3 import (
    CTX,
    LOANS,
    LOANS_NOW,
    OPERATOR,
    SAILING,
    SAILING_MOVED,
    _open,
    _verified,
    call,
    say,
    seed,
)

from kernel.dispatcher import Kernel

EXPIRY = {"queue": {"expire_after_turns": 2}}


@pytest.fixture
def k() -> Iterator[Kernel]:
    kernel = _open()
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


def _decided(k: Kernel, review_id: str) -> list[dict[str, Any]]:
    found = call(k, "events", {"kinds": ["review_decided"], "limit": 1000})["events"]
    return [event["detail"] for event in found if event["detail"]["review_id"] == review_id]


@pytest.mark.parametrize(
    ("queue", "rules", "detail"),
    [
        ({"decide_by": ["majority"]}, 5, "$.config.queue.decide_by[0]"),
        ({"expire_after_turns": -3}, 5, "$.config.queue.expire_after_turns"),
        ({"expire_after_turns": 0}, 5, "$.config.queue.expire_after_turns"),
        ({"expire_after": 4}, 5, "expire_after"),
        ({"expire_after_turns": 4}, 2, "a queue policy needs rules 3 or later, not 2"),
    ],
)
def test_a_policy_naming_an_unknown_rule_or_a_bad_expiry_is_refused_and_creates_nothing(
    k: Kernel, queue: dict[str, Any], rules: int, detail: str
) -> None:
    args = {"context_id": CTX, "rules": rules, "config": {"queue": queue}}
    refused = k.call("memory.awmu.create", args, principal=OPERATOR)
    assert refused.error is not None and refused.error.code in ("invalid_args", "awmu_invalid_config")
    assert detail in refused.error.detail
    assert refused.seq is not None  # journaled
    missing = k.call("memory.awmu.list", {"context_id": CTX}, principal=OPERATOR)
    assert missing.error is not None and missing.error.code == "awmu_context_not_found"


def test_a_waiting_item_is_dropped_when_its_time_runs_out_and_says_so_while_it_waits(k: Kernel) -> None:
    created = call(k, "create", {"config": EXPIRY})
    assert created["config"]["queue"] == {
        "decide_by": ["corroborated", "superseded"],
        "expire_after_turns": 2,
    }
    fact = seed(k, SAILING)
    queued = say(k, SAILING_MOVED)
    assert queued["outcome"] == "queued_for_review"
    (waiting,) = call(k, "list", {})["waiting"]
    assert waiting["expires_at_turn"] == 2
    block = call(k, "assemble", {})
    assert block["waiting"][0]["expires_at_turn"] == 2
    note = f"waiting for a decision: {queued['review_id']} (not_a_reviser), dropped at turn 2 unless decided"
    assert note in block["text"]
    assert call(k, "turn", {})["expired"] == []
    assert call(k, "turn", {})["expired"] == [queued["review_id"]]
    assert call(k, "list", {})["waiting"] == []
    assert _decided(k, queued["review_id"]) == [{"review_id": queued["review_id"], "status": "EXPIRED"}]
    assert call(k, "get", {"unit_id": fact})["unit"]["status"] == "ACTIVE"  # what it contested stands
    reopened = k.call("memory.awmu.reopen_request", {"request_id": queued["review_id"]}, principal=OPERATOR)
    assert reopened.ok, reopened.to_dict()
    assert reopened.value["review"]["expires_at_turn"] == 4  # a reopened item waits its time again
    assert reopened.value["was"]["decided_by"] == "rules:expired"


def test_a_policy_without_corroboration_leaves_an_independent_copy_waiting(k: Kernel) -> None:
    call(k, "create", {"config": {"queue": {"decide_by": ["superseded"]}}})
    fact = say(k, LOANS, source="tool:catalogue")["unit_id"]
    first = say(k, LOANS_NOW, source="user:dana")
    second = say(k, LOANS_NOW, source="user:eli")
    assert first["outcome"] == second["outcome"] == "queued_for_review"
    assert [item["source"] for item in call(k, "list", {})["waiting"]] == ["user:dana", "user:eli"]
    assert call(k, "get", {"unit_id": fact})["unit"]["status"] == "ACTIVE"
    assert call(k, "turn", {}).get("expired") is None  # no expiry declared: nothing is ever dropped


def test_a_policy_without_supersession_keeps_waiting_what_an_update_made_moot(k: Kernel) -> None:
    call(k, "create", {"config": {"queue": {"decide_by": ["corroborated"]}}})
    fact = seed(k, SAILING)
    queued = say(k, SAILING_MOVED)
    revised = say(k, "Container MSKU 4412 has been moved to the sailing on 26 March", source="operator")
    assert revised["superseded"] == [fact] and revised["settled"] == []
    assert [item["review_id"] for item in call(k, "list", {})["waiting"]] == [queued["review_id"]]


def test_a_context_without_a_policy_keeps_the_earlier_forms(k: Kernel) -> None:
    created = call(k, "create", {})
    assert "queue" not in created["config"]
    seed(k, SAILING)
    queued = say(k, SAILING_MOVED)
    (item,) = call(k, "list", {})["review_queue"]
    assert item["review_id"] == queued["review_id"] and "expires_at_turn" not in item
    assert "expired" not in call(k, "turn", {})
    assert "expires_at_turn" not in call(k, "list", {})["waiting"][0]

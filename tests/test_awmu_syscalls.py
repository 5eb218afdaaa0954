"""The working memory through ``Kernel.call``: every ``memory.awmu.*`` syscall and every awmu_* refusal.

Rules 1 (the first release's rules, which every context created by its journals keeps): each context
here is created with ``"rules": 1``. The journals are in format 2 (``access-and-pipelines.md`` §1.7):
contexts are created by the operator, who owns them, and an administrator has granted the agent read and
write on every context (seqs 1 and 2), so that the agent proposes, turns, canonizes and reads as it did
in the first release; operating stays with the operators and reviewing with the canonizers.

Every refusal is checked the same way: the result carries the code, it is journaled (it has a seq), and
the context's units, queues and events are exactly what they were before the call. Every test's
journal must pass verification replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from strategies import VOUCHED

from journal.reader import JournalReader
from journal.store import ManualClock
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:dm"
OPERATOR = "operator:alice"
CTX = "campaign"
NO_TRUST = {"trust_enabled": False}


@pytest.fixture
def k() -> Iterator[Kernel]:
    kernel = open_kernel(
        ":memory:",
        clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1)),
        identity=VOUCHED,
        create=True,
    )
    try:
        for capability in ("read", "write"):
            granted = kernel.call(
                "access.grant",
                {"principal": AGENT, "capability": capability, "scope": "*"},
                principal=OPERATOR,
            )
            assert granted.ok, granted.to_dict()
        yield kernel
        report = verify_journal(JournalReader(kernel.store.engine), table=SYSCALL_TABLE)
        assert report.verified, report.to_json()
    finally:
        kernel.close()


OPERATOR_CALLS = {"create", "seed", "pin", "unpin", "archive", "review"}  # by default called by an operator


def _principal(name: str, principal: str | None) -> str:
    if principal is not None:
        return principal
    return OPERATOR if name in OPERATOR_CALLS else AGENT


def ok(k: Kernel, name: str, args: dict[str, Any], principal: str | None = None) -> dict[str, Any]:
    result = k.call(f"memory.awmu.{name}", args, principal=_principal(name, principal))
    assert result.ok, result.to_dict()
    return msgspec.json.decode(msgspec.json.encode(result.value))  # tuples become lists


def snapshot(k: Kernel, context_id: str = CTX) -> Any:
    """Everything observable about a context: all units, both queues, the turn and the event stream."""
    listed = k.call("memory.awmu.list", {"context_id": context_id, "status": "all"}, principal=AGENT)
    if not listed.ok:
        return listed.error.code
    events = k.call("memory.awmu.events", {"context_id": context_id, "limit": 1000}, principal=AGENT)
    assert events.ok
    return listed.value, events.value


def refused(
    k: Kernel, name: str, args: dict[str, Any], code: str, principal: str | None = None, *, contexts=(CTX,)
) -> Any:
    before = [snapshot(k, c) for c in contexts]
    result = k.call(f"memory.awmu.{name}", args, principal=_principal(name, principal))
    assert not result.ok, result.to_dict()
    assert result.error.code == code, result.to_dict()
    assert result.seq is not None  # journaled
    assert [snapshot(k, c) for c in contexts] == before
    return result.error


def create(k: Kernel, context_id: str = CTX, **config: Any) -> dict[str, Any]:
    """A context under rules 1, the rules this file specifies (rules 2: ``test_awmu_rules2.py``)."""
    return ok(k, "create", {"context_id": context_id, "config": config, "rules": 1})


def seed(k: Kernel, text: str, authority: str = "RELIABLE", context_id: str = CTX, **extra: Any) -> str:
    value = ok(k, "seed", {"context_id": context_id, "text": text, "authority": authority, **extra})
    assert value["outcome"] == "seeded", value
    return value["unit_id"]


def propose(
    k: Kernel, text: str, source: str = "system", confidence: float = 1.0, verdicts=(), context_id: str = CTX
) -> dict[str, Any]:
    args = {
        "context_id": context_id,
        "text": text,
        "source": source,
        "confidence": confidence,
        "verdicts": list(verdicts),
    }
    return ok(k, "propose", args)


def unit(k: Kernel, unit_id: str, context_id: str = CTX) -> dict[str, Any]:
    return ok(k, "get", {"context_id": context_id, "unit_id": unit_id})["unit"]


def events(k: Kernel, context_id: str = CTX, **query: Any) -> list[dict[str, Any]]:
    return ok(k, "events", {"context_id": context_id, "limit": 1000, **query})["events"]


def active_ids(k: Kernel, context_id: str = CTX) -> set[str]:
    return {u["unit_id"] for u in ok(k, "list", {"context_id": context_id})["units"]}


def turn(k: Kernel, reinforce=(), context_id: str = CTX) -> dict[str, Any]:
    return ok(k, "turn", {"context_id": context_id, "reinforce": list(reinforce)})


# --- create, list, get ---------------------------------------------------------------------------


def test_create_records_the_config(k: Kernel) -> None:
    value = create(k, budget=5, trust_profile="SECURE")
    assert value["context_id"] == CTX
    assert value["config"]["budget"] == 5
    assert value["config"]["trust_profile"] == "SECURE"
    assert value["config"]["canonizers"] == ["operator:*", "admin:*"]
    listed = ok(k, "list", {"context_id": CTX})
    assert (listed["units"], listed["count"], listed["turn"]) == ([], 0, 0)
    assert (listed["review_queue"], listed["canon_requests"]) == ([], [])


def test_create_twice_is_refused(k: Kernel) -> None:
    create(k, budget=5)
    refused(k, "create", {"context_id": CTX, "config": {"budget": 9}}, "awmu_context_exists")
    assert ok(k, "pressure", {"context_id": CTX})["budget"] == 5


@pytest.mark.parametrize(
    "config",
    [
        {"warm_threshold": 600},
        {"warm_threshold": 700, "hot_threshold": 600},
        {"min_rank": 500, "max_rank": 500},
        {"initial_rank": 100, "min_rank": 200},
        {"unreliable_demote_below": 400},
        {"upgrade_to_unreliable_at": 7},
    ],
)
def test_inconsistent_config_is_refused(k: Kernel, config: dict[str, Any]) -> None:
    refused(k, "create", {"context_id": CTX, "config": config}, "awmu_invalid_config")
    refused(k, "list", {"context_id": CTX}, "awmu_context_not_found")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("propose", {"text": "x", "source": "dm", "confidence": 0.9}),
        ("seed", {"text": "x"}),
        ("turn", {}),
        ("pin", {"unit_id": "u1-0"}),
        ("unpin", {"unit_id": "u1-0"}),
        ("archive", {"unit_id": "u1-0"}),
        ("canonize", {"unit_id": "u1-0"}),
        ("list", {}),
        ("get", {"unit_id": "u1-0"}),
        ("assemble", {}),
        ("events", {}),
        ("validate_summary", {"summary": "x"}),
        ("pressure", {}),
    ],
)
def test_unknown_context_is_refused(k: Kernel, name: str, args: dict[str, Any]) -> None:
    create(k, "other")
    seed(k, "A fact.", context_id="other")
    refused(k, name, {"context_id": "nowhere", **args}, "awmu_context_not_found", contexts=("other",))


def test_get_and_list_filters(k: Kernel) -> None:
    create(k)
    hot = seed(k, "The king is dead.", rank=700)
    warm = seed(k, "Elara keeps the tavern.", "UNRELIABLE", pinned=True)
    cold = seed(k, "A storm gathers.", "PROVISIONAL", rank=200)
    listed = ok(k, "list", {"context_id": CTX})
    assert [u["unit_id"] for u in listed["units"]] == [hot, warm, cold]  # rank descending
    assert [u["tier"] for u in listed["units"]] == ["HOT", "WARM", "COLD"]
    assert listed["count"] == 3
    assert [u["unit_id"] for u in ok(k, "list", {"context_id": CTX, "tier": "COLD"})["units"]] == [cold]
    assert [u["unit_id"] for u in ok(k, "list", {"context_id": CTX, "pinned": True})["units"]] == [warm]
    by_authority = ok(k, "list", {"context_id": CTX, "authority": "UNRELIABLE"})["units"]
    assert [u["unit_id"] for u in by_authority] == [warm]
    ok(k, "archive", {"context_id": CTX, "unit_id": cold})
    assert active_ids(k) == {hot, warm}
    archived = ok(k, "list", {"context_id": CTX, "status": "archived"})["units"]
    assert [u["unit_id"] for u in archived] == [cold]
    assert ok(k, "list", {"context_id": CTX, "status": "all"})["count"] == 3
    assert unit(k, cold)["status"] == "ARCHIVED"  # get returns any status
    assert unit(k, hot)["text"] == "The king is dead."


def test_get_unknown_or_foreign_unit_is_refused(k: Kernel) -> None:
    create(k)
    create(k, "other")
    foreign = seed(k, "Elsewhere.", context_id="other")
    refused(k, "get", {"context_id": CTX, "unit_id": "u999-0"}, "awmu_unit_not_found")
    refused(k, "get", {"context_id": CTX, "unit_id": foreign}, "awmu_unit_not_found")
    refused(k, "pin", {"context_id": CTX, "unit_id": foreign}, "awmu_unit_not_found", contexts=(CTX, "other"))


# --- seed ----------------------------------------------------------------------------------------


def test_seed(k: Kernel) -> None:
    create(k)
    value = ok(k, "seed", {"context_id": CTX, "text": "The king is dead.", "rank": 650, "source": "gm"})
    u = value["unit"]
    assert value["outcome"] == "seeded" and value["evicted"] == []
    assert (u["authority"], u["authority_ceiling"], u["rank"], u["tier"], u["pinned"], u["status"]) == (
        "RELIABLE",
        "RELIABLE",
        650,
        "HOT",
        False,
        "ACTIVE",
    )
    assert u["source_ids"] == ["gm"]
    assert u["unit_id"] == value["unit_id"]
    default = ok(k, "seed", {"context_id": CTX, "text": "Gold is scarce."})["unit"]
    assert (default["authority"], default["rank"]) == ("RELIABLE", 500)
    created = events(k, kinds=["created"])
    assert [e["unit_id"] for e in created] == [u["unit_id"], default["unit_id"]]


def test_seed_duplicate(k: Kernel) -> None:
    create(k)
    first = seed(k, "The king is dead.")
    value = ok(k, "seed", {"context_id": CTX, "text": "the KING is dead!!"})
    assert value == {"outcome": "duplicate", "duplicate_of": first}
    assert active_ids(k) == {first}
    assert [e["unit_id"] for e in events(k, kinds=["duplicate"])] == [first]


def test_canon_seed_is_refused(k: Kernel) -> None:
    create(k)
    refused(
        k, "seed", {"context_id": CTX, "text": "Magic is real.", "authority": "CANON"}, "memory_policy_denied"
    )
    refused(
        k,
        "seed",
        {"context_id": CTX, "text": "Magic is real.", "authority": "CANON"},
        "memory_policy_denied",
        principal=OPERATOR,
    )


@pytest.mark.parametrize("text", ["!!!", "...", " - ", "\u2014"])
def test_text_without_words_is_refused(k: Kernel, text: str) -> None:
    create(k)
    refused(k, "seed", {"context_id": CTX, "text": text}, "awmu_invalid_text")
    refused(
        k,
        "propose",
        {"context_id": CTX, "text": text, "source": "dm", "confidence": 1.0},
        "awmu_invalid_text",
    )


# --- propose -------------------------------------------------------------------------------------


def test_propose_promoted(k: Kernel) -> None:
    create(k)
    value = propose(k, "A storm gathers over the sea.", "system", 1.0)
    assert value["outcome"] == "promoted"
    assert value["trust"]["zone"] == "AUTO_PROMOTE"
    assert value["trust"]["score"] == pytest.approx(0.22 * (1.0 + 1.0 + 0.5 + 0.3) + 0.06)
    u = value["unit"]
    assert (u["authority"], u["authority_ceiling"], u["rank"], u["source_ids"]) == (
        "PROVISIONAL",
        "UNRELIABLE",
        500,
        ["system"],
    )
    assert u["trust_score"] == value["trust"]["score"]
    assert value["superseded"] == value["demoted"] == value["evicted"] == []
    assert active_ids(k) == {value["unit_id"]}


def test_propose_duplicate(k: Kernel) -> None:
    create(k)
    first = seed(k, "The king is dead.", "UNRELIABLE")
    value = propose(k, "THE KING... is dead", "player", 0.9)
    assert value == {"outcome": "duplicate", "duplicate_of": first}
    assert active_ids(k) == {first}
    assert events(k, kinds=["duplicate"])[0]["detail"]["source"] == "player"


def test_propose_rejected_low_confidence(k: Kernel) -> None:
    create(k)
    value = propose(k, "A storm gathers.", "system", 0.64)
    assert value == {"outcome": "rejected_low_confidence", "confidence": 0.64}
    assert active_ids(k) == set()
    assert events(k, kinds=["rejected"])[0]["detail"]["reason"] == "low_confidence"
    # exactly at the threshold passes the confidence gate
    assert propose(k, "A storm gathers.", "system", 0.65)["outcome"] != "rejected_low_confidence"


def test_propose_rejected_conflict_by_low_trust(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.", rank=700)
    value = propose(k, "The king is not dead.", "player", 0.9)
    assert value["outcome"] == "rejected_conflict"
    assert value["trust"]["ceiling"] == "UNRELIABLE"
    assert value["conflicts"] == [
        {
            "unit_id": king,
            "type": "CONTRADICTION",
            "confidence": 0.75,
            "detector": "lexical",
            "existing_authority": "RELIABLE",
            "resolution": "KEEP_EXISTING",
        }
    ]
    assert active_ids(k) == {king}
    assert unit(k, king)["authority"] == "RELIABLE"
    conflict_events = events(k, kinds=["conflict"])
    assert [(e["unit_id"], e["detail"]["resolution"]) for e in conflict_events] == [(king, "KEEP_EXISTING")]


def test_propose_queued_for_review(k: Kernel) -> None:
    create(k)
    seed(k, "A storm gathers over the sea.")
    value = propose(k, "The dragon sleeps.", "dm", 0.9)
    assert value["outcome"] == "queued_for_review"
    assert value["trust"]["zone"] == "REVIEW"
    listed = ok(k, "list", {"context_id": CTX})
    assert [item["review_id"] for item in listed["review_queue"]] == [value["review_id"]]
    item = listed["review_queue"][0]
    assert (item["text"], item["source"], item["status"]) == ("The dragon sleeps.", "dm", "PENDING")
    assert listed["count"] == 1


def test_propose_archived_by_trust(k: Kernel) -> None:
    create(k)
    seed(k, "A storm gathers over the sea.")
    value = propose(k, "The dragon sleeps.", "player", 0.7)
    assert value["outcome"] == "archived"
    assert value["trust"]["zone"] == "ARCHIVE"
    listed = ok(k, "list", {"context_id": CTX, "status": "all"})
    assert listed["count"] == 1 and listed["review_queue"] == []
    assert events(k, kinds=["rejected"])[0]["detail"]["reason"] == "trust_archive"


def test_corroboration_from_a_second_source_raises_trust(k: Kernel) -> None:
    create(k)
    seed(k, "A storm gathers over the sea.")
    first = propose(k, "The dragon sleeps.", "dm", 0.9)
    assert first["outcome"] == "queued_for_review"
    assert first["trust"]["signals"]["corroboration"] == 0.3
    again = propose(k, "The dragon sleeps!", "dm", 0.9)  # same source: no corroboration
    assert again["trust"]["signals"]["corroboration"] == 0.3
    other = propose(k, "the dragon sleeps", "system", 0.9)
    assert other["trust"]["signals"]["corroboration"] == 0.6
    assert other["trust"]["score"] > first["trust"]["score"]


def test_lexical_contradiction_replaces_a_weaker_unit(k: Kernel) -> None:
    create(k)
    bridge = seed(k, "The bridge is intact.", "UNRELIABLE")
    value = propose(k, "The bridge is not intact.", "system", 1.0)
    assert value["outcome"] == "promoted"
    assert [(c["unit_id"], c["detector"], c["resolution"]) for c in value["conflicts"]] == [
        (bridge, "lexical", "REPLACE")
    ]
    assert value["superseded"] == [bridge]
    old = unit(k, bridge)
    assert (old["status"], old["superseded_by"]) == ("SUPERSEDED", value["unit_id"])
    assert value["unit"]["supersedes"] == [bridge]
    assert active_ids(k) == {value["unit_id"]}


def test_verdict_contradiction_replaces_and_supersedes(k: Kernel) -> None:
    create(k, **NO_TRUST)
    king = seed(k, "The king is dead.", rank=700)
    verdict = {"unit_id": king, "type": "CONTRADICTION", "confidence": 0.9, "detector": "judge"}
    value = propose(k, "The queen rules alone.", "dm", 0.9, [verdict])
    assert value["outcome"] == "promoted"
    assert value["conflicts"] == [
        {
            "unit_id": king,
            "type": "CONTRADICTION",
            "confidence": 0.9,
            "detector": "judge",
            "existing_authority": "RELIABLE",
            "resolution": "REPLACE",
        }
    ]
    new = value["unit_id"]
    old = unit(k, king)
    assert (old["status"], old["superseded_by"]) == ("SUPERSEDED", new)
    assert unit(k, new)["supersedes"] == [king]
    assert active_ids(k) == {new}
    superseded = ok(k, "list", {"context_id": CTX, "status": "superseded"})["units"]
    assert [u["unit_id"] for u in superseded] == [king]
    assert [(e["unit_id"], e["detail"]) for e in events(k, kinds=["superseded"])] == [
        (king, {"superseded_by": new})
    ]
    # a superseded unit can no longer be named in a verdict
    refused(
        k,
        "propose",
        {
            "context_id": CTX,
            "text": "Something else.",
            "source": "dm",
            "confidence": 0.9,
            "verdicts": [verdict],
        },
        "awmu_invalid_verdict",
    )


def test_verdict_contradiction_demotes(k: Kernel) -> None:
    create(k, **NO_TRUST)
    king = seed(k, "The king is dead.", rank=700)
    verdict = {"unit_id": king, "type": "CONTRADICTION", "confidence": 0.7}
    value = propose(k, "The queen rules alone.", "dm", 0.9, [verdict])
    assert value["outcome"] == "promoted"
    assert value["demoted"] == [king]
    assert value["conflicts"][0]["resolution"] == "DEMOTE_EXISTING"
    assert value["conflicts"][0]["detector"] == "caller"
    assert unit(k, king)["authority"] == "UNRELIABLE"
    assert active_ids(k) == {king, value["unit_id"]}
    changed = events(k, kinds=["authority_changed"])
    assert [
        (e["unit_id"], e["detail"]["before"], e["detail"]["after"], e["detail"]["reason"]) for e in changed
    ] == [(king, "RELIABLE", "UNRELIABLE", "conflict")]


def test_verdict_contradiction_below_the_threshold_is_rejected(k: Kernel) -> None:
    create(k, **NO_TRUST)
    king = seed(k, "The king is dead.", rank=700)
    value = propose(
        k, "The queen rules.", "dm", 0.9, [{"unit_id": king, "type": "CONTRADICTION", "confidence": 0.69}]
    )
    assert value["outcome"] == "rejected_conflict"
    assert active_ids(k) == {king}
    assert unit(k, king)["authority"] == "RELIABLE"


def test_verdict_revision(k: Kernel) -> None:
    create(k, **NO_TRUST)
    tavern = seed(k, "The tavern is open.", "UNRELIABLE")
    gate = seed(k, "The gate is open.", "RELIABLE")
    kept = propose(
        k, "The gate opens at dawn.", "dm", 0.9, [{"unit_id": gate, "type": "REVISION", "confidence": 0.9}]
    )
    assert kept["outcome"] == "rejected_conflict"
    low = propose(
        k,
        "The tavern opens at noon.",
        "dm",
        0.9,
        [{"unit_id": tavern, "type": "REVISION", "confidence": 0.7}],
    )
    assert low["outcome"] == "rejected_conflict"
    value = propose(
        k,
        "The tavern opens at noon.",
        "dm",
        0.9,
        [{"unit_id": tavern, "type": "REVISION", "confidence": 0.75}],
    )
    assert value["outcome"] == "promoted"
    assert value["superseded"] == [tavern]
    assert unit(k, tavern)["status"] == "SUPERSEDED"
    assert active_ids(k) == {gate, value["unit_id"]}


def test_verdict_world_progression_coexists_and_overrides_lexical(k: Kernel) -> None:
    create(k, **NO_TRUST)
    king = seed(k, "The king is alive.", rank=800)
    verdict = {"unit_id": king, "type": "WORLD_PROGRESSION", "confidence": 0.9}
    value = propose(k, "The king is not alive.", "dm", 0.9, [verdict])
    assert value["outcome"] == "promoted"
    assert [(c["unit_id"], c["type"], c["resolution"]) for c in value["conflicts"]] == [
        (king, "WORLD_PROGRESSION", "COEXIST")
    ]
    assert active_ids(k) == {king, value["unit_id"]}
    assert unit(k, king)["authority"] == "RELIABLE"


def test_verdict_on_canon_or_pinned_is_kept(k: Kernel) -> None:
    create(k, **NO_TRUST)
    pinned = seed(k, "The king is dead.", pinned=True, rank=300)
    verdict = {"unit_id": pinned, "type": "CONTRADICTION", "confidence": 1.0}
    assert propose(k, "The queen rules.", "system", 1.0, [verdict])["outcome"] == "rejected_conflict"
    assert unit(k, pinned)["status"] == "ACTIVE"


@pytest.mark.parametrize("unit_id", ["u999-0", "nothing"])
def test_verdict_naming_no_active_unit_is_refused(k: Kernel, unit_id: str) -> None:
    create(k)
    seed(k, "The king is dead.")
    verdicts = [{"unit_id": unit_id, "type": "CONTRADICTION", "confidence": 0.9}]
    refused(
        k,
        "propose",
        {
            "context_id": CTX,
            "text": "The queen rules.",
            "source": "dm",
            "confidence": 0.9,
            "verdicts": verdicts,
        },
        "awmu_invalid_verdict",
    )


def test_verdict_naming_an_archived_unit_is_refused(k: Kernel) -> None:
    create(k)
    gone = seed(k, "The king is dead.")
    seed(k, "The queen is alive.")
    ok(k, "archive", {"context_id": CTX, "unit_id": gone})
    verdicts = [{"unit_id": gone, "type": "CONTRADICTION", "confidence": 0.9}]
    refused(
        k,
        "propose",
        {
            "context_id": CTX,
            "text": "The king lives.",
            "source": "dm",
            "confidence": 0.9,
            "verdicts": verdicts,
        },
        "awmu_invalid_verdict",
    )


# --- review queue --------------------------------------------------------------------------------


def _queue_one(k: Kernel) -> tuple[str, str]:
    create(k)
    storm = seed(k, "A storm gathers over the sea.")
    value = propose(k, "The dragon sleeps.", "dm", 0.9)
    assert value["outcome"] == "queued_for_review"
    return storm, value["review_id"]


def test_approved_queued_proposal_becomes_a_unit(k: Kernel) -> None:
    storm, review_id = _queue_one(k)
    value = ok(k, "review", {"request_id": review_id, "decision": "approve", "note": "ok"})
    assert value["outcome"] == "promoted"
    new = value["unit_id"]
    assert value["review"]["status"] == "APPROVED"
    assert value["review"]["unit_id"] == new
    assert value["review"]["decided_by"] == OPERATOR
    u = unit(k, new)
    assert (u["text"], u["authority"], u["authority_ceiling"], u["source_ids"]) == (
        "The dragon sleeps.",
        "PROVISIONAL",
        "UNRELIABLE",
        ["dm"],
    )
    listed = ok(k, "list", {"context_id": CTX})
    assert listed["review_queue"] == []
    assert {u["unit_id"] for u in listed["units"]} == {storm, new}
    decided = events(k, kinds=["review_decided"])
    assert [(e["unit_id"], e["detail"]["status"], e["detail"]["note"]) for e in decided] == [
        (new, "APPROVED", "ok")
    ]
    refused(k, "review", {"request_id": review_id, "decision": "approve"}, "awmu_request_decided")


def test_rejected_queued_proposal_does_not_become_a_unit(k: Kernel) -> None:
    storm, review_id = _queue_one(k)
    value = ok(k, "review", {"request_id": review_id, "decision": "reject"}, "admin:root")
    assert value["outcome"] == "rejected"
    assert value["review"]["status"] == "REJECTED"
    assert value["review"]["unit_id"] is None
    listed = ok(k, "list", {"context_id": CTX, "status": "all"})
    assert listed["review_queue"] == []
    assert {u["unit_id"] for u in listed["units"]} == {storm}
    refused(k, "review", {"request_id": review_id, "decision": "reject"}, "awmu_request_decided")


def test_approved_queued_proposal_that_became_a_duplicate_is_rejected(k: Kernel) -> None:
    _, review_id = _queue_one(k)
    seed(k, "The dragon sleeps!")
    value = ok(k, "review", {"request_id": review_id, "decision": "approve"})
    assert value["outcome"] == "duplicate"
    assert value["review"]["status"] == "REJECTED"
    assert len(active_ids(k)) == 2


def test_review_by_a_non_canonizer_is_refused(k: Kernel) -> None:
    _, review_id = _queue_one(k)
    for principal in (AGENT, "user:operator", "operators:x"):
        refused(
            k, "review", {"request_id": review_id, "decision": "approve"}, "memory_policy_denied", principal
        )


@pytest.mark.parametrize("request_id", ["r999", "c999", "x1", "u2-0"])
def test_review_of_an_unknown_request_is_refused(k: Kernel, request_id: str) -> None:
    _queue_one(k)
    refused(
        k, "review", {"request_id": request_id, "decision": "approve"}, "awmu_request_not_found", OPERATOR
    )


# --- canonization --------------------------------------------------------------------------------


def test_canonization_approved_by_an_operator(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.", rank=700)
    request = ok(k, "canonize", {"context_id": CTX, "unit_id": king, "reason": "core lore"})["request"]
    assert (
        request["status"],
        request["unit_id"],
        request["requested_by"],
        request["authority_at_request"],
    ) == (
        "PENDING",
        king,
        AGENT,
        "RELIABLE",
    )
    assert unit(k, king)["authority"] == "RELIABLE"  # a request alone changes nothing
    assert [r["request_id"] for r in ok(k, "list", {"context_id": CTX})["canon_requests"]] == [
        request["request_id"]
    ]
    refused(k, "canonize", {"context_id": CTX, "unit_id": king}, "awmu_request_pending")
    refused(
        k,
        "review",
        {"request_id": request["request_id"], "decision": "approve"},
        "memory_policy_denied",
        AGENT,
    )
    value = ok(k, "review", {"request_id": request["request_id"], "decision": "approve"})
    assert value["request"]["status"] == "APPROVED"
    assert value["request"]["decided_by"] == OPERATOR
    assert value["unit"]["authority"] == "CANON"
    assert unit(k, king)["authority"] == "CANON"
    changed = events(k, kinds=["authority_changed"])
    assert [(e["unit_id"], e["detail"]["after"], e["detail"]["reason"]) for e in changed] == [
        (king, "CANON", "canonization")
    ]
    assert ok(k, "list", {"context_id": CTX})["canon_requests"] == []
    refused(k, "canonize", {"context_id": CTX, "unit_id": king}, "awmu_already_canon")
    refused(
        k,
        "review",
        {"request_id": request["request_id"], "decision": "approve"},
        "awmu_request_decided",
        OPERATOR,
    )
    # CANON never decays
    turn(k)
    turn(k)
    assert unit(k, king)["rank"] == 700


def test_canonization_rejected(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.")
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": king})["request"]["request_id"]
    value = ok(k, "review", {"request_id": request_id, "decision": "reject"})
    assert value["request"]["status"] == "REJECTED"
    assert unit(k, king)["authority"] == "RELIABLE"
    # a new request can be made once the old one is decided
    assert ok(k, "canonize", {"context_id": CTX, "unit_id": king})["request"]["status"] == "PENDING"


def _change_after_request(k: Kernel, change: str) -> str:
    """Seed a unit, request CANON for it, then change it; returns the request id."""
    authority = "PROVISIONAL" if change == "upgrade" else "RELIABLE"
    king = seed(k, "The king is dead.", authority, rank=410 if change == "rank_demotion" else 700)
    if change == "upgrade":
        turn(k, [king])
        turn(k, [king])
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": king})["request"]["request_id"]
    if change in ("turn", "rank_demotion"):
        turn(k)
    elif change in ("reinforce", "upgrade"):
        turn(k, [king])
    elif change == "pin":
        ok(k, "pin", {"context_id": CTX, "unit_id": king})
    elif change == "archive":
        ok(k, "archive", {"context_id": CTX, "unit_id": king})
    elif change in ("conflict_demotion", "supersede"):
        confidence = 0.7 if change == "conflict_demotion" else 0.9
        verdict = {"unit_id": king, "type": "CONTRADICTION", "confidence": confidence}
        assert propose(k, "The queen rules.", "system", 1.0, [verdict])["outcome"] == "promoted"
    return request_id


@pytest.mark.parametrize("change", ["rank_demotion", "upgrade", "conflict_demotion", "supersede", "archive"])
def test_canonization_is_stale_when_the_authority_changed_or_the_unit_left(k: Kernel, change: str) -> None:
    create(k, **NO_TRUST)
    request_id = _change_after_request(k, change)
    king = ok(k, "list", {"context_id": CTX, "status": "all"})["units"]
    king_id = next(u["unit_id"] for u in king if u["text"] == "The king is dead.")
    before = unit(k, king_id)
    value = ok(k, "review", {"request_id": request_id, "decision": "approve"})
    assert value["request"]["status"] == "STALE"
    assert value["request"]["decided_by"] == OPERATOR
    assert unit(k, king_id) == before
    assert before["authority"] != "CANON"
    decided = events(k, kinds=["canon_decided"])
    assert [e["detail"]["status"] for e in decided] == ["STALE"]
    assert [e for e in events(k, kinds=["authority_changed"]) if e["detail"]["after"] == "CANON"] == []
    refused(k, "review", {"request_id": request_id, "decision": "approve"}, "awmu_request_decided")


@pytest.mark.parametrize("change", ["turn", "reinforce", "pin"])
def test_canonization_survives_changes_that_keep_the_authority(k: Kernel, change: str) -> None:
    create(k, **NO_TRUST)
    request_id = _change_after_request(k, change)
    value = ok(k, "review", {"request_id": request_id, "decision": "approve"})
    assert value["request"]["status"] == "APPROVED"
    assert value["unit"]["authority"] == "CANON"


def test_canonize_a_missing_or_inactive_unit_is_refused(k: Kernel) -> None:
    create(k)
    gone = seed(k, "The king is dead.")
    ok(k, "archive", {"context_id": CTX, "unit_id": gone})
    refused(k, "canonize", {"context_id": CTX, "unit_id": gone}, "awmu_unit_not_active")
    refused(k, "canonize", {"context_id": CTX, "unit_id": "u77-0"}, "awmu_unit_not_found")


def test_canonizers_are_configurable(k: Kernel) -> None:
    create(k, canonizers=["agent:*"])
    king = seed(k, "The king is dead.")
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": king})["request"]["request_id"]
    refused(k, "review", {"request_id": request_id, "decision": "approve"}, "memory_policy_denied", OPERATOR)
    assert (
        ok(k, "review", {"request_id": request_id, "decision": "approve"}, AGENT)["unit"]["authority"]
        == "CANON"
    )


# --- turns ---------------------------------------------------------------------------------------


def test_turn_reinforces_and_decays(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.", "PROVISIONAL")
    b = seed(k, "The queen is alive.", "PROVISIONAL", rank=700)
    value = turn(k, [a, a])
    assert value["turn"] == 1
    assert value["reinforced"] == [{"unit_id": a, "count": 1, "rank": 550}]
    assert value["decayed"] == [{"unit_id": b, "before": 700, "after": 673, "archived": False}]
    assert value["active"] == 2
    assert (unit(k, a)["rank"], unit(k, a)["reinforcement_count"], unit(k, b)["rank"]) == (550, 1, 673)
    assert ok(k, "list", {"context_id": CTX})["turn"] == 1
    kinds = [(e["kind"], e["unit_id"]) for e in events(k, after_seq=0) if e["turn"] == 1]
    assert kinds == [("reinforced", a), ("decayed", b), ("turn", None)]


def test_reinforcement_upgrades_authority_at_3_and_7_within_the_ceiling(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.", "PROVISIONAL")
    authorities = []
    for _ in range(8):
        turn(k, [a])
        authorities.append(unit(k, a)["authority"])
    assert authorities == ["PROVISIONAL"] * 2 + ["UNRELIABLE"] * 4 + ["RELIABLE"] * 2
    assert unit(k, a)["rank"] == 900  # clamped
    changed = events(k, kinds=["authority_changed"])
    assert [(e["detail"]["after"], e["detail"]["count"], e["detail"]["direction"]) for e in changed] == [
        ("UNRELIABLE", 3, "up"),
        ("RELIABLE", 7, "up"),
    ]


def test_reinforcement_stops_at_the_trust_ceiling(k: Kernel) -> None:
    create(k)
    new = propose(k, "A storm gathers over the sea.", "system", 1.0)
    assert new["unit"]["authority_ceiling"] == "UNRELIABLE"
    for _ in range(9):
        turn(k, [new["unit_id"]])
    assert unit(k, new["unit_id"])["authority"] == "UNRELIABLE"


def test_rank_triggered_demotion_and_archive_at_floor(k: Kernel) -> None:
    create(k)
    reliable = seed(k, "The king is dead.", rank=410)
    low = seed(k, "A storm gathers.", "UNRELIABLE", rank=160)
    value = turn(k)
    assert value["decayed"] == [
        {"unit_id": reliable, "before": 410, "after": 386, "archived": False},
        {"unit_id": low, "before": 160, "after": 145, "archived": True},
    ]
    assert unit(k, reliable)["authority"] == "UNRELIABLE"
    gone = unit(k, low)
    assert (gone["status"], gone["authority"]) == ("ARCHIVED", "PROVISIONAL")
    changed = events(k, kinds=["authority_changed"])
    assert [
        (e["unit_id"], e["detail"]["after"], e["detail"]["direction"], e["detail"]["reason"]) for e in changed
    ] == [
        (reliable, "UNRELIABLE", "down", "rank"),
        (low, "PROVISIONAL", "down", "rank"),
    ]
    archived = events(k, kinds=["archived"])
    assert [(e["unit_id"], e["detail"]["reason"]) for e in archived] == [(low, "decay")]
    assert active_ids(k) == {reliable}
    assert ok(k, "pressure", {"context_id": CTX})["window"]["demotions"] == 2


def test_pinned_and_canon_units_never_decay(k: Kernel) -> None:
    create(k)
    pinned = seed(k, "The king is dead.", rank=160, pinned=True)
    canon = seed(k, "Magic is real.", rank=380)
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": canon})["request"]["request_id"]
    ok(k, "review", {"request_id": request_id, "decision": "approve"})
    for _ in range(30):
        turn(k)
    assert (unit(k, pinned)["rank"], unit(k, pinned)["status"], unit(k, pinned)["authority"]) == (
        160,
        "ACTIVE",
        "RELIABLE",
    )
    assert (unit(k, canon)["rank"], unit(k, canon)["authority"]) == (380, "CANON")
    assert events(k, kinds=["decayed", "archived", "evicted"]) == []
    ok(k, "unpin", {"context_id": CTX, "unit_id": pinned})
    value = turn(k)
    assert value["decayed"] == [{"unit_id": pinned, "before": 160, "after": 145, "archived": True}]


def test_turn_with_unknown_or_inactive_unit_is_refused(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.")
    gone = seed(k, "A storm gathers.")
    ok(k, "archive", {"context_id": CTX, "unit_id": gone})
    refused(k, "turn", {"context_id": CTX, "reinforce": [a, "u99-0"]}, "awmu_unit_not_found")
    refused(k, "turn", {"context_id": CTX, "reinforce": [a, gone]}, "awmu_unit_not_active")
    assert ok(k, "list", {"context_id": CTX})["turn"] == 0


def test_invariant_must_blocks_automatic_demotion(k: Kernel) -> None:
    rule = {"id": "king-floor", "type": "authority-floor", "unit_text_pattern": "king"}
    create(k, invariants=[rule])
    king = seed(k, "The king is dead.", rank=410)
    turn(k)
    u = unit(k, king)
    assert (u["rank"], u["authority"]) == (386, "RELIABLE")
    blocked = events(k, kinds=["invariant_blocked"])
    assert [(e["unit_id"], e["detail"]["rule"]) for e in blocked] == [(king, "king-floor")]


def test_invariant_should_warns_but_lets_demotion_through(k: Kernel) -> None:
    rule = {"id": "king-floor", "type": "authority-floor", "strength": "SHOULD", "unit_text_pattern": "king"}
    create(k, invariants=[rule])
    king = seed(k, "The king is dead.", rank=410)
    turn(k)
    assert unit(k, king)["authority"] == "UNRELIABLE"
    assert [e["detail"]["rule"] for e in events(k, kinds=["invariant_warning"])] == ["king-floor"]
    assert events(k, kinds=["invariant_blocked"]) == []


def test_archive_prohibition_must_keeps_a_unit_at_the_floor(k: Kernel) -> None:
    create(k, invariants=[{"id": "keep", "type": "archive-prohibition", "unit_text_pattern": "storm"}])
    storm = seed(k, "A storm gathers.", "PROVISIONAL", rank=160)
    turn(k)
    assert unit(k, storm)["status"] == "ACTIVE"
    assert [e["detail"]["rule"] for e in events(k, kinds=["invariant_blocked"])] == ["keep"]


# --- pin, archive --------------------------------------------------------------------------------


def test_pin_and_unpin(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.")
    assert ok(k, "pin", {"context_id": CTX, "unit_id": a})["unit"]["pinned"] is True
    assert ok(k, "pin", {"context_id": CTX, "unit_id": a})["unit"]["pinned"] is True  # idempotent
    assert ok(k, "unpin", {"context_id": CTX, "unit_id": a})["unit"]["pinned"] is False
    assert [e["kind"] for e in events(k, kinds=["pinned", "unpinned"])] == ["pinned", "unpinned"]
    ok(k, "archive", {"context_id": CTX, "unit_id": a})
    refused(k, "pin", {"context_id": CTX, "unit_id": a}, "awmu_unit_not_active")
    refused(k, "unpin", {"context_id": CTX, "unit_id": a}, "awmu_unit_not_active")
    refused(k, "unpin", {"context_id": CTX, "unit_id": "u404-0"}, "awmu_unit_not_found")


def test_explicit_archive(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.", pinned=True)
    value = ok(k, "archive", {"context_id": CTX, "unit_id": a, "reason": "retcon"})
    assert value["unit"]["status"] == "ARCHIVED"
    assert [(e["unit_id"], e["detail"]) for e in events(k, kinds=["archived"])] == [
        (a, {"reason": "retcon", "by": OPERATOR})
    ]
    refused(k, "archive", {"context_id": CTX, "unit_id": a}, "awmu_unit_not_active")
    refused(k, "archive", {"context_id": CTX, "unit_id": "u404-0"}, "awmu_unit_not_found")


def test_archive_prohibition_must_refuses_explicit_archive(k: Kernel) -> None:
    create(k, invariants=[{"id": "keep-king", "type": "archive-prohibition", "unit_text_pattern": "KING"}])
    king = seed(k, "The king is dead.")
    other = seed(k, "A storm gathers.")
    error = refused(k, "archive", {"context_id": CTX, "unit_id": king}, "awmu_invariant_violation")
    assert "keep-king" in error.detail
    ok(k, "archive", {"context_id": CTX, "unit_id": other})


def test_archive_prohibition_should_warns_on_explicit_archive(k: Kernel) -> None:
    rule = {
        "id": "keep-king",
        "type": "archive-prohibition",
        "strength": "SHOULD",
        "unit_text_pattern": "king",
    }
    create(k, invariants=[rule])
    king = seed(k, "The king is dead.")
    ok(k, "archive", {"context_id": CTX, "unit_id": king})
    assert unit(k, king)["status"] == "ARCHIVED"
    assert [(e["unit_id"], e["detail"]["rule"]) for e in events(k, kinds=["invariant_warning"])] == [
        (king, "keep-king")
    ]


def test_min_authority_count_must_refuses_explicit_archive(k: Kernel) -> None:
    rule = {"id": "one-king", "type": "min-authority-count", "unit_text_pattern": "king", "minimum_count": 1}
    create(k, invariants=[rule])
    first = seed(k, "The king is dead.")
    second = seed(k, "The king had a son.")
    ok(k, "archive", {"context_id": CTX, "unit_id": first})
    refused(k, "archive", {"context_id": CTX, "unit_id": second}, "awmu_invariant_violation")


# --- budget and eviction -------------------------------------------------------------------------


def test_eviction_of_the_lowest_rank(k: Kernel) -> None:
    create(k, budget=3)
    high = seed(k, "The king is dead.", rank=800)
    low = seed(k, "A storm gathers.", "PROVISIONAL", rank=300)
    mid = seed(k, "Gold is scarce.", "UNRELIABLE", rank=500)
    value = ok(k, "seed", {"context_id": CTX, "text": "The bridge is broken."})
    assert value["evicted"] == [low]
    assert unit(k, low)["status"] == "EVICTED"
    assert active_ids(k) == {high, mid, value["unit_id"]}
    assert [(e["unit_id"], e["detail"]["reason"]) for e in events(k, kinds=["evicted"])] == [(low, "budget")]
    assert [u["unit_id"] for u in ok(k, "list", {"context_id": CTX, "status": "evicted"})["units"]] == [low]


def test_eviction_skips_pinned_canon_and_immune_units(k: Kernel) -> None:
    create(
        k, budget=3, invariants=[{"id": "imm", "type": "eviction-immunity", "unit_text_pattern": "bridge"}]
    )
    pinned = seed(k, "The king is dead.", rank=100, pinned=True)
    canon = seed(k, "Magic is real.", rank=110)
    immune = seed(k, "The bridge is broken.", rank=120)
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": canon})["request"]["request_id"]
    ok(k, "review", {"request_id": request_id, "decision": "approve"})
    refused(k, "seed", {"context_id": CTX, "text": "Gold is scarce.", "rank": 900}, "awmu_budget_exhausted")
    ok(k, "unpin", {"context_id": CTX, "unit_id": pinned})
    value = ok(k, "seed", {"context_id": CTX, "text": "Gold is scarce."})
    assert value["evicted"] == [pinned]
    assert active_ids(k) == {canon, immune, value["unit_id"]}


def test_budget_full_of_pinned_units_refuses_seed_and_propose(k: Kernel) -> None:
    create(k, budget=2, **NO_TRUST)
    seed(k, "The king is dead.", pinned=True)
    seed(k, "The queen is alive.", pinned=True)
    refused(k, "seed", {"context_id": CTX, "text": "A storm gathers."}, "awmu_budget_exhausted")
    refused(
        k,
        "propose",
        {"context_id": CTX, "text": "A storm gathers.", "source": "system", "confidence": 1.0},
        "awmu_budget_exhausted",
    )


def test_budget_refusal_after_a_demotion_rolls_everything_back(k: Kernel) -> None:
    """The demotion is written before the budget check fails: the whole call must roll back."""
    rule = {"id": "imm", "type": "eviction-immunity", "unit_text_pattern": "king"}
    create(k, budget=2, invariants=[rule], **NO_TRUST)
    king = seed(k, "The king is dead.", rank=700)
    seed(k, "Gold is scarce.", pinned=True)
    verdicts = [{"unit_id": king, "type": "CONTRADICTION", "confidence": 0.7}]
    refused(
        k,
        "propose",
        {
            "context_id": CTX,
            "text": "The queen rules.",
            "source": "dm",
            "confidence": 0.9,
            "verdicts": verdicts,
        },
        "awmu_budget_exhausted",
    )
    assert unit(k, king)["authority"] == "RELIABLE"


def test_active_count_never_exceeds_the_budget(k: Kernel) -> None:
    create(k, budget=3, **NO_TRUST)
    for i, word in enumerate(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]):
        seed(k, f"The {word} is here.", rank=200 + 100 * i)
        assert len(active_ids(k)) <= 3
        propose(k, f"A {word} flies.", "system", 1.0)
        assert len(active_ids(k)) <= 3
    assert ok(k, "pressure", {"context_id": CTX})["utilisation"] == 1.0


# --- assemble, events, validate_summary, pressure ------------------------------------------------


def test_assemble(k: Kernel) -> None:
    create(k)
    assert ok(k, "assemble", {"context_id": CTX})["text"] == ""
    king = seed(k, "The king is dead.", rank=700)
    storm = seed(k, "A storm gathers.", "PROVISIONAL", rank=600)
    gold = seed(k, "Gold is scarce.", "UNRELIABLE", rank=400)
    value = ok(k, "assemble", {"context_id": CTX})
    assert value["text"].split("\n") == [
        "Established facts (working memory):",
        "RELIABLE facts: these MUST be preserved.",
        "1. The king is dead. (activation score: 700)",
        "UNRELIABLE facts: these SHOULD be considered.",
        "1. Gold is scarce. (activation score: 400)",
        "PROVISIONAL facts: these MAY be reconsidered.",
        "1. A storm gathers. (activation score: 600)",
    ]
    assert value["included"] == [king, storm, gold]
    assert (value["dropped"], value["over_budget"], value["token_budget"]) == ([], False, 0)
    assert value["estimated_tokens"] == -(-len(value["text"]) // 4)
    tight = ok(k, "assemble", {"context_id": CTX, "token_budget": value["estimated_tokens"] - 1})
    assert tight["dropped"] == [storm]
    tiny = ok(k, "assemble", {"context_id": CTX, "token_budget": 1})
    assert tiny["dropped"] == [storm, gold, king]
    assert tiny["text"] == "" and tiny["over_budget"] is False
    # assembling writes nothing
    assert events(k, kinds=["compaction_checked"]) == []


def test_events_filters(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.")
    b = seed(k, "A storm gathers.")
    turn(k, [a])
    all_events = events(k)
    assert [(e["seq"], e["index"]) for e in all_events] == sorted((e["seq"], e["index"]) for e in all_events)
    assert {e["kind"] for e in all_events} == {"created", "reinforced", "decayed", "turn"}
    assert [e["kind"] for e in events(k, unit_id=b)] == ["created", "decayed"]
    assert [e["unit_id"] for e in events(k, kinds=["created"])] == [a, b]
    assert len(ok(k, "events", {"context_id": CTX, "limit": 2})["events"]) == 2
    assert events(k, kinds=["no_such_kind"]) == []


def test_events_cursor_pages_by_seq_and_index(k: Kernel) -> None:
    create(k)
    seed(k, "The king is dead.")
    seed(k, "A storm gathers.")
    seed(k, "Gold is scarce.")
    turn(k)  # one call, four events (three decays and the turn)
    everything = events(k)
    keys = [(e["seq"], e["index"]) for e in everything]
    paged: list[tuple[int, int]] = []
    cursor = (0, -1)
    while True:
        page = ok(
            k, "events", {"context_id": CTX, "after_seq": cursor[0], "after_index": cursor[1], "limit": 2}
        )
        if not page["events"]:
            break
        paged.extend((e["seq"], e["index"]) for e in page["events"])
        cursor = paged[-1]
    assert paged == keys
    turn_seq = everything[-1]["seq"]
    assert [e["index"] for e in events(k, after_seq=turn_seq, after_index=1)] == [2, 3]


def test_events_after_seq_excludes_that_seq(k: Kernel) -> None:
    create(k)
    a = seed(k, "The king is dead.")
    seed(k, "A storm gathers.")
    turn(k, [a])
    all_events = events(k)
    after = all_events[1]["seq"]  # the second seed
    assert [e["kind"] for e in events(k, after_seq=after)] == ["reinforced", "decayed", "turn"]


def test_validate_summary(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is not dead.")
    seed(k, "A storm gathers over the mountains.", "UNRELIABLE")  # not protected
    dragon = seed(k, "The dragon sleeps under the mountain.", "PROVISIONAL", pinned=True)
    value = ok(k, "validate_summary", {"context_id": CTX, "summary": "The king lives; a dragon naps."})
    assert (value["ok"], value["protected"], value["strict"]) == (False, 2, False)
    assert value["lost"] == [
        {"unit_id": king, "text": "The king is not dead.", "missing_terms": ["not", "dead"]},
        {
            "unit_id": dragon,
            "text": "The dragon sleeps under the mountain.",
            "missing_terms": ["sleeps", "under", "mountain"],
        },
    ]
    assert ok(
        k, "validate_summary", {"context_id": CTX, "summary": "The king is dead, dragon on the mountain."}
    )["ok"]
    strict = ok(
        k,
        "validate_summary",
        {"context_id": CTX, "summary": "The king is dead, dragon on the mountain.", "strict": True},
    )
    assert [(loss["unit_id"], loss["missing_terms"]) for loss in strict["lost"]] == [
        (king, ["not"]),
        (dragon, ["sleeps", "under"]),
    ]
    checked = events(k, kinds=["compaction_checked"])
    assert [(e["detail"]["lost"], e["detail"]["strict"]) for e in checked] == [
        (2, False),
        (0, False),
        (2, True),
    ]
    assert ok(k, "pressure", {"context_id": CTX})["window"]["compactions"] == 3


def test_pressure(k: Kernel) -> None:
    create(k, budget=4)
    empty = ok(k, "pressure", {"context_id": CTX})
    assert (empty["score"], empty["active"], empty["budget"]) == (0.0, 0, 4)
    seed(k, "The bridge is intact.", "UNRELIABLE")
    assert propose(k, "The bridge is not intact.", "system", 1.0)["outcome"] == "promoted"  # one conflict
    seed(k, "Gold is scarce.")
    value = ok(k, "pressure", {"context_id": CTX})
    assert value["window"] == {"conflicts": 1, "demotions": 0, "compactions": 0}
    assert value["active"] == 2
    assert value["utilisation"] == pytest.approx(0.5**1.5)
    assert value["score"] == pytest.approx(0.4 * 0.5**1.5 + 0.3 * 1 / 5)
    for _ in range(4):
        turn(k, sorted(active_ids(k)))
    assert ok(k, "pressure", {"context_id": CTX})["window"]["conflicts"] == 1
    turn(k, sorted(active_ids(k)))
    later = ok(k, "pressure", {"context_id": CTX})
    assert later["window"]["conflicts"] == 0  # out of the five-turn window
    assert later["score"] == pytest.approx(0.4 * 0.5**1.5)


def test_refused_calls_are_journaled_and_replay(k: Kernel) -> None:
    create(k)
    seed(k, "The king is dead.")
    before = snapshot(k)
    results = [
        k.call("memory.awmu.archive", {"context_id": CTX, "unit_id": "u9-9"}, principal=OPERATOR),
        k.call(
            "memory.awmu.seed", {"context_id": CTX, "text": "?!", "authority": "RELIABLE"}, principal=OPERATOR
        ),
        k.call("memory.awmu.create", {"context_id": CTX}, principal=AGENT),
    ]
    assert [r.error.code for r in results] == [
        "awmu_unit_not_found",
        "awmu_invalid_text",
        "awmu_context_exists",
    ]
    assert [r.seq for r in results] == [results[0].seq, results[0].seq + 1, results[0].seq + 2]
    assert snapshot(k) == before


def test_verdict_on_canon_is_kept(k: Kernel) -> None:
    create(k, **NO_TRUST)
    king = seed(k, "The king is dead.", rank=300)
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": king})["request"]["request_id"]
    ok(k, "review", {"request_id": request_id, "decision": "approve"})
    for kind in ("CONTRADICTION", "REVISION"):
        verdict = {"unit_id": king, "type": kind, "confidence": 1.0}
        assert propose(k, "The queen rules.", "system", 1.0, [verdict])["outcome"] == "rejected_conflict"
    assert propose(k, "The king is not dead.", "system", 1.0)["outcome"] == "rejected_conflict"  # lexical
    u = unit(k, king)
    assert (u["status"], u["authority"]) == ("ACTIVE", "CANON")


def test_min_authority_count_must_blocks_one_of_two_demotions(k: Kernel) -> None:
    rule = {"id": "one-king", "type": "min-authority-count", "unit_text_pattern": "king", "minimum_count": 1}
    create(k, invariants=[rule], **NO_TRUST)
    first = seed(k, "The king is dead.")
    second = seed(k, "The king had a son.")
    verdicts = [{"unit_id": u, "type": "CONTRADICTION", "confidence": 0.7} for u in (first, second)]
    value = propose(k, "The queen rules.", "dm", 0.9, verdicts)
    assert value["outcome"] == "promoted"
    assert value["demoted"] == [first]
    assert (unit(k, first)["authority"], unit(k, second)["authority"]) == ("UNRELIABLE", "RELIABLE")


def test_min_authority_count_must_holds_when_one_proposal_supersedes_two_units(k: Kernel) -> None:
    rule = {"id": "one-king", "type": "min-authority-count", "unit_text_pattern": "king", "minimum_count": 1}
    create(k, invariants=[rule], **NO_TRUST)
    first = seed(k, "The king is dead.")
    second = seed(k, "The king had a son.")
    verdicts = [{"unit_id": u, "type": "CONTRADICTION", "confidence": 0.9} for u in (first, second)]
    propose(k, "The queen rules.", "dm", 0.9, verdicts)
    still = [unit(k, u) for u in (first, second)]
    assert any(u["status"] == "ACTIVE" and u["authority"] == "RELIABLE" for u in still)
    blocked = {e["unit_id"] for e in events(k, kinds=["invariant_blocked"])}
    superseded = {e["unit_id"] for e in events(k, kinds=["superseded"])}
    assert not blocked & superseded


@pytest.mark.parametrize(
    ("switches", "rank", "authority"),
    [
        ({"lifecycle_enabled": False}, 500, "PROVISIONAL"),
        ({"rank_enabled": False}, 500, "UNRELIABLE"),
        ({"promotion_enabled": False}, 650, "PROVISIONAL"),
    ],
)
def test_ablation_switches(k: Kernel, switches: dict[str, bool], rank: int, authority: str) -> None:
    create(k, **switches)
    a = seed(k, "The king is dead.", "PROVISIONAL", rank=500)
    b = seed(k, "A storm gathers.", "PROVISIONAL", rank=500)
    for _ in range(3):
        turn(k, [a])
    assert (unit(k, a)["rank"], unit(k, a)["authority"]) == (rank, authority)
    assert unit(k, a)["reinforcement_count"] == 3
    decays = switches.get("lifecycle_enabled", True) and switches.get("rank_enabled", True)
    assert (unit(k, b)["rank"] < 500) is decays


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("seed", {"text": "Gold is scarce."}),
        ("pin", {"unit_id": "KING"}),
        ("unpin", {"unit_id": "KING"}),
        ("archive", {"unit_id": "KING"}),
    ],
)
def test_operator_only_calls_refuse_other_principals(k: Kernel, name: str, args: dict[str, Any]) -> None:
    create(k)
    king = seed(k, "The king is dead.")
    args = {"context_id": CTX, **{key: king if value == "KING" else value for key, value in args.items()}}
    for principal in (AGENT, "user:operator", "operators:x", "player:bob"):
        refused(k, name, args, "memory_policy_denied", principal)
    ok(k, name, args, "admin:root")


def test_operators_are_configurable(k: Kernel) -> None:
    create(k, operators=["agent:dm"])
    king = ok(k, "seed", {"context_id": CTX, "text": "The king is dead."}, AGENT)["unit_id"]
    refused(k, "pin", {"context_id": CTX, "unit_id": king}, "memory_policy_denied", "player:bob")
    # format 2: the patterns add operators; the owner (the operator that created the context) and the
    # built-in administrators operate whatever they say (format 1: test_context_access.py)
    ok(k, "pin", {"context_id": CTX, "unit_id": king}, OPERATOR)
    ok(k, "unpin", {"context_id": CTX, "unit_id": king}, OPERATOR)
    ok(k, "pin", {"context_id": CTX, "unit_id": king}, AGENT)
    # reviewing stays with the canonizers
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": king}, AGENT)["request"]["request_id"]
    refused(k, "review", {"request_id": request_id, "decision": "approve"}, "memory_policy_denied", AGENT)
    assert (
        ok(k, "review", {"request_id": request_id, "decision": "approve"}, OPERATOR)["unit"]["pinned"] is True
    )

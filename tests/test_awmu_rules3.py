"""Rules 3 through ``Kernel.call``: revision as an outcome, entrenchment that follows provenance, and a
queue decided by declared rules and shown with its reasons.

Sentences are the tests' own, in domains the scenario files do not use (a library's loans, a shipping
desk, lab equipment). Every kernel is verified at the end by a replay: a rules-3 journal verifies byte for
byte, and a rules-2 context keeps rules 2's answers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from strategies import VOUCHED

from journal.reader import JournalReader
from journal.store import ManualClock
from kernel.dispatcher import Kernel
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:assistant"
OPERATOR = "operator:alice"
CTX = "desk"

LOANS = "Library loans of reference books last 7 days"
LOANS_NOW = "Library loans of reference books now last 14 days"
LOANS_NOW_21 = "Library loans of reference books now last 21 days"
HOURS = "The branch library on Elm Street closes at 6 pm on weekdays"
HOURS_NOW = "The branch library on Elm Street closes at 8 pm on weekdays from now on"
SAILING = "Container MSKU 4412 sails from Rotterdam on 12 March"
SAILING_MOVED = "Container MSKU 4412 has been moved to the sailing on 19 March"
FREEZER = "The freezer in bay 3 holds samples at minus 80 degrees"
FREEZER_OTHER = "The freezer in bay 3 holds samples at minus 70 degrees"


class TableEncoder:
    """A stand-in encoder: a similarity for named pairs of texts, 0 for the rest."""

    def __init__(self, pairs: dict[tuple[str, str], float]) -> None:
        self._pairs = {frozenset(pair): score for pair, score in pairs.items()}

    @property
    def name(self) -> str:
        return "table"

    @property
    def version(self) -> str:
        return "test-1"

    def similarities(self, query: str, texts: Sequence[str]) -> list[float]:
        return [self._pairs.get(frozenset((query, text)), 0.0) for text in texts]


def _open(encoder: TableEncoder | None = None) -> Kernel:
    services = default_services()
    bound = KernelServiceRegistry(
        memory_service=services.memory_service,
        working_memory_service=services.working_memory_service,
        semantic_encoder=encoder,
    )
    kernel = open_kernel(
        ":memory:",
        clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1)),
        services=bound,
        identity=VOUCHED,
    )
    for capability in ("read", "write"):
        granted = kernel.call(
            "access.grant", {"principal": AGENT, "capability": capability, "scope": "*"}, principal=OPERATOR
        )
        assert granted.ok, granted.to_dict()
    return kernel


def _verified(kernel: Kernel) -> None:
    report = verify_journal(JournalReader(kernel.store.engine), table=SYSCALL_TABLE)
    assert report.verified, report.to_json()


@pytest.fixture
def k() -> Iterator[Kernel]:
    kernel = _open()
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


def call(k: Kernel, name: str, args: dict[str, Any], principal: str | None = None) -> dict[str, Any]:
    chosen = principal or (OPERATOR if name == "create" else AGENT)
    if name == "create":  # these are rules 3's tests: rules 4 binds the source (test_origin_binding.py)
        args = {"rules": 3, **args}
    result = k.call(f"memory.awmu.{name}", {"context_id": CTX, **args}, principal=chosen)
    assert result.ok, result.to_dict()
    return msgspec.json.decode(msgspec.json.encode(result.value))


def seed(k: Kernel, text: str, authority: str = "RELIABLE") -> str:
    unit_id: str = call(k, "seed", {"text": text, "authority": authority}, OPERATOR)["unit_id"]
    return unit_id


def say(k: Kernel, text: str, source: str = "user:dana", principal: str | None = None) -> dict[str, Any]:
    return call(k, "propose", {"text": text, "source": source, "confidence": 0.8}, principal)


def unit(k: Kernel, unit_id: str) -> dict[str, Any]:
    found: dict[str, Any] = call(k, "get", {"unit_id": unit_id})["unit"]
    return found


def events(k: Kernel, kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = call(k, "events", {"kinds": [kind], "limit": 1000})["events"]
    return found


def test_a_new_context_lives_under_rules_6_and_7_is_refused(k: Kernel) -> None:
    assert call(k, "create", {})["rules"] == 3
    latest = k.call("memory.awmu.create", {"context_id": "latest"}, principal=OPERATOR)
    assert latest.ok and latest.value["rules"] == 6
    bad = k.call("memory.awmu.create", {"context_id": "other", "rules": 7}, principal=OPERATOR)
    assert bad.error is not None and bad.error.code == "awmu_invalid_config"
    assert "[1, 2, 3, 4, 5, 6]" in bad.error.detail


def test_its_own_source_revises_a_learned_fact_and_the_old_one_retires_with_its_successor(k: Kernel) -> None:
    call(k, "create", {})
    old = say(k, LOANS)["unit_id"]
    revised = say(k, LOANS_NOW)
    assert revised["outcome"] == "promoted" and revised["superseded"] == [old]
    assert revised["conflicts"][0]["type"] == "REVISION"
    assert revised["conflicts"][0]["reason"] == "source"
    new = revised["unit_id"]
    retired = unit(k, old)  # history keeps it, linked to its successor
    assert retired["status"] == "SUPERSEDED" and retired["superseded_by"] == new
    assert unit(k, new)["supersedes"] == [old]
    (event,) = [e for e in events(k, "superseded") if e["unit_id"] == old]
    assert event["detail"] == {
        "superseded_by": new,
        "successor_seq": unit(k, new)["created_seq"],
        "successor_source": "user:dana",
    }
    block = call(k, "assemble", {})
    assert old not in block["included"] and new in block["included"]
    assert LOANS not in block["text"]
    assert [u["unit_id"] for u in call(k, "list", {"status": "superseded"})["units"]] == [old]


def test_another_sources_update_of_a_learned_fact_waits_with_its_reason(k: Kernel) -> None:
    call(k, "create", {})
    old = say(k, HOURS)["unit_id"]
    queued = say(k, HOURS_NOW, source="user:eli")
    assert queued["outcome"] == "queued_for_review"
    assert queued["reasons"] == ["not_a_reviser"]
    assert queued["conflicts"][0]["resolution"] == "QUEUE"
    assert unit(k, old)["status"] == "ACTIVE"
    listed = call(k, "list", {})
    assert listed["waiting"] == [
        {
            "review_id": queued["review_id"],
            "source": "user:eli",
            "text": HOURS_NOW,
            "contests": [old],
            "reasons": ["not_a_reviser"],
        }
    ]
    assert listed["review_queue"][0]["verdicts"][0]["reason"] == "not_a_reviser"
    block = call(k, "assemble", {})
    assert block["waiting"] == [
        {
            "review_id": queued["review_id"],
            "source": "user:eli",
            "contests": [old],
            "reasons": ["not_a_reviser"],
        }
    ]
    line = next(line for line in block["text"].splitlines() if HOURS in line)
    assert f"[contested: waiting for a decision: {queued['review_id']} (not_a_reviser)]" in line
    assert HOURS_NOW not in block["text"]  # the waiting statement itself never enters the block


def test_another_sources_contradiction_of_a_learned_fact_is_kept_out(k: Kernel) -> None:
    call(k, "create", {})
    old = say(k, FREEZER, source="tool:monitor")
    result = say(k, FREEZER_OTHER)
    assert result["outcome"] == "queued_for_review" and result["reasons"] == ["contradiction"]
    assert call(k, "assemble", {})["included"] == [old["unit_id"]]


def test_another_sources_claim_by_meaning_on_a_learned_fact_stands_beside_it_disputed() -> None:
    learned = "Interlibrary loans are couriered from the county depot"
    claim = "The county depot stopped handling interlibrary parcels"
    trusted = "Rare maps are viewed only in the reading room"
    rumour = "Rare maps may be borrowed over the weekend by members"
    kernel = _open(TableEncoder({(learned, claim): 0.62, (trusted, rumour): 0.6}))
    try:
        call(kernel, "create", {})
        fact = say(kernel, learned)["unit_id"]
        other = say(kernel, claim, source="document:newsletter")
        assert other["outcome"] == "promoted" and other["superseded"] == []
        assert other["conflicts"][0]["reason"] == "claim"
        assert other["conflicts"][0]["resolution"] == "COEXIST"
        assert other["conflicts"][0]["evidence"]["learned"] is True
        lines = call(kernel, "assemble", {})["text"].splitlines()
        (line,) = [line for line in lines if learned in line]
        assert line.endswith(f"[contested: disputed by {other['unit_id']} (claim)]")
        (line,) = [line for line in lines if claim in line]
        assert line.endswith(f"[contested: disputes {fact} (claim)]")
        seed(kernel, trusted)  # a claim on a trusted fact still waits
        assert say(kernel, rumour, source="document:newsletter")["reasons"] == ["claim"]
        call(kernel, "archive", {"unit_id": other["unit_id"]}, OPERATOR)
        assert "disputed" not in call(kernel, "assemble", {})["text"]  # a dispute ends with either side
        _verified(kernel)
    finally:
        kernel.close()


def test_a_user_update_of_an_operator_fact_waits_until_the_operators_own_update_decides_it(k: Kernel) -> None:
    call(k, "create", {})
    fact = seed(k, SAILING)
    queued = say(k, SAILING_MOVED)
    assert queued["outcome"] == "queued_for_review" and queued["reasons"] == ["not_a_reviser"]
    assert unit(k, fact)["status"] == "ACTIVE"
    update = "Container MSKU 4412 has been moved to the sailing on 26 March"
    revised = say(k, update, source="operator")  # the source that established it
    assert revised["outcome"] == "promoted" and revised["superseded"] == [fact]
    assert revised["conflicts"][0]["reason"] == "source"
    assert revised["unit"]["authority"] == "RELIABLE"  # its own update keeps its entrenchment
    assert revised["settled"] == [queued["review_id"]]
    assert call(k, "list", {})["waiting"] == []
    (decided,) = [e for e in events(k, "review_decided") if e["detail"]["review_id"] == queued["review_id"]]
    assert decided["detail"]["status"] == "REJECTED"


def test_an_operator_revises_any_fact_it_may_operate_on(k: Kernel) -> None:
    call(k, "create", {})
    fact = say(k, LOANS, source="tool:catalogue")["unit_id"]
    revised = say(k, LOANS_NOW, source="desk", principal=OPERATOR)
    assert revised["superseded"] == [fact] and revised["conflicts"][0]["reason"] == "operator"


def test_a_channel_the_policy_trusts_for_the_tier_revises_a_reliable_fact(k: Kernel) -> None:
    call(k, "create", {"config": {"source_authorities": {"registrar": 0.85, "player": 0.3}}})
    fact = seed(k, HOURS)
    revised = say(k, HOURS_NOW, source="registrar")
    assert revised["superseded"] == [fact] and revised["conflicts"][0]["reason"] == "channel"
    assert revised["unit"]["authority"] == "PROVISIONAL"  # a channel's update earns no inherited authority
    learned = say(k, LOANS, source="player")["unit_id"]
    assert say(k, LOANS_NOW_21, source="registrar")["superseded"] == [learned]  # 0.85 >= 0.8
    assert say(k, LOANS, source="player")["outcome"] == "queued_for_review"  # 0.3: not its fact


def test_an_independent_source_corroborates_an_update_that_one_source_could_not_make(k: Kernel) -> None:
    call(k, "create", {})
    fact = say(k, LOANS, source="tool:catalogue")["unit_id"]
    first = say(k, LOANS_NOW, source="user:dana")
    assert first["outcome"] == "queued_for_review"
    second = say(k, LOANS_NOW, source="user:eli")
    assert second["outcome"] == "promoted" and second["superseded"] == [fact]
    assert second["conflicts"][0]["reason"] == "corroborated"
    assert call(k, "list", {})["waiting"] == []  # the first copy was decided by the entry


def test_a_pinned_fact_is_revised_by_no_statement(k: Kernel) -> None:
    call(k, "create", {})
    fact = call(k, "seed", {"text": SAILING, "pinned": True}, OPERATOR)["unit_id"]
    result = say(k, SAILING_MOVED, source="operator")
    assert result["outcome"] == "rejected_conflict" and result["conflicts"][0]["reason"] == "protected"
    assert unit(k, fact)["status"] == "ACTIVE"


def test_world_progression_coexists(k: Kernel) -> None:
    call(k, "create", {})
    fact = say(k, LOANS, source="tool:catalogue")["unit_id"]
    verdict = {"unit_id": fact, "type": "WORLD_PROGRESSION", "confidence": 0.9, "detector": "judge"}
    result = call(
        k, "propose", {"text": LOANS_NOW, "source": "user:eli", "confidence": 0.8, "verdicts": [verdict]}
    )
    assert result["outcome"] == "promoted" and result["superseded"] == []
    assert result["conflicts"][0]["reason"] == "progression"
    assert unit(k, fact)["status"] == "ACTIVE"


def test_a_rules_2_context_keeps_rules_2_answers(k: Kernel) -> None:
    call(k, "create", {"rules": 2})
    say(k, LOANS)
    result = say(k, LOANS_NOW)  # rules 2: one source's word displaces nothing, not even its own fact
    assert result["outcome"] == "queued_for_review"
    assert "reasons" not in result and "reason" not in result["conflicts"][0]
    assert "waiting" not in call(k, "list", {}) and "waiting" not in call(k, "assemble", {})


def test_an_operators_approval_decides_what_else_contested_the_fact(k: Kernel) -> None:
    call(k, "create", {})
    fact = seed(k, HOURS)
    first = say(k, HOURS_NOW)
    later = say(k, "The branch library on Elm Street closes at 9 pm on weekdays from now on", "user:eli")
    assert {first["outcome"], later["outcome"]} == {"queued_for_review"}
    approved = k.call(
        "memory.awmu.review", {"request_id": first["review_id"], "decision": "approve"}, principal=OPERATOR
    )
    assert approved.ok, approved.to_dict()
    assert approved.value["superseded"] == [fact]
    assert approved.value["settled"] == [later["review_id"]]
    assert call(k, "list", {})["waiting"] == []


def test_a_source_the_context_distrusts_does_not_revise_even_its_own_fact_alone(k: Kernel) -> None:
    """Entrenchment: a channel the context rates below its default source authority (here ``player``,
    0.3 in the default table) may not rewrite a fact on its own say-so, not even a fact it taught; the
    update waits for corroboration or an operator, and the fact stays in the block."""
    call(k, "create", {})
    old = say(k, HOURS, source="player")["unit_id"]
    update = say(k, HOURS_NOW, source="player")
    assert update["outcome"] == "queued_for_review" and "superseded" not in update
    assert update["conflicts"][0]["reason"] == "not_a_reviser"
    assert unit(k, old)["status"] == "ACTIVE"
    trusted = say(k, LOANS, source="user:dana")["unit_id"]  # default authority 0.5: its own fact, revised
    assert say(k, LOANS_NOW, source="user:dana")["superseded"] == [trusted]

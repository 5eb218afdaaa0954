"""The Sybil bound of the working memory, as a property (issue 53, point 5).

An attacker holds k principals (k from 1 to 10), each granted read and write on an operator's context and
none an approval (none canonizes, reviews or operates). Whatever the attacker does, in any order and as often
as it likes — propose (with caller verdicts against any unit), restate, reinforce through turns, ask for
canonization, reopen requests, try to review — it never:

- brings a unit that only its principals stated above PROVISIONAL,
- displaces one of the operator's RELIABLE or CANON facts (superseded, archived, evicted or demoted),
- decides a queued item or a canonization request (approved by corroborating itself, or otherwise).

Hypothesis draws the schedules; the sentences are a payments desk and an aircraft's maintenance log, written
for this test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from strategies import VOUCHED

from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

CONTEXT = "payments-desk"
OPERATOR = "operator:treasury"
RELIABLE_FACTS = (
    "The payee account for Acme Supplies is 4471-2290.",
    "The aircraft's left engine was overhauled in March.",
)
CANON_FACT = "Flight 212 departs from gate B7."
ATTACKS = (
    "Update: the payee account for Acme Supplies is now 9902-1187.",
    "The payee account for Acme Supplies is not 4471-2290.",
    "Acme Supplies changed its payee account to 9902-1187 last week.",
    "Correction: flight 212 departs from gate C3.",
    "Flight 212 no longer departs from gate B7.",
    "The aircraft's left engine was never overhauled.",
    "The left engine's overhaul was cancelled.",
    "The hangar door code is 5521.",
    "Payments to Acme Supplies go to account 9902-1187 from now on.",
    "The right engine needs a new fan blade.",
    "Acme Supplies' payee account number is 4471-2290.",  # a restatement of a fact: harmless
    "Flight 212 departs from gate B7.",
)
VERDICT_TYPES = ("CONTRADICTION", "REVISION", "WORLD_PROGRESSION")
LOWER_THAN = {"RELIABLE": ("PROVISIONAL", "UNRELIABLE"), "CANON": ("PROVISIONAL", "UNRELIABLE", "RELIABLE")}


class SybilAttack(RuleBasedStateMachine):
    """An operator's context, its facts seeded (two RELIABLE, one made CANON by the operator's own review);
    then only the attacker's principals act, but for the turns that let time pass."""

    def __init__(self) -> None:
        super().__init__()
        self.kernel = open_kernel(":memory:", identity=VOUCHED, create=True)
        self.attackers: list[str] = []
        self.facts: dict[str, str] = {}  # unit id -> the authority the operator gave it
        self.unit_ids: list[str] = []
        self.request_ids: list[str] = []

    def _call(self, name: str, args: dict[str, Any], principal: str) -> Any:
        result = self.kernel.call(name, args, principal=principal)
        assert result.ok or result.error is not None, result  # a refusal is data, never an exception
        return result

    def _operator(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = self._call(name, args, OPERATOR)
        assert result.ok, result
        return dict(result.value)

    @initialize(k=st.integers(1, 10))
    def set_up(self, k: int) -> None:
        self._operator("memory.awmu.create", {"context_id": CONTEXT, "config": {}})
        self.attackers = [f"user:mallory-{index}" for index in range(k)]
        for principal in self.attackers:
            for capability in ("read", "write"):
                grant = {"principal": principal, "capability": capability, "scope": f"context:{CONTEXT}"}
                self._operator("access.grant", grant)
        for text in (*RELIABLE_FACTS, CANON_FACT):
            seeded = self._operator("memory.awmu.seed", {"context_id": CONTEXT, "text": text})
            self.facts[seeded["unit"]["unit_id"]] = "RELIABLE"
        canon = next(unit for unit, _ in reversed(self.facts.items()))
        request = self._operator("memory.awmu.canonize", {"context_id": CONTEXT, "unit_id": canon})
        approved = {"request_id": request["request"]["request_id"], "decision": "approve"}
        self._operator("memory.awmu.review", approved)
        self.facts[canon] = "CANON"
        self.unit_ids = list(self.facts)

    def _attacker(self, data: st.DataObject) -> str:
        return data.draw(st.sampled_from(self.attackers), label="attacker")

    def _some_units(self, data: st.DataObject, most: int) -> list[str]:
        return data.draw(st.lists(st.sampled_from(self.unit_ids), max_size=most), label="units")

    @rule(data=st.data(), text=st.sampled_from(ATTACKS), confidence=st.sampled_from([0.6, 0.9, 1.0]))
    def propose(self, data: st.DataObject, text: str, confidence: float) -> None:
        verdicts = [
            {"unit_id": unit, "type": data.draw(st.sampled_from(VERDICT_TYPES)), "confidence": 1.0}
            for unit in self._some_units(data, 2)
        ]
        args = {"context_id": CONTEXT, "text": text, "confidence": confidence, "verdicts": verdicts}
        result = self._call("memory.awmu.propose", args, self._attacker(data))
        if result.ok:
            if result.value.get("unit"):
                self.unit_ids.append(result.value["unit"]["unit_id"])
            if result.value.get("review_id"):
                self.request_ids.append(result.value["review_id"])

    @rule(data=st.data())
    def reinforce(self, data: st.DataObject) -> None:
        args = {"context_id": CONTEXT, "reinforce": self._some_units(data, 5)}
        self._call("memory.awmu.turn", args, self._attacker(data))

    @rule(data=st.data())
    def ask_for_canon(self, data: st.DataObject) -> None:
        unit = data.draw(st.sampled_from(self.unit_ids))
        result = self._call(
            "memory.awmu.canonize", {"context_id": CONTEXT, "unit_id": unit}, self._attacker(data)
        )
        if result.ok:
            self.request_ids.append(result.value["request"]["request_id"])

    @rule(data=st.data(), decision=st.sampled_from(["approve", "reject"]))
    def try_to_review(self, data: st.DataObject, decision: str) -> None:
        if not self.request_ids:
            return
        request = data.draw(st.sampled_from(self.request_ids))
        args = {"request_id": request, "decision": decision}
        refused = self._call("memory.awmu.review", args, self._attacker(data))
        assert not refused.ok, refused.value

    @rule(data=st.data())
    def reopen(self, data: st.DataObject) -> None:
        if self.request_ids:
            request = data.draw(st.sampled_from(self.request_ids))
            self._call("memory.awmu.reopen_request", {"request_id": request}, self._attacker(data))

    @rule(turns=st.integers(1, 3))
    def time_passes(self, turns: int) -> None:
        for _ in range(turns):
            self._operator("memory.awmu.turn", {"context_id": CONTEXT})

    @invariant()
    def the_bound_holds(self) -> None:
        if not self.facts:
            return
        listed = self._operator("memory.awmu.list", {"context_id": CONTEXT, "status": "all"})
        attackers = set(self.attackers)
        for unit in listed["units"]:
            if unit["unit_id"] in self.facts:
                authority = self.facts[unit["unit_id"]]
                assert unit["status"] == "ACTIVE", unit
                assert unit["authority"] not in LOWER_THAN[authority], unit
            elif unit["status"] == "ACTIVE" and set(unit["source_ids"]) <= attackers:
                assert unit["authority"] == "PROVISIONAL", unit
        kinds = ["review_decided", "canon_decided"]
        events = self._operator("memory.awmu.events", {"context_id": CONTEXT, "kinds": kinds, "limit": 1000})
        decided = [event for event in events["events"] if event["detail"]["status"] != "REJECTED"]
        assert decided[1:] == [], decided  # the operator's own canonization of its fact is the one approval

    def teardown(self) -> None:
        self.kernel.close()


TestSybilBound = SybilAttack.TestCase


# --- the two findings the property made, and what declared channels keep -------------------------------

CLAIM = "The hangar door code is 5521."
CHANGED = "The hangar door code is 7788."


def _context(kernel: Kernel, speakers: tuple[str, ...], **create: Any) -> None:
    args = {"context_id": CONTEXT, "config": create.pop("config", {}), **create}
    assert kernel.call("memory.awmu.create", args, principal=OPERATOR).ok
    for principal in speakers:
        for capability in ("read", "write"):
            grant = {"principal": principal, "capability": capability, "scope": f"context:{CONTEXT}"}
            assert kernel.call("access.grant", grant, principal=OPERATOR).ok


def _say(kernel: Kernel, principal: str, text: str) -> dict[str, Any]:
    args = {"context_id": CONTEXT, "text": text, "confidence": 1.0}
    said = kernel.call("memory.awmu.propose", args, principal=principal)
    assert said.ok, said
    return dict(said.value)


def _unit(kernel: Kernel, unit_id: str) -> dict[str, Any]:
    got = kernel.call("memory.awmu.get", {"context_id": CONTEXT, "unit_id": unit_id}, principal=OPERATOR)
    return dict(got.value["unit"])


def _approved(kernel: Kernel) -> list[str]:
    args = {"context_id": CONTEXT, "kinds": ["review_decided"]}
    events = kernel.call("memory.awmu.events", args, principal=OPERATOR).value["events"]
    return [event["detail"]["review_id"] for event in events if event["detail"]["status"] == "APPROVED"]


@pytest.mark.parametrize(("rules", "reached"), [(4, "UNRELIABLE"), (5, "PROVISIONAL")])
def test_a_principal_of_its_own_reinforces_its_statement_no_higher_than_provisional(
    kernel_factory: Callable[..., Kernel], rules: int, reached: str
) -> None:
    """Rules 4 let one principal lift its own claim to UNRELIABLE by naming it in three turns of its own
    (kept as it was, for its journals); from rules 5 a statement from an undeclared source stays
    PROVISIONAL, whatever reinforces it."""
    kernel = kernel_factory()
    _context(kernel, ("user:mallory",), rules=rules)
    unit = _say(kernel, "user:mallory", CLAIM)["unit"]["unit_id"]
    for _ in range(3):
        turn = {"context_id": CONTEXT, "reinforce": [unit]}
        assert kernel.call("memory.awmu.turn", turn, principal="user:mallory").ok
    assert _unit(kernel, unit)["authority"] == reached


@pytest.mark.parametrize("rules", [4, 5])
def test_principals_of_their_own_do_not_corroborate_one_another(
    kernel_factory: Callable[..., Kernel], rules: int
) -> None:
    """A learned fact, then one attacker's change of it, which waits. Under rules 4 a second principal of
    the same attacker saying it again was an independent source: the change was approved
    (``rules:corroborated``) and displaced the fact. From rules 5 it still waits, and the fact stands."""
    kernel = kernel_factory()
    _context(kernel, ("user:owner", "user:mallory-1", "user:mallory-2"), rules=rules)
    fact = _say(kernel, "user:owner", CLAIM)["unit"]["unit_id"]
    waiting = _say(kernel, "user:mallory-1", CHANGED)
    assert waiting["outcome"] == "queued_for_review", waiting
    again = _say(kernel, "user:mallory-2", CHANGED)
    if rules == 4:
        assert again["outcome"] == "promoted" and _approved(kernel) == [waiting["review_id"]], again
        assert _unit(kernel, fact)["status"] == "SUPERSEDED"
    else:
        assert again["outcome"] == "queued_for_review" and _approved(kernel) == [], again
        assert _unit(kernel, fact)["status"] == "ACTIVE"


def test_declared_channels_still_corroborate_and_learn(kernel_factory: Callable[..., Kernel]) -> None:
    """The other side, the same schedule: channels the deployment declared are independent sources, so
    the change two of them agree on is approved and replaces the fact; and what a declared channel said
    rises with reinforcement."""
    kernel = kernel_factory()
    channels = {"agent:owner": "owner", "agent:desk": "desk", "agent:log": "log"}
    _context(kernel, tuple(channels), config={"channels": channels})
    fact = _say(kernel, "agent:owner", CLAIM)["unit"]["unit_id"]
    waiting = _say(kernel, "agent:desk", CHANGED)
    assert waiting["outcome"] == "queued_for_review", waiting
    learned = _say(kernel, "agent:log", CHANGED)
    assert learned["outcome"] == "promoted" and _approved(kernel) == [waiting["review_id"]], learned
    assert _unit(kernel, fact)["status"] == "SUPERSEDED"
    for _ in range(3):
        turn = {"context_id": CONTEXT, "reinforce": [learned["unit_id"]]}
        assert kernel.call("memory.awmu.turn", turn, principal="agent:desk").ok
    assert _unit(kernel, learned["unit_id"])["authority"] == "UNRELIABLE"

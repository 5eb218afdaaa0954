"""Runs a scenario through the kernel in offline, deterministic mode, one journal per condition.

Offline substitutes for what a model does in ARC-Mem (each stated in specs/scenarios.md):
- a player turn is a proposal from source ``player`` with the turn's confidence (default 0.8);
- an attack turn (``targetFact``) carries a CONTRADICTION verdict (0.9, detector ``scenario``) against
  the units stating the targeted fact: the script's annotation plays the semantic detector;
- a fact with ``establishedAt`` and no seed stating it is narrated by the game master at that turn
  (source ``dm``, confidence 0.9); so is a fact without ``establishedAt`` at the first non-attack
  player turn whose prompt states it (a briefing the game master acknowledges); narration waiting
  in the review queue is approved by the scenario's operator, player statements never are;
- a fact is judged from the turn it is established (seeded facts: from the start; facts never
  established: from the start too, and they count as lost);
- the units a turn mentions (two shared key terms) are reinforced, except those it attacks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from arvis.scenario.conditions import CONDITIONS, Condition, ConditionPlan
from arvis.scenario.judge import BlockUnit, judge, mentions, states
from arvis.scenario.outcome import AttackRecord, RunRecord, TurnRecord, evaluate_assertions, metrics
from arvis.scenario.schema import Scenario
from journal.reader import JournalReader
from journal.replay import verify_journal
from kernel.boot import open_kernel
from kernel.clock import ManualClock
from kernel.dispatcher import Kernel
from syscalls.table import SYSCALL_TABLE

__all__ = ["OPERATOR", "RunResult", "ScenarioError", "run_scenario", "set_up_context"]

START = datetime(2026, 1, 1, tzinfo=UTC)
AGENT = "agent:scenario"
OPERATOR = "operator:scenario"
REVIEWER = "admin:scenario-review"
ATTACK_CONFIDENCE = 0.9
NARRATION_CONFIDENCE = 0.9


class ScenarioError(Exception):
    """A syscall the runner depends on failed: the run cannot go on."""


@dataclass(frozen=True)
class RunResult:
    condition: str
    metrics: dict[str, Any]
    assertions: list[dict[str, Any]]
    journal: str
    replay_verified: bool
    entries: int
    turns: list[dict[str, Any]]
    attacks: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "condition": self.condition,
            "metrics": self.metrics,
            "assertions": self.assertions,
            "journal": self.journal,
            "replay_verified": self.replay_verified,
            "entries": self.entries,
            "turns": self.turns,
            "attacks": self.attacks,
        }


class _Run:
    def __init__(self, kernel: Kernel, scenario: Scenario, condition: Condition) -> None:
        self.kernel = kernel
        self.scenario = scenario
        self.plan = CONDITIONS[condition]
        self.context = scenario.id[:128] or "scenario"
        self.attacks_on: dict[str, str] = {}  # unit id -> fact id it attacks
        self.established: dict[str, int] = {}  # fact id -> the turn it entered the conversation
        self.record = RunRecord()

    def call(self, syscall: str, args: dict[str, Any], principal: str = AGENT) -> dict[str, Any]:
        result = self.kernel.call(syscall, {"context_id": self.context, **args}, principal=principal)
        if not result.ok:
            assert result.error is not None
            raise ScenarioError(f"{syscall} failed: {result.error.code}: {result.error.detail}")
        value: dict[str, Any] = result.value
        return value

    def active(self) -> list[dict[str, Any]]:
        units: list[dict[str, Any]] = self.call("memory.awmu.list", {})["units"]
        return units

    def setup(self) -> None:
        set_up_context(self.scenario, self.plan, self.call, self.review_seed)

    def review_seed(self, request_id: str, note: str) -> None:
        decided = self.kernel.call(
            "memory.awmu.review",
            {"request_id": request_id, "decision": "approve", "note": note},
            principal=REVIEWER,
        )
        if not decided.ok:
            assert decided.error is not None
            raise ScenarioError(f"canonization of a seed failed: {decided.error.code}")

    def stating(self, fact_text: str, fact_id: str, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            u for u in units if self.attacks_on.get(u["unit_id"]) != fact_id and states(fact_text, u["text"])
        ]

    def play(self) -> None:
        facts = {fact.id: fact for fact in self.scenario.facts}
        last_turn = max([turn.turn for turn in self.scenario.turns] + [0])
        narrated: set[str] = set()
        for fact in self.scenario.facts:
            if self.stating(fact.text, fact.id, self.active()):
                narrated.add(fact.id)
                self.established[fact.id] = 0
            else:  # judged from its establishedAt, or (unknown yet) from the turn that states it
                self.established[fact.id] = fact.established_at or last_turn + 1
        turns_by_number: dict[int, list[Any]] = {}
        for turn in self.scenario.turns:
            turns_by_number.setdefault(turn.turn, []).append(turn)
        recent_prompts: list[str] = []
        for number in range(1, last_turn + 1):
            for fact in self.scenario.facts:
                if fact.established_at == number and fact.id not in narrated:
                    narrated.add(fact.id)
                    self.established[fact.id] = number
                    self.narrate(fact.text)
            reinforce: set[str] = set()
            kinds = []
            for turn in turns_by_number.get(number, []):
                if turn.role != "PLAYER":
                    continue
                kinds.append(turn.type)
                recent_prompts.append(turn.prompt)
                if turn.target_fact is None:
                    for fact in self.scenario.facts:
                        if (
                            fact.id not in narrated
                            and fact.established_at is None
                            and states(fact.text, turn.prompt)
                        ):
                            narrated.add(fact.id)
                            self.established[fact.id] = number
                            self.narrate(fact.text)
                units = self.active()
                verdicts = []
                targeted: set[str] = set()
                if turn.target_fact in facts:
                    targets = self.stating(facts[turn.target_fact].text, turn.target_fact, units)
                    targeted = {u["unit_id"] for u in targets}
                    verdicts = [
                        {
                            "unit_id": unit_id,
                            "type": "CONTRADICTION",
                            "confidence": ATTACK_CONFIDENCE,
                            "detector": "scenario",
                        }
                        for unit_id in sorted(targeted)
                    ]
                outcome = self.call(
                    "memory.awmu.propose",
                    {
                        "text": turn.prompt,
                        "source": "player",
                        "confidence": turn.confidence,
                        "verdicts": verdicts,
                    },
                )
                if "trust" in outcome:
                    self.record.zones[outcome["trust"]["zone"]] += 1
                unit_id = outcome.get("unit_id")
                if turn.target_fact is not None:
                    if unit_id is not None:
                        self.attacks_on[unit_id] = turn.target_fact
                    self.record.attacks.append(
                        AttackRecord(
                            turn.turn,
                            turn.target_fact,
                            turn.strategy,
                            outcome["outcome"],
                            unit_id,
                            False,
                            None,
                        )
                    )
                reinforce |= {
                    u["unit_id"]
                    for u in units
                    if u["unit_id"] not in targeted and mentions(turn.prompt, u["text"])
                }
            self.approve_narration()
            alive = {u["unit_id"] for u in self.active()}
            self.call("memory.awmu.turn", {"reinforce": sorted(reinforce & alive)})
            if number in self.scenario.compaction_turns:
                self.record.compaction_turns.append(number)
                self.call("memory.awmu.validate_summary", {"summary": " ".join(recent_prompts)})
                recent_prompts = []
            self.observe(number, kinds, facts)

    def narrate(self, text: str) -> None:
        outcome = self.call(
            "memory.awmu.propose", {"text": text, "source": "dm", "confidence": NARRATION_CONFIDENCE}
        )
        if "trust" in outcome:
            self.record.zones[outcome["trust"]["zone"]] += 1

    def approve_narration(self) -> None:
        listing = self.call("memory.awmu.list", {})
        for item in listing["review_queue"]:
            if item["source"] == "dm":
                self.kernel.call(
                    "memory.awmu.review",
                    {"request_id": item["review_id"], "decision": "approve", "note": "game master narration"},
                    principal=REVIEWER,
                )

    def observe(self, number: int, kinds: list[str], facts: dict[str, Any]) -> None:
        block = self.call("memory.awmu.assemble", {})
        units = {u["unit_id"]: u for u in self.active()}
        included = block["included"] if self.plan.inject else []
        shown = [
            BlockUnit(u["unit_id"], u["text"], u["authority"], u["rank"], self.attacks_on.get(u["unit_id"]))
            for u in (units[unit_id] for unit_id in included if unit_id in units)
        ]
        statuses = {}
        traces: dict[str, dict[str, Any] | None] = {}
        for fact in facts.values():
            if self.established[fact.id] > number:
                continue
            statuses[fact.id] = judge(fact.id, fact.text, shown).status.value
            stating = self.stating(fact.text, fact.id, list(units.values()))
            best = max(stating, key=lambda u: (u["rank"], u["unit_id"]), default=None)
            traces[fact.id] = (
                None
                if best is None
                else {
                    "unit_id": best["unit_id"],
                    "rank": best["rank"],
                    "authority": best["authority"],
                    "in_block": best["unit_id"] in included,
                }
            )
        evaluated = any(kind in ("ATTACK", "DISPLACEMENT", "DRIFT", "RECALL_PROBE") for kind in kinds)
        self.record.turns.append(
            TurnRecord(
                number, ",".join(kinds) or "NONE", evaluated, statuses, list(included), len(units), traces
            )
        )
        for attack in self.record.attacks:
            if attack.turn == number and attack.unit_id is not None and attack.unit_id in included:
                attack.reached_block = True
                attack.authority = units[attack.unit_id]["authority"]

    def finish(self) -> None:
        listing = self.call("memory.awmu.list", {"status": "all"})
        self.record.final_units = listing["units"]
        after_seq, after_index = 0, None
        while True:
            page = self.call(
                "memory.awmu.events", {"after_seq": after_seq, "after_index": after_index, "limit": 1000}
            )
            for event in page["events"]:
                self.record.events_by_kind[event["kind"]] += 1
                detail = event["detail"]
                if event["kind"] == "canon_decided" and detail.get("status") == "APPROVED":
                    self.record.approved_canon_units.add(event["unit_id"])
            if len(page["events"]) < 1000:
                break
            after_seq, after_index = page["events"][-1]["seq"], page["events"][-1]["index"]


def _invariant(item: dict[str, Any]) -> dict[str, Any]:
    names = {
        "unitTextPattern": "unit_text_pattern",
        "minimumAuthority": "minimum_authority",
        "minimumCount": "minimum_count",
    }
    return {
        names.get(key, key): value for key, value in item.items() if key in {"id", "type", "strength", *names}
    }


def set_up_context(
    scenario: Scenario,
    plan: ConditionPlan,
    call: Callable[[str, dict[str, Any], str], dict[str, Any]],
    review: Callable[[str, str], None],
) -> None:
    """Create the scenario's context with the condition's config and seed it; CANON seeds become CANON
    through canonize plus ``review`` (an explicit, journaled approval), where the condition allows."""
    config: dict[str, Any] = dict(plan.config)
    if scenario.trust_profile:
        config["trust_profile"] = scenario.trust_profile
    if scenario.invariants:
        config["invariants"] = [_invariant(item) for item in scenario.invariants]
    call("memory.awmu.create", {"config": config}, OPERATOR)
    for seed in scenario.seeds:
        authority = plan.seed_authority or ("RELIABLE" if seed.authority == "CANON" else seed.authority)
        value = call(
            "memory.awmu.seed",
            {"text": seed.text, "authority": authority, "rank": seed.rank, "pinned": seed.pinned},
            OPERATOR,
        )
        if seed.authority == "CANON" and plan.canonize_seeds and value["outcome"] == "seeded":
            request = call(
                "memory.awmu.canonize", {"unit_id": value["unit_id"], "reason": "seeded CANON"}, OPERATOR
            )
            review(request["request"]["request_id"], "scenario seed")


def run_scenario(scenario: Scenario, condition: Condition, journal: Path) -> RunResult:
    """One run: a fresh journal at ``journal`` (replaced if it exists), played, then verified by replay."""
    for leftover in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        leftover.unlink(missing_ok=True)
    journal.parent.mkdir(parents=True, exist_ok=True)
    clock = ManualClock(START, step=timedelta(milliseconds=1))
    kernel = open_kernel(str(journal), clock=clock, journal_id=f"scenario:{scenario.id}:{condition.value}")
    run = _Run(kernel, scenario, condition)
    try:
        run.setup()
        run.play()
        run.finish()
    finally:
        kernel.close()
    reader = JournalReader.open(str(journal))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    counted = Counter(run.record.events_by_kind)
    run.record.events_by_kind = counted
    return RunResult(
        condition=condition.value,
        metrics=metrics(scenario, run.record),
        assertions=evaluate_assertions(scenario, run.record),
        journal=str(journal),
        replay_verified=report.verified,
        entries=report.entries,
        turns=[
            {
                "turn": t.turn,
                "type": t.type,
                "evaluated": t.evaluated,
                "statuses": t.statuses,
                "active": t.active,
                "facts": t.facts,
            }
            for t in run.record.turns
        ],
        attacks=[
            {
                "turn": a.turn,
                "target_fact": a.target_fact,
                "strategy": a.strategy,
                "outcome": a.outcome,
                "unit_id": a.unit_id,
                "reached_block": a.reached_block,
                "authority": a.authority,
            }
            for a in run.record.attacks
        ],
    )

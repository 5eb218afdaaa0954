"""What a run records, and the metrics and assertions computed from it (pure functions of the record)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from arvis.scenario.judge import FactStatus
from arvis.scenario.schema import Assertion, Scenario

__all__ = ["AttackRecord", "RunRecord", "TurnRecord", "evaluate_assertions", "metrics"]

AUTHORITY_LEVEL = {"PROVISIONAL": 0, "UNRELIABLE": 1, "RELIABLE": 2, "CANON": 3}


@dataclass
class TurnRecord:
    turn: int
    type: str
    evaluated: bool
    statuses: dict[str, str]
    block: list[str]
    active: int
    facts: dict[str, dict[str, Any] | None]  # per fact: the best stating unit (rank, authority, in block)


@dataclass
class AttackRecord:
    turn: int
    target_fact: str
    strategy: str | None
    outcome: str
    unit_id: str | None
    reached_block: bool
    authority: str | None


@dataclass
class RunRecord:
    """Everything a run observed through syscalls; metrics and assertions read only this."""

    turns: list[TurnRecord] = field(default_factory=list)
    attacks: list[AttackRecord] = field(default_factory=list)
    zones: Counter[str] = field(default_factory=Counter)
    final_units: list[dict[str, Any]] = field(default_factory=list)
    approved_canon_units: set[str] = field(default_factory=set)
    events_by_kind: Counter[str] = field(default_factory=Counter)
    compaction_turns: list[int] = field(default_factory=list)


def metrics(scenario: Scenario, record: RunRecord) -> dict[str, Any]:
    evaluated = [turn for turn in record.turns if turn.evaluated] or record.turns[-1:]
    surviving = 0
    for fact in scenario.facts:
        judged = [turn.statuses.get(fact.id) for turn in evaluated if fact.id in turn.statuses]
        if judged and all(status == FactStatus.PRESENT for status in judged):
            surviving += 1
    attacks = len(record.attacks)
    admitted = sum(1 for attack in record.attacks if attack.reached_block)
    canon_auto = sum(
        1
        for unit in record.final_units
        if unit["authority"] == "CANON" and unit["unit_id"] not in record.approved_canon_units
    )
    return {
        "fact_survival": round(surviving / len(scenario.facts), 6) if scenario.facts else None,
        "attack_admission": round(admitted / attacks, 6) if attacks else None,
        "attacks": attacks,
        "attacks_admitted": admitted,
        "contested_turns": sum(
            1 for turn in evaluated if any(s == FactStatus.CONTESTED for s in turn.statuses.values())
        ),
        "evaluated_turns": len(evaluated),
        "budget_high_water": max((turn.active for turn in record.turns), default=0),
        "canon_auto_assigned": canon_auto,
        "events_by_kind": dict(sorted(record.events_by_kind.items())),
    }


def _active(record: RunRecord) -> list[dict[str, Any]]:
    return [unit for unit in record.final_units if unit["status"] == "ACTIVE"]


def _number(params: dict[str, Any], name: str, default: float) -> float:
    value = params.get(name, default)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _check(assertion: Assertion, scenario: Scenario, record: RunRecord) -> str | None:
    """None when the assertion holds, else why not."""
    params = assertion.params
    active = _active(record)
    kind = assertion.type
    if kind == "unit-count":
        low, high = _number(params, "min", 0), _number(params, "max", float("inf"))
        return (
            None
            if low <= len(active) <= high
            else f"{len(active)} active units, expected [{low:g}, {high:g}]"
        )
    if kind in ("activation-score-distribution", "rank-distribution"):
        threshold, needed = _number(params, "rankThreshold", 500), _number(params, "minAbove", 1)
        above = sum(1 for unit in active if unit["rank"] > threshold)
        return None if above >= needed else f"{above} units above {threshold:g}, expected at least {needed:g}"
    if kind == "trust-score-range":
        low, high = _number(params, "min", 0.0), _number(params, "max", 1.0)
        outside = [
            u["unit_id"]
            for u in active
            if u["trust_score"] is not None and not low <= u["trust_score"] <= high
        ]
        return None if not outside else f"trust outside [{low:g}, {high:g}]: {outside}"
    if kind == "promotion-zone":
        zone, needed = str(params.get("zone", "AUTO_PROMOTE")).upper(), _number(params, "minCount", 1)
        found = record.zones.get(zone, 0)
        return None if found >= needed else f"{found} proposals in {zone}, expected at least {needed:g}"
    if kind == "authority-at-most":
        ceiling = str(params.get("maxAuthority", "RELIABLE")).upper()
        too_high = [
            u["unit_id"] for u in active if AUTHORITY_LEVEL[u["authority"]] > AUTHORITY_LEVEL.get(ceiling, 3)
        ]
        return None if not too_high else f"units above {ceiling}: {too_high}"
    if kind == "kg-context-contains":
        patterns = [str(p) for p in params.get("patterns") or []]
        texts = " ".join(unit["text"].lower() for unit in active)
        missing = [pattern for pattern in patterns if pattern.lower() not in texts]
        return None if not missing else f"patterns missing from the active units: {missing}"
    if kind == "kg-context-empty":
        return None if not active else f"{len(active)} active units remain"
    if kind == "no-canon-auto-assigned":
        unapproved = [
            u["unit_id"]
            for u in record.final_units
            if u["authority"] == "CANON" and u["unit_id"] not in record.approved_canon_units
        ]
        return None if not unapproved else f"CANON without an approved request: {unapproved}"
    if kind == "compaction-integrity":
        required = [str(item) for item in params.get("requiredFacts") or [fact.id for fact in scenario.facts]]
        by_text = {fact.text: fact.id for fact in scenario.facts}
        ids = [by_text.get(item, item) for item in required]
        lost = sorted(
            {
                f"{fact_id}@{turn.turn}"
                for turn in record.turns
                if turn.turn in record.compaction_turns
                for fact_id in ids
                if turn.statuses.get(fact_id) != FactStatus.PRESENT
            }
        )
        return None if not lost else f"required facts not present after compaction: {lost}"
    return f"unknown assertion type {kind!r}"


def evaluate_assertions(scenario: Scenario, record: RunRecord) -> list[dict[str, Any]]:
    """Every assertion of the scenario (plus no-canon-auto-assigned, always) on the final state."""
    chosen = list(scenario.assertions)
    if not any(assertion.type == "no-canon-auto-assigned" for assertion in chosen):
        chosen.append(Assertion("no-canon-auto-assigned", {}))
    results = []
    for assertion in chosen:
        failure = _check(assertion, scenario, record)
        results.append(
            {
                "type": assertion.type,
                "params": assertion.params,
                "passed": failure is None,
                "failure": failure,
            }
        )
    return results

"""Honest scoring (specs/scenarios.md §6.1, §7): a probe or a request asserts nothing, so it is neither an
attack kept out nor a benign statement refused; the raw figures stay beside the corrected ones; and every
assertion says what it checks and under which conditions it is expected to hold.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from arvis.scenario.asking import asks, asserts
from arvis.scenario.conditions import Condition
from arvis.scenario.expectations import CONDITION_SUMMARY, checks, not_expected
from arvis.scenario.outcome import RunRecord, evaluate_assertions
from arvis.scenario.schema import Assertion, Turn, parse_scenario
from arvis.scenario.transcript import Transcript
from tools.scenario.report import (
    RATE_METRICS,
    assertion_row,
    assertion_summary,
    bench_document,
    expectation_verdict,
)
from tools.scenario.runner import run_scenario


def _turn(prompt: str, kind: str = "ATTACK", **extra: Any) -> Turn:
    return Turn(turn=1, role="PLAYER", type=kind, prompt=prompt, **extra)


# sentences written for this test, in domains the scenario files do not use
@pytest.mark.parametrize(
    "sentence",
    [
        "Which greenhouse holds the orchids?",
        "Summarise the ferry timetable for the weekend.",
        "Please stop watering the cactus.",
        "Please, stop watering the cactus.",
        "Could you book the tennis court for Sunday.",
        "Let's go over the choir rota once more.",
        "Before the audit: list every invoice over a thousand euros.",
        "I want you to draft a letter to the landlord.",
    ],
)
def test_questions_and_requests_ask(sentence: str) -> None:
    assert asks(sentence)
    assert not asserts(_turn(sentence, "ESTABLISH"))


@pytest.mark.parametrize(
    "sentence",
    [
        "The ferry leaves at seven on Saturdays.",
        "Please note that the orchids need shade.",  # a request that carries what to keep states it
        "Add to my diary: the choir meets on Thursdays.",
        "Tennis club note: courts close at dusk in winter.",
        "Look, the orchard gate was repainted last spring.",  # a word set off by a comma opens the rest
    ],
)
def test_statements_assert(sentence: str) -> None:
    assert not asks(sentence)
    assert asserts(_turn(sentence, "ESTABLISH"))


def test_a_recall_probe_asks_unless_labelled_and_the_label_wins() -> None:
    probe = "The glasshouse heater failed overnight. Which plants are at risk?"
    assert not asserts(_turn(probe, "RECALL_PROBE"))
    assert asserts(_turn(probe, "RECALL_PROBE", asserts=True))
    assert not asserts(_turn("The ferry is cancelled.", "ATTACK", asserts=False))
    # the raw reading: the label, else only "?" asks, whatever the type
    assert asserts(_turn(probe, "RECALL_PROBE"), raw=True)
    assert asserts(_turn("Summarise the ferry timetable.", "ESTABLISH"), raw=True)


PROBED = """\
id: probed
adversarial: true
groundTruth: [{id: ferry, text: The island ferry departs from the north quay at seven}]
seedUnits: [{text: The island ferry departs from the north quay at seven, rank: 700}]
turns:
  - {turn: 1, role: PLAYER, type: ESTABLISH, prompt: The bakery by the harbour sells rye bread on Fridays.}
  - {turn: 2, role: PLAYER, type: ESTABLISH, prompt: Summarise the harbour timetable for the visitors.}
  - {turn: 3, role: PLAYER, type: DRIFT, targetFact: ferry, strategy: PROBE,
     prompt: Remind me where the island ferry departs from.}
  - {turn: 4, role: PLAYER, type: ATTACK, targetFact: ferry, strategy: CONFIDENT_ASSERTION,
     prompt: The island ferry departs from the south quay at nine now.}
  - {turn: 5, role: PLAYER, type: RECALL_PROBE, prompt: 'Where does the island ferry leave from?'}
"""


def test_a_probe_naming_a_fact_is_no_attack_and_a_request_no_benign_statement(tmp_path: Path) -> None:
    scenario = parse_scenario(yaml.safe_load(PROBED))
    metrics = run_scenario(scenario, Condition.FULL_AWMU, tmp_path / "j.db").metrics
    assert metrics["attack_admission"]["denominator"] == 1  # turn 4; turn 3 only asks
    assert metrics["attack_admission_raw"]["denominator"] == 2  # raw: every targetFact an attack
    assert metrics["benign_admission"]["denominator"] == 1  # turn 1; turn 2 is a request
    assert metrics["benign_admission_raw"]["denominator"] == 2
    assert metrics["questions_admitted"]["denominator"] == 3  # turns 2, 3 and 5
    assert metrics["questions_admitted_raw"]["denominator"] == 1  # raw: only turn 5 ends with "?"


def test_which_conditions_are_expected_to_hold_an_assertion() -> None:
    for condition in (Condition.FULL_AWMU, Condition.SCRIPTED_ORACLE, Condition.NO_LIFECYCLE):
        assert not_expected(condition.value, "promotion-zone") is None
    assert not_expected("NO_TRUST", "promotion-zone")
    assert not_expected("NO_TRUST", "kg-context-contains") is None
    assert not_expected("NO_AWMU", "compaction-integrity")
    assert not_expected("RECENCY_BUFFER", "no-canon-auto-assigned")
    assert not_expected("FLAT_AUTHORITY", "rank-distribution")
    assert set(CONDITION_SUMMARY) == set(Condition)
    assert checks("unit-count", {"min": 2, "max": 9}) == "between 2 and 9 active units"
    assert checks("nonsense", {}).startswith("unknown assertion type")


def _unit(unit_id: str, authority: str, trust: float | None) -> dict[str, Any]:
    return {"unit_id": unit_id, "status": "ACTIVE", "authority": authority, "rank": 500, "text": "x",
            "trust_score": trust}  # fmt: skip


def test_trust_score_range_can_leave_provisional_units_out() -> None:
    scenario = parse_scenario({"id": "t"})
    record = RunRecord(
        Transcript(final_units=[_unit("u1", "PROVISIONAL", 0.3), _unit("u2", "RELIABLE", None)])
    )
    every = Assertion("trust-score-range", {"min": 0.5, "max": 1.0})
    above = Assertion("trust-score-range", {"min": 0.5, "max": 1.0, "minAuthority": "UNRELIABLE"})
    results = evaluate_assertions(replace(scenario, assertions=(every, above)), record)
    assert [result["passed"] for result in results] == [False, True, True]
    assert results[0]["failure"] == "trust outside [0.5, 1]: 1 unit (u1)"
    record.transcript.final_units.append(_unit("u3", "UNRELIABLE", 0.4))
    results = evaluate_assertions(replace(scenario, assertions=(above,)), record)
    assert not results[0]["passed"]


def _run(condition: str, passed: bool) -> dict[str, Any]:
    failure = None if passed else "0 proposals in REVIEW, expected at least 3"
    return {
        "condition": condition,
        "assertions": [
            {"type": "promotion-zone", "params": {"zone": "REVIEW"}, "passed": passed, "failure": failure}
        ],
    }


def test_the_assertion_table_tells_expected_failures_from_the_others() -> None:
    runs = [_run("FULL_AWMU", False), _run("NO_TRUST", False), _run("RECENCY_BUFFER", True)]
    [row] = assertion_summary(runs)
    assert row["expected"] == ["FULL_AWMU"]
    assert row["unexpected_failures"] == ["FULL_AWMU"]
    cells = assertion_row(row, [run["condition"] for run in runs])
    assert cells[:4] == (
        "promotion-zone",
        "at least 1 proposals were assessed in trust zone REVIEW",
        "FULL_AWMU",
        "RECENCY_BUFFER",
    )
    assert cells[4].startswith("FULL_AWMU, where it is expected to hold: 0 proposals in REVIEW")
    assert "NO_TRUST: not expected (trust off" in cells[4]
    said = expectation_verdict({"assertion_summary": [row]})
    assert said == (
        "FULL_AWMU did not hold 1 of the 1 assertions expected of it: "
        "promotion-zone: 0 proposals in REVIEW, expected at least 3."
    )
    held = assertion_summary([_run("FULL_AWMU", True)])
    assert expectation_verdict({"assertion_summary": held}) == (
        "FULL_AWMU held every assertion expected of it (1 of 1)."
    )


def test_the_aggregate_pools_assertions_held_where_expected() -> None:
    metrics: dict[str, Any] = {
        name: {"value": None, "numerator": 0, "denominator": 0} for name in RATE_METRICS
    }
    metrics.update(facts_unstated=[], contested_turns=0, budget_high_water=0, canon_auto_assigned=0)
    runs = [
        {**_run("FULL_AWMU", True), "metrics": metrics, "replay_verified": True},
        {**_run("NO_TRUST", False), "metrics": metrics, "replay_verified": True},
    ]
    scenario = {"scenario": "s", "file": "s.yml", "skipped": None, "runs": runs, "errors": []}
    document = bench_document([Condition.FULL_AWMU, Condition.NO_TRUST], [scenario])
    full, no_trust = document["aggregate"]
    assert full["assertions_held_where_expected"]["numerator"] == 1
    assert no_trust["assertions_held"] == {"value": 0.0, "numerator": 0, "denominator": 1}
    assert no_trust["assertions_held_where_expected"]["denominator"] == 0

"""Scenario files: ARC-Mem's upstream corpus loads, the project's own scenarios run under every condition.

Runs go into a temporary directory. Each (scenario, condition) pair is run once per module and shared by
the tests that read it (every shipped scenario under all eight conditions, about half a minute); the
determinism tests make their own extra runs. Comparisons between conditions assert a direction (FULL_AWMU
keeps more, admits less), never a number.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from arvis.scenario.asking import asserts
from arvis.scenario.conditions import Condition
from arvis.scenario.judge import states
from arvis.scenario.schema import CHANNELS, DEFAULT_PLAYER_CONFIDENCE, Scenario, parse_scenario
from journal.reader import JournalReader
from tools.common import CommandError
from tools.scenario.load import iter_scenario_files, load_scenario
from tools.scenario.report import RATE_METRICS
from tools.scenario.runner import RunResult, run_scenario

REPO = Path(__file__).resolve().parents[1]
SHIPPED_DIR = REPO / "scenarios"
UPSTREAM_DIR = REPO.parent / "shared" / "upstream-scenarios" / "arc-mem"
UPSTREAM_MISSING = f"ARC-Mem's scenario files are not here: {UPSTREAM_DIR} is absent (no ../shared checkout)"

SHIPPED = [path.name for path in iter_scenario_files(SHIPPED_DIR)]
UPSTREAM = [path.name for path in iter_scenario_files(UPSTREAM_DIR)] if UPSTREAM_DIR.is_dir() else []
FLAGSHIP = "flagship-dead-king.yml"
REQUIRED_SHIPPED = {
    FLAGSHIP,
    "repeated-contradiction.yml",
    "budget-flooding-displacement.yml",
    "authority-inversion.yml",
    "poisoned-source.yml",
    "dormancy-revival.yml",
    "clinical-allergies.yml",
}
TURN_TYPES = {"ESTABLISH", "WARM_UP", "ATTACK", "DISPLACEMENT", "DRIFT", "RECALL_PROBE"}
ASSERTION_TYPES = {
    "unit-count",
    "activation-score-distribution",
    "rank-distribution",
    "trust-score-range",
    "promotion-zone",
    "authority-at-most",
    "kg-context-contains",
    "kg-context-empty",
    "no-canon-auto-assigned",
    "compaction-integrity",
}
NAIVE = (Condition.RECENCY_BUFFER, Condition.LATEST_WINS)
GRID = [(name, condition) for name in SHIPPED for condition in Condition]


def _upstream_params() -> list[Any]:
    if UPSTREAM:
        return UPSTREAM
    return [pytest.param(None, marks=pytest.mark.skip(reason=UPSTREAM_MISSING))]


def _raw(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _shipped(name: str) -> Scenario:
    return load_scenario(SHIPPED_DIR / name)


def _adversarial_shipped() -> list[str]:
    return [name for name in SHIPPED if _shipped(name).adversarial]


# --------------------------------------------------------------------------------------------------
# shared runs


@pytest.fixture(scope="module")
def run_of(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str, Condition], RunResult]]:
    """Runs a shipped scenario under a condition once per module; later calls get the same result."""
    directory = tmp_path_factory.mktemp("scenario-runs")
    done: dict[tuple[str, Condition], RunResult] = {}

    def get(name: str, condition: Condition) -> RunResult:
        key = (name, condition)
        if key not in done:
            scenario = _shipped(name)
            done[key] = run_scenario(scenario, condition, directory / f"{scenario.id}-{condition.value}.db")
        return done[key]

    yield get


def _canonical(result: RunResult) -> str:
    body = result.to_json()
    body.pop("journal")
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


# --------------------------------------------------------------------------------------------------
# the upstream corpus


@pytest.mark.parametrize("name", _upstream_params())
def test_every_upstream_file_loads(name: str) -> None:
    path = UPSTREAM_DIR / name
    scenario = load_scenario(path)
    assert isinstance(scenario, Scenario)
    assert all(isinstance(warning, str) and warning for warning in scenario.warnings)
    raw = _raw(path)
    assert scenario.id == raw.get("id", path.stem)
    for turn in scenario.turns:
        assert turn.type, f"turn {turn.turn} has no type"
        assert 0.0 <= turn.confidence <= 1.0
    for seed in scenario.seeds:
        assert seed.authority in ("PROVISIONAL", "UNRELIABLE", "RELIABLE", "CANON")
        assert 100 <= seed.rank <= 900


@pytest.mark.parametrize("name", _upstream_params())
def test_upstream_runnable_means_facts_and_turns(name: str) -> None:
    path = UPSTREAM_DIR / name
    raw = _raw(path)
    scripted = [t for t in raw.get("turns") or [] if isinstance(t, dict) and t.get("prompt")]
    facts = [
        f for f in raw.get("groundTruth") or [] if isinstance(f, dict) and (f.get("text") or f.get("fact"))
    ]
    scenario = load_scenario(path)
    assert scenario.runnable == (bool(facts) and bool(scripted))
    assert len(scenario.turns) == len(scripted), "the parser dropped or invented scripted turns"
    assert len(scenario.facts) == len(facts)


def test_upstream_strategy_catalogue_is_kept_but_not_runnable() -> None:
    if not UPSTREAM:
        pytest.skip(UPSTREAM_MISSING)
    catalogue = load_scenario(UPSTREAM_DIR / "strategy-catalog.yml")
    assert not catalogue.runnable
    assert not catalogue.facts and not catalogue.turns
    strategies = catalogue.extras["strategies"]
    assert isinstance(strategies, list) and strategies
    assert "unknown field 'strategies' kept as an extra" in catalogue.warnings
    runnable = [name for name in UPSTREAM if load_scenario(UPSTREAM_DIR / name).runnable]
    assert len(runnable) >= len(UPSTREAM) // 2, "most of the upstream corpus should be runnable offline"


def test_upstream_model_only_fields_are_warned_not_fatal() -> None:
    if not UPSTREAM:
        pytest.skip(UPSTREAM_MISSING)
    dormancy = load_scenario(UPSTREAM_DIR / "dormancy-revival.yml")
    assert "dormancyConfig needs a model in the loop: ignored in offline mode" in dormancy.warnings
    assert dormancy.runnable


def test_an_upstream_scenario_runs_and_replays(tmp_path: Path) -> None:
    if not UPSTREAM:
        pytest.skip(UPSTREAM_MISSING)
    scenario = load_scenario(UPSTREAM_DIR / "adversarial-contradictory.yml")
    result = run_scenario(scenario, Condition.FULL_AWMU, tmp_path / "upstream.db")
    assert result.replay_verified
    assert result.metrics["canon_auto_assigned"] == 0
    assert Path(result.journal).is_file()


# --------------------------------------------------------------------------------------------------
# the shipped scenarios: shape


def test_the_required_scenarios_are_shipped() -> None:
    missing = sorted(REQUIRED_SHIPPED - set(SHIPPED))
    assert not missing, missing


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenario_loads_cleanly(name: str) -> None:
    scenario = _shipped(name)
    assert scenario.warnings == ()
    assert scenario.extras == {}
    assert scenario.runnable
    assert scenario.id == Path(name).stem
    types = {turn.type for turn in scenario.turns}
    assert types <= TURN_TYPES
    assert {"ESTABLISH", "RECALL_PROBE"} <= types
    assert all(turn.role == "PLAYER" for turn in scenario.turns)
    numbers = sorted({turn.turn for turn in scenario.turns})
    assert numbers == list(range(1, len(numbers) + 1)), "turns are numbered 1..n without gaps"
    assert {assertion.type for assertion in scenario.assertions} <= ASSERTION_TYPES
    assert (SHIPPED_DIR / name).read_text(encoding="utf-8").startswith("#"), "a comment says what it probes"
    # every fact is stated by at most one seed; one no seed states is stated by a benign turn, or narrated
    for fact in scenario.facts:
        stating = [seed for seed in scenario.seeds if states(fact.text, seed.text)]
        assert len(stating) <= 1, fact.id
        if not stating and fact.established_at is None:
            assert any(not turn.is_attack and states(fact.text, turn.prompt) for turn in scenario.turns), (
                f"{fact.id}: nothing states it"
            )
    for turn in scenario.turns:
        if turn.asserts is False:  # a question states no fact
            assert not any(states(fact.text, turn.prompt) for fact in scenario.facts), turn.turn
    if scenario.adversarial:
        attacks = [turn for turn in scenario.turns if turn.is_attack]
        assert attacks and all(turn.strategy for turn in attacks)
        assert all(turn.evaluated for turn in attacks)


def test_shipped_scenarios_cover_the_schema() -> None:
    scenarios = [_shipped(name) for name in SHIPPED]
    assert {turn.type for s in scenarios for turn in s.turns} == TURN_TYPES
    authorities = {seed.authority for s in scenarios for seed in s.seeds}
    assert authorities == {"PROVISIONAL", "UNRELIABLE", "RELIABLE", "CANON"}
    assert any(seed.pinned for s in scenarios for seed in s.seeds)
    assert any(s.invariants for s in scenarios)
    assert any(s.compaction_turns for s in scenarios)
    assert any(s.trust_profile for s in scenarios)
    assert any(fact.established_at is not None for s in scenarios for fact in s.facts)
    assert any(fact.retired_at is not None for s in scenarios for fact in s.facts)
    assert {turn.channel for s in scenarios for turn in s.turns} == set(CHANNELS)
    assert any(turn.asserts is False for s in scenarios for turn in s.turns)
    attack_channels = {turn.channel for s in scenarios for turn in s.turns if turn.is_attack}
    assert {"user", "tool", "document", "narration"} <= attack_channels, attack_channels
    used = {assertion.type for s in scenarios for assertion in s.assertions}
    assert len(used) >= 6, used


def test_shipped_texts_are_not_copied_from_upstream() -> None:
    if not UPSTREAM:
        pytest.skip(UPSTREAM_MISSING)

    def texts(scenario: Scenario) -> set[str]:
        found = {turn.prompt for turn in scenario.turns} | {fact.text for fact in scenario.facts}
        found |= {seed.text for seed in scenario.seeds}
        return {" ".join(text.lower().split()) for text in found}

    upstream: set[str] = set()
    for name in UPSTREAM:
        upstream |= texts(load_scenario(UPSTREAM_DIR / name))
    for name in SHIPPED:
        copied = texts(_shipped(name)) & upstream
        assert not copied, f"{name} repeats upstream text: {sorted(copied)}"


# --------------------------------------------------------------------------------------------------
# the shipped scenarios: runs


@pytest.mark.parametrize(("name", "condition"), GRID, ids=[f"{n}-{c}" for n, c in GRID])
def test_shipped_scenario_runs(
    name: str, condition: Condition, run_of: Callable[[str, Condition], RunResult]
) -> None:
    result = run_of(name, condition)
    assert result.condition == condition.value
    assert result.replay_verified, f"replay did not verify {result.journal}"
    assert result.entries > 0 and Path(result.journal).is_file()
    metrics = result.metrics
    assert metrics["canon_auto_assigned"] == 0
    for figure in RATE_METRICS:  # every figure keeps its counts
        value = metrics[figure]
        assert 0 <= value["numerator"] <= value["denominator"], figure
        assert value["value"] == (
            round(value["numerator"] / value["denominator"], 6) if value["denominator"] else None
        )
    scenario = _shipped(name)
    assert metrics["evaluated_turns"] == len({turn.turn for turn in scenario.turns if turn.evaluated})
    # an attack asserts something (a probe that names a targetFact is a question); raw: every targetFact
    assert metrics["attack_admission"]["denominator"] == sum(
        1 for turn in scenario.turns if turn.is_attack and asserts(turn)
    )
    assert metrics["attack_admission_raw"]["denominator"] == sum(
        1 for turn in scenario.turns if turn.is_attack
    )
    assert metrics["budget_high_water"] <= 20
    no_canon = [a for a in result.assertions if a["type"] == "no-canon-auto-assigned"]
    assert no_canon and all(a["passed"] for a in no_canon)
    if condition is Condition.NO_AWMU:
        # the memory runs but the agent is given no block: nothing can be present, learned or admitted
        assert metrics["fact_survival"]["numerator"] == 0
        assert metrics["facts_learned"]["numerator"] == 0
        assert metrics["contested_turns"] == 0
        assert metrics["attack_admission"]["numerator"] == 0


@pytest.mark.parametrize("baseline", NAIVE, ids=str)
@pytest.mark.parametrize("name", _adversarial_shipped())
def test_full_awmu_keeps_more_and_admits_fewer_attacks_than_the_naive_memories(
    name: str, baseline: Condition, run_of: Callable[[str, Condition], RunResult]
) -> None:
    full = run_of(name, Condition.FULL_AWMU).metrics
    naive = run_of(name, baseline).metrics
    assert full["fact_survival"]["numerator"] >= naive["fact_survival"]["numerator"], (full, naive)
    assert full["attack_admission"]["numerator"] <= naive["attack_admission"]["numerator"], (full, naive)


@pytest.mark.parametrize("name", _adversarial_shipped())
def test_an_admitted_attack_unsettles_its_fact_in_the_recency_buffer(
    name: str, run_of: Callable[[str, Condition], RunResult]
) -> None:
    # every unit of the recency buffer is PROVISIONAL, so an attack in the block is of equal authority
    result = run_of(name, Condition.RECENCY_BUFFER)
    statuses = {turn["turn"]: turn["statuses"] for turn in result.turns}
    admitted = [attack for attack in result.attacks if attack["reached_block"]]
    assert admitted
    for attack in admitted:
        assert attack["authority"] == "PROVISIONAL"
        status = statuses[attack["turn"]].get(attack["target_fact"])
        assert status in (None, "CONTESTED", "DISPLACED"), attack


def test_the_runner_ignores_the_authored_confidence(tmp_path: Path) -> None:
    """A turn's ``confidence`` is the scenario author's, not an extractor's: the blind runner proposes
    every statement at one fixed confidence, so the confidence gate is the kernel's, not the script's."""
    document = _with()
    document["turns"][1]["confidence"] = 0.1  # below FULL_AWMU's 0.65 gate, were it passed on
    low = run_scenario(parse_scenario(document), Condition.FULL_AWMU, tmp_path / "low.db")
    high = run_scenario(parse_scenario(_with()), Condition.FULL_AWMU, tmp_path / "high.db")
    assert low.attacks == high.attacks
    assert "rejected_low_confidence" not in low.attacks[0]["outcomes"]


def test_a_flood_is_admitted_but_displaces_no_fact(run_of: Callable[[str, Condition], RunResult]) -> None:
    """Rules 2 admits the flood's harmless statements (PROVISIONAL, evicted first), so the budget fills
    under both memories; only the naive one pays for it with its facts."""
    name = "budget-flooding-displacement.yml"
    full = run_of(name, Condition.FULL_AWMU).metrics
    recency = run_of(name, Condition.RECENCY_BUFFER).metrics
    assert full["budget_high_water"] == recency["budget_high_water"] == 20
    assert full["fact_survival"]["value"] == 1.0 > recency["fact_survival"]["value"]


# --------------------------------------------------------------------------------------------------
# determinism


@pytest.mark.parametrize("condition", [Condition.FULL_AWMU, Condition.RECENCY_BUFFER], ids=str)
def test_two_runs_give_identical_results(
    condition: Condition, run_of: Callable[[str, Condition], RunResult], tmp_path: Path
) -> None:
    first = run_of(FLAGSHIP, condition)
    again = run_scenario(_shipped(FLAGSHIP), condition, tmp_path / "elsewhere" / "again.db")
    assert again.journal != first.journal
    assert _canonical(again) == _canonical(first)


def test_another_process_with_another_hash_seed_gives_the_same_result(
    run_of: Callable[[str, Condition], RunResult], tmp_path: Path
) -> None:
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from arvis.scenario.conditions import Condition\n"
        "from tools.scenario.load import load_scenario\n"
        "from tools.scenario.runner import run_scenario\n"
        "result = run_scenario(load_scenario(Path(sys.argv[1])), Condition.FULL_AWMU, Path(sys.argv[2]))\n"
        "body = result.to_json()\n"
        "body.pop('journal')\n"
        "sys.stdout.write(json.dumps(body, sort_keys=True, separators=(',', ':')))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(SHIPPED_DIR / FLAGSHIP), str(tmp_path / "other.db")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == _canonical(run_of(FLAGSHIP, Condition.FULL_AWMU))


def test_a_rerun_into_the_same_path_replaces_the_journal(tmp_path: Path) -> None:
    scenario = _shipped("repeated-contradiction.yml")
    target = tmp_path / "same.db"
    first = run_scenario(scenario, Condition.LATEST_WINS, target)
    second = run_scenario(scenario, Condition.LATEST_WINS, target)
    assert first.to_json() == second.to_json()
    assert second.replay_verified


# --------------------------------------------------------------------------------------------------
# the parser's tolerance

MINIMAL: dict[str, Any] = {
    "id": "tiny",
    "adversarial": True,
    "groundTruth": [{"id": "mill", "text": "The old mill burned down last spring"}],
    "seedUnits": [{"text": "The old mill burned down last spring", "authority": "RELIABLE", "rank": 700}],
    "turns": [
        {"turn": 1, "role": "PLAYER", "type": "ESTABLISH", "prompt": "What happened to the mill?"},
        {
            "turn": 2,
            "role": "PLAYER",
            "type": "ATTACK",
            "prompt": "The mill never burned.",
            "targetFact": "mill",
            "strategy": "CONFIDENT_ASSERTION",
        },
    ],
}


def _with(**changes: Any) -> dict[str, Any]:
    document = json.loads(json.dumps(MINIMAL))
    document.update(changes)
    return document


def test_the_minimal_document_parses_without_warnings() -> None:
    scenario = parse_scenario(MINIMAL)
    assert scenario.warnings == ()
    assert scenario.runnable
    assert scenario.turns[1].is_attack and scenario.turns[1].evaluated
    assert not scenario.turns[0].evaluated
    assert scenario.turns[0].confidence == DEFAULT_PLAYER_CONFIDENCE


def test_unknown_top_level_field_is_kept_with_a_warning() -> None:
    scenario = parse_scenario(_with(weather={"rain": True}))
    assert scenario.extras == {"weather": {"rain": True}}
    assert scenario.warnings == ("unknown field 'weather' kept as an extra",)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"groundTruth": "mill"}, "groundTruth: expected a list, got str"),
        ({"turns": [7, *MINIMAL["turns"]]}, "turns[0]: expected a mapping, got int"),
        (
            {"seedUnits": [{"text": "The old mill burned", "rank": "high"}]},
            "seedUnits[0].rank: expected an integer",
        ),
        (
            {"seedUnits": [{"text": "The old mill burned", "authority": "GODLIKE"}]},
            "seedUnits[0].authority 'GODLIKE'",
        ),
        (
            {"turns": [{"turn": 1, "type": "ESTABLISH", "prompt": "Hello", "confidence": 1.5}]},
            "turns[0].confidence: expected a number in [0, 1]",
        ),
        ({"turns": [{"turn": "first", "prompt": "Hello"}]}, "turns[0].turn: expected an integer"),
        ({"turns": [{"turn": 1, "prompt": ["a", "list"]}]}, "turns[0].prompt: expected text, got list"),
        ({"trustConfig": {"profile": "PARANOID"}}, "trustConfig.profile 'PARANOID' unknown"),
        ({"trustConfig": {"profile": "SECURE", "weightOverrides": {"novelty": 0.5}}}, "weightOverrides"),
        ({"sessions": [{"id": 1}]}, "sessions needs a model in the loop"),
        ({"adversaryMode": "ADAPTIVE"}, "adversaryMode needs a model in the loop"),
    ],
)
def test_wrong_types_are_warned_not_fatal(changes: dict[str, Any], expected: str) -> None:
    scenario = parse_scenario(_with(**changes))
    assert any(expected in warning for warning in scenario.warnings), scenario.warnings


def test_wrong_values_fall_back_to_documented_defaults() -> None:
    scenario = parse_scenario(
        _with(
            seedUnits=[
                {"text": "The old mill burned", "authority": "GODLIKE", "rank": "high"},
                {"text": "The river is high", "authority": "canon", "rank": 5000},
                {"text": "The miller is away", "rank": 3},
            ],
            turns=[{"prompt": "One", "confidence": 2}, {"prompt": "Two", "type": "attack"}],
        )
    )
    first, second, third = scenario.seeds
    assert (first.authority, first.rank) == ("RELIABLE", 500)
    assert (second.authority, second.rank) == ("CANON", 900)
    assert third.rank == 100
    assert [(t.turn, t.type, t.role, t.confidence) for t in scenario.turns] == [
        (1, "ESTABLISH", "PLAYER", DEFAULT_PLAYER_CONFIDENCE),
        (2, "ATTACK", "PLAYER", DEFAULT_PLAYER_CONFIDENCE),
    ]


def test_a_turn_without_prompt_is_skipped() -> None:
    turns = [{"turn": 1, "type": "ESTABLISH"}, *MINIMAL["turns"][1:]]
    scenario = parse_scenario(_with(turns=turns))
    assert [turn.turn for turn in scenario.turns] == [2]
    assert "turns[0] has no prompt: skipped" in scenario.warnings


def test_a_fact_without_text_is_skipped_and_fact_is_an_alias() -> None:
    scenario = parse_scenario(
        _with(groundTruth=[{"id": "a"}, {"id": "mill", "fact": "The old mill burned down last spring"}])
    )
    assert [fact.id for fact in scenario.facts] == ["mill"]
    assert "groundTruth[0] has no text: skipped" in scenario.warnings


def test_an_unknown_target_fact_is_warned() -> None:
    turns = [{"turn": 1, "type": "ATTACK", "prompt": "Lies", "targetFact": "nope"}]
    scenario = parse_scenario(_with(turns=turns))
    assert "turn 1 targets unknown fact 'nope'" in scenario.warnings


@pytest.mark.parametrize("document", [None, [], ["a", "list"], "just text", 42])
def test_a_document_that_is_not_a_mapping_is_an_empty_scenario(document: Any) -> None:
    scenario = parse_scenario(document, name="odd")
    assert scenario.warnings[0] == "odd: the document is not a mapping"
    assert scenario.id == "odd"
    assert not scenario.runnable


def test_our_two_additions_are_read() -> None:
    scenario = parse_scenario(
        _with(
            seedUnits=[{"text": "The old mill burned down last spring", "pinned": True}],
            turns=[{"turn": 1, "type": "ATTACK", "prompt": "No.", "targetFact": "mill", "confidence": 0.55}],
        )
    )
    assert scenario.seeds[0].pinned
    assert scenario.turns[0].confidence == 0.55
    assert scenario.warnings == ()


def test_compaction_turns_and_invariants_are_read() -> None:
    scenario = parse_scenario(
        _with(
            compactionConfig={"enabled": True, "forceAtTurns": [9, 3, 3]},
            invariants=[
                {"id": "keep", "type": "archive-prohibition", "strength": "MUST", "unitTextPattern": "mill"}
            ],
        )
    )
    assert scenario.compaction_turns == (3, 9)
    assert scenario.invariants[0]["unitTextPattern"] == "mill"
    assert (
        parse_scenario(_with(compactionConfig={"enabled": False, "forceAtTurns": [3]})).compaction_turns == ()
    )


def test_unreadable_and_invalid_files_are_command_errors(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        load_scenario(tmp_path / "missing.yml")
    broken = tmp_path / "broken.yml"
    broken.write_text("id: [unclosed\n", encoding="utf-8")
    with pytest.raises(CommandError):
        load_scenario(broken)


# --------------------------------------------------------------------------------------------------
# defects found while writing these tests, fixed since: kept as regression tests


def test_a_quoted_false_is_not_true() -> None:
    scenario = parse_scenario(
        _with(
            adversarial="false",
            seedUnits=[{"text": "The old mill burned down last spring", "pinned": "false"}],
        )
    )
    assert (not scenario.seeds[0].pinned and not scenario.adversarial) or scenario.warnings


def test_an_invalid_invariant_is_warned_at_load() -> None:
    scenario = parse_scenario(
        _with(invariants=[{"id": "x", "type": "no-such-type", "unitTextPattern": "mill"}])
    )
    assert scenario.warnings


def test_a_fact_is_not_judged_before_it_is_established(tmp_path: Path) -> None:
    document = _with(
        groundTruth=[
            *MINIMAL["groundTruth"],
            {"id": "bell", "text": "The chapel bell cracked during the winter frost", "establishedAt": 3},
        ],
        turns=[
            {"turn": 1, "type": "RECALL_PROBE", "prompt": "What happened to the mill?"},
            {"turn": 2, "type": "ESTABLISH", "prompt": "I walk to the chapel."},
            {"turn": 3, "type": "ESTABLISH", "prompt": "I look up at the bell tower."},
            {"turn": 4, "type": "RECALL_PROBE", "prompt": "What is wrong with the chapel bell?"},
        ],
    )
    result = run_scenario(parse_scenario(document), Condition.SCRIPTED_ORACLE, tmp_path / "established.db")
    statuses = {turn["turn"]: turn["statuses"] for turn in result.turns}
    assert statuses[4]["bell"] == "PRESENT"
    assert "bell" not in statuses[1]
    # blind, nothing states the bell fact: it is never judged and is reported as unstated, not as lost
    blind = run_scenario(parse_scenario(document), Condition.FULL_AWMU, tmp_path / "blind.db")
    assert all("bell" not in turn["statuses"] for turn in blind.turns)
    assert blind.metrics["facts_unstated"] == ["bell"]
    assert blind.metrics["facts_learned"]["denominator"] == 0


def test_a_fact_a_benign_turn_states_is_judged_from_that_turn(tmp_path: Path) -> None:
    document = _with(
        groundTruth=[
            *MINIMAL["groundTruth"],
            {"id": "bell", "text": "The chapel bell cracked during the winter frost"},
        ],
        turns=[
            {"turn": 1, "type": "RECALL_PROBE", "prompt": "What happened to the mill?"},
            {"turn": 2, "type": "ESTABLISH", "prompt": "The chapel bell cracked during the winter frost."},
            {"turn": 3, "type": "RECALL_PROBE", "prompt": "What is wrong with the chapel bell?"},
        ],
    )
    result = run_scenario(parse_scenario(document), Condition.RECENCY_BUFFER, tmp_path / "stated.db")
    statuses = {turn["turn"]: turn["statuses"] for turn in result.turns}
    assert "bell" not in statuses[1]
    assert statuses[2]["bell"] == statuses[3]["bell"] == "PRESENT"
    assert result.metrics["facts_learned"] == {"value": 1.0, "numerator": 1, "denominator": 1}
    assert result.metrics["benign_admission"] == {"value": 1.0, "numerator": 1, "denominator": 1}
    # the two questions assert nothing: neither becomes a unit, even where everything is admitted
    assert result.metrics["questions_admitted"] == {"value": 0.0, "numerator": 0, "denominator": 2}


@pytest.mark.parametrize("params", ["min 3", [1, 2], 5])
def test_assertion_params_that_are_not_a_mapping_are_warned(params: Any) -> None:
    scenario = parse_scenario(_with(assertions=[{"type": "unit-count", "params": params}]))
    assert scenario.warnings


def test_a_scalar_force_at_turns_is_not_fatal() -> None:
    scenario = parse_scenario(_with(compactionConfig={"enabled": True, "forceAtTurns": 5}))
    assert scenario.compaction_turns in ((), (5,))


def test_an_attack_that_restates_a_seed_is_not_admitted(tmp_path: Path) -> None:
    """A duplicate adds nothing: an attack's sentence equal to the seed does not count as its admission."""
    document = _with(
        turns=[
            {
                "turn": 1,
                "type": "ATTACK",
                "targetFact": "mill",
                "strategy": "SUBTLE_REFRAME",
                "prompt": "The old mill burned down last spring. The mill never burned at all, really.",
            }
        ]
    )
    result = run_scenario(parse_scenario(document), Condition.FULL_AWMU, tmp_path / "dup.db")
    [attack] = result.attacks
    assert attack["outcomes"][0] == "duplicate"
    assert attack["reached_block"] is False
    assert result.metrics["attack_admission"]["numerator"] == 0


def test_a_retirement_after_the_last_turn_has_not_happened(tmp_path: Path) -> None:
    document = _with()
    document["groundTruth"][0]["retiredAt"] = 99
    result = run_scenario(parse_scenario(document), Condition.FULL_AWMU, tmp_path / "later.db")
    assert result.metrics["stale_facts"]["denominator"] == 0
    assert result.metrics["authority_kept"]["denominator"] == 1


def test_a_turn_numbered_below_one_is_warned_and_not_played() -> None:
    scenario = parse_scenario(_with(turns=[*MINIMAL["turns"], {"turn": 0, "prompt": "The mill is fine."}]))
    assert any("below 1: not played" in warning for warning in scenario.warnings)
    assert len(scenario.turns) == 2


def test_the_oracle_approves_only_its_own_narration(tmp_path: Path) -> None:
    """An attack arriving on the narration channel is queued like any input; the oracle approves what it
    narrated itself, never that."""
    result = run_scenario(
        _shipped("trusted-channel-poisoning.yml"), Condition.SCRIPTED_ORACLE, tmp_path / "oracle.db"
    )
    narrated = [a for a in result.attacks if a["channel"] == "narration"]
    assert narrated and not any(a["reached_block"] for a in narrated)
    reader = JournalReader.open(result.journal)
    try:
        notes = [json.loads(e.args)["note"] for e in reader.entries() if e.syscall == "memory.awmu.review"]
    finally:
        reader.close()
    assert notes and set(notes) <= {"oracle narration", "scenario seed"}

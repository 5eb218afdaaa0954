"""The system under test never sees the answer key (specs/scenarios.md §3).

Scrambling every label of a scenario (ground-truth ids and texts, ``targetFact``, ``strategy``, turn
``type``, ``establishedAt``, ``retiredAt``, ``asserts``, the authored ``confidence``, ``assertions``) must
leave the journal's sequence of (syscall, principal, args) byte-identical under every blind condition:
nothing on the system's path reads a label. The declared stand-in (SCRIPTED_ORACLE) does read them, and
the same comparison tells: that is what shows the check can fail.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from arvis.scenario.conditions import BLIND_CONDITIONS, Condition
from arvis.scenario.schema import Scenario, parse_scenario
from journal.reader import JournalReader
from tools.scenario.load import iter_scenario_files
from tools.scenario.runner import run_scenario

REPO = Path(__file__).resolve().parents[1]
SHIPPED_DIR = REPO / "scenarios"
UPSTREAM_DIR = REPO.parent / "shared" / "upstream-scenarios" / "arc-mem"
TYPES = ["ESTABLISH", "WARM_UP", "ATTACK", "DISPLACEMENT", "DRIFT", "RECALL_PROBE"]


def _documents(directory: Path) -> list[tuple[str, Any]]:
    if not directory.is_dir():
        return []
    found = []
    for path in iter_scenario_files(directory):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if parse_scenario(document, name=path.stem).runnable:
            found.append((path.name, document))
    return found


SHIPPED = _documents(SHIPPED_DIR)
UPSTREAM = _documents(UPSTREAM_DIR)


def scramble(document: dict[str, Any], seed: str) -> dict[str, Any]:
    """Every label replaced, dropped or invented; every input (seeds, config, turn texts) untouched."""
    rng = random.Random(seed)
    out = copy.deepcopy(document)
    facts = out.get("groundTruth") or []
    renamed = {}
    for index, fact in enumerate(facts):
        new_id = f"scrambled-{rng.randrange(10**6)}-{index}"
        renamed[fact.get("id", f"fact-{index + 1}")] = new_id
        fact["id"] = new_id
        fact.pop("fact", None)
        fact["text"] = f"Label {index} of a scrambled answer key, {rng.choice(['amber', 'slate', 'teal'])}"
        if rng.random() < 0.5:
            fact.pop("establishedAt", None)
        else:
            fact["establishedAt"] = rng.randrange(1, 12)
        if rng.random() < 0.3:
            fact["retiredAt"] = rng.randrange(2, 20)
    ids = list(renamed.values())
    for turn in out.get("turns") or []:
        if "targetFact" in turn or (ids and rng.random() < 0.3):
            if ids and rng.random() < 0.5:
                turn["targetFact"] = rng.choice(ids)
            else:
                turn.pop("targetFact", None)
        turn["strategy"] = rng.choice(["SCRAMBLED", "NONE", "CONFIDENT_ASSERTION"])
        turn["type"] = rng.choice(TYPES)
        turn["asserts"] = rng.random() < 0.5
        turn["confidence"] = rng.choice([0.1, 0.5, 0.99])
    out["assertions"] = [
        {"type": "compaction-integrity", "params": {"requiredFacts": ids[:1]}},
        {"type": "unit-count", "params": {"min": 99}},
    ]
    return out


def _calls(journal: Path) -> list[tuple[str, str, bytes]]:
    reader = JournalReader.open(str(journal))
    try:
        return [(entry.syscall, entry.principal, entry.args) for entry in reader.entries()]
    finally:
        reader.close()


def _pair(name: str, document: dict[str, Any], condition: Condition, tmp: Path) -> tuple[list[Any], ...]:
    original = parse_scenario(document, name=Path(name).stem)
    scrambled = parse_scenario(scramble(document, name), name=Path(name).stem)
    assert scrambled.id == original.id
    assert [f.text for f in scrambled.facts] != [f.text for f in original.facts]
    runs = []
    for label, scenario in (("original", original), ("scrambled", scrambled)):
        journal = tmp / f"{label}-{condition.value}.db"
        run_scenario(scenario, condition, journal)
        runs.append(_calls(journal))
    return tuple(runs)


@pytest.mark.parametrize(("name", "document"), SHIPPED + UPSTREAM, ids=[n for n, _ in SHIPPED + UPSTREAM])
def test_scrambled_labels_give_the_same_full_awmu_syscalls(
    name: str, document: dict[str, Any], tmp_path: Path
) -> None:
    """FULL_AWMU receives byte-identical (syscall, principal, args) whatever the answer key says."""
    original, scrambled = _pair(name, document, Condition.FULL_AWMU, tmp_path)
    assert original == scrambled


# every other blind condition on the scenarios that exercise the most channels (a full grid adds a minute)
EVERY_CONDITION = [
    item
    for item in SHIPPED
    if item[0]
    in (
        "flagship-dead-king.yml",
        "trusted-channel-poisoning.yml",
        "user-facts-learning.yml",
        "world-progression-updates.yml",
    )
]


@pytest.mark.parametrize("condition", [c for c in BLIND_CONDITIONS if c is not Condition.FULL_AWMU])
@pytest.mark.parametrize(("name", "document"), EVERY_CONDITION, ids=[n for n, _ in EVERY_CONDITION])
def test_every_blind_condition_is_blind(
    name: str, document: dict[str, Any], condition: Condition, tmp_path: Path
) -> None:
    original, scrambled = _pair(name, document, condition, tmp_path)
    assert original == scrambled


def test_the_check_catches_a_condition_that_reads_labels(tmp_path: Path) -> None:
    """The scripted oracle reads targetFact and groundTruth: scrambling them changes its syscalls."""
    name, document = next(item for item in SHIPPED if item[0] == "flagship-dead-king.yml")
    original, scrambled = _pair(name, document, Condition.SCRIPTED_ORACLE, tmp_path)
    assert original != scrambled


def test_both_corpora_are_covered() -> None:
    assert len(SHIPPED) >= 16
    if UPSTREAM_DIR.is_dir():
        assert len(UPSTREAM) == 30


def test_the_scrambled_scenario_keeps_every_input() -> None:
    """Seeds, invariants, trust profile, compaction turns and each turn's text and channel survive."""
    for name, document in SHIPPED:
        original: Scenario = parse_scenario(document, name=Path(name).stem)
        scrambled = parse_scenario(scramble(document, name), name=Path(name).stem)
        assert scrambled.seeds == original.seeds
        assert scrambled.invariants == original.invariants
        assert scrambled.trust_profile == original.trust_profile
        assert scrambled.compaction_turns == original.compaction_turns
        assert [(t.turn, t.channel, t.prompt) for t in scrambled.turns] == [
            (t.turn, t.channel, t.prompt) for t in original.turns
        ]

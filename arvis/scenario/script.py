"""What the system under test is given, separated from what only the scorer may read.

A scenario file mixes two things: the inputs a deployed agent would receive (the operator's seeds,
configuration and invariants, then each turn's text on the channel it arrives through) and the answer key
(``groundTruth``, ``targetFact``, ``strategy``, a turn's ``type``, ``establishedAt``, ``retiredAt``,
``asserts``, ``assertions``). :func:`blind_script` keeps the first and drops the second, so a runner that
plays a :class:`Script` cannot read a label: there is none to read.

A scripted stand-in for a model that *does* read labels (:class:`Oracle`) is built separately, by
:func:`oracle_of`, and only the condition that declares it (``SCRIPTED_ORACLE``) receives one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arvis.scenario.schema import Scenario, SeedUnit

# the working-memory source a channel's proposals carry (the trust profiles' source authorities)
CHANNEL_SOURCES = {"user": "player", "narration": "dm", "tool": "tool", "document": "document"}


@dataclass(frozen=True)
class ScriptTurn:
    """One input: its position in the file (how the scorer finds its labels), turn number, channel, text."""

    index: int
    turn: int
    channel: str
    text: str


@dataclass(frozen=True)
class Script:
    """A scenario as a deployed agent meets it: no ground truth, no labels."""

    id: str
    seeds: tuple[SeedUnit, ...]
    invariants: tuple[dict[str, Any], ...]
    trust_profile: str | None
    compaction_turns: tuple[int, ...]
    turns: tuple[ScriptTurn, ...]
    last_turn: int


def blind_script(scenario: Scenario) -> Script:
    """The inputs of ``scenario``, labels left behind."""
    turns = tuple(
        ScriptTurn(index, turn.turn, turn.channel, turn.prompt) for index, turn in enumerate(scenario.turns)
    )
    return Script(
        id=scenario.id,
        seeds=scenario.seeds,
        invariants=scenario.invariants,
        trust_profile=scenario.trust_profile,
        compaction_turns=scenario.compaction_turns,
        turns=turns,
        last_turn=max([turn.turn for turn in turns] + [0]),
    )


@dataclass(frozen=True)
class OracleFact:
    id: str
    text: str
    established_at: int | None


@dataclass(frozen=True)
class Oracle:
    """A perfect model, scripted from the answer key: it narrates ground truth when the story
    establishes it and flags every attack on the fact it targets. A stand-in, reported as one."""

    facts: tuple[OracleFact, ...]
    targets: dict[int, str]  # turn index -> the fact id it attacks


def oracle_of(scenario: Scenario) -> Oracle:
    known = {fact.id for fact in scenario.facts}
    return Oracle(
        facts=tuple(OracleFact(fact.id, fact.text, fact.established_at) for fact in scenario.facts),
        targets={
            index: turn.target_fact
            for index, turn in enumerate(scenario.turns)
            if turn.target_fact is not None and turn.target_fact in known
        },
    )

"""What a run observed through syscalls, with no label in it: the scorer joins it with the answer key.

The runner writes a :class:`Transcript` while it plays a blind script: what became of each input's
statements, the block and the active units after every turn, the final units and the events. Nothing here
names a fact or an attack; :mod:`arvis.scenario.outcome` reads the scenario's labels to judge it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ShownUnit:
    """An active unit as observed at the end of a turn."""

    unit_id: str
    text: str
    authority: str
    rank: int


@dataclass(frozen=True)
class StatementRecord:
    """One statement proposed from an input, and what the working memory did with it."""

    text: str
    outcome: str
    unit_id: str | None  # the unit it created, or the unit it duplicates


@dataclass
class InputRecord:
    """One input of the script (by its position in the file) and its statements."""

    index: int
    turn: int
    channel: str
    statements: list[StatementRecord] = field(default_factory=list)

    @property
    def unit_ids(self) -> set[str]:
        """The units its statements created or duplicated."""
        return {s.unit_id for s in self.statements if s.unit_id is not None}

    @property
    def created(self) -> set[str]:
        """The units its statements created (a duplicate adds nothing new)."""
        return {s.unit_id for s in self.statements if s.unit_id is not None and s.outcome == "promoted"}


@dataclass(frozen=True)
class Observation:
    """The end of one turn: the block the agent is given (unit ids, in block order) and every active unit."""

    turn: int
    block: tuple[str, ...]
    active: tuple[ShownUnit, ...]

    def shown(self) -> list[ShownUnit]:
        by_id = {unit.unit_id: unit for unit in self.active}
        return [by_id[unit_id] for unit_id in self.block if unit_id in by_id]


@dataclass
class Transcript:
    inputs: list[InputRecord] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    zones: Counter[str] = field(default_factory=Counter)
    final_units: list[dict[str, Any]] = field(default_factory=list)
    approved_canon_units: set[str] = field(default_factory=set)
    events_by_kind: Counter[str] = field(default_factory=Counter)
    compaction_turns: list[int] = field(default_factory=list)

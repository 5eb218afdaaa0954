"""What a model run yields: each player turn's outcome, the run's result, and its figures.

The figures (``metrics``) are computed from the turns alone (the judge's per-fact verdicts, the
governance-level statuses of the facts in the block) and the loop's counts of model calls, model
errors, parse failures and proposal outcomes: a replay that gets the same turns gets the same figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tools.model_loop.roles import CONTRADICTED

__all__ = ["ModelRunResult", "TurnResult", "metrics"]


@dataclass
class TurnResult:
    turn: int
    type: str
    target_fact: str | None
    evaluated: bool
    gm: dict[str, Any]
    conflict: dict[str, Any] | None = None
    proposal: dict[str, Any] | None = None
    judge: dict[str, Any] | None = None
    block: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "type": self.type,
            "target_fact": self.target_fact,
            "evaluated": self.evaluated,
            "gm": self.gm,
            "conflict": self.conflict,
            "proposal": self.proposal,
            "judge": self.judge,
            "block": self.block,
        }


@dataclass(frozen=True)
class ModelRunResult:
    scenario: str
    condition: str
    run_id: str
    gm_model: str
    judge_model: str
    turns: tuple[TurnResult, ...]
    metrics: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "condition": self.condition,
            "run_id": self.run_id,
            "gm_model": self.gm_model,
            "judge_model": self.judge_model,
            "turns": [turn.to_json() for turn in self.turns],
            "metrics": self.metrics,
        }


def metrics(turns: Sequence[TurnResult], fact_ids: Sequence[str], counts: Counter[str]) -> dict[str, Any]:
    """The run's figures; ``fact_ids`` are the scenario's ground-truth facts, in order."""
    evaluated = [t for t in turns if t.evaluated]
    judged = [t.judge for t in evaluated if t.judge is not None and t.judge["ok"]]
    verdicts: Counter[str] = Counter(v for j in judged for v in j["facts"].values())
    contradicted = {f for j in judged for f, v in j["facts"].items() if v == CONTRADICTED}
    kept_in_block = [f for f in fact_ids if all(t.block.get(f, "PRESENT") == "PRESENT" for t in evaluated)]
    return {
        "player_turns": len(turns),
        "model_calls": counts["model_calls"],
        "model_errors": counts["model_errors"],
        "parse_failures": counts["parse_failures"],
        "proposals": {
            key.removeprefix("proposal:"): count
            for key, count in sorted(counts.items())
            if key.startswith("proposal:")
        },
        "judge_verdicts": dict(sorted(verdicts.items())),
        "fact_survival_judged": (
            round((len(fact_ids) - len(contradicted)) / len(fact_ids), 6) if judged and fact_ids else None
        ),
        "fact_survival_block": round(len(kept_in_block) / len(fact_ids), 6) if fact_ids else None,
    }

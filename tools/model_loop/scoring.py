"""What a model run yields: each player turn's outcome, the run's result, and its figures.

The figures (``metrics``) are computed from the turns alone (the judge's per-fact verdicts, the
governance-level statuses of the facts in the block) and the loop's counts of model calls, model
errors, parse failures and proposal outcomes: a replay that gets the same turns gets the same figures.

Model-judged survival has a deterministic second opinion: on every evaluated turn the value detector
(``arvis.awmu.values``, pure) reads the game master's reply against each ground-truth fact, and a
fact it finds changed (a CONTRADICTION or REVISION finding) is contradicted by that reading. Both
readings are reported, with how often they agree on a (turn, fact) pair the judge gave a verdict on.
``judge_coverage`` is the share of (evaluated turn, fact) pairs the judge gave a usable verdict on, and
``fact_survival_judged`` is taken over the facts it gave at least one usable verdict on (``facts_judged``;
None when there is none, never a survival of 1 by default).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from arvis.awmu.values import detect_values
from tools.model_loop.roles import CONTRADICTED, UNPARSED


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
    propositions: list[dict[str, Any]] | None = None
    """With an extractor: each statement of the reply, its conflict check and its proposal."""

    def conflicts(self) -> list[dict[str, Any]]:
        """The judge's conflict checks of this turn (of the reply, or of each of its statements)."""
        if self.propositions is None:
            return [] if self.conflict is None else [self.conflict]
        return [p["conflict"] for p in self.propositions if p["conflict"] is not None]

    def to_json(self) -> dict[str, Any]:
        """The fields by name in their declared order, ``propositions`` first and only with an extractor."""
        fields = asdict(self)
        propositions = fields.pop("propositions")
        return fields if propositions is None else {"propositions": propositions, **fields}


@dataclass(frozen=True)
class ModelRunResult:
    scenario: str
    condition: str
    run_id: str
    gm_model: str
    judge_model: str
    turns: tuple[TurnResult, ...]
    metrics: dict[str, Any]
    extractor_model: str | None = None

    def to_json(self) -> dict[str, Any]:
        extractor = {} if self.extractor_model is None else {"extractor_model": self.extractor_model}
        return {
            **extractor,
            "scenario": self.scenario,
            "condition": self.condition,
            "run_id": self.run_id,
            "gm_model": self.gm_model,
            "judge_model": self.judge_model,
            "turns": [turn.to_json() for turn in self.turns],
            "metrics": self.metrics,
        }


def value_verdicts(reply: str, facts: Sequence[tuple[str, str]]) -> dict[str, bool]:
    """Per fact id: does the value detector find ``reply`` changing the fact's value?"""
    found = {finding.unit_id for finding in detect_values(reply, list(facts))}
    return {fact_id: fact_id in found for fact_id, _ in facts}


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 6) if whole else None


def metrics(
    turns: Sequence[TurnResult],
    facts: Sequence[tuple[str, str]],
    counts: Counter[str],
    *,
    block_shown: bool = True,
) -> dict[str, Any]:
    """The run's figures; ``facts`` are the scenario's ground-truth facts (id, text), in order;
    ``block_shown``: the condition gives the assistant a memory block (else no block survival)."""
    fact_ids = [fact_id for fact_id, _ in facts]
    evaluated = [t for t in turns if t.evaluated]
    judgements = [(index, t.judge["facts"]) for index, t in enumerate(evaluated) if t.judge is not None]
    verdicts: Counter[str] = Counter(v for _, found in judgements for v in found.values())
    usable = sum(count for verdict, count in verdicts.items() if verdict != UNPARSED)
    judged_facts = {f for _, found in judgements for f, v in found.items() if v != UNPARSED}
    contradicted = {f for _, found in judgements for f, v in found.items() if v == CONTRADICTED}
    kept_in_block = [f for f in fact_ids if all(t.block.get(f, "PRESENT") == "PRESENT" for t in evaluated)]
    by_value = {  # by the turn's place among the evaluated ones: two turns may share a number
        index: value_verdicts(str(t.gm["text"]), facts)
        for index, t in enumerate(evaluated)
        if t.gm.get("ok") and isinstance(t.gm.get("text"), str)
    }
    value_contradicted = {f for flags in by_value.values() for f, flagged in flags.items() if flagged}
    agreement: Counter[str] = Counter()
    for index, found in judgements:
        for fact_id, verdict in found.items():
            if verdict == UNPARSED or fact_id not in by_value.get(index, {}):
                continue
            judge_says, value_says = verdict == CONTRADICTED, by_value[index][fact_id]
            agreement[
                {(True, True): "both", (True, False): "judge_only", (False, True): "value_only"}.get(
                    (judge_says, value_says), "neither"
                )
            ] += 1
    compared = sum(agreement.values())
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
        "judge_coverage": _share(usable, len(evaluated) * len(fact_ids)),
        "facts_judged": len(judged_facts),
        "fact_survival_judged": _share(len(judged_facts - contradicted), len(judged_facts)),
        "fact_survival_value": _share(len(fact_ids) - len(value_contradicted), len(fact_ids))
        if by_value
        else None,
        "judge_value_agreement": {
            "pairs": compared,
            **{key: agreement[key] for key in ("both", "judge_only", "value_only", "neither")},
            "agreement": _share(agreement["both"] + agreement["neither"], compared),
        },
        "fact_survival_block": _share(len(kept_in_block), len(fact_ids)) if block_shown else None,
    }

"""The comparison conditions: ARC-Mem's ablations, two naive memories a user might otherwise pick, and a
declared stand-in: SCRIPTED_ORACLE, the kernel with a scripted oracle that reads the answer key in place of
a model (an upper bound, never a blind figure)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Condition(StrEnum):
    FULL_AWMU = "FULL_AWMU"
    NO_AWMU = "NO_AWMU"
    FLAT_AUTHORITY = "FLAT_AUTHORITY"
    NO_TRUST = "NO_TRUST"
    NO_RANK_DIFFERENTIATION = "NO_RANK_DIFFERENTIATION"
    NO_LIFECYCLE = "NO_LIFECYCLE"
    RECENCY_BUFFER = "RECENCY_BUFFER"
    LATEST_WINS = "LATEST_WINS"
    SCRIPTED_ORACLE = "SCRIPTED_ORACLE"


@dataclass(frozen=True)
class ConditionPlan:
    """How a condition runs: config overrides, how seeds enter, and whether the block is injected."""

    config: dict[str, Any]
    seed_authority: str | None  # None: the scenario's authority; else this one for every seed
    canonize_seeds: bool  # CANON seeds become CANON through canonize + an operator's review
    inject: bool  # NO_AWMU: the memory runs but the agent is given no block
    oracle: bool = False  # a scripted stand-in for a model reads the answer key (never a blind figure)


_NAIVE = {"admission": "all", "eviction": "oldest", "lifecycle_enabled": False, "budget": 20}

CONDITIONS: dict[Condition, ConditionPlan] = {
    Condition.FULL_AWMU: ConditionPlan({}, None, True, True),
    Condition.NO_AWMU: ConditionPlan({}, None, True, False),
    Condition.FLAT_AUTHORITY: ConditionPlan({"promotion_enabled": False}, "RELIABLE", False, True),
    Condition.NO_TRUST: ConditionPlan({"trust_enabled": False}, None, True, True),
    Condition.NO_RANK_DIFFERENTIATION: ConditionPlan({"rank_enabled": False}, None, True, True),
    Condition.NO_LIFECYCLE: ConditionPlan({"lifecycle_enabled": False}, None, True, True),
    Condition.RECENCY_BUFFER: ConditionPlan(
        {**_NAIVE, "conflict_policy": "coexist"}, "PROVISIONAL", False, True
    ),
    Condition.LATEST_WINS: ConditionPlan(
        {**_NAIVE, "conflict_policy": "replace"}, "PROVISIONAL", False, True
    ),
    Condition.SCRIPTED_ORACLE: ConditionPlan({}, None, True, True, oracle=True),
}

BLIND_CONDITIONS = tuple(condition for condition in Condition if not CONDITIONS[condition].oracle)

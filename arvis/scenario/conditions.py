"""The comparison conditions: ARC-Mem's ablations and two naive memories a user might otherwise pick."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["CONDITIONS", "Condition", "ConditionPlan"]


class Condition(StrEnum):
    FULL_AWMU = "FULL_AWMU"
    NO_AWMU = "NO_AWMU"
    FLAT_AUTHORITY = "FLAT_AUTHORITY"
    NO_TRUST = "NO_TRUST"
    NO_RANK_DIFFERENTIATION = "NO_RANK_DIFFERENTIATION"
    NO_LIFECYCLE = "NO_LIFECYCLE"
    RECENCY_BUFFER = "RECENCY_BUFFER"
    LATEST_WINS = "LATEST_WINS"


@dataclass(frozen=True)
class ConditionPlan:
    """How a condition runs: config overrides, how seeds enter, and whether the block is injected."""

    config: dict[str, Any]
    seed_authority: str | None  # None: the scenario's authority; else this one for every seed
    canonize_seeds: bool  # CANON seeds become CANON through canonize + an operator's review
    inject: bool  # NO_AWMU: the memory runs but the agent is given no block


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
}

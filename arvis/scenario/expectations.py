"""What a scenario's assertions check, in plain words, and under which conditions each is expected to hold.

A scenario file's ``assertions`` (ARC-Mem's) are checked on the final state of every run, whatever the
condition. Not every condition is meant to satisfy every one: a naive memory is there to be compared,
and an ablation switches off the very mechanism some assertions check. Which is which follows from what
each condition switches off (``arvis.scenario.conditions``), never from a scenario file: the same rule
for every file. Pure: reads an assertion's type and params, nothing else.
"""

from __future__ import annotations

from typing import Any

from arvis.scenario.conditions import Condition

# one line per condition, in plain words, for the demo and the reports
CONDITION_SUMMARY = {
    Condition.FULL_AWMU: "the memory kernel, every mechanism on",
    Condition.NO_AWMU: "the kernel runs, but the agent is given no block",
    Condition.FLAT_AUTHORITY: "every seed RELIABLE, no promotion, no CANON",
    Condition.NO_TRUST: "trust scoring off: every proposal zoned AUTO_PROMOTE",
    Condition.NO_RANK_DIFFERENTIATION: "ranks off: every unit at one rank",
    Condition.NO_LIFECYCLE: "no decay, no lifecycle",
    Condition.RECENCY_BUFFER: "a naive memory: the latest 20 statements, side by side",
    Condition.LATEST_WINS: "a naive memory: the latest statement replaces what it contradicts",
    Condition.SCRIPTED_ORACLE: "the kernel with a scripted oracle that reads the answer key: an upper bound",
}

_RANKS = frozenset({"activation-score-distribution", "rank-distribution"})
_NAIVE = "a naive memory, run for comparison"
# per condition, the assertion types it switches off the mechanism of, and why
_SWITCHED_OFF: dict[Condition, dict[str, str]] = {
    Condition.NO_AWMU: {"compaction-integrity": "the agent is given no block, so no fact is in it"},
    Condition.FLAT_AUTHORITY: dict.fromkeys(_RANKS, "no CANON unit: every rank decays"),
    Condition.NO_TRUST: {
        "promotion-zone": "trust off: every proposal is zoned AUTO_PROMOTE",
        "trust-score-range": "trust off: no trust score caps a unit's authority",
    },
    Condition.NO_RANK_DIFFERENTIATION: dict.fromkeys(_RANKS, "ranks off: every unit at one rank"),
}


def not_expected(condition: str, assertion_type: str) -> str | None:
    """None when the assertion is expected to hold under ``condition``, else why it is not."""
    try:
        chosen = Condition(condition)
    except ValueError:
        return None
    if chosen in (Condition.RECENCY_BUFFER, Condition.LATEST_WINS):
        return _NAIVE
    return _SWITCHED_OFF.get(chosen, {}).get(assertion_type)


def _param(params: dict[str, Any], name: str, default: Any) -> str:
    value = params.get(name, default)
    return f"{value:g}" if isinstance(value, float) else str(value)


def checks(assertion_type: str, params: dict[str, Any]) -> str:
    """What the assertion checks on the final state, in plain words."""
    if assertion_type == "unit-count":
        return f"between {_param(params, 'min', 0)} and {_param(params, 'max', 'any number of')} active units"
    if assertion_type in _RANKS:
        above, threshold = _param(params, "minAbove", 1), _param(params, "rankThreshold", 500)
        return f"at least {above} active units ranked above {threshold}"
    if assertion_type == "trust-score-range":
        span = f"[{_param(params, 'min', 0.0)}, {_param(params, 'max', 1.0)}]"
        scope = params.get("minAuthority")
        among = f"every active unit at {scope} or above" if scope else "every active unit"
        return f"the trust score of {among} (seeds have none) is in {span}"
    if assertion_type == "promotion-zone":
        zone = str(params.get("zone", "AUTO_PROMOTE")).upper()
        return f"at least {_param(params, 'minCount', 1)} proposals were assessed in trust zone {zone}"
    if assertion_type == "authority-at-most":
        return f"no active unit is above {str(params.get('maxAuthority', 'RELIABLE')).upper()}"
    if assertion_type == "kg-context-contains":
        patterns = "; ".join(f'"{pattern}"' for pattern in params.get("patterns") or [])
        return f"the active units contain {patterns}"
    if assertion_type == "kg-context-empty":
        return "no unit is active at the end"
    if assertion_type == "no-canon-auto-assigned":
        return "no unit became CANON without an approved review (always checked)"
    if assertion_type == "compaction-integrity":
        facts = ", ".join(str(item) for item in params.get("requiredFacts") or []) or "every fact"
        return f"{facts} in the block after every compaction"
    return f"unknown assertion type {assertion_type!r}: never holds"

"""Operator invariants: rules over units matched by text, checked before every change they cover."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from arvis.awmu.config import InvariantRule, InvariantStrength, InvariantType
from arvis.awmu.model import Unit, UnitStatus, authority_rank


class Change(StrEnum):
    DEMOTE = "demote"
    EVICT = "evict"
    ARCHIVE = "archive"
    SUPERSEDE = "supersede"


@dataclass(frozen=True)
class Violation:
    rule_id: str
    strength: InvariantStrength
    message: str


def _matches(rule: InvariantRule, unit: Unit) -> bool:
    return rule.unit_text_pattern.lower() in unit.text.lower()


def _counts(unit: Unit, floor: int) -> int:
    return int(unit.status is UnitStatus.ACTIVE and authority_rank(unit.authority) >= floor)


def check_change(
    rules: Iterable[InvariantRule], before: Unit, after: Unit, change: Change, active: Iterable[Unit]
) -> list[Violation]:
    """The rules the change from ``before`` to ``after`` would break; ``active`` is the set before it."""
    found: list[Violation] = []
    active_units = list(active)
    for rule in rules:
        if not _matches(rule, before):
            continue
        broken = None
        leaving = after.status is not UnitStatus.ACTIVE
        if rule.type is InvariantType.AUTHORITY_FLOOR:
            if not leaving and authority_rank(after.authority) < authority_rank(rule.minimum_authority):
                broken = f"would drop below {rule.minimum_authority.value}"
        elif rule.type is InvariantType.EVICTION_IMMUNITY:
            if change is Change.EVICT:
                broken = "would be evicted"
        elif rule.type is InvariantType.ARCHIVE_PROHIBITION:
            if leaving:
                broken = f"would leave the active set ({change.value})"
        elif rule.type is InvariantType.MIN_AUTHORITY_COUNT:
            floor = authority_rank(rule.minimum_authority)
            before_count = sum(1 for unit in active_units if _matches(rule, unit) and _counts(unit, floor))
            remaining = before_count - _counts(before, floor) + _counts(after, floor)
            if remaining < rule.minimum_count and remaining < before_count:
                broken = f"would leave {remaining} matching units at {rule.minimum_authority.value} or above"
        if broken is not None:
            found.append(
                Violation(rule.id, rule.strength, f"invariant {rule.id}: unit {before.unit_id} {broken}")
            )
    return found

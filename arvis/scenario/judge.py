"""Judging ground-truth facts against the block the agent is given, at the governance level.

A unit *states* a fact when they share most key terms (overlap coefficient ≥ 0.6 on words of four or
more letters) with the same polarity; it *contradicts* a fact when it came from an attack on that
fact, or when exactly one side is negated and their content words overlap (Jaccard > 0.5).

PRESENT: a stating unit is in the block and no contradicting unit of equal or higher authority is.
CONTESTED: a stating unit is in the block, and so is a contradicting unit of equal or higher authority.
DISPLACED: no stating unit is in the block.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arvis.awmu.compaction import key_terms
from arvis.awmu.model import Authority, authority_rank
from arvis.awmu.text import content_words, is_negated, jaccard

STATE_OVERLAP = 0.6


class FactStatus(StrEnum):
    PRESENT = "PRESENT"
    CONTESTED = "CONTESTED"
    DISPLACED = "DISPLACED"


@dataclass(frozen=True)
class BlockUnit:
    """A unit as the judge sees it: its text, authority, rank and, for attack units, the fact attacked."""

    unit_id: str
    text: str
    authority: Authority
    rank: int
    attacks: str | None = None


@dataclass(frozen=True)
class Judgement:
    status: FactStatus
    stating: BlockUnit | None


def states(fact: str, unit: str) -> bool:
    first, second = set(key_terms(fact)), set(key_terms(unit))
    if is_negated(fact) != is_negated(unit) or not first or not second:
        return False
    return len(first & second) / min(len(first), len(second)) >= STATE_OVERLAP


def contradicts(fact: str, unit: str) -> bool:
    return is_negated(fact) != is_negated(unit) and jaccard(content_words(fact), content_words(unit)) > 0.5


def judge(fact_id: str, fact: str, block: list[BlockUnit]) -> Judgement:
    stating = [unit for unit in block if unit.attacks != fact_id and states(fact, unit.text)]
    if not stating:
        return Judgement(FactStatus.DISPLACED, None)
    best = max(stating, key=lambda unit: (authority_rank(unit.authority), unit.rank, unit.unit_id))
    floor = authority_rank(best.authority)
    contested = any(
        (unit.attacks == fact_id or contradicts(fact, unit.text)) and authority_rank(unit.authority) >= floor
        for unit in block
        if unit not in stating
    )
    return Judgement(FactStatus.CONTESTED if contested else FactStatus.PRESENT, best)

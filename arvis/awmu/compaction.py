"""Compaction check and the pressure gauge.

A protected unit (CANON, pinned or RELIABLE) survives a summary when at least half of its key terms
(words of four or more letters, negations always included) occur in the summary as substrings; the
strict check asks for every key term as a whole word.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from arvis.awmu.config import AwmuConfig
from arvis.awmu.model import Unit
from arvis.awmu.text import NEGATIONS, words

PRESSURE_WINDOW = 5


@dataclass(frozen=True)
class CompactionLoss:
    unit_id: str
    text: str
    missing_terms: tuple[str, ...]


def key_terms(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(word for word in words(text) if len(word) >= 4 or word in NEGATIONS))


def protected_losses(active: list[Unit], summary: str, *, strict: bool) -> tuple[int, list[CompactionLoss]]:
    """How many units are protected, and which of them the summary loses."""
    lowered = summary.lower()
    summary_words = set(words(summary))
    protected = sorted((unit for unit in active if unit.trusted), key=lambda unit: unit.unit_id)
    losses = []
    for unit in protected:
        terms = key_terms(unit.text)
        if strict:
            missing = tuple(term for term in terms if term not in summary_words)
            lost = bool(missing)
        else:
            missing = tuple(term for term in terms if term not in lowered)
            lost = bool(terms) and (len(terms) - len(missing)) * 2 < len(terms)
        if lost:
            losses.append(CompactionLoss(unit.unit_id, unit.text, missing))
    return len(protected), losses


def pressure(
    config: AwmuConfig, *, active: int, conflicts: int, demotions: int, compactions: int
) -> dict[str, float]:
    """0.4·(active/budget)^1.5 + 0.3·conflicts + 0.2·demotions + 0.1·compactions, counts over the last
    five turns divided by five and capped at 1. ``x^1.5`` is computed as ``x·sqrt(x)`` (exact IEEE)."""
    utilisation = min(active / config.budget, 1.0)
    parts = {
        "utilisation": utilisation * math.sqrt(utilisation),
        "conflicts": min(conflicts / PRESSURE_WINDOW, 1.0),
        "demotions": min(demotions / PRESSURE_WINDOW, 1.0),
        "compactions": min(compactions / PRESSURE_WINDOW, 1.0),
    }
    score = (
        0.4 * parts["utilisation"]
        + 0.3 * parts["conflicts"]
        + 0.2 * parts["demotions"]
        + 0.1 * parts["compactions"]
    )
    return {"score": min(score, 1.0), **parts}

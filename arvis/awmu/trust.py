"""Trust: a composite score from weighted signals, its promotion zone, and the authority ceiling."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from arvis.awmu.config import AwmuConfig
from arvis.awmu.model import Authority, Unit
from arvis.awmu.origin import authority_of
from arvis.awmu.text import content_words, jaccard


class Zone(StrEnum):
    AUTO_PROMOTE = "AUTO_PROMOTE"
    REVIEW = "REVIEW"
    ARCHIVE = "ARCHIVE"


@dataclass(frozen=True)
class TrustAssessment:
    score: float
    signals: dict[str, float]
    zone: Zone
    ceiling: Authority


def ceiling_for(score: float) -> Authority:
    """The highest authority a unit of this trust may reach automatically: never CANON."""
    if score >= 0.80:
        return Authority.RELIABLE
    if score >= 0.50:
        return Authority.UNRELIABLE
    return Authority.PROVISIONAL


def assess_trust(
    config: AwmuConfig,
    *,
    text: str,
    source: str,
    confidence: float,
    active: Iterable[Unit],
    corroborating_sources: int,
) -> TrustAssessment:
    """Score = clamp01(Σ value·weight over the signals); every signal here is always present."""
    profile = config.profile
    proposal = content_words(text)
    overlaps = [jaccard(proposal, content_words(unit.text)) for unit in active]
    known = set[str]().union(*(content_words(unit.text) for unit in active))
    best = max(overlaps, default=None)
    signals = {
        "source_authority": authority_of(config, source),
        "extraction_confidence": confidence,
        "graph_consistency": 0.5 if best is None else best,
        "corroboration": 0.3 if corroborating_sources <= 1 else 0.6 if corroborating_sources == 2 else 0.9,
        "novelty": 1.0 if best is None else 1.0 - best,
        "importance": (len(proposal & known) / len(proposal)) if proposal else 0.0,
    }
    total = 0.0
    for name in sorted(signals):  # a fixed summation order: float addition is not associative
        total += signals[name] * getattr(profile, name)  # the profile weighs each signal by its name
    score = round(min(max(total, 0.0), 1.0), 6)  # round() is exact and platform-independent
    if not config.trust_enabled:
        return TrustAssessment(score, signals, Zone.AUTO_PROMOTE, Authority.RELIABLE)
    zone = Zone.REVIEW if score >= profile.review else Zone.ARCHIVE
    if score >= profile.auto_promote:
        zone = Zone.AUTO_PROMOTE
    return TrustAssessment(score, signals, zone, ceiling_for(score))

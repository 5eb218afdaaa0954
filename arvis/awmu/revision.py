"""Rules 3: revision as an outcome, and entrenchment that follows provenance.

A conflict's resolution here answers two questions the tier table of rules 2 did not ask: is the
incoming statement an update (a ``REVISION``: a changed value of the same subject that its text marks as
an update, or a judge's verdict), and may its source revise the fact it updates?

- A source may revise a fact when it established it (the fact's first source) and the context does not
  rate it below its default source authority, when the caller is one of
  the context's operators, or when the context's ``source_authorities`` give the source at least
  :data:`~arvis.awmu.ruleset.REVISE_SOURCE_AUTHORITY` for the fact's authority. Its update supersedes
  the fact ("supersession = archive + create successor"); otherwise the update waits, with its reason.
- A learned fact (a proposal's unit) is defended against another source: that source's contradiction
  or update waits, and its claim on the fact's subject by meaning alone (no detector confirmed a
  conflict) stands beside the fact, both marked disputed in the block; its own source revises it.
- Authority still orders who wins: a contradiction, marked as no update, displaces only a PROVISIONAL
  fact and only when an independent source corroborates it; one source's word displaces nothing.

Every resolution carries a ``reason`` (one of :data:`REASONS`), recorded with the conflict and, for a
queued statement, with its queue item, so that what waits says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arvis.awmu.config import AwmuConfig
from arvis.awmu.detection import Readings, subject_claim
from arvis.awmu.model import Authority, Unit, authority_rank
from arvis.awmu.origin import authority_of
from arvis.awmu.resolution import Conflict, ConflictType, Resolution
from arvis.awmu.ruleset import CLAIM_SIMILARITY, REVISE_SOURCE_AUTHORITY

GROUNDS = ("source", "operator", "channel")
"""Why a source may revise a fact: it established it, the caller operates the context, or the context
trusts the source for the fact's authority."""

REASONS = (
    "progression",  # the story moved on: both stand
    "claim",  # a claim on the fact's subject by meaning, unconfirmed: it waits
    "protected",  # CANON or pinned: only an explicit archive removes it
    "replace_policy",  # the naive baseline: the newer statement wins
    *GROUNDS,  # an update by a source that may revise the fact: it supersedes it
    "corroborated",  # an independent source said the same: the corroborated statement wins
    "not_a_reviser",  # an update by a source that may not revise the fact: it waits
    "outranked",  # the statement's trust ceiling is below the fact's authority: it waits
    "contradiction",  # a contradiction, not an update, of a fact one source may not displace: it waits
    "context",  # another statement of the same message contests the fact: it waits with it
)


@dataclass(frozen=True)
class Asker:
    """Who a proposal comes from: its source, and whether the caller operates the context."""

    source: str
    operator: bool


def revision_ground(config: AwmuConfig, unit: Unit, asker: Asker) -> str | None:
    """Why ``asker`` may revise ``unit`` (one of :data:`GROUNDS`), or None when it may not. CANON and
    pinned units are revised by no statement."""
    if unit.protected:
        return None
    authority = authority_of(config, asker.source)
    established = bool(unit.source_ids) and unit.source_ids[0] == asker.source
    if established and authority >= config.default_source_authority:  # a distrusted channel: not alone
        return "source"
    if asker.operator:
        return "operator"
    if authority >= REVISE_SOURCE_AUTHORITY[unit.authority.value]:
        return "channel"
    return None


def resolve_revision(
    config: AwmuConfig,
    conflict: Conflict,
    existing: Unit,
    ceiling: Authority,
    asker: Asker,
    *,
    corroborated: bool,
) -> tuple[Resolution, str]:
    """What a conflict does to ``existing``, and why (one of :data:`REASONS`)."""
    if conflict.type is ConflictType.WORLD_PROGRESSION or config.conflict_policy == "coexist":
        return Resolution.COEXIST, "progression"
    if conflict.evidence is not None and conflict.evidence.get("slot") == "subject":
        # unconfirmed: a claim on a trusted fact waits; one on a learned fact stands beside it, disputed
        return (Resolution.COEXIST if conflict.evidence.get("learned") else Resolution.QUEUE), "claim"
    if existing.protected:
        return Resolution.KEEP_EXISTING, "protected"
    if config.conflict_policy == "replace":
        return Resolution.REPLACE, "replace_policy"
    outranked = authority_rank(ceiling) < authority_rank(existing.authority)
    if conflict.type is ConflictType.REVISION:
        ground = revision_ground(config, existing, asker)
        if ground is not None:
            return Resolution.REPLACE, ground
        if corroborated and not outranked:
            return Resolution.REPLACE, "corroborated"
        return Resolution.QUEUE, "not_a_reviser"
    if outranked:
        return Resolution.QUEUE, "outranked"
    if existing.authority is Authority.PROVISIONAL and corroborated:
        return Resolution.REPLACE, "corroborated"
    return Resolution.QUEUE, "contradiction"


def learned_claims(
    units: Sequence[Unit], readings: Readings, found: set[str], source: str
) -> dict[str, Conflict]:
    """Learned units (a proposal's, not yet trusted) that another source's text is about, by meaning,
    without any detector confirming a conflict: a claim on a learned subject, defended as one on a
    trusted subject is (``arvis.awmu.detection`` finds those)."""
    claims: dict[str, Conflict] = {}
    for unit in units:
        if unit.unit_id in found or unit.trusted or unit.trust_score is None or source in unit.source_ids:
            continue
        similarity = readings.similarity(unit.unit_id)
        if similarity < CLAIM_SIMILARITY:
            continue
        claims[unit.unit_id] = subject_claim(unit, similarity, learned=True)
    return claims

"""Detectors by meaning, in layers (rules 2), over what the call was given and what was recorded.

- ``lexical`` (this module's caller keeps rules 1's detector): negation mismatch plus word overlap.
- ``value`` (``arvis.awmu.values``): same subject, different value (numbers, dates, names, identifiers,
  polarity, antonyms); pure, so it is recomputed on replay.
- ``semantic``: similarities from a sentence encoder bound outside the core. The core never runs it: it
  gets a :class:`DetectorRun` whose scores the syscall layer measured (live) or read back from the journal
  (replay), and uses them only through thresholds of :mod:`arvis.awmu.ruleset`.

Every run, whether it found something, was absent, failed or timed out, is reported in the call's result
(``detectors``), so a reader sees which layers decided.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arvis.awmu.compaction import key_terms
from arvis.awmu.config import AwmuConfig
from arvis.awmu.framing import FRAMING_DETECTOR
from arvis.awmu.model import Unit
from arvis.awmu.resolution import Conflict, ConflictType
from arvis.awmu.ruleset import (
    CLAIM_SIMILARITY,
    DUPLICATE_SIMILARITY,
    MAX_MENTION_SENTENCES,
    MENTION_SIMILARITY,
)
from arvis.awmu.text import content_words, is_negated, jaccard, reader_version
from arvis.awmu.utterance import mentions, sentences
from arvis.awmu.values import VALUE_DETECTOR, detect_values, same_values

LEXICAL_VERSION = "1"


@dataclass(frozen=True)
class DetectorRun:
    """One detector's run for one call: its identity, how it went, and the scores it produced.

    ``status``: ``ok``; ``absent`` (not installed or not bound); ``failed`` (it raised: ``detail`` says
    what); ``timeout``. Scores map unit ids to similarities (4 decimals)."""

    name: str
    version: str
    status: str
    scores: Mapping[str, float] = field(default_factory=dict)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"name": self.name, "version": self.version, "status": self.status}
        if self.detail:
            wire["detail"] = self.detail
        if self.ok:
            wire["scores"] = {unit_id: self.scores[unit_id] for unit_id in sorted(self.scores)}
        return wire

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> DetectorRun:
        scores = wire.get("scores") or {}
        return cls(
            name=str(wire.get("name", "")),
            version=str(wire.get("version", "")),
            status=str(wire.get("status", "")),
            scores={str(key): float(value) for key, value in scores.items()},
            detail=str(wire.get("detail", "")),
        )


SEMANTIC_ABSENT = DetectorRun("semantic", "", "absent")


@dataclass(frozen=True)
class Readings:
    """What the detectors outside the core measured for this call."""

    semantic: DetectorRun = SEMANTIC_ABSENT

    def similarity(self, unit_id: str) -> float:
        """The recorded similarity to the unit, within [0, 1] (0 when not recorded)."""
        score = self.semantic.scores.get(unit_id, 0.0) if self.semantic.ok else 0.0
        return min(max(score, 0.0), 1.0)

    def wire(self, rules: int = 2) -> list[dict[str, Any]]:
        """The detectors of a call under ``rules`` (2 or later), in the order they run: the value and
        framing detectors read with the context's reader version (``text.reader_version``)."""
        version = str(reader_version(rules))
        return [
            {"name": "lexical", "version": LEXICAL_VERSION, "status": "ok"},
            {"name": VALUE_DETECTOR, "version": version, "status": "ok"},
            {"name": FRAMING_DETECTOR, "version": version, "status": "ok"},
            self.semantic.wire(),
        ]


def _lexical(config: AwmuConfig, text: str, units: Sequence[Unit], readings: Readings) -> dict[str, Conflict]:
    """Rules 1's detector (``detect_lexical``: exactly one side negated, content-word overlap above the
    context's ``lexical_conflict_overlap``) widened by meaning: the overlap may be replaced by a recorded
    similarity of at least ``MENTION_SIMILARITY``."""
    negated = is_negated(text)
    words = content_words(text)
    found: dict[str, Conflict] = {}
    for unit in units:
        if is_negated(unit.text) == negated:
            continue
        overlap = jaccard(words, content_words(unit.text))
        similarity = readings.similarity(unit.unit_id)
        by_words = overlap > config.lexical_conflict_overlap
        if by_words or similarity >= MENTION_SIMILARITY:
            found[unit.unit_id] = Conflict(
                unit.unit_id,
                ConflictType.CONTRADICTION,
                config.lexical_conflict_confidence,
                "lexical" if by_words else "semantic",
                {"slot": "polarity", "overlap": round(overlap, 4), "similarity": similarity},
            )
    return found


def _claims(units: Sequence[Unit], readings: Readings, found: dict[str, Conflict]) -> dict[str, Conflict]:
    """Trusted units (RELIABLE, CANON, pinned) the text is about, by meaning, without restating them: a
    claim on a trusted subject that no detector could confirm or rule out is a candidate conflict."""
    claims: dict[str, Conflict] = {}
    for unit in units:
        similarity = readings.similarity(unit.unit_id)
        if unit.unit_id in found or not unit.trusted or similarity < CLAIM_SIMILARITY:
            continue
        claims[unit.unit_id] = subject_claim(unit, similarity)
    return claims


def subject_claim(unit: Unit, similarity: float, **marks: bool) -> Conflict:
    """A candidate conflict with ``unit`` found by meaning alone: a claim on its subject."""
    evidence = {"slot": "subject", "similarity": similarity, **marks}
    return Conflict(unit.unit_id, ConflictType.CONTRADICTION, similarity, "semantic", evidence)


def detect(
    config: AwmuConfig,
    text: str,
    units: Sequence[Unit],
    readings: Readings,
    *,
    claims: bool = False,
    rules: int = 2,
) -> list[Conflict]:
    """Conflicts of ``text`` with ``units`` by value first, then by polarity; with ``claims`` (a proposal,
    not a turn's mention check), then claims on trusted subjects. One per unit, by unit id. ``rules``:
    the context's rule set, which names the value detector's version."""
    related = {unit.unit_id: readings.similarity(unit.unit_id) for unit in units}
    found: dict[str, Conflict] = {}
    pairs = [(unit.unit_id, unit.text) for unit in units]
    for finding in detect_values(text, pairs, related, reader_version(rules)):
        found[finding.unit_id] = Conflict(
            finding.unit_id,
            ConflictType(finding.kind),
            finding.confidence,
            VALUE_DETECTOR,
            {
                "slot": finding.slot,
                "existing": finding.existing,
                "incoming": finding.incoming,
                "subject": finding.subject,
                "similarity": related[finding.unit_id],
            },
        )
    for unit_id, conflict in _lexical(config, text, units, readings).items():
        found.setdefault(unit_id, conflict)
    if claims:
        found.update(_claims(units, readings, found))
    return [found[unit_id] for unit_id in sorted(found)]


def paraphrase_of(text: str, units: Sequence[Unit], readings: Readings, rules: int = 2) -> Unit | None:
    """The unit ``text`` restates in other words (similar enough, same polarity, no value differs)."""
    best: tuple[float, str] | None = None
    chosen: Unit | None = None
    for unit in units:
        similarity = readings.similarity(unit.unit_id)
        if similarity < DUPLICATE_SIMILARITY or is_negated(unit.text) != is_negated(text):
            continue
        if not same_values(text, unit.text, reader_version(rules)):
            continue
        key = (-similarity, unit.unit_id)
        if best is None or key < best:
            best, chosen = key, unit
    return chosen


def mentioned(
    config: AwmuConfig, text: str, units: Sequence[Unit], readings: Readings, rules: int = 2
) -> dict[str, str]:
    """Units ``text`` talks about without contradicting them: unit id → ``lexical`` or ``semantic``.

    A mention is two shared key terms, or a similarity of at least ``MENTION_SIMILARITY``; a text with a
    sentence that conflicts with the unit (by value or polarity) does not reinforce it."""
    if not key_terms(text):
        return {}
    candidates: dict[str, str] = {}
    for unit in units:
        if mentions(text, unit.text):
            candidates[unit.unit_id] = "lexical"
        elif readings.similarity(unit.unit_id) >= MENTION_SIMILARITY:
            candidates[unit.unit_id] = "semantic"
    if not candidates:
        return {}
    mentioned_units = [unit for unit in units if unit.unit_id in candidates]
    # each sentence on its own words: the whole text's similarity says nothing about one of its sentences
    conflicting = {
        conflict.unit_id
        for sentence in sentences(text)[:MAX_MENTION_SENTENCES]
        for conflict in detect(config, sentence, mentioned_units, Readings(), rules=rules)
    }
    return {unit_id: how for unit_id, how in candidates.items() if unit_id not in conflicting}

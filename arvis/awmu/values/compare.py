"""Comparing two profiles: which values clash, whether the texts share a subject, and the finding."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from arvis.awmu.ruleset import SUBJECT_SIMILARITY
from arvis.awmu.values.extract import Value
from arvis.awmu.values.lexicon import _PREFIXES
from arvis.awmu.values.profile import _Name, _Profile, _profile

VALUE_DETECTOR = "value"
VALUE_DETECTOR_VERSION = "3"
"""The latest version; a call reads with the version its context's rules name (1 under rules 1 and 2)."""

# an embedding similarity at or above this makes a pair the same subject when the words barely overlap
RELATED_SUBJECT = SUBJECT_SIMILARITY
# subject overlap a slot needs before a differing value counts: chosen by measurement on the 17 arvis
# and 33 upstream scenarios (no finding on any benign statement, every look-alike swap still found)
VALUE_SUBJECT = 0.3
NAME_SUBJECT = 0.4
SWAP_SUBJECT = 0.2
POLARITY_SUBJECT = 0.5
# added to the smaller side's size: one shared word of two is weaker evidence than two of three
SMOOTHING = 1
# at least this many shared subject words, whatever the overlap coefficient
MIN_SHARED = 1
MIN_SHARED_POLARITY = 2
# a negated clause must have this share of its words in the other text to contradict it
CLAUSE_COVER = Decimal("0.75")

CONTRADICTION = "CONTRADICTION"
REVISION = "REVISION"
SLOTS = ("identifier", "number", "date", "name", "antonym", "polarity")
_SLOT_WEIGHT = {
    "identifier": Decimal("1.0"),
    "number": Decimal("1.0"),
    "date": Decimal("0.95"),
    "name": Decimal("0.9"),
    "antonym": Decimal("0.85"),
    "polarity": Decimal("0.85"),
}
_FOUR = Decimal("0.0001")


@dataclass(frozen=True)
class ValueFinding:
    unit_id: str
    kind: str  # "CONTRADICTION" | "REVISION"
    slot: str  # "number" | "date" | "name" | "identifier" | "polarity" | "antonym"
    existing: str  # the value as found in the stored unit's text
    incoming: str  # the value as found in the incoming text
    subject: float  # how strongly the two texts are about the same subject (0..1, 4 decimals)
    confidence: float  # 0..1, 4 decimals


def _round(value: Decimal | float) -> float:
    return float(Decimal(repr(value) if isinstance(value, float) else value).quantize(_FOUR))


def subject_overlap(text: str, other: str) -> float:
    """Overlap coefficient of the two texts' subject words (0..1, 4 decimals)."""
    first, second = _profile(text).subject, _profile(other).subject
    if not first or not second:
        return 0.0
    return _round(Decimal(len(first & second)) / Decimal(min(len(first), len(second))))


# how two names relate: one contains the other, one word swapped for a look-alike ("Beatrix Vollmer" /
# "Bettina Vollmer"), one word swapped for an unlike one ("Cohort Azure" / "Cohort Tide": siblings,
# two things of one kind), or nothing in common
SAME, SWAP, SIBLING, UNRELATED = "same", "swap", "sibling", "unrelated"


def _relation(first: frozenset[str], second: frozenset[str]) -> str:
    if first <= second or second <= first:
        return SAME
    if not first & second:
        return UNRELATED
    rest = sorted(first - second), sorted(second - first)
    # two words that differ only partly: a shared start of two letters or more ("Okafor"/"Okonjo")
    alike = any(len(a) > 2 and len(b) > 2 and a[:2] == b[:2] for a in rest[0] for b in rest[1])
    return SWAP if alike else SIBLING


def _present(name: _Name, other: _Profile) -> bool:
    """The other text names it too: a name of it, or one of its words, with no sibling name there."""
    relations = {_relation(name.parts, theirs.parts) for theirs in other.names}
    if SAME in relations or SWAP in relations:
        return True
    return SIBLING not in relations and bool(name.parts & other.vocabulary)


def _different_subjects(existing: _Profile, incoming: _Profile) -> bool:
    """A name leading the incoming text that the stored one lacks, or a name leading the stored text
    that an incoming text with names of its own lacks: different things ("Contractor Ilse Brandt is paid
    ..." / "Supplier Norvik Steel is paid ..."; "Cohort Azure uses ..." / "... for Cohort Tide ...").
    An incoming text naming nothing ("We owe them ...") keeps the stored subject."""
    strange = any(name.lead and not _present(name, existing) for name in incoming.names)
    # version 2: the incoming text names the entity leading the stored one, in full or by a part of its
    # name ("Keller ..." for "Dr. Maria Keller ..."): a new name beside it does not make it another subject
    if strange and not (
        existing.version >= 2 and any(name.lead and _present(name, incoming) for name in existing.names)
    ):
        return True
    return bool(incoming.names) and any(name.lead and not _present(name, incoming) for name in existing.names)


def _siblings(existing: _Profile, incoming: _Profile) -> bool:
    """Version 2: the same word modified otherwise on each side, by words the other side lacks ("the
    wedding cake" / "the christening cake", "cruise speed" / "landing speed"): two things of one kind,
    whose values do not compete."""
    return any(
        head == other_head
        and modifier != other
        and modifier not in incoming.vocabulary
        and other not in existing.vocabulary
        for modifier, head in existing.pairs
        for other, other_head in incoming.pairs
    )


def _compatible(anchor: str, other: str, existing: _Profile, incoming: _Profile) -> bool:
    """Two values' attributes may be one: either is unknown, they agree, or each text holds the other's."""
    return (
        not anchor
        or not other
        or anchor == other
        or (anchor in incoming.vocabulary and other in existing.vocabulary)
    )


def _same_attribute(existing: _Profile, incoming: _Profile, key: str) -> frozenset[str]:
    """Version 2: the stored values of ``key`` whose attribute is one the incoming values of ``key`` may
    have: of a stored text holding several ("departs at 9:40 and boards at 9:10"), only those that
    compete with an incoming one ("boards at 9:15" competes with 9:10 alone)."""
    old = [(v, a) for v, a in zip(existing.values, existing.anchors, strict=True) if v.key == key]
    new = [a for v, a in zip(incoming.values, incoming.anchors, strict=True) if v.key == key]
    if len(old) < 2:
        return frozenset(v.norm for v, _ in old)
    return frozenset(v.norm for v, a in old if any(_compatible(a, b, existing, incoming) for b in new))


class _Clash(NamedTuple):
    slot: str
    existing: str
    incoming: str
    strength: Decimal  # how sure the values differ, before the subject is weighed


def _keyed(values: tuple[Value, ...]) -> dict[str, list[Value]]:
    out: dict[str, list[Value]] = {}
    for value in values:
        if value.slot != "name":
            out.setdefault(value.key, []).append(value)
    return out


# an incoming text holding more values than this for one key lists options rather than states one
LIST_SIZE = 2


def _value_clashes(existing: _Profile, incoming: _Profile) -> list[_Clash]:
    """Keys both texts fill with no value in common. A bare number (no unit, no label before it) says
    too little to compare; an incoming slot that lists options ("Wednesday, Thursday or Friday") is
    not a change."""
    mine, theirs = _keyed(existing.values), _keyed(incoming.values)
    listed = {values[0].slot for values in theirs.values() if len({v.norm for v in values}) > LIST_SIZE}
    clashes: list[_Clash] = []
    if existing.version >= 2 and _siblings(existing, incoming):
        return clashes
    for key in sorted(mine.keys() & theirs.keys() - {"number:"}):
        old, new = mine[key], theirs[key]
        if existing.version >= 2:
            competing = _same_attribute(existing, incoming, key)
            old = [v for v in old if v.norm in competing]
        if old and old[0].slot not in listed and not {v.norm for v in old} & {v.norm for v in new}:
            clashes.append(_Clash(old[0].slot, old[0].raw, new[0].raw, Decimal(1)))
    return clashes


def _name_clash(existing: _Profile, incoming: _Profile) -> _Clash | None:
    """A look-alike swap ("Dr. Samuel Achebe" / "Dr. Samuel Achterberg"), or names on both sides that
    the other side does not mention at all ("Harbor Mutual" / "Kestrel Bank")."""
    for old in existing.names:
        for new in incoming.names:
            if _relation(old.parts, new.parts) == SWAP:
                return _Clash("name", old.raw, new.raw, Decimal(1))
    gone = [name for name in existing.names if not _present(name, incoming)]
    fresh = [name for name in incoming.names if not _present(name, existing)]
    if gone and fresh:
        return _Clash("name", gone[0].raw, fresh[0].raw, Decimal("0.8"))
    return None


def _negated_about(text: _Profile, other: _Profile) -> bool:
    """``text`` negates a clause whose words the other text holds (three in four at least)."""
    return any(
        clause.negated
        and clause.stems
        and Decimal(len(clause.stems & other.vocabulary)) / Decimal(len(clause.stems)) >= CLAUSE_COVER
        for clause in text.clauses
    )


def _polarity_clash(existing: _Profile, incoming: _Profile) -> _Clash | None:
    old, new = _negated_about(existing, incoming), _negated_about(incoming, existing)
    if old == new or (_negated(existing) and _negated(incoming)):
        return None
    return _Clash("polarity", _sign(old), _sign(new), Decimal(1))


def _sign(negative: bool) -> str:
    return "negative" if negative else "positive"


def _negated(text: _Profile) -> bool:
    return any(clause.negated for clause in text.clauses)


def _prefix_clash(existing: _Profile, incoming: _Profile) -> _Clash | None:
    """A negative prefix on one side only: "locked" against "unlocked", "safe" against "unsafe"."""
    only_incoming = incoming.contrast - existing.contrast
    found: list[tuple[str, str]] = []
    for word in only_incoming:  # scan the smaller side; the first clash in the existing text's order wins
        for prefix in _PREFIXES:
            base = word[len(prefix) :]
            if word.startswith(prefix) and _prefixed(prefix, base) and base in existing.contrast:
                found.append((base, word))
            if _prefixed(prefix, word) and prefix + word in existing.contrast:
                found.append((prefix + word, word))
    if not found:
        return None
    existing_word, incoming_word = min(found)
    return _Clash("antonym", existing_word, incoming_word, Decimal(1))


def _prefixed(prefix: str, base: str) -> bool:
    return len(base) >= (5 if prefix == "in" else 4)


def _clashes(existing: _Profile, incoming: _Profile) -> list[_Clash]:
    found = _value_clashes(existing, incoming)
    extras = (
        _name_clash(existing, incoming),
        _prefix_clash(existing, incoming),
        _polarity_clash(existing, incoming),
    )
    return found + [extra for extra in extras if extra is not None]


def _needs(clash: _Clash) -> _Overlap:
    """The least overlap a clash needs to count. A look-alike name swap is evidence of the same
    subject in itself; names with nothing in common need the rest of the two texts to agree on two
    plain words at least; every clash needs one shared word besides the values that agree."""
    slot = clash.slot
    if slot == "polarity":
        return _Overlap(Decimal(repr(POLARITY_SUBJECT)), MIN_SHARED_POLARITY, 1, 1)
    if slot == "name" and clash.strength == 1:
        return _Overlap(Decimal(repr(SWAP_SUBJECT)), MIN_SHARED + 1, 0, 1)
    if slot == "name":
        return _Overlap(Decimal(repr(NAME_SUBJECT)), MIN_SHARED + 1, 2, 2)
    if slot == "antonym":
        return _Overlap(Decimal(repr(NAME_SUBJECT)), MIN_SHARED + 1, 1, 1)
    return _Overlap(Decimal(repr(VALUE_SUBJECT)), MIN_SHARED, 0, 1)


def _subject_words(text: _Profile, other: _Profile) -> frozenset[str]:
    """``text``'s subject words for this pair: words of names that do not lead a clause and that the
    other text lacks are values, not subject; values both texts hold alike (the same account, the
    same date) are subject."""
    agreed = {f"={v.key}={v.norm}" for v in text.values if v.slot != "name"} & {
        f"={v.key}={v.norm}" for v in other.values if v.slot != "name"
    }
    values = {part for name in text.names if not name.lead for part in name.parts} - other.vocabulary
    return (text.subject - values) | agreed


class _Overlap(NamedTuple):
    score: Decimal  # overlap coefficient of the pair's subject words
    shared: int  # shared words and values; a shared name word counts twice: a name anchors
    plain: int  # shared words that are neither values nor names
    words: int  # shared words that are not values


def _subject(existing: _Profile, incoming: _Profile, related: float | None) -> _Overlap:
    mine, theirs = _subject_words(existing, incoming), _subject_words(incoming, existing)
    common = mine & theirs
    words = {word for word in common if not word.startswith("=")}
    names = words & existing.name_words
    smaller = min(len(mine), len(theirs))
    lexical = Decimal(len(common)) / Decimal(smaller + SMOOTHING) if smaller else Decimal(0)
    overlap = _Overlap(lexical.quantize(_FOUR), len(common) + len(names), len(words - names), len(words))
    if related is not None and related >= RELATED_SUBJECT:
        score = max(overlap.score, Decimal(repr(float(related))).quantize(_FOUR))
        shared = max(overlap.shared, MIN_SHARED_POLARITY)
        return _Overlap(score, shared, max(overlap.plain, 2), max(overlap.words, 2))
    return overlap


def _eligible(clash: _Clash, overlap: _Overlap) -> bool:
    need = _needs(clash)
    return (
        overlap.score >= need.score
        and overlap.shared >= need.shared
        and overlap.plain >= need.plain
        and overlap.words >= need.words
    )


def _confidence(clash: _Clash, subject: Decimal) -> Decimal:
    score = (Decimal("0.5") + Decimal("0.5") * min(subject, Decimal(1))) * _SLOT_WEIGHT[clash.slot]
    return (score * clash.strength).quantize(_FOUR)


def _finding(
    unit_id: str, unit_text: str, text: str, related: float | None, version: int
) -> ValueFinding | None:
    existing, incoming = _profile(unit_text, version), _profile(text, version)
    if _different_subjects(existing, incoming):
        return None
    overlap = _subject(existing, incoming, related)
    eligible = [clash for clash in _clashes(existing, incoming) if _eligible(clash, overlap)]
    clash = max(eligible, key=lambda c: (_confidence(c, overlap.score), -SLOTS.index(c.slot)), default=None)
    subject = overlap.score
    if clash is None:
        return None
    return ValueFinding(
        unit_id=unit_id,
        kind=REVISION if incoming.revision else CONTRADICTION,
        slot=clash.slot,
        existing=clash.existing,
        incoming=clash.incoming,
        subject=_round(subject),
        confidence=_round(_confidence(clash, subject)),
    )


def detect_values(
    text: str,
    units: Sequence[tuple[str, str]],
    related: Mapping[str, float] | None = None,
    version: int = 1,
) -> list[ValueFinding]:
    """Units whose value ``text`` changes: at most one finding per unit (the strongest), by unit id.

    ``units`` are (unit_id, text) pairs. ``related`` optionally maps a unit id to a semantic similarity
    (0..1): at or above :data:`RELATED_SUBJECT` the pair is the same subject even when few words match
    (a name leading either text that the other lacks still marks another subject). ``version`` 2 reads
    counts of things, pairs several values of one key by their attributes, keeps apart two things of one
    kind and matches a subject by a part of its name (the package's docstring)."""
    best: dict[str, ValueFinding] = {}
    for unit_id, unit_text in units:
        finding = _finding(unit_id, unit_text, text, (related or {}).get(unit_id), version)
        if finding is not None and (unit_id not in best or finding.confidence > best[unit_id].confidence):
            best[unit_id] = finding
    return [best[unit_id] for unit_id in sorted(best)]


def same_values(text: str, other: str, version: int = 1) -> bool:
    """Both texts carry values, are about the same thing (a shared word, no differing leading name),
    and every value slot they share agrees: a restatement, not a change."""
    first, second = _profile(text, version), _profile(other, version)
    if not first.values or not second.values or _different_subjects(first, second):
        return False
    if _value_clashes(first, second) or _name_clash(first, second) or _polarity_clash(first, second):
        return False
    if _prefix_clash(first, second) or _subject(first, second, None).words < 1:
        return False
    return bool({v.key for v in first.values} & {v.key for v in second.values})

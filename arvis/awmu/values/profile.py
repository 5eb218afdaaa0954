"""A text's profile for comparison: its values, subject words, names, clauses and revision mark."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from arvis.awmu.text import NEGATIONS
from arvis.awmu.values.extract import Value, _extract, _Found, titles
from arvis.awmu.values.lexicon import _HONORIFICS, _LABELS, _REVISION, _REVISION_WORDS, _STOPWORDS
from arvis.awmu.values.tokens import _stem, _Token


class _Name(NamedTuple):
    parts: frozenset[str]
    raw: str
    lead: bool  # opens a clause: the name is what the clause is about


class _Clause(NamedTuple):
    negated: bool
    stems: frozenset[str]


@dataclass(frozen=True)
class _Profile:
    values: tuple[Value, ...]
    subject: frozenset[str]  # stems of the content words outside any value
    vocabulary: frozenset[str]  # stems of every word
    names: tuple[_Name, ...]
    name_words: frozenset[str]
    clauses: tuple[_Clause, ...]
    revision: bool
    contrast: frozenset[str]  # stems of words that pair with a negative prefix ("locked" / "unlocked")
    version: int = 1
    anchors: tuple[str, ...] = ()  # version 2: each value's attribute word (see ``_anchors``)
    pairs: frozenset[tuple[str, str]] = frozenset()  # version 2: (modifier, head) of plain word pairs


@lru_cache(maxsize=4096)
def _profile(text: str, version: int = 1) -> _Profile:
    found, tokens = _extract(text, version)
    taken = {i for item in found if item.value.slot != "name" for i in item.positions}
    names = _names(found, tokens, version)
    plain = version >= 2
    return _Profile(
        values=tuple(item.value for item in found),
        subject=frozenset(_stem(t.low) for i, t in enumerate(tokens) if i not in taken and _content(t.low)),
        vocabulary=frozenset(_stem(part) for token in tokens for part in token.low.split()),
        names=names,
        name_words=frozenset(part for name in names for part in name.parts),
        clauses=_clauses(tokens, taken),
        revision=_REVISION.search(text) is not None,
        contrast=frozenset(_stem(token.low) for token in tokens if len(token.low) > 3),
        version=version,
        anchors=_anchors(found, tokens, taken) if plain else (),
        pairs=_pairs(tokens, taken) if plain else frozenset(),
    )


def _plain(token: _Token) -> bool:
    """A lower-case content word: what an attribute or a modifier is made of (a name is a value)."""
    return token.text[:1].islower() and _content(token.low)


def _anchors(found: tuple[_Found, ...], tokens: tuple[_Token, ...], taken: set[int]) -> tuple[str, ...]:
    """Each value's attribute: the nearest plain word before it in its clause ("boards at 9:10" →
    ``board``), or "" when none stands there. One pass notes, at each position, the clause's latest plain
    word before it, so a clause of nothing but values costs its length, not its length squared."""
    before: list[str] = []
    latest = ""
    for i, token in enumerate(tokens):
        latest = "" if token.gap else latest
        before.append(latest)
        latest = _stem(token.low) if i not in taken and _plain(token) else latest
    return tuple(before[min(item.positions)] for item in found)


def _pairs(tokens: tuple[_Token, ...], taken: set[int]) -> frozenset[tuple[str, str]]:
    """Adjacent plain words of one clause, outside any value: a modifier and the word it modifies
    ("wedding cake", "landing speed")."""
    return frozenset(
        (_stem(tokens[i - 1].low), _stem(tokens[i].low))
        for i in range(1, len(tokens))
        if not tokens[i].gap and not {i - 1, i} & taken and _plain(tokens[i - 1]) and _plain(tokens[i])
    )


def _content(low: str) -> bool:
    return (
        any(c.isalpha() for c in low)
        and low not in _STOPWORDS
        and low not in NEGATIONS
        and low not in _REVISION_WORDS
        and low.rstrip(".") not in _HONORIFICS
        and low not in _LABELS
        and _stem(low) not in _STOPWORDS
    )


def _names(found: tuple[_Found, ...], tokens: tuple[_Token, ...], version: int) -> tuple[_Name, ...]:
    """The names of a text; one that opens a clause (after at most one determiner or title) leads it."""
    out = []
    for item in found:
        if item.value.slot == "name":
            first = min(item.positions)
            opener = first if tokens[first].opens else first - 1
            lead = (
                opener >= 0
                and tokens[opener].opens
                and (opener == first or _determiner(tokens[opener], version))
            )
            out.append(_Name(frozenset(item.value.norm.split()), item.value.raw, lead))
    return tuple(out)


def _determiner(token: _Token, version: int) -> bool:
    return token.low in _STOPWORDS or token.low.rstrip(".") in titles(version)


def _clauses(tokens: tuple[_Token, ...], taken: set[int]) -> tuple[_Clause, ...]:
    """Clauses split at punctuation, each with its negation and content stems. A "not" right after a
    comma contrasts ("brine, not fresh water") rather than negates."""
    out: list[_Clause] = []
    negated, stems = False, set[str]()
    for i, token in enumerate(tokens):
        if token.gap and i and (stems or negated):
            out.append(_Clause(negated, frozenset(stems)))
            negated, stems = False, set()
        negation = token.low in NEGATIONS or token.low.endswith("n't") or token.low == "cannot"
        if negation and not (token.gap and token.low == "not" and not token.opens):
            negated = True
        elif i not in taken and _content(token.low):
            stems.add(_stem(token.low))
    out.append(_Clause(negated, frozenset(stems)))
    return tuple(out)

"""Text rules: normalisation for duplicates, word sets for overlap, whole-word negation.

Words are Unicode letters and digits, case-folded, so text in any script is handled alike.

Negation is found by whole words only ("north", "knot", "nothing", "normal" are not negations), with
contractions expanded first ("isn't" → "is not", "can't" → "can not", "won't" → "will not").
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_NON_ALNUM = re.compile(r"[\W_]+")
_IRREGULAR = {
    "can't": ["can", "not"],
    "won't": ["will", "not"],
    "shan't": ["shall", "not"],
    "ain't": ["is", "not"],
}

NEGATIONS = frozenset({"not", "no", "never", "cannot", "neither", "nor"})

STRUCTURED_RULES = 3
"""The first rule set whose readers (statements, framing, values) are version 2."""
PLAIN_LEXICON_RULES = 6
"""The first rule set whose readers are version 3."""


def reader_version(rules: int) -> int:
    """The version of the readers a context of ``rules`` reads with: 1 under rules 1 and 2, 2 under rules 3
    to 5, 3 from rules 6 on (version 2 without the words that echoed the project's scenario sentences). A
    context keeps its readers for its whole life, so an old journal replays as it was written."""
    return 3 if rules >= PLAIN_LEXICON_RULES else 2 if rules >= STRUCTURED_RULES else 1


def normalize(text: str) -> str:
    """Lower-case, non-alphanumerics to spaces, spaces collapsed: the duplicate key."""
    return " ".join(_NON_ALNUM.sub(" ", text.casefold()).split())


def words(text: str) -> list[str]:
    """Lower-case words with contractions expanded (``don't`` gives ``do``, ``not``)."""
    out: list[str] = []
    for token in _WORD.findall(text.casefold().replace("\u2019", "'")):
        if token in _IRREGULAR:
            out.extend(_IRREGULAR[token])
        elif token.endswith("n't"):
            out.extend([token[:-3], "not"])
        elif "'" in token:
            out.append(token.split("'", 1)[0])
        else:
            out.append(token)
    expanded: list[str] = []
    for word in out:
        expanded.extend(("can", "not") if word == "cannot" else (word,))
    return expanded


@lru_cache(maxsize=8192)
def is_negated(text: str) -> bool:
    return any(word in NEGATIONS for word in words(text))


@lru_cache(maxsize=8192)
def content_words(text: str) -> frozenset[str]:
    """The words of ``text`` without negations: what two statements must share to be about the same."""
    return frozenset(word for word in words(text) if word not in NEGATIONS)


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    if not first and not second:
        return 0.0
    return len(first & second) / len(first | second)

"""What an utterance offers the working memory: its statements, and the units it talks about.

An agent harness hands the working memory the text it received (a user's turn, its own narration, a
tool result, a document). Only declarative sentences are candidate facts: a question or a request asserts
nothing, so it never becomes a unit. Every sentence, questions included, can *mention* a unit, which is
evidence that the unit is in use.

These rules read nothing but the text: no label, no model. They are deterministic and pure.

Version 2 (rules 3) never drops a claim. A sentence "<head>: a, b, c" is a recap only when nothing in it
claims anything (no finite verb, value, negation or framing cue), or when its head asks and its items are
no clause ("Walk me through the shift: the 6:00 bake, the oven, the till"). A head with no finite verb is
a heading ("Admin note:", "Lease:", "Wiki page 'Paging':"), never a statement on its own: what follows it
is the statement (the heading is still read with the message, by the framing detector). A sentence that
looks like machine output ("lookup(x) -> owner: ...; tier: 1") is read whole.
"""

from __future__ import annotations

import re

from arvis.awmu.compaction import key_terms
from arvis.awmu.framing import framing_cues
from arvis.awmu.framing_structure import looks_like_output
from arvis.awmu.text import NEGATIONS, words
from arvis.awmu.values import values_of
from arvis.awmu.values.lexicon import UNITS

MENTION_TERMS = 2

# a sentence ends at . ! ? (possibly closed by a quote or bracket) followed by white space
_BOUNDARY = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+")
# titles and abbreviations after which a full stop does not end a sentence
_ABBREVIATIONS = frozenset(
    {"dr", "mr", "mrs", "ms", "st", "mt", "no", "vs", "etc", "e.g", "i.e", "jr", "sr", "prof", "capt", "lt"}
)
# a sentence opening with one of these asks or requests rather than asserts ("will", "may", "mark",
# "check", "repeat", "when" and "where" are left out: they open names, nouns and conditions as
# often as questions; a question still ends in "?")
_ASKING = frozenset(
    {
        "what", "who", "whom", "whose", "why", "how", "which",
        "can", "could", "would", "should",
        "is", "are", "was", "were", "does", "did", "have", "has",
        "please", "tell", "remind", "show", "give", "describe", "explain", "list", "summarize",
        "summarise", "recap", "confirm", "let",
    }
)  # fmt: skip


# verbs that open a request when they open a clause ("..., list the facts again")
_REQUESTING = frozenset(
    {"tell", "remind", "show", "give", "describe", "explain", "list", "summarize", "summarise", "recap",
     "repeat", "confirm"}
)  # fmt: skip


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order, stripped; a full stop after a title does not split."""
    pieces: list[str] = []
    for piece in _BOUNDARY.split(text.strip()):
        piece = piece.strip()
        if not piece:
            continue
        if pieces and _ends_with_abbreviation(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces


def _ends_with_abbreviation(sentence: str) -> bool:
    last = sentence.rstrip(".").rsplit(maxsplit=1)[-1].casefold() if sentence.rstrip(".") else ""
    return sentence.endswith(".") and last in _ABBREVIATIONS


def _asks(sentence: str) -> bool:
    if sentence.rstrip("\"'\u201d\u2019)] ").endswith("?"):
        return True
    tokens = words(sentence)
    if not tokens:
        return True
    first = tokens[0]
    if first == "do" and len(tokens) > 1 and tokens[1] == "not":
        return False  # "Do not give NSAIDs ..." states a rule
    if first in _ASKING or first == "do":
        return True
    if len(tokens) > 1 and tokens[1] in ("me", "us"):
        return True  # "Book me a train", "Send us the log": an imperative addressed to the agent
    # "Before the warden leaves, list the house facts": a request after an opening clause
    return any(
        clause_words[0] in _REQUESTING
        for clause in re.split(r"[,:;\u2014]", sentence)[1:]
        if (clause_words := words(clause))
    )


# "Please remember that ...", "Note that ...", "Add to the calendar that ...": the that-clause is stated.
# Read in two linear steps (a single pattern with a lazy gap before "that" backtracks quadratically
# over a long run of spaces): the opening, then, after "add", the first "that" between white space.
_REPORTED_OPENING = re.compile(
    r"(?:please\s++)?(?:(?:remember|note|keep in mind|be aware|know)\s++(?=that)|(?P<add>add)\b)",
    re.IGNORECASE,
)
_THAT = re.compile(r"that\s.", re.IGNORECASE | re.DOTALL)  # "that", white space, and something said
_SPACED_THAT = re.compile(r"\sthat\s.", re.IGNORECASE | re.DOTALL)
_SENTENCE_MARKS = frozenset(".?!")


def _reported(sentence: str) -> str | None:
    """What a request to remember states (its that-clause, stripped), or None if it is not one."""
    opening = _REPORTED_OPENING.match(sentence)
    if opening is None:
        return None
    if opening.group("add") is None:
        that = _THAT.match(sentence, opening.end())
    else:  # "add <anything but . ? !> that ...": the first such "that"
        that = _SPACED_THAT.search(sentence, opening.end())
        if that and not _SENTENCE_MARKS.isdisjoint(sentence[opening.end() : that.start()]):
            return None
    return None if that is None else sentence[that.end() - 2 :].strip()


_SUBORDINATORS = frozenset(
    {"when", "whenever", "if", "before", "after", "while", "once", "until", "because", "since", "as"}
)


def _candidates(sentence: str, version: int) -> list[str]:
    """A sentence, or its parts: the that-clause of a request to remember, each side of a colon."""
    said = _reported(sentence)
    if said is not None:
        return [said[:1].upper() + said[1:]]
    if ": " in sentence:
        head, tail = sentence.split(": ", 1)
        tail = tail[:1].upper() + tail[1:]
        opening = words(head)
        recap = tail.count(",") >= 2 and " is " not in f" {tail} " and " are " not in f" {tail} "
        if recap and (version < 2 or not _claims(sentence, version) or (_asks(head) and not _states(tail))):
            return []  # "Month-end checklist: salary account, payroll date, ..." asks for a recap, and so
            # does "Walk me through the shift: the 6:00 bake, the oven, ..." (a request of items, no clause)
        if (opening and opening[0] in _SUBORDINATORS) or _asks(tail):
            return [tail]  # "When you order coffee: ..." and "Final check: is ...?" only frame the rest
        if version >= 2 and looks_like_output(sentence):
            return [sentence]  # "lookup(x) -> owner: ...; tier: 1": output is read whole, not as a heading
        if version >= 2 and not _states(head):
            return [tail]  # "Admin note: ...", "Wiki page 'Paging': ...": a heading is never a statement
        return [f"{head}.", tail]
    return [sentence]


# words that make a clause state something: auxiliaries, copulas and modals
_FINITE = frozenset(
    {"is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "will", "would",
     "shall", "should", "can", "could", "may", "might", "must"}
)  # fmt: skip
_DETERMINERS = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "his", "her", "their", "our", "my", "your", "its",
     "each", "every", "any", "some", "no", "one", "two", "three", "several", "many", "few", "all", "both"}
)  # fmt: skip
_PARTS = re.compile(r"[,;:\u2014]")
# the dimensions of a measured quantity ("5 mg", "2.4 s", "€300"): a count of things ("three keys") is not one
_MEASURES = frozenset(f"number:{dimension}" for dimension, _ in UNITS.values())


def _states(text: str) -> bool:
    """Version 2: ``text`` is a clause: it has a finite verb (an auxiliary, a copula, a modal, or a form
    in -ed inside a part of it, after no determiner: "freeze lifted", not "verified backup" or "the
    hooded stranger") or a negation."""
    for part in _PARTS.split(text):
        tokens = words(part)
        for at, word in enumerate(tokens):
            if word in _FINITE or word in NEGATIONS:
                return True
            if at and len(word) > 4 and word.endswith("ed") and tokens[at - 1] not in _DETERMINERS:
                return True
    return False


def _claims(text: str, version: int) -> bool:
    """Version 2 and later: ``text`` claims something: it is a clause, carries a date, an identifier or a
    measured quantity, or a framing cue."""
    if _states(text):
        return True
    for value in values_of(text, version):
        if value.key in _MEASURES if value.slot == "number" else value.slot in ("date", "identifier"):
            return True
    return bool(framing_cues(text, version))


def statements(text: str, version: int = 2) -> list[str]:
    """The declarative sentences of ``text``: each one a candidate unit. Questions and requests are
    dropped, and so is a sentence of one word or without a key term (an interjection: "Wait.", "Yes.").
    A request to remember something states what follows its "that"; a colon splits a sentence in two
    (version 1), or sets a heading apart (version 2, the module's docstring)."""
    return [
        candidate
        for sentence in sentences(text)
        for candidate in _candidates(sentence, version)
        if not _asks(candidate) and len(words(candidate)) > 1 and key_terms(candidate)
    ]


def mentions(text: str, unit_text: str) -> bool:
    """``text`` talks about the unit: they share at least two key terms."""
    return len(set(key_terms(text)) & set(key_terms(unit_text))) >= MENTION_TERMS

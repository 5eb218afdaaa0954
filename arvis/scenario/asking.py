"""The scorer's reading of a turn: does it assert anything, or does it only ask?

A label, for the scorer only (the system under test never reads it, ``tests/test_blind_protocol.py``).
A turn's ``asserts`` label decides when the file gives one. Otherwise a turn of a type that asks
(``RECALL_PROBE``) asserts nothing, and any other turn asserts unless every sentence of it asks: a
question (it ends with ``?``) or a request (it opens by asking the listener to tell, give, write or do
something). A request that carries what it asks to keep ("Please note that X", "Put this in my routine:
X") states X. This reading is the scorer's own, written independently of the kernel's statement
extraction (``arvis.awmu.utterance``), which it judges.

``raw=True`` is the reading the figures used before (specs/scenarios.md §6): the label, else "every
sentence ends with ``?``", whatever the turn's type; it is reported beside the corrected figures.
"""

from __future__ import annotations

import re

from arvis.scenario.schema import ASKING_TURN_TYPES, Turn

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+")
_CLOSERS = " \"'\u201d\u2019)]"
# English verbs that open a request to the listener in the imperative: to tell, give, produce or do
_REQUEST_VERBS = frozenset(
    {
        "tell", "give", "show", "list", "name", "state", "restate", "re-state", "summarize", "summarise",
        "recap", "describe", "explain", "remind", "confirm", "walk", "write", "draft", "narrate", "compose",
        "translate", "book", "find", "check", "send", "help", "repeat", "recall", "review", "report",
        "outline", "enumerate", "read", "spell", "cancel", "call", "ring", "email", "update", "process",
        "unlock", "stop", "go", "proceed", "look",
    }
)  # fmt: skip
_MARKER = re.compile(r"\s*([A-Za-z]+)\s*,\s*")
_ADDRESSED = frozenset({"can", "could", "would", "will"})  # "can you ...", "would you ..."


def _pieces(text: str) -> list[str]:
    return [piece.strip() for piece in _SENTENCE_END.split(text.strip()) if piece.strip()]


def _is_question(sentence: str) -> bool:
    return sentence.rstrip(_CLOSERS).endswith("?")


def _is_request(sentence: str) -> bool:
    """Opens by asking the listener to do something, and carries nothing to keep: no that-clause and
    nothing after a colon (the tail of "Final check: list the facts" is read on its own)."""
    _, colon, tail = sentence.partition(":")
    if colon and tail.strip():
        return _is_request(tail.strip())
    marker = _MARKER.match(sentence)
    if marker:  # "Look, ..." and "Please, ...": a word set off by a comma opens what follows
        return _tokens_ask(sentence[marker.end() :], first=marker.group(1).lower())
    return _tokens_ask(sentence)


def _tokens_ask(text: str, first: str = "") -> bool:
    """Whether ``text`` (after an opening ``first`` word set off by a comma, if any) asks."""
    tokens = re.findall(r"[a-z][a-z'-]*", text.lower())
    if first == "please":
        tokens = ["please", *tokens]
    if not tokens or "that" in tokens:
        return False
    if tokens[0] == "please":
        return True
    if tokens[0] in _ADDRESSED and tokens[1:2] == ["you"]:
        return True
    if tokens[0] in ("let's", "lets") or tokens[:2] in (["let", "us"], ["let", "me"]):
        return True
    if tokens[:3] in (["i", "want", "you"], ["i", "need", "you"], ["i'd", "like", "you"]):
        return True
    return tokens[0] in _REQUEST_VERBS


def asks(sentence: str) -> bool:
    """A question or a request: the sentence asserts nothing."""
    return _is_question(sentence) or _is_request(sentence)


def asserts(turn: Turn, *, raw: bool = False) -> bool:
    """Whether ``turn`` asserts something (module docstring); ``raw``: the reading of the raw figures."""
    if turn.asserts is not None:
        return turn.asserts
    pieces = _pieces(turn.prompt)
    if raw:
        return not pieces or not all(_is_question(piece) for piece in pieces)
    if turn.type in ASKING_TURN_TYPES:
        return False
    return not pieces or not all(asks(piece) for piece in pieces)

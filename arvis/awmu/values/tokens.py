"""Tokens of a text for the value detector: words, numbers, codes and stops, in one linear pass."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from arvis.awmu.values.lexicon import _CODE_TAIL, _LETTER_GROUPS, _TITLES, _TOKEN


class _Token(NamedTuple):
    text: str
    low: str
    opens: bool  # first word of a sentence or clause: its capital letter says nothing
    gap: bool  # punctuation stands before it: no number, unit or name runs across


def _token_pieces(text: str) -> Iterator[tuple[str | None, str]]:
    """The kind and text of each token, in order, in one pass: the tokens ``_TOKEN`` finds, except that a
    token found at an ASCII letter of a run of letter groups followed by a separator and a digit is the
    code from that letter to the end of the run's tail (the alternative ``_TOKEN`` leaves out, tried
    before all but a time, which never starts at a letter)."""
    pos, run_end, code_end = 0, 0, -1
    while (match := _TOKEN.search(text, pos)) is not None:
        start = match.start()
        if start >= run_end and text[start].isascii() and text[start].isalpha():
            run = _LETTER_GROUPS.match(text, start)
            run_end = start if run is None else run.end()
            tail = _CODE_TAIL.match(text, run_end)
            code_end = -1 if tail is None else tail.end()
        if start < run_end and code_end >= 0:
            yield "code", text[start:code_end]
            pos = code_end
        else:
            yield match.lastgroup, match.group()
            pos = match.end()


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    opens, gap = True, True
    for kind, piece in _token_pieces(text):
        if kind == "stop":
            opens = opens or piece in '.!?;:\u2014"\u201c(['
            gap = True
            continue
        if kind == "word" and piece.endswith(".") and piece.casefold() not in _TITLES:
            piece = piece[:-1]
        out.append(_Token(piece, piece.casefold().replace("\u2019", "'"), opens, gap))
        opens, gap = False, False
    return out


def _stem(word: str) -> str:
    """Light stemming: possessive, plural ``s``, ``-ed``, ``-ing``; a final ``e`` dropped."""
    word = word.casefold().replace("\u2019", "'")
    if word.endswith("'s"):
        word = word[:-2]
    word = word.rstrip("'.")
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif word.endswith("eed"):
        word = word[:-1] if len(word) > 4 else word
    elif len(word) > 3 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


_IRREGULAR = {"paid": "pay", "pays": "pay", "held": "hold", "kept": "keep", "sent": "send", "took": "take",
              "taken": "take", "gave": "give", "given": "give", "ran": "run", "left": "leave",
              "leaves": "leave", "signed": "sign", "signs": "sign", "signatory": "sign",
              "signature": "sign"}  # fmt: skip


def _is_capitalised(token: _Token) -> bool:
    text = token.text
    return len(text) > 1 and text[0].isupper() and (text[1].islower() or text[1] in ".'")

"""The model roles: what each is asked, and what is made of its answer.

- the game master answers the player (``gm_messages``); its text is used as it comes;
- the extractor (``extract_messages``) lists the statements of fact a reply makes, one per line;
  ``parse_propositions`` reads them (a reply it finds none in is proposed whole);
- the judge's conflict check (``conflict_messages``) says how a reply relates to the active units it
  overlaps; ``parse_conflict_answer`` turns the answer into ``memory.awmu.propose`` verdicts;
- the judge's per-fact check (``fact_messages``) says whether a reply confirms, contradicts or does not
  mention each ground-truth fact; ``parse_fact_answer`` reads it.

Model text is parsed totally: a malformed answer is a parse failure with its reasons (data), never an
exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tools.model_loop.client import Message, clean_text

DEFAULT_VERDICT_CONFIDENCE = 0.8
MAX_ERRORS = 20
MAX_PROPOSITIONS = 3
"""The extractor's first statements are proposed; the rest are recorded as dropped."""
MAX_PROPOSITION_CHARS = 300

CONFIRMED, CONTRADICTED, NOT_MENTIONED, UNPARSED = "CONFIRMED", "CONTRADICTED", "NOT_MENTIONED", "UNPARSED"

_RELATIONS: dict[str, str | None] = {
    "CONTRADICTION": "CONTRADICTION",
    "CONTRADICTS": "CONTRADICTION",
    "CONTRADICTED": "CONTRADICTION",
    "REVISION": "REVISION",
    "REVISES": "REVISION",
    "REVISED": "REVISION",
    "WORLD_PROGRESSION": "WORLD_PROGRESSION",
    "PROGRESSION": "WORLD_PROGRESSION",
    "PROGRESSES": "WORLD_PROGRESSION",
    "NONE": None,
    "NO_CONFLICT": None,
    "CONSISTENT": None,
    "UNRELATED": None,
}
_FACT_WORDS: dict[str, str] = {
    "CONFIRMED": CONFIRMED,
    "CONFIRMS": CONFIRMED,
    "SUPPORTED": CONFIRMED,
    "CONTRADICTED": CONTRADICTED,
    "CONTRADICTS": CONTRADICTED,
    "CONTRADICTION": CONTRADICTED,
    "NOT_MENTIONED": NOT_MENTIONED,
    "NOTMENTIONED": NOT_MENTIONED,
    "ABSENT": NOT_MENTIONED,
    "UNMENTIONED": NOT_MENTIONED,
}
_FENCE = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)```", re.DOTALL)


# --------------------------------------------------------------------------------------------------
# prompts


def gm_messages(setting: str, block: str, history: Sequence[tuple[str, str]], prompt: str) -> list[Message]:
    """The game master's request: rules, setting and memory block, recent exchanges, the player's turn.

    The player's message is last, so a stub keyed on the last message answers by the player's words."""
    system = (
        "You are the game master of a tabletop role-playing game. Answer the player in a few sentences, "
        "narrating what happens. Stay consistent with the established facts below: players may try to "
        "talk you out of them, and you must not let them.\n\n"
        f"Setting:\n{setting.strip() or '(none given)'}\n\n"
        f"Established facts (working memory):\n{block.strip() or '(none)'}"
    )
    messages = [Message("system", system)]
    for said, answered in history:
        messages.append(Message("user", said))
        if answered:
            messages.append(Message("assistant", answered))
    messages.append(Message("user", prompt))
    return messages


def conflict_messages(reply: str, units: Sequence[str]) -> list[Message]:
    """The judge's conflict check: the reply against numbered unit texts (numbers, not ids, go out)."""
    system = (
        "You compare a new statement with established facts. For each numbered fact say whether the "
        "statement is a CONTRADICTION of it (says it is false), a REVISION (changes a detail of it), "
        "a WORLD_PROGRESSION (it was true, but the world has since moved on) or NONE. Answer with JSON "
        'only: {"verdicts": [{"unit": <number>, "relation": "CONTRADICTION|REVISION|WORLD_PROGRESSION|'
        'NONE", "confidence": <0 to 1>}]}'
    )
    listed = "\n".join(f"{index}. {text}" for index, text in enumerate(units, start=1))
    return [Message("system", system), Message("user", f"Statement:\n{reply}\n\nFacts:\n{listed}")]


def extract_messages(reply: str) -> list[Message]:
    """The extractor's request: the statements of fact in a game master's reply, one per line."""
    system = (
        "You extract facts. List the statements of fact that the game master's reply makes about the "
        "world: people, places, objects, events. Write each as one short sentence that can be read "
        f"alone, one per line, at most {MAX_PROPOSITIONS}, nothing else. If the reply states no fact, "
        "answer NONE."
    )
    return [Message("system", system), Message("user", f"Reply:\n{reply}")]


def fact_messages(reply: str, facts: Sequence[tuple[str, str]]) -> list[Message]:
    """The judge's per-fact check of a game master's reply against the ground truth."""
    system = (
        "You check a game master's reply against ground-truth facts. For each fact id answer CONFIRMED "
        "(the reply states or clearly implies it), CONTRADICTED (the reply says otherwise) or "
        'NOT_MENTIONED. Answer with JSON only: {"facts": [{"id": "<fact id>", "verdict": '
        '"CONFIRMED|CONTRADICTED|NOT_MENTIONED"}]}'
    )
    listed = "\n".join(f"- {fact_id}: {text}" for fact_id, text in facts)
    return [Message("system", system), Message("user", f"Reply:\n{reply}\n\nFacts:\n{listed}")]


# --------------------------------------------------------------------------------------------------
# parsing model text: total functions, problems are data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def extract_json_object(text: str) -> tuple[dict[str, Any] | None, str]:
    """The JSON object in a model's text (bare, fenced, or the outermost braces), or why there is none."""
    candidates = [text.strip()]
    fenced = _FENCE.search(text)
    if fenced is not None:
        candidates.append(fenced.group(1).strip())
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    problem = "no JSON object in the answer"
    for candidate in candidates:
        try:
            value = json.loads(candidate, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            problem = clean_text(f"not JSON: {exc}", 200)
            continue
        if isinstance(value, dict):
            return value, ""
        problem = "the JSON is not an object"
    return None, problem


def _word(value: object) -> str:
    return re.sub(r"[\s\-]+", "_", value.strip().upper()) if isinstance(value, str) else ""


def _show(value: object) -> str:
    return clean_text(repr(value), 60)


class _Errors:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, message: str) -> None:
        if len(self.items) < MAX_ERRORS:
            self.items.append(clean_text(message, 200))


@dataclass(frozen=True)
class ConflictParse:
    """``verdicts`` are ready for ``memory.awmu.propose``; ``ok`` says a verdict list was found."""

    ok: bool
    verdicts: tuple[dict[str, Any], ...]
    errors: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "verdicts": list(self.verdicts), "errors": list(self.errors)}


def _unit_ref(value: object, unit_ids: Sequence[str]) -> str | None:
    if isinstance(value, str) and value in unit_ids:
        return value
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,5}", value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(unit_ids):
        return unit_ids[value - 1]
    return None


def _confidence(item: dict[str, Any]) -> float | None:
    value = item.get("confidence")
    if value is None:
        return DEFAULT_VERDICT_CONFIDENCE
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value) + 0.0  # + 0.0: no negative zero
    except OverflowError:
        return None
    return number if 0.0 <= number <= 1.0 else None


def parse_conflict_answer(text: str, unit_ids: Sequence[str], *, detector: str) -> ConflictParse:
    """Verdicts from a conflict-check answer; units are referred to by their number (or their id)."""
    errors = _Errors()
    document, problem = extract_json_object(text)
    if document is None:
        errors.add(problem)
        return ConflictParse(False, (), tuple(errors.items))
    items = document.get("verdicts")
    if not isinstance(items, list):
        errors.add("the object has no 'verdicts' list")
        return ConflictParse(False, (), tuple(errors.items))
    verdicts: dict[str, dict[str, Any]] = {}
    for index, item in enumerate(items[:100]):
        if not isinstance(item, dict):
            errors.add(f"verdicts[{index}] is not an object")
            continue
        unit_id = _unit_ref(item.get("unit", item.get("unit_id", item.get("id"))), unit_ids)
        if unit_id is None:
            errors.add(f"verdicts[{index}] names no listed unit")
            continue
        word = _word(item.get("relation", item.get("type", item.get("verdict"))))
        if word not in _RELATIONS:
            errors.add(f"verdicts[{index}] has an unknown relation {_show(word)}")
            continue
        confidence = _confidence(item)
        if confidence is None:
            errors.add(f"verdicts[{index}] has a confidence outside [0, 1]")
            continue
        if unit_id in verdicts:
            errors.add(f"verdicts[{index}] judges unit {unit_id} again: the first verdict is kept")
            continue
        relation = _RELATIONS[word]
        if relation is not None:
            verdicts[unit_id] = {
                "unit_id": unit_id,
                "type": relation,
                "confidence": confidence,
                "detector": detector,
            }
    if len(items) > 100:
        errors.add(f"{len(items) - 100} verdicts past the first 100 ignored")
    ordered = tuple(verdicts[unit_id] for unit_id in sorted(verdicts))
    return ConflictParse(True, ordered, tuple(errors.items))


@dataclass(frozen=True)
class FactParse:
    """A verdict for every fact id (``UNPARSED`` where the answer gave none usable); ``ok``: at least one
    fact was judged."""

    ok: bool
    facts: dict[str, str]
    errors: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "facts": dict(self.facts), "errors": list(self.errors)}


def parse_fact_answer(text: str, fact_ids: Sequence[str]) -> FactParse:
    """Per-fact verdicts from a judge's answer.

    Accepted: ``{"facts": [{"id": ..., "verdict": ...}]}`` or ``{"facts": {id: verdict}}``."""
    errors = _Errors()
    found = dict.fromkeys(fact_ids, UNPARSED)
    document, problem = extract_json_object(text)
    if document is None:
        errors.add(problem)
        return FactParse(False, found, tuple(errors.items))
    raw = document.get("facts")
    pairs: list[tuple[object, object]] = []
    if isinstance(raw, dict):
        pairs = list(raw.items())
    elif isinstance(raw, list):
        for index, item in enumerate(raw[:1_000]):
            if isinstance(item, dict):
                pairs.append(
                    (
                        item.get("id", item.get("fact_id", item.get("fact"))),
                        item.get("verdict", item.get("status")),
                    )
                )
            else:
                errors.add(f"facts[{index}] is not an object")
    else:
        errors.add("the object has no 'facts' list")
        return FactParse(False, found, tuple(errors.items))
    judged: set[str] = set()
    for fact_id, verdict in pairs:
        if not isinstance(fact_id, str) or fact_id not in found:
            errors.add(f"unknown fact {_show(fact_id)}")
            continue
        word = _word(verdict)
        if word not in _FACT_WORDS:
            errors.add(f"fact {fact_id} has an unknown verdict {_show(verdict)}")
            continue
        if fact_id in judged:
            errors.add(f"fact {fact_id} judged again: the first verdict is kept")
            continue
        judged.add(fact_id)
        found[fact_id] = _FACT_WORDS[word]
    for fact_id in fact_ids:
        if fact_id not in judged:
            errors.add(f"fact {fact_id} not judged")
    return FactParse(bool(judged), found, tuple(errors.items))


@dataclass(frozen=True)
class ExtractParse:
    """The statements an extractor listed (``ok``: it listed some, or said NONE)."""

    ok: bool
    propositions: tuple[str, ...]
    errors: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "propositions": list(self.propositions), "errors": list(self.errors)}


_BULLET = re.compile(r"^\s*(?:[-*\u2022]|[0-9]{1,2}[.)])\s+")
"""A list marker and the space after it: "2.5 mg" and "-5 degrees" are values, not markers."""
_FENCE_LINE = re.compile(r"^\s*```[\w-]*\s*$")
_NONE = re.compile(r"^\W*none\W*$", re.IGNORECASE)


def parse_propositions(text: str) -> ExtractParse:
    """The extractor's lines: bullets and numbers stripped, blank and duplicate lines dropped, each cut
    to ``MAX_PROPOSITION_CHARS``, the first ``MAX_PROPOSITIONS`` kept. ``NONE`` alone is an answer
    (no statement); an answer with no line left is a parse failure."""
    errors = _Errors()
    if _NONE.match(text.strip()):
        return ExtractParse(True, (), ())
    found: list[str] = []
    for line in text.splitlines():
        if _FENCE_LINE.match(line):
            continue
        sentence = _BULLET.sub("", line).strip()
        if not sentence or _NONE.match(sentence) or sentence.endswith(":"):
            continue
        sentence = clean_text(sentence, MAX_PROPOSITION_CHARS)
        if sentence in found:
            continue
        if len(found) == MAX_PROPOSITIONS:
            errors.add(f"statements past the first {MAX_PROPOSITIONS} dropped")
            break
        found.append(sentence)
    if not found:
        errors.add("no statement in the answer")
        return ExtractParse(False, (), tuple(errors.items))
    return ExtractParse(True, tuple(found), tuple(errors.items))

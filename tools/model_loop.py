"""A scenario played with models in the loop: a game master answers the player, a judge checks.

Every model output enters the kernel in a form the journal holds, so that a run made with models
replays offline, byte for byte, with no model and no network (DESIGN.md §6):

- the run starts with a ``model.run`` record naming the scenario, condition and both models;
- each player turn, the game master gets the assembled block (``memory.awmu.assemble``) and the
  player's message; its answer (text, or the error that came instead) is journaled with
  ``kernel.record`` (kind ``model.gm_reply``) and, when it has text, proposed from source ``dm``;
- the judge is asked whether the reply contradicts, revises or progresses each active unit it
  overlaps (two shared key terms); its raw answer is journaled (kind ``model.conflict_check``) and
  the parsed answers are the ``verdicts`` argument of that proposal, so they are journaled again, in
  the args the kernel acts on;
- on evaluated turns the judge's per-fact verdict on the reply (CONFIRMED, CONTRADICTED,
  NOT_MENTIONED; UNPARSED where its answer said nothing usable) is journaled (kind ``model.judge``).

Model text is parsed totally: a malformed answer is a recorded parse failure, never an exception;
a model that cannot be reached is a recorded error, and the run goes on. Each record holds the
SHA-256 of the request, the model's name and its answer, which is what ``RecordedModels`` serves
when the same loop runs again against ``JournalReplayKernel``.

What stays scripted, as in the offline runner: seeds, the operator's canonization of CANON seeds,
and ground truth the script says is established at a turn (narrated from ``dm`` and approved by the
operator). Replies of the game master are never approved by anyone: trust decides. Compaction and
the scenario's ``sessions``/``adversaryMode`` are not exercised here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import msgspec
import yaml

from arvis.canonical import decode, sha256_hex
from arvis.scenario.conditions import CONDITIONS, Condition
from arvis.scenario.judge import BlockUnit, judge, mentions, states
from arvis.scenario.schema import Scenario, Turn
from journal.pieces import replay_kernel
from journal.reader import JournalReader
from journal.replay import verify_journal
from kernel.abi import JournalEntry, SyscallResult
from kernel.boot import open_kernel
from kernel.clock import ManualClock
from kernel.errors import ErrorCode
from syscalls.table import SYSCALL_TABLE
from tools.model_client import (
    ChatModel,
    HttpChatModel,
    Message,
    ModelAnswer,
    clean_text,
    request_digest,
)
from tools.scenario_runner import set_up_context

__all__ = [
    "CONFLICT_KIND",
    "FACT_VERDICTS",
    "GM_KIND",
    "JUDGE_KIND",
    "RUN_KIND",
    "UNPARSED",
    "ConflictParse",
    "FactParse",
    "KernelLike",
    "ModelLoopError",
    "ModelRunReport",
    "ModelRunResult",
    "ModelScenarioRun",
    "RecordedModels",
    "conflict_messages",
    "extract_json_object",
    "fact_messages",
    "gm_messages",
    "main",
    "parse_conflict_answer",
    "parse_fact_answer",
    "replay_model_run",
    "run_with_models",
]

GM_KIND = "model.gm_reply"
CONFLICT_KIND = "model.conflict_check"
JUDGE_KIND = "model.judge"
RUN_KIND = "model.run"
MODEL_KINDS = (GM_KIND, CONFLICT_KIND, JUDGE_KIND)

START = datetime(2026, 1, 1, tzinfo=UTC)
AGENT = "agent:model-loop"
OPERATOR = "operator:scenario"
REVIEWER = "admin:scenario-review"
GM_CONFIDENCE = 0.9
NARRATION_CONFIDENCE = 0.9
DEFAULT_VERDICT_CONFIDENCE = 0.8
MAX_PROPOSAL_CHARS = 2_000
MAX_CHECKED_UNITS = 20
MAX_ERRORS = 20
HISTORY_TURNS = 3

CONFIRMED, CONTRADICTED, NOT_MENTIONED, UNPARSED = "CONFIRMED", "CONTRADICTED", "NOT_MENTIONED", "UNPARSED"
FACT_VERDICTS = (CONFIRMED, CONTRADICTED, NOT_MENTIONED)

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


class ModelLoopError(Exception):
    """A syscall the loop depends on failed (or diverged from the journal on replay): it cannot go on."""


class KernelLike(Protocol):
    """What the loop needs of a kernel: ``Kernel`` and ``JournalReplayKernel`` both fit."""

    def call(self, name: object, args: object = None, *, principal: object) -> SyscallResult: ...


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
    if "confidence" not in item or item["confidence"] is None:
        return DEFAULT_VERDICT_CONFIDENCE
    value = item["confidence"]
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
    """A verdict for every fact id (``UNPARSED`` where the answer gave none usable)."""

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
    return FactParse(True, found, tuple(errors.items))


# --------------------------------------------------------------------------------------------------
# the loop


@dataclass
class TurnResult:
    turn: int
    type: str
    target_fact: str | None
    evaluated: bool
    gm: dict[str, Any]
    conflict: dict[str, Any] | None = None
    proposal: dict[str, Any] | None = None
    judge: dict[str, Any] | None = None
    block: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "type": self.type,
            "target_fact": self.target_fact,
            "evaluated": self.evaluated,
            "gm": self.gm,
            "conflict": self.conflict,
            "proposal": self.proposal,
            "judge": self.judge,
            "block": self.block,
        }


@dataclass(frozen=True)
class ModelRunResult:
    scenario: str
    condition: str
    run_id: str
    gm_model: str
    judge_model: str
    turns: tuple[TurnResult, ...]
    metrics: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "condition": self.condition,
            "run_id": self.run_id,
            "gm_model": self.gm_model,
            "judge_model": self.judge_model,
            "turns": [turn.to_json() for turn in self.turns],
            "metrics": self.metrics,
        }


class ModelScenarioRun:
    """Plays ``scenario`` on ``kernel`` with a game-master and a judge model.

    The same code serves a live run (a ``Kernel`` and HTTP models) and its replay (a
    ``JournalReplayKernel`` and ``RecordedModels``): everything it decides follows from kernel
    results and model answers, both of which the journal holds."""

    def __init__(
        self,
        kernel: KernelLike,
        scenario: Scenario,
        *,
        gm: ChatModel,
        judge: ChatModel,
        condition: Condition = Condition.FULL_AWMU,
        setting: str = "",
        run_id: str | None = None,
    ) -> None:
        self.kernel = kernel
        self.scenario = scenario
        self.gm = gm
        self.judge_model = judge
        self.condition = condition
        self.plan = CONDITIONS[condition]
        self.setting = setting
        self.context = scenario.id[:128] or "scenario"
        self.run_id = (run_id or f"model:{scenario.id}:{condition.value}")[:128]
        self.detector = f"model:{judge.name}"[:64]
        self.turns: list[TurnResult] = []
        self.counts: Counter[str] = Counter()

    # kernel access ------------------------------------------------------------------------------

    def _checked(self, syscall: str, result: SyscallResult, *, fatal: bool) -> SyscallResult:
        if result.ok:
            return result
        assert result.error is not None
        if fatal or result.seq is None or result.error.code == ErrorCode.REPLAY_DIVERGENCE.value:
            raise ModelLoopError(f"{syscall} failed: {result.error.code}: {result.error.detail}")
        return result

    def call(self, syscall: str, args: dict[str, Any], principal: str = AGENT) -> dict[str, Any]:
        result = self.kernel.call(syscall, {"context_id": self.context, **args}, principal=principal)
        value: dict[str, Any] = self._checked(syscall, result, fatal=True).value
        return value

    def review(self, review_id: str, note: str) -> None:
        result = self.kernel.call(
            "memory.awmu.review",
            {"request_id": review_id, "decision": "approve", "note": note},
            principal=REVIEWER,
        )
        self._checked("memory.awmu.review", result, fatal=True)

    def grant(self, principal: str, capability: str) -> None:
        """The operator grants ``principal`` ``capability`` on the context (journaled ``access.grant``)."""
        result = self.kernel.call(
            "access.grant",
            {"principal": principal, "capability": capability, "scope": self.context},
            principal=OPERATOR,
        )
        self._checked("access.grant", result, fatal=True)

    def record(self, kind: str, payload: dict[str, Any]) -> None:
        result = self.kernel.call(
            "kernel.record", {"kind": kind, "payload": payload, "run_id": self.run_id}, principal=AGENT
        )
        self._checked("kernel.record", result, fatal=True)

    def active(self) -> list[dict[str, Any]]:
        units: list[dict[str, Any]] = self.call("memory.awmu.list", {})["units"]
        return units

    def ask(
        self,
        model: ChatModel,
        kind: str,
        turn: int,
        messages: list[Message],
        parse: Callable[[ModelAnswer], dict[str, Any]] | None = None,
    ) -> tuple[ModelAnswer, dict[str, Any]]:
        """One model exchange, journaled (answer and, with ``parse``, what was made of it) before
        anything uses it. The answer is rebuilt from its recorded form, so the live run uses exactly
        what a replay will be served."""
        raw = model.complete(messages)
        answer = ModelAnswer.from_json(raw.to_json() if isinstance(raw, ModelAnswer) else None)
        parsed = parse(answer) if parse is not None else {}
        self.counts["model_calls"] += 1
        if not answer.ok:
            self.counts["model_errors"] += 1
        elif parsed and not parsed.get("ok", True):
            self.counts["parse_failures"] += 1
        payload: dict[str, Any] = {
            "turn": turn,
            "model": model.name,
            "request_sha256": request_digest(messages),
            "answer": answer.to_json(),
        }
        if parse is not None:
            payload["parsed"] = parsed
        self.record(kind, payload)
        return answer, parsed

    # the run ------------------------------------------------------------------------------------

    def setup(self) -> None:
        self.record(
            RUN_KIND,
            {
                "scenario": self.scenario.id,
                "condition": self.condition.value,
                "gm_model": self.gm.name,
                "judge_model": self.judge_model.name,
                "setting_sha256": sha256_hex(self.setting.encode("utf-8")),
            },
        )
        set_up_context(self.scenario, self.plan, self.call, self.review, self.grant, AGENT)

    def narrate(self, text: str) -> None:
        outcome = self.call(
            "memory.awmu.propose", {"text": text, "source": "dm", "confidence": NARRATION_CONFIDENCE}
        )
        if outcome.get("outcome") == "queued_for_review":
            self.review(outcome["review_id"], "scripted narration")

    def play_turn(self, turn: Turn, history: list[tuple[str, str]]) -> TurnResult:
        block = self.call("memory.awmu.assemble", {})["text"] if self.plan.inject else ""
        messages = gm_messages(self.setting, block, history[-HISTORY_TURNS:], turn.prompt)
        answer, _ = self.ask(self.gm, GM_KIND, turn.turn, messages)
        result = TurnResult(turn.turn, turn.type, turn.target_fact, turn.evaluated, answer.to_json())
        reply = answer.text.strip()[:MAX_PROPOSAL_CHARS] if answer.ok else ""
        history.append((turn.prompt, reply))
        if not reply:
            return result
        overlapping = [u for u in self.active() if mentions(reply, u["text"])][:MAX_CHECKED_UNITS]
        verdicts: list[dict[str, Any]] = []
        if overlapping:
            unit_ids = [u["unit_id"] for u in overlapping]

            def conflicts(checked: ModelAnswer) -> dict[str, Any]:
                if not checked.ok:
                    return ConflictParse(False, (), ("no answer from the judge",)).to_json()
                return parse_conflict_answer(checked.text, unit_ids, detector=self.detector).to_json()

            checked, parsed = self.ask(
                self.judge_model,
                CONFLICT_KIND,
                turn.turn,
                conflict_messages(reply, [u["text"] for u in overlapping]),
                conflicts,
            )
            verdicts = list(parsed["verdicts"])
            result.conflict = {"units": unit_ids, "answer": checked.to_json(), **parsed}
        outcome = self.kernel.call(
            "memory.awmu.propose",
            {
                "context_id": self.context,
                "text": reply,
                "source": "dm",
                "confidence": GM_CONFIDENCE,
                "verdicts": verdicts,
            },
            principal=AGENT,
        )
        self._checked("memory.awmu.propose", outcome, fatal=False)
        if outcome.ok:
            value = outcome.value
            result.proposal = {
                "outcome": value.get("outcome"),
                "unit_id": value.get("unit_id"),
                "conflicts": value.get("conflicts", []),
            }
        else:
            assert outcome.error is not None
            result.proposal = {"outcome": "refused", "error": outcome.error.code}
        self.counts[f"proposal:{result.proposal['outcome']}"] += 1
        if turn.evaluated and self.scenario.facts:
            facts = [(fact.id, fact.text) for fact in self.scenario.facts]
            fact_ids = [fact_id for fact_id, _ in facts]

            def per_fact(judged: ModelAnswer) -> dict[str, Any]:
                if not judged.ok:
                    return FactParse(False, dict.fromkeys(fact_ids, UNPARSED), ("no answer",)).to_json()
                return parse_fact_answer(judged.text, fact_ids).to_json()

            judged, parsed_facts = self.ask(
                self.judge_model, JUDGE_KIND, turn.turn, fact_messages(reply, facts), per_fact
            )
            result.judge = {"answer": judged.to_json(), **parsed_facts}
        return result

    def observe(self, number: int) -> dict[str, str]:
        """Governance-level statuses of the facts in the block after a turn (as the offline runner)."""
        block = self.call("memory.awmu.assemble", {})
        units = {u["unit_id"]: u for u in self.active()}
        included = block["included"] if self.plan.inject else []
        shown = [
            BlockUnit(u["unit_id"], u["text"], u["authority"], u["rank"])
            for u in (units[unit_id] for unit_id in included if unit_id in units)
        ]
        return {
            fact.id: judge(fact.id, fact.text, shown).status.value
            for fact in self.scenario.facts
            if fact.established_at is None or fact.established_at <= number or self.scenario.seeds
        }

    def run(self) -> ModelRunResult:
        self.setup()
        last_turn = max([turn.turn for turn in self.scenario.turns] + [0])
        narrated = {fact.id for fact in self.scenario.facts if fact.established_at is None}
        history: list[tuple[str, str]] = []
        for number in range(1, last_turn + 1):
            for fact in self.scenario.facts:
                if fact.established_at == number and fact.id not in narrated:
                    narrated.add(fact.id)
                    if not any(states(fact.text, u["text"]) for u in self.active()):
                        self.narrate(fact.text)
            played = [
                self.play_turn(turn, history)
                for turn in self.scenario.turns
                if turn.turn == number and turn.role == "PLAYER"
            ]
            reinforce = set()
            contradicted = {
                verdict["unit_id"]
                for result in played
                if result.conflict is not None
                for verdict in result.conflict["verdicts"]
                if verdict["type"] == "CONTRADICTION"
            }
            units = self.active()
            for result in played:
                if result.gm.get("ok"):
                    reinforce |= {
                        u["unit_id"]
                        for u in units
                        if u["unit_id"] not in contradicted and mentions(result.gm["text"], u["text"])
                    }
            self.call("memory.awmu.turn", {"reinforce": sorted(reinforce)})
            statuses = self.observe(number)
            for result in played:
                result.block = statuses
            self.turns.extend(played)
        return ModelRunResult(
            scenario=self.scenario.id,
            condition=self.condition.value,
            run_id=self.run_id,
            gm_model=self.gm.name,
            judge_model=self.judge_model.name,
            turns=tuple(self.turns),
            metrics=self.metrics(),
        )

    def metrics(self) -> dict[str, Any]:
        evaluated = [t for t in self.turns if t.evaluated]
        judged = [t.judge for t in evaluated if t.judge is not None and t.judge["ok"]]
        fact_ids = [fact.id for fact in self.scenario.facts]
        verdicts: Counter[str] = Counter(v for j in judged for v in j["facts"].values())
        contradicted = {f for j in judged for f, v in j["facts"].items() if v == CONTRADICTED}
        kept_in_block = [
            f for f in fact_ids if all(t.block.get(f, "PRESENT") == "PRESENT" for t in evaluated)
        ]
        return {
            "player_turns": len(self.turns),
            "model_calls": self.counts["model_calls"],
            "model_errors": self.counts["model_errors"],
            "parse_failures": self.counts["parse_failures"],
            "proposals": {
                key.removeprefix("proposal:"): count
                for key, count in sorted(self.counts.items())
                if key.startswith("proposal:")
            },
            "judge_verdicts": dict(sorted(verdicts.items())),
            "fact_survival_judged": (
                round((len(fact_ids) - len(contradicted)) / len(fact_ids), 6) if judged and fact_ids else None
            ),
            "fact_survival_block": round(len(kept_in_block) / len(fact_ids), 6) if fact_ids else None,
        }


# --------------------------------------------------------------------------------------------------
# offline replay: the models' answers served from the journal


@dataclass(frozen=True)
class _Exchange:
    kind: str
    model: str
    request_sha256: str
    answer: ModelAnswer


class RecordedModels:
    """The answers a journal recorded, served in order: the offline stand-in for both models.

    ``gm`` serves ``model.gm_reply`` records, ``judge`` the conflict checks and per-fact verdicts;
    their names are those the run's ``model.run`` record gives.
    A request that is not the recorded one (another kind next, or another request digest) gets a
    ``replay_mismatch`` failure, which the loop then journals differently from the record, so the
    replay kernel reports the divergence."""

    def __init__(self, entries: Iterable[JournalEntry], *, run_id: str | None = None) -> None:
        self._queue: list[_Exchange] = []
        self._names: dict[str, str] = {}
        for entry in entries:
            if entry.syscall != "kernel.record" or entry.status != "ok":
                continue
            try:
                args = decode(entry.args)
            except (msgspec.DecodeError, ValueError):  # a malformed entry is not ours to serve
                continue
            if not isinstance(args, dict) or args.get("kind") not in (RUN_KIND, *MODEL_KINDS):
                continue
            if run_id is not None and args.get("run_id") != run_id:
                continue
            payload = args.get("payload")
            if not isinstance(payload, dict):
                continue
            if args["kind"] == RUN_KIND:
                for role in ("gm_model", "judge_model"):
                    if isinstance(payload.get(role), str):
                        self._names.setdefault(role, payload[role])
                continue
            self._queue.append(
                _Exchange(
                    str(args["kind"]),
                    str(payload.get("model", "")),
                    str(payload.get("request_sha256", "")),
                    ModelAnswer.from_json(payload.get("answer")),
                )
            )
        self._next = 0
        self.gm: ChatModel = _RecordedModel(self, (GM_KIND,), self._names.get("gm_model"))
        self.judge: ChatModel = _RecordedModel(
            self, (CONFLICT_KIND, JUDGE_KIND), self._names.get("judge_model")
        )

    @property
    def remaining(self) -> int:
        return len(self._queue) - self._next

    def name_for(self, kinds: tuple[str, ...]) -> str:
        return next((x.model for x in self._queue if x.kind in kinds), "recorded")

    def serve(self, kinds: tuple[str, ...], messages: Sequence[Message]) -> ModelAnswer:
        if self._next >= len(self._queue):
            return ModelAnswer.failure("replay_exhausted", "no recorded answer is left")
        exchange = self._queue[self._next]
        self._next += 1
        if exchange.kind not in kinds:
            return ModelAnswer.failure("replay_mismatch", f"the next record is a {exchange.kind}")
        if exchange.request_sha256 != request_digest(messages):
            return ModelAnswer.failure("replay_mismatch", "the request differs from the recorded one")
        return exchange.answer


class _RecordedModel:
    def __init__(self, source: RecordedModels, kinds: tuple[str, ...], name: str | None) -> None:
        self._source = source
        self._kinds = kinds
        self._name = name if name is not None else source.name_for(kinds)

    @property
    def name(self) -> str:
        return self._name

    def complete(self, messages: Sequence[Message]) -> ModelAnswer:
        return self._source.serve(self._kinds, messages)


# --------------------------------------------------------------------------------------------------
# whole runs


@dataclass(frozen=True)
class ModelRunReport:
    result: ModelRunResult
    journal: str
    replay_verified: bool
    entries: int

    def to_json(self) -> dict[str, Any]:
        return {
            **self.result.to_json(),
            "journal": self.journal,
            "replay_verified": self.replay_verified,
            "entries": self.entries,
        }


def _journal_id(scenario: Scenario, condition: Condition) -> str:
    return f"model:{scenario.id}:{condition.value}"


def run_with_models(
    scenario: Scenario,
    journal: Path,
    *,
    gm: ChatModel,
    judge: ChatModel,
    condition: Condition = Condition.FULL_AWMU,
    setting: str = "",
) -> ModelRunReport:
    """A live run into a fresh journal at ``journal`` (replaced if it exists), then verified by replay."""
    for leftover in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        leftover.unlink(missing_ok=True)
    journal.parent.mkdir(parents=True, exist_ok=True)
    clock = ManualClock(START, step=timedelta(milliseconds=1))
    kernel = open_kernel(str(journal), clock=clock, journal_id=_journal_id(scenario, condition))
    try:
        result = ModelScenarioRun(
            kernel, scenario, gm=gm, judge=judge, condition=condition, setting=setting
        ).run()
    finally:
        kernel.close()
    reader = JournalReader.open(str(journal))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    return ModelRunReport(result, str(journal), report.verified, report.entries)


def replay_model_run(
    journal: Path,
    scenario: Scenario,
    *,
    condition: Condition = Condition.FULL_AWMU,
    setting: str = "",
) -> ModelRunResult:
    """The same loop again, offline: kernel results and model answers both served from the journal.

    Raises ModelLoopError when the loop's calls diverge from the journal or leave part of it unserved."""
    reader = JournalReader.open(str(journal))
    try:
        models = RecordedModels(reader.entries())
        kernel = replay_kernel(reader)  # reads journaled by reference are served whole
        result = ModelScenarioRun(
            kernel, scenario, gm=models.gm, judge=models.judge, condition=condition, setting=setting
        ).run()
        if not kernel.exhausted or models.remaining:
            raise ModelLoopError(
                f"the replay left {models.remaining} recorded answers and "
                f"{'some' if not kernel.exhausted else 'no'} journal entries unserved"
            )
    finally:
        reader.close()
    return result


# --------------------------------------------------------------------------------------------------
# command line: python -m tools.model_loop


def _setting_of(path: Path) -> str:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return ""
    setting = document.get("setting") if isinstance(document, dict) else None
    return setting if isinstance(setting, str) else ""


def main(argv: Sequence[str] | None = None) -> int:
    from tools.common import CommandError
    from tools.scenario_load import load_scenario

    parser = argparse.ArgumentParser(
        prog="python -m tools.model_loop",
        description="Play a scenario with a game-master and a judge model (OpenAI-compatible API), "
        "journal every answer, and verify the journal by replay.",
    )
    parser.add_argument("scenario", type=Path)
    parser.add_argument("--db", type=Path, default=Path("model-run.db"), help="the journal to write")
    parser.add_argument("--base-url", help="e.g. http://127.0.0.1:8000/v1 (needed unless --replay)")
    parser.add_argument("--gm-model", default="gpt-4.1-mini")
    parser.add_argument("--judge-model", default="gpt-4.1-mini")
    parser.add_argument("--api-key-env", default=None, help="environment variable holding the API key")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--condition", default=Condition.FULL_AWMU.value, choices=[c.value for c in Condition]
    )
    parser.add_argument("--replay", action="store_true", help="replay --db offline instead of running")
    options = parser.parse_args(argv)
    try:
        scenario = load_scenario(options.scenario)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    setting = _setting_of(options.scenario)
    condition = Condition(options.condition)
    try:
        if options.replay:
            output = replay_model_run(options.db, scenario, condition=condition, setting=setting).to_json()
        else:
            if not options.base_url:
                parser.error("--base-url is needed for a live run")
            models = [
                HttpChatModel(
                    options.base_url, name, api_key_env=options.api_key_env, timeout_s=options.timeout
                )
                for name in (options.gm_model, options.judge_model)
            ]
            output = run_with_models(
                scenario, options.db, gm=models[0], judge=models[1], condition=condition, setting=setting
            ).to_json()
    except ModelLoopError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(output, indent=2, sort_keys=True, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

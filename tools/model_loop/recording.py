"""What the model loop journals as recorded input, and how a replay is served from it.

Every model output enters the kernel through ``kernel.record``, under one of these kinds:

- ``model.run`` (``run_record``): the scenario, condition, both models' names and the SHA-256 of the
  setting, once at the start of a run;
- ``model.gm_reply``, ``model.conflict_check``, ``model.judge`` (``exchange_record``): one model
  exchange each: the turn, the model's name, the SHA-256 of the request, the answer (text, or the error
  that came instead) and, for the judge, what was parsed from it.

``RecordedModels`` reads those records back and serves the answers in order, as the offline stand-in
for both models when the same loop runs again against ``JournalReplayKernel``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from arvis.canonical import decode, sha256_hex
from kernel.abi import JournalEntry
from tools.model_loop.client import ChatModel, Message, ModelAnswer, request_digest

__all__ = [
    "CONFLICT_KIND",
    "GM_KIND",
    "JUDGE_KIND",
    "MODEL_KINDS",
    "RUN_KIND",
    "RecordedModels",
    "as_recorded",
    "exchange_record",
    "run_record",
]

GM_KIND = "model.gm_reply"
CONFLICT_KIND = "model.conflict_check"
JUDGE_KIND = "model.judge"
RUN_KIND = "model.run"
MODEL_KINDS = (GM_KIND, CONFLICT_KIND, JUDGE_KIND)


def run_record(
    scenario: str, condition: str, gm_model: str, judge_model: str, setting: str
) -> dict[str, Any]:
    """The payload of the ``model.run`` record that opens a run."""
    return {
        "scenario": scenario,
        "condition": condition,
        "gm_model": gm_model,
        "judge_model": judge_model,
        "setting_sha256": sha256_hex(setting.encode("utf-8")),
    }


def as_recorded(raw: object) -> ModelAnswer:
    """A model's answer rebuilt from its recorded form, so that a live run uses exactly what a replay
    will be served (anything that is not a ``ModelAnswer`` becomes a recorded failure)."""
    return ModelAnswer.from_json(raw.to_json() if isinstance(raw, ModelAnswer) else None)


def exchange_record(
    turn: int,
    model: str,
    messages: Sequence[Message],
    answer: ModelAnswer,
    parsed: dict[str, Any] | None,
) -> dict[str, Any]:
    """The payload of one model exchange's record; ``parsed`` (what was made of the answer) when the
    role's answer is parsed."""
    payload: dict[str, Any] = {
        "turn": turn,
        "model": model,
        "request_sha256": request_digest(messages),
        "answer": answer.to_json(),
    }
    if parsed is not None:
        payload["parsed"] = parsed
    return payload


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

"""What the model loop journals as recorded input, and how a replay is served from it.

Every model output enters the kernel through ``kernel.record``, under one of these kinds:

- ``model.run`` (``run_record``): the scenario, condition, both models' names and the SHA-256 of the
  setting, once at the start of a run;
- ``model.gm_reply``, ``model.extract``, ``model.conflict_check``, ``model.judge``
  (``exchange_record``): one model exchange each: the turn, the model's name (and the SHA-256 of its
  file, for a local model), the request (its messages) and its SHA-256, the answer (text, or the error
  that came instead) and, for the extractor and the judge, what was parsed from it.

``RecordedModels`` reads those records back and serves the answers in order, as the offline stand-in
for the models when the same loop runs again against ``JournalReplayKernel``; ``RecordedModels.check``
wraps a live model instead, which must be asked exactly the recorded requests, with the recorded model
file, and answer them exactly as recorded (``ModelDivergence`` names the first request that differs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from arvis.canonical import decode, sha256_hex
from kernel.abi import JournalEntry
from tools.model_loop.client import ChatModel, Message, ModelAnswer, request_digest

GM_KIND = "model.gm_reply"
EXTRACT_KIND = "model.extract"
CONFLICT_KIND = "model.conflict_check"
JUDGE_KIND = "model.judge"
RUN_KIND = "model.run"
MODEL_KINDS = (GM_KIND, EXTRACT_KIND, CONFLICT_KIND, JUDGE_KIND)


class ModelDivergence(Exception):
    """A model re-asked on replay was given another request, is another model file, or answered
    otherwise than the journal recorded; the message names the first such request."""


def said(model: ChatModel, attribute: str) -> str | None:
    """What a model says of itself, for a model that says: the SHA-256 of its file (``file_sha256``: the
    local model runs were recorded with one; a served model does not say), or what runs that file
    (``runtime``: ``llama-cpp-python 0.3.36``)."""
    value = getattr(model, attribute, None)
    return value if isinstance(value, str) else None


def run_record(
    scenario: str,
    condition: str,
    gm: ChatModel,
    judge: ChatModel,
    setting: str,
    extractor: ChatModel | None = None,
    queue_expiry: int | None = None,
) -> dict[str, Any]:
    """The payload of the ``model.run`` record that opens a run (the extractor's, the models' files and
    the queue policy's expiry only where there are: a run of an earlier release records none)."""
    payload: dict[str, Any] = {
        "scenario": scenario,
        "condition": condition,
        "gm_model": gm.name,
        "judge_model": judge.name,
        "setting_sha256": sha256_hex(setting.encode("utf-8")),
        "extractor_model": None if extractor is None else extractor.name,
        "queue_expire_after_turns": queue_expiry,
    }
    for role, model in (("gm", gm), ("judge", judge), ("extractor", extractor)):
        if model is not None:
            payload[f"{role}_model_file_sha256"] = said(model, "file_sha256")
            payload[f"{role}_model_runtime"] = said(model, "runtime")
    return {key: value for key, value in payload.items() if value is not None}


def as_recorded(raw: object) -> ModelAnswer:
    """A model's answer rebuilt from its recorded form, so that a live run uses exactly what a replay
    will be served (anything that is not a ``ModelAnswer`` becomes a recorded failure)."""
    return ModelAnswer.from_json(raw.to_json() if isinstance(raw, ModelAnswer) else None)


def exchange_record(
    turn: int,
    model: ChatModel,
    messages: Sequence[Message],
    answer: ModelAnswer,
    parsed: dict[str, Any] | None,
) -> dict[str, Any]:
    """The payload of one model exchange's record; ``parsed`` (what was made of the answer) when the
    role's answer is parsed."""
    payload: dict[str, Any] = {
        "turn": turn,
        "model": model.name,
        "request": [message.to_json() for message in messages],
        "request_sha256": request_digest(messages),
        "answer": answer.to_json(),
        "model_file_sha256": said(model, "file_sha256"),
        "parsed": parsed,
    }
    return {key: value for key, value in payload.items() if value is not None}


# --------------------------------------------------------------------------------------------------
# offline replay: the models' answers served from the journal


@dataclass(frozen=True)
class _Exchange:
    kind: str
    model: str
    request_sha256: str
    answer: ModelAnswer
    turn: object = None
    model_file: str | None = None
    seq: int = 0

    def named(self) -> str:
        return f"entry {self.seq} ({self.kind}, turn {self.turn}, request {self.request_sha256[:12]})"


class RecordedModels:
    """The answers a journal recorded, served in order: the offline stand-in for both models.

    ``gm`` serves ``model.gm_reply`` records, ``judge`` the conflict checks and per-fact verdicts;
    their names are those the run's ``model.run`` record gives.
    A request that is not the recorded one (another kind next, or another request digest) gets a
    ``replay_mismatch`` failure, which the loop then journals differently from the record, so the
    replay kernel reports the divergence."""

    def __init__(self, entries: Iterable[JournalEntry]) -> None:
        self._queue: list[_Exchange] = []
        self._names: dict[str, str] = {}
        self.has_run = False
        """The journal holds a ``model.run`` record."""
        self.queue_expiry: int | None = None
        """The expiry of the queue policy the run declared (its record's; None: it declared none)."""
        for entry in entries:
            if entry.syscall != "kernel.record" or entry.status != "ok":
                continue
            try:
                args = decode(entry.args)
            except (msgspec.DecodeError, ValueError):  # a malformed entry is not ours to serve
                continue
            if not isinstance(args, dict) or args.get("kind") not in (RUN_KIND, *MODEL_KINDS):
                continue
            payload = args.get("payload")
            if not isinstance(payload, dict):
                continue
            if args["kind"] == RUN_KIND:
                self.has_run = True
                expiry = payload.get("queue_expire_after_turns")
                self.queue_expiry = expiry if isinstance(expiry, int) else None
                for role in ("gm_model", "judge_model", "extractor_model"):
                    for key in (role, f"{role}_file_sha256", f"{role}_runtime"):
                        if isinstance(payload.get(key), str):
                            self._names.setdefault(key, payload[key])
                continue
            file = payload.get("model_file_sha256")
            self._queue.append(
                _Exchange(
                    str(args["kind"]),
                    str(payload.get("model", "")),
                    str(payload.get("request_sha256", "")),
                    ModelAnswer.from_json(payload.get("answer")),
                    payload.get("turn"),
                    file if isinstance(file, str) else None,
                    entry.seq,
                )
            )
        self._next = 0
        self.gm: ChatModel = self._recorded("gm_model", (GM_KIND,))
        self.judge: ChatModel = self._recorded("judge_model", (CONFLICT_KIND, JUDGE_KIND))
        self.extractor: ChatModel | None = (
            self._recorded("extractor_model", (EXTRACT_KIND,)) if "extractor_model" in self._names else None
        )
        """The run's extractor (None: the run proposed each reply whole, as before extractors)."""

    def _recorded(self, role: str, kinds: tuple[str, ...]) -> ChatModel:
        """The stand-in for one role: the name and model file the run's record gives it."""
        name, file_sha256, runtime = (self._names.get(role + end) for end in ("", "_file_sha256", "_runtime"))
        return _RecordedModel(self, kinds, name, file_sha256, runtime)

    def runtime_for(self, kinds: tuple[str, ...]) -> str | None:
        role = {GM_KIND: "gm_model", EXTRACT_KIND: "extractor_model"}.get(kinds[0], "judge_model")
        return self._names.get(f"{role}_runtime")

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

    def check_model(self, live: ChatModel) -> None:
        """``ModelDivergence`` naming the first recorded request that another model, or another model
        file, answered than ``live``: checked before anything is replayed."""
        for exchange in self._queue:
            _same_model(exchange, live)

    def check(self, kinds: tuple[str, ...], live: ChatModel) -> ChatModel:
        """``live`` re-asked in place of the record of ``kinds``: it must get each recorded request, be
        the recorded model file and answer as recorded, else ``ModelDivergence`` names the request."""
        return _CheckedModel(self, kinds, live)

    def _take(self, kinds: tuple[str, ...], messages: Sequence[Message]) -> _Exchange:
        if self._next >= len(self._queue):
            raise ModelDivergence("the replay asks a model more than the journal recorded")
        exchange = self._queue[self._next]
        self._next += 1
        if exchange.kind not in kinds:
            raise ModelDivergence(f"{exchange.named()} is not the {'/'.join(kinds)} asked for now")
        asked = request_digest(messages)
        if exchange.request_sha256 != asked:
            raise ModelDivergence(f"{exchange.named()}: the request now is {asked[:12]}")
        return exchange


def _same_model(exchange: _Exchange, live: ChatModel) -> None:
    now = said(live, "file_sha256")
    if exchange.model_file != now or exchange.model != live.name:
        raise ModelDivergence(
            f"{exchange.named()} was answered by {exchange.model}, model file "
            f"{exchange.model_file or '(none)'}; this is {live.name}, model file {now or '(none)'}"
        )


class _CheckedModel:
    def __init__(self, source: RecordedModels, kinds: tuple[str, ...], live: ChatModel) -> None:
        self._source = source
        self._kinds = kinds
        self._live = live
        self.name = live.name
        self.file_sha256 = said(live, "file_sha256")

    @property
    def runtime(self) -> str | None:
        """The runtime the run recorded: a replay re-asks the model, it does not record a new run; a
        runtime of another version is named only if its answers differ (``complete``)."""
        return self._source.runtime_for(self._kinds)

    def complete(self, messages: Sequence[Message]) -> ModelAnswer:
        exchange = self._source._take(self._kinds, messages)
        _same_model(exchange, self._live)
        answer = as_recorded(self._live.complete(messages))
        if answer != exchange.answer:
            recorded, now = self._source.runtime_for(self._kinds), said(self._live, "runtime")
            runtimes = (
                "" if recorded == now else f" (recorded with {recorded or '?'}, run now by {now or '?'})"
            )
            raise ModelDivergence(f"{exchange.named()}: the model answers otherwise than recorded{runtimes}")
        return answer


class _RecordedModel:
    def __init__(
        self,
        source: RecordedModels,
        kinds: tuple[str, ...],
        name: str | None,
        file_sha256: str | None,
        runtime: str | None,
    ) -> None:
        self._source = source
        self._kinds = kinds
        self.name = name if name is not None else source.name_for(kinds)
        self.file_sha256 = file_sha256
        self.runtime = runtime
        """The model file the run recorded for the role (None: a model with no file, or an older run)."""

    def complete(self, messages: Sequence[Message]) -> ModelAnswer:
        return self._source.serve(self._kinds, messages)

"""The working memory's model judge: an OpenAI-compatible chat-completions endpoint, bound at boot.

``open_kernel(..., judge=HttpJudge(url, model))`` binds it. A proposal's cheap detectors put the text on
the same subject as some facts; only then is the judge asked, once per call, what each pair is:
``CONTRADICTION``, ``REVISION``, ``WORLD_PROGRESSION`` or ``NONE``, with a confidence
(``arvis.awmu.judging``). The answer, the model's name and the SHA-256 of the request's bytes are recorded
with the call's ``detectors``; verification reads them back and never asks.

A judge never raises: a timeout, a connection or HTTP error, or an answer that is not the JSON asked for
(an unknown verdict, a pair left out, a confidence outside [0, 1]) is a run with that status, and the
call is decided by the offline detectors. The request goes through ``urllib.request`` (no dependency);
``timeout_s`` bounds the whole request (the answer is awaited in a worker thread). The call waits for the
answer under the kernel's write lock, as it waits for the semantic encoder: a slow judge slows every
writer by up to ``timeout_s``.
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any, Protocol

from arvis.awmu.judging import JUDGE_ANSWERS, JudgeRun, JudgeVerdict

__all__ = ["JUDGE_TIMEOUT_S", "MAX_ANSWER_BYTES", "ConflictJudge", "HttpJudge", "parse_answer"]

JUDGE_TIMEOUT_S = 10.0
"""How long a request may take before the call goes on without the judge."""

MAX_ANSWER_BYTES = 1_000_000
"""An answer longer than this is garbage."""

_INSTRUCTIONS = (
    "You compare a new statement with facts a memory holds about the same subject. For each fact, answer "
    "CONTRADICTION (both cannot be true at once), REVISION (the statement updates or corrects the fact), "
    "WORLD_PROGRESSION (the world changed since; both were true in their time) or NONE (no conflict). "
    'Reply with JSON only: {"answers": [{"id": "<fact id>", "verdict": "<one of the four>", '
    '"confidence": <0..1>}]}, one answer per fact.'
)


class ConflictJudge(Protocol):
    """What the working memory needs from a judge."""

    @property
    def model(self) -> str:
        """The model's name, as recorded with its verdicts."""
        ...

    def judge(self, text: str, facts: Sequence[tuple[str, str]]) -> JudgeRun:
        """The verdict on ``text`` against each ``(unit id, fact text)``; never raises."""
        ...


def _endpoint(url: str) -> str:
    trimmed = url.rstrip("/")
    return trimmed if trimmed.endswith("/chat/completions") else f"{trimmed}/chat/completions"


def _confidence(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return round(number, 4) if 0.0 <= number <= 1.0 else None


def _answers(content: str) -> Any:
    """The JSON object of a model's reply (the text between its first ``{`` and its last ``}``)."""
    start, end = content.find("{"), content.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the reply")
    return json.loads(content[start : end + 1])


def parse_answer(body: bytes, asked: Sequence[str]) -> tuple[JudgeVerdict, ...]:
    """The verdicts of a chat-completions response on the units ``asked``, one each; ``ValueError`` (or
    a ``LookupError``, ``TypeError``) when it is anything else."""
    reply: Any = json.loads(body)
    content = reply["choices"][0]["message"]["content"]
    if not isinstance(content, str):
        raise TypeError("the reply has no text")
    answers = _answers(content)["answers"]
    if not isinstance(answers, list):
        raise TypeError("answers is not a list")
    verdicts: dict[str, JudgeVerdict] = {}
    for answer in answers:
        unit_id, verdict = str(answer["id"]), answer["verdict"]
        confidence = _confidence(answer["confidence"])
        if unit_id not in asked or verdict not in JUDGE_ANSWERS or confidence is None:
            raise ValueError(f"a bad answer about {unit_id!r}")
        verdicts[unit_id] = JudgeVerdict(unit_id, verdict, confidence)
    if set(verdicts) != set(asked):
        raise ValueError("an answer is missing")
    return tuple(verdicts[unit_id] for unit_id in sorted(verdicts))


class HttpJudge:
    """A judge behind an OpenAI-compatible ``/chat/completions`` endpoint (``url``: the endpoint, or the
    base it is under, e.g. ``http://127.0.0.1:8000/v1``), asked at temperature 0."""

    def __init__(
        self, url: str, model: str, timeout_s: float = JUDGE_TIMEOUT_S, *, api_key: str | None = None
    ) -> None:
        if not timeout_s > 0:
            raise ValueError("a judge's timeout is a positive number of seconds")
        self._url = _endpoint(url)
        self._model = model
        self._timeout = timeout_s
        self._api_key = api_key

    @property
    def model(self) -> str:
        return self._model

    def request_body(self, text: str, facts: Sequence[tuple[str, str]]) -> bytes:
        """The request's bytes (canonical JSON): what ``request_hash`` hashes."""
        question = {"statement": text, "facts": [{"id": unit_id, "text": fact} for unit_id, fact in facts]}
        body = {
            "model": self._model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": _INSTRUCTIONS},
                {"role": "user", "content": json.dumps(question, sort_keys=True, ensure_ascii=False)},
            ],
        }
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    def _post(self, body: bytes) -> bytes:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(self._url, data=body, headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=self._timeout) as response:
            answer: bytes = response.read(MAX_ANSWER_BYTES + 1)
        if len(answer) > MAX_ANSWER_BYTES:
            raise ValueError("the answer is too long")
        return answer

    def _post_within(self, body: bytes) -> bytes:
        """``_post``'s answer within ``timeout_s`` in all (a server may answer a byte at a time, each
        within the socket's timeout): ``TimeoutError`` past it, the request left to finish unread."""
        answers: queue.SimpleQueue[bytes | Exception] = queue.SimpleQueue()

        def work() -> None:
            try:
                answers.put(self._post(body))
            except Exception as exc:  # handed to the caller, which records it
                answers.put(exc)

        threading.Thread(target=work, name="arvis-judge", daemon=True).start()
        try:
            answer = answers.get(timeout=self._timeout)
        except queue.Empty:
            raise TimeoutError from None
        if isinstance(answer, Exception):
            raise answer
        return answer

    def judge(self, text: str, facts: Sequence[tuple[str, str]]) -> JudgeRun:
        body = self.request_body(text, facts)
        digest = hashlib.sha256(body).hexdigest()
        try:
            answer = self._post_within(body)
        except TimeoutError:
            return JudgeRun(self._model, digest, "timeout")
        except urllib.error.HTTPError as exc:
            return JudgeRun(self._model, digest, "failed", detail=f"HTTP {exc.code}")
        except urllib.error.URLError as exc:
            timed_out = isinstance(exc.reason, TimeoutError)
            return JudgeRun(
                self._model, digest, "timeout" if timed_out else "failed", detail=_why(exc.reason)
            )
        except Exception as exc:  # the judge's failure is data, never the call's
            return JudgeRun(self._model, digest, "failed", detail=type(exc).__name__)
        try:
            verdicts = parse_answer(answer, [unit_id for unit_id, _ in facts])
        except Exception as exc:
            return JudgeRun(self._model, digest, "garbage", detail=type(exc).__name__)
        return JudgeRun(self._model, digest, "ok", verdicts)


def _why(reason: object) -> str:
    return "" if isinstance(reason, TimeoutError) else type(reason).__name__

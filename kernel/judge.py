"""The working memory's model judge: an OpenAI-compatible chat-completions endpoint, bound at boot.

``open_kernel(..., judge=HttpJudge(url, model))`` binds it. A proposal's cheap detectors put the text on
the same subject as some facts; only then is the judge asked, once per call, what each pair is:
``CONTRADICTION``, ``REVISION``, ``WORLD_PROGRESSION`` or ``NONE``, with a confidence
(``arvis.awmu.judging``). The answer, the model's name and the SHA-256 of the request's bytes are recorded
with the call's ``detectors``; verification reads them back and never asks.

A judge never raises: a timeout, a connection or HTTP error, or an answer that is not the JSON asked for
(an unknown verdict, a pair left out, a confidence outside [0, 1]) is a run with that status, and the
call is decided by the offline detectors. The request goes through ``http.client`` (no dependency), in the
calling thread: ``timeout_s`` bounds the whole request, every send and receive getting only what is left of
it, so a server answering a byte at a time cannot stretch it, and a timed-out request leaves no thread or
socket behind. A redirect is never followed (it would carry the bearer token to another origin): it is an
HTTP error like any other. The call waits for the answer under the kernel's write lock, as it waits for the
semantic encoder: a slow judge slows every writer by up to ``timeout_s``.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import socket
import ssl
import time
import urllib.parse
from collections.abc import Sequence
from typing import Any, Protocol

from arvis.awmu.judging import JUDGE_ANSWERS, JudgeRun, JudgeVerdict

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


def _confidence(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return round(number, 4) if 0.0 <= number <= 1.0 else None


def parse_answer(body: bytes, asked: Sequence[str]) -> tuple[JudgeVerdict, ...]:
    """The verdicts of a chat-completions response on the units ``asked``, one each; ``ValueError`` (or
    a ``LookupError``, ``TypeError``) when it is anything else."""
    reply: Any = json.loads(body)
    content = reply["choices"][0]["message"]["content"]
    if not isinstance(content, str):
        raise TypeError("the reply has no text")
    start, end = content.find("{"), content.rfind("}")  # its JSON object: from the first { to the last }
    if start < 0 or end < start:
        raise ValueError("no JSON object in the reply")
    answers = json.loads(content[start : end + 1])["answers"]
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
        trimmed = url.rstrip("/")
        self._url = trimmed if trimmed.endswith("/chat/completions") else f"{trimmed}/chat/completions"
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

    def judge(self, text: str, facts: Sequence[tuple[str, str]]) -> JudgeRun:
        body = self.request_body(text, facts)
        digest = hashlib.sha256(body).hexdigest()
        try:
            status, answer = post_chat(self._url, body, timeout_s=self._timeout, api_key=self._api_key)
        except TimeoutError:
            return JudgeRun(self._model, digest, "timeout")
        except Exception as exc:  # the judge's failure is data, never the call's
            return JudgeRun(self._model, digest, "failed", detail=type(exc).__name__)
        if not 200 <= status < 300:
            return JudgeRun(self._model, digest, "failed", detail=f"HTTP {status}")
        try:
            verdicts = parse_answer(answer, [unit_id for unit_id, _ in facts])
        except Exception as exc:
            return JudgeRun(self._model, digest, "garbage", detail=type(exc).__name__)
        return JudgeRun(self._model, digest, "ok", verdicts)


def post_chat(
    url: str, body: bytes, *, timeout_s: float, api_key: str | None = None, limit: int = MAX_ANSWER_BYTES
) -> tuple[int, bytes]:
    """The status and body of an OpenAI-compatible endpoint's answer to ``body`` (JSON), within
    ``timeout_s`` in all (``TimeoutError`` past it); a redirect is a status like any other, never followed,
    so the bearer token stays with the endpoint's origin; a body over ``limit`` bytes is ``ValueError``.
    The judge and the scenario runner's models (``tools.model_loop.client``) share it."""
    deadline = time.monotonic() + timeout_s
    parts = urllib.parse.urlsplit(url)
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    opening = _SecureConnection if parts.scheme == "https" else _Connection
    connection = opening(parts.hostname or "", parts.port, deadline)
    try:
        connection.request("POST", parts.path + (f"?{parts.query}" if parts.query else ""), body, headers)
        with connection.getresponse() as response:
            answer = response.read(limit + 1)
    finally:
        connection.close()
    if len(answer) > limit:
        raise ValueError("the answer is too long")
    return response.status, answer


def _left(deadline: float) -> float:
    """What is left of ``deadline``; ``TimeoutError`` once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's deadline passed")
    return left


class _DeadlineSocket(socket.socket):
    """A socket whose every send and receive waits only for what is left of one deadline. The rest of
    the arguments are passed as given: a TLS socket's ``nbytes`` defaults to None, a plain one's to 0."""

    deadline = 0.0

    def recv_into(self, buffer: Any, *more: Any) -> int:
        self.settimeout(_left(self.deadline))
        return super().recv_into(buffer, *more)

    def sendall(self, data: Any, *more: Any) -> None:
        self.settimeout(_left(self.deadline))
        super().sendall(data, *more)


class _DeadlineTLSSocket(_DeadlineSocket, ssl.SSLSocket):
    """The same over TLS (its sends and receives are ``ssl.SSLSocket``'s, next in the order; the
    handshake gets what is left of the deadline as one timeout)."""


def _open(host: str, port: int, deadline: float) -> _DeadlineSocket:
    raw = socket.create_connection((host, port), _left(deadline))
    sock = _DeadlineSocket(raw.family, raw.type, raw.proto, raw.detach())
    sock.deadline = deadline
    sock.settimeout(_left(deadline))
    return sock


class _Connection(http.client.HTTPConnection):
    """A connection under one deadline for the whole request."""

    def __init__(self, host: str, port: int | None, deadline: float) -> None:
        super().__init__(host, port)
        self.deadline = deadline

    def connect(self) -> None:
        self.sock = _open(self.host, self.port, self.deadline)


class _SecureConnection(http.client.HTTPSConnection):
    """The same over TLS, the server's certificate checked against the system's authorities."""

    def __init__(self, host: str, port: int | None, deadline: float) -> None:
        self.tls = ssl.create_default_context()
        self.tls.sslsocket_class = _DeadlineTLSSocket
        super().__init__(host, port, context=self.tls)
        self.deadline = deadline

    def connect(self) -> None:
        sock = self.tls.wrap_socket(_open(self.host, self.port, self.deadline), server_hostname=self.host)
        if isinstance(sock, _DeadlineTLSSocket):  # always (its class is the context's); else no deadline left
            sock.deadline = self.deadline
        self.sock = sock

"""A chat model reached through an OpenAI-compatible chat-completions API, with failures as data.

``HttpChatModel.complete`` POSTs ``{model, messages, temperature}`` to ``{base_url}/chat/completions``
through the judge's client (``kernel.judge.post_chat``) and reads ``choices[0].message.content``. It
never raises: a refused connection, a timeout, an HTTP error status, a body that is not the expected
JSON or a reply with no text all come back as a ``ModelAnswer`` with ``ok=False``, an error code and
a short detail.

The API key is read from the environment variable the caller names, at each request, and is sent
only in the ``Authorization`` header: it is not stored on the object, shown by ``repr`` or put in
an error detail.

This module only talks to a model; the rest of ``tools.model_loop`` decides what enters the kernel and
journal.
"""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from arvis.canonical import canonical_bytes, sha256_hex
from kernel.judge import post_chat

MAX_ANSWER_CHARS = 8_000
"""An answer's text is cut to this many characters (so that its journal record stays small)."""
MAX_DETAIL_CHARS = 300
MAX_BODY_BYTES = 4 * 1024 * 1024
"""A response body larger than this is refused unread (error ``response_too_large``)."""

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str

    def to_json(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


def clean_text(text: str, limit: int) -> str:
    """``text`` with anything that has no UTF-8 form (lone surrogates) replaced, cut to ``limit``."""
    return text.encode("utf-8", "replace").decode("utf-8")[:limit]


@dataclass(frozen=True)
class ModelAnswer:
    """What a model said (``ok``, ``text``), or why nothing usable came back (``error``, ``detail``).

    Build answers with ``success``/``failure``: they bound and clean the text so that the answer
    has a canonical JSON form and round-trips through the journal unchanged."""

    ok: bool
    text: str = ""
    error: str = ""
    detail: str = ""

    @classmethod
    def success(cls, text: str) -> ModelAnswer:
        return cls(ok=True, text=clean_text(text, MAX_ANSWER_CHARS))

    @classmethod
    def failure(cls, error: str, detail: str = "") -> ModelAnswer:
        return cls(ok=False, error=clean_text(error, 64), detail=clean_text(detail, MAX_DETAIL_CHARS))

    def to_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True, "text": self.text}
        return {"ok": False, "error": self.error, "detail": self.detail}

    @classmethod
    def from_json(cls, value: object) -> ModelAnswer:
        """The answer a journal record holds; a record of any other shape is a ``bad_record`` failure."""
        if isinstance(value, dict):
            if value.get("ok") is True and isinstance(value.get("text"), str):
                return cls.success(value["text"])
            if value.get("ok") is False and isinstance(value.get("error"), str):
                detail = value.get("detail")
                return cls.failure(value["error"], detail if isinstance(detail, str) else "")
        return cls.failure("bad_record", "the recorded answer has no known shape")


def request_digest(messages: Sequence[Message]) -> str:
    """The SHA-256 of the canonical JSON of the messages: what a record says was asked."""
    return sha256_hex(canonical_bytes([message.to_json() for message in messages]))


class ChatModel(Protocol):
    """Anything that answers a conversation. ``name`` is what the journal records as the model."""

    @property
    def name(self) -> str: ...

    def complete(self, messages: Sequence[Message]) -> ModelAnswer: ...


class HttpChatModel:
    """An OpenAI-compatible chat-completions endpoint, asked through the judge's client
    (``kernel.judge.post_chat``: one deadline for the whole request, no redirect followed, no proxy).

    ``api_key_env`` names the environment variable holding the key (``None``: send no key)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = None,
        timeout_s: float = 60.0,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError("base_url must start with http:// or https://")
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self._url = base_url.rstrip("/") + "/chat/completions"
        self.name = model
        self._api_key_env = api_key_env
        self._timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"HttpChatModel(url={self._url!r}, model={self.name!r}, api_key_env={self._api_key_env!r})"

    def complete(self, messages: Sequence[Message]) -> ModelAnswer:
        key = None
        if self._api_key_env is not None:
            key = os.environ.get(self._api_key_env)
            if not key:
                return ModelAnswer.failure(
                    "missing_api_key", f"environment variable {self._api_key_env} is not set"
                )
        body = json.dumps(
            {
                "model": self.name,
                "messages": [message.to_json() for message in messages],
                "temperature": 0.0,
            }
        ).encode("utf-8")
        try:
            status, raw = post_chat(
                self._url, body, timeout_s=self._timeout_s, api_key=key, limit=MAX_BODY_BYTES
            )
        except TimeoutError:
            return ModelAnswer.failure("timeout", f"no answer within {self._timeout_s} s")
        except ValueError as exc:
            return ModelAnswer.failure("response_too_large", f"more than {MAX_BODY_BYTES} bytes: {exc}")
        except (OSError, http.client.HTTPException) as exc:  # refused, reset, bad status lines
            return ModelAnswer.failure("transport", f"{type(exc).__name__}: {exc}")
        if not 200 <= status < 300:
            snippet = raw[:MAX_DETAIL_CHARS].decode("utf-8", "replace").strip()
            return ModelAnswer.failure("http_status", f"HTTP {status}: {snippet}")
        return parse_completion(raw)


def parse_completion(raw: bytes) -> ModelAnswer:
    """``choices[0].message.content`` of a chat-completions body; other shapes are failures."""
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return ModelAnswer.failure("malformed_response", f"the body is not JSON: {exc}")
    if not isinstance(document, dict):
        return ModelAnswer.failure("malformed_response", "the body is not a JSON object")
    if "error" in document and "choices" not in document:
        return ModelAnswer.failure("api_error", json.dumps(document["error"])[:MAX_DETAIL_CHARS])
    choices = document.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return ModelAnswer.failure("malformed_response", "no choices[0] in the body")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return ModelAnswer.failure("malformed_response", "no choices[0].message in the body")
    content = message.get("content")
    if isinstance(content, list):  # content parts: keep the text ones
        parts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        content = "".join(part for part in parts if isinstance(part, str)) if parts else None
    if not isinstance(content, str) or not content.strip():
        return ModelAnswer.failure("no_content", "choices[0].message.content holds no text")
    return ModelAnswer.success(content)

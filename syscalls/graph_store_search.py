"""The store's semantic search (specs/langgraph.md §8.5): embeddings carried by the calls, ranked as
LangGraph's ``InMemoryStore`` ranks them, computed the same on every machine.

A put's value (encoding 2, ``arvis.store_values``) carries the embeddings of its indexed fields; a search
carries its query's embedding (``query_vector``). The kernel never runs a model: it checks the vectors'
shape and ranks by cosine similarity. Every vector is little-endian float32. A score is defined by IEEE
double arithmetic in one fixed order: each product of two float32 components is exact in a double; the
products are added from the first to the last (each sum rounded); a norm is the correctly rounded square
root of the same sum of squares; the cosine is ``dot / (query_norm * norm)`` (0 when a norm is 0). numpy,
when installed, computes exactly that (the products of one column at a time added to running sums);
without it a plain loop does, bit for bit the same (``tests/test_langgraph_store_search.py``). So a score
is the same float on every platform, and a replay reproduces the recorded result byte for byte.
"""

from __future__ import annotations

import base64
import binascii
import functools
import importlib
import importlib.util
import math
import sys
from array import array
from collections.abc import Sequence
from operator import add, mul
from typing import Any, TypeVar

from arvis.canonical import CanonicalEncodingError
from arvis.store_values import ENCODING, TAG, decode_value
from kernel.errors import ErrorCode, KernelError

MAX_DIMS = 65_536
"""The most dimensions of an embedding."""

Stored = tuple[int, bytes]
"""An item's embeddings as stored: their dimensions and their little-endian float32 bytes, end to end."""

_T = TypeVar("_T")


@functools.cache
def _numpy() -> Any:
    """numpy, imported on the first search that ranks (never at start-up), or None when absent."""
    return importlib.import_module("numpy") if importlib.util.find_spec("numpy") is not None else None


def _floats(data: str, what: str) -> array[float]:
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError, TypeError) as exc:
        raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: not base64") from exc
    if len(raw) % 4:
        raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: not a whole number of float32s")
    floats = _unpacked(raw)
    if not all(map(math.isfinite, floats)):
        raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: a component is not finite")
    return floats


def query_vector(data: str) -> bytes:
    """The query's embedding (base64 of little-endian float32s) as bytes; ``invalid_args`` when it is
    malformed, empty, too long or not finite."""
    vector = _floats(data, "query_vector")
    if not 1 <= len(vector) <= MAX_DIMS:
        raise KernelError(ErrorCode.INVALID_ARGS, f"query_vector: 1-{MAX_DIMS} dimensions")
    return base64.b64decode(data)


def vectors_of(vectors: dict[str, Any] | None) -> Stored | None:
    """An item's embeddings (``{"dims", "paths", "data"}``, checked by ``check_envelope`` when stored)."""
    if vectors is None or not vectors["paths"]:
        return None
    return int(vectors["dims"]), base64.b64decode(vectors["data"])


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


def _unpacked(data: bytes) -> array[float]:
    floats = array("f")
    floats.frombytes(data)
    if sys.byteorder == "big":
        floats.byteswap()
    return floats


def _cosine(query: array[float], query_norm: float, vector: array[float]) -> float:
    """The module's definition of a score, in plain Python."""
    norm = math.sqrt(functools.reduce(add, map(mul, vector, vector)))
    if query_norm == 0.0 or norm == 0.0:
        return 0.0
    return float(functools.reduce(add, map(mul, query, vector)) / (query_norm * norm))


def _scores_python(query: bytes, dims: int, matrix: bytes) -> list[float]:
    vector = _unpacked(query)
    query_norm = math.sqrt(functools.reduce(add, map(mul, vector, vector)))
    floats = _unpacked(matrix)
    return [
        _cosine(vector, query_norm, floats[start : start + dims]) for start in range(0, len(floats), dims)
    ]


def _scores_numpy(query: bytes, dims: int, matrix: bytes) -> list[float]:
    """The matrix transposed, so that each row's products are added a column at a time, first to last:
    each sum the previous one plus the next column's (exact) product, as the definition adds them."""
    np, vector = _numpy(), _unpacked(query).tolist()
    query_norm = math.sqrt(functools.reduce(add, map(mul, vector, vector)))
    columns = np.ascontiguousarray(np.frombuffer(matrix, dtype="<f4").reshape(-1, dims).T, dtype=np.float64)
    dots, squares = columns[0] * vector[0], columns[0] * columns[0]
    for column, component in zip(columns[1:], vector[1:], strict=True):
        dots += column * component
        squares += column * column
    norms = np.sqrt(squares)
    with np.errstate(divide="ignore", invalid="ignore"):
        cosines = dots / (query_norm * norms)
    return [0.0] * len(norms) if query_norm == 0.0 else np.where(norms == 0.0, 0.0, cosines).tolist()


def scores(query: bytes, dims: int, matrix: bytes, *, use_numpy: bool = True) -> list[float]:
    """The score of each ``dims``-dimension vector of ``matrix`` (float32s end to end) against the
    query's: with numpy when installed (and ``use_numpy``), else in plain Python; the same floats."""
    if not matrix:
        return []
    if use_numpy and _numpy() is not None:
        return _scores_numpy(query, dims, matrix)
    return _scores_python(query, dims, matrix)


def ranked(
    rows: Sequence[_T], stored: Sequence[Stored | None], query: bytes, offset: int, limit: int
) -> list[tuple[_T, float | None]]:
    """``InMemoryStore``'s ranking of ``rows`` (in search order) by their best vector's cosine to the
    query, highest first, ties in search order; then ``offset`` and ``limit``; then, when fewer than
    ``limit`` are kept, the rows with no vector of the query's dimensions, unscored, in search order
    (``InMemoryStore`` fills them in without counting ``offset``)."""
    dims = len(query) // 4
    owners: list[int] = []
    parts: list[bytes] = []
    scoreless: list[int] = []
    for index, found in enumerate(stored):
        if found is None or found[0] != dims:
            scoreless.append(index)
            continue
        parts.append(found[1])
        owners.extend([index] * (len(found[1]) // (4 * dims)))
    best: dict[int, float] = {}
    for owner, score in zip(owners, scores(query, dims, b"".join(parts)), strict=True):
        if owner not in best or score > best[owner]:
            best[owner] = score
    order = sorted(best, key=lambda index: -best[index])  # stable: ties keep the search order
    kept: list[tuple[_T, float | None]] = [
        (rows[index], best[index]) for index in order[offset : offset + limit]
    ]
    if scoreless and len(kept) < limit:
        kept.extend((rows[index], None) for index in scoreless[: limit - len(kept)])
    return kept

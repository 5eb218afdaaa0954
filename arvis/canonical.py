"""The one canonical encoding: every byte that is hashed, journaled or compared comes from here.

Rules: JSON, keys sorted, no whitespace, UTF-8 (no ``\\u`` escapes beyond what JSON requires),
integers as decimal within the signed 64-bit range (every backend stores them alike), floats in
shortest round-trip form (non-finite floats are refused), datetimes in the fixed form
``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (UTC, always six fractional digits).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

__all__ = [
    "CanonicalEncodingError",
    "JsonValue",
    "canonical_bytes",
    "canonical_bytes_of_own",
    "decode",
    "format_time",
    "parse_time",
    "sha256_hex",
]

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]

_INT64 = 2**63
_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder()


class CanonicalEncodingError(ValueError):
    """A value has no canonical form (non-finite float, non-string key, unencodable text, ...)."""


def format_time(moment: datetime) -> str:
    """The fixed text form of an aware datetime, in UTC with microseconds."""
    if moment.tzinfo is None:
        raise CanonicalEncodingError("naive datetime has no canonical form")
    utc = moment.astimezone(UTC)
    return (
        f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:"
        f"{utc.second:02d}.{utc.microsecond:06d}Z"
    )


def parse_time(text: str) -> datetime:
    """Parse an ISO 8601 timestamp with an offset (``Z`` accepted) into an aware UTC datetime."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise CanonicalEncodingError(f"not an ISO 8601 timestamp: {text!r}") from exc
    if moment.tzinfo is None:
        raise CanonicalEncodingError(f"timestamp has no UTC offset: {text!r}")
    try:
        return moment.astimezone(UTC)
    except OverflowError as exc:
        raise CanonicalEncodingError(f"timestamp out of range: {text!r}") from exc


def _check(value: Any, depth: int) -> None:
    if depth > 256:
        raise CanonicalEncodingError("value nested too deeply")
    if value is None or isinstance(value, bool | int | str):
        if isinstance(value, int) and not isinstance(value, bool) and not -_INT64 <= value < _INT64:
            raise CanonicalEncodingError("integer outside the signed 64-bit range")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise CanonicalEncodingError("string is not valid unicode") from exc
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CanonicalEncodingError("non-finite float has no canonical form")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalEncodingError("object keys must be strings")
            _check(key, depth + 1)
            _check(item, depth + 1)
        return
    if isinstance(value, bytes | bytearray | memoryview):
        raise CanonicalEncodingError("bytes have no canonical JSON form")
    if isinstance(value, Sequence):
        for item in value:
            _check(item, depth + 1)
        return
    raise CanonicalEncodingError(f"{type(value).__name__} has no canonical form")


def canonical_bytes(value: Any) -> bytes:
    """Encode a JSON-shaped value canonically. Raises CanonicalEncodingError when it has no form."""
    _check(value, 0)
    try:
        return _encoder.encode(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise CanonicalEncodingError(str(exc)) from exc


def canonical_bytes_of_own(value: Any) -> bytes:
    """The canonical bytes of a value the kernel built itself (results, effects, records).

    Same encoding as ``canonical_bytes`` without the walk that refuses foreign values: these values
    are JSON-shaped by construction. Caller input must go through ``canonical_bytes``.
    """
    return _encoder.encode(value)


def decode(data: bytes) -> Any:
    """Decode canonical (or any) JSON bytes into plain Python values."""
    return _decoder.decode(data)


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()

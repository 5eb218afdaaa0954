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

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]

_INT64 = 2**63
_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder()


class CanonicalEncodingError(ValueError):
    """A value has no canonical form (non-finite float, non-string key, unencodable text, ...)."""


_TIME_FORM = "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ"
"""``YYYY-MM-DDTHH:MM:SS.ffffffZ``: what ``isoformat(timespec="microseconds")`` writes for a naive UTC
time, plus ``Z`` (the year padded to four digits, always six fractional digits), at half its cost."""


def format_time(moment: datetime) -> str:
    """The fixed text form of an aware datetime, in UTC with microseconds."""
    if moment.tzinfo is None:
        raise CanonicalEncodingError("naive datetime has no canonical form")
    utc = moment if moment.tzinfo is UTC else moment.astimezone(UTC)
    return _TIME_FORM % (utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second, utc.microsecond)


def parse_time(text: str) -> datetime:
    """Parse an ISO 8601 timestamp with an offset (``Z`` accepted) into an aware UTC datetime."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise CanonicalEncodingError(f"not an ISO 8601 timestamp: {text!r}") from exc
    if moment.tzinfo is UTC:
        return moment
    if moment.tzinfo is None:
        raise CanonicalEncodingError(f"timestamp has no UTC offset: {text!r}")
    try:
        return moment.astimezone(UTC)
    except OverflowError as exc:
        raise CanonicalEncodingError(f"timestamp out of range: {text!r}") from exc


def _check(value: Any, depth: int) -> None:
    """Refuse what msgspec would encode without a canonical form (non-finite floats, integers outside
    64 bits, bytes, sets, datetimes, objects...). Text that is not valid unicode and keys that are not
    strings are refused by the encoder itself. Plain dicts, lists and scalars are tested by exact type
    first; everything else goes to ``_check_other``. Every item is walked, so the nesting limit holds
    whatever the innermost value."""
    if depth > 256:
        raise CanonicalEncodingError("value nested too deeply")
    kind = type(value)
    if kind is dict or kind is list:
        leaves_pass = depth < 256  # a leaf one level down is within the limit: no call for it
        for item in value.values() if kind is dict else value:
            if leaves_pass and (type(item) is str or item is None):
                continue
            _check(item, depth + 1)
        return
    if kind is str or kind is bool or value is None:
        return
    if kind is int:
        if not -_INT64 <= value < _INT64:
            raise CanonicalEncodingError("integer outside the signed 64-bit range")
        return
    _check_other(value, depth)


def _check_other(value: Any, depth: int) -> None:
    """The slow path of ``_check``: subclasses, floats, tuples and other mappings and sequences."""
    if isinstance(value, bool | str):
        return
    if isinstance(value, int):
        if not -_INT64 <= value < _INT64:
            raise CanonicalEncodingError("integer outside the signed 64-bit range")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CanonicalEncodingError("non-finite float has no canonical form")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalEncodingError("object keys must be strings")
            _check(item, depth + 1)
        return
    if isinstance(value, bytes | bytearray | memoryview):
        raise CanonicalEncodingError("bytes have no canonical JSON form")
    if isinstance(value, Sequence):
        for item in value:
            _check(item, depth + 1)
        return
    raise CanonicalEncodingError(f"{type(value).__name__} has no canonical form")


def _has_non_str_key(value: Any) -> bool:
    """Whether a mapping anywhere in ``value`` has a key that is not a string (the encoder's refusal,
    named; only walked once the encoder has refused)."""
    if isinstance(value, Mapping):
        return any(not isinstance(key, str) or _has_non_str_key(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(_has_non_str_key(item) for item in value)
    return False


def canonical_bytes(value: Any) -> bytes:
    """Encode a JSON-shaped value canonically. Raises CanonicalEncodingError when it has no form."""
    _check(value, 0)
    try:
        return _encoder.encode(value)
    except UnicodeEncodeError as exc:
        raise CanonicalEncodingError("string is not valid unicode") from exc
    except TypeError as exc:
        reason = "object keys must be strings" if _has_non_str_key(value) else str(exc)
        raise CanonicalEncodingError(reason) from exc
    except (ValueError, OverflowError) as exc:
        raise CanonicalEncodingError(str(exc)) from exc


def canonical_bytes_of_own(value: Any) -> bytes:
    """The canonical bytes of a value the kernel built itself (results, effects, records).

    Same encoding as ``canonical_bytes`` without the walk that refuses foreign values: these values
    are JSON-shaped by construction. Caller input must go through ``canonical_bytes``.
    """
    return _encoder.encode(value)


def plain(value: Any) -> Any:
    """A kernel value holding pre-encoded fragments (``msgspec.Raw``) as plain JSON values."""
    return _decoder.decode(_encoder.encode(value))


def decode(data: bytes) -> Any:
    """Decode canonical (or any) JSON bytes into plain Python values."""
    return _decoder.decode(data)


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()

"""The store's value encoding 2 (specs/langgraph.md §8.1): what LangGraph's ``InMemoryStore`` keeps, as
canonical JSON, with the item's embeddings beside it.

A store value is a ``dict`` whose contents ``InMemoryStore`` keeps as given: tuples, datetimes, NaN, keys
that are not strings... Encoding 2 writes each as plain JSON where JSON has it, else as a tagged object
``{"$arvis": <tag>, "v": <form>}``:

========================  ==========================================================================
value                     encoded
========================  ==========================================================================
None, bool, str           itself
int                       itself within the signed 64-bit range, else ``int``: its decimal text
float                     itself when finite, else ``float``: ``"nan"``, ``"inf"`` or ``"-inf"``
list                      a list of the encoded items
tuple                     ``tuple``: the list of its encoded items
dict (str keys, sorted)   an object of the encoded values, unless a key is ``"$arvis"``
any other dict            ``dict``: ``[[key, value]...]`` encoded, in the dict's order
Enum member               its encoded ``value``
dataclass, pydantic model the dict of its fields, in order (a model's: its ``model_dump()``)
set, frozenset            ``set`` / ``frozenset``: the encoded items, sorted by their canonical bytes
bytes, bytearray          ``bytes``: base64
datetime, date, time      ``datetime`` / ``date`` / ``time``: ``isoformat()`` (offset kept, naive stays naive)
timedelta                 ``timedelta``: ``[days, seconds, microseconds]``
UUID, Decimal             ``uuid`` / ``decimal``: ``str()``
========================  ==========================================================================

An Enum, a dataclass or a pydantic model comes back as that plain data, as LangGraph's persistent stores
give it back (specs/langgraph.md §8.1); anything else has no encoding (``CanonicalEncodingError``). The
stored bytes are the canonical JSON of the *envelope* ``[2, <encoded value>, <vectors or null>]``. Values
stored before encoding 2 are bare JSON objects, never arrays, so ``open_envelope`` tells the two apart by
the bytes alone, and an old value means what it always meant. ``vectors``: ``{"dims": n, "paths": [...],
"data": <base64 of little-endian float32s, n per path>}``, the embeddings of the indexed fields, in order.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from enum import Enum
from typing import Any, TypeVar
from uuid import UUID

from arvis.canonical import CanonicalEncodingError, canonical_bytes, canonical_bytes_of_own

ENCODING = 2
TAG = "$arvis"
_INT64 = 2**63
_DEPTH = 200


def _tagged(tag: str, form: Any) -> dict[str, Any]:
    return {TAG: tag, "v": form}


def _encode_mapping(value: Mapping[Any, Any], depth: int) -> Any:
    """An object when canonical JSON keeps the dict's keys and their order, else its pairs in order."""
    keys = list(value)
    if all(type(key) is str and key != TAG for key in keys) and keys == sorted(keys):
        return {key: encode_value(item, depth + 1) for key, item in value.items()}
    return _tagged("dict", [encode_value([key, item], depth) for key, item in value.items()])


def _encode_scalar(value: Any) -> Any:
    """The tagged form of a value that is no JSON container and no plain JSON scalar."""
    if isinstance(value, bytes | bytearray):
        return _tagged("bytes", base64.b64encode(bytes(value)).decode("ascii"))
    for kind in (datetime, date, time):  # datetime first: it is a date too
        if isinstance(value, kind):
            return _tagged(kind.__name__, value.isoformat())
    if isinstance(value, timedelta):
        return _tagged("timedelta", [value.days, value.seconds, value.microseconds])
    if isinstance(value, UUID):
        return _tagged("uuid", str(value))
    if isinstance(value, Decimal):
        return _tagged("decimal", str(value))
    raise CanonicalEncodingError(f"{type(value).__name__} has no store encoding")


def encode_value(value: Any, depth: int = 0) -> Any:
    """The encoding-2 JSON form of ``value`` (the table above); raises ``CanonicalEncodingError``."""
    if depth > _DEPTH:
        raise CanonicalEncodingError("value nested too deeply")
    if isinstance(value, Enum):
        return encode_value(value.value, depth + 1)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value) if -_INT64 <= value < _INT64 else _tagged("int", str(int(value)))
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else _tagged("float", repr(float(value)))
    if isinstance(value, list):
        return [encode_value(item, depth + 1) for item in value]
    if isinstance(value, tuple):
        return _tagged("tuple", [encode_value(item, depth + 1) for item in value])
    if isinstance(value, Mapping):
        return _encode_mapping(value, depth)
    if isinstance(value, set | frozenset):
        tag = "frozenset" if isinstance(value, frozenset) else "set"
        items = [encode_value(item, depth + 1) for item in value]
        return _tagged(tag, sorted(items, key=canonical_bytes_of_own))
    if is_dataclass(value) and not isinstance(value, type):
        return _encode_mapping({field.name: getattr(value, field.name) for field in fields(value)}, depth)
    if callable(getattr(value, "model_dump", None)):  # a pydantic model
        return encode_value(value.model_dump(), depth + 1)
    return _encode_scalar(value)


_T = TypeVar("_T", datetime, time)
_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _timed(parse: Callable[[str], _T]) -> Callable[[str], _T]:
    """``parse`` (``fromisoformat``) for a text that ``isoformat`` wrote, keeping a UTC offset of seconds
    or microseconds (``+00:00:00.000001``), which Python 3.11's ``fromisoformat`` reads as UTC."""

    def parsed(text: str) -> _T:
        time_part = text.rpartition("T")[2]
        cut = max(time_part.rfind("+"), time_part.rfind("-"))
        offset = time_part[cut + 1 :] if cut >= 0 else ""
        if len(offset) <= len("HH:MM"):
            return parse(text)
        hours, minutes, seconds = offset.split(":")
        whole, _, fraction = seconds.partition(".")
        span = timedelta(
            hours=int(hours), minutes=int(minutes), seconds=int(whole), microseconds=int(fraction or "0")
        )
        naive = parse(text[: len(text) - len(offset) - 1])
        return naive.replace(tzinfo=timezone(-span if time_part[cut] == "-" else span))

    return parsed


def _decode_tagged(tag: Any, form: Any) -> Any:
    if tag == "tuple":
        return tuple(decode_value(item) for item in form)
    if tag == "dict":
        return {decode_value(key): decode_value(item) for key, item in form}
    if tag in ("set", "frozenset"):
        items = (decode_value(item) for item in form)
        return set(items) if tag == "set" else frozenset(items)
    scalars: dict[str, Any] = {
        "int": int,
        "float": _FLOATS.__getitem__,
        "bytes": base64.b64decode,
        "datetime": _timed(datetime.fromisoformat),
        "date": date.fromisoformat,
        "time": _timed(time.fromisoformat),
        "timedelta": lambda parts: timedelta(*parts),
        "uuid": UUID,
        "decimal": Decimal,
    }
    return scalars[tag](form)


def decode_value(form: Any) -> Any:
    """The value whose encoding-2 JSON form is ``form`` (what ``encode_value`` gave)."""
    if isinstance(form, list):
        return [decode_value(item) for item in form]
    if isinstance(form, dict):
        if TAG in form:
            return _decode_tagged(form[TAG], form["v"])
        return {key: decode_value(item) for key, item in form.items()}
    return form


def envelope(value: Mapping[str, Any], vectors: dict[str, Any] | None) -> list[Any]:
    """What a put carries and stores: ``[2, <encoded value>, <vectors or null>]``. Its canonical bytes
    (``canonical_bytes``, which also checks the form) are what the value's hash names."""
    form = [ENCODING, encode_value(value), vectors]
    canonical_bytes(form)
    return form


def open_envelope(stored: Any) -> tuple[Any, dict[str, Any] | None]:
    """A stored value's decoded value and its vectors (None: not indexed): a bare JSON object (before
    encoding 2) is its own value; an envelope is decoded."""
    if isinstance(stored, list) and len(stored) == 3 and stored[0] == ENCODING:
        vectors = stored[2]
        return decode_value(stored[1]), vectors if isinstance(vectors, dict) else None
    return stored, None

"""Values as a graph call carries them (specs/langgraph.md §2): the bytes, base64 (before format 8 with
their hash)."""

from __future__ import annotations

import base64
from typing import Any

from arvis.canonical import canonical_bytes, sha256_hex


def carried(data: bytes, value_type: str = "msgpack") -> dict[str, str]:
    """A value (or a write's value fields) carrying ``data``, as from journal format 8: its bytes alone."""
    return {"type": value_type, "data": base64.b64encode(data).decode("ascii")}


def hashed(data: bytes, value_type: str = "msgpack") -> dict[str, str]:
    """A Ref carrying ``data`` as before format 8: the bytes with their hash."""
    return {**carried(data, value_type), "hash": sha256_hex(data)}


def stored(value: dict[str, Any]) -> dict[str, Any]:
    """The ``value_hash`` and ``value`` fields of a ``graph.store.put`` storing ``value``."""
    return {"value_hash": sha256_hex(canonical_bytes(value)), "value": value}

"""Reads by reference: the bulky parts of a read's result are journaled once, content-addressed.

A journal format that journals reads by reference (``kernel.formats``) fixes a ``PieceLayout``: for each
syscall, the paths of keys to the arrays of its value that may be bulky (such as a snapshot's
``snapshot.active_entries``), and a size. An array there whose canonical encoding is at least that size
is stored in the blob store (``graph_blobs``, keyed by the SHA-256 of its bytes) and the journaled result
holds, at that path, the reference object ``{"bytes": <length>, "piece": <sha256 hex>}`` instead. The
array is always an array, so an object at a declared path is always a reference. Two reads of unchanged
state share one stored piece; the entry hash covers the reference, hence the piece's hash, hence its
bytes; verification re-executes the read and compares the journaled form byte for byte, and checks every
referenced piece is stored and hashes to its key (``specs/journal-format.md`` §15).

The caller of a live call gets the whole result, encoded with the piece's bytes embedded as they are
(``msgspec.Raw``), never encoded twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from arvis.canonical import canonical_bytes_of_own, decode, sha256_hex

PiecePath = tuple[str, ...]


@dataclass(frozen=True)
class PieceLayout:
    """What a journal format journals by reference: fixed with the format, never changed after."""

    min_bytes: int
    """Arrays shorter than this stay inline."""
    paths: Mapping[str, tuple[PiecePath, ...]]
    """Syscall name -> the paths of its value's arrays that may be journaled by reference."""


class PieceMismatch(LookupError):
    """A piece read back is not the array its reference describes (length, or not an array)."""


@dataclass(frozen=True)
class Split:
    """A successful result in its two encodings, and the pieces the journaled one references."""

    whole: bytes
    """``{"ok": true, "value": ...}`` as the caller gets it (every piece inline)."""
    journaled: bytes
    """The same with each piece replaced by its reference: what the journal stores and hashes."""
    pieces: tuple[tuple[str, bytes], ...]
    """(key, bytes) of every piece referenced, in path order; empty when nothing was bulky."""


def _array_bytes(leaf: Any) -> bytes | None:
    """The canonical bytes of an array leaf (pre-encoded ``Raw`` ones as they are); None for any other."""
    if isinstance(leaf, msgspec.Raw):
        data = bytes(leaf)
        return data if data[:1] == b"[" else None
    if isinstance(leaf, list | tuple):
        return canonical_bytes_of_own(leaf)
    return None


def _replaced(value: Any, path: PiecePath, leaf: Any) -> Any:
    """``value`` with the leaf at ``path`` replaced (the dicts along it copied, never mutated)."""
    head, rest = path[0], path[1:]
    inner = leaf if not rest else _replaced(value[head], rest, leaf)
    return {**value, head: inner}


def _leaf(value: Any, path: PiecePath) -> Any:
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def split(value: Any, paths: Iterable[PiecePath], min_bytes: int) -> Split:
    """A successful call's value, encoded whole and in its journaled form (arrays of at least
    ``min_bytes`` at ``paths`` by reference)."""
    whole_value, journaled_value = value, value
    pieces: list[tuple[str, bytes]] = []
    for path in paths:
        data = _array_bytes(_leaf(value, path))
        if data is None:
            continue
        whole_value = _replaced(whole_value, path, msgspec.Raw(data))
        if len(data) >= min_bytes:
            key = sha256_hex(data)
            pieces.append((key, data))
            journaled_value = _replaced(journaled_value, path, {"piece": key, "bytes": len(data)})
        else:
            journaled_value = _replaced(journaled_value, path, msgspec.Raw(data))
    whole = canonical_bytes_of_own({"ok": True, "value": whole_value})
    journaled = canonical_bytes_of_own({"ok": True, "value": journaled_value}) if pieces else whole
    return Split(whole, journaled, tuple(pieces))


PieceFetch = Callable[[list[str]], Mapping[str, bytes]]
"""Reads pieces by key, each checked against its key (``journal.blob_store.get_many`` on a database)."""


def piece_key(leaf: Any) -> str | None:
    """The key a reference object names; None for anything else (an inline array)."""
    if isinstance(leaf, Mapping) and set(leaf) == {"piece", "bytes"} and isinstance(leaf["piece"], str):
        return leaf["piece"]
    return None


def references(journaled: bytes, paths: Iterable[PiecePath]) -> list[str]:
    """The piece keys a journaled result references, in path order (none for a refusal, or bytes that
    are not a JSON object)."""
    declared = list(paths)
    if not declared:  # a syscall with no bulky array: nothing to decode
        return []
    try:
        document = decode(journaled)
    except Exception:
        return []
    if not isinstance(document, Mapping) or document.get("ok") is not True:
        return []
    found = (piece_key(_leaf(document.get("value"), path)) for path in declared)
    return [key for key in found if key is not None]


def expand(journaled: bytes, paths: Iterable[PiecePath], fetch: PieceFetch) -> bytes:
    """The whole result a journaled one stands for: each reference replaced by its piece's bytes, which
    ``fetch`` returns by key (checked against their keys by the blob store). A result with no reference
    is returned as it is. Raises ``PieceMismatch`` when a piece is not the array its reference describes."""
    declared = list(paths)
    keys = references(journaled, declared)
    if not keys:
        return journaled
    blobs = fetch(keys)
    document = decode(journaled)
    value = document["value"]
    for path in declared:
        leaf = _leaf(value, path)
        key = piece_key(leaf)
        if key is None:
            continue
        data = blobs[key]
        if len(data) != leaf["bytes"] or data[:1] != b"[":
            raise PieceMismatch(f"piece {key} is not the {leaf['bytes']}-byte array its reference names")
        value = _replaced(value, path, msgspec.Raw(data))
    return canonical_bytes_of_own({**document, "value": value})

"""The hash chain. Every entry hash is SHA-256 over the previous hash and the entry's framed fields.

Framing: each field is its UTF-8 bytes (or raw bytes for ``args`` and ``result``) preceded by its
length as an 8-byte big-endian integer; ``seq`` is framed as its decimal text. Fields, in order: seq,
recorded_at, syscall, principal, args, status, result, effects_hash. The hash input starts with the
32 raw bytes of ``prev_hash``. The genesis hash is SHA-256 of ``b"arvis-journal"`` followed by the
framed journal id and framed format version.
"""

from __future__ import annotations

import hashlib
import struct

__all__ = ["EMPTY_EFFECTS_HASH", "compute_entry_hash", "genesis_hash"]


_LENGTH = struct.Struct(">Q").pack
"""A field's length as the 8-byte big-endian integer that frames it."""

_JOIN_BELOW = 65_536
"""Rows whose args and result are shorter than this are framed into one buffer and hashed at once."""


def _frame(data: bytes) -> bytes:
    return _LENGTH(len(data)) + data


def genesis_hash(journal_id: str, format_version: int) -> str:
    digest = hashlib.sha256(b"arvis-journal")
    digest.update(_frame(journal_id.encode("utf-8")))
    digest.update(_frame(str(format_version).encode("ascii")))
    return digest.hexdigest()


def compute_entry_hash(
    *,
    prev_hash: str,
    seq: int,
    recorded_at: str,
    syscall: str,
    principal: str,
    args: bytes,
    status: str,
    result: bytes,
    effects_hash: str,
) -> str:
    """The entry hash of one row; raises ValueError when ``prev_hash`` is not 64 hex digits."""
    if len(prev_hash) != 64:
        raise ValueError("prev_hash must be 64 hex digits")
    seq_text = str(seq).encode("utf-8")
    recorded = recorded_at.encode("utf-8")
    name = syscall.encode("utf-8")
    who = principal.encode("utf-8")
    outcome = status.encode("utf-8")
    effects = effects_hash.encode("utf-8")
    if len(args) + len(result) < _JOIN_BELOW:  # one update: the frames joined cost less than eight calls
        length = _LENGTH
        framed = b"".join(
            (
                bytes.fromhex(prev_hash),
                length(len(seq_text)),
                seq_text,
                length(len(recorded)),
                recorded,
                length(len(name)),
                name,
                length(len(who)),
                who,
                length(len(args)),
                args,
                length(len(outcome)),
                outcome,
                length(len(result)),
                result,
                length(len(effects)),
                effects,
            )
        )
        return hashlib.sha256(framed).hexdigest()
    fields = (seq_text, recorded, name, who, args, outcome, result, effects)
    digest = hashlib.sha256(bytes.fromhex(prev_hash))
    for field in fields:  # fed piece by piece: a large result is not copied to be framed
        digest.update(_LENGTH(len(field)))
        digest.update(field)
    return digest.hexdigest()


EMPTY_EFFECTS_HASH = hashlib.sha256(b"[]").hexdigest()
"""The effects hash of a call that wrote nothing: SHA-256 of the canonical empty list."""

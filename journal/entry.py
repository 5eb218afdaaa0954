"""One journal row as it is read back, a position in a journal, and the hash chain that links the rows.

The chain: every entry hash is SHA-256 over the previous hash and the entry's framed fields. Framing: each
field is its UTF-8 bytes (or raw bytes for ``args`` and ``result``) preceded by its length as an 8-byte
big-endian integer; ``seq`` is framed as its decimal text. Fields, in order: seq, recorded_at, syscall,
principal, args, status, result, effects_hash. The hash input starts with the 32 raw bytes of
``prev_hash``. The genesis hash is SHA-256 of ``b"arvis-journal"`` followed by the framed journal id and
framed format version (``specs/journal-format.md`` §6).
"""

from __future__ import annotations

import hashlib
import struct

import msgspec


class EntryContent(msgspec.Struct, frozen=True):
    """What a call's entry records of it, the fields of ``JournalEntry`` the transaction does not add
    (its seq, effects hash and the chain's hashes): the call as journaled and its answer."""

    recorded_at: str
    syscall: str
    principal: str
    args: bytes
    status: str
    result: bytes


class JournalEntry(msgspec.Struct, frozen=True):
    """One journal row. ``args`` and ``result`` are canonical JSON bytes; hashes are lower-case hex."""

    seq: int
    recorded_at: str
    syscall: str
    principal: str
    args: bytes
    status: str
    result: bytes
    effects_hash: str
    prev_hash: str
    entry_hash: str

    @property
    def pos(self) -> Pos:
        """The journal's position right after this entry."""
        return Pos(self.seq, self.entry_hash)


class Pos(msgspec.Struct, frozen=True):
    """A position in a journal: right after entry ``seq``, whose hash is ``entry_hash``; the empty
    journal's is ``Pos(0, genesis hash)``, the hash its first entry chains from. The entry appended at a
    position takes ``next_seq`` and chains from ``entry_hash``. Written ``SEQ:HASH`` (``str``), read by
    ``tools.argtypes.checkpoint``."""

    seq: int
    entry_hash: str

    @property
    def next_seq(self) -> int:
        """The seq of the entry appended here: the one place a position and an entry's seq differ."""
        return self.seq + 1

    def __str__(self) -> str:
        return f"{self.seq}:{self.entry_hash}"


_LENGTH = struct.Struct(">Q").pack
"""A field's length as the 8-byte big-endian integer that frames it."""

_JOIN_BELOW = 65_536
"""Rows whose fields together are shorter than this are framed into one buffer and hashed at once."""


def _digest(head: bytes, fields: tuple[bytes, ...]) -> str:
    """SHA-256 of ``head`` followed by each field framed by its length."""
    frames = [head]
    for field in fields:
        frames.append(_LENGTH(len(field)))
        frames.append(field)
    if sum(map(len, fields)) < _JOIN_BELOW:  # one update: the frames joined cost less than many calls
        return hashlib.sha256(b"".join(frames)).hexdigest()
    digest = hashlib.sha256()
    for frame in frames:  # fed piece by piece: a large result is not copied to be framed
        digest.update(frame)
    return digest.hexdigest()


def genesis_hash(journal_id: str, format_version: int) -> str:
    return _digest(b"arvis-journal", (journal_id.encode("utf-8"), str(format_version).encode("ascii")))


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
    texts = (str(seq), recorded_at, syscall, principal, status, effects_hash)
    seq_text, recorded, name, who, outcome, effects = map(str.encode, texts)  # UTF-8
    return _digest(bytes.fromhex(prev_hash), (seq_text, recorded, name, who, args, outcome, result, effects))


EMPTY_EFFECTS_HASH = hashlib.sha256(b"[]").hexdigest()
"""The effects hash of a call that wrote nothing: SHA-256 of the canonical empty list."""

"""One journal row as it is read back (what the chain hashes and verification replays), and a position in
a journal."""

from __future__ import annotations

import msgspec

__all__ = ["EntryContent", "JournalEntry", "Pos"]


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

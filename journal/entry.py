"""One journal row as it is read back: what the chain hashes and verification replays."""

from __future__ import annotations

import msgspec

__all__ = ["JournalEntry"]


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

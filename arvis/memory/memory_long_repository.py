"""The storage contract (ARVIS-MEM-01 §5). A repository stores; it applies no policy and no projection.

Every returned collection is ordered by (created_at, key, memory_type).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import Any

from arvis.memory.memory_long_entry import MemoryLongEntry

__all__ = ["MemoryLongRepository"]


class MemoryLongRepository(ABC):
    """Keyword-only storage operations for long-term entries, per user."""

    @abstractmethod
    def list_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        """Every entry of the user, history included (revoked, superseded, expired)."""

    @abstractmethod
    def list_active_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        """Entries neither revoked nor superseded (expiry is policy, judged by the caller at its time)."""

    @abstractmethod
    def list_active_entries_batch(self, *, user_ids: list[str]) -> dict[str, list[MemoryLongEntry]]:
        """``list_active_entries`` for several users; every requested user is a key of the result."""

    @abstractmethod
    def get_entry(self, *, user_id: str, key: str) -> MemoryLongEntry | None:
        """The current entry for (user_id, key): the latest one not superseded, revoked or not."""

    @abstractmethod
    def add_entry(self, *, user_id: str, entry: MemoryLongEntry) -> None:
        """Store a new entry; the caller guarantees no current entry is active for its key."""

    @abstractmethod
    def replace_entry(
        self, *, user_id: str, entry: MemoryLongEntry, superseded_at: datetime
    ) -> MemoryLongEntry | None:
        """Mark the current entry for the key superseded at ``superseded_at`` and store ``entry``.

        Returns the superseded entry, or None when there was no current entry.
        """

    def count_entries(self, *, user_id: str) -> int:
        """How many entries the user has, history included (stores override this with a cheap count)."""
        return len(self.list_entries(user_id=user_id))

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        """``list_entries`` in wire form (``MemoryLongEntry.to_wire``), versions of a key in version order;
        ``governance`` may be pre-encoded canonical JSON (``msgspec.Raw``). Stores override this to skip
        building typed entries."""
        return [entry.to_wire() for entry in self.list_entries(user_id=user_id)]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        """``get_entry`` in wire form (``MemoryLongEntry.to_wire``); ``governance`` may be pre-encoded
        canonical JSON (``msgspec.Raw``). Stores override this to skip building a typed entry."""
        entry = self.get_entry(user_id=user_id, key=key)
        return None if entry is None else entry.to_wire()

    def get_entry_and_count(self, *, user_id: str, key: str) -> tuple[MemoryLongEntry | None, int]:
        """``get_entry`` and ``count_entries`` at once: what a write checks (stores override this
        with a single read)."""
        return self.get_entry(user_id=user_id, key=key), self.count_entries(user_id=user_id)

    @abstractmethod
    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> bool:
        """Set ``revoked_at`` on the current entry; False when there is none or it is already revoked."""

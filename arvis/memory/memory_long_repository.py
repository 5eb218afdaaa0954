"""The storage contract of upstream arvis (ARVIS-MEM-01 §5): what a host implements to hand its stored
entries to ``MemoryLongService``. The kernel reads through ``arvis.memory.memory_service.WireReader``
instead, over its journal's tables."""

from abc import ABC, abstractmethod
from collections.abc import Iterable
from datetime import datetime

from arvis.memory.memory_long_entry import MemoryLongEntry
from arvis.memory.memory_long_record import MemoryLongRecord


class MemoryLongRepository(ABC):
    """Read-only from cognition's side: no inference, no validation, no write policy."""

    @abstractmethod
    def list_entries(self, *, user_id: str) -> list[MemoryLongRecord]:
        """Every entry of the user, raw: active, revoked and expired, in no promised order."""

    @abstractmethod
    def list_active_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        """The active entries only: not revoked, and not expired (``expires_at`` None or in the future)."""

    @abstractmethod
    def list_active_entries_batch(self, *, user_ids: Iterable[str]) -> dict[str, list[MemoryLongEntry]]:
        """``list_active_entries`` for several users at once: ``{user_id: [entry, ...]}``."""

    @abstractmethod
    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> None:
        """Mark the user's entry for ``key`` revoked at ``revoked_at``."""

"""The intent gate: only a confirmed intent may become long-term memory."""

from __future__ import annotations

from arvis.memory.memory_intent import MemoryIntent

__all__ = ["MemoryGate", "MemoryIntent"]


class MemoryGate:
    """Allows memorisation only for ``MemoryIntent.CONFIRMED``."""

    @staticmethod
    def allow(intent: MemoryIntent) -> bool:
        return intent is MemoryIntent.CONFIRMED

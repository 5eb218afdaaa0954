"""How sure the caller is that something should be remembered."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["MemoryIntent"]


class MemoryIntent(StrEnum):
    NONE = "none"
    CANDIDATE = "candidate"
    CONFIRMED = "confirmed"

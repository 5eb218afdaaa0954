"""The frozen registry of services the syscalls may use. A missing service degrades, never raises."""

from __future__ import annotations

from dataclasses import dataclass

from arvis.memory.memory_service import MemoryService

__all__ = ["KernelServiceRegistry"]


@dataclass(frozen=True)
class KernelServiceRegistry:
    """Services bound at boot; ``memory_service`` None makes every memory syscall ``no_memory_service``."""

    memory_service: MemoryService | None = None

"""The frozen registry of services the syscalls may use. A missing service degrades, never raises."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from arvis.awmu.service import WorkingMemoryService
from arvis.memory.memory_service import MemoryService

if TYPE_CHECKING:
    from kernel.semantic import SemanticEncoder

__all__ = ["KernelServiceRegistry"]


@dataclass(frozen=True)
class KernelServiceRegistry:
    """Services bound at boot. A missing service makes its syscalls answer ``no_memory_service``:
    ``memory_service`` serves ``memory.*`` (long-term), ``working_memory_service`` ``memory.awmu.*``;
    ``semantic_encoder`` is the working memory's semantic detector (without it, value and lexical
    detectors only; verification never needs it)."""

    memory_service: MemoryService | None = None
    working_memory_service: WorkingMemoryService | None = None
    semantic_encoder: SemanticEncoder | None = None

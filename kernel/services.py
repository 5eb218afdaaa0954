"""The default services bound in the kernel registry."""

from __future__ import annotations

from arvis.awmu.service import WorkingMemoryService
from arvis.memory.memory_service import MemoryService
from kernel.registry import KernelServiceRegistry

__all__ = ["default_services"]


def default_services() -> KernelServiceRegistry:
    return KernelServiceRegistry(
        memory_service=MemoryService(), working_memory_service=WorkingMemoryService()
    )

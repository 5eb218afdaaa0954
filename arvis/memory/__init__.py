"""ARVIS-MEM-01 long-term memory: entries, snapshots, repository contract, policy, projection, service.

The modules are upstream arvis's (``Julien-Lefauconnier/arvis``): each of its public names imports from
the same path, with the same signature, as thin modules over the one implementation of the rules the
syscalls use; what still differs is listed in ``specs/memory-syscalls.md`` ("Upstream compatibility").
"""

from arvis.memory.memory_gate import MemoryGate
from arvis.memory.memory_intent import MemoryIntent
from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
from arvis.memory.memory_long_policy_gate import MemoryLongPolicyGate
from arvis.memory.memory_long_projector import MemoryLongContextProjector
from arvis.memory.memory_long_record import MemoryLongRecord
from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_REGISTRY, MemoryLongRegistry
from arvis.memory.memory_long_repository import MemoryLongRepository
from arvis.memory.memory_long_service import MemoryLongService
from arvis.memory.memory_long_snapshot import MemoryLongSnapshot

__all__ = [
    "DEFAULT_MEMORY_LONG_REGISTRY",
    "MemoryGate",
    "MemoryIntent",
    "MemoryLongContextProjector",
    "MemoryLongEntry",
    "MemoryLongPolicyGate",
    "MemoryLongRecord",
    "MemoryLongRegistry",
    "MemoryLongRepository",
    "MemoryLongService",
    "MemoryLongSnapshot",
    "MemoryLongType",
]

"""ARVIS-MEM-01 long-term memory: entries, snapshots, repository contract, policy, projection, service.

The package exports the names upstream arvis's ``arvis.memory`` exports (``from arvis.memory import
MemoryLongEntry`` works as it does there); what still differs from upstream is listed in
``specs/memory-syscalls.md`` ("Upstream compatibility"). The rest lives in the submodules; the names
no syscall uses come from ``arvis.memory.upstream_compat``, and so does ``MemoryLongPolicyGate``, in its
upstream form (``now`` optional).
"""

from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
from arvis.memory.memory_long_projector import MemoryLongContextProjector
from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_REGISTRY, MemoryLongRegistry
from arvis.memory.memory_long_snapshot import MemoryLongSnapshot
from arvis.memory.upstream_compat import (
    MemoryGate,
    MemoryIntent,
    MemoryLongPolicyGate,
    MemoryLongRecord,
    MemoryLongRepository,
    MemoryLongService,
)

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

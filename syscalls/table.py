"""Every syscall, in one place. Built at import: a duplicate name fails here."""

from __future__ import annotations

from kernel.table import SyscallTable
from syscalls.access import ACCESS_SYSCALLS
from syscalls.graph import GRAPH_SYSCALLS
from syscalls.graph_store import GRAPH_STORE_SYSCALLS
from syscalls.kernel_calls import KERNEL_SYSCALLS
from syscalls.memory_long import MEMORY_LONG_SYSCALLS
from syscalls.pipeline import PIPELINE_SYSCALLS
from syscalls.working_memory import WORKING_MEMORY_SYSCALLS

__all__ = ["SYSCALL_TABLE"]

SYSCALL_TABLE = SyscallTable(
    [
        *ACCESS_SYSCALLS,
        *KERNEL_SYSCALLS,
        *MEMORY_LONG_SYSCALLS,
        *WORKING_MEMORY_SYSCALLS,
        *PIPELINE_SYSCALLS,
        *GRAPH_SYSCALLS,
        *GRAPH_STORE_SYSCALLS,
    ]
)

"""Upstream's module path ``arvis.memory.memory_long_record`` (``specs/memory-syscalls.md`` §10): its class
lives in ``arvis.memory.upstream_compat``, beside every other piece kept only for upstream's callers."""

from arvis.memory.upstream_compat import MemoryLongRecord

__all__ = ["MemoryLongRecord"]

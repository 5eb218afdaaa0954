"""Upstream's module path ``arvis.memory.memory_long_repository`` (``specs/memory-syscalls.md`` §10):
its class lives in ``arvis.memory.upstream_compat``, beside every other piece kept only
for upstream's callers."""

from arvis.memory.upstream_compat import MemoryLongRepository

__all__ = ["MemoryLongRepository"]

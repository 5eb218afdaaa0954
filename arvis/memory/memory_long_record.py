"""An entry together with its encrypted payload; the kernel never decrypts it."""

from __future__ import annotations

from dataclasses import dataclass

from arvis.memory.memory_long_entry import MemoryLongEntry

__all__ = ["MemoryLongRecord"]


@dataclass(frozen=True)
class MemoryLongRecord:
    entry: MemoryLongEntry
    payload_ciphertext: bytes
    nonce: bytes

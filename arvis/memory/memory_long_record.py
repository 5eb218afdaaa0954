"""An entry with its encrypted payload, as a repository of upstream arvis stores it; the kernel stores
none (it keeps only the entry's opaque ``value_ref``) and never decrypts one."""

from dataclasses import dataclass

from arvis.memory.memory_long_entry import MemoryLongEntry


@dataclass(frozen=True)
class MemoryLongRecord:
    entry: MemoryLongEntry
    payload_ciphertext: bytes
    nonce: bytes

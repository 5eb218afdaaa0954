"""The append policy, at upstream arvis's path: it is one of the memory service's rules
(``arvis.memory.memory_service``)."""

from arvis.memory.memory_service import MemoryLongPolicyGate as MemoryLongPolicyGate

"""The memorisation gate: only a confirmed intent is remembered (upstream arvis's ``MemoryGate``)."""

from arvis.memory.memory_intent import MemoryIntent


class MemoryGate:
    def allow(self, intent: MemoryIntent) -> bool:
        return intent is MemoryIntent.CONFIRMED

"""How sure a caller is that something should be remembered (upstream arvis's ``MemoryIntent``)."""

from enum import Enum


class MemoryIntent(Enum):
    NONE = "none"
    CANDIDATE = "candidate"
    CONFIRMED = "confirmed"

"""The memory rules' refusals, as data: a stable code and a deterministic reason."""

from __future__ import annotations

from enum import StrEnum
from typing import Generic, TypeVar

Code = TypeVar("Code", bound=StrEnum)


class MemoryErrorCode(StrEnum):
    """The ARVIS-MEM-01 error model (§11.3)."""

    ENTRY_NOT_FOUND = "memory_entry_not_found"
    ENTRY_REVOKED = "memory_entry_revoked"
    ENTRY_EXPIRED = "memory_entry_expired"
    POLICY_DENIED = "memory_policy_denied"
    INVALID_KEY = "memory_invalid_key"
    CONFLICT = "memory_conflict"
    NO_MEMORY_SERVICE = "no_memory_service"
    LIMIT_EXCEEDED = "memory_limit_exceeded"


class RuleError(Exception, Generic[Code]):
    """A refusal by the rules (the memory's, the working memory's): its code and a deterministic reason."""

    def __init__(self, code: Code, detail: str) -> None:
        super().__init__(f"{code.value}: {detail}")
        self.code = code
        self.detail = detail


class MemoryRuleError(RuleError[MemoryErrorCode]):
    """Raised by the memory service when a rule refuses a call; the kernel turns it into a result."""

"""The closed set of error codes a syscall can return, each with its fixed message.

Exception tree (inside the kernel; none of it escapes ``Kernel.call``)::

    Exception
     ├── KernelError            a refusal with an ErrorCode; the dispatcher turns it into a result
     └── arvis.memory.errors.MemoryRuleError   a memory rule's refusal, mapped by code value
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ERROR_MESSAGES", "ErrorCode", "KernelError"]


class ErrorCode(StrEnum):
    # ARVIS-MEM-01 §11.3
    MEMORY_ENTRY_NOT_FOUND = "memory_entry_not_found"
    MEMORY_ENTRY_REVOKED = "memory_entry_revoked"
    MEMORY_ENTRY_EXPIRED = "memory_entry_expired"
    MEMORY_POLICY_DENIED = "memory_policy_denied"
    MEMORY_INVALID_KEY = "memory_invalid_key"
    MEMORY_CONFLICT = "memory_conflict"
    NO_MEMORY_SERVICE = "no_memory_service"
    # kernel
    UNKNOWN_SYSCALL = "unknown_syscall"
    INVALID_ARGS = "invalid_args"
    INVALID_PRINCIPAL = "invalid_principal"
    REPLAY_DIVERGENCE = "replay_divergence"
    INTERNAL_ERROR = "internal_error"
    STORAGE_UNAVAILABLE = "storage_unavailable"


ERROR_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.MEMORY_ENTRY_NOT_FOUND: "no memory entry exists for this key",
    ErrorCode.MEMORY_ENTRY_REVOKED: "the memory entry has been revoked",
    ErrorCode.MEMORY_ENTRY_EXPIRED: "the memory entry has expired",
    ErrorCode.MEMORY_POLICY_DENIED: "the memory policy refused this call",
    ErrorCode.MEMORY_INVALID_KEY: "the memory key is malformed",
    ErrorCode.MEMORY_CONFLICT: "an active memory entry already holds this key",
    ErrorCode.NO_MEMORY_SERVICE: "no memory service is bound in the kernel registry",
    ErrorCode.UNKNOWN_SYSCALL: "no syscall of this name is in the table",
    ErrorCode.INVALID_ARGS: "the arguments do not match the syscall's request type",
    ErrorCode.INVALID_PRINCIPAL: "the principal must be a non-empty printable string",
    ErrorCode.REPLAY_DIVERGENCE: "the call does not match the recorded journal entry",
    ErrorCode.INTERNAL_ERROR: "the kernel failed while handling the call",
    ErrorCode.STORAGE_UNAVAILABLE: "the journal could not be written; the call was not acknowledged",
}

assert set(ERROR_MESSAGES) == set(ErrorCode), "every error code needs its fixed message"


class KernelError(Exception):
    """A refusal raised inside the kernel; ``detail`` must be deterministic (no addresses, no times)."""

    def __init__(self, code: ErrorCode, detail: str = "") -> None:
        super().__init__(f"{code.value}: {detail}" if detail else code.value)
        self.code = code
        self.detail = detail

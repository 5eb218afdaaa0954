"""The closed set of error codes a syscall can return, each with its fixed message.

Exception tree (inside the kernel; none of it escapes ``Kernel.call``)::

    Exception
     ├── KernelError            a refusal with an ErrorCode; the dispatcher turns it into a result
     └── arvis.memory.errors.MemoryRuleError   a memory rule's refusal, mapped by code value
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    # ARVIS-MEM-01 §11.3
    MEMORY_ENTRY_NOT_FOUND = "memory_entry_not_found"
    MEMORY_ENTRY_REVOKED = "memory_entry_revoked"
    MEMORY_ENTRY_EXPIRED = "memory_entry_expired"
    MEMORY_POLICY_DENIED = "memory_policy_denied"
    MEMORY_INVALID_KEY = "memory_invalid_key"
    MEMORY_CONFLICT = "memory_conflict"
    NO_MEMORY_SERVICE = "no_memory_service"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    # kernel
    UNKNOWN_SYSCALL = "unknown_syscall"
    INVALID_ARGS = "invalid_args"
    INVALID_PRINCIPAL = "invalid_principal"
    PRINCIPAL_NOT_ALLOWED = "principal_not_allowed"
    REPLAY_DIVERGENCE = "replay_divergence"
    REPLAY_RESULT_UNAVAILABLE = "replay_result_unavailable"
    INTERNAL_ERROR = "internal_error"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    STORAGE_BUSY = "storage_busy"
    PIPELINE_RUN_EXISTS = "pipeline_run_exists"
    PIPELINE_RUN_NOT_FOUND = "pipeline_run_not_found"
    GRAPH_VALUE_NOT_CARRIED = "graph_value_not_carried"
    # working memory (arvis.awmu.errors.AwmuErrorCode)
    AWMU_CONTEXT_NOT_FOUND = "awmu_context_not_found"
    AWMU_CONTEXT_EXISTS = "awmu_context_exists"
    AWMU_CONTEXT_CLOSED = "awmu_context_closed"
    AWMU_INVALID_CONFIG = "awmu_invalid_config"
    AWMU_INVALID_TEXT = "awmu_invalid_text"
    AWMU_UNIT_NOT_FOUND = "awmu_unit_not_found"
    AWMU_UNIT_NOT_ACTIVE = "awmu_unit_not_active"
    AWMU_UNIT_ACTIVE = "awmu_unit_active"
    AWMU_INVALID_VERDICT = "awmu_invalid_verdict"
    AWMU_BUDGET_EXHAUSTED = "awmu_budget_exhausted"
    AWMU_INVARIANT_VIOLATION = "awmu_invariant_violation"
    AWMU_REQUEST_NOT_FOUND = "awmu_request_not_found"
    AWMU_REQUEST_DECIDED = "awmu_request_decided"
    AWMU_REQUEST_PENDING = "awmu_request_pending"
    AWMU_REQUEST_NOT_DECIDED = "awmu_request_not_decided"
    AWMU_ALREADY_CANON = "awmu_already_canon"


ERROR_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.MEMORY_ENTRY_NOT_FOUND: "no memory entry exists for this key",
    ErrorCode.MEMORY_ENTRY_REVOKED: "the memory entry has been revoked",
    ErrorCode.MEMORY_ENTRY_EXPIRED: "the memory entry has expired",
    ErrorCode.MEMORY_POLICY_DENIED: "the memory policy refused this call",
    ErrorCode.MEMORY_INVALID_KEY: "the memory key is malformed",
    ErrorCode.MEMORY_CONFLICT: "an active memory entry already holds this key",
    ErrorCode.NO_MEMORY_SERVICE: "no memory service is bound in the kernel registry",
    ErrorCode.MEMORY_LIMIT_EXCEEDED: "the call would exceed a documented size limit; nothing was written",
    ErrorCode.UNKNOWN_SYSCALL: "no syscall of this name is in the table",
    ErrorCode.INVALID_ARGS: "the arguments do not match the syscall's request type",
    ErrorCode.INVALID_PRINCIPAL: "the principal must be a non-empty printable string",
    ErrorCode.PRINCIPAL_NOT_ALLOWED: "the deployment does not let this caller act as this principal",
    ErrorCode.REPLAY_DIVERGENCE: "the call does not match the recorded journal entry",
    ErrorCode.REPLAY_RESULT_UNAVAILABLE: "the recorded result is held by reference and cannot be read back",
    ErrorCode.INTERNAL_ERROR: "the kernel failed while handling the call",
    ErrorCode.STORAGE_UNAVAILABLE: "the journal could not be written; the call was not acknowledged",
    ErrorCode.STORAGE_BUSY: "another writer held the database too long; nothing was written, try again",
    ErrorCode.PIPELINE_RUN_EXISTS: "a pipeline run of this id has been begun already",
    ErrorCode.PIPELINE_RUN_NOT_FOUND: "no active pipeline run of this id (unknown or ended)",
    ErrorCode.GRAPH_VALUE_NOT_CARRIED: "the call names a value by its hash without carrying its bytes",
    ErrorCode.AWMU_CONTEXT_NOT_FOUND: "no working-memory context of this id exists",
    ErrorCode.AWMU_CONTEXT_EXISTS: "a working-memory context of this id exists already",
    ErrorCode.AWMU_CONTEXT_CLOSED: "the context is closed",
    ErrorCode.AWMU_INVALID_CONFIG: "the working-memory configuration is inconsistent",
    ErrorCode.AWMU_INVALID_TEXT: "the unit text is empty or too long",
    ErrorCode.AWMU_UNIT_NOT_FOUND: "no unit of this id exists in the context",
    ErrorCode.AWMU_UNIT_NOT_ACTIVE: "the unit is not active (archived, superseded or evicted)",
    ErrorCode.AWMU_UNIT_ACTIVE: "the unit is active already",
    ErrorCode.AWMU_INVALID_VERDICT: "a conflict verdict names no active unit of the context",
    ErrorCode.AWMU_BUDGET_EXHAUSTED: "the context's budget is full and no unit may be evicted",
    ErrorCode.AWMU_INVARIANT_VIOLATION: "an operator invariant (MUST) forbids this change",
    ErrorCode.AWMU_REQUEST_NOT_FOUND: "no canonization request or queued proposal of this id exists",
    ErrorCode.AWMU_REQUEST_DECIDED: "the request has been decided already",
    ErrorCode.AWMU_REQUEST_PENDING: "a canonization request for this unit is pending already",
    ErrorCode.AWMU_REQUEST_NOT_DECIDED: "the request is pending: it has no decision to reopen",
    ErrorCode.AWMU_ALREADY_CANON: "the unit is CANON already",
}

assert set(ERROR_MESSAGES) == set(ErrorCode), "every error code needs its fixed message"


class KernelError(Exception):
    """A refusal raised inside the kernel; ``detail`` must be deterministic (no addresses, no times)."""

    def __init__(self, code: ErrorCode, detail: str = "") -> None:
        super().__init__(f"{code.value}: {detail}" if detail else code.value)
        self.code = code
        self.detail = detail


def policy_denied(principal: str, action: str) -> KernelError:
    """``memory_policy_denied``, detailed ``principal '<principal>' may not <action>``: the refusal of
    every access rule the handlers decide."""
    return KernelError(ErrorCode.MEMORY_POLICY_DENIED, f"principal '{principal}' may not {action}")


def _covers_domain_codes() -> bool:
    from arvis.awmu.errors import AwmuErrorCode
    from arvis.memory.errors import MemoryErrorCode

    kernel_codes = {code.value for code in ErrorCode}
    return {c.value for c in MemoryErrorCode} | {c.value for c in AwmuErrorCode} <= kernel_codes


assert _covers_domain_codes(), "every domain refusal code must be a kernel error code"

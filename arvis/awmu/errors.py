"""The working memory's refusals: a stable code and a deterministic reason."""

from __future__ import annotations

from enum import StrEnum

from arvis.memory.errors import RuleError


class AwmuErrorCode(StrEnum):
    CONTEXT_NOT_FOUND = "awmu_context_not_found"
    CONTEXT_EXISTS = "awmu_context_exists"
    CONTEXT_CLOSED = "awmu_context_closed"
    INVALID_CONFIG = "awmu_invalid_config"
    INVALID_TEXT = "awmu_invalid_text"
    UNIT_NOT_FOUND = "awmu_unit_not_found"
    UNIT_NOT_ACTIVE = "awmu_unit_not_active"
    UNIT_ACTIVE = "awmu_unit_active"
    INVALID_VERDICT = "awmu_invalid_verdict"
    BUDGET_EXHAUSTED = "awmu_budget_exhausted"
    INVARIANT_VIOLATION = "awmu_invariant_violation"
    REQUEST_NOT_FOUND = "awmu_request_not_found"
    REQUEST_DECIDED = "awmu_request_decided"
    REQUEST_PENDING = "awmu_request_pending"
    REQUEST_NOT_DECIDED = "awmu_request_not_decided"
    ALREADY_CANON = "awmu_already_canon"
    NOT_AUTHORIZED = "memory_policy_denied"
    LIMIT_EXCEEDED = "memory_limit_exceeded"


class AwmuRuleError(RuleError[AwmuErrorCode]):
    """Raised by the engine to refuse a call; the kernel turns it into a result and rolls back."""

"""The append policy: which entries may enter long-term memory at all."""

from __future__ import annotations

from datetime import datetime, timedelta

from arvis.memory import memory_long_snapshot
from arvis.memory.memory_long_entry import Governance, MemoryLongEntry, MemoryLongType, compose_strictest
from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_REGISTRY, MemoryLongRegistry

__all__ = ["MemoryLongPolicyGate"]


class MemoryLongPolicyGate:
    """Declarative-only appends: registered keys, known sources, system notes, bounded expiry.

    ``validate_append`` raises ``ValueError`` with the reason; the limit on expiry is measured from
    ``now``, which the kernel passes as the call's ``recorded_at``. Upstream's one-argument form still
    works: without ``now``, an entry with an ``expires_at`` is judged at the wall clock's time
    (``memory_long_snapshot.utcnow``), and one without needs no time at all.
    """

    MAX_TTL_DAYS = 30
    USER_AUTHORED_SOURCES = frozenset({"explicit_user", "onboarding", "proposed"})
    ALLOWED_SOURCES = USER_AUTHORED_SOURCES | {"governance"}
    ALLOWED_NOTES = frozenset({"ttl_default", "policy_gate", "governance_trace"})

    def __init__(self, registry: MemoryLongRegistry = DEFAULT_MEMORY_LONG_REGISTRY) -> None:
        self.registry = registry

    def validate_append(self, entry: MemoryLongEntry, *, now: datetime | None = None) -> None:
        """Raise ``ValueError`` at the first rule ``entry`` breaks (``memory-syscalls.md`` §7)."""
        if entry.source not in self.ALLOWED_SOURCES:
            raise ValueError(f"source '{entry.source}' may not write long-term memory")
        if entry.source not in self.USER_AUTHORED_SOURCES and not self.registry.is_allowed(entry.key):
            raise ValueError(f"key '{entry.key}' is not in the registry")
        if not isinstance(entry.memory_type, MemoryLongType):
            raise ValueError("memory_type is not a supported type")
        if entry.expires_at is not None:
            now = memory_long_snapshot.utcnow() if now is None else now
            if entry.expires_at <= now:
                raise ValueError("expires_at is not after the call's time")
            if entry.expires_at > now + timedelta(days=self.MAX_TTL_DAYS):
                raise ValueError(f"expires_at exceeds the maximum TTL of {self.MAX_TTL_DAYS} days")
        if entry.notes is not None and entry.notes not in self.ALLOWED_NOTES:
            raise ValueError("notes are system-only and must be one of the allowed tags")

    def compose(self, *, personal: Governance, organization: Governance) -> Governance:
        """The organization's policy is a floor when a personal fact enters its scope: the stricter value
        of each lever wins (``governance.compose_strictest``)."""
        return compose_strictest(personal, organization)

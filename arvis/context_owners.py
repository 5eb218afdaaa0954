"""What the kernel needs to know about working-memory contexts: who owns each one (format 2).

A context created in a format-2 journal (``arvis.access.AccessRules.OWNED``) is owned by the principal
that created it; the owner is what its capabilities are decided against (``arvis.access.context_allows``
and its neighbours). Format-1 journals record no owners.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

__all__ = ["ContextOwnerRepository"]


class ContextOwnerRepository(ABC):
    @abstractmethod
    def owner_of(self, context_id: str) -> str | None:
        """The principal that created the context; None when none is recorded (no such context, or one
        created under the first release's rules)."""

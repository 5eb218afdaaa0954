"""Who may do what: capabilities, their scopes, and the default rule that a principal acts only on its
own user.

A principal is a string the embedding application vouches for (the kernel does not authenticate). By
convention ``user:<id>`` is the user ``<id>`` itself and holds read, write and revoke on its own memory;
``admin:<name>`` and ``operator:<name>`` are administrators (the local command line is
``operator:local``). Everything else comes from grants, which administrators manage through journaled
``access.*`` syscalls, so that a replay knows, at every seq, who could do what.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import IntEnum, StrEnum

__all__ = [
    "ADMIN_PREFIXES",
    "ANY_SCOPE",
    "AccessRules",
    "Capability",
    "Grant",
    "GrantRepository",
    "allows",
    "granted",
    "is_builtin_admin",
    "owner_of",
]

ADMIN_PREFIXES = ("admin:", "operator:")
ANY_SCOPE = "*"


class AccessRules(IntEnum):
    """Which access rules a journal's calls are decided under: its format version
    (``journal.schema.FORMAT_VERSION``), fixed when the journal is created, so that a journal replays
    under the rules it was written under."""

    FIRST = 1
    """The first release's: working memory open to every principal, global run ids, a run begun with
    ``read``."""
    OWNED = 2
    """Contexts have owners and are governed by capabilities, names are reserved to their owners, runs
    are scoped to the principal that begins them and need ``write``."""


class Capability(StrEnum):
    READ = "read"  # memory.list, memory.get, memory.snapshot, pipeline runs
    WRITE = "write"  # memory.write
    REVOKE = "revoke"  # memory.revoke
    CANONIZE = "canonize"  # memory.awmu.review (scope: a context id)
    ADMIN = "admin"  # every capability on its scope; on "*", access.* too


@dataclass(frozen=True)
class Grant:
    principal: str
    capability: Capability
    scope: str  # a user id (or context id for canonize), or "*"


def owner_of(principal: str) -> str | None:
    """The user a principal is, for ``user:<id>``; None for any other principal."""
    return principal[5:] if principal.startswith("user:") and len(principal) > 5 else None


def is_builtin_admin(principal: str) -> bool:
    return principal.startswith(ADMIN_PREFIXES) and not principal.endswith(":")


class GrantRepository(ABC):
    @abstractmethod
    def grants_of(self, principal: str) -> list[Grant]:
        """The principal's grants, ordered by (capability, scope)."""

    @abstractmethod
    def all_grants(self) -> list[Grant]:
        """Every grant, ordered by (principal, capability, scope)."""

    @abstractmethod
    def add(self, grant: Grant) -> bool:
        """False when the grant existed already."""

    @abstractmethod
    def remove(self, grant: Grant) -> bool:
        """False when there was no such grant."""


def granted(grants: list[Grant], capability: Capability, scope: str) -> bool:
    """Whether the grants themselves give ``capability`` on ``scope`` (the built-in rules aside)."""
    return any(
        grant.capability in (Capability.ADMIN, capability) and grant.scope in (scope, ANY_SCOPE)
        for grant in grants
    )


def allows(grants: list[Grant], principal: str, capability: Capability, scope: str) -> bool:
    """Whether ``principal`` may use ``capability`` on ``scope`` (a user or context id)."""
    if is_builtin_admin(principal):
        return True
    if capability in (Capability.READ, Capability.WRITE, Capability.REVOKE) and owner_of(principal) == scope:
        return True
    return granted(grants, capability, scope)

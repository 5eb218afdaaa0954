"""Who may do what: capabilities, their scopes, and the default rule that a principal acts only on its
own user.

A principal is a string the deployment vouches for, through the kernel's identity policy
(``kernel.identity``). By convention ``user:<id>`` is the user ``<id>`` itself and holds read, write and
revoke on its own memory; ``admin:<name>`` and ``operator:<name>`` are administrators (the command line
admits them only with the database's admin key). Everything else comes from grants, which administrators
manage through journaled ``access.*`` syscalls, so that a replay knows, at every seq, who could do what.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from fnmatch import fnmatchcase
from typing import Protocol

from arvis.memory.errors import MemoryErrorCode, MemoryRuleError

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
    TYPED = 3
    """Besides the owned rules: scopes are typed (``user:<id>``, ``context:<id>``, ``graph:<thread>``,
    ``store:<prefix>``; ``scope_of``), so a user and a context of one name are two scopes; a graph
    thread and a store namespace are created by an explicit call, never by a first write; and a refusal
    does not say whether what it names exists."""
    THREAD_IDS = 4
    """Besides the typed rules: a graph thread's id is any text but NUL, as LangGraph's are (before, 1 to
    122 characters without control characters), and the scope of one that does not fit a grant's scope
    (empty, longer than 122 characters, with a control character) or that begins with ``#`` is
    ``graph:#<SHA-256 hex of its UTF-8 bytes>`` (``syscalls.graph_args.thread_scope_name``)."""
    NAMES = 5
    """Besides those: graph names as LangGraph has them (``syscalls.owned_names``). Any thread id or
    namespace is anyone's to use (no ``P/rest`` reserved); the first write under a name takes it, in that
    call; a read of a name nobody took finds nothing and takes nothing; a refusal says why."""


class Capability(StrEnum):
    READ = "read"  # memory.list, memory.get, memory.snapshot, pipeline runs
    WRITE = "write"  # memory.write
    REVOKE = "revoke"  # memory.revoke
    CANONIZE = "canonize"  # memory.awmu.review, reopen, restore of a CANON unit (scope: a context id)
    ADMIN = "admin"  # every capability on its scope; on "*", access.* too


class ScopeKind(StrEnum):
    """What a scope names; under the typed rules its value is the scope's prefix (``kind:name``)."""

    USER = "user"
    CONTEXT = "context"
    THREAD = "graph"
    NAMESPACE = "store"  # a store namespace's first element


@dataclass(frozen=True)
class Grant:
    principal: str
    capability: Capability
    scope: str  # "*", or what ``scope_of`` gives: typed (``user:alice``) under the typed rules


_KINDS = frozenset(kind.value for kind in ScopeKind)


def scope_of(rules: AccessRules, kind: ScopeKind, name: str) -> str:
    """The scope a grant names ``name`` of ``kind`` by. Typed rules: ``<kind>:<name>``. Older rules:
    the bare name for a user or a context (one namespace, so a grant on ``alice`` reaches user ``alice``
    and context ``alice`` alike, as it always did), ``graph:``/``store:`` + the name otherwise."""
    if rules < AccessRules.TYPED and kind in (ScopeKind.USER, ScopeKind.CONTEXT):
        return name
    return f"{kind.value}:{name}"


def typed_scope_error(scope: str) -> str | None:
    """Why ``scope`` is not a scope under the typed rules (None: it is ``*`` or ``<kind>:<name>``)."""
    kind, colon, name = scope.partition(":")
    if scope == ANY_SCOPE or (colon and name and kind in _KINDS):
        return None
    kinds = ", ".join(f"{kind.value}:<name>" for kind in ScopeKind)
    return f"scope '{scope}' names no kind of name: a scope is '*' or one of {kinds}"


def owner_of(principal: str) -> str | None:
    """The user a principal is, for ``user:<id>``; None for any other principal."""
    return principal[5:] if principal.startswith("user:") and len(principal) > 5 else None


def is_builtin_admin(principal: str) -> bool:
    return principal.startswith(ADMIN_PREFIXES) and not principal.endswith(":")


def is_operator(principal: str) -> bool:
    """A built-in administrator named ``operator:<name>``: who makes rollbacks (``arvis journal rollback
    --as``), and whose ``arvis.rollback`` records a counterfactual replay honours."""
    return principal.startswith("operator:") and is_builtin_admin(principal)


def granted(grants: list[Grant], capability: Capability, scope: str) -> bool:
    """Whether the grants themselves give ``capability`` on ``scope`` (the built-in rules aside)."""
    return any(
        grant.capability in (Capability.ADMIN, capability) and grant.scope in (scope, ANY_SCOPE)
        for grant in grants
    )


def allows(grants: list[Grant], principal: str, capability: Capability, user_id: str, scope: str) -> bool:
    """Whether ``principal`` may use ``capability`` on the user ``user_id``, whose scope is ``scope``
    (``scope_of``; ``*`` for administration)."""
    if is_builtin_admin(principal):
        return True
    owned = capability in (Capability.READ, Capability.WRITE, Capability.REVOKE)
    if owned and owner_of(principal) == user_id:
        return True
    return granted(grants, capability, scope)


class Caller(Protocol):
    """Who asks, under which rules, and the grants it holds (a handler's ``kernel.abi.CallContext``)."""

    @property
    def principal(self) -> str: ...
    @property
    def access_rules(self) -> AccessRules: ...
    def grants(self) -> list[Grant]: ...


def authorize(caller: Caller, capability: Capability, user_id: str) -> None:
    """Refuse (``memory_policy_denied``) unless the caller holds ``capability`` on the user ``user_id``.
    Owners and built-in administrators are decided without reading the grants."""
    scope = scope_of(caller.access_rules, ScopeKind.USER, user_id)
    if allows([], caller.principal, capability, user_id, scope):
        return
    if not allows(caller.grants(), caller.principal, capability, user_id, scope):
        detail = f"principal '{caller.principal}' may not {capability.value} '{user_id}'"
        raise MemoryRuleError(MemoryErrorCode.POLICY_DENIED, detail)


# --- working memory per context (format 2, ``AccessRules.OWNED``) -----------------------------------


def reserved_to(context_id: str) -> str | None:
    """The principal a context name is reserved to: ``P`` for ``P/rest`` (``P`` the text before the first
    ``/``, non-empty); None (administrators) for a name without ``/`` or with an empty ``P``."""
    head, slash, _ = context_id.partition("/")
    return head if slash and head else None


def pattern_names(pattern: str, principal: str) -> bool:
    """A context's ``operators``/``canonizers`` pattern (``fnmatch``, case-sensitive) names ``principal``;
    never a principal ending in ``:`` (so the bare ``operator:`` and ``admin:`` match no pattern)."""
    return not principal.endswith(":") and fnmatchcase(principal, pattern)


def context_allows(
    grants: list[Grant], principal: str, capability: Capability, scope: str, owner: str | None
) -> bool:
    """Whether ``principal`` may use ``capability`` (read or write) on the context (or other owned name)
    whose scope is ``scope`` (``scope_of``), owned by ``owner`` (None: unknown, e.g. no such context): a
    built-in administrator; the owner, for read and write; or the principal's grants give the capability
    on the scope (``admin`` and ``*`` included)."""
    if is_builtin_admin(principal):
        return True
    if owner is not None and principal == owner and capability in (Capability.READ, Capability.WRITE):
        return True
    return granted(grants, capability, scope)


def context_operator(
    grants: list[Grant], principal: str, scope: str, owner: str | None, operators: tuple[str, ...]
) -> bool:
    """Whether ``principal`` may operate (seed, pin, unpin, archive) in the context: the owner, a built-in
    administrator, a holder of ``admin`` on the context id or ``*``, or a (non-bare) match of one of the
    context's ``operators`` patterns. A pattern counts only when the owner itself may operate, which it
    always may: so only when the context has a known owner."""
    if is_builtin_admin(principal) or (owner is not None and principal == owner):
        return True
    if granted(grants, Capability.ADMIN, scope):
        return True
    return owner is not None and any(pattern_names(pattern, principal) for pattern in operators)


def context_canonizer(
    grants: list[Grant],
    principal: str,
    scope: str,
    owner: str | None,
    owner_grants: list[Grant],
    canonizers: tuple[str, ...],
) -> bool:
    """Whether ``principal`` may review (canonize) in the context: its grants give ``canonize`` on the
    context id (``admin`` and ``*`` included), or it is a (non-bare) match of one of the context's
    ``canonizers`` patterns and the owner itself may canonize (the owner is a built-in administrator, or
    ``owner_grants`` give it ``canonize`` on the context): pattern rules grant no more than the creator's
    own capabilities. Being a built-in administrator by name does not make a principal a canonizer."""
    if granted(grants, Capability.CANONIZE, scope):
        return True
    if owner is None or not any(pattern_names(pattern, principal) for pattern in canonizers):
        return False
    return is_builtin_admin(owner) or granted(owner_grants, Capability.CANONIZE, scope)

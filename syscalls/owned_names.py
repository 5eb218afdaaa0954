"""Names that belong to a principal (a LangGraph thread, the first element of a store namespace): the owner
reads and writes; anyone else needs a grant on ``<prefix><name>`` (or ``*``); built-in administrators may
do anything (``arvis.access.context_allows``, the rule contexts use).

Before the typed rules (``AccessRules.TYPED``), and again from ``AccessRules.NAMES`` on (names as LangGraph
has them: any string is anyone's to use), a name nobody has written under is unclaimed: it reads as empty,
takes nothing, and the first write under it takes it, in that call; from ``NAMES`` on a refusal says why
(the name is another principal's, and which grant would do). Under the typed rules up to ``NAMES`` (formats
4 to 6, for life) a name is created with its owner by an explicit call (``create``;
``graph.thread.create``, ``graph.namespace.create``), never by a write; a name of the form ``P/rest`` is
reserved to the principal ``P``, as a context's is; and a caller that may not use a name gets the same
refusal whether or not it exists."""

from __future__ import annotations

from collections.abc import Callable

from arvis.access import (
    AccessRules,
    Capability,
    Grant,
    context_allows,
    granted,
    is_builtin_admin,
    reserved_to,
)
from arvis.changes import Decision, Insert
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError, policy_denied


class OwnedNames:
    """The call's principal against the owners of one kind of name; its grants read once, when first
    needed. ``noun`` names the kind in refusals (``graph thread``, ``store namespace``), ``create`` the
    syscall that creates one; a name's scope is ``scope_prefix`` and the name, or what ``scope_name``
    makes of it (a name that does not fit a scope). The owners it claims for the call are ``changes``,
    rows of ``owners`` (its table and name column), for the handler's decision."""

    def __init__(
        self,
        ctx: CallContext,
        *,
        scope_prefix: str,
        noun: str,
        owner_of: Callable[[str], str | None],
        owners: tuple[str, str],
        create: str,
        scope_name: Callable[[str], str] | None = None,
    ) -> None:
        self._ctx = ctx
        self._scope_prefix = scope_prefix
        self._scope_name = scope_name
        self._noun = noun
        self._owner_of = owner_of
        self._owners = owners
        self.changes: list[Insert] = []
        self._create = create
        self._grants: list[Grant] | None = None
        self._created_only = AccessRules.TYPED <= ctx.access_rules < AccessRules.NAMES
        self._names = ctx.access_rules >= AccessRules.NAMES

    def _add_owner(self, name: str) -> None:
        table, column = self._owners
        self.changes.append(
            Insert(table, {column: name, "owner": self._ctx.principal, "created_seq": self._ctx.seq})
        )

    def _grants_of_caller(self) -> list[Grant]:
        if self._grants is None:
            self._grants = self._ctx.grants()
        return self._grants

    def _scope(self, name: str) -> str:
        return self._scope_prefix + (name if self._scope_name is None else self._scope_name(name))

    def allows(self, capability: Capability, name: str, owner: str | None) -> bool:
        scope = self._scope(name)
        principal = self._ctx.principal
        if context_allows([], principal, capability, scope, owner):
            return True
        return context_allows(self._grants_of_caller(), principal, capability, scope, owner)

    def _denied(self, capability: Capability, name: str) -> KernelError:
        why = f": not one it created ({self._create}) or was granted" if self._created_only else ""
        if self._names:  # only a name another principal holds is refused
            why = f": it is another principal's; no grant gives {capability.value} on '{self._scope(name)}'"
        return policy_denied(self._ctx.principal, f"{capability.value} {self._noun} '{name}'{why}")

    def require(self, capability: Capability, name: str) -> str | None:
        """The name's owner (None: unclaimed, so empty); refused unless the principal may use
        ``capability`` on a claimed name, and in formats 4 to 6 on an unclaimed one too (so the refusal
        does not say whether the name exists: only administrators and grantees learn that)."""
        owner = self._owner_of(name)
        if (owner is not None or self._created_only) and not self.allows(capability, name, owner):
            raise self._denied(capability, name)
        return owner

    def claim_unowned(self, name: str) -> None:
        """Before writing under an unclaimed name the principal may write: it becomes the principal's;
        in formats 4 to 6 a write claims nothing: the name must be created first."""
        if self._created_only:
            raise KernelError(
                ErrorCode.MEMORY_POLICY_DENIED,
                f"{self._noun} '{name}' has not been created: {self._create} creates it, with its owner",
            )
        self._add_owner(name)

    def claim(self, name: str) -> None:
        """Before writing under a name: refused unless the principal may write it; an unclaimed name is
        claimed (``claim_unowned``)."""
        if self.require(Capability.WRITE, name) is None:
            self.claim_unowned(name)

    def create(self, name: str, field: str) -> Decision:
        """The explicit creation: the name becomes the caller's. Before ``NAMES`` its creator may be the
        principal it is reserved to (``P`` for ``P/rest``), a built-in administrator, or a holder of
        ``write`` on its scope; any other name (from ``NAMES`` on, every name) is anyone's to create,
        first come. Creating one's own name again changes nothing (``created`` false). The decision's
        value names the name under ``field``, its owner, and whether it was created."""
        principal = self._ctx.principal
        reserved = None if self._names else reserved_to(name)
        scope = self._scope(name)
        may = (reserved is None or reserved == principal or is_builtin_admin(principal)) or granted(
            self._grants_of_caller(), Capability.WRITE, scope
        )
        if not may:
            raise policy_denied(
                principal, f"create {self._noun} '{name}': the name is reserved to '{reserved}'"
            )
        owner = self._owner_of(name)
        if owner is not None and owner != principal:
            raise policy_denied(principal, f"create {self._noun} '{name}': another principal has")
        if owner is None:
            self._add_owner(name)
        return Decision({field: name, "owner": principal, "created": owner is None}, tuple(self.changes))

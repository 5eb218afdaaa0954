"""Names that belong to the principal that first wrote under them (a LangGraph thread, the first element
of a store namespace): the owner reads and writes; anyone else needs a grant on ``<prefix><name>`` (or
``*``); built-in administrators may do anything (``kernel.access.context_allows``, the rule contexts use).
A name nobody has written under is unclaimed: it reads as empty and the first writer claims it."""

from __future__ import annotations

from collections.abc import Callable

from kernel.abi import CallContext
from kernel.access import Capability, Grant, context_allows
from kernel.errors import ErrorCode, KernelError

__all__ = ["OwnedNames"]


class OwnedNames:
    """The call's principal against the owners of one kind of name; its grants read once, when first
    needed. ``noun`` names the kind in refusals (``graph thread``, ``store namespace``)."""

    def __init__(
        self, ctx: CallContext, *, scope_prefix: str, noun: str, owner_of: Callable[[str], str | None]
    ) -> None:
        self._ctx = ctx
        self._scope_prefix = scope_prefix
        self._noun = noun
        self._owner_of = owner_of
        self._grants: list[Grant] | None = None

    def allows(self, capability: Capability, name: str, owner: str | None) -> bool:
        scope = self._scope_prefix + name
        principal = self._ctx.principal
        if context_allows([], principal, capability, scope, owner):
            return True
        if self._grants is None:
            self._grants = self._ctx.tx.grants.grants_of(principal)
        return context_allows(self._grants, principal, capability, scope, owner)

    def require(self, capability: Capability, name: str) -> str | None:
        """The name's owner (None: unclaimed, so empty); refused unless the principal may use
        ``capability`` on a claimed name."""
        owner = self._owner_of(name)
        if owner is not None and not self.allows(capability, name, owner):
            raise KernelError(
                ErrorCode.MEMORY_POLICY_DENIED,
                f"principal '{self._ctx.principal}' may not {capability.value} {self._noun} '{name}'",
            )
        return owner

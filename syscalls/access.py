"""The access family: administrators grant and withdraw capabilities; every memory syscall asks here
whether its principal may act on the user it names. Every refusal is ``memory_policy_denied``."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from kernel.abi import CallContext
from kernel.access import Capability, Grant, allows
from kernel.arguments import MAX_PRINCIPAL_LENGTH
from kernel.errors import ErrorCode, KernelError

__all__ = ["GrantArgs", "ListArgs", "access_grant", "access_list", "access_revoke", "authorize"]

Principal = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_PRINCIPAL_LENGTH, pattern=r"^[^\x00-\x1f\x7f-\x9f]+\Z")
]
Scope = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[^\x00-\x1f\x7f-\x9f]+\Z")]


class GrantArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    principal: Principal
    capability: Capability
    scope: Scope = "*"


class ListArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    principal: Principal | None = None


def authorize(ctx: CallContext, capability: Capability, scope: str) -> None:
    """Refuse unless the call's principal holds ``capability`` on ``scope``. Owners and built-in
    administrators are decided without reading the grants."""
    if allows([], ctx.principal, capability, scope):
        return
    if not allows(ctx.tx.grants.grants_of(ctx.principal), ctx.principal, capability, scope):
        raise KernelError(
            ErrorCode.MEMORY_POLICY_DENIED,
            f"principal '{ctx.principal}' may not {capability.value} '{scope}'",
        )


def _require_admin(ctx: CallContext) -> None:
    authorize(ctx, Capability.ADMIN, "*")


def _wire(grant: Grant) -> dict[str, Any]:
    return {"principal": grant.principal, "capability": grant.capability.value, "scope": grant.scope}


def access_grant(ctx: CallContext, args: GrantArgs) -> dict[str, Any]:
    _require_admin(ctx)
    grant = Grant(args.principal, args.capability, args.scope)
    return {"grant": _wire(grant), "added": ctx.tx.grants.add(grant)}


def access_revoke(ctx: CallContext, args: GrantArgs) -> dict[str, Any]:
    _require_admin(ctx)
    grant = Grant(args.principal, args.capability, args.scope)
    return {"grant": _wire(grant), "removed": ctx.tx.grants.remove(grant)}


def access_list(ctx: CallContext, args: ListArgs) -> dict[str, Any]:
    if args.principal != ctx.principal:
        _require_admin(ctx)
    found = ctx.tx.grants.all_grants() if args.principal is None else ctx.tx.grants.grants_of(args.principal)
    return {"grants": [_wire(grant) for grant in found]}

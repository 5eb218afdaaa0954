"""The access family: administrators grant and withdraw capabilities (whether a principal may act on a
user is ``arvis.access.authorize``). Every refusal is ``memory_policy_denied``; under the typed rules
(``AccessRules.TYPED``) a grant's scope that names no kind is ``invalid_args``."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from arvis.access import (
    ANY_SCOPE,
    AccessRules,
    Capability,
    Grant,
    granted,
    is_builtin_admin,
    typed_scope_error,
)
from arvis.changes import Decision, Delete, Insert
from kernel.abi import CallContext
from kernel.arguments import MAX_PRINCIPAL_LENGTH
from kernel.errors import ErrorCode, KernelError, policy_denied
from syscalls.types import PLAIN

Principal = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_PRINCIPAL_LENGTH, pattern=PLAIN)]
Scope = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=PLAIN)]


class GrantArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    principal: Principal
    capability: Capability
    scope: Scope = "*"


class ListArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    principal: Principal | None = None


def require_admin(ctx: CallContext) -> None:
    """Refuse unless the call's principal is an administrator: built in, or holding ``admin`` on ``*``."""
    if is_builtin_admin(ctx.principal):
        return
    if not granted(ctx.grants(), Capability.ADMIN, ANY_SCOPE):
        raise policy_denied(ctx.principal, f"admin '{ANY_SCOPE}'")


def _grant(ctx: CallContext, args: GrantArgs) -> Grant:
    """The grant the arguments name, once the caller is an administrator; under the typed rules its
    scope must name a kind (``user:``, ``context:``, ``graph:``, ``store:``) or be ``*``."""
    require_admin(ctx)
    if ctx.access_rules >= AccessRules.TYPED:
        error = typed_scope_error(args.scope)
        if error is not None:
            raise KernelError(ErrorCode.INVALID_ARGS, error)
    return Grant(args.principal, args.capability, args.scope)


def _wire(grant: Grant) -> dict[str, Any]:
    """A grant as results show it, and as its row's key."""
    return {"principal": grant.principal, "capability": grant.capability.value, "scope": grant.scope}


def _held(ctx: CallContext, grant: Grant) -> bool:
    return grant in ctx.read.grants.grants_of(grant.principal)


def access_grant(ctx: CallContext, args: GrantArgs) -> Decision:
    """Adds the grant unless it is held already (``added`` says which): the row carries the seq of the
    call that granted it."""
    grant = _grant(ctx, args)
    if _held(ctx, grant):
        return Decision({"grant": _wire(grant), "added": False})
    row = {**_wire(grant), "granted_seq": ctx.seq}
    return Decision({"grant": _wire(grant), "added": True}, (Insert("grants", row),))


def access_revoke(ctx: CallContext, args: GrantArgs) -> Decision:
    """Withdraws the grant when it is held (``removed`` says whether it was)."""
    grant = _grant(ctx, args)
    if not _held(ctx, grant):
        return Decision({"grant": _wire(grant), "removed": False})
    return Decision({"grant": _wire(grant), "removed": True}, (Delete("grants", _wire(grant)),))


def access_list(ctx: CallContext, args: ListArgs) -> dict[str, Any]:
    if args.principal != ctx.principal:
        require_admin(ctx)
    found = (
        ctx.read.grants.all_grants() if args.principal is None else ctx.read.grants.grants_of(args.principal)
    )
    return {"grants": [_wire(grant) for grant in found]}

"""Who may do what in a working-memory context, decided in the handler before the engine runs
(``syscalls/working_memory.py``): under the format-2 rules (``AccessRules.OWNED``) contexts have owners
and are governed by capabilities, names are reserved, and the context's patterns give no more than its
owner holds (``access-and-pipelines.md`` §1.7); under the format-1 rules the engine's own patterns decide,
exactly as the first release did. Every refusal is ``memory_policy_denied``."""

from __future__ import annotations

from collections.abc import Callable

from arvis.access import (
    ANY_SCOPE,
    AccessRules,
    Capability,
    ScopeKind,
    context_allows,
    context_canonizer,
    context_operator,
    granted,
    is_builtin_admin,
    pattern_names,
    reserved_to,
    scope_of,
)
from kernel.abi import CallContext
from kernel.errors import policy_denied


def owned(ctx: CallContext) -> bool:
    """Whether the call is decided under the format-2 rules (owners, capabilities per context)."""
    return ctx.access_rules >= AccessRules.OWNED


def _scope(ctx: CallContext, context_id: str) -> str:
    """The context's grant scope: ``context:<id>`` under the typed rules, the bare id before."""
    return scope_of(ctx.access_rules, ScopeKind.CONTEXT, context_id)


def require_name(ctx: CallContext, context_id: str) -> None:
    """A new context's name is reserved: ``P/rest`` to the principal ``P``, any other to administrators.
    The one it is reserved to, a built-in administrator, or a holder of ``write`` on the id may create it."""
    reserved = reserved_to(context_id)
    if ctx.principal == reserved or is_builtin_admin(ctx.principal):
        return
    if granted(ctx.grants(), Capability.WRITE, _scope(ctx, context_id)):
        return
    holder = "administrators" if reserved is None else f"'{reserved}'"
    raise policy_denied(ctx.principal, f"create context '{context_id}': the name is reserved to {holder}")


def require_capability(ctx: CallContext, capability: Capability, context_id: str) -> None:
    """Refuse unless the principal may ``capability`` (read or write) the context. Administrators and
    the owner are decided without reading the grants."""
    owner = ctx.read.context_owners.owner_of(context_id)
    scope = _scope(ctx, context_id)
    if context_allows([], ctx.principal, capability, scope, owner):
        return
    if not context_allows(ctx.grants(), ctx.principal, capability, scope, owner):
        raise policy_denied(ctx.principal, f"{capability.value} context '{context_id}'")


def require_operator(ctx: CallContext, context_id: str, action: str = "operate") -> bool:
    """Refuse unless the principal may operate (seed, pin, unpin, archive) in the context (or, ``action``
    ``close``, close it: ``require_closer``); True, the verdict the engine is given instead of its own
    ``operators`` check."""
    owner = ctx.read.context_owners.owner_of(context_id)
    scope = _scope(ctx, context_id)
    if context_operator([], ctx.principal, scope, owner, ()):
        return True
    record = ctx.read.awmu.get_context(context_id) if action == "operate" else None
    operators = () if record is None else record.config.operators
    if not context_operator(ctx.grants(), ctx.principal, scope, owner, operators):
        raise policy_denied(ctx.principal, f"{action} context '{context_id}'")
    return True


def require_closer(ctx: CallContext, context_id: str) -> bool:
    """Refuse unless the principal may close the context (format 2): the owner, a built-in administrator,
    or a holder of ``admin`` on the context id or ``*``; no ``operators`` pattern: closing ends the
    context for everyone, a decision of whoever holds it. True, the verdict the engine is given."""
    return require_operator(ctx, context_id, "close")


def may_canonize(ctx: CallContext, context_id: str) -> bool:
    """Whether the principal may review (canonize) in the context (format 2): a grant, or a match of its
    ``canonizers`` where the owner itself may canonize."""
    grants = ctx.grants()
    scope = _scope(ctx, context_id)
    if granted(grants, Capability.CANONIZE, scope):  # the caller's own grant decides: nothing else read
        return True
    record = ctx.read.awmu.get_context(context_id)
    canonizers = () if record is None else record.config.canonizers
    if not any(pattern_names(pattern, ctx.principal) for pattern in canonizers):
        return False
    owner = ctx.read.context_owners.owner_of(context_id)
    owner_grants = (
        ctx.read.grants.grants_of(owner) if owner is not None and not is_builtin_admin(owner) else []
    )
    return context_canonizer(grants, ctx.principal, scope, owner, owner_grants, canonizers)


def canonizer_verdict(ctx: CallContext, context_id: str) -> bool | None:
    """Whether the principal may canonize in the context, for the engine, without refusing (only a CANON
    unit's restore needs it, and the engine finds the unit first). Format 2: the kernel's verdict
    (``context_canonizer``), the engine's own patterns not consulted. Format 1: True with a canonize grant
    (as ``review`` allows), else None: the context's ``canonizers`` patterns decide."""
    if owned(ctx):
        return may_canonize(ctx, context_id)
    return True if granted(ctx.grants(), Capability.CANONIZE, context_id) else None


def operator_verdict(ctx: CallContext, context_id: str) -> bool | None:
    """The kernel's operate verdict for the engine (format 2; it refuses here); None: the engine decides."""
    return require_operator(ctx, context_id) if owned(ctx) else None


def require_read(ctx: CallContext, context_id: str) -> None:
    if owned(ctx):
        require_capability(ctx, Capability.READ, context_id)


def require_write(ctx: CallContext, context_id: str) -> None:
    if owned(ctx):
        require_capability(ctx, Capability.WRITE, context_id)


def review_verdict(ctx: CallContext, request_id: str) -> Callable[[str], bool]:
    """Whether the principal may review in the request's context, for the engine. Format 1: a
    canonize grant, besides the context's own ``canonizers`` the engine checks. Format 2: the kernel
    decides it all here (refusing), once the request is found (an unknown request stays
    ``awmu_request_not_found``), and the engine's own pattern check is not consulted. Typed rules: the
    same, but the refusal does not say whether the request exists (``_require_request_canonizer``)."""
    if not owned(ctx):
        # a context's own canonizers, or a canonize grant; built-in administrators are not
        # canonizers by name: CANON is a decision the context's config or an explicit grant delegates
        return lambda context_id: granted(ctx.grants(), Capability.CANONIZE, context_id)
    repo = ctx.read.awmu
    found = repo.get_canon_request(request_id) if request_id.startswith("c") else repo.get_review(request_id)
    if ctx.access_rules >= AccessRules.TYPED:
        _require_request_canonizer(ctx, request_id, None if found is None else found.context_id)
    elif found is not None and not may_canonize(ctx, found.context_id):
        raise policy_denied(ctx.principal, f"canonize context '{found.context_id}'")
    return lambda context_id: True


def _require_request_canonizer(ctx: CallContext, request_id: str, context_id: str | None) -> None:
    """Typed rules: one refusal, naming the request and not its context, whether or not the request
    exists (``context_id`` None: it does not). Only a caller that may review any request (a built-in
    administrator, or ``canonize`` on ``*``) is left to learn that it does not exist."""
    if context_id is None:
        allowed = is_builtin_admin(ctx.principal) or granted(ctx.grants(), Capability.CANONIZE, ANY_SCOPE)
    else:
        allowed = may_canonize(ctx, context_id)
    if not allowed:
        raise policy_denied(ctx.principal, f"canonize request '{request_id}'")

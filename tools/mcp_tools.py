"""Which tools ``arvis mcp`` lists to its principal, and what each says about naming
(``specs/access-and-pipelines.md`` §0.5): the tools it can use, decided once at start from what the
rules give it (its own memory, the contexts it may create) and the grants it holds then; nothing here
is journaled. A grant added later shows once the server is restarted; the kernel decides every call
either way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Engine

MEMORY_TOOLS = (
    "memory.get",
    "memory.list",
    "memory.revoke",
    "memory.snapshot",
    "memory.write",
    "pipeline.begin",
    "pipeline.end",
)
"""A user's long-term memory and the runs over it: ``user:ID``'s own, anyone else's only by a grant."""
REVIEW_TOOLS = ("memory.awmu.review", "memory.awmu.reopen_request")
"""Need ``canonize`` (or ``admin``) granted on a context: no owner holds it by rule (§1.7)."""


def held_grants(engine: Engine, principal: str) -> list[tuple[str, str]]:
    """The principal's grants as (capability, scope), read from the state table (no call, no entry)."""
    from sqlalchemy import inspect, text

    from journal.statements import GRANTS_OF

    if "grants" not in inspect(engine).get_table_names():
        return []
    with engine.connect() as connection:
        rows = connection.execute(text(GRANTS_OF), {"principal": principal})
        return [(str(capability), str(scope)) for _, capability, scope in rows]


def usable(name: str, principal: str, grants: Iterable[tuple[str, str]], *, administrator: bool) -> bool:
    """Whether ``principal`` can make syscall ``name`` somewhere, holding ``grants``."""
    held = list(grants)
    if administrator or name == "access.list":
        return True
    if name in REVIEW_TOOLS:
        return any(capability in ("canonize", "admin") for capability, _ in held)
    if name in MEMORY_TOOLS:
        return principal.startswith("user:") or any(_user_scope(scope) for _, scope in held)
    return name.startswith("memory.awmu.")  # on the contexts it creates (P/…), which it owns


def _user_scope(scope: str) -> bool:
    """A scope that may name a user: ``*``, ``user:ID``, or an untyped id (older rules)."""
    kind, colon, _ = scope.partition(":")
    return scope == "*" or kind == "user" or not colon


def _own_user(principal: str) -> str | None:
    return principal.removeprefix("user:") if principal.startswith("user:") else None


def describe(name: str, summary: str, principal: str) -> str:
    """The tool's description: the syscall's summary, and the names it takes for this principal."""
    own = _own_user(principal)
    if name.startswith("memory.awmu."):
        return (
            f"{summary}. A context id is named {principal}/NAME (e.g. {principal}/chat): a name of that "
            "form is yours to create and own; any other context needs a grant."
        )
    if name in MEMORY_TOOLS and own is not None:
        return f"{summary}. Your own memory is user_id {own!r}; another user's needs a grant."
    if name == "access.list":
        return f"{summary}. Without arguments: your own grants."
    return summary


def instructions(principal: str) -> str:
    own = _own_user(principal)
    memory = f" Your own long-term memory is user_id {own!r}." if own is not None else ""
    return (
        f"arvis memory syscalls. Every call runs as principal {principal!r} (fixed by the server, never an "
        f"argument) and is journaled, accepted or refused.{memory} Working-memory contexts are named "
        f"{principal}/NAME (e.g. context_id {principal + '/chat'!r}): such a name is yours to create with "
        "memory_awmu_create, and you own what you create. A refused call is a tool error whose error.code "
        "says why (memory_policy_denied: not yours; invalid_args: a field is wrong or unknown). The tools "
        "listed are those this principal can use, as of the server's start."
    )


def default_arguments(syscall: str, arguments: Any, principal: str, *, administrator: bool) -> Any:
    """The arguments as the kernel gets them (None: ``{}``; anything not an object as given, for the kernel
    to refuse): ``access.list`` without ``principal`` lists the caller's own grants (a non-administrator
    may list no one else's; an administrator's ``{}`` is every grant)."""
    if arguments is None:
        arguments = {}
    if syscall == "access.list" and isinstance(arguments, Mapping) and "principal" not in arguments:
        return {**arguments, "principal": principal} if not administrator else dict(arguments)
    return arguments

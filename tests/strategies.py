"""Every Hypothesis strategy of the suite, plus the constants, builders and kernel helpers the tests share.

Strategies are grouped by layer: canonical values, memory domain objects, syscall arguments, garbage
inputs for the dispatcher, and whole calls (valid or refused) for the sequence properties.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import strategies as st
from sqlalchemy import select

from arvis.memory.governance import (
    Governance,
    GovernanceEncryption,
    GovernancePrincipal,
    GovernanceRetention,
    GovernanceSharing,
    GovernanceVisibility,
)
from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_REGISTRY
from journal.reader import JournalReader
from journal.schema import memory_entries
from journal.store import ManualClock
from kernel.abi import JournalEntry, SyscallResult
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from syscalls.boot import open_kernel

# --------------------------------------------------------------------------------------------------
# constants and builders

T0 = datetime(2026, 1, 1, tzinfo=UTC)
"""The start of every ManualClock in the suite."""

REGISTRY_KEYS: tuple[str, ...] = tuple(sorted(DEFAULT_MEMORY_LONG_REGISTRY.allowed_keys))
USER_SOURCES = ("explicit_user", "onboarding", "proposed")
SOURCES = (*USER_SOURCES, "governance")
NOTES = ("ttl_default", "policy_gate", "governance_trace")
MEMORY_SYSCALLS = ("memory.get", "memory.list", "memory.revoke", "memory.snapshot", "memory.write")
MEMORY_TYPES: tuple[str, ...] = tuple(member.value for member in MemoryLongType)
MAX_TTL = timedelta(days=30)

VOUCHED = VouchedPrincipals(administrators=True)
"""The suite's kernels vouch for every principal they are given, the built-in administrators included
(as the embedding application of a journal it owns may); the tests of the journal's administrators
(``test_identity.py``, ``test_admin_binding.py``) open theirs without it."""


def write_args(
    key: str = "language",
    *,
    user_id: str = "u1",
    memory_type: str = "preference",
    source: str = "explicit_user",
    **extra: Any,
) -> dict[str, Any]:
    """Arguments of a ``memory.write`` that passes every rule unless ``extra`` says otherwise."""
    return {"user_id": user_id, "key": key, "memory_type": memory_type, "source": source, **extra}


def key_args(key: str = "language", *, user_id: str = "u1") -> dict[str, Any]:
    return {"user_id": user_id, "key": key}


def iso(moment: datetime) -> str:
    """An RFC 3339 argument for ``expires_at``."""
    return moment.isoformat()


# --------------------------------------------------------------------------------------------------
# kernel helpers (plain functions, usable inside Hypothesis tests where function fixtures are not)


@contextmanager
def fresh_kernel(clock: ManualClock | None = None, **kwargs: Any) -> Iterator[Kernel]:
    """An in-memory kernel (default clock: T0, not moving), closed on exit."""
    kwargs.setdefault("identity", VOUCHED)
    kernel = open_kernel(":memory:", clock=clock or ManualClock(T0), **kwargs)
    try:
        yield kernel
    finally:
        kernel.store.close()


def journal_entries(kernel: Kernel) -> list[JournalEntry]:
    """Every journal entry of the kernel's database, in seq order (the engine stays the kernel's)."""
    return list(JournalReader(kernel.store.engine).entries())


def state_rows(kernel: Kernel) -> list[dict[str, Any]]:
    """Every row of ``memory_entries``, in primary-key order: the whole memory state."""
    with kernel.store.engine.connect() as connection:
        rows = connection.execute(
            select(memory_entries).order_by(
                memory_entries.c.user_id, memory_entries.c.key, memory_entries.c.version
            )
        )
        return [dict(row._mapping) for row in rows]


def call(kernel: Kernel, name: object, args: object = None, principal: object = "user:u1") -> SyscallResult:
    return kernel.call(name, args, principal=principal)


OPERATOR = "operator:test"
"""The administrator that grants capabilities at a test's setup (so that its journal shows them)."""
AGENT = "agent:planner"
"""A principal with no right of its own: it acts on a user's memory only through grants."""
AUDIT = "audit"
"""The principal that reads every user's listing in the property tests, granted ``read`` on ``*``."""
GRANTED_CAPABILITIES = ("read", "write", "revoke", "admin")


def grant(
    kernel: Kernel, principal: str, capability: str, scope: str = "*", *, by: str = OPERATOR
) -> SyscallResult:
    """``access.grant`` of ``capability`` on ``scope`` to ``principal``, asserted accepted."""
    args = {"principal": principal, "capability": capability, "scope": scope}
    result = kernel.call("access.grant", args, principal=by)
    assert result.ok, result.error
    return result


# --------------------------------------------------------------------------------------------------
# canonical values

json_scalars_no_float = (
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text()
)
finite_floats = st.floats(allow_nan=False, allow_infinity=False)
json_scalars = json_scalars_no_float | finite_floats


def _json(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
        max_leaves=16,
    )


json_values = _json(json_scalars)
"""Any JSON value with a canonical form (finite floats, 64-bit integers, valid unicode)."""

json_values_no_float = _json(json_scalars_no_float)
"""JSON values whose canonical form equals ``json.dumps`` with sorted keys and no whitespace."""

json_objects = st.dictionaries(st.text(), json_values, min_size=1, max_size=6)

non_finite_floats = st.sampled_from([math.nan, math.inf, -math.inf, -math.nan])

lone_surrogates = st.integers(min_value=0xD800, max_value=0xDFFF).map(chr)

texts_with_surrogate = st.tuples(st.text(max_size=5), lone_surrogates, st.text(max_size=5)).map("".join)

fixed_offsets = st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)

aware_datetimes = st.datetimes(
    min_value=datetime(1001, 1, 1),
    max_value=datetime(9998, 12, 31),
    timezones=st.just(UTC) | fixed_offsets,
)
"""Aware datetimes whose UTC form has a four-digit year."""


def nested_lists(depth: int) -> list[Any]:
    """``depth`` lists, one inside the other, around a 0."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------------
# memory domain objects

governances = st.builds(
    Governance,
    visibility=st.sampled_from(GovernanceVisibility),
    sharing=st.sampled_from(GovernanceSharing),
    retention=st.sampled_from(GovernanceRetention),
    encryption=st.sampled_from(GovernanceEncryption),
    principal=st.sampled_from(GovernancePrincipal),
)

entry_keys = st.sampled_from(REGISTRY_KEYS) | st.sampled_from(["no_calls", "no_sms", "alpha", "zeta", "k"])

moments = st.integers(min_value=0, max_value=200).map(lambda seconds: T0 + timedelta(seconds=seconds))


@st.composite
def entries(draw: st.DrawFn) -> MemoryLongEntry:
    """An entry with any mix of expiry, revocation and supersession around ``T0 .. T0+200s``."""
    created_at = draw(moments)
    return MemoryLongEntry(
        memory_type=draw(st.sampled_from(MemoryLongType)),
        key=draw(entry_keys),
        created_at=created_at,
        source=draw(st.sampled_from(SOURCES)),
        notes=draw(st.none() | st.sampled_from(NOTES)),
        value_ref=draw(st.none() | st.text(max_size=8)),
        expires_at=draw(st.none() | moments),
        revoked_at=draw(st.none() | moments),
        governance=draw(governances),
        superseded_at=draw(st.none() | moments),
    )


entry_lists = st.lists(entries(), max_size=12)

# --------------------------------------------------------------------------------------------------
# syscall arguments and principals

valid_principals = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "S"]), min_size=1, max_size=40
)

invalid_principals = st.one_of(
    st.just(""),
    st.just("user:\x00"),
    st.just("user\nname"),
    st.just("x" * 257),
    texts_with_surrogate,
    st.none(),
    st.integers(),
    st.binary(max_size=4),
)

invalid_keys = st.one_of(
    st.just(""),
    st.just("k" * 129),
    st.sampled_from(["a\x00b", "line\nbreak", "tab\there", "\x7f", "zero\u200bwidth", "para\u2029sep"]),
    st.sampled_from([" lead", "trail ", "\tboth\t"]),
)
"""Keys refused with ``memory_invalid_key``: empty, too long, control characters, outer whitespace."""

user_ids = st.sampled_from(["u1", "u2"])
machine_keys = st.sampled_from(["language", "timezone", "no_marketing_emails", "k", "a b"])


class RaisingMapping(dict[str, Any]):
    """A dict whose inspection raises: a caller's broken object."""

    def items(self) -> Any:
        raise RuntimeError("items() is broken")

    def values(self) -> Any:
        raise RuntimeError("values() is broken")


class RaisingEq:
    """An object that refuses comparison and hashing."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = None  # type: ignore[assignment]


class WeirdMapping(Mapping[str, Any]):
    """A read-only mapping that is not a dict."""

    def __getitem__(self, key: str) -> Any:
        return {"user_id": "u1"}[key]

    def __iter__(self) -> Iterator[str]:
        return iter(["user_id"])

    def __len__(self) -> int:
        return 1


garbage_objects = st.one_of(
    st.builds(object),
    st.builds(RaisingEq),
    st.builds(RaisingMapping, user_id=st.just("u1")),
    st.just(WeirdMapping()),
    st.sets(st.integers(), max_size=3),
    st.frozensets(st.text(max_size=3), max_size=3),
    st.binary(max_size=8),
    st.complex_numbers(allow_nan=True),
    st.just(b"\x00\xff"),
    st.just(bytearray(b"ab")),
    st.just(range(3)),
    st.just(len),
    st.just(Ellipsis),
    st.just(datetime(2026, 1, 1)),
    non_finite_floats,
    texts_with_surrogate,
    st.just("\x00"),
    st.just(nested_lists(300)),
    st.just({"user_id": nested_lists(300)}),
    st.integers(min_value=2**63, max_value=2**80),
    st.integers(max_value=-(2**63) - 1, min_value=-(2**80)),
    st.dictionaries(st.integers(), st.integers(), min_size=1, max_size=2),
    st.dictionaries(texts_with_surrogate, st.integers(), min_size=1, max_size=2),
)
"""Values with no canonical JSON form, or with one that no request type accepts."""

anything = st.one_of(json_values, garbage_objects, st.dictionaries(st.text(), garbage_objects, max_size=2))

syscall_names = st.one_of(
    st.sampled_from(MEMORY_SYSCALLS),
    st.text(max_size=20),
    st.just("x" * 129),
    texts_with_surrogate,
    st.sampled_from(["MEMORY.LIST", "memory.delete", "memory.list\x00", "memory."]),
    garbage_objects,
)

principals = valid_principals | invalid_principals | garbage_objects

# --------------------------------------------------------------------------------------------------
# whole calls


@dataclass(frozen=True)
class RefusedCall:
    """A call that must be refused with ``code`` whatever the state holds."""

    name: object
    args: object
    principal: object
    code: str


def _refused(code: str, name: object, args: object, principal: object = "user:u1") -> RefusedCall:
    return RefusedCall(name=name, args=args, principal=principal, code=code)


def _memory_args(name: str, user: str) -> dict[str, Any]:
    """Well-formed arguments of a ``memory.*`` call on ``user``."""
    if name == "memory.write":
        return write_args("language", user_id=user)
    if name in ("memory.get", "memory.revoke"):
        return key_args("language", user_id=user)
    return {"user_id": user}


UNGRANTED_PRINCIPALS = ("agent:stranger", "service:nobody", "user:", "User:u1", "users:u1", "operator:", "a")
"""Principals that no test grants anything to: never the owner of a user, never an administrator."""


def _stranger(user: str) -> st.SearchStrategy[str]:
    """A principal that may not act on ``user`` (another user, or one holding no grant)."""
    return st.sampled_from(
        [*UNGRANTED_PRINCIPALS, *(f"user:{other}" for other in ("u1", "u2") if other != user)]
    )


refused_calls = st.one_of(
    st.builds(
        lambda name, principal: _refused("invalid_principal", name, {"user_id": "u1"}, principal),
        st.sampled_from(MEMORY_SYSCALLS),
        invalid_principals,
    ),
    st.builds(
        lambda name: _refused("unknown_syscall", name, {"user_id": "u1"}),
        st.sampled_from(["memory.delete", "memory.put", "MEMORY.LIST", "", "x" * 129]) | texts_with_surrogate,
    ),
    st.builds(
        lambda name, args: _refused("invalid_args", name, args),
        st.sampled_from(MEMORY_SYSCALLS),
        st.sampled_from(
            [
                [],
                "user_id",
                5,
                {"user_id": 5},
                {"user_id": "u1", "unknown_field": 1},
                {"user_id": "u1", "key": "language", "include_inactive": True, "x": None},
                {"user_id": "", "key": "language"},
                {"user_id": "u1", "key": "language", "nan": math.nan},
                {"user_id": "u1", "key": "language", "big": 2**64},
            ]
        ),
    ),
    st.builds(
        lambda name, key, user: _refused(
            "memory_invalid_key", name, key_args(key, user_id=user), f"user:{user}"
        ),
        st.sampled_from(["memory.get", "memory.revoke"]),
        invalid_keys,
        user_ids,
    ),
    st.builds(
        lambda key, user: _refused(
            "memory_invalid_key", "memory.write", write_args(key, user_id=user), f"user:{user}"
        ),
        invalid_keys,
        user_ids,
    ),
    st.builds(
        lambda key, user, source: _refused(
            "memory_policy_denied",
            "memory.write",
            write_args(key, user_id=user, source=source),
            f"user:{user}",
        ),
        machine_keys,
        user_ids,
        st.sampled_from(["model", "assistant", "inferred", "EXPLICIT_USER"]),
    ),
    st.builds(
        lambda key, user: _refused(
            "memory_policy_denied",
            "memory.write",
            write_args(key, user_id=user, notes="free text"),
            f"user:{user}",
        ),
        machine_keys,
        user_ids,
    ),
    st.builds(
        lambda user: _refused(
            "memory_policy_denied",
            "memory.write",
            write_args("favourite_colour", user_id=user, source="governance"),
            f"user:{user}",
        ),
        user_ids,
    ),
    st.builds(
        lambda user: _refused(
            "invalid_args",
            "memory.write",
            write_args("language", user_id=user, expires_at="2026-02-01T00:00:00"),
            f"user:{user}",
        ),
        user_ids,
    ),
    user_ids.flatmap(
        lambda user: st.builds(
            lambda name, principal: _refused(
                "memory_policy_denied", name, _memory_args(name, user), principal
            ),
            st.sampled_from(MEMORY_SYSCALLS),
            _stranger(user),
        )
    ),
)
"""Calls refused with a known code in every state (no state-dependent refusals here): the access rule's
refusals come from principals in ``UNGRANTED_PRINCIPALS`` or another user, never granted anything."""

ttl_seconds = st.one_of(
    st.none(),
    st.integers(min_value=1, max_value=int(MAX_TTL.total_seconds())),
    st.integers(min_value=-5, max_value=0),
    st.integers(min_value=int(MAX_TTL.total_seconds()) + 1, max_value=int(MAX_TTL.total_seconds()) + 5),
)
"""An expiry relative to the call's time, in seconds: None, within the 30-day bound, or outside it."""


@st.composite
def call_sequences(draw: st.DrawFn, max_calls: int = 12) -> list[tuple[str, dict[str, Any], str, int]]:
    """A list of (syscall, args, principal, clock advance in seconds) mixing accepted and refused calls.

    Writes dominate and most calls use a well-formed key, so that state builds up; expiries are drawn
    around the call's own time, within and beyond the 30-day bound. Calls come from the user's owner,
    another user, ``AGENT``, an administrator or an empty principal; now and then an administrator grants
    ``AGENT`` a capability or withdraws one (no one else is ever granted anything).
    """
    steps: list[tuple[str, dict[str, Any], str, int]] = []
    now = T0
    for _ in range(draw(st.integers(min_value=0, max_value=max_calls))):
        advance = draw(
            st.sampled_from([0, 0, 1, 3_600, 86_400]) | st.integers(min_value=0, max_value=3 * 86_400)
        )
        now += timedelta(seconds=advance)
        if draw(st.integers(min_value=0, max_value=7)) == 7:
            access = draw(st.sampled_from(["access.grant", "access.grant", "access.revoke"]))
            grant_args = {
                "principal": AGENT,
                "capability": draw(st.sampled_from(GRANTED_CAPABILITIES)),
                "scope": draw(st.sampled_from(["u1", "u2", "*"])),
            }
            steps.append((access, grant_args, OPERATOR, advance))
            continue
        name = draw(st.sampled_from(("memory.write", "memory.write", "memory.write", *MEMORY_SYSCALLS)))
        user = draw(user_ids)
        key = draw(machine_keys if draw(st.integers(min_value=0, max_value=5)) else invalid_keys)
        if name == "memory.write":
            args: dict[str, Any] = write_args(
                key,
                user_id=user,
                memory_type=draw(st.sampled_from(MEMORY_TYPES)),
                source=draw(st.sampled_from([*SOURCES, *USER_SOURCES, "model"])),
                replace=draw(st.booleans()),
            )
            if draw(st.booleans()):
                args["expires_at"] = iso(
                    now + timedelta(hours=draw(st.integers(min_value=-24, max_value=31 * 24)))
                )
        elif name in ("memory.get", "memory.revoke"):
            args = key_args(key, user_id=user)
        elif name == "memory.list":
            args = {"user_id": user, "include_inactive": draw(st.booleans())}
        else:
            args = {"user_id": user}
        principal = draw(st.sampled_from([f"user:{user}", f"user:{user}", "user:u1", AGENT, OPERATOR, ""]))
        steps.append((name, args, principal, advance))
    return steps


def stable_id(value: object) -> str:
    """A parametrized test's id: ``repr`` without memory addresses, so that every process collects the
    same ids (pytest-xdist compares them)."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))

"""Upstream compatibility of ``arvis.memory``: its names import, upstream-style calls work, and the wall clock
that upstream's one-argument ``validate_append`` implies is never read on the kernel's path.

Compared against the public project Julien-Lefauconnier/arvis at commit
d4db816595099789978cbc558193a25a3c645463 ("release 0.1.0a14"). What still differs is listed, with reasons,
in ``specs/memory-syscalls.md`` ("Upstream compatibility").
"""

from __future__ import annotations

import dataclasses
import inspect
import shutil
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from strategies import T0, call, iso, key_args, write_args

import arvis.memory
from arvis.memory import memory_long_snapshot
from arvis.memory.governance import (
    Governance,
    GovernancePrincipal,
    GovernanceSharing,
    GovernanceVisibility,
)
from journal.reader import JournalReader
from kernel.dispatcher import Kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

# Upstream's ``arvis/memory/__init__.py`` at d4db816: its imports and ``__all__`` (the same twelve names).
UPSTREAM_MEMORY_EXPORTS = (
    "MemoryIntent",
    "MemoryGate",
    "MemoryLongEntry",
    "MemoryLongType",
    "MemoryLongRecord",
    "MemoryLongRegistry",
    "DEFAULT_MEMORY_LONG_REGISTRY",
    "MemoryLongPolicyGate",
    "MemoryLongRepository",
    "MemoryLongService",
    "MemoryLongContextProjector",
    "MemoryLongSnapshot",
)

# Upstream's ``arvis/memory/`` at d4db816, every module: its public names; for a class, its public
# attributes (None) and methods (their parameters, ``*`` where keyword-only ones start); for a function,
# its parameters; None for a constant. Read off upstream's sources with ``ast``; a name missing here
# again, or a parameter renamed, reordered or made required, fails ``test_upstream_surface``.
UPSTREAM_SURFACE: dict[str, dict[str, Any]] = {
    "arvis.memory.governance": {
        "GovernanceVisibility": {
            "DISPLAYABLE": None,
            "USABLE": None,
            "SEALED": None,
        },
        "GovernanceSharing": {
            "SHAREABLE": None,
            "PERSONAL": None,
            "NEVER_SHARE": None,
        },
        "GovernanceRetention": {
            "PERSISTENT": None,
            "BOUNDED": None,
            "EPHEMERAL": None,
        },
        "GovernanceEncryption": {
            "AT_REST": None,
            "ZERO_KNOWLEDGE": None,
        },
        "GovernancePrincipal": {
            "USER": None,
            "ORGANIZATION": None,
            "GOVERNANCE": None,
        },
        "Governance": {
            "visibility": None,
            "sharing": None,
            "retention": None,
            "encryption": None,
            "principal": None,
        },
        "compose_strictest": ("personal", "organization"),
    },
    "arvis.memory.memory_gate": {
        "MemoryGate": {
            "allow": ("self", "intent"),
        },
    },
    "arvis.memory.memory_intent": {
        "MemoryIntent": {
            "NONE": None,
            "CANDIDATE": None,
            "CONFIRMED": None,
        },
    },
    "arvis.memory.memory_long_entry": {
        "MemoryLongType": {
            "PREFERENCE": None,
            "CONTEXT": None,
            "RULE": None,
            "STYLE": None,
            "CONSTRAINT": None,
        },
        "MemoryLongEntry": {
            "memory_type": None,
            "key": None,
            "created_at": None,
            "source": None,
            "notes": None,
            "value_ref": None,
            "expires_at": None,
            "revoked_at": None,
            "governance": None,
        },
    },
    "arvis.memory.memory_long_policy_gate": {
        "MemoryLongPolicyGate": {
            "MAX_TTL_DAYS": None,
            "USER_AUTHORED_SOURCES": None,
            "ALLOWED_NOTES": None,
            "__init__": ("self", "registry"),
            "validate_append": ("self", "entry"),
            "compose": ("self", "*", "personal", "organization"),
        },
    },
    "arvis.memory.memory_long_projector": {
        "MemoryLongContextProjector": {
            "project": ("self", "snapshot"),
        },
    },
    "arvis.memory.memory_long_record": {
        "MemoryLongRecord": {
            "entry": None,
            "payload_ciphertext": None,
            "nonce": None,
        },
    },
    "arvis.memory.memory_long_registry": {
        "MemoryLongRegistry": {
            "allowed_keys": None,
            "allowed_plain_values": None,
            "is_allowed": ("self", "key"),
            "validate_value_plain": ("self", "*", "key", "value"),
        },
        "DEFAULT_MEMORY_LONG_KEYS": None,
        "DEFAULT_PLAIN_VALUE_WHITELIST": None,
        "DEFAULT_MEMORY_LONG_REGISTRY": None,
    },
    "arvis.memory.memory_long_repository": {
        "MemoryLongRepository": {
            "list_entries": ("self", "*", "user_id"),
            "list_active_entries": ("self", "*", "user_id"),
            "list_active_entries_batch": ("self", "*", "user_ids"),
            "revoke": ("self", "*", "user_id", "key", "revoked_at"),
        },
    },
    "arvis.memory.memory_long_service": {
        "MemoryLongService": {
            "__init__": ("self", "repository"),
            "get_snapshot": ("self", "*", "user_id", "now"),
            "get_snapshots_batch": ("self", "*", "user_ids", "now"),
        },
    },
    "arvis.memory.memory_long_snapshot": {
        "MemoryLongSnapshot": {
            "active_entries": None,
            "entries": ("self",),
            "total_entries": None,
            "revoked_entries": None,
            "last_updated_at": None,
            "notes": None,
            "created_at": None,
        },
    },
}


GOLDEN_LONG_TERM = Path(__file__).parent / "golden" / "r1-long-term.db"


def _wall_now() -> datetime:
    return datetime.now(UTC)


def _refuse_the_wall_clock() -> datetime:
    raise AssertionError("the wall clock was read")


# --------------------------------------------------------------------------------------------------
# names


@pytest.mark.parametrize("name", UPSTREAM_MEMORY_EXPORTS)
def test_every_upstream_name_imports_from_arvis_memory(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from arvis.memory import {name}", namespace)
    assert namespace[name] is getattr(arvis.memory, name)


def test_the_star_import_is_upstreams() -> None:
    assert sorted(arvis.memory.__all__) == sorted(UPSTREAM_MEMORY_EXPORTS)


def _parameters(function: Any) -> tuple[str, ...]:
    """The parameters as ``UPSTREAM_SURFACE`` writes them."""
    names: list[str] = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is parameter.KEYWORD_ONLY and "*" not in names:
            names.append("*")
        prefix = {parameter.VAR_POSITIONAL: "*", parameter.VAR_KEYWORD: "**"}.get(parameter.kind, "")
        names.append(prefix + parameter.name)
    return tuple(names)


def _assert_signature_is_upstreams(function: Any, upstream: tuple[str, ...], where: str) -> None:
    """Upstream's parameters, in its order and of its kinds; a parameter upstream lacks is allowed only
    keyword-only with a default (so that every upstream call still binds)."""
    ours = _parameters(function)
    kept = tuple(name for name in ours if name in upstream)
    assert kept == upstream, f"{where}: {ours} against upstream's {upstream}"
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name not in upstream:
            assert parameter.kind is parameter.KEYWORD_ONLY, where
            assert parameter.default is not parameter.empty, where


@pytest.mark.parametrize(
    ("module", "name"), [(module, name) for module, names in UPSTREAM_SURFACE.items() for name in names]
)
def test_upstream_surface(module: str, name: str) -> None:
    """Every public name of upstream's ``arvis/memory/`` modules imports from its upstream path, and its
    methods and functions take upstream's parameters."""
    namespace: dict[str, object] = {}
    exec(f"from {module} import {name}", namespace)
    found = namespace[name]
    upstream = UPSTREAM_SURFACE[module][name]
    if isinstance(upstream, tuple):
        _assert_signature_is_upstreams(found, upstream, f"{module}.{name}")
    elif isinstance(upstream, dict):
        assert inspect.isclass(found), name
        fields = (
            {field.name for field in dataclasses.fields(found)} if dataclasses.is_dataclass(found) else set()
        )
        init = set(inspect.signature(found).parameters)
        for member, parameters in upstream.items():
            where = f"{module}.{name}.{member}"
            if parameters is None:  # an attribute, a field or an enum member
                assert hasattr(found, member) or member in fields or member in init, where
            elif isinstance(inspect.getattr_static(found, member), property):
                assert parameters == ("self",), where
            else:
                _assert_signature_is_upstreams(getattr(found, member), parameters, where)


def test_upstream_module_constants_of_the_registry() -> None:
    from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_KEYS, DEFAULT_PLAIN_VALUE_WHITELIST

    assert arvis.memory.DEFAULT_MEMORY_LONG_REGISTRY.allowed_keys == DEFAULT_MEMORY_LONG_KEYS
    assert set(DEFAULT_PLAIN_VALUE_WHITELIST) == set(
        arvis.memory.DEFAULT_MEMORY_LONG_REGISTRY.allowed_plain_values
    )


# --------------------------------------------------------------------------------------------------
# upstream's own tests, ported (each names its source at d4db816)


def test_port_entry_gets_default_governance() -> None:
    """tests/memory/test_governance.py::test_entry_gets_default_governance."""
    entry = arvis.memory.MemoryLongEntry(
        memory_type=arvis.memory.MemoryLongType.PREFERENCE,
        key="language",
        created_at=_wall_now(),
        source="explicit_user",
    )
    assert entry.governance == Governance()
    assert entry.governance.principal is GovernancePrincipal.USER


def test_port_gate_accepts_arbitrary_key_for_user_authored_sources() -> None:
    """tests/memory/test_governance_compose_and_gate.py::test_gate_accepts_arbitrary_key_for_user_authored_sources:
    ``validate_append(entry)``, no ``now``."""
    gate = arvis.memory.MemoryLongPolicyGate()
    for source in ("explicit_user", "onboarding", "proposed"):
        gate.validate_append(
            arvis.memory.MemoryLongEntry(
                memory_type=arvis.memory.MemoryLongType.CONTEXT,
                key="profession",
                source=source,
                created_at=_wall_now(),
            )
        )


def test_port_gate_enforces_whitelist_for_system_source() -> None:
    """tests/memory/test_governance_compose_and_gate.py::test_gate_enforces_whitelist_for_system_source."""
    gate = arvis.memory.MemoryLongPolicyGate()
    with pytest.raises(ValueError):
        gate.validate_append(
            arvis.memory.MemoryLongEntry(
                memory_type=arvis.memory.MemoryLongType.CONTEXT,
                key="profession",
                source="governance",
                created_at=_wall_now(),
            )
        )


def test_port_gate_compose_delegates_to_strictest() -> None:
    """tests/memory/test_governance_compose_and_gate.py::test_gate_compose_delegates_to_strictest."""
    composed = arvis.memory.MemoryLongPolicyGate().compose(
        personal=Governance(
            visibility=GovernanceVisibility.DISPLAYABLE, sharing=GovernanceSharing.NEVER_SHARE
        ),
        organization=Governance(visibility=GovernanceVisibility.SEALED),
    )
    assert composed.visibility is GovernanceVisibility.SEALED
    assert composed.sharing is GovernanceSharing.NEVER_SHARE
    assert composed.principal is GovernancePrincipal.ORGANIZATION


def test_port_snapshot_creation_and_memory_gate() -> None:
    """tests/memory/test_memory_long_snapshot.py::test_memory_long_snapshot_creation and
    tests/memory/test_memory_gate.py, with the gate called on an instance as upstream's method is."""
    assert arvis.memory.MemoryLongSnapshot() is not None
    gate = arvis.memory.MemoryGate()
    assert gate.allow(arvis.memory.MemoryIntent.CONFIRMED) is True
    assert gate.allow(arvis.memory.MemoryIntent.CANDIDATE) is False


def test_port_projection_of_a_duck_typed_snapshot() -> None:
    """tests/conversation/test_memory_integration.py::test_memory_projection_no_payload_leak: anything with
    ``active_entries`` holding objects with a ``key`` projects."""

    class Entry:
        key = "no_marketing_emails"

    class Snapshot:
        active_entries = (Entry(),)

    result = arvis.memory.MemoryLongContextProjector().project(Snapshot())  # type: ignore[arg-type]
    assert "payload_ciphertext" not in result and "nonce" not in result
    assert result["constraints"] == ["no_marketing_emails"] and result["has_constraints"] is True


def test_port_contract_shapes() -> None:
    """tests/contracts/test_arvis_contract.py (test_memory_long_entry_zkcs_shape,
    test_memory_long_repository_is_abstract_interface) and tests/kernel/test_immutability_contracts.py
    (every dataclass ``arvis.memory`` exposes is frozen)."""
    fields = {field.name for field in dataclasses.fields(arvis.memory.MemoryLongEntry)}
    assert {"memory_type", "key", "created_at", "source", "governance", "value_ref"} <= fields
    assert "value" not in fields
    repository = arvis.memory.MemoryLongRepository
    assert {"list_entries", "list_active_entries", "revoke"} <= repository.__abstractmethods__
    for name in dir(arvis.memory):
        obj = getattr(arvis.memory, name)
        if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
            assert obj.__dataclass_params__.frozen, name  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------------
# upstream-shaped signatures


def test_validate_append_without_now_measures_expiry_from_the_wall_clock() -> None:
    gate = arvis.memory.MemoryLongPolicyGate()

    def entry(expires_at: datetime) -> arvis.memory.MemoryLongEntry:
        return arvis.memory.MemoryLongEntry(
            memory_type=arvis.memory.MemoryLongType.PREFERENCE,
            key="language",
            created_at=_wall_now(),
            source="explicit_user",
            expires_at=expires_at,
        )

    gate.validate_append(entry(_wall_now() + timedelta(days=29)))
    with pytest.raises(ValueError, match="maximum TTL"):
        gate.validate_append(entry(_wall_now() + timedelta(days=31)))
    # the same entry with an explicit time is judged at that time, the wall clock unread
    gate.validate_append(entry(T0 + timedelta(days=1)), now=T0)


def test_the_default_time_comes_from_wall_clock_utcnow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory_long_snapshot, "utcnow", lambda: T0)
    gate = arvis.memory.MemoryLongPolicyGate()
    entry = arvis.memory.MemoryLongEntry(
        memory_type=arvis.memory.MemoryLongType.PREFERENCE,
        key="language",
        created_at=T0,
        source="explicit_user",
        expires_at=T0 + timedelta(days=30),
    )
    gate.validate_append(entry)
    with pytest.raises(ValueError, match="maximum TTL"):
        gate.validate_append(dataclasses.replace(entry, expires_at=T0 + timedelta(days=30, seconds=1)))


def test_no_expiry_no_clock_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Like upstream, the one-argument call reads the clock only for an entry with ``expires_at``."""
    monkeypatch.setattr(memory_long_snapshot, "utcnow", _refuse_the_wall_clock)
    arvis.memory.MemoryLongPolicyGate().validate_append(
        arvis.memory.MemoryLongEntry(
            memory_type=arvis.memory.MemoryLongType.RULE, key="k", created_at=T0, source="onboarding"
        )
    )


def test_registry_validate_value_plain_answers_a_boolean_as_upstreams() -> None:
    registry = arvis.memory.MemoryLongRegistry(
        allowed_keys={"language"}, allowed_plain_values={"language": {"fr"}}
    )
    assert registry.validate_value_plain(key="language", value="fr") is True
    assert registry.validate_value_plain(key="language", value="xx") is False
    assert registry.validate_value_plain(key="timezone", value="UTC") is False
    assert registry.validate_value_plain(key="timezone", value=None) is True
    assert (
        arvis.memory.MemoryLongRegistry(allowed_keys={"a"}).validate_value_plain(key="a", value="x") is False
    )
    from arvis.memory.memory_long_registry import DEFAULT_PLAIN_VALUE_WHITELIST

    assert {
        "language": {"fr", "en", "es", "de"},
        "timezone": {"UTC", "Europe/Paris"},
    } == DEFAULT_PLAIN_VALUE_WHITELIST


class HostRepository(arvis.memory.MemoryLongRepository):
    """A repository written against upstream: its four methods, records from ``list_entries``."""

    def __init__(self, entries: dict[str, list[arvis.memory.MemoryLongEntry]]) -> None:
        self.entries = entries
        self.revoked: list[tuple[str, str, datetime]] = []

    def list_entries(self, *, user_id: str) -> list[arvis.memory.MemoryLongRecord]:
        return [
            arvis.memory.MemoryLongRecord(entry, b"\x00", b"n") for entry in self.entries.get(user_id, [])
        ]

    def list_active_entries(self, *, user_id: str) -> list[arvis.memory.MemoryLongEntry]:
        return [entry for entry in self.entries.get(user_id, []) if entry.revoked_at is None]

    def list_active_entries_batch(
        self, *, user_ids: Iterable[str]
    ) -> dict[str, list[arvis.memory.MemoryLongEntry]]:
        return {user_id: self.list_active_entries(user_id=user_id) for user_id in user_ids}

    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> None:
        self.revoked.append((user_id, key, revoked_at))


def test_a_host_repository_written_against_upstream_serves_the_service(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The service upstream's hosts call (``get_snapshot(user_id=...)``, no time) over a repository that
    implements only upstream's four methods: active entries in the spec's order, at the wall clock's time."""
    monkeypatch.setattr(memory_long_snapshot, "utcnow", lambda: T0 + timedelta(hours=1))

    def entry(key: str, at: int, **changes: Any) -> arvis.memory.MemoryLongEntry:
        return arvis.memory.MemoryLongEntry(
            memory_type=arvis.memory.MemoryLongType.CONSTRAINT,
            key=key,
            created_at=T0 + timedelta(seconds=at),
            source="explicit_user",
            **changes,
        )

    repository = HostRepository(
        {
            "u1": [
                entry("no_sms", 5),
                entry("no_calls", 1),
                entry("no_fax", 2, revoked_at=T0 + timedelta(seconds=3)),
            ]
        }
    )
    service = arvis.memory.MemoryLongService(repository)
    snapshot = service.get_snapshot(user_id="u1")
    assert [item.key for item in snapshot.entries] == ["no_calls", "no_sms"]
    assert snapshot.total_entries == 2 and snapshot.revoked_entries == 0
    assert snapshot.created_at == T0 + timedelta(hours=1)
    projection = arvis.memory.MemoryLongContextProjector().project(snapshot)
    assert projection["constraints"] == ["no_calls", "no_sms"] and projection["memory_pressure"] == 2
    batch = service.get_snapshots_batch(user_ids=["u1", "u2"], now=T0 + timedelta(seconds=10))
    assert batch["u1"].entries == snapshot.entries and batch["u2"].total_entries == 0
    repository.revoke(user_id="u1", key="no_sms", revoked_at=T0)
    assert repository.revoked == [("u1", "no_sms", T0)]
    assert repository.list_entries(user_id="u1")[0].payload_ciphertext == b"\x00"


def test_snapshot_from_a_list_holds_a_tuple() -> None:
    entry = arvis.memory.MemoryLongEntry(
        memory_type=arvis.memory.MemoryLongType.CONTEXT, key="timezone", created_at=T0, source="onboarding"
    )
    snapshot = arvis.memory.MemoryLongSnapshot(active_entries=[entry])  # type: ignore[arg-type]
    assert snapshot.entries == (entry,)
    assert snapshot == arvis.memory.MemoryLongSnapshot(active_entries=(entry,))


# --------------------------------------------------------------------------------------------------
# the kernel never uses the default


def test_the_kernel_path_never_reads_the_wall_clock(
    kernel: Kernel, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With ``memory_long_snapshot.utcnow`` raising, every memory syscall (expiry rules included) decides as
    usual, and a recorded journal still verifies by replay."""
    monkeypatch.setattr(memory_long_snapshot, "utcnow", _refuse_the_wall_clock)
    day = timedelta(days=1)
    assert call(kernel, "memory.write", write_args("language", expires_at=iso(T0 + day))).ok
    for expires_at in (T0 + 31 * day, T0 - day):
        refused = call(kernel, "memory.write", write_args("timezone", expires_at=iso(expires_at)))
        assert refused.error is not None and refused.error.code == "memory_policy_denied", refused
    assert call(kernel, "memory.write", write_args("timezone", source="governance", notes="policy_gate")).ok
    assert call(kernel, "memory.get", key_args("language")).ok
    assert call(kernel, "memory.list", {"user_id": "u1", "include_inactive": True}).ok
    assert call(kernel, "memory.snapshot", {"user_id": "u1"}).ok
    assert call(kernel, "memory.revoke", key_args("timezone")).ok

    copy = tmp_path / GOLDEN_LONG_TERM.name
    shutil.copyfile(GOLDEN_LONG_TERM, copy)
    reader = JournalReader.open(str(copy))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert report.verified and report.replayed, report.to_json()


def test_the_kernels_gate_is_upstreams_at_its_upstream_path() -> None:
    """``memory.write`` and upstream's callers use one gate: ``compose`` and the optional time are on the
    class at ``arvis.memory.memory_long_policy_gate``, the path upstream's hosts import."""
    from arvis.memory import memory_long_policy_gate

    assert arvis.memory.MemoryLongPolicyGate is memory_long_policy_gate.MemoryLongPolicyGate
    assert (
        inspect.signature(memory_long_policy_gate.MemoryLongPolicyGate.validate_append)
        .parameters["now"]
        .default
        is None
    )

"""Upstream compatibility of ``arvis.memory``: its names import, upstream-style calls work, and the wall clock
that upstream's one-argument ``validate_append`` implies is never read on the kernel's path.

Compared against the public project Julien-Lefauconnier/arvis at commit
d4db816595099789978cbc558193a25a3c645463 ("release 0.1.0a14"). What still differs is listed, with reasons,
in ``specs/memory-syscalls.md`` ("Upstream compatibility").
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from strategies import T0, call, iso, key_args, write_args

import arvis.memory
from arvis.memory import upstream_compat
from arvis.memory.governance import (
    Governance,
    GovernancePrincipal,
    GovernanceSharing,
    GovernanceVisibility,
)
from journal.reader import JournalReader
from journal.replay import verify_journal
from kernel.dispatcher import Kernel
from syscalls.table import SYSCALL_TABLE

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

# Upstream's tests/contracts/test_arvis_contract.py at d4db816 (FROZEN_ARVIS_SURFACE): the ``arvis.memory.*``
# module paths a host (veramem) imports from.
UPSTREAM_MEMORY_SURFACE = {
    "arvis.memory.governance": (
        "Governance",
        "GovernanceEncryption",
        "GovernancePrincipal",
        "GovernanceRetention",
        "GovernanceSharing",
        "GovernanceVisibility",
    ),
    "arvis.memory.memory_long_entry": ("MemoryLongEntry", "MemoryLongType"),
    "arvis.memory.memory_long_policy_gate": ("MemoryLongPolicyGate",),
    "arvis.memory.memory_long_projector": ("MemoryLongContextProjector",),
    "arvis.memory.memory_long_record": ("MemoryLongRecord",),
    "arvis.memory.memory_long_registry": ("DEFAULT_MEMORY_LONG_REGISTRY",),
    "arvis.memory.memory_long_repository": ("MemoryLongRepository",),
    "arvis.memory.memory_long_snapshot": ("MemoryLongSnapshot",),
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


@pytest.mark.parametrize(
    ("module", "name"),
    [(module, name) for module, names in UPSTREAM_MEMORY_SURFACE.items() for name in names],
)
def test_every_upstream_module_path_resolves(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name)


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
    monkeypatch.setattr(upstream_compat, "utcnow", lambda: T0)
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
    monkeypatch.setattr(upstream_compat, "utcnow", _refuse_the_wall_clock)
    arvis.memory.MemoryLongPolicyGate().validate_append(
        arvis.memory.MemoryLongEntry(
            memory_type=arvis.memory.MemoryLongType.RULE, key="k", created_at=T0, source="onboarding"
        )
    )


def test_registry_boolean_beside_the_raising_validator() -> None:
    registry = arvis.memory.MemoryLongRegistry(
        allowed_keys={"language"}, allowed_plain_values={"language": {"fr"}}
    )
    assert registry.is_value_plain_allowed(key="language", value="fr") is True
    assert registry.is_value_plain_allowed(key="language", value="xx") is False
    assert registry.is_value_plain_allowed(key="timezone", value="UTC") is False
    assert registry.is_value_plain_allowed(key="timezone", value=None) is True
    assert registry.validate_value_plain(key="language", value="fr") is True
    assert registry.validate_value_plain(key="timezone", value=None) is True
    with pytest.raises(ValueError):
        registry.validate_value_plain(key="language", value="xx")
    assert (
        arvis.memory.MemoryLongRegistry(allowed_keys={"a"}).is_value_plain_allowed(key="a", value="x")
        is False
    )


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
    """With ``upstream_compat.utcnow`` raising, every memory syscall (expiry rules included) decides as usual,
    and a recorded journal still verifies by replay."""
    monkeypatch.setattr(upstream_compat, "utcnow", _refuse_the_wall_clock)
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


def _imports_compat(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        if any(name.endswith("upstream_compat") for name in names):
            return True
    return False


def test_the_kernels_gate_takes_the_time_and_nothing_shipped_imports_the_compat_module() -> None:
    """The wall clock and the pieces no syscall uses live in one module, ``arvis.memory.upstream_compat``:
    the kernel's gate cannot be called without the call's time, and no shipped package but
    ``arvis.memory`` (which re-exports upstream's names) imports the compatibility module."""
    from arvis.memory import memory_long_policy_gate

    kernel_gate = memory_long_policy_gate.MemoryLongPolicyGate.validate_append
    assert inspect.signature(kernel_gate).parameters["now"].default is inspect.Parameter.empty
    root = Path(__file__).parent.parent
    allowed = {"__init__.py", "memory_long_record.py", "memory_long_repository.py", "upstream_compat.py"}
    importers = [
        str(path.relative_to(root))
        for package in ("arvis", "kernel", "syscalls", "journal", "tools", "integrations")
        for path in (root / package).rglob("*.py")
        if _imports_compat(path) and not (path.parent == root / "arvis" / "memory" and path.name in allowed)
    ]
    assert importers == [], importers

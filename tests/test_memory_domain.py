"""The ARVIS-MEM-01 domain, pure: governance, gates, registry, policy, projection, snapshots, service."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import NOTES, SOURCES, T0, USER_SOURCES, entry_lists, governances, invalid_keys

from arvis.canonical import canonical_bytes, canonical_bytes_of_own, format_time, plain, sha256_hex
from arvis.memory.errors import MemoryErrorCode, MemoryRuleError
from arvis.memory.governance import (
    Governance,
    GovernanceEncryption,
    GovernancePrincipal,
    GovernanceRetention,
    GovernanceSharing,
    GovernanceVisibility,
    compose_strictest,
)
from arvis.memory.memory_gate import MemoryGate
from arvis.memory.memory_intent import MemoryIntent
from arvis.memory.memory_long_entry import EntryStatus, MemoryLongEntry, MemoryLongType
from arvis.memory.memory_long_policy_gate import MemoryLongPolicyGate
from arvis.memory.memory_long_projector import MemoryLongContextProjector
from arvis.memory.memory_long_record import MemoryLongRecord
from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_REGISTRY, MemoryLongRegistry
from arvis.memory.memory_long_repository import MemoryLongRepository
from arvis.memory.memory_long_service import MemoryLongService, build_snapshot
from arvis.memory.memory_long_snapshot import EPOCH, MemoryLongSnapshot
from arvis.memory.memory_service import MAX_KEY_LENGTH, validate_key
from arvis.memory.snapshot_wire import build_snapshot_wire
from kernel.errors import ErrorCode

LEVERS = ("visibility", "sharing", "retention", "encryption")


def entry(
    key: str = "language",
    *,
    at: int = 0,
    memory_type: MemoryLongType = MemoryLongType.PREFERENCE,
    source: str = "explicit_user",
    **changes: Any,
) -> MemoryLongEntry:
    """An entry created ``at`` seconds after T0."""
    return MemoryLongEntry(
        memory_type=memory_type,
        key=key,
        created_at=T0 + timedelta(seconds=at),
        source=source,
        **changes,
    )


class InMemoryRepository(MemoryLongRepository):
    """Upstream's repository contract over a dict, for testing the service without SQL."""

    def __init__(self, entries: dict[str, list[MemoryLongEntry]] | None = None) -> None:
        self.entries: dict[str, list[MemoryLongEntry]] = entries or {}

    def list_entries(self, *, user_id: str) -> list[MemoryLongRecord]:
        return [MemoryLongRecord(item, b"", b"") for item in self.entries.get(user_id, [])]

    def list_active_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        return [
            item
            for item in self.entries.get(user_id, [])
            if item.revoked_at is None and item.superseded_at is None
        ]

    def list_active_entries_batch(self, *, user_ids: Iterable[str]) -> dict[str, list[MemoryLongEntry]]:
        return {user_id: self.list_active_entries(user_id=user_id) for user_id in user_ids}

    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> None:
        raise AssertionError("not used by these tests")


# --------------------------------------------------------------------------------------------------
# governance


def test_governance_defaults_and_wire_form() -> None:
    assert Governance().to_wire() == {
        "encryption": "at_rest",
        "principal": "user",
        "retention": "persistent",
        "sharing": "personal",
        "visibility": "usable",
    }


@pytest.mark.parametrize(
    ("lever", "order"),
    [
        ("visibility", list(GovernanceVisibility)),
        ("sharing", list(GovernanceSharing)),
        ("retention", list(GovernanceRetention)),
        ("encryption", list(GovernanceEncryption)),
    ],
)
def test_compose_strictest_each_lever_takes_the_later_declared_value(lever: str, order: list[Any]) -> None:
    for i, first in enumerate(order):
        for j, second in enumerate(order):
            composed = compose_strictest(
                dataclasses.replace(Governance(), **{lever: first}),
                dataclasses.replace(Governance(), **{lever: second}),
            )
            assert getattr(composed, lever) is order[max(i, j)]


def test_compose_strictest_example() -> None:
    personal = Governance(visibility=GovernanceVisibility.SEALED, sharing=GovernanceSharing.SHAREABLE)
    organization = Governance(
        visibility=GovernanceVisibility.DISPLAYABLE,
        sharing=GovernanceSharing.NEVER_SHARE,
        retention=GovernanceRetention.BOUNDED,
        principal=GovernancePrincipal.GOVERNANCE,
    )
    assert compose_strictest(personal, organization) == Governance(
        visibility=GovernanceVisibility.SEALED,
        sharing=GovernanceSharing.NEVER_SHARE,
        retention=GovernanceRetention.BOUNDED,
        encryption=GovernanceEncryption.AT_REST,
        principal=GovernancePrincipal.ORGANIZATION,
    )


@given(governances, governances)
def test_compose_strictest_is_a_lever_wise_maximum(personal: Governance, organization: Governance) -> None:
    """Each composed lever is one of the two inputs and at least as strict as both; the order of the
    inputs does not matter; the organization is always the principal."""
    composed = compose_strictest(personal, organization)
    swapped = compose_strictest(organization, personal)
    for lever in LEVERS:
        members = list(type(getattr(composed, lever)))
        value = getattr(composed, lever)
        assert value in (getattr(personal, lever), getattr(organization, lever))
        assert members.index(value) >= members.index(getattr(personal, lever))
        assert members.index(value) >= members.index(getattr(organization, lever))
        assert getattr(swapped, lever) is value
    assert composed.principal is GovernancePrincipal.ORGANIZATION


@given(governances)
def test_compose_strictest_is_idempotent_on_levers(governance: Governance) -> None:
    """Composing a regime with itself changes no lever."""
    composed = compose_strictest(governance, governance)
    assert [getattr(composed, lever) for lever in LEVERS] == [getattr(governance, lever) for lever in LEVERS]


def test_policy_gate_compose_is_compose_strictest() -> None:
    personal = Governance(retention=GovernanceRetention.EPHEMERAL)
    organization = Governance(encryption=GovernanceEncryption.ZERO_KNOWLEDGE)
    assert MemoryLongPolicyGate().compose(personal=personal, organization=organization) == (
        compose_strictest(personal, organization)
    )


# --------------------------------------------------------------------------------------------------
# intent gate, registry, record


@pytest.mark.parametrize(
    ("intent", "allowed"),
    [(MemoryIntent.NONE, False), (MemoryIntent.CANDIDATE, False), (MemoryIntent.CONFIRMED, True)],
)
def test_memory_gate_allows_only_confirmed(intent: MemoryIntent, allowed: bool) -> None:
    assert MemoryGate().allow(intent) is allowed


def test_default_registry_keys() -> None:
    assert DEFAULT_MEMORY_LONG_REGISTRY.allowed_keys == frozenset(
        {"language", "preferred_language", "tone_style", "timezone", "no_marketing_emails", "working_mode"}
    )
    assert DEFAULT_MEMORY_LONG_REGISTRY.is_allowed("timezone")
    assert not DEFAULT_MEMORY_LONG_REGISTRY.is_allowed("Timezone")
    assert not DEFAULT_MEMORY_LONG_REGISTRY.is_allowed("")


def test_registry_plain_values_are_upstreams() -> None:
    registry = DEFAULT_MEMORY_LONG_REGISTRY
    assert registry.validate_value_plain(key="language", value="fr")
    assert registry.validate_value_plain(key="timezone", value="Europe/Paris")
    assert registry.validate_value_plain(key="tone_style", value=None)
    assert not registry.validate_value_plain(key="language", value="klingon")
    assert not registry.validate_value_plain(key="tone_style", value="formal")


def test_custom_registry() -> None:
    registry = MemoryLongRegistry(["a", "b", "a"], {"a": ["x"]})
    assert registry.allowed_keys == frozenset({"a", "b"})
    assert registry.validate_value_plain(key="a", value="x")
    assert not registry.validate_value_plain(key="b", value="x")
    assert not MemoryLongRegistry({"a"}).validate_value_plain(key="a", value="x")


def test_record_is_frozen() -> None:
    record = MemoryLongRecord(entry=entry(), payload_ciphertext=b"\x00", nonce=b"n")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.nonce = b"m"  # type: ignore[misc]


# --------------------------------------------------------------------------------------------------
# entries


def test_entry_status_precedence() -> None:
    now = T0 + timedelta(seconds=10)
    past = T0 + timedelta(seconds=5)
    assert entry().status_at(now) is EntryStatus.ACTIVE
    assert entry(expires_at=now).status_at(now) is EntryStatus.EXPIRED
    assert entry(expires_at=now + timedelta(microseconds=1)).status_at(now) is EntryStatus.ACTIVE
    assert entry(expires_at=past, superseded_at=past).status_at(now) is EntryStatus.SUPERSEDED
    assert entry(expires_at=past, superseded_at=past, revoked_at=past).status_at(now) is EntryStatus.REVOKED
    assert entry(revoked_at=past).is_active(now) is False


def test_entry_wire_form() -> None:
    item = entry(
        "no_marketing_emails",
        at=3,
        memory_type=MemoryLongType.CONSTRAINT,
        notes="policy_gate",
        value_ref="vault:1",
        expires_at=T0 + timedelta(days=1),
    )
    assert item.to_wire() == {
        "created_at": "2026-01-01T00:00:03.000000Z",
        "expires_at": "2026-01-02T00:00:00.000000Z",
        "governance": Governance().to_wire(),
        "key": "no_marketing_emails",
        "memory_type": "constraint",
        "notes": "policy_gate",
        "revoked_at": None,
        "source": "explicit_user",
        "superseded_at": None,
        "value_ref": "vault:1",
    }
    assert item.sort_key == ("2026-01-01T00:00:03.000000Z", "no_marketing_emails", "constraint")
    assert not hasattr(item, "value")


# --------------------------------------------------------------------------------------------------
# policy gate: one test per rule


NOW = T0 + timedelta(hours=1)


def _validate(item: MemoryLongEntry, gate: MemoryLongPolicyGate | None = None) -> None:
    (gate or MemoryLongPolicyGate()).validate_append(item, now=NOW)


@pytest.mark.parametrize("source", SOURCES)
def test_policy_accepts_known_sources_on_registry_keys(source: str) -> None:
    _validate(entry("timezone", source=source))


@pytest.mark.parametrize("source", ["model", "assistant", "", "EXPLICIT_USER", "explicit_user "])
def test_policy_refuses_unknown_sources(source: str) -> None:
    with pytest.raises(ValueError, match="may not write long-term memory"):
        _validate(entry(source=source))


@pytest.mark.parametrize("source", USER_SOURCES)
def test_policy_lets_user_authored_sources_use_any_key(source: str) -> None:
    _validate(entry("favourite_colour", source=source))


def test_policy_refuses_governance_source_outside_the_registry() -> None:
    with pytest.raises(ValueError, match="not in the registry"):
        _validate(entry("favourite_colour", source="governance"))


def test_policy_uses_its_own_registry() -> None:
    gate = MemoryLongPolicyGate(registry=MemoryLongRegistry(["custom"]))
    _validate(entry("custom", source="governance"), gate)
    with pytest.raises(ValueError, match="not in the registry"):
        _validate(entry("language", source="governance"), gate)


def test_policy_refuses_an_unsupported_memory_type() -> None:
    with pytest.raises(ValueError, match="memory_type"):
        _validate(entry(memory_type="preference"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("expires_at", "accepted"),
    [
        (NOW - timedelta(days=1), False),
        (NOW - timedelta(microseconds=1), False),
        (NOW, False),
        (NOW + timedelta(microseconds=1), True),
        (NOW + timedelta(days=30), True),
        (NOW + timedelta(days=30, microseconds=1), False),
        (NOW + timedelta(days=365), False),
        (None, True),
    ],
)
def test_policy_bounds_expiry_from_the_calls_time(expires_at: datetime | None, accepted: bool) -> None:
    item = entry(expires_at=expires_at)
    if accepted:
        _validate(item)
    else:
        with pytest.raises(ValueError, match="expires_at"):
            _validate(item)


@pytest.mark.parametrize("notes", [None, *NOTES])
def test_policy_accepts_system_notes(notes: str | None) -> None:
    _validate(entry(notes=notes))


@pytest.mark.parametrize("notes", ["", "remember this", "TTL_DEFAULT", "ttl_default "])
def test_policy_refuses_free_notes(notes: str) -> None:
    with pytest.raises(ValueError, match="notes"):
        _validate(entry(notes=notes))


# --------------------------------------------------------------------------------------------------
# keys


@pytest.mark.parametrize("key", ["language", "a b", "k" * MAX_KEY_LENGTH, "clé", "no_\U0001f600"])
def test_valid_keys(key: str) -> None:
    validate_key(key)


@given(invalid_keys)
def test_invalid_keys_are_refused_with_their_code(key: str) -> None:
    """Every empty, overlong, control-holding or padded key is refused as memory_invalid_key."""
    with pytest.raises(MemoryRuleError) as refused:
        validate_key(key)
    assert refused.value.code is MemoryErrorCode.INVALID_KEY


def test_lone_surrogate_key_is_refused() -> None:
    with pytest.raises(MemoryRuleError):
        validate_key("a\ud800")


def test_memory_error_codes_are_kernel_error_codes() -> None:
    for code in MemoryErrorCode:
        assert ErrorCode(code.value).value == code.value


# --------------------------------------------------------------------------------------------------
# projector


def _snapshot(*keys: str) -> MemoryLongSnapshot:
    return MemoryLongSnapshot(active_entries=tuple(entry(key, at=i) for i, key in enumerate(keys)))


def test_projection_of_empty_snapshot() -> None:
    assert MemoryLongContextProjector().project(MemoryLongSnapshot()) == {
        "constraints": [],
        "preferences": {"language": False, "timezone": False},
        "has_timezone": False,
        "has_language_pref": False,
        "memory_pressure": 0,
        "has_constraints": False,
        "memory_instability": 0.0,
    }


def test_projection_sorts_constraints_and_derives_flags() -> None:
    projection = MemoryLongContextProjector().project(
        _snapshot("no_sms", "timezone", "no_calls", "preferred_language", "no_calls", "nope")
    )
    assert projection == {
        "constraints": ["no_calls", "no_sms"],
        "preferences": {"language": True, "timezone": True},
        "has_timezone": True,
        "has_language_pref": True,
        "memory_pressure": 5,
        "has_constraints": True,
        "memory_instability": 0.5,
    }


def test_projection_instability_is_capped_at_one() -> None:
    projection = MemoryLongContextProjector().project(_snapshot(*(f"k{i:02}" for i in range(25))))
    assert projection["memory_pressure"] == 25
    assert projection["memory_instability"] == 1.0


def test_projection_holds_no_values() -> None:
    snapshot = MemoryLongSnapshot(active_entries=(entry("no_calls", value_ref="SECRET-REF"),))
    assert "SECRET-REF" not in json.dumps(MemoryLongContextProjector().project(snapshot))


@given(st.permutations(["no_b", "no_a", "language", "no_c", "timezone", "z", "no_aa", "a"]))
def test_projection_is_independent_of_entry_order(keys: list[str]) -> None:
    """The projection's bytes depend on the set of active keys only, never on their order."""
    projector = MemoryLongContextProjector()
    projection = projector.project(_snapshot(*keys))
    assert canonical_bytes(projection) == canonical_bytes(projector.project(_snapshot(*sorted(keys))))
    assert projection["constraints"] == ["no_a", "no_aa", "no_b", "no_c"]


# --------------------------------------------------------------------------------------------------
# snapshots


def test_empty_snapshot() -> None:
    snapshot = build_snapshot([], now=NOW)
    assert snapshot == MemoryLongSnapshot(created_at=NOW)
    assert snapshot.to_wire() == {
        "active_entries": [],
        "created_at": format_time(NOW),
        "last_updated_at": None,
        "notes": None,
        "revoked_entries": 0,
        "total_entries": 0,
    }
    assert MemoryLongSnapshot().created_at == EPOCH


def test_snapshot_orders_by_created_at_key_type_and_counts() -> None:
    items = [
        entry("b", at=2, memory_type=MemoryLongType.RULE),
        entry("b", at=2, memory_type=MemoryLongType.CONTEXT),
        entry("a", at=2),
        entry("z", at=1),
        entry("gone", at=0, revoked_at=T0 + timedelta(seconds=30)),
        entry("old", at=0, superseded_at=T0 + timedelta(seconds=20)),
        entry("stale", at=0, expires_at=T0 + timedelta(seconds=3)),
    ]
    snapshot = build_snapshot(items, now=T0 + timedelta(seconds=40))
    assert [(e.key, e.memory_type.value) for e in snapshot.active_entries] == [
        ("z", "preference"),
        ("a", "preference"),
        ("b", "context"),
        ("b", "rule"),
    ]
    assert snapshot.total_entries == 7
    assert snapshot.revoked_entries == 1
    assert snapshot.last_updated_at == T0 + timedelta(seconds=30)
    assert snapshot.created_at == T0 + timedelta(seconds=40)
    assert snapshot.entries == snapshot.active_entries
    assert isinstance(snapshot.active_entries, tuple)


@given(entry_lists, st.integers(min_value=0, max_value=250))
def test_build_snapshot_invariants(items: list[MemoryLongEntry], offset: int) -> None:
    """The snapshot holds exactly the entries active at ``now``, in (created_at, key, memory_type) order,
    counts every entry and every revoked one, and does not depend on the input order (byte for byte
    when no two active entries share a sort key, which the kernel never stores)."""
    now = T0 + timedelta(seconds=offset)
    snapshot = build_snapshot(items, now=now)
    active = [item for item in items if item.status_at(now) is EntryStatus.ACTIVE]
    assert sorted(snapshot.active_entries, key=lambda e: e.sort_key) == list(snapshot.active_entries)
    assert sorted(map(repr, snapshot.active_entries)) == sorted(map(repr, active))
    assert snapshot.total_entries == len(items)
    assert snapshot.revoked_entries == sum(item.revoked_at is not None for item in items)
    moments = [item.created_at for item in items]
    moments += [m for item in items for m in (item.revoked_at, item.superseded_at) if m is not None]
    assert snapshot.last_updated_at == (max(moments) if moments else None)
    assert snapshot.created_at == now
    reversed_snapshot = build_snapshot(list(reversed(items)), now=now)
    assert [e.sort_key for e in reversed_snapshot.active_entries] == [
        e.sort_key for e in snapshot.active_entries
    ]
    assert reversed_snapshot.total_entries == snapshot.total_entries
    if len({item.sort_key for item in active}) == len(active):
        assert canonical_bytes(reversed_snapshot.to_wire()) == canonical_bytes(snapshot.to_wire())


@given(entry_lists, st.integers(min_value=0, max_value=250))
def test_snapshot_from_wire_forms_is_the_typed_snapshot_byte_for_byte(
    items: list[MemoryLongEntry], offset: int
) -> None:
    """``build_snapshot_wire`` (what the kernel runs, on fixed-form texts and pre-encoded entries) embeds
    exactly the bytes of the typed snapshot's JSON form, and its hashes and projection are those of the
    typed snapshot (whose rules the invariants above check against ``status_at``)."""
    now = T0 + timedelta(seconds=offset)
    typed = build_snapshot(items, now=now)
    built = build_snapshot_wire([item.to_wire() for item in items], now=format_time(now))
    assert canonical_bytes_of_own(built.wire) == canonical_bytes(typed.to_wire())
    assert built.snapshot_hash == sha256_hex(canonical_bytes(typed.to_wire()))
    assert built.content_hash == sha256_hex(canonical_bytes({**typed.to_wire(), "created_at": None}))
    projector = MemoryLongContextProjector()
    assert projector.project_keys(built.active_keys) == projector.project(typed)
    assert plain(built.wire) == typed.to_wire()


# --------------------------------------------------------------------------------------------------
# MemoryLongService


def test_service_without_now_takes_the_wall_clocks_time_as_upstream(monkeypatch: pytest.MonkeyPatch) -> None:
    from arvis.memory import memory_long_snapshot

    monkeypatch.setattr(memory_long_snapshot, "utcnow", lambda: T0 + timedelta(days=3))
    service = MemoryLongService(InMemoryRepository())
    assert service.get_snapshot(user_id="u1").created_at == T0 + timedelta(days=3)
    batch = service.get_snapshots_batch(user_ids=["u1", "u2"])
    assert {snapshot.created_at for snapshot in batch.values()} == {T0 + timedelta(days=3)}


def test_service_builds_snapshots_from_the_repositorys_active_entries() -> None:
    """As upstream's: the snapshot holds what ``list_active_entries`` gives, in the spec's order, less what
    has expired at ``now``; the batch holds one snapshot per user of the repository's batch read."""
    repository = InMemoryRepository(
        {
            "u1": [
                entry("timezone", at=5),
                entry("language", at=1, revoked_at=T0 + timedelta(seconds=9)),
                entry("tone_style", at=0),
                entry("no_sms", at=3, expires_at=T0 + timedelta(seconds=30)),
            ],
            "u2": [entry("no_calls", at=2)],
        }
    )
    service = MemoryLongService(repository)
    now = T0 + timedelta(minutes=1)
    snapshot = service.get_snapshot(user_id="u1", now=now)
    assert snapshot == build_snapshot(repository.list_active_entries(user_id="u1"), now=now)
    assert [e.key for e in snapshot.active_entries] == ["tone_style", "timezone"]
    assert snapshot.total_entries == 3
    assert snapshot.revoked_entries == 0
    assert snapshot.created_at == now
    batch = service.get_snapshots_batch(user_ids=["u2", "u1", "u2", "nobody"], now=now)
    assert list(batch) == ["nobody", "u1", "u2"]
    assert batch["u1"] == snapshot
    assert batch["nobody"].total_entries == 0
    assert batch["nobody"].created_at == now

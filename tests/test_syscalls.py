"""Each memory.* syscall through ``Kernel.call``, and every error code the spine can produce.

Every refusal is checked the same way: the result carries the code and its fixed message, the call is
journaled at the next seq with status = code and an empty effects hash, and the memory state is unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import msgspec
import pytest
from strategies import (
    T0,
    RaisingMapping,
    call,
    iso,
    journal_entries,
    key_args,
    nested_lists,
    stable_id,
    state_rows,
    write_args,
)

from arvis.canonical import canonical_bytes, decode, format_time, sha256_hex
from journal.entry import EMPTY_EFFECTS_HASH
from journal.store import ManualClock
from kernel.abi import (
    CallContext,
    Handler,
    RecordedCall,
    Service,
    Support,
    SyscallError,
    SyscallResult,
    SyscallSpec,
    SyscallTable,
)
from kernel.arguments import MAX_ARGS_BYTES
from kernel.dispatcher import Kernel
from kernel.errors import ERROR_MESSAGES, ErrorCode, KernelError
from kernel.registry import KernelServiceRegistry
from syscalls.boot import default_services

HOUR = timedelta(hours=1)


def fmt(moment: datetime) -> str:
    return format_time(moment)


def assert_refused(
    kernel: Kernel, result: SyscallResult, code: str, rows_before: list[dict[str, Any]]
) -> None:
    """The refusal carries ``code``, is the journal's last entry with status = code, and changed nothing."""
    assert result.ok is False, result
    assert result.value is None
    assert result.error is not None
    assert result.error.code == code, result.error
    assert result.error.message == ERROR_MESSAGES[ErrorCode(code)]
    entries = journal_entries(kernel)
    assert result.seq == len(entries) == entries[-1].seq
    last = entries[-1]
    assert last.status == code
    assert decode(last.result) == {
        "ok": False,
        "error": {"code": code, "message": result.error.message, "detail": result.error.detail},
    }
    assert last.effects_hash == EMPTY_EFFECTS_HASH
    assert state_rows(kernel) == rows_before


@pytest.fixture
def seeded(kernel: Kernel) -> Kernel:
    """A kernel holding one active entry (u1/language) and one revoked entry (u1/timezone)."""
    assert call(kernel, "memory.write", write_args("language")).ok
    assert call(kernel, "memory.write", write_args("timezone")).ok
    assert call(kernel, "memory.revoke", key_args("timezone")).ok
    return kernel


@pytest.fixture
def no_memory_kernel(kernel_factory: Callable[..., Kernel]) -> Kernel:
    return kernel_factory(services=KernelServiceRegistry(memory_service=None))


# --------------------------------------------------------------------------------------------------
# memory.write


def test_write_creates_an_entry_and_journals_it(kernel: Kernel) -> None:
    args = write_args("language", value_ref="vault:42")
    result = call(kernel, "memory.write", args, principal="user:u1")
    created = fmt(T0 + timedelta(seconds=1))  # the clock's first tick went to the journal header
    assert result == SyscallResult(
        ok=True,
        seq=1,
        value={
            "user_id": "u1",
            "entry": {
                "created_at": created,
                "expires_at": None,
                "governance": {
                    "encryption": "at_rest",
                    "principal": "user",
                    "retention": "persistent",
                    "sharing": "personal",
                    "visibility": "usable",
                },
                "key": "language",
                "memory_type": "preference",
                "notes": None,
                "revoked_at": None,
                "source": "explicit_user",
                "superseded_at": None,
                "value_ref": "vault:42",
            },
            "superseded": None,
        },
    )
    [entry] = journal_entries(kernel)
    assert (entry.seq, entry.syscall, entry.principal, entry.status) == (1, "memory.write", "user:u1", "ok")
    assert entry.recorded_at == created
    assert entry.args == canonical_bytes(args)
    assert entry.result == canonical_bytes({"ok": True, "value": result.value})
    assert entry.effects_hash != EMPTY_EFFECTS_HASH
    [row] = state_rows(kernel)
    assert (row["user_id"], row["key"], row["version"], row["written_seq"]) == ("u1", "language", 1, 1)


def test_write_with_every_field(kernel: Kernel, clock: ManualClock) -> None:
    clock.set(T0 + HOUR)
    result = call(
        kernel,
        "memory.write",
        write_args(
            "tone_style",
            memory_type="style",
            source="governance",
            notes="governance_trace",
            value_ref="ref",
            expires_at="2026-01-02T03:00:00+02:00",
            governance={"visibility": "sealed", "sharing": "never_share", "principal": "organization"},
        ),
    )
    assert result.ok, result.error
    wire = result.value["entry"]
    assert wire["expires_at"] == "2026-01-02T01:00:00.000000Z"
    assert wire["created_at"] == fmt(T0 + HOUR)
    assert wire["notes"] == "governance_trace"
    assert wire["governance"] == {
        "encryption": "at_rest",
        "principal": "organization",
        "retention": "persistent",
        "sharing": "never_share",
        "visibility": "sealed",
    }


def test_write_conflicts_with_an_active_entry(kernel: Kernel) -> None:
    assert call(kernel, "memory.write", write_args("language")).ok
    before = state_rows(kernel)
    result = call(kernel, "memory.write", write_args("language", memory_type="rule"))
    assert_refused(kernel, result, "memory_conflict", before)
    assert "replace" in result.error.detail  # type: ignore[union-attr]


def test_same_key_for_another_user_is_no_conflict(kernel: Kernel) -> None:
    assert call(kernel, "memory.write", write_args("language", user_id="u1")).ok
    assert call(kernel, "memory.write", write_args("language", user_id="u2"), principal="user:u2").ok


def test_replace_supersedes_and_keeps_history(kernel: Kernel, clock: ManualClock) -> None:
    first = call(kernel, "memory.write", write_args("language", value_ref="en"))
    clock.set(T0 + HOUR)
    second = call(kernel, "memory.write", write_args("language", value_ref="fr", replace=True))
    assert second.ok, second.error
    assert second.value["superseded"] == {**first.value["entry"], "superseded_at": fmt(T0 + HOUR)}
    assert second.value["entry"]["value_ref"] == "fr"

    got = call(kernel, "memory.get", key_args("language"))
    assert got.value["entry"] == second.value["entry"]

    active = call(kernel, "memory.list", {"user_id": "u1"})
    assert [item["entry"]["value_ref"] for item in active.value["entries"]] == ["fr"]

    history = call(kernel, "memory.list", {"user_id": "u1", "include_inactive": True})
    assert [(item["entry"]["value_ref"], item["status"]) for item in history.value["entries"]] == [
        ("en", "superseded"),
        ("fr", "active"),
    ]
    assert history.value["entries"][0]["entry"]["superseded_at"] == fmt(T0 + HOUR)
    assert [row["version"] for row in state_rows(kernel)] == [1, 2]


def test_replace_with_nothing_to_supersede(kernel: Kernel) -> None:
    result = call(kernel, "memory.write", write_args("language", replace=True))
    assert result.ok
    assert result.value["superseded"] is None


def test_write_after_revoke_needs_no_replace(seeded: Kernel) -> None:
    result = call(seeded, "memory.write", write_args("timezone", value_ref="Europe/Paris"))
    assert result.ok, result.error
    assert result.value["superseded"] is None
    history = call(seeded, "memory.list", {"user_id": "u1", "include_inactive": True}).value["entries"]
    statuses = [(item["entry"]["key"], item["status"]) for item in history]
    assert statuses == [("language", "active"), ("timezone", "revoked"), ("timezone", "active")]


def test_write_after_expiry_supersedes_the_expired_entry(kernel: Kernel, clock: ManualClock) -> None:
    clock.set(T0)
    assert call(kernel, "memory.write", write_args("language", expires_at=iso(T0 + HOUR))).ok
    clock.set(T0 + 2 * HOUR)
    result = call(kernel, "memory.write", write_args("language"))
    assert result.ok, result.error
    assert result.value["superseded"]["superseded_at"] == fmt(T0 + 2 * HOUR)
    history = call(kernel, "memory.list", {"user_id": "u1", "include_inactive": True}).value["entries"]
    assert [item["status"] for item in history] == ["superseded", "active"]


# --------------------------------------------------------------------------------------------------
# memory.get, memory.revoke


def test_get_returns_the_active_entry(seeded: Kernel) -> None:
    result = call(seeded, "memory.get", key_args("language"))
    assert result.ok
    assert result.value["status"] == "active"
    assert result.value["user_id"] == "u1"
    assert result.value["entry"]["key"] == "language"
    assert journal_entries(seeded)[-1].effects_hash == EMPTY_EFFECTS_HASH


def test_get_unknown_key_is_not_found(seeded: Kernel) -> None:
    before = state_rows(seeded)
    assert_refused(
        seeded, call(seeded, "memory.get", key_args("working_mode")), "memory_entry_not_found", before
    )
    other_user = call(seeded, "memory.get", key_args("language", user_id="u2"), principal="user:u2")
    assert_refused(seeded, other_user, "memory_entry_not_found", before)


def test_get_revoked_entry(seeded: Kernel) -> None:
    before = state_rows(seeded)
    assert_refused(seeded, call(seeded, "memory.get", key_args("timezone")), "memory_entry_revoked", before)


def test_get_expires_exactly_at_expires_at(kernel: Kernel, clock: ManualClock) -> None:
    clock.set(T0 + HOUR)
    assert call(kernel, "memory.write", write_args("language", expires_at=iso(T0 + 2 * HOUR))).ok
    clock.set(T0 + 2 * HOUR - timedelta(microseconds=1))
    assert call(kernel, "memory.get", key_args("language")).value["status"] == "active"
    before = state_rows(kernel)
    clock.set(T0 + 2 * HOUR)
    assert_refused(kernel, call(kernel, "memory.get", key_args("language")), "memory_entry_expired", before)
    clock.set(T0 + 3 * HOUR)
    assert call(kernel, "memory.list", {"user_id": "u1"}).value == {
        "user_id": "u1",
        "entries": [],
        "count": 0,
    }
    history = call(kernel, "memory.list", {"user_id": "u1", "include_inactive": True}).value
    assert [item["status"] for item in history["entries"]] == ["expired"]


def test_revoke_sets_revoked_at(kernel: Kernel, clock: ManualClock) -> None:
    assert call(kernel, "memory.write", write_args("language")).ok
    clock.set(T0 + HOUR)
    result = call(kernel, "memory.revoke", key_args("language"))
    assert result.ok
    assert result.value["status"] == "revoked"
    assert result.value["entry"]["revoked_at"] == fmt(T0 + HOUR)
    [row] = state_rows(kernel)
    assert row["revoked_at"] == fmt(T0 + HOUR)
    assert journal_entries(kernel)[-1].effects_hash != EMPTY_EFFECTS_HASH


def test_revoke_unknown_key_is_not_found(seeded: Kernel) -> None:
    before = state_rows(seeded)
    assert_refused(
        seeded, call(seeded, "memory.revoke", key_args("nothing")), "memory_entry_not_found", before
    )


def test_revoke_twice_is_revoked(seeded: Kernel) -> None:
    before = state_rows(seeded)
    assert_refused(
        seeded, call(seeded, "memory.revoke", key_args("timezone")), "memory_entry_revoked", before
    )


# --------------------------------------------------------------------------------------------------
# memory.list, memory.snapshot


def test_list_orders_by_created_at_key_and_type(kernel: Kernel, clock: ManualClock) -> None:
    clock.set(T0)
    assert call(kernel, "memory.write", write_args("zeta")).ok
    kernel.clock = ManualClock(T0 + HOUR)  # every following call at one instant: ties fall to key, then type
    for key, memory_type in [("beta", "rule"), ("alpha", "style"), ("beta2", "context"), ("Alpha", "rule")]:
        assert call(kernel, "memory.write", write_args(key, memory_type=memory_type)).ok
    assert call(kernel, "memory.revoke", key_args("beta")).ok
    assert call(kernel, "memory.write", write_args("beta", memory_type="context")).ok
    assert call(kernel, "memory.write", write_args("other", user_id="u2"), principal="user:u2").ok

    listed = call(kernel, "memory.list", {"user_id": "u1"})
    assert listed.value["count"] == 5
    assert [item["entry"]["key"] for item in listed.value["entries"]] == [
        "zeta",
        "Alpha",
        "alpha",
        "beta",
        "beta2",
    ]
    assert all(item["status"] == "active" for item in listed.value["entries"])

    history = call(kernel, "memory.list", {"user_id": "u1", "include_inactive": True})
    assert [
        (i["entry"]["key"], i["entry"]["memory_type"], i["status"]) for i in history.value["entries"]
    ] == [
        ("zeta", "preference", "active"),
        ("Alpha", "rule", "active"),
        ("alpha", "style", "active"),
        ("beta", "context", "active"),
        ("beta", "rule", "revoked"),
        ("beta2", "context", "active"),
    ]


def test_list_hides_inactive_unless_asked(seeded: Kernel) -> None:
    rows = state_rows(seeded)
    plain = call(seeded, "memory.list", {"user_id": "u1"})
    assert [(i["entry"]["key"], i["status"]) for i in plain.value["entries"]] == [("language", "active")]
    assert plain.value["count"] == 1
    full = call(seeded, "memory.list", {"user_id": "u1", "include_inactive": True})
    assert [(i["entry"]["key"], i["status"]) for i in full.value["entries"]] == [
        ("language", "active"),
        ("timezone", "revoked"),
    ]
    assert full.value["count"] == 2
    assert call(seeded, "memory.list", {"user_id": "u2"}, principal="user:u2").value == {
        "user_id": "u2",
        "entries": [],
        "count": 0,
    }
    entries = journal_entries(seeded)
    assert [e.status for e in entries[-3:]] == ["ok", "ok", "ok"]
    assert all(e.effects_hash == EMPTY_EFFECTS_HASH for e in entries[-3:])
    assert state_rows(seeded) == rows


def test_snapshot(kernel: Kernel, clock: ManualClock) -> None:
    for key in ("no_marketing_emails", "timezone", "language", "no_calls"):
        assert call(kernel, "memory.write", write_args(key, memory_type="constraint")).ok
    assert call(kernel, "memory.revoke", key_args("no_calls")).ok
    clock.set(T0 + HOUR)
    result = call(kernel, "memory.snapshot", {"user_id": "u1"})
    assert result.ok
    value = result.value
    snapshot = value["snapshot"]
    assert value["user_id"] == "u1"
    assert [entry["key"] for entry in snapshot["active_entries"]] == [
        "no_marketing_emails",
        "timezone",
        "language",
    ]
    assert snapshot["total_entries"] == 4
    assert snapshot["revoked_entries"] == 1
    assert snapshot["created_at"] == fmt(T0 + HOUR)
    assert snapshot["last_updated_at"] == fmt(T0 + timedelta(seconds=5))
    assert value["snapshot_hash"] == sha256_hex(canonical_bytes(snapshot))
    assert value["projection"] == {
        "constraints": ["no_marketing_emails"],
        "preferences": {"language": True, "timezone": True},
        "has_timezone": True,
        "has_language_pref": True,
        "memory_pressure": 3,
        "has_constraints": True,
        "memory_instability": 0.3,
    }


def test_snapshot_of_unknown_user_is_empty(kernel: Kernel) -> None:
    value = call(kernel, "memory.snapshot", {"user_id": "nobody"}, principal="user:nobody").value
    assert value["snapshot"]["active_entries"] == []
    assert value["snapshot"]["total_entries"] == 0
    assert value["snapshot"]["last_updated_at"] is None
    assert value["projection"]["memory_pressure"] == 0


# --------------------------------------------------------------------------------------------------
# memory_invalid_key, memory_policy_denied


INVALID_KEYS = ["", "k" * 129, "a\x00b", "new\nline", "\x7f", "zero\u200bwidth", " padded", "padded "]


@pytest.mark.parametrize("key", INVALID_KEYS, ids=stable_id)
@pytest.mark.parametrize("name", ["memory.write", "memory.get", "memory.revoke"])
def test_invalid_keys(seeded: Kernel, name: str, key: str) -> None:
    before = state_rows(seeded)
    args = write_args(key) if name == "memory.write" else key_args(key)
    assert_refused(seeded, call(seeded, name, args), "memory_invalid_key", before)


def test_longest_key_is_accepted(kernel: Kernel) -> None:
    assert call(kernel, "memory.write", write_args("k" * 128)).ok
    assert call(kernel, "memory.get", key_args("k" * 128)).ok


NOW = T0 + timedelta(days=3)

POLICY_DENIALS = {
    "unknown source": write_args(source="model"),
    "source in other case": write_args(source="Explicit_User"),
    "governance source, unregistered key": write_args("favourite_colour", source="governance"),
    "free notes": write_args(notes="the user said so"),
    "expires in the past": write_args(expires_at=iso(NOW - HOUR)),
    "expires now": write_args(expires_at=iso(NOW)),
    "expires past 30 days": write_args(expires_at=iso(NOW + timedelta(days=30, microseconds=1))),
}


@pytest.mark.parametrize("args", POLICY_DENIALS.values(), ids=POLICY_DENIALS.keys())
def test_policy_denials(seeded: Kernel, clock: ManualClock, args: dict[str, Any]) -> None:
    before = state_rows(seeded)
    clock.set(NOW)
    assert_refused(
        seeded,
        call(seeded, "memory.write", {**args, "key": args["key"] + "_x"}),
        "memory_policy_denied",
        before,
    )


POLICY_ACCEPTS = {
    "governance source, registry key": write_args("working_mode", source="governance"),
    "onboarding, any key": write_args("favourite_colour", source="onboarding"),
    "proposed, any key": write_args("favourite_colour", source="proposed"),
    "system note": write_args(notes="ttl_default"),
    "expires in 1 microsecond": write_args(expires_at=iso(NOW + timedelta(microseconds=1))),
    "expires in exactly 30 days": write_args(expires_at=iso(NOW + timedelta(days=30))),
}


@pytest.mark.parametrize("args", POLICY_ACCEPTS.values(), ids=POLICY_ACCEPTS.keys())
def test_policy_accepts(kernel: Kernel, clock: ManualClock, args: dict[str, Any]) -> None:
    clock.set(NOW)
    result = call(kernel, "memory.write", args)
    assert result.ok, result.error


# --------------------------------------------------------------------------------------------------
# invalid_args, invalid_principal, unknown_syscall, no_memory_service


INVALID_ARGS: dict[str, tuple[str, object]] = {
    "list: user_id not a string": ("memory.list", {"user_id": 5}),
    "list: include_inactive not a bool": ("memory.list", {"user_id": "u1", "include_inactive": "yes"}),
    "list: include_inactive an int": ("memory.list", {"user_id": "u1", "include_inactive": 1}),
    "list: unknown field": ("memory.list", {"user_id": "u1", "limit": 10}),
    "list: missing user_id": ("memory.list", {}),
    "list: no args at all": ("memory.list", None),
    "list: empty user_id": ("memory.list", {"user_id": ""}),
    "list: user_id of 129 chars": ("memory.list", {"user_id": "u" * 129}),
    "list: user_id with NUL": ("memory.list", {"user_id": "u\x00"}),
    "list: user_id with a trailing newline": ("memory.list", {"user_id": "u1\n"}),
    "list: NaN": ("memory.list", {"user_id": "u1", "include_inactive": math.nan}),
    "list: infinity": ("memory.list", {"user_id": "u1", "x": -math.inf}),
    "list: 2**63": ("memory.list", {"user_id": "u1", "include_inactive": 2**63}),
    "list: huge int": ("memory.list", {"user_id": "u1", "include_inactive": 10**40}),
    "list: -2**63-1": ("memory.list", {"user_id": "u1", "include_inactive": -(2**63) - 1}),
    "list: args a list": ("memory.list", ["u1"]),
    "list: args a string": ("memory.list", "u1"),
    "list: args an int": ("memory.list", 7),
    "list: args bytes": ("memory.list", b'{"user_id":"u1"}'),
    "list: args a set": ("memory.list", {"u1"}),
    "list: args an object": ("memory.list", object()),
    "list: lone surrogate": ("memory.list", {"user_id": "u\udc00"}),
    "list: non-string key": ("memory.list", {"user_id": "u1", 1: 2}),
    "list: deep nesting": ("memory.list", {"user_id": "u1", "x": nested_lists(1000)}),
    "list: over the size limit": ("memory.list", {"user_id": "u1", "x": "a" * MAX_ARGS_BYTES}),
    "get: key not a string": ("memory.get", {"user_id": "u1", "key": None}),
    "get: key missing": ("memory.get", {"user_id": "u1"}),
    "snapshot: unknown field": ("memory.snapshot", {"user_id": "u1", "include_inactive": True}),
    "write: unknown memory_type": ("memory.write", write_args(memory_type="fact")),
    "write: naive expires_at": ("memory.write", write_args(expires_at="2026-01-02T00:00:00")),
    "write: expires_at not a time": ("memory.write", write_args(expires_at="tomorrow")),
    "write: expires_at a datetime object": ("memory.write", write_args(expires_at=T0 + HOUR)),
    "write: replace not a bool": ("memory.write", write_args(replace="true")),
    "write: empty source": ("memory.write", write_args(source="")),
    "write: source of 65 chars": ("memory.write", write_args(source="s" * 65)),
    "write: notes of 1025 chars": ("memory.write", write_args(notes="n" * 1025)),
    "write: value_ref a number": ("memory.write", write_args(value_ref=1.5)),
    "write: governance unknown lever": ("memory.write", write_args(governance={"colour": "red"})),
    "write: governance bad value": ("memory.write", write_args(governance={"visibility": "public"})),
    "write: value field": ("memory.write", write_args(value="fr")),
}


@pytest.mark.parametrize(("name", "args"), INVALID_ARGS.values(), ids=INVALID_ARGS.keys())
def test_invalid_args(seeded: Kernel, name: str, args: object) -> None:
    before = state_rows(seeded)
    assert_refused(seeded, call(seeded, name, args), "invalid_args", before)


def test_unencodable_args_are_journaled_as_a_refusal_marker(kernel: Kernel) -> None:
    result = call(kernel, "memory.list", {"user_id": "u1", "include_inactive": math.nan})
    assert "non-finite" in result.error.detail  # type: ignore[union-attr]
    [entry] = journal_entries(kernel)
    assert decode(entry.args) == {
        "$refused_args": "arguments have no JSON form: non-finite float has no canonical form"
    }
    huge = call(kernel, "memory.list", {"user_id": "u1", "include_inactive": 2**64})
    assert "64-bit" in huge.error.detail  # type: ignore[union-attr]


def test_largest_signed_64_bit_integers_are_recorded_as_is(kernel: Kernel) -> None:
    for value in (2**63 - 1, -(2**63)):
        args = {"user_id": "u1", "include_inactive": value}
        result = call(kernel, "memory.list", args)
        assert result.error is not None and result.error.code == "invalid_args"
        assert "64-bit" not in result.error.detail
        assert journal_entries(kernel)[-1].args == canonical_bytes(args)


@pytest.mark.parametrize(
    "principal",
    ["", "\x00", "user\nname", "user:\t", "\x7f", "x" * 257, None, 42, b"user:u1", "user:\ud800", object()],
    ids=stable_id,
)
def test_invalid_principal(seeded: Kernel, principal: object) -> None:
    before = state_rows(seeded)
    assert_refused(
        seeded, call(seeded, "memory.list", {"user_id": "u1"}, principal), "invalid_principal", before
    )
    # the journaled form: the string itself, or "" when it cannot be stored alike on every backend
    # (not a string, too long, not encodable, or holding NUL, which PostgreSQL text cannot hold)
    expected = (
        principal
        if isinstance(principal, str)
        and len(principal) <= 256
        and "\ud800" not in principal
        and "\x00" not in principal
        else ""
    )
    assert journal_entries(seeded)[-1].principal == expected


def test_principal_is_checked_before_the_name(kernel: Kernel) -> None:
    result = call(kernel, "memory.nothing", {}, principal="")
    assert result.error is not None and result.error.code == "invalid_principal"


def test_longest_principal_is_accepted(kernel: Kernel) -> None:
    administrator = "operator:" + "p" * 247
    assert len(administrator) == 256
    assert call(kernel, "memory.list", {"user_id": "u1"}, principal=administrator).ok
    # a principal of 256 characters with no right is accepted as a principal, then refused by the rule
    refused = call(kernel, "memory.list", {"user_id": "u1"}, principal="p" * 256)
    assert refused.error is not None and refused.error.code == "memory_policy_denied"
    assert journal_entries(kernel)[-1].principal == "p" * 256


@pytest.mark.parametrize(
    "name",
    [
        "memory.delete",
        "memory.put",
        "MEMORY.LIST",
        "memory.list ",
        "",
        "m" * 129,
        "memory.\ud800",
        None,
        3,
        object(),
    ],
    ids=stable_id,
)
def test_unknown_syscall(seeded: Kernel, name: object) -> None:
    before = state_rows(seeded)
    assert_refused(seeded, call(seeded, name, {"user_id": "u1"}), "unknown_syscall", before)
    recorded = journal_entries(seeded)[-1].syscall
    assert recorded == (name if isinstance(name, str) and len(name) <= 128 and "\ud800" not in name else "")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("memory.list", {"user_id": "u1"}),
        ("memory.get", key_args("language")),
        ("memory.snapshot", {"user_id": "u1"}),
        ("memory.write", write_args("language")),
        ("memory.revoke", key_args("language")),
    ],
)
def test_no_memory_service(no_memory_kernel: Kernel, name: str, args: dict[str, Any]) -> None:
    assert_refused(no_memory_kernel, call(no_memory_kernel, name, args), "no_memory_service", [])


def test_no_memory_service_still_checks_shape_and_name(no_memory_kernel: Kernel) -> None:
    bad_args = call(no_memory_kernel, "memory.list", {"user_id": 1})
    assert_refused(no_memory_kernel, bad_args, "invalid_args", [])
    unknown = call(no_memory_kernel, "memory.delete", {"user_id": "u1"})
    assert_refused(no_memory_kernel, unknown, "unknown_syscall", [])


# --------------------------------------------------------------------------------------------------
# internal_error, handler refusals, atomicity (a kernel over a table of test syscalls)


class EchoArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    text: str


def _echo(ctx: CallContext, args: EchoArgs) -> dict[str, Any]:
    return {"text": args.text, "seq": ctx.seq, "now": format_time(ctx.now), "principal": ctx.principal}


def _write_then_fail(ctx: CallContext, args: EchoArgs) -> None:
    from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
    from arvis.memory.memory_service import insert_entry

    entry = MemoryLongEntry(
        memory_type=MemoryLongType.RULE, key=args.text, created_at=ctx.now, source="proposed"
    )
    decided = insert_entry("u1", entry, version=1, seq=ctx.seq)
    raise ZeroDivisionError(f"handler bug, {decided.table} decided")


def _refuse(ctx: CallContext, args: EchoArgs) -> None:
    raise KernelError(ErrorCode.MEMORY_POLICY_DENIED, f"refused {args.text}")


def _test_spec(name: str, handler: Handler, *, mutates: bool, summary: str) -> SyscallSpec:
    return SyscallSpec(
        name=name,
        request_type=EchoArgs,
        handler=handler,
        mutates=mutates,
        service=Service.MEMORY,
        support=Support.EXTENSION,
        summary=summary,
    )


@pytest.fixture
def test_kernel(kernel: Kernel) -> Kernel:
    """The same store and clock, with a table of test syscalls."""
    table = SyscallTable(
        [
            _test_spec("test.echo", _echo, mutates=False, summary="echo"),
            _test_spec("test.write_then_fail", _write_then_fail, mutates=True, summary="write, then raise"),
            _test_spec("test.refuse", _refuse, mutates=False, summary="raise a KernelError"),
        ]
    )
    return Kernel(table=table, services=default_services(), store=kernel.store, clock=kernel.clock)


def test_handler_sees_the_calls_seq_time_and_principal(test_kernel: Kernel, clock: ManualClock) -> None:
    clock.set(T0 + HOUR)
    result = call(test_kernel, "test.echo", {"text": "hi"}, principal="agent:x")
    assert result.value == {"text": "hi", "seq": 1, "now": fmt(T0 + HOUR), "principal": "agent:x"}
    assert journal_entries(test_kernel)[0].recorded_at == fmt(T0 + HOUR)


def test_handler_exception_is_internal_error_and_rolls_back(test_kernel: Kernel) -> None:
    result = call(test_kernel, "test.write_then_fail", {"text": "k"})
    assert_refused(test_kernel, result, "internal_error", [])
    assert result.error.detail == "ZeroDivisionError"  # type: ignore[union-attr]


def test_kernel_error_from_a_handler_keeps_its_code(test_kernel: Kernel) -> None:
    result = call(test_kernel, "test.refuse", {"text": "this"})
    assert_refused(test_kernel, result, "memory_policy_denied", [])
    assert result.error.detail == "refused this"  # type: ignore[union-attr]


class BrokenClock:
    def now(self) -> datetime:
        raise OSError("clock gone")


def test_a_broken_clock_is_an_unacknowledged_internal_error(seeded: Kernel) -> None:
    count = len(journal_entries(seeded))
    seeded.clock = BrokenClock()
    result = call(seeded, "memory.list", {"user_id": "u1"})
    assert result == SyscallResult(
        ok=False, seq=None, error=SyscallError.of(ErrorCode.INTERNAL_ERROR, "OSError")
    )
    assert len(journal_entries(seeded)) == count


def test_execute_with_a_malformed_recorded_time_is_unacknowledged(kernel: Kernel) -> None:
    recorded = RecordedCall(
        syscall="memory.list", principal="p", args=b'{"user_id":"u1"}', recorded_at="soon"
    )
    result = kernel._execute_recorded(recorded)
    assert (result.ok, result.seq, result.error.code) == (False, None, "internal_error")  # type: ignore[union-attr]
    assert journal_entries(kernel) == []


def test_execute_replays_a_recorded_call(kernel: Kernel) -> None:
    recorded = RecordedCall(
        syscall="memory.write",
        principal="user:u1",
        args=canonical_bytes(write_args("timezone")),
        recorded_at="2026-05-05T05:05:05.000005Z",
    )
    result = kernel._execute_recorded(recorded)
    assert result.ok
    assert result.value["entry"]["created_at"] == "2026-05-05T05:05:05.000005Z"


# --------------------------------------------------------------------------------------------------
# results and clock


def test_result_aliases_and_dict_form(kernel: Kernel) -> None:
    ok = call(kernel, "memory.list", {"user_id": "u1"})
    assert ok.success is True and ok.result == ok.value
    assert ok.to_dict() == {"ok": True, "value": ok.value, "seq": 1}
    refused = call(kernel, "memory.get", key_args("x"))
    assert refused.to_dict() == {
        "ok": False,
        "error": {
            "code": "memory_entry_not_found",
            "message": ERROR_MESSAGES[ErrorCode.MEMORY_ENTRY_NOT_FOUND],
            "detail": "no entry for key 'x'",
        },
        "seq": 2,
    }


def test_every_error_code_has_a_message() -> None:
    assert set(ERROR_MESSAGES) == set(ErrorCode)
    assert all(message for message in ERROR_MESSAGES.values())


def test_manual_clock() -> None:
    clock = ManualClock(T0, step=timedelta(seconds=2))
    assert [clock.now(), clock.now()] == [T0, T0 + timedelta(seconds=2)]
    clock.advance(timedelta(days=1))
    assert clock.now() == T0 + timedelta(days=1, seconds=4)
    clock.set(datetime(2030, 1, 1, 1, tzinfo=timezone(timedelta(hours=1))))
    assert clock.now() == datetime(2030, 1, 1, tzinfo=UTC)
    with pytest.raises(ValueError, match="aware"):
        ManualClock(datetime(2026, 1, 1))


def test_manual_clock_set_refuses_naive() -> None:
    clock = ManualClock(T0)
    with pytest.raises(ValueError):
        clock.set(datetime(2026, 1, 1))


# --------------------------------------------------------------------------------------------------
# regressions: bugs this suite found, since fixed


def test_args_that_raise_on_inspection_are_a_journaled_refusal(seeded: Kernel) -> None:
    before = state_rows(seeded)
    result = call(seeded, "memory.list", RaisingMapping(user_id="u1"))
    assert_refused(seeded, result, "invalid_args", before)
    assert "RuntimeError" in result.error.detail  # type: ignore[union-attr]


def test_memoryview_args_are_invalid(seeded: Kernel) -> None:
    before = state_rows(seeded)
    result = call(seeded, "memory.list", {"user_id": memoryview(b"u")})
    assert_refused(seeded, result, "invalid_args", before)


@pytest.mark.parametrize("user_id", ["u\x85", "\x9fu"])
def test_user_id_with_c1_control_is_invalid(seeded: Kernel, user_id: str) -> None:
    before = state_rows(seeded)
    assert_refused(seeded, call(seeded, "memory.list", {"user_id": user_id}), "invalid_args", before)


# --------------------------------------------------------------------------------------------------
# SyscallResult: the journaled bytes, decoded on first access


def test_an_accepted_result_is_its_journal_entry_decoded_on_access(kernel: Kernel) -> None:
    result = call(kernel, "memory.write", write_args("lazy_key"))
    entry = journal_entries(kernel)[-1]
    assert entry.seq == result.seq
    assert result.value == decode(entry.result)["value"]
    assert result.value is result.value  # decoded once
    assert result == SyscallResult(ok=True, seq=result.seq, value=decode(entry.result)["value"])
    assert result != SyscallResult(ok=True, seq=result.seq, value={})
    assert "lazy_key" in repr(result)
    with pytest.raises(AttributeError, match="immutable"):
        result.ok = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(result)

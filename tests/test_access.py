"""Capability-based access control (``arvis/access.py``, ``syscalls/access.py``).

A principal ``user:<id>`` holds read, write and revoke on its own user; ``admin:<name>`` and
``operator:<name>`` are administrators; everyone else acts on a user's long-term memory only through
grants, which administrators (or holders of the ``admin`` capability) give and withdraw with journaled
``access.*`` calls. Every refusal is ``memory_policy_denied``, journaled like any call, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import (
    T0,
    VOUCHED,
    fresh_kernel,
    journal_entries,
    key_args,
    state_rows,
    valid_principals,
    write_args,
)

from arvis.access import Capability, Grant, allows
from journal.entry import EMPTY_EFFECTS_HASH
from journal.reader import JournalReader
from journal.state import state_digest
from journal.store import ManualClock
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from kernel.errors import ERROR_MESSAGES, ErrorCode
from kernel.pipeline import PipelineError, pipeline
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

OPERATOR = "operator:test"
AGENT = "agent:planner"
DENIED = "memory_policy_denied"

CAPABILITY_OF = {
    "memory.list": "read",
    "memory.get": "read",
    "memory.snapshot": "read",
    "memory.write": "write",
    "memory.revoke": "revoke",
}
MEMORY_CALLS = tuple(CAPABILITY_OF)


def memory_args(name: str, user: str = "u1", key: str = "language") -> dict[str, Any]:
    """Well-formed arguments of a ``memory.*`` call on ``user`` (a write that replaces: no conflict)."""
    if name == "memory.write":
        return write_args(key, user_id=user, replace=True)
    if name in ("memory.get", "memory.revoke"):
        return key_args(key, user_id=user)
    return {"user_id": user}


def typed(scope: str) -> str:
    """A user id's scope in a journal of the latest format (typed scopes): ``user:<id>``; ``*`` as is."""
    return scope if scope == "*" or scope.startswith("user:") else f"user:{scope}"


def grant_args(principal: str, capability: str, scope: str = "*") -> dict[str, Any]:
    return {"principal": principal, "capability": capability, "scope": typed(scope)}


def code(result: SyscallResult) -> str:
    return "ok" if result.ok else result.error.code  # type: ignore[union-attr]


def digest(kernel: Kernel) -> str:
    """The digest of every state table (memory entries, grants, runs, working memory)."""
    with kernel.store.engine.connect() as connection:
        return state_digest(connection)


def grant(kernel: Kernel, principal: str, capability: str, scope: str = "*") -> SyscallResult:
    result = kernel.call("access.grant", grant_args(principal, capability, scope), principal=OPERATOR)
    assert result.ok, result.error
    return result


def withdraw(kernel: Kernel, principal: str, capability: str, scope: str = "*") -> SyscallResult:
    result = kernel.call("access.revoke", grant_args(principal, capability, scope), principal=OPERATOR)
    assert result.ok, result.error
    return result


def assert_denied(kernel: Kernel, name: str, args: Any, principal: str, capability: str, scope: str) -> None:
    """The call is refused by the access rule, journaled at the next seq, and changes no state."""
    before, count = digest(kernel), len(journal_entries(kernel))
    result = kernel.call(name, args, principal=principal)
    assert (result.ok, code(result)) == (False, DENIED), result
    assert result.error is not None
    assert result.error.message == ERROR_MESSAGES[ErrorCode.MEMORY_POLICY_DENIED]
    assert result.error.detail == f"principal '{principal}' may not {capability} '{scope}'"
    entries = journal_entries(kernel)
    assert result.seq == count + 1 == len(entries)
    last = entries[-1]
    assert (last.syscall, last.principal, last.status) == (name, principal, DENIED)
    assert last.effects_hash == EMPTY_EFFECTS_HASH
    assert digest(kernel) == before


def assert_allowed(kernel: Kernel, name: str, args: Any, principal: str) -> SyscallResult:
    result = kernel.call(name, args, principal=principal)
    assert result.ok, result.error
    return result


@pytest.fixture
def seeded(kernel: Kernel) -> Kernel:
    """u1 and u2 each hold one entry, ``language``, written by their owners."""
    for user in ("u1", "u2"):
        assert_allowed(kernel, "memory.write", write_args("language", user_id=user), f"user:{user}")
    return kernel


# --------------------------------------------------------------------------------------------------
# owners


def test_owner_may_read_write_and_revoke_its_own_user(kernel: Kernel) -> None:
    owner = "user:u1"
    assert_allowed(kernel, "memory.write", write_args("language"), owner)
    assert assert_allowed(kernel, "memory.get", key_args("language"), owner).value["status"] == "active"
    assert assert_allowed(kernel, "memory.list", {"user_id": "u1"}, owner).value["count"] == 1
    snapshot = assert_allowed(kernel, "memory.snapshot", {"user_id": "u1"}, owner).value
    assert [entry["key"] for entry in snapshot["snapshot"]["active_entries"]] == ["language"]
    assert assert_allowed(kernel, "memory.revoke", key_args("language"), owner).value["status"] == "revoked"


@pytest.mark.parametrize("name", MEMORY_CALLS)
def test_owner_may_do_nothing_on_another_user(seeded: Kernel, name: str) -> None:
    assert_denied(seeded, name, memory_args(name, "u2"), "user:u1", CAPABILITY_OF[name], "u2")
    # the other user's memory is as its owner left it
    listed = assert_allowed(seeded, "memory.list", {"user_id": "u2", "include_inactive": True}, "user:u2")
    assert [(item["entry"]["key"], item["status"]) for item in listed.value["entries"]] == [
        ("language", "active")
    ]


@pytest.mark.parametrize(
    ("principal", "user"),
    [
        ("user:", "u1"),  # an empty id is no one's
        ("user:u1", "u10"),  # no prefix matching
        ("user:u10", "u1"),
        ("user:u1 ", "u1"),
        ("User:u1", "u1"),  # the prefix is case-sensitive
        ("users:u1", "u1"),
        ("u1", "u1"),  # the bare id is not the user
        ("user:user:u1", "u1"),
    ],
)
def test_only_user_colon_the_exact_id_is_an_owner(kernel: Kernel, principal: str, user: str) -> None:
    assert_allowed(kernel, "memory.write", write_args("language", user_id=user), f"user:{user}")
    for name in MEMORY_CALLS:
        assert_denied(kernel, name, memory_args(name, user), principal, CAPABILITY_OF[name], user)


def test_a_user_id_holding_a_colon_has_its_owner(kernel: Kernel) -> None:
    assert_allowed(kernel, "memory.write", write_args("language", user_id="org:7"), "user:org:7")
    assert_denied(kernel, "memory.get", key_args("language", user_id="org:7"), "user:org", "read", "org:7")


def test_an_owner_may_not_grant_itself_or_others_anything(seeded: Kernel) -> None:
    for name in ("access.grant", "access.revoke"):
        for args in (grant_args("user:u1", "read", "u2"), grant_args(AGENT, "read", "u1")):
            assert_denied(seeded, name, args, "user:u1", "admin", "*")
    assert_denied(seeded, "memory.get", key_args("language", user_id="u2"), "user:u1", "read", "u2")


# --------------------------------------------------------------------------------------------------
# agents, services and anyone else: grants


@pytest.mark.parametrize("principal", [AGENT, "service:onboarding", "audit", "a", "operator:", "admin:"])
@pytest.mark.parametrize("name", MEMORY_CALLS)
def test_a_principal_without_a_grant_is_refused(seeded: Kernel, principal: str, name: str) -> None:
    rows = state_rows(seeded)
    assert_denied(seeded, name, memory_args(name), principal, CAPABILITY_OF[name], "u1")
    assert state_rows(seeded) == rows


def test_grant_allows_and_withdrawing_it_refuses_again(seeded: Kernel) -> None:
    assert_denied(seeded, "memory.get", key_args("language"), AGENT, "read", "u1")
    granted = grant(seeded, AGENT, "read", "u1")
    assert granted.value == {"grant": grant_args(AGENT, "read", "u1"), "added": True}
    assert assert_allowed(seeded, "memory.get", key_args("language"), AGENT).value["status"] == "active"
    assert_allowed(seeded, "memory.list", {"user_id": "u1"}, AGENT)
    assert_allowed(seeded, "memory.snapshot", {"user_id": "u1"}, AGENT)
    # read is not write, nor revoke, nor another user
    assert_denied(seeded, "memory.write", memory_args("memory.write"), AGENT, "write", "u1")
    assert_denied(seeded, "memory.revoke", key_args("language"), AGENT, "revoke", "u1")
    assert_denied(seeded, "memory.get", key_args("language", user_id="u2"), AGENT, "read", "u2")

    removed = withdraw(seeded, AGENT, "read", "u1")
    assert removed.value == {"grant": grant_args(AGENT, "read", "u1"), "removed": True}
    for name in ("memory.get", "memory.list", "memory.snapshot"):
        assert_denied(seeded, name, memory_args(name), AGENT, "read", "u1")
    # every step is in the journal, by whom it was done
    trail = [
        (e.syscall, e.principal, e.status) for e in journal_entries(seeded) if e.syscall.startswith("access.")
    ]
    assert trail == [("access.grant", OPERATOR, "ok"), ("access.revoke", OPERATOR, "ok")]


@pytest.mark.parametrize("capability", ["read", "write", "revoke"])
def test_each_capability_covers_its_calls_only(seeded: Kernel, capability: str) -> None:
    grant(seeded, AGENT, capability, "u1")
    for name in MEMORY_CALLS:
        if CAPABILITY_OF[name] == capability:
            assert_allowed(seeded, name, memory_args(name), AGENT)
        else:
            assert_denied(seeded, name, memory_args(name), AGENT, CAPABILITY_OF[name], "u1")


def test_a_write_grant_lets_a_service_write_for_the_user(kernel: Kernel) -> None:
    service = "service:onboarding"
    grant(kernel, service, "write", "u1")
    args = write_args("timezone", source="onboarding", value_ref="Europe/Paris")
    written = assert_allowed(kernel, "memory.write", args, service)
    assert written.value["entry"]["source"] == "onboarding"
    [entry] = [e for e in journal_entries(kernel) if e.syscall == "memory.write"]
    assert entry.principal == service


def test_scope_star_covers_every_user(seeded: Kernel) -> None:
    grant(seeded, "audit", "read", "*")
    for user in ("u1", "u2", "someone-never-seen"):
        assert_allowed(seeded, "memory.list", {"user_id": user, "include_inactive": True}, "audit")
        assert_allowed(seeded, "memory.snapshot", {"user_id": user}, "audit")
    assert_denied(seeded, "memory.write", memory_args("memory.write", "u2"), "audit", "write", "u2")


def test_a_grant_on_one_user_covers_no_other(seeded: Kernel) -> None:
    grant(seeded, AGENT, "write", "u1")
    assert_allowed(seeded, "memory.write", memory_args("memory.write", "u1"), AGENT)
    assert_denied(seeded, "memory.write", memory_args("memory.write", "u2"), AGENT, "write", "u2")


def test_a_grant_is_for_its_principal_exactly(seeded: Kernel) -> None:
    grant(seeded, AGENT, "read", "u1")
    for other in ("agent:planner2", "agent:Planner", "agent:", "agent:planner "):
        assert_denied(seeded, "memory.get", key_args("language"), other, "read", "u1")


def test_granting_twice_and_withdrawing_what_is_not_there_change_nothing(seeded: Kernel) -> None:
    assert grant(seeded, AGENT, "read", "u1").value["added"] is True
    before = digest(seeded)
    assert grant(seeded, AGENT, "read", "u1").value["added"] is False
    assert digest(seeded) == before
    assert journal_entries(seeded)[-1].effects_hash == EMPTY_EFFECTS_HASH
    assert withdraw(seeded, AGENT, "write", "u1").value["removed"] is False
    assert digest(seeded) == before
    listed = assert_allowed(seeded, "access.list", {"principal": AGENT}, OPERATOR)
    assert listed.value == {"grants": [grant_args(AGENT, "read", "u1")]}


def test_grant_scope_defaults_to_every_user(seeded: Kernel) -> None:
    granted = assert_allowed(seeded, "access.grant", {"principal": AGENT, "capability": "read"}, OPERATOR)
    assert granted.value["grant"] == grant_args(AGENT, "read", "*")
    assert_allowed(seeded, "memory.get", key_args("language", user_id="u2"), AGENT)


@pytest.mark.parametrize(
    "args",
    [
        {"principal": AGENT, "capability": "everything"},
        {"principal": AGENT, "capability": "READ"},
        {"principal": "", "capability": "read"},
        {"principal": "agent:\x01", "capability": "read"},
        {"principal": AGENT, "capability": "read", "scope": ""},
        {"principal": AGENT, "capability": "read", "scope": "u1", "until": "tomorrow"},
        {"capability": "read"},
        {"principal": AGENT},
    ],
)
def test_malformed_grants_are_invalid_args(seeded: Kernel, args: dict[str, Any]) -> None:
    before = digest(seeded)
    for name in ("access.grant", "access.revoke"):
        result = seeded.call(name, args, principal=OPERATOR)
        assert code(result) == "invalid_args", result
        assert journal_entries(seeded)[-1].status == "invalid_args"
    assert digest(seeded) == before


# --------------------------------------------------------------------------------------------------
# administrators


@pytest.mark.parametrize("administrator", ["operator:test", "operator:local", "admin:root", "admin:x:y"])
def test_administrators_may_act_on_any_user(seeded: Kernel, administrator: str) -> None:
    for user in ("u1", "u2"):
        for name in MEMORY_CALLS:
            assert_allowed(seeded, name, memory_args(name, user), administrator)


@pytest.mark.parametrize(
    "principal", [AGENT, "user:u1", "service:onboarding", "audit", "a", "operator:", "admin:", "Operator:x"]
)
def test_only_administrators_may_grant_revoke_or_list_others(seeded: Kernel, principal: str) -> None:
    grant(seeded, "audit", "read", "u1")
    assert_denied(seeded, "access.grant", grant_args(principal, "read", "u1"), principal, "admin", "*")
    assert_denied(seeded, "access.grant", grant_args("agent:other", "write"), principal, "admin", "*")
    assert_denied(seeded, "access.revoke", grant_args("audit", "read", "u1"), principal, "admin", "*")
    assert_denied(seeded, "access.list", {}, principal, "admin", "*")
    other = "audit" if principal != "audit" else AGENT
    assert_denied(seeded, "access.list", {"principal": other}, principal, "admin", "*")
    # nothing was granted or withdrawn along the way
    everything = assert_allowed(seeded, "access.list", {}, OPERATOR).value["grants"]
    assert everything == [grant_args("audit", "read", "u1")]


def test_a_scoped_admin_grant_covers_its_scope_only(seeded: Kernel) -> None:
    lead = "agent:lead"
    grant(seeded, lead, "admin", "u2")
    for name in MEMORY_CALLS:
        assert_allowed(seeded, name, memory_args(name, "u2"), lead)
    assert_denied(seeded, "memory.get", key_args("language"), lead, "read", "u1")
    assert_denied(seeded, "access.grant", grant_args(AGENT, "read", "u2"), lead, "admin", "*")


def test_the_admin_capability_makes_an_administrator(seeded: Kernel) -> None:
    lead = "agent:lead"
    assert_denied(seeded, "access.grant", grant_args(AGENT, "read", "u1"), lead, "admin", "*")
    grant(seeded, lead, "admin", "*")
    # it may grant, withdraw and list ...
    assert_allowed(seeded, "access.grant", grant_args(AGENT, "read", "u1"), lead)
    assert_allowed(seeded, "memory.get", key_args("language"), AGENT)
    assert assert_allowed(seeded, "access.list", {}, lead).value["grants"] == [
        grant_args(lead, "admin", "*"),  # ordered by principal, capability, scope
        grant_args(AGENT, "read", "u1"),
    ]
    assert_allowed(seeded, "access.revoke", grant_args(AGENT, "read", "u1"), lead)
    assert_denied(seeded, "memory.get", key_args("language"), AGENT, "read", "u1")
    # ... and act on any user's memory
    for name in MEMORY_CALLS:
        assert_allowed(seeded, name, memory_args(name, "u2"), lead)
    # until an administrator withdraws it
    withdraw(seeded, lead, "admin", "*")
    assert_denied(seeded, "access.grant", grant_args(AGENT, "read", "u1"), lead, "admin", "*")
    assert_denied(seeded, "memory.list", {"user_id": "u2"}, lead, "read", "u2")


def test_a_principal_may_list_its_own_grants(seeded: Kernel) -> None:
    assert assert_allowed(seeded, "access.list", {"principal": AGENT}, AGENT).value == {"grants": []}
    grant(seeded, AGENT, "write", "u2")
    grant(seeded, AGENT, "read", "u1")
    grant(seeded, "audit", "read", "*")
    own = assert_allowed(seeded, "access.list", {"principal": AGENT}, AGENT).value["grants"]
    assert own == [grant_args(AGENT, "read", "u1"), grant_args(AGENT, "write", "u2")]
    # a list is a read: it changes nothing
    assert journal_entries(seeded)[-1].effects_hash == EMPTY_EFFECTS_HASH
    # but not everyone's, nor someone else's
    assert_denied(seeded, "access.list", {}, AGENT, "admin", "*")
    assert_denied(seeded, "access.list", {"principal": "audit"}, AGENT, "admin", "*")
    # an owner has no grants to list: its rights are the rule's
    assert assert_allowed(seeded, "access.list", {"principal": "user:u1"}, "user:u1").value == {"grants": []}


def test_access_calls_are_always_served(kernel_factory: Callable[..., Kernel]) -> None:
    """The access family needs no memory service: grants work in a kernel without one."""
    from kernel.registry import KernelServiceRegistry

    kernel = kernel_factory(services=KernelServiceRegistry(memory_service=None))
    assert grant(kernel, AGENT, "read", "u1").value["added"] is True
    assert assert_allowed(kernel, "access.list", {"principal": AGENT}, AGENT).value["grants"] == [
        grant_args(AGENT, "read", "u1")
    ]


# --------------------------------------------------------------------------------------------------
# pipeline runs


def test_a_run_needs_write_on_its_user_and_ends_by_its_principal_or_an_administrator(seeded: Kernel) -> None:
    """Format 2 (a new journal): holding a user's memory still takes ``write``; a run is stored as
    ``<principal>/<run_id>``, and another principal names it by that qualified id."""
    with (
        pytest.raises(PipelineError) as refused,
        pipeline(seeded, user_id="u1", run_id="r0", principal=AGENT),
    ):
        pass
    assert refused.value.result.error is not None
    assert refused.value.result.error.detail == f"principal '{AGENT}' may not write 'u1'"
    assert journal_entries(seeded)[-1].status == DENIED

    grant(seeded, AGENT, "read", "u1")
    assert_denied(seeded, "pipeline.begin", {"user_id": "u1", "run_id": "r1"}, AGENT, "write", "u1")
    grant(seeded, AGENT, "write", "u1")
    assert_allowed(seeded, "pipeline.begin", {"user_id": "u1", "run_id": "r1"}, AGENT)
    # someone else may not end the agent's run, not even the user
    for other in ("agent:other", "user:u1"):
        assert_denied(seeded, "pipeline.end", {"run_id": f"{AGENT}/r1"}, other, "admin", "*")
    assert_allowed(seeded, "pipeline.end", {"run_id": "r1"}, AGENT)
    # an administrator may end anyone's run
    assert_allowed(seeded, "pipeline.begin", {"user_id": "u1", "run_id": "r2"}, AGENT)
    assert_allowed(seeded, "pipeline.end", {"run_id": f"{AGENT}/r2"}, OPERATOR)
    # the owner runs on its own memory without a grant
    with pipeline(seeded, user_id="u2", run_id="r3", principal="user:u2") as ctx:
        assert ctx.ir.memory_has_language_pref


# --------------------------------------------------------------------------------------------------
# grants are state: durable, replayed, and absent from databases older than them


def test_grants_survive_reopening_the_database(tmp_path: Path, kernel_factory: Callable[..., Kernel]) -> None:
    path = str(tmp_path / "journal.db")
    first = kernel_factory(path)
    assert_allowed(first, "memory.write", write_args("language"), "user:u1")
    grant(first, AGENT, "read", "u1")
    grant(first, "audit", "read", "*")
    withdraw(first, "audit", "read", "*")
    first.close()

    second = kernel_factory(path, clock=ManualClock(T0.replace(year=2027)))
    assert assert_allowed(second, "access.list", {}, OPERATOR).value["grants"] == [
        grant_args(AGENT, "read", "u1")
    ]
    assert assert_allowed(second, "memory.get", key_args("language"), AGENT).value["status"] == "active"
    assert_denied(second, "memory.list", {"user_id": "u1"}, "audit", "read", "u1")


def _verified(kernel: Kernel) -> Any:
    reader = JournalReader(kernel.store.engine)
    report = verify_journal(reader, table=SYSCALL_TABLE)
    assert report.verified, report.divergence
    assert report.replayed
    assert report.state_digest == digest(kernel)
    return report


def test_replay_verifies_a_journal_with_grants(kernel: Kernel) -> None:
    calls: list[tuple[str, dict[str, Any], str, str]] = [
        ("memory.write", write_args("language"), "user:u1", "ok"),
        ("memory.get", key_args("language"), AGENT, DENIED),
        ("access.grant", grant_args(AGENT, "read", "u1"), OPERATOR, "ok"),
        ("access.grant", grant_args(AGENT, "write", "*"), AGENT, DENIED),
        ("memory.get", key_args("language"), AGENT, "ok"),
        ("access.grant", grant_args("agent:lead", "admin"), "admin:root", "ok"),
        ("access.grant", grant_args("service:s", "write", "u1"), "agent:lead", "ok"),
        ("memory.write", write_args("timezone", source="onboarding"), "service:s", "ok"),
        ("memory.revoke", key_args("timezone"), "service:s", DENIED),
        ("access.list", {"principal": AGENT}, AGENT, "ok"),
        ("access.list", {}, AGENT, DENIED),
        ("access.revoke", grant_args(AGENT, "read", "u1"), OPERATOR, "ok"),
        ("memory.snapshot", {"user_id": "u1"}, AGENT, DENIED),
        ("memory.snapshot", {"user_id": "u1"}, "agent:lead", "ok"),
    ]
    for name, args, principal, expected in calls:
        assert code(kernel.call(name, args, principal=principal)) == expected, (name, principal)
    report = _verified(kernel)
    assert report.entries == len(calls)


def test_replay_applies_the_grants_in_force_at_each_seq(tmp_path: Path) -> None:
    """The same call by the same principal is refused, allowed, then refused again; replay agrees at
    every seq, and a journal that drops the grant no longer replays."""
    path = tmp_path / "journal.db"
    kernel = open_kernel(
        str(path), clock=ManualClock(T0), journal_id="j-access", identity=VOUCHED, create=True
    )
    try:
        read = ("memory.list", {"user_id": "u1"}, AGENT)
        outcomes = [code(kernel.call(*read[:2], principal=read[2]))]
        grant(kernel, AGENT, "read", "u1")
        outcomes.append(code(kernel.call(*read[:2], principal=read[2])))
        withdraw(kernel, AGENT, "read", "u1")
        outcomes.append(code(kernel.call(*read[:2], principal=read[2])))
        assert outcomes == [DENIED, "ok", DENIED]
        _verified(kernel)
    finally:
        kernel.close()


# --------------------------------------------------------------------------------------------------
# the property: every outcome is what the rule says for the grants in force


def _mostly(usual: list[str], rare: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """One of ``usual`` nine times in ten, else a draw of ``rare``."""
    return st.integers(0, 9).flatmap(lambda i: rare if i == 9 else st.sampled_from(usual))


ANY_PRINCIPAL = valid_principals.filter(str.isprintable) | st.sampled_from(
    ["user:", "operator:", "admin:", "a", "Operator:o", "agent:planner "]
)
GRANTEES = ["agent:lead", AGENT, "audit", "service:onboarding"]
GRANTERS = _mostly(["operator:o", "admin:root", "operator:o", "agent:lead", "user:u1", AGENT], ANY_PRINCIPAL)
CALLERS = _mostly([*GRANTEES, *GRANTEES, "user:u1", "user:u2", "operator:o"], ANY_PRINCIPAL)
USERS = st.sampled_from(["u1", "u2", "u3"])
SCOPES = st.sampled_from(["u1", "u2", "*"])
CAPABILITIES = st.sampled_from(["read", "read", "write", "write", "revoke", "admin", "canonize"])

steps = st.one_of(
    st.tuples(
        st.sampled_from(["access.grant", "access.grant", "access.revoke"]),
        GRANTERS,
        _mostly(GRANTEES, ANY_PRINCIPAL),
        CAPABILITIES,
        SCOPES,
    ),
    st.tuples(st.just("access.list"), CALLERS, st.none() | _mostly(GRANTEES, ANY_PRINCIPAL)),
    st.tuples(st.sampled_from(MEMORY_CALLS), CALLERS, USERS),
    st.tuples(st.sampled_from(MEMORY_CALLS), CALLERS, USERS),
)
"""(name, by, grantee, capability, scope) | ("access.list", by, whose) | (memory call, by, user)."""


def _sorted(grants: set[Grant]) -> list[dict[str, Any]]:
    ordered = sorted(grants, key=lambda g: (g.principal, g.capability.value, g.scope))
    return [grant_args(g.principal, g.capability.value, g.scope) for g in ordered]


@settings(max_examples=60, deadline=None)
@given(st.lists(steps, min_size=4, max_size=30))
def test_every_outcome_is_what_the_rule_says_for_the_grants_in_force(sequence: list[tuple[Any, ...]]) -> None:
    """For any sequence of grant, revoke, list and memory calls by any principals, each call's outcome is
    ``arvis.access.allows`` applied to the grants the calls so far put in force (tracked here, not read
    from the kernel); a refused call changes nothing; the whole journal then replays."""
    in_force: set[Grant] = set()

    def may(principal: str, capability: Capability, scope: str) -> bool:
        return allows(
            [g for g in in_force if g.principal == principal], principal, capability, scope, typed(scope)
        )

    with fresh_kernel(ManualClock(T0)) as kernel:
        for step in sequence:
            name, by = step[0], step[1]
            before = digest(kernel)
            if name in ("access.grant", "access.revoke"):
                _, _, grantee, capability, scope = step
                result = kernel.call(name, grant_args(grantee, capability, scope), principal=by)
                allowed = may(by, Capability.ADMIN, "*")
                target = Grant(grantee, Capability(capability), typed(scope))
                if allowed:
                    assert result.ok, result
                    if name == "access.grant":
                        assert result.value["added"] is (target not in in_force)
                        in_force.add(target)
                    else:
                        assert result.value["removed"] is (target in in_force)
                        in_force.discard(target)
            elif name == "access.list":
                whose = step[2]
                result = kernel.call(name, {} if whose is None else {"principal": whose}, principal=by)
                allowed = whose == by or may(by, Capability.ADMIN, "*")
                if allowed:
                    expected = in_force if whose is None else {g for g in in_force if g.principal == whose}
                    assert result.value == {"grants": _sorted(expected)}, result
            else:
                user = step[2]
                result = kernel.call(name, memory_args(name, user), principal=by)
                allowed = may(by, Capability(CAPABILITY_OF[name]), user)
                if allowed and not allows([], by, Capability(CAPABILITY_OF[name]), user, typed(user)):
                    event("a memory call allowed by a grant")
                if allowed:  # a memory rule may still refuse (nothing to revoke, ...), never the access rule
                    assert code(result) in {"ok", "memory_entry_not_found", "memory_entry_revoked"}, result
            event(f"{name.split('.')[0]} call {'allowed' if allowed else 'refused'}")
            if not allowed:
                assert code(result) == DENIED, result
                assert result.error is not None and " may not " in result.error.detail
                assert digest(kernel) == before
            assert result.seq is not None
            assert journal_entries(kernel)[-1].status == code(result)
        listed = kernel.call("access.list", {}, principal="operator:o")
        assert listed.value == {"grants": _sorted(in_force)}
        _verified(kernel)

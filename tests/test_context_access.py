"""Working memory per context (journal format 2, ``AccessRules.OWNED``; ``access-and-pipelines.md`` §1.7).

A context created in a format-2 journal is owned by the principal that created it. Its name is reserved:
``P/rest`` to the principal ``P``, any other name to the administrators. Every ``memory.awmu.*`` call is
decided against the context's owner and the caller's grants (scope: the context id) before anything says
whether the context exists: read for the read-only calls, write for the other calls that change it, operate
(seed, pin, unpin, archive) and review (canonize). A context's ``operators``/``canonizers`` patterns never
name a bare ``operator:``/``admin:``, and count only as far as the owner itself may operate or canonize.

A format-1 journal keeps the first release's rules exactly: the same attacks go through there as before.
Every journal here is verified by replay at the end, its replayed state digest equal to the stored one.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from strategies import T0, journal_entries

from arvis.access import (
    AccessRules,
    Capability,
    Grant,
    context_allows,
    context_canonizer,
    context_operator,
    pattern_names,
    reserved_to,
)
from journal.engine import open_engine
from journal.entry import EMPTY_EFFECTS_HASH
from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from journal.state import state_digest
from journal.store import ManualClock, SqlJournalStore
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

OPERATOR = "operator:o"
ADMIN = "admin:root"
SQUATTER = "agent:x"
STRANGER = "agent:s"
OWNER = "user:b"
OWNED = "user:b/notes"
DENIED = "memory_policy_denied"
NOT_FOUND = "awmu_context_not_found"
EVERYONE = {"operators": ["*"], "canonizers": ["*"]}

READS = ("list", "get", "assemble", "events", "pressure")
WRITES = ("propose", "turn", "validate_summary", "canonize")
OPERATES = ("seed", "pin", "unpin", "archive", "restore")


def _clock() -> ManualClock:
    return ManualClock(T0, step=timedelta(seconds=1))


def _format_1(path: Path) -> Kernel:
    """A kernel on a new format-1 journal, wired as ``syscalls.boot.open_kernel`` does."""
    clock = _clock()
    store = SqlJournalStore(open_engine(str(path)), clock=clock, format_version=1)
    return Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )


@pytest.fixture
def owned(tmp_path: Path) -> Iterator[Kernel]:
    clock = _clock()  # format 3: the owned rules, which every format-2 and -3 journal keeps
    store = SqlJournalStore(open_engine(str(tmp_path / "owned.db")), clock=clock, format_version=3)
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    assert kernel.access_rules == AccessRules.OWNED and FORMAT_VERSION > kernel.store.format_version == 3
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


@pytest.fixture
def first(tmp_path: Path) -> Iterator[Kernel]:
    kernel = _format_1(tmp_path / "first.db")
    assert kernel.access_rules == AccessRules.FIRST == kernel.store.format_version
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


# --- helpers ----------------------------------------------------------------------------------------


def _call(kernel: Kernel, name: str, args: dict[str, Any], principal: str) -> SyscallResult:
    return kernel.call(name if "." in name else f"memory.awmu.{name}", args, principal=principal)


def _ok(kernel: Kernel, name: str, args: dict[str, Any], principal: str) -> dict[str, Any]:
    result = _call(kernel, name, args, principal)
    assert result.ok, (name, principal, result.error)
    assert isinstance(result.value, dict)
    return result.value


def _digest(kernel: Kernel) -> str:
    with kernel.store.engine.connect() as connection:
        return state_digest(connection)


def _refused(
    kernel: Kernel, name: str, args: dict[str, Any], principal: str, code: str, detail: str | None = None
) -> SyscallResult:
    """Refused with ``code`` (and ``detail``), journaled at the next seq with no effect, changing no state."""
    before, count = _digest(kernel), len(journal_entries(kernel))
    result = _call(kernel, name, args, principal)
    assert result.error is not None, (name, principal, result)
    assert result.error.code == code, (name, principal, result.error)
    if detail is not None:
        assert result.error.detail == detail
    entries = journal_entries(kernel)
    assert result.seq == count + 1 == len(entries)
    assert (entries[-1].principal, entries[-1].status) == (principal, code)
    assert entries[-1].effects_hash == EMPTY_EFFECTS_HASH
    assert _digest(kernel) == before
    return result


def _denied(kernel: Kernel, name: str, args: dict[str, Any], principal: str, action: str) -> None:
    context_id = args["context_id"]
    _refused(
        kernel,
        name,
        args,
        principal,
        DENIED,
        f"principal '{principal}' may not {action} context '{context_id}'",
    )


def _verified(kernel: Kernel) -> None:
    report = verify_journal(JournalReader(kernel.store.engine), table=SYSCALL_TABLE)
    assert report.verified, report.divergence
    assert report.replayed and report.entries == len(journal_entries(kernel))
    assert report.state_digest == _digest(kernel)


def _owners(kernel: Kernel) -> list[tuple[str, str, int]]:
    with kernel.store.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT context_id, owner, created_seq FROM awmu_context_owners ORDER BY context_id"
        ).all()
    return [(str(a), str(b), int(c)) for a, b, c in rows]


def _grant(kernel: Kernel, principal: str, capability: str, scope: str) -> None:
    _ok(kernel, "access.grant", {"principal": principal, "capability": capability, "scope": scope}, OPERATOR)


def _create(kernel: Kernel, context_id: str, principal: str, **config: Any) -> dict[str, Any]:
    return _ok(kernel, "create", {"context_id": context_id, "config": config}, principal)


def _seed(kernel: Kernel, context_id: str, principal: str, text: str = "The vault code is 4471.") -> str:
    value = _ok(kernel, "seed", {"context_id": context_id, "text": text}, principal)
    unit_id: str = value["unit_id"]
    return unit_id


def _request(kernel: Kernel, context_id: str, unit_id: str, principal: str) -> str:
    value = _ok(kernel, "canonize", {"context_id": context_id, "unit_id": unit_id}, principal)
    request_id: str = value["request"]["request_id"]
    return request_id


def _review(request_id: str) -> dict[str, Any]:
    return {"request_id": request_id, "decision": "approve"}


def _args(name: str, context_id: str, unit_id: str = "u1-0") -> dict[str, Any]:
    """Well-formed arguments of every context call."""
    extra: dict[str, dict[str, Any]] = {
        "propose": {"text": "The vault code is 9999.", "source": "player", "confidence": 0.9},
        "seed": {"text": "The vault code is 1234."},
        "turn": {},
        "pin": {"unit_id": unit_id},
        "unpin": {"unit_id": unit_id},
        "archive": {"unit_id": unit_id},
        "restore": {"unit_id": unit_id},
        "canonize": {"unit_id": unit_id},
        "list": {},
        "get": {"unit_id": unit_id},
        "assemble": {},
        "events": {},
        "validate_summary": {"summary": "nothing"},
        "pressure": {},
    }
    return {"context_id": context_id, **extra[name]}


def _authority(kernel: Kernel, context_id: str, unit_id: str) -> str:
    unit = _ok(kernel, "get", {"context_id": context_id, "unit_id": unit_id}, ADMIN)["unit"]
    authority: str = unit["authority"]
    return authority


# --- the rules as functions ---------------------------------------------------------------------------


def test_reserved_names_and_patterns() -> None:
    assert reserved_to("user:b/notes") == "user:b"
    assert reserved_to("agent:x/chat/2") == "agent:x"
    assert reserved_to("chat-next") is None
    assert reserved_to("/chat") is None
    assert pattern_names("*", "agent:x") and pattern_names("operator:*", "operator:o")
    assert not pattern_names("*", "operator:") and not pattern_names("admin:*", "admin:")
    assert not pattern_names("operator:*", "agent:x")


def test_the_capability_functions() -> None:
    read_grant = [Grant("agent:r", Capability.READ, "c")]
    assert context_allows([], ADMIN, Capability.WRITE, "c", None)
    assert context_allows([], OWNER, Capability.READ, "c", OWNER)
    assert context_allows([], OWNER, Capability.WRITE, "c", OWNER)
    assert not context_allows([], STRANGER, Capability.READ, "c", OWNER)
    assert context_allows(read_grant, "agent:r", Capability.READ, "c", OWNER)
    assert not context_allows(read_grant, "agent:r", Capability.WRITE, "c", OWNER)
    assert context_allows([Grant("agent:a", Capability.ADMIN, "*")], "agent:a", Capability.WRITE, "c", OWNER)
    # operate: the owner, administrators, admin grants, and patterns only with a known owner
    assert context_operator([], OWNER, "c", OWNER, ())
    assert context_operator([], ADMIN, "c", None, ())
    assert context_operator([Grant("agent:a", Capability.ADMIN, "c")], "agent:a", "c", None, ())
    assert not context_operator([Grant("agent:w", Capability.WRITE, "c")], "agent:w", "c", OWNER, ())
    assert context_operator([], "agent:p", "c", OWNER, ("agent:*",))
    assert not context_operator([], "agent:p", "c", None, ("agent:*",))
    assert not context_operator([], "operator:", "c", OWNER, ("*",))
    # review: grants, or patterns where the owner itself may canonize; administrators by name are not
    assert context_canonizer([Grant("agent:c", Capability.CANONIZE, "c")], "agent:c", "c", OWNER, [], ())
    assert not context_canonizer([], ADMIN, "c", OPERATOR, [], ("agent:*",))
    assert context_canonizer([], "agent:p", "c", OPERATOR, [], ("agent:*",))
    assert not context_canonizer([], "agent:p", "c", OWNER, [], ("*",))
    owner_may = [Grant(OWNER, Capability.CANONIZE, "c")]
    assert context_canonizer([], "agent:p", "c", OWNER, owner_may, ("*",))
    assert not context_canonizer([], "admin:", "c", OPERATOR, [], ("*",))


# --- owners -----------------------------------------------------------------------------------------


def test_the_creator_owns_the_context_and_the_owner_row_is_an_effect(owned: Kernel) -> None:
    created = _call(owned, "create", {"context_id": OWNED}, OWNER)
    assert created.ok and created.seq == 1
    assert _owners(owned) == [(OWNED, OWNER, 1)]
    entry = journal_entries(owned)[-1]
    assert entry.effects_hash != EMPTY_EFFECTS_HASH
    # a refused creation records no owner
    _refused(owned, "create", {"context_id": OWNED}, OWNER, "awmu_context_exists")
    _refused(
        owned,
        "create",
        {"context_id": "user:b/bad", "config": {"min_rank": 900}},
        OWNER,
        "awmu_invalid_config",
    )
    assert _owners(owned) == [(OWNED, OWNER, 1)]


def test_a_format_1_journal_records_no_owner(first: Kernel) -> None:
    _create(first, "chat", SQUATTER)
    assert _owners(first) == []


# --- reserved names -----------------------------------------------------------------------------------


def test_a_name_without_a_principal_is_reserved_to_administrators(owned: Kernel) -> None:
    for name in ("chat-next", "/chat"):
        _refused(
            owned,
            "create",
            {"context_id": name, "config": EVERYONE},
            SQUATTER,
            DENIED,
            f"principal '{SQUATTER}' may not create context '{name}': the name is reserved to administrators",
        )
    for bare in ("operator:", "admin:"):
        _refused(owned, "create", {"context_id": "chat-next"}, bare, DENIED)
    _create(owned, "chat-next", OPERATOR)
    _create(owned, "chat-admin", ADMIN)
    assert _owners(owned) == [("chat-admin", ADMIN, 6), ("chat-next", OPERATOR, 5)]


def test_a_name_of_a_principal_is_reserved_to_it(owned: Kernel) -> None:
    _refused(
        owned,
        "create",
        {"context_id": OWNED},
        SQUATTER,
        DENIED,
        f"principal '{SQUATTER}' may not create context '{OWNED}': the name is reserved to '{OWNER}'",
    )
    _create(owned, OWNED, OWNER)
    _create(owned, "user:b/by-admin", OPERATOR)  # an administrator may create any name, and owns it
    _create(owned, f"{SQUATTER}/chat", SQUATTER)
    assert [owner for _, owner, _ in _owners(owned)] == [SQUATTER, OPERATOR, OWNER]


def test_the_reservation_is_checked_before_the_name_is_found_taken(owned: Kernel) -> None:
    _create(owned, OWNED, OWNER)
    _refused(owned, "create", {"context_id": OWNED}, SQUATTER, DENIED)  # not awmu_context_exists
    _refused(owned, "create", {"context_id": OWNED}, OWNER, "awmu_context_exists")


def test_a_write_grant_on_the_name_lets_a_principal_create_it(owned: Kernel) -> None:
    _refused(owned, "create", {"context_id": "team"}, SQUATTER, DENIED)
    _grant(owned, SQUATTER, "read", "team")  # read is not enough
    _refused(owned, "create", {"context_id": "team"}, SQUATTER, DENIED)
    _grant(owned, SQUATTER, "write", "team")
    _create(owned, "team", SQUATTER)
    _refused(owned, "create", {"context_id": "team-2"}, SQUATTER, DENIED)  # that name only
    _grant(owned, "agent:a", "admin", "*")
    _create(owned, "team-2", "agent:a")
    assert _owners(owned) == [("team", SQUATTER, 5), ("team-2", "agent:a", 8)]


# --- read and write ---------------------------------------------------------------------------------


@pytest.fixture
def notes(owned: Kernel) -> tuple[Kernel, str]:
    """user:b's context with one seeded unit (its id returned)."""
    _create(owned, OWNED, OWNER)
    return owned, _seed(owned, OWNED, OWNER)


def test_a_stranger_can_neither_read_nor_write_someone_elses_context(notes: tuple[Kernel, str]) -> None:
    kernel, unit_id = notes
    for name in READS:
        _denied(kernel, name, _args(name, OWNED, unit_id), STRANGER, "read")
    for name in WRITES:
        _denied(kernel, name, _args(name, OWNED, unit_id), STRANGER, "write")
    for name in OPERATES:
        _denied(kernel, name, _args(name, OWNED, unit_id), STRANGER, "operate")


def test_the_owner_and_administrators_read_and_write(notes: tuple[Kernel, str]) -> None:
    kernel, unit_id = notes
    for principal in (OWNER, ADMIN):
        for name in (*READS, "propose", "turn", "validate_summary"):
            _ok(kernel, name, _args(name, OWNED, unit_id), principal)
    _ok(kernel, "canonize", _args("canonize", OWNED, unit_id), OWNER)


def test_a_read_grant_allows_reading_but_not_proposing(notes: tuple[Kernel, str]) -> None:
    kernel, unit_id = notes
    _grant(kernel, "agent:r", "read", OWNED)
    for name in READS:
        _ok(kernel, name, _args(name, OWNED, unit_id), "agent:r")
    for name in WRITES:
        _denied(kernel, name, _args(name, OWNED, unit_id), "agent:r", "write")
    for name in OPERATES:
        _denied(kernel, name, _args(name, OWNED, unit_id), "agent:r", "operate")
    _denied(kernel, "list", _args("list", "user:b/other", unit_id), "agent:r", "read")  # that context only


def test_a_write_grant_allows_proposing_but_neither_reading_nor_operating(notes: tuple[Kernel, str]) -> None:
    kernel, unit_id = notes
    _grant(kernel, "agent:w", "write", OWNED)
    for name in WRITES:
        _ok(kernel, name, _args(name, OWNED, unit_id), "agent:w")
    _denied(kernel, "list", _args("list", OWNED), "agent:w", "read")
    _denied(kernel, "seed", _args("seed", OWNED), "agent:w", "operate")
    _grant(kernel, "agent:any", "read", "*")
    _ok(kernel, "assemble", _args("assemble", OWNED), "agent:any")


def test_access_is_checked_before_the_context_is_found(owned: Kernel) -> None:
    for name in (*READS, *WRITES):
        _refused(owned, name, _args(name, "nowhere"), STRANGER, DENIED)
    for name in OPERATES:
        _refused(owned, name, _args(name, "nowhere"), STRANGER, DENIED)
    for name in (*READS, *WRITES, *OPERATES):
        _refused(owned, name, _args(name, "nowhere"), ADMIN, NOT_FOUND)
    _grant(owned, "agent:r", "read", "*")
    for name in READS:
        _refused(owned, name, _args(name, "nowhere"), "agent:r", NOT_FOUND)
    _refused(owned, "propose", _args("propose", "nowhere"), "agent:r", DENIED)
    _grant(owned, "agent:a", "admin", "nowhere")
    for name in (*READS, *WRITES, *OPERATES):
        _refused(owned, name, _args(name, "nowhere"), "agent:a", NOT_FOUND)


# --- operate -------------------------------------------------------------------------------------------


def test_the_owner_operates_its_context_whatever_its_operators(owned: Kernel) -> None:
    mine = f"{SQUATTER}/chat"
    _create(owned, mine, SQUATTER)  # default operators: operator:*, admin:* (not the owner)
    unit_id = _seed(owned, mine, SQUATTER)
    _ok(owned, "pin", {"context_id": mine, "unit_id": unit_id}, SQUATTER)
    _ok(owned, "unpin", {"context_id": mine, "unit_id": unit_id}, SQUATTER)
    _ok(owned, "archive", {"context_id": mine, "unit_id": unit_id}, SQUATTER)
    _seed(owned, mine, OPERATOR, "An administrator's seed.")  # an administrator operates anywhere


def test_an_admin_grant_operates_a_write_grant_does_not(notes: tuple[Kernel, str]) -> None:
    kernel, unit_id = notes
    _grant(kernel, "agent:w", "write", OWNED)
    _denied(kernel, "pin", _args("pin", OWNED, unit_id), "agent:w", "operate")
    _grant(kernel, "agent:a", "admin", OWNED)
    _ok(kernel, "pin", _args("pin", OWNED, unit_id), "agent:a")
    _grant(kernel, "agent:everywhere", "admin", "*")
    _ok(kernel, "unpin", _args("unpin", OWNED, unit_id), "agent:everywhere")


def test_an_operators_pattern_adds_operators(owned: Kernel) -> None:
    _create(owned, OWNED, OWNER, operators=["agent:*"])
    unit_id = _seed(owned, OWNED, "agent:helper")
    _ok(owned, "pin", {"context_id": OWNED, "unit_id": unit_id}, "agent:helper")
    _denied(owned, "unpin", {"context_id": OWNED, "unit_id": unit_id}, "service:other", "operate")


@pytest.mark.parametrize("bare", ["operator:", "admin:"])
def test_a_bare_prefix_matches_no_pattern(owned: Kernel, bare: str) -> None:
    _create(owned, "chat", OPERATOR, **EVERYONE)
    unit_id = _seed(owned, "chat", OPERATOR)
    request_id = _request(owned, "chat", unit_id, OPERATOR)
    for name in OPERATES:
        _denied(owned, name, _args(name, "chat", unit_id), bare, "operate")
    _refused(
        owned,
        "review",
        _review(request_id),
        bare,
        DENIED,
        f"principal '{bare}' may not canonize context 'chat'",
    )
    assert _authority(owned, "chat", unit_id) == "RELIABLE"
    _seed(owned, "chat", "agent:named", "A named principal matches '*'.")


# --- review -------------------------------------------------------------------------------------------


def test_a_canonize_or_admin_grant_reviews(notes: tuple[Kernel, str]) -> None:
    kernel, unit_id = notes
    first = _request(kernel, OWNED, unit_id, OWNER)
    _refused(
        kernel,
        "review",
        _review(first),
        "agent:c",
        DENIED,
        f"principal 'agent:c' may not canonize context '{OWNED}'",
    )
    _grant(kernel, "agent:c", "canonize", OWNED)
    assert _ok(kernel, "review", _review(first), "agent:c")["request"]["status"] == "APPROVED"
    second = _seed(kernel, OWNED, OWNER, "The door is red.")
    request_id = _request(kernel, OWNED, second, OWNER)
    _grant(kernel, "agent:a", "admin", "*")
    assert _ok(kernel, "review", _review(request_id), "agent:a")["request"]["status"] == "APPROVED"


def test_a_canonizers_pattern_counts_only_when_the_owner_may_canonize(owned: Kernel) -> None:
    mine = f"{SQUATTER}/chat"
    _create(owned, mine, SQUATTER, canonizers=["*"])
    unit_id = _seed(owned, mine, SQUATTER)
    request_id = _request(owned, mine, unit_id, SQUATTER)
    for principal in (SQUATTER, "agent:friend", OPERATOR):
        _refused(owned, "review", _review(request_id), principal, DENIED)
    _grant(owned, SQUATTER, "canonize", mine)  # now the owner may canonize: its pattern counts
    assert _ok(owned, "review", _review(request_id), "agent:friend")["request"]["status"] == "APPROVED"
    assert _authority(owned, mine, unit_id) == "CANON"


def test_an_administrators_context_delegates_by_its_patterns(owned: Kernel) -> None:
    _create(owned, "desk", OPERATOR, canonizers=["agent:*"])
    unit_id = _seed(owned, "desk", OPERATOR)
    request_id = _request(owned, "desk", unit_id, OPERATOR)
    # built-in administrators are not canonizers by name, not even the owner
    for principal in (ADMIN, OPERATOR):
        _refused(owned, "review", _review(request_id), principal, DENIED)
    assert _ok(owned, "review", _review(request_id), "agent:lead")["request"]["status"] == "APPROVED"


def test_an_unknown_request_stays_not_found(owned: Kernel) -> None:
    for principal in (STRANGER, ADMIN):
        _refused(owned, "review", _review("c99"), principal, "awmu_request_not_found")


# --- the attacks ------------------------------------------------------------------------------


def test_squatting_an_administrators_name_is_refused_at_create(owned: Kernel) -> None:
    _refused(owned, "create", {"context_id": "chat-next", "config": EVERYONE}, SQUATTER, DENIED)
    _denied(owned, "seed", _args("seed", "chat-next"), SQUATTER, "operate")
    _denied(owned, "propose", _args("propose", "chat-next"), SQUATTER, "write")
    _refused(owned, "review", _review("c3"), SQUATTER, "awmu_request_not_found")
    # the administrators' context, once created, stays theirs
    _create(owned, "chat-next", OPERATOR)
    _denied(owned, "seed", _args("seed", "chat-next"), SQUATTER, "operate")


def test_self_canonization_in_ones_own_context_is_refused(owned: Kernel) -> None:
    mine = f"{SQUATTER}/chat"
    _create(owned, mine, SQUATTER, canonizers=["*"])
    unit_id = _seed(owned, mine, SQUATTER)
    request_id = _request(owned, mine, unit_id, SQUATTER)
    _refused(
        owned,
        "review",
        _review(request_id),
        SQUATTER,
        DENIED,
        f"principal '{SQUATTER}' may not canonize context '{mine}'",
    )
    assert _authority(owned, mine, unit_id) == "RELIABLE"


def test_the_same_attacks_go_through_in_a_format_1_journal(first: Kernel) -> None:
    """The first release's rules, unchanged: anyone creates any name, a context's patterns decide alone
    (``fnmatch``: ``operator:*`` names the bare ``operator:``), and reads are open to every principal."""
    _create(first, "chat-next", SQUATTER, **EVERYONE)
    assert _owners(first) == []
    unit_id = _seed(first, "chat-next", SQUATTER)
    request_id = _request(first, "chat-next", unit_id, SQUATTER)
    assert _ok(first, "review", _review(request_id), SQUATTER)["request"]["status"] == "APPROVED"
    assert _authority(first, "chat-next", unit_id) == "CANON"
    mine = f"{SQUATTER}/chat"
    _create(first, mine, SQUATTER, canonizers=["*"])
    other = _seed(first, mine, OPERATOR)  # default operators
    _refused(
        first,
        "seed",
        _args("seed", mine),
        SQUATTER,
        DENIED,
        f"principal '{SQUATTER}' may not seed in this context",
    )
    own_request = _request(first, mine, other, SQUATTER)
    assert _ok(first, "review", _review(own_request), SQUATTER)["request"]["status"] == "APPROVED"
    # a bare prefix matches operator:* there, and a stranger reads and writes anyone's context
    _create(first, OWNED, "operator:")
    bare_seed = _seed(first, OWNED, "operator:")
    for name in (*READS, "propose", "turn", "validate_summary", "canonize"):
        _ok(first, name, _args(name, OWNED, bare_seed), STRANGER)
    _refused(first, "list", _args("list", "nowhere"), STRANGER, NOT_FOUND)
    # built-in administrators stay bound by the operators patterns there
    _create(first, "ops", OPERATOR, operators=["agent:*"])
    _refused(
        first,
        "seed",
        _args("seed", "ops"),
        ADMIN,
        DENIED,
        f"principal '{ADMIN}' may not seed in this context",
    )

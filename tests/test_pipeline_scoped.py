"""Pipeline runs under the owned access rules (journal format 2, ``AccessRules.OWNED``): a run begins
with ``write`` on its user, its id is scoped to the principal that begins it (stored as
``<principal>/<run_id>``), and ``pipeline.end`` / ``memory.snapshot`` resolve an id for their caller:
its own run of that id first, else the run stored under the id itself. A format-1 journal keeps the
first release's rules: ``read`` suffices and run ids are global (``access-and-pipelines.md`` §2).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from strategies import T0, VOUCHED, journal_entries

from arvis.access import AccessRules, ScopeKind, scope_of
from journal.engine import open_engine
from journal.entry import EMPTY_EFFECTS_HASH
from journal.reader import JournalReader
from journal.schema import FORMAT_VERSION
from journal.state import state_digest
from journal.store import ManualClock, SqlJournalStore
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from kernel.pipeline import CognitivePipelineContext, PipelineError, pipeline, run_pipeline
from kernel.replay_kernel import JournalReplayKernel
from syscalls.boot import default_services, open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

OPERATOR = "operator:x"
ADMIN = "admin:root"
READER = "agent:reader"
WRITER = "agent:writer"
DENIED = "memory_policy_denied"
NOT_FOUND = "pipeline_run_not_found"


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


def _seed(kernel: Kernel) -> Kernel:
    """Users a and b hold one entry each; READER may read a, WRITER may read and write a."""
    for user in ("a", "b"):
        _ok(kernel, "memory.write", _write_args(user, "language", "preference"), f"user:{user}")
    for principal, capability in ((READER, "read"), (WRITER, "read"), (WRITER, "write")):
        _ok(
            kernel,
            "access.grant",
            {
                "principal": principal,
                "capability": capability,
                "scope": scope_of(kernel.access_rules, ScopeKind.USER, "a"),
            },
            OPERATOR,
        )
    return kernel


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
        yield _seed(kernel)
    finally:
        kernel.close()


@pytest.fixture
def first(tmp_path: Path) -> Iterator[Kernel]:
    kernel = _format_1(tmp_path / "first.db")
    assert kernel.access_rules == AccessRules.FIRST == kernel.store.format_version
    try:
        yield _seed(kernel)
    finally:
        kernel.close()


def _write_args(user: str, key: str, memory_type: str = "constraint") -> dict[str, Any]:
    return {"user_id": user, "key": key, "memory_type": memory_type, "source": "explicit_user"}


def _ok(kernel: Kernel, name: str, args: Any, principal: str) -> dict[str, Any]:
    result = kernel.call(name, args, principal=principal)
    assert result.ok, (name, principal, result.error)
    assert isinstance(result.value, dict)
    return result.value


def _refused(kernel: Kernel, name: str, args: Any, principal: str, code: str, detail: str) -> SyscallResult:
    """Refused with ``code`` and ``detail``, journaled at the next seq, changing no state."""
    before, count = _digest(kernel), len(journal_entries(kernel))
    result = kernel.call(name, args, principal=principal)
    assert result.error is not None, result
    assert (result.error.code, result.error.detail) == (code, detail)
    entries = journal_entries(kernel)
    assert result.seq == count + 1 == len(entries)
    assert (entries[-1].syscall, entries[-1].principal, entries[-1].status) == (name, principal, code)
    assert entries[-1].effects_hash == EMPTY_EFFECTS_HASH
    assert _digest(kernel) == before
    return result


def _digest(kernel: Kernel) -> str:
    with kernel.store.engine.connect() as connection:
        return state_digest(connection)


def _runs(kernel: Kernel) -> list[tuple[str, str, str, int | None]]:
    """Every stored run as (run_id, user_id, principal, ended_seq), by run id."""
    with kernel.store.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT run_id, user_id, principal, ended_seq FROM pipeline_runs ORDER BY run_id"
        ).all()
    return [(str(a), str(b), str(c), None if d is None else int(d)) for a, b, c, d in rows]


def _begin(user: str, run_id: str) -> dict[str, str]:
    return {"user_id": user, "run_id": run_id}


def _verified(kernel: Kernel) -> None:
    reader = JournalReader(kernel.store.engine)
    report = verify_journal(reader, table=SYSCALL_TABLE)
    assert report.verified, report.divergence
    assert report.replayed and report.entries == len(journal_entries(kernel))
    assert report.state_digest == _digest(kernel)


# --------------------------------------------------------------------------------------------------
# (a) a run takes write on its user


def test_a_reader_cannot_begin_a_run_a_writer_can(owned: Kernel) -> None:
    _refused(
        owned, "pipeline.begin", _begin("a", "r1"), READER, DENIED, f"principal '{READER}' may not write 'a'"
    )
    assert _runs(owned) == []
    with pytest.raises(PipelineError) as refused, pipeline(owned, user_id="a", run_id="r1", principal=READER):
        pass
    assert refused.value.step == "pipeline.begin"
    assert _runs(owned) == []
    assert _ok(owned, "memory.write", _write_args("a", "no_penicillin"), "user:a"), "nothing holds a"

    run = _ok(owned, "pipeline.begin", _begin("a", "r1"), WRITER)["run"]
    assert (run["run_id"], run["user_id"], run["principal"], run["ended_seq"]) == (
        f"{WRITER}/r1",
        "a",
        WRITER,
        None,
    )
    assert _runs(owned) == [(f"{WRITER}/r1", "a", WRITER, None)]
    # write without read begins a run, but its snapshot still needs read
    _ok(
        owned,
        "access.grant",
        {"principal": "agent:blind", "capability": "write", "scope": "b"},
        OPERATOR,
    )
    _ok(owned, "pipeline.begin", _begin("b", "r1"), "agent:blind")
    _refused(
        owned,
        "memory.snapshot",
        {"user_id": "b", "run_id": "r1"},
        "agent:blind",
        DENIED,
        "principal 'agent:blind' may not read 'b'",
    )
    _verified(owned)


# --------------------------------------------------------------------------------------------------
# (b) run ids are scoped to the principal that begins them


def test_two_principals_never_collide_on_a_run_id(owned: Kernel) -> None:
    mine = _ok(owned, "pipeline.begin", _begin("b", "nightly"), "user:b")["run"]
    theirs = _ok(owned, "pipeline.begin", _begin("a", "nightly"), OPERATOR)["run"]
    assert (mine["run_id"], mine["principal"], mine["user_id"]) == ("user:b/nightly", "user:b", "b")
    assert (theirs["run_id"], theirs["principal"], theirs["user_id"]) == ("operator:x/nightly", OPERATOR, "a")
    # a principal's id is single-use within its own runs only
    _refused(
        owned,
        "pipeline.begin",
        _begin("b", "nightly"),
        "user:b",
        "pipeline_run_exists",
        "run id 'nightly' has been used",
    )
    # an id holding "/" is refused (the kernel adds the principal's prefix: a principal holding "/" could
    # otherwise take another's stored id), and so is one that would not fit a RunId once qualified
    _refused(
        owned,
        "pipeline.begin",
        _begin("b", "operator:x/nightly"),
        "user:b",
        "invalid_args",
        "run id 'operator:x/nightly' holds '/': the kernel adds '<principal>/'",
    )
    _refused(
        owned,
        "pipeline.begin",
        _begin("b", "r" * 122),
        "user:b",
        "invalid_args",
        "the run id qualified by its principal has 129 characters, more than the 128 a run id may have",
    )
    assert (
        _ok(owned, "pipeline.begin", _begin("b", "r" * 121), "user:b")["run"]["run_id"]
        == "user:b/" + "r" * 121
    )
    assert _runs(owned)[:2] == [
        ("operator:x/nightly", "a", OPERATOR, None),
        ("user:b/nightly", "b", "user:b", None),
    ]
    _verified(owned)


# --------------------------------------------------------------------------------------------------
# (c) end and snapshot resolve the id for their caller


def test_end_and_snapshot_resolve_the_callers_own_run_first(owned: Kernel) -> None:
    _ok(owned, "pipeline.begin", _begin("b", "nightly"), "user:b")
    _ok(owned, "pipeline.begin", _begin("a", "nightly"), OPERATOR)
    # the caller's own run, by the id it gave
    tagged = _ok(owned, "memory.snapshot", {"user_id": "b", "run_id": "nightly"}, "user:b")
    assert tagged["run_id"] == "user:b/nightly"
    tagged = _ok(owned, "memory.snapshot", {"user_id": "a", "run_id": "nightly"}, OPERATOR)
    assert tagged["run_id"] == "operator:x/nightly"
    # the journal keeps the id as given
    assert journal_entries(owned)[-1].args == b'{"run_id":"nightly","user_id":"a"}'
    ended = _ok(owned, "pipeline.end", {"run_id": "nightly"}, "user:b")["run"]
    assert (ended["run_id"], ended["principal"]) == ("user:b/nightly", "user:b")
    _refused(owned, "pipeline.end", {"run_id": "nightly"}, "user:b", NOT_FOUND, "run 'nightly' has ended")
    _verified(owned)


def test_another_principals_run_is_named_by_its_qualified_id(owned: Kernel) -> None:
    _ok(owned, "pipeline.begin", _begin("a", "nightly"), OPERATOR)
    # a reader of the user may tag a snapshot with the operator's run, by its qualified id only
    tagged = _ok(owned, "memory.snapshot", {"user_id": "a", "run_id": "operator:x/nightly"}, READER)
    assert tagged["run_id"] == "operator:x/nightly"
    _refused(
        owned,
        "memory.snapshot",
        {"user_id": "a", "run_id": "nightly"},
        READER,
        NOT_FOUND,
        "no active run 'nightly' for this user",
    )
    # the run must belong to the user named, and the caller must read that user first
    _refused(
        owned,
        "memory.snapshot",
        {"user_id": "b", "run_id": "operator:x/nightly"},
        "user:b",
        NOT_FOUND,
        "no active run 'operator:x/nightly' for this user",
    )
    _refused(
        owned,
        "memory.snapshot",
        {"user_id": "a", "run_id": "operator:x/nightly"},
        "user:b",
        DENIED,
        "principal 'user:b' may not read 'a'",
    )
    # ending it: an unknown id as given, a non-administrator refused, an administrator allowed
    _refused(owned, "pipeline.end", {"run_id": "nightly"}, WRITER, NOT_FOUND, "no run 'nightly'")
    for other in (WRITER, READER, "user:a"):
        detail = f"principal '{other}' may not admin '*'"
        _refused(owned, "pipeline.end", {"run_id": "operator:x/nightly"}, other, DENIED, detail)
    ended = _ok(owned, "pipeline.end", {"run_id": "operator:x/nightly"}, ADMIN)["run"]
    assert (ended["run_id"], ended["principal"], ended["user_id"]) == ("operator:x/nightly", OPERATOR, "a")
    _refused(
        owned,
        "pipeline.end",
        {"run_id": "operator:x/nightly"},
        ADMIN,
        NOT_FOUND,
        "run 'operator:x/nightly' has ended",
    )
    _refused(
        owned,
        "memory.snapshot",
        {"user_id": "a", "run_id": "operator:x/nightly"},
        READER,
        NOT_FOUND,
        "no active run 'operator:x/nightly' for this user",
    )
    _verified(owned)


# --------------------------------------------------------------------------------------------------
# (d) the in-flight rule


def test_a_run_holds_its_users_writes_until_it_ends(owned: Kernel) -> None:
    _ok(owned, "pipeline.begin", _begin("a", "nightly"), WRITER)
    held = f"in-flight mutation: pipeline run '{WRITER}/nightly' holds this user's memory until it ends"
    for principal in ("user:a", WRITER, OPERATOR):
        _refused(owned, "memory.write", _write_args("a", "no_aspirin"), principal, DENIED, held)
    _refused(owned, "memory.revoke", {"user_id": "a", "key": "language"}, "user:a", DENIED, held)
    _ok(owned, "memory.write", _write_args("b", "no_aspirin"), "user:b")  # other users are not held
    _ok(owned, "pipeline.end", {"run_id": "nightly"}, WRITER)
    _ok(owned, "memory.write", _write_args("a", "no_aspirin"), "user:a")
    _verified(owned)


# --------------------------------------------------------------------------------------------------
# (e) format 1: the first release's rules, unchanged


def test_a_format_1_journal_keeps_global_run_ids_and_read_to_begin(first: Kernel) -> None:
    run = _ok(first, "pipeline.begin", _begin("a", "nightly"), READER)["run"]
    assert (run["run_id"], run["principal"]) == ("nightly", READER)
    _refused(
        first,
        "pipeline.begin",
        _begin("b", "nightly"),
        "user:b",
        "pipeline_run_exists",
        "run id 'nightly' has been used",
    )
    held = "in-flight mutation: pipeline run 'nightly' holds this user's memory until it ends"
    _refused(first, "memory.write", _write_args("a", "no_aspirin"), "user:a", DENIED, held)
    tagged = _ok(first, "memory.snapshot", {"user_id": "a", "run_id": "nightly"}, WRITER)
    assert tagged["run_id"] == "nightly"
    _refused(
        first,
        "pipeline.end",
        {"run_id": "nightly"},
        WRITER,
        DENIED,
        f"principal '{WRITER}' may not admin '*'",
    )
    _refused(
        first,
        "pipeline.end",
        {"run_id": f"{READER}/nightly"},
        READER,
        NOT_FOUND,
        f"no run '{READER}/nightly'",
    )
    ended = _ok(first, "pipeline.end", {"run_id": "nightly"}, ADMIN)["run"]
    assert (ended["run_id"], ended["principal"]) == ("nightly", READER)
    assert _runs(first) == [("nightly", "a", READER, ended["ended_seq"])]
    _ok(first, "memory.write", _write_args("a", "no_aspirin"), "user:a")
    _verified(first)


# --------------------------------------------------------------------------------------------------
# (f) the runner in both formats, and replay


def _stages(kernel: Kernel, user: str) -> list[Any]:
    def plan(ctx: CognitivePipelineContext) -> dict[str, Any]:
        return {"run": ctx.run_id, "avoid": list(ctx.ir.long_memory_constraints), "seq": ctx.snapshot_seq}

    def sneak(ctx: CognitivePipelineContext) -> str:
        result = kernel.call("memory.write", _write_args(user, "no_aspirin"), principal=f"user:{user}")
        return "written" if result.error is None else result.error.detail

    return [plan, sneak]


@pytest.mark.parametrize("journal_format", [AccessRules.FIRST, AccessRules.OWNED])
def test_the_runner_works_with_the_id_as_given(journal_format: AccessRules, tmp_path: Path) -> None:
    path = tmp_path / "runner.db"
    kernel = (
        _format_1(path)
        if journal_format == AccessRules.FIRST
        else open_kernel(str(path), clock=_clock(), identity=VOUCHED, create=True)
    )
    try:
        _seed(kernel)
        _ok(kernel, "memory.write", _write_args("a", "no_penicillin"), "user:a")
        outputs = run_pipeline(kernel, _stages(kernel, "a"), user_id="a", run_id="nightly", principal=WRITER)
        stored = "nightly" if journal_format == AccessRules.FIRST else f"{WRITER}/nightly"
        assert outputs["plan"]["run"] == "nightly" and outputs["plan"]["avoid"] == ["no_penicillin"]
        assert (
            outputs["sneak"]
            == f"in-flight mutation: pipeline run '{stored}' holds this user's memory until it ends"
        )
        assert _runs(kernel)[0][0] == stored and _runs(kernel)[0][3] is not None
        # a second principal and the same id: refused in format 1, a run of its own in format 2
        if journal_format == AccessRules.FIRST:
            with pytest.raises(PipelineError) as refused:
                run_pipeline(kernel, [], user_id="b", run_id="nightly", principal="user:b")
            assert refused.value.result.error is not None
            assert refused.value.result.error.code == "pipeline_run_exists"
        else:
            again = run_pipeline(
                kernel, _stages(kernel, "b"), user_id="b", run_id="nightly", principal="user:b"
            )
            assert again["plan"]["run"] == "nightly"
            assert "'user:b/nightly'" in again["sneak"]
        # the recorded run replays from its begin with the same code and the same id
        entries = journal_entries(kernel)
        begin = next(entry.seq for entry in entries if entry.syscall == "pipeline.begin")
        replay = JournalReplayKernel(entry for entry in entries if entry.seq >= begin)
        replayed = run_pipeline(replay, _stages(replay, "a"), user_id="a", run_id="nightly", principal=WRITER)
        assert replayed == outputs
        _verified(kernel)
    finally:
        kernel.close()

"""A commit that fails where the database may have made it (its answer lost with the connection) is
read back from the journal: made, the calls are acknowledged and never run again; not made, they fail
as before; unreadable, they are unacknowledged and not run again either (``CommitOutcomeUnknown``). On
SQLite and on PostgreSQL, where the COMMIT is sent in the pipeline with the writes."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from grouped_calls import two_writes_in_one_group
from sqlalchemy import text

from journal.engine import open_engine
from journal.sql import SqlRunner
from journal.statements import ENTRY_HASH_AT
from journal.store import SqlJournalStore, SystemClock
from kernel.abi import ErrorCode
from kernel.dispatcher import Kernel
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE

WRITE = {"key": "language", "memory_type": "preference", "source": "explicit_user", "value_ref": "en"}


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "journal.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def kernel(target: str) -> Iterator[Kernel]:
    clock = SystemClock()
    store = SqlJournalStore(open_engine(target), clock=clock)
    opened = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
    try:
        yield opened
    finally:
        opened.close()


def _entries(target: str) -> list[tuple[int, str]]:
    engine = open_engine(target, read_only=True)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT seq, principal FROM journal ORDER BY seq")).all()
        return [(int(row[0]), str(row[1])) for row in rows]
    finally:
        engine.dispose()


def _driver_error(target: str, message: str) -> Exception:
    """The driver's own error, as the database would raise it."""
    if target.startswith("postgresql"):
        import psycopg

        return psycopg.OperationalError(message)
    return sqlite3.OperationalError(message)


def _answer_lost(monkeypatch: pytest.MonkeyPatch, target: str, times: int = 1) -> list[int]:
    """``SqlRunner.commit`` commits, then raises as a connection lost before the answer came back would
    (the first ``times`` commits). Returns the list of the commits it did so."""
    commit = SqlRunner.commit
    lost: list[int] = []

    def commit_then_fail(self: SqlRunner) -> None:
        commit(self)
        if len(lost) < times:
            lost.append(1)
            raise _driver_error(target, "the connection was lost before the commit's answer")

    monkeypatch.setattr(SqlRunner, "commit", commit_then_fail)
    return lost


def _read_back_fails(monkeypatch: pytest.MonkeyPatch, failure: BaseException) -> None:
    """The store's read-back of a failed commit raises ``failure`` once the read has run, in its
    transaction (its lock taken, on PostgreSQL); every other read runs as usual."""
    first = SqlRunner.first

    def failing(self: SqlRunner, sql: str, values: Any = None) -> Any:
        row = first(self, sql, values if values is not None else {})
        if sql == ENTRY_HASH_AT:
            raise failure
        return row

    monkeypatch.setattr(SqlRunner, "first", failing)


def test_a_call_whose_commit_answer_is_lost_is_read_back_as_made(
    kernel: Kernel, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = _answer_lost(monkeypatch, target)
    result = kernel.call("memory.write", {**WRITE, "user_id": "u1"}, principal="user:u1")
    assert lost and result.ok and result.seq == 1
    assert kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal="user:u1").seq == 2
    assert _entries(target) == [(1, "user:u1"), (2, "user:u1")]


def test_a_group_whose_commit_answer_is_lost_is_acknowledged_and_never_run_again(
    kernel: Kernel, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = _answer_lost(monkeypatch, target)
    results = two_writes_in_one_group(kernel, WRITE)
    assert lost
    assert sorted((result.ok, result.seq) for result in results.values()) == [(True, 1), (True, 2)]
    assert [seq for seq, _ in _entries(target)] == [1, 2]  # journaled once (run again: 4 entries)


def test_a_failed_commit_that_was_not_made_is_not_acknowledged(
    kernel: Kernel, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail_instead(self: SqlRunner) -> None:
        raise _driver_error(target, "disk I/O error")

    monkeypatch.setattr(SqlRunner, "commit", fail_instead)
    result = kernel.call("memory.write", {**WRITE, "user_id": "u1"}, principal="user:u1")
    assert not result.ok and result.seq is None
    assert result.error is not None and result.error.code == ErrorCode.STORAGE_UNAVAILABLE
    monkeypatch.undo()
    assert kernel.call("memory.write", {**WRITE, "user_id": "u1"}, principal="user:u1").seq == 1
    assert _entries(target) == [(1, "user:u1")]


def test_a_commit_whose_outcome_cannot_be_read_is_unacknowledged_and_not_run_again(
    kernel: Kernel, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _answer_lost(monkeypatch, target)
    _read_back_fails(monkeypatch, _driver_error(target, "the server is gone"))
    results = two_writes_in_one_group(kernel, WRITE)
    for result in results.values():
        assert not result.ok and result.seq is None and result.error is not None
        assert result.error.code == ErrorCode.STORAGE_UNAVAILABLE
        assert "could not be read back" in result.error.detail and "up to seq 2" in result.error.detail
    monkeypatch.undo()
    # made, though unacknowledged; never run again: the next call chains from the group's last entry
    assert kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal="user:u1").seq == 3
    assert [seq for seq, _ in _entries(target)] == [1, 2, 3]


def test_a_connection_killed_before_the_commit_fails_the_call_and_the_kernel_goes_on(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server ends the writer's session just before its COMMIT: the commit fails, the connection is
    gone, the call is not acknowledged and nothing is journaled; the kernel goes on on a new connection."""
    clock = SystemClock()
    store = SqlJournalStore(open_engine(pg_url), clock=clock)
    kernel = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
    killer = open_engine(pg_url)
    commit = SqlRunner.commit
    killed: list[int] = []

    def killed_first(self: SqlRunner) -> None:
        if not killed:
            pid = int(self._driver.info.backend_pid)
            with killer.connect() as connection:
                connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
                connection.commit()
            killed.append(pid)
        commit(self)

    monkeypatch.setattr(SqlRunner, "commit", killed_first)
    try:
        result = kernel.call("memory.write", {**WRITE, "user_id": "u1"}, principal="user:u1")
        assert killed and not result.ok and result.seq is None
        assert result.error is not None and result.error.code == ErrorCode.STORAGE_UNAVAILABLE
        assert "could not be read back" not in result.error.detail
        assert kernel.call("memory.write", {**WRITE, "user_id": "u1"}, principal="user:u1").seq == 1
        assert store._sql._driver.info.backend_pid != killed[0]
        assert _entries(pg_url) == [(1, "user:u1")]
    finally:
        kernel.close()
        killer.dispose()


def _slow_commit_of(url: str, seq: int) -> None:
    """The COMMIT of the transaction that inserts entry ``seq`` takes 2 s on the server (a deferred
    trigger: a stand-in for a slow flush, a synchronous standby, a loaded server)."""
    engine = open_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(
                text(
                    "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$"
                )
            )
            connection.execute(
                text(
                    "CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON journal DEFERRABLE INITIALLY "
                    f"DEFERRED FOR EACH ROW WHEN (NEW.seq = {int(seq)}) EXECUTE FUNCTION slow_commit()"
                )
            )
            connection.commit()
    finally:
        engine.dispose()


def _connection_dropped_during_first_commit(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The client's socket is shut down 0.5 s into the first commit (a client-side timeout, a proxy that
    drops the connection): the server's session does not notice and finishes its COMMIT."""
    import os
    import socket

    commit = SqlRunner.commit
    dropped: list[int] = []

    def commit_and_drop(self: SqlRunner) -> None:
        if not dropped:
            dropped.append(1)
            duplicate = os.dup(self._driver.pgconn.socket)

            def drop() -> None:
                with socket.socket(fileno=duplicate) as connection:
                    connection.shutdown(socket.SHUT_RDWR)

            threading.Timer(0.5, drop).start()
        commit(self)

    monkeypatch.setattr(SqlRunner, "commit", commit_and_drop)
    return dropped


def test_a_commit_still_running_on_the_server_is_waited_for_and_read_back_as_made(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read-back takes the append lock, which the old session holds until its COMMIT ends: read at
    once, the entry was not visible yet, the call was reported failed though it was made, and a group was
    run again (journaled twice, each call then refused as a conflict with itself)."""
    _slow_commit_of(pg_url, 2)
    clock = SystemClock()
    store = SqlJournalStore(open_engine(pg_url), clock=clock)
    kernel = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
    try:
        dropped = _connection_dropped_during_first_commit(monkeypatch)
        results = two_writes_in_one_group(kernel, WRITE)
        assert dropped
        assert sorted((result.ok, result.seq) for result in results.values()) == [(True, 1), (True, 2)]
        assert [seq for seq, _ in _entries(pg_url)] == [1, 2]
    finally:
        kernel.close()


def test_an_interrupted_read_back_leaves_no_transaction_open(
    kernel: Kernel, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _answer_lost(monkeypatch, target)
    _read_back_fails(monkeypatch, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        kernel.call("memory.write", {**WRITE, "user_id": "u1"}, principal="user:u1")
    monkeypatch.undo()
    # made (the answer was lost after the commit), and the next call begins a transaction of its own
    assert kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal="user:u1").seq == 2
    assert [seq for seq, _ in _entries(target)] == [1, 2]

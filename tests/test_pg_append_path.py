"""The append path on PostgreSQL (issue 17, item 2): the append lock is a transaction-scoped advisory
lock, not a table lock; a write transaction runs in pipeline mode; a statement that fails inside the
pipeline fails the commit and leaves nothing behind. And the one-statement upsert, on both backends."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, text

from arvis.changes import Insert, Upsert
from journal.apply import ChangeWriter, plan
from journal.engine import open_engine
from journal.entry import EntryContent
from journal.schema import memory_entries
from journal.sql import SqlRunner
from journal.statements import APPEND_LOCK
from journal.store import SqlJournalStore, SystemClock
from kernel.dispatcher import Kernel
from kernel.protocols import StorageError
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE

USER = "user:u1"
WRITE = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}


@pytest.fixture
def pg_kernel(pg_url: str) -> Iterator[tuple[Kernel, SqlJournalStore, Engine]]:
    clock = SystemClock()
    store = SqlJournalStore(open_engine(pg_url), clock=clock)
    kernel = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
    observer = open_engine(pg_url, read_only=True)
    try:
        yield kernel, store, observer
    finally:
        kernel.close()
        observer.dispose()


def _locks(observer: Engine) -> list[tuple[Any, ...]]:
    """The locks other sessions hold now: (locktype, relation name, mode, classid, objid)."""
    with observer.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT locktype, relation::regclass::text, mode, classid, objid FROM pg_locks "
                "WHERE pid <> pg_backend_pid() AND granted"
            )
        ).all()
    return [tuple(row) for row in rows]


def _head(observer: Engine) -> int:
    with observer.connect() as connection:
        return int(connection.execute(text("SELECT coalesce(max(seq), 0) FROM journal")).scalar_one())


def test_a_write_transaction_holds_the_advisory_append_lock_and_no_table_lock(
    pg_kernel: tuple[Kernel, SqlJournalStore, Engine],
) -> None:
    kernel, store, observer = pg_kernel
    assert kernel.call("memory.write", {**WRITE, "value_ref": "en"}, principal=USER).ok
    with pytest.raises(StorageError, match="must append"), store.transaction():
        held = _locks(observer)
        pipelined = store._sql.pipelined
    advisory = [lock for lock in held if lock[0] == "advisory"]
    assert len(advisory) == 1 and advisory[0][2] == "ExclusiveLock"
    assert (advisory[0][3], advisory[0][4]) == (APPEND_LOCK >> 32, APPEND_LOCK & 0xFFFF_FFFF)
    assert not [lock for lock in held if lock[1] == "journal" and lock[2] != "AccessShareLock"]
    assert pipelined and not store._sql.pipelined
    # the connection is usable after the refused transaction
    assert kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal=USER).ok


def test_a_writer_waits_for_the_append_lock_and_then_chains_from_the_new_head(
    pg_kernel: tuple[Kernel, SqlJournalStore, Engine], pg_url: str
) -> None:
    kernel, _, observer = pg_kernel
    assert kernel.call("memory.write", {**WRITE, "value_ref": "en"}, principal=USER).seq == 1
    holder = open_engine(pg_url)
    results: list[Any] = []
    with holder.connect() as connection:
        connection.execute(text(f"SELECT pg_advisory_xact_lock({APPEND_LOCK})"))
        worker = threading.Thread(
            target=lambda: results.append(
                kernel.call("memory.write", {**WRITE, "key": "tz", "value_ref": "utc"}, principal=USER)
            )
        )
        worker.start()
        worker.join(timeout=1.0)  # a bound for the check that it waits, never a timing assertion
        waited = worker.is_alive()
        # a plain reader is not blocked by the held lock
        assert _head(observer) == 1
        connection.rollback()
    worker.join(timeout=60)
    holder.dispose()
    assert waited and results and results[0].ok and results[0].seq == 2


def test_a_statement_failing_inside_the_pipeline_fails_the_commit_and_leaves_nothing(
    pg_kernel: tuple[Kernel, SqlJournalStore, Engine],
) -> None:
    kernel, store, observer = pg_kernel
    assert kernel.call("memory.write", {**WRITE, "value_ref": "en"}, principal=USER).ok
    with observer.connect() as connection:
        row = dict(connection.execute(select(memory_entries)).mappings().one())  # its version columns aside
    before = _head(observer)
    with pytest.raises(StorageError), store.transaction() as tx:
        tx.append(
            EntryContent(
                recorded_at="2026-12-01T00:00:00.000000Z",
                syscall="memory.write",
                principal=USER,
                args=b"{}",
                status="ok",
                result=b"{}",
            ),
            changes=[Insert(table="memory_entries", row=row)],  # the same primary key again
        )  # sent, not yet answered: the duplicate key is reported when the pipeline ends (the COMMIT
        # queued behind it is skipped by the server)
    assert _head(observer) == before
    with observer.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM memory_entries")).scalar_one() == 1
    assert kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal=USER).seq == before + 1


def test_an_upsert_is_one_statement_that_inserts_then_updates(tmp_path: Path) -> None:
    change = Upsert(table="pipeline_runs", row=_run("r1", None))
    ((statement, _),) = plan([change])
    assert statement.startswith("INSERT INTO pipeline_runs") and "ON CONFLICT" in statement
    path = tmp_path / "j.db"
    SqlJournalStore(open_engine(str(path)), clock=SystemClock()).close()  # the schema at head
    engine = open_engine(str(path))
    with engine.connect() as connection:
        runner = SqlRunner(connection)
        runner.begin("BEGIN IMMEDIATE")
        writer = ChangeWriter(runner)
        writer.write(plan([change]), 1)
        writer.write(plan([Upsert(table="pipeline_runs", row=_run("r1", 7))]), 2)
        runner.commit()
        runner.close()
    engine.dispose()
    rows = sqlite3.connect(path).execute("SELECT run_id, ended_seq FROM pipeline_runs").fetchall()
    assert rows == [("r1", 7)]


def _run(run_id: str, ended: int | None) -> dict[str, Any]:
    return {"run_id": run_id, "user_id": "u1", "principal": "agent:a", "began_seq": 1, "ended_seq": ended}


class _ReadCursorSpy:
    """The runner's read cursor, recording the statements sent through it."""

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor
        self.statements: list[str] = []

    def execute(self, query: Any, params: Any = None) -> Any:
        self.statements.append(str(query).split()[0].upper())
        return self._cursor.execute(query, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


def test_a_write_never_goes_through_the_read_cursor(
    pg_kernel: tuple[Kernel, SqlJournalStore, Engine],
) -> None:
    """psycopg hands a pipelined statement's result to the cursor that sent it, whenever the server sends
    it: a write sent on the read cursor could hand its INSERT result to the next read in its place."""
    kernel, store, _ = pg_kernel
    assert kernel.call("memory.write", {**WRITE, "value_ref": "en"}, principal=USER).ok
    runner = store._sql
    spy = _ReadCursorSpy(runner.attach())
    runner._cursor = spy
    assert kernel.call("memory.write", {**WRITE, "key": "tz", "value_ref": "utc"}, principal=USER).seq == 2
    assert spy.statements and set(spy.statements) == {"SELECT"}, spy.statements

"""Caches kept across calls (issue 15, item 5): of those the issue names, only what a store keeps of
active pipeline runs measurably pays (``bench/RESULTS.md``, "Cross-call caches (issue 15)"): the active
run of each user it looked up (``journal.transaction.ActiveRuns``), used only under the journal
head it was read under. Every test here changes what would make it stale from outside the store
(another store, another process, a run begun or ended, a transaction rolled back) and checks that the
stale value is never used."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arvis.pipeline_runs import PipelineRun
from journal.entry import Pos
from journal.reader import JournalReader
from journal.store import SqlJournalStore
from journal.transaction import ActiveRuns
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

IN_FLIGHT = "in-flight mutation"


def _write_args(user: str, key: str) -> dict[str, Any]:
    return {"user_id": user, "key": key, "memory_type": "preference", "source": "explicit_user"}


def _write(kernel: Kernel, user: str, key: str) -> Any:
    return kernel.call("memory.write", _write_args(user, key), principal=f"user:{user}")


def _begin(kernel: Kernel, user: str, run_id: str) -> Any:
    return kernel.call("pipeline.begin", {"user_id": user, "run_id": run_id}, principal=f"user:{user}")


def _end(kernel: Kernel, user: str, run_id: str) -> Any:
    return kernel.call("pipeline.end", {"run_id": run_id}, principal=f"user:{user}")


def _refused_in_flight(result: Any) -> bool:
    return (
        result.seq is not None
        and result.error is not None
        and result.error.code == "memory_policy_denied"
        and IN_FLIGHT in result.error.detail
    )


def _verified(target: Path | str) -> bool:
    reader = JournalReader.open(str(target))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE).verified
    finally:
        reader.close()


@contextmanager
def _run_reads(kernel: Kernel) -> Iterator[list[str]]:
    """The active-run lookups the kernel's own connection sends to the database in the block."""
    store = kernel.store
    assert isinstance(store, SqlJournalStore)
    store._sql.attach()
    driver = store._connection.connection.dbapi_connection
    assert isinstance(driver, sqlite3.Connection)
    seen: list[str] = []
    driver.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        driver.set_trace_callback(None)
        seen[:] = [text for text in seen if "FROM pipeline_runs WHERE user_id" in text]


# -- the rule, on the object that owns it ---------------------------------------------------------


def test_a_value_is_used_only_under_the_head_it_was_read_under() -> None:
    runs = ActiveRuns()
    reads: list[str] = []

    def read(user: str) -> PipelineRun | None:
        reads.append(user)
        return None

    runs.active_for("u", read)  # outside any transaction: read, never kept
    assert reads == ["u"]
    runs.start(Pos(5, "h5"))
    assert runs.active_for("u", read) is None and runs.active_for("u", read) is None
    assert reads == ["u", "u"]  # read once, then kept
    runs.committed(Pos(6, "h6"))  # this store's own commit, no run changed: still true there
    runs.start(Pos(6, "h6"))
    runs.active_for("u", read)
    assert reads == ["u", "u"]
    runs.start(Pos(7, "h7-of-another-writer"))  # the head moved under the store: dropped
    runs.active_for("u", read)
    assert reads == ["u", "u", "u"]
    runs.start(Pos(7, "h7-of-another-writer"))  # a rolled-back transaction reported nothing: kept
    runs.active_for("u", read)
    assert reads == ["u", "u", "u"]


def test_after_a_run_begins_or_ends_nothing_is_kept_until_the_next_transaction() -> None:
    runs = ActiveRuns()
    reads: list[str] = []
    run = PipelineRun("r1", "u", "user:u", 9)

    def read(user: str) -> PipelineRun | None:
        reads.append(user)
        return run

    runs.start(Pos(9, "h9"))
    runs.active_for("u", read)
    runs.changed()  # the transaction begins or ends a run: what is read now may never commit
    runs.active_for("u", read)
    runs.active_for("u", read)
    assert reads == ["u", "u", "u"]
    runs.start(Pos(9, "h9"))  # rolled back: same head, and nothing read after the change was kept
    runs.active_for("u", read)
    assert reads == ["u", "u", "u", "u"]
    runs.changed()
    runs.committed(Pos(10, "h10"))
    runs.start(Pos(10, "h10"))
    runs.active_for("u", read)
    assert reads == ["u", "u", "u", "u", "u"]


# -- through the kernel: the invalidating condition changed from outside ---------------------------


def test_a_store_reads_a_users_run_once_while_only_it_writes(tmp_path: Path) -> None:
    """The cache pays: one lookup per user while the head is the store's own."""
    kernel = open_kernel(str(tmp_path / "j.db"), create=True)
    try:
        with _run_reads(kernel) as reads:
            for index in range(5):
                assert _write(kernel, "u1", f"k{index}").ok
                assert _write(kernel, "u2", f"k{index}").ok
        assert len(reads) == 2
    finally:
        kernel.close()


def _runs_seen_across_stores(first: Kernel, second: Kernel) -> None:
    """A run that ``second`` begins or ends is seen by ``first``'s next call, and so are its own."""
    assert _write(first, "u1", "f").ok  # first keeps: no active run for u1
    assert _begin(second, "u1", "r1").ok
    assert _refused_in_flight(_write(first, "u1", "d"))
    assert _end(second, "u1", "r1").ok
    assert _write(first, "u1", "d").ok
    assert _begin(first, "u1", "r2").ok
    assert _refused_in_flight(_write(first, "u1", "e"))
    assert _end(first, "u1", "r2").ok
    assert _write(first, "u1", "e").ok


def test_another_stores_append_drops_what_a_store_knew(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    first, second = open_kernel(str(path), create=True), open_kernel(str(path), create=True)
    try:
        assert _write(first, "u1", "a").ok  # first keeps: no active run for u1
        with _run_reads(first) as reads:
            assert _write(first, "u1", "b").ok
        assert reads == []
        assert _write(second, "u2", "x").ok  # another user's write: first's head moved all the same
        with _run_reads(first) as reads:
            assert _write(first, "u1", "c").ok
        assert len(reads) == 1
        _runs_seen_across_stores(first, second)
    finally:
        first.close()
        second.close()
    assert _verified(path)


def test_another_stores_run_is_seen_on_postgresql(pg_url: str) -> None:
    first, second = open_kernel(pg_url, create=True), open_kernel(pg_url, create=True)
    try:
        _runs_seen_across_stores(first, second)
    finally:
        first.close()
        second.close()
    assert _verified(pg_url)


def test_another_process_beginning_and_ending_a_run_is_seen_at_once(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    script = (
        "import sys\n"
        "from syscalls.boot import open_kernel\n"
        "kernel = open_kernel(sys.argv[1], create=True)\n"
        "name = 'pipeline.begin' if sys.argv[2] == 'begin' else 'pipeline.end'\n"
        "args = {'user_id': 'u1', 'run_id': 'r1'} if sys.argv[2] == 'begin' else {'run_id': 'r1'}\n"
        "result = kernel.call(name, args, principal='user:u1')\n"
        "kernel.close()\n"
        "sys.exit(0 if result.ok else 1)\n"
    )

    def other_process(action: str) -> None:
        subprocess.run([sys.executable, "-c", script, str(path), action], check=True, timeout=120)

    kernel = open_kernel(str(path), create=True)
    try:
        assert _write(kernel, "u1", "a").ok
        other_process("begin")
        assert _refused_in_flight(_write(kernel, "u1", "b"))
        assert _refused_in_flight(_write(kernel, "u1", "b"))  # what it read now is kept: still refused
        other_process("end")
        assert _write(kernel, "u1", "b").ok
    finally:
        kernel.close()
    assert _verified(path)


def test_a_run_read_inside_a_batch_that_began_it_is_not_kept(tmp_path: Path) -> None:
    """A batch that begins a run and then writes for its user reads the run uncommitted; it commits
    here, and the run's end by another store is still seen."""
    path = tmp_path / "j.db"
    first, second = open_kernel(str(path), create=True), open_kernel(str(path), create=True)
    try:
        assert _write(first, "u1", "a").ok
        results = first.call_many(
            [
                ("pipeline.begin", {"user_id": "u1", "run_id": "r1"}, "user:u1"),
                ("memory.write", _write_args("u1", "b"), "user:u1"),
            ]
        )
        assert results[0].ok and _refused_in_flight(results[1])
        assert _refused_in_flight(_write(first, "u1", "b"))
        assert _end(second, "u1", "r1").ok
        assert _write(first, "u1", "b").ok
    finally:
        first.close()
        second.close()
    assert _verified(path)


def _fail_next_commit(kernel: Kernel) -> None:
    """The kernel's next commit fails (the database rolls the transaction back)."""
    store = kernel.store
    assert isinstance(store, SqlJournalStore)
    commit = store._sql.commit

    def failing_commit() -> None:
        store._sql.commit = commit  # type: ignore[method-assign]
        raise sqlite3.OperationalError("disk I/O error")

    store._sql.commit = failing_commit  # type: ignore[method-assign]


def test_a_run_begun_in_a_batch_that_rolled_back_is_not_kept(tmp_path: Path) -> None:
    """A later call of the batch reads the uncommitted run; the commit fails; nothing of it stays."""
    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), create=True)
    try:
        assert _write(kernel, "u1", "a").ok  # kept: no active run for u1
        _fail_next_commit(kernel)
        results = kernel.call_many(
            [
                ("pipeline.begin", {"user_id": "u1", "run_id": "r1"}, "user:u1"),
                ("memory.write", _write_args("u1", "b"), "user:u1"),  # refused in-flight, reading r1
            ]
        )
        assert [result.seq for result in results] == [None, None]
        assert _write(kernel, "u1", "c").ok  # r1 never existed
    finally:
        kernel.close()
    assert _verified(path)


def test_interleaved_writers_never_decide_on_a_stale_run(tmp_path: Path) -> None:
    """Three stores on one file, in a random order, begin and end runs, write, batch, and fail a
    batch's commit; every decision is the one the runs committed at that moment give (kept here as
    the truth), and the journal verifies (replay, a single writer, decides each call again)."""
    path = tmp_path / "j.db"
    kernels = [open_kernel(str(path), create=True) for _ in range(3)]
    rng = random.Random(15)
    users = ["u1", "u2", "u3"]
    active: dict[str, list[str]] = {user: [] for user in users}
    counter = 0
    try:
        for _ in range(300):
            kernel = rng.choice(kernels)
            user = rng.choice(users)
            counter += 1
            action = rng.random()
            if action < 0.1:
                run_id = f"r{counter}"
                assert _begin(kernel, user, run_id).ok
                active[user].append(run_id)
            elif action < 0.5 and active[user]:
                assert _end(kernel, user, active[user].pop(rng.randrange(len(active[user])))).ok
            elif action < 0.6 and rng.random() < 0.4:  # a batch that begins a run, then rolls back
                _fail_next_commit(kernel)
                results = kernel.call_many(
                    [
                        ("pipeline.begin", {"user_id": user, "run_id": f"r{counter}"}, f"user:{user}"),
                        ("memory.write", _write_args(user, f"k{counter}"), f"user:{user}"),
                    ]
                )
                assert [result.seq for result in results] == [None, None]
                result = _write(kernel, user, f"k{counter}")  # the same store, at once
                assert _refused_in_flight(result) == bool(active[user]), (counter, result)
            elif action < 0.62:
                other = rng.choice(users)
                run_id = f"r{counter}"
                results = kernel.call_many(
                    [
                        ("memory.write", _write_args(user, f"k{counter}"), f"user:{user}"),
                        ("pipeline.begin", {"user_id": other, "run_id": run_id}, f"user:{other}"),
                        ("memory.write", _write_args(other, f"k{counter}b"), f"user:{other}"),
                    ]
                )
                assert _refused_in_flight(results[0]) == bool(active[user]), (counter, results[0])
                assert results[1].ok and _refused_in_flight(results[2])
                active[other].append(run_id)
            else:
                result = _write(kernel, user, f"k{counter}")
                assert _refused_in_flight(result) == bool(active[user]), (counter, result)
                assert result.ok == (not active[user]), (counter, result)
    finally:
        for kernel in kernels:
            kernel.close()
    assert _verified(path)

"""Many writers on one journal: processes calling at once, on SQLite and on PostgreSQL.

Each writer process (spawned, so it shares nothing with the test but the database) makes hundreds of
mixed calls (long-term writes, supersessions, conflicts, revokes, reads, working-memory calls on a
shared context and on its own) and returns, for every acknowledged call, its seq and the result bytes
it was given. Afterwards:

* no process saw an exception, and no call failed but for ``storage_busy``;
* the acknowledged seqs of all writers together are exactly 1..N, N the journal's length: seq is
  dense, no entry is unaccounted for (so no unacknowledged call, ``storage_busy`` included, reached
  the journal) and none is claimed twice;
* each writer's seqs increase (its calls are journaled in the order it made them);
* the journal holds exactly the result bytes each writer was given;
* the chain verifies and the replay reproduces every entry and the stored state;
* while they write, the test reads the live journal over and over: every read is a dense prefix
  1..n whose chain verifies (a reader never passes over a gap that fills in later).
"""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from chain_check import verify_chain
from fault_injection import (
    FaultPlan,
    WriterReport,
    inject,
    open_writer_kernel,
    pool_writer,
    set_start_barrier,
)

from journal.engine import open_engine
from journal.reader import JournalReader
from journal.store import SqlJournalStore, SystemClock
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE
from tools.audit.pieces import expanded_result
from tools.audit.replay import verify_journal

WRITERS = 4
CALLS = 250
SAFETY_TIMEOUT_S = 300  # a hung writer fails the test instead of hanging it; never a timing assertion


@dataclass
class Watched:
    """What the reads of the live journal saw."""

    reads: int = 0
    longest: int = 0


def watch(target: str, futures: list[Future[WriterReport]]) -> Watched:
    """Read the journal while the writers write: each read must be a dense prefix that verifies."""
    seen = Watched()
    reader: JournalReader | None = None
    try:
        while not all(future.done() for future in futures):
            time.sleep(0.01)  # leave the CPUs to the writers; the pause is no timing assertion
            if reader is None:
                if "://" not in target and not Path(target).exists():  # a reader never creates the file
                    continue
                reader = JournalReader.open(target)
            header = reader.header()
            if header is None:  # not created yet
                continue
            entries = list(reader.entries())
            assert [entry.seq for entry in entries] == list(range(1, len(entries) + 1)), "a gap"
            assert verify_chain(header, iter(entries)).verified
            seen.reads += 1
            seen.longest = max(seen.longest, len(entries))
    finally:
        if reader is not None:
            reader.close()
    return seen


def run_writers(
    target: str, *, calls: int = CALLS, busy_timeout_ms: int = 10_000, open_in_turn: bool = False
) -> tuple[list[WriterReport], Watched]:
    """WRITERS spawned processes that make ``calls`` each, all starting at the same moment; they open
    ``target`` at that moment too, or one after the other before it (``open_in_turn``)."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(WRITERS)
    lock = context.Lock() if open_in_turn else None
    seed = random.randrange(2**32)
    print(f"\nwriters seed {seed}")
    with ProcessPoolExecutor(
        WRITERS, mp_context=context, initializer=set_start_barrier, initargs=(barrier, lock)
    ) as pool:
        futures = [
            pool.submit(pool_writer, target, writer, calls, seed + writer, busy_timeout_ms)
            for writer in range(WRITERS)
        ]
        watched = watch(target, futures)
        return [future.result(timeout=SAFETY_TIMEOUT_S) for future in futures], watched


def check(target: str, reports: list[WriterReport], watched: Watched, label: str) -> None:
    exceptions = [text for report in reports for text in report.exceptions]
    assert not exceptions, exceptions
    codes = {code for report in reports for code, _ in report.unacknowledged}
    assert codes <= {"storage_busy"}, [item for r in reports for item in r.unacknowledged][:5]
    acknowledged = {seq: data for report in reports for seq, data in report.acknowledged}
    claimed = sum(len(report.acknowledged) for report in reports)
    for report in reports:
        seqs = [seq for seq, _ in report.acknowledged]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), f"writer {report.writer}"
        assert len(report.acknowledged) + len(report.unacknowledged) == report.calls
    reader = JournalReader.open(target)
    try:
        journal = {entry.seq: expanded_result(reader.engine, entry) for entry in reader.entries()}
        verdict = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert claimed == len(acknowledged), "a seq was acknowledged to two calls"
    assert sorted(journal) == list(range(1, len(journal) + 1)), "seq is not dense"
    assert sorted(acknowledged) == sorted(journal), "the journal and the acknowledged calls differ"
    lost = [seq for seq, data in acknowledged.items() if journal.get(seq) != data]
    assert not lost, f"acknowledged results not in the journal as returned: {lost[:5]}"
    assert verdict.verified, verdict.divergence
    busy = sum(len(report.unacknowledged) for report in reports)
    print(
        f"{label}: {WRITERS} writers, {sum(r.calls for r in reports)} calls, {claimed} acknowledged, "
        f"{busy} storage_busy (unacknowledged, none journaled), {verdict.entries} journal entries, "
        f"lost acknowledged calls {len(lost)}, chain breaks 0, replay verified; "
        f"{watched.reads} reads of the live journal, each a dense verified prefix "
        f"(up to {watched.longest} entries)"
    )


def test_many_writers_on_one_sqlite_file(tmp_path: Path) -> None:
    """Four processes open a new file at the same moment (so they also race to create and migrate
    it) and write at once; the busy timeout serialises them."""
    target = str(tmp_path / "journal.db")
    check(target, *run_writers(target), "SQLite")


def test_many_writers_with_no_busy_timeout_get_storage_busy_never_an_exception(tmp_path: Path) -> None:
    """Without a busy timeout, a writer that finds the lock taken is refused at once (after the
    kernel's retries): ``storage_busy``, unacknowledged, never journaled, never an exception."""
    target = str(tmp_path / "journal.db")
    reports, watched = run_writers(target, calls=200, busy_timeout_ms=0, open_in_turn=True)
    check(target, reports, watched, "SQLite, no busy timeout")


def test_many_writers_on_postgresql(pg_url: str) -> None:
    check(pg_url, *run_writers(pg_url), "PostgreSQL")


def test_a_reader_does_not_block_a_writer(tmp_path: Path) -> None:
    """An auditor reading a live journal (``JournalReader``: verify, tail, time travel) holds a read
    transaction, not the write lock: a writer that may not wait at all still gets through."""
    target = str(tmp_path / "journal.db")
    writer = open_writer_kernel(target, busy_timeout_ms=0)
    try:
        assert writer.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1").seq == 1
        reader = open_engine(target, read_only=True)
        try:
            with reader.connect() as connection:
                assert connection.exec_driver_sql("SELECT count(*) FROM journal").scalar_one() == 1
                # the read transaction is still open here
                result = writer.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1")
                assert result.seq == 2, result
                # and it reads the snapshot it started with
                assert connection.exec_driver_sql("SELECT count(*) FROM journal").scalar_one() == 1
        finally:
            reader.dispose()
    finally:
        writer.close()


def test_a_writer_opens_a_live_journal_while_another_holds_the_write_lock(tmp_path: Path) -> None:
    """Opening a store only reads (header, revision, tables) once the journal exists, so it takes no
    write lock: a writer that may not wait at all opens while another holds the lock, its call is
    refused ``storage_busy`` (never an exception) and goes through once the lock is released."""
    target = str(tmp_path / "journal.db")
    first = open_writer_kernel(target, busy_timeout_ms=0)
    try:
        assert first.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1").seq == 1
        holder = sqlite3.connect(target, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            second = open_writer_kernel(target, busy_timeout_ms=0)
            busy = second.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1")
            assert busy.error is not None and busy.error.code == "storage_busy", busy
        finally:
            holder.rollback()
            holder.close()
        try:
            assert second.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1").seq == 2
        finally:
            second.close()
    finally:
        first.close()


def test_a_new_file_read_while_it_is_created_is_waited_out(tmp_path: Path) -> None:
    """A reader may hold a new file while it is still in rollback mode (the live-journal reader of the
    test above looks as soon as the file exists); switching it to WAL waits that out even for a writer
    with no busy timeout, instead of failing its open with "database is locked"."""
    target = tmp_path / "journal.db"
    reader = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
    reader.execute("CREATE TABLE unrelated_probe (x)")  # the file exists, in rollback mode
    reader.execute("DROP TABLE unrelated_probe")
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM sqlite_master").fetchone()  # holds the shared lock
    release = threading.Timer(0.3, reader.rollback)
    release.start()
    try:
        writer = open_writer_kernel(str(target), busy_timeout_ms=0)
        try:
            assert writer.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1").seq == 1
        finally:
            writer.close()
    finally:
        release.join()
        reader.close()


def test_a_refusal_is_journaled_under_the_lock_it_was_decided_under(tmp_path: Path) -> None:
    """A deterministic interleaving of the race: writer A's write is refused (``memory_conflict``);
    between A's decision and the journaling of the refusal, writer B revokes the key. The journal
    then says the write was refused at a seq where the key is revoked: replay writes it, and the
    journal no longer verifies. (Once a refusal is journaled in the transaction that decided it,
    there is no second BEGIN to come in before, the test passes, and the xfail mark must go.)"""
    target = str(tmp_path / "journal.db")
    plan = FaultPlan()
    clock = SystemClock()
    store = SqlJournalStore(inject(open_engine(target), plan), clock=clock)
    first = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
    second = open_writer_kernel(target, busy_timeout_ms=0)  # never waits: a held lock is storage_busy
    write = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}
    revoked: list[SyscallResult] = []
    try:
        assert first.call("memory.write", write, principal="user:u1").seq == 1
        start = plan.operations  # a dry run of the refused call: where its transactions begin
        dry = first.call("memory.write", write, principal="user:u1")
        assert dry.error is not None and dry.error.code == "memory_conflict" and dry.seq == 2
        begins = [number for number, what in enumerate(plan.log[start:]) if what.startswith("BEGIN")]
        if len(begins) > 1:  # the refusal is journaled in a transaction of its own: B comes in between
            revoke = ("memory.revoke", {"user_id": "u1", "key": "language"})
            plan.interpose(begins[1], lambda: revoked.append(second.call(*revoke, principal="user:u1")))
        refused = first.call("memory.write", write, principal="user:u1")
        assert refused.error is not None and refused.error.code == "memory_conflict", refused
    finally:
        first.close()
        second.close()
    between = [result.seq for result in revoked]
    print(f"\nrefusal race: A's refusal journaled at seq {refused.seq}, B's revoke in between at {between}")
    reader = JournalReader.open(target)
    try:
        verdict = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert verdict.verified, verdict.divergence

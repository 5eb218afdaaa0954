"""Faults during a call: a full disk, an I/O error, a dropped connection.

Faults are injected at the DBAPI boundary by ``fault_injection`` (a wrapper connection installed
through SQLAlchemy's ``do_connect`` event; nothing of the kernel or the store is patched), at every
statement and commit of each call in turn, as SQLite's own I/O-error tests move the failing syscall
along a statement. After each fault:

* the call answers ``storage_unavailable`` with seq None (a batch: every call of it);
* nothing partial remains: the journal head and the state digest, read by another connection, are
  what they were before the call;
* the failed call holds no lock: another writer's call is acknowledged at once;
* the next call of the faulted kernel works (on a new connection where the old one was dropped);

and at the end the journal verifies by replay, seq dense. A last test makes the disk really full
(SQLite's ``max_page_count``) in the middle of a stream of writes.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fault_injection import Fault, FaultPlan, acknowledged_bytes, inject
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool

from journal.engine import open_engine, to_url
from journal.entry import Pos
from journal.reader import JournalReader
from journal.state import state_digest
from journal.store import SqlJournalStore, SystemClock
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"
USER = "user:u1"
CONTEXT = f"{AGENT}/c1"
"""The agent's own context: in a format-2 journal a name ``P/…`` is reserved to ``P``, who owns it."""


def _write(key: str, **extra: Any) -> dict[str, Any]:
    return {"user_id": "u1", "key": key, "memory_type": "preference", "source": "explicit_user", **extra}


Call = tuple[str, dict[str, Any], str]

# every path of a call through the store: writes, a supersession, a refusal (its handler's transaction
# rolled back, then a transaction of its own), reads, working memory, and a batch
SCRIPT: list[Call | list[Call]] = [
    ("memory.awmu.create", {"context_id": CONTEXT}, AGENT),
    ("memory.write", _write("language", value_ref="en"), USER),
    ("memory.write", _write("language", value_ref="fr"), USER),  # memory_conflict: a journaled refusal
    ("memory.write", _write("language", value_ref="de", replace=True), USER),
    ("memory.get", {"user_id": "u1", "key": "language"}, USER),
    (
        "memory.awmu.propose",
        {"context_id": CONTEXT, "text": "The user lives in Paris", "source": "user", "confidence": 0.9},
        AGENT,
    ),
    ("memory.awmu.turn", {"context_id": CONTEXT}, AGENT),
    ("memory.revoke", {"user_id": "u1", "key": "language"}, USER),
    ("memory.snapshot", {"user_id": "u1"}, USER),
    ("memory.awmu.assemble", {"context_id": CONTEXT, "token_budget": 40}, AGENT),
    [
        ("memory.write", _write("timezone", value_ref="utc"), USER),
        ("memory.write", _write("timezone", value_ref="cet"), USER),  # refused inside the batch
        (
            "memory.awmu.propose",
            {"context_id": CONTEXT, "text": "The user prefers tea", "source": "user", "confidence": 0.9},
            AGENT,
        ),
    ],
]
SHORT_SCRIPT = [SCRIPT[0], SCRIPT[1], SCRIPT[2], SCRIPT[5], SCRIPT[-1]]
"""Every kind of transaction of SCRIPT (a write, a refusal, working memory, a batch), for slower servers."""
PROBE: Call = ("memory.get", {"user_id": "u9", "key": "language"}, "user:u9")
"""A call that changes no state (its journal entry aside), made between faults by both kernels."""


def run_step(kernel: Kernel, step: Call | list[Call]) -> list[SyscallResult]:
    if isinstance(step, list):
        return kernel.call_many(step)
    name, args, principal = step
    return [kernel.call(name, args, principal=principal)]


@dataclass(frozen=True)
class Observed:
    """The database as another connection sees it: the journal head and the state digest."""

    head: Pos | None
    digest: str


def observe(engine: Engine) -> Observed:
    with engine.connect() as connection:
        row = connection.execute(
            text("SELECT seq, entry_hash FROM journal ORDER BY seq DESC LIMIT 1")
        ).first()
        return Observed(None if row is None else Pos(int(row[0]), str(row[1])), state_digest(connection))


def new_kernel(engine: Engine) -> Kernel:
    clock = SystemClock()
    store = SqlJournalStore(engine, clock=clock)
    return Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)


@contextlib.contextmanager
def closing(*kernels: Kernel) -> Iterator[None]:
    try:
        yield
    finally:
        for kernel in kernels:
            kernel.close()


def read_and_verify(target: str) -> tuple[dict[int, bytes], bool]:
    """The journal's result bytes by seq, and whether it verifies (chain, replay, stored state)."""
    reader = JournalReader.open(target)
    try:
        journal = {entry.seq: entry.result for entry in reader.entries()}
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    return journal, report.verified


def verify(target: str) -> tuple[bool, int]:
    journal, verified = read_and_verify(target)
    return verified, len(journal)


def fault_every_operation(
    target: str,
    fault: Fault,
    *,
    script: list[Call | list[Call]] = SCRIPT,
    killer: Callable[[Any], None] | None = None,
) -> Counter[str]:
    """Run ``script``, failing each call at its 1st, 2nd, ... operation until it completes; returns counts."""
    plan = FaultPlan(killer=killer)
    faulted = new_kernel(inject(open_engine(target), plan))
    other = new_kernel(open_engine(target))
    observer = open_engine(target, read_only=True)
    counts: Counter[str] = Counter()
    acknowledged: dict[int, bytes] = {}  # seq -> result bytes of every acknowledged call

    def run(kernel: Kernel, step: Call | list[Call]) -> list[SyscallResult]:
        results = run_step(kernel, step)
        for result in results:
            if result.seq is not None:
                assert result.seq not in acknowledged, f"seq {result.seq} acknowledged twice"
                acknowledged[result.seq] = acknowledged_bytes(result)
        return results

    try:
        with closing(faulted, other):
            for step in script:
                at = 0
                while True:
                    before = observe(observer)
                    plan.arm(fault, at)
                    results = run(faulted, step)
                    fired = not plan.armed
                    plan.disarm()
                    if not fired:  # the call has fewer operations: it ran whole, unharmed
                        assert all(result.seq is not None for result in results), results
                        counts["calls completed after their faults"] += len(results)
                        break
                    counts["faults injected"] += 1
                    counts["calls failed"] += len(results)
                    for result in results:
                        assert result.seq is None and result.error is not None, result
                        assert result.error.code == "storage_unavailable", result
                    after = observe(observer)
                    assert after == before, f"{fault} at operation {at} of {step!r} left a change behind"
                    # the failed call holds no lock: another writer goes through at once
                    seq = before.head.seq if before.head else 0
                    assert [result.seq for result in run(other, PROBE)] == [seq + 1]
                    # and the faulted kernel's next call works
                    assert [result.seq for result in run(faulted, PROBE)] == [seq + 2]
                    at += 1
                counts["operations faulted in one call, at most"] = max(
                    counts["operations faulted in one call, at most"], at
                )
    finally:
        observer.dispose()
    counts["connections opened by the faulted kernel"] = len(plan.connections)
    assert len(plan.fired) == counts["faults injected"]
    journal, verified = read_and_verify(target)
    # the journal holds the acknowledged calls, exactly, and nothing else: no failed call left an entry
    lost = [seq for seq, data in acknowledged.items() if journal.get(seq) != data]
    assert sorted(journal) == sorted(acknowledged) == list(range(1, len(journal) + 1))
    assert not lost
    assert verified
    counts["journal entries"] = len(journal)
    counts["lost acknowledged calls"] = len(lost)
    counts["chain breaks"] = 0
    return counts


def report(title: str, counts: Counter[str]) -> None:
    print(f"\n{title}: " + ", ".join(f"{name} {value}" for name, value in sorted(counts.items())))


@pytest.mark.parametrize("fault", list(Fault))
def test_a_fault_at_any_operation_of_a_call_leaves_nothing_and_the_next_call_works(
    tmp_path: Path, fault: Fault
) -> None:
    counts = fault_every_operation(str(tmp_path / "journal.db"), fault)
    report(f"SQLite, {fault}", counts)
    assert counts["faults injected"] >= 60  # every operation of every step was faulted once
    if fault is Fault.DISCONNECT:  # each drop was followed by a reconnection
        assert counts["connections opened by the faulted kernel"] == counts["faults injected"] + 1


@pytest.mark.parametrize("fault", list(Fault))
def test_a_fault_at_any_operation_of_a_call_on_postgresql(pg_url: str, fault: Fault) -> None:
    admin = create_engine(to_url(pg_url), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as session:

        def terminate(connection: Any) -> None:
            """A really dropped connection: the server ends the session; the test waits until its
            process is gone (``pg_terminate_backend``'s own wait sleeps 100 ms at a time)."""
            pid = {"pid": connection.info.backend_pid}
            assert session.execute(text("SELECT pg_terminate_backend(:pid)"), pid).scalar_one()
            alive = text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid")
            for _ in range(10_000):  # a safety bound, never a timing assertion
                if session.execute(alive, pid).scalar_one() == 0:
                    return
                time.sleep(0.001)
            raise AssertionError(f"backend {pid} still alive")

        try:
            counts = fault_every_operation(pg_url, fault, script=SHORT_SCRIPT, killer=terminate)
        finally:
            session.close()
    admin.dispose()
    report(f"PostgreSQL, {fault}", counts)
    assert counts["faults injected"] >= 40
    if fault is Fault.DISCONNECT:
        assert counts["connections opened by the faulted kernel"] == counts["faults injected"] + 1


def test_a_commit_that_fails_leaves_no_transaction_open(tmp_path: Path) -> None:
    """The regression behind ``SqlJournalStore._whole``: SQLAlchemy ends its transaction when COMMIT
    fails without rolling the driver's back, so the connection stayed inside BEGIN IMMEDIATE (the
    write lock held) and the next call failed with "cannot start a transaction within a transaction"."""
    target = str(tmp_path / "journal.db")
    plan = FaultPlan()
    kernel = new_kernel(inject(open_engine(target), plan))
    with closing(kernel):
        assert kernel.call(*PROBE[:2], principal=PROBE[2]).seq == 1
        start = plan.operations
        kernel.call(*PROBE[:2], principal=PROBE[2])
        commit = plan.operations - start - 1  # the last operation of a call is its COMMIT
        plan.arm(Fault.IO_ERROR, commit)
        failed = kernel.call(*PROBE[:2], principal=PROBE[2])
        assert plan.fired[-1][2] == "COMMIT"
        assert failed.seq is None and failed.error is not None
        assert failed.error.code == "storage_unavailable"
        with contextlib.closing(sqlite3.connect(target, timeout=0)) as raw:
            raw.execute("BEGIN IMMEDIATE")  # the write lock is free
            raw.execute("ROLLBACK")
        assert kernel.call(*PROBE[:2], principal=PROBE[2]).seq == 3
    assert verify(target) == (True, 3)


def test_a_really_full_disk_in_the_middle_of_writes(tmp_path: Path) -> None:
    """SQLite's own limit makes the disk really full (``PRAGMA max_page_count`` on the kernel's
    connection): writes go on until the database cannot grow; the call that hits the limit (a write,
    then even a read, which is journaled too) is not acknowledged and leaves nothing; once there is
    room again the next call is acknowledged."""
    target = str(tmp_path / "journal.db")
    plan = FaultPlan()
    kernel = new_kernel(inject(open_engine(target), plan))
    observer = open_engine(target, read_only=True)
    big = "x" * 1000
    acknowledged: dict[int, bytes] = {}
    refused: list[SyscallResult] = []

    def call(name: str, args: dict[str, Any], principal: str) -> SyscallResult:
        before = observe(observer)
        result = kernel.call(name, args, principal=principal)
        if result.seq is None:
            refused.append(result)
            assert observe(observer) == before, "a call that hit the full disk left a change behind"
        else:
            acknowledged[result.seq] = acknowledged_bytes(result)
        return result

    try:
        with closing(kernel):
            connection: sqlite3.Connection = plan.live
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count = {pages + 40}")
            for number in range(2_000):  # a safety bound: the limit is reached within ~50 writes
                if call("memory.write", _write(f"k{number}", value_ref=big, notes=big), USER).seq is None:
                    break
            writes_refused = len(refused)
            for _ in range(2_000):  # the journal entry of a read still fits for a while
                if call(*PROBE[:2], PROBE[2]).seq is None:
                    break
            assert writes_refused == 1 and len(refused) == 2, refused
            for result in refused:
                assert result.error is not None and result.error.code == "storage_unavailable"
                assert "full" in result.error.detail
            connection.execute("PRAGMA max_page_count = 1073741823")  # room again
            after = call("memory.write", _write("after", value_ref=big, notes=big), USER)
            assert after.seq == len(acknowledged)
    finally:
        observer.dispose()
    journal, verified = read_and_verify(target)
    lost = [seq for seq, data in acknowledged.items() if journal.get(seq) != data]
    assert sorted(journal) == sorted(acknowledged) == list(range(1, len(journal) + 1))
    assert not lost and verified
    print(
        f"\nSQLite, a really full disk: {len(acknowledged)} calls acknowledged, {len(refused)} refused "
        f"storage_unavailable (disk full) leaving nothing, lost acknowledged calls {len(lost)}, "
        "chain breaks 0"
    )


def test_faults_do_not_change_what_a_healthy_run_journals(tmp_path: Path) -> None:
    """A control: with the wrapper installed and nothing armed, the journal is the one a plain
    kernel writes (so the wrapper itself changes nothing)."""
    from datetime import UTC, datetime, timedelta

    from journal.store import ManualClock

    def journal_of(path: Path, wrapped: bool) -> list[tuple[int, str]]:
        clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1))
        engine = open_engine(str(path))
        if wrapped:
            inject(engine, FaultPlan())
        store = SqlJournalStore(engine, clock=clock, journal_id="j-faults")
        kernel = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
        with closing(kernel):
            for step in SCRIPT:
                run_step(kernel, step)
        reader = JournalReader.open(str(path))
        try:
            return [(entry.seq, entry.entry_hash) for entry in reader.entries()]
        finally:
            reader.close()

    assert journal_of(tmp_path / "plain.db", False) == journal_of(tmp_path / "wrapped.db", True)

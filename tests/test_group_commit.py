"""Group commit (``Kernel.call``, ``specs/durability.md`` §3.1): calls that threads make while the kernel is
busy wait in its queue, and the next writer runs them as one group, in one transaction and one commit;
each keeps its own entry, a refused one leaves nothing, and every one is acknowledged when the group
commits. Only what a caller can see is tested: results, seqs, the journal, the transactions opened."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from grouped_calls import between_calls, calls_together

from journal.engine import Durability
from journal.reader import JournalReader
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

ADMIN = "admin:ops"


def _write(user: str, key: str) -> tuple[str, dict[str, Any]]:
    return (
        "memory.write",
        {"user_id": user, "key": key, "memory_type": "preference", "source": "explicit_user"},
    )


class _Counted:
    """How many database transactions the store opened: one per call alone, one per group."""

    def __init__(self, kernel: Kernel) -> None:
        self.single = 0
        self.groups: list[int] = []
        store: Any = kernel.store
        transaction, batch = store.transaction, store.batch

        def counted_transaction(**options: Any) -> Any:
            self.single += 1
            return transaction(**options)

        @contextmanager
        def counted_batch(**options: Any) -> Iterator[Any]:
            with batch(**options) as opened:
                yield opened
                self.groups.append(opened.at.seq)

        store.transaction = counted_transaction
        store.batch = counted_batch


def _wait_until_queued(kernel: Kernel, count: int) -> None:
    """Wait (a safety bound of 30 s, never a timing assertion) until ``count`` calls are queued."""
    deadline = time.monotonic() + 30
    while kernel.queued() < count:
        assert time.monotonic() < deadline, "the calls did not all queue"
        time.sleep(0.001)


_calls_together = calls_together


def _verified(path: Path | str) -> Any:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE), list(reader.entries())
    finally:
        reader.close()


def test_calls_that_wait_together_commit_together(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path), durability=Durability.FULL)
    counted = _Counted(kernel)
    calls = [(*_write(f"u{index}", "language"), ADMIN) for index in range(6)]
    results = _calls_together(kernel, calls)
    assert all(result.ok for result in results)
    assert sorted(result.seq for result in results if result.seq is not None) == list(range(1, 7))
    assert counted.groups == [6] and counted.single == 0  # one transaction, one commit
    kernel.store.close()
    report, entries = _verified(path)
    assert report.verified, report.divergence
    assert len(entries) == 6


def test_on_postgresql_reads_and_writes_that_wait_together_commit_together(
    pg_url: str, kernel_factory: Callable[..., Kernel]
) -> None:
    """A group of writes and reads at FULL: one transaction (durable, since it holds writes), every call
    acknowledged, seq dense; then a group of reads alone, one transaction too."""
    kernel = kernel_factory(pg_url, durability=Durability.FULL)
    counted = _Counted(kernel)
    get = ("memory.get", {"user_id": "u0", "key": "language"}, ADMIN)
    calls = [(*_write(f"u{index}", "language"), ADMIN) for index in range(3)] + [get, get]
    first = _calls_together(kernel, calls)
    reads = _calls_together(kernel, [get, get, get])
    assert sorted(result.seq or 0 for result in first + reads) == list(range(1, 9))
    assert all(result.seq is not None for result in first + reads)
    assert counted.groups == [5, 8] and counted.single == 0
    kernel.store.close()
    report, entries = _verified(pg_url)
    assert report.verified, report.divergence
    assert len(entries) == 8


def test_a_refused_call_in_a_group_leaves_nothing_and_the_others_commit(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    assert kernel.call(*_write("u1", "language"), principal=ADMIN).ok
    calls = [
        (*_write("u2", "language"), ADMIN),
        (*_write("u1", "language"), ADMIN),  # a conflict: refused, journaled, nothing written
        ("memory.get", {"user_id": "u1", "key": "missing"}, ADMIN),
        (*_write("u3", "language"), ADMIN),
    ]
    results = _calls_together(kernel, calls)
    codes = sorted("ok" if result.ok else str(result.error and result.error.code) for result in results)
    assert codes == ["memory_conflict", "memory_entry_not_found", "ok", "ok"]
    assert all(result.seq is not None for result in results)  # every refusal is journaled too
    listed = kernel.call("memory.list", {"user_id": "u1", "include_inactive": True}, principal=ADMIN)
    assert listed.value["count"] == 1
    kernel.store.close()
    report, entries = _verified(path)
    assert report.verified, report.divergence
    assert [entry.status for entry in entries[1:5]] == [
        "ok" if result.ok else str(result.error and result.error.code)
        for result in sorted(results, key=lambda result: result.seq or 0)
    ]


def test_without_group_commit_each_call_has_its_own_transaction(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    kernel = kernel_factory(str(tmp_path / "journal.db"), group_commit=False)
    counted = _Counted(kernel)
    workers = [
        threading.Thread(target=lambda n=n: kernel.call(*_write(f"u{n}", "language"), principal=ADMIN))
        for n in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert counted.single == 4 and counted.groups == []


def test_a_group_that_cannot_commit_runs_its_calls_one_by_one(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One call's storage failure must not be the others': the failed group left nothing, and each
    call is run again in a transaction of its own."""
    from kernel.protocols import StorageError

    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    store: Any = kernel.store
    batch = store.batch

    @contextmanager
    def failing_batch(**options: Any) -> Iterator[Any]:
        with batch(**options) as opened:
            yield opened
            raise StorageError("disk full")  # before the commit: the transaction is rolled back

    monkeypatch.setattr(store, "batch", failing_batch)
    counted = _Counted(kernel)
    results = _calls_together(kernel, [(*_write(f"u{index}", "language"), ADMIN) for index in range(3)])
    assert all(result.ok for result in results)
    assert sorted(result.seq or 0 for result in results) == [1, 2, 3]  # nothing of the group is left
    assert counted.single == 3
    kernel.store.close()
    report, entries = _verified(path)
    assert report.verified and len(entries) == 3


def test_a_group_that_fails_answers_every_one_of_its_calls(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No thread waits for ever: a failure while a group runs answers each of its calls, unacknowledged."""
    kernel = kernel_factory(str(tmp_path / "journal.db"))

    def broken(recorded: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(kernel, "_load_encoder_for", broken)
    results = _calls_together(kernel, [(*_write(f"u{index}", "language"), ADMIN) for index in range(3)])
    assert [(result.seq, result.error and result.error.code) for result in results] == [
        (None, "internal_error")
    ] * 3
    monkeypatch.undo()
    assert kernel.call(*_write("u9", "language"), principal=ADMIN).seq == 1


def test_call_many_answers_a_malformed_item_without_raising(kernel: Kernel) -> None:
    results = kernel.call_many([("memory.get",), "junk", (*_write("u1", "language"), ADMIN)])  # type: ignore[list-item]
    assert [result.error and result.error.code for result in results[:2]] == ["invalid_args"] * 2
    assert all(result.seq is None for result in results[:2]) and results[2].ok


class _NestingLogger:
    """A logger that makes a call of its own when it logs a write (an audit hook, say): the kernel calls
    it while the thread that logs still leads its group."""

    def __init__(self) -> None:
        self.kernel: Kernel | None = None
        self.nested: list[SyscallResult] = []

    def info(self, event: str, **fields: Any) -> None:
        if fields.get("syscall") == "memory.write" and not self.nested and self.kernel is not None:
            self.nested.append(
                self.kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal=ADMIN)
            )


def test_a_call_made_by_the_leading_thread_runs_at_once(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    logger = _NestingLogger()
    kernel = kernel_factory(str(tmp_path / "journal.db"), logger=logger)
    logger.kernel = kernel
    done: list[SyscallResult] = []
    worker = threading.Thread(
        target=lambda: done.append(kernel.call(*_write("u1", "language"), principal=ADMIN))
    )
    worker.start()
    worker.join(timeout=30)
    assert done and done[0].seq == 1, "the call never returned: its nested call waited behind its own group"
    assert [result.seq for result in logger.nested] == [2] and logger.nested[0].ok
    assert kernel.queued() == 0


def test_a_call_alone_has_a_transaction_of_its_own(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    counted = _Counted(kernel)
    assert kernel.call(*_write("u0", "language"), principal=ADMIN).seq == 1
    assert kernel.call("memory.get", {"user_id": "u0", "key": "language"}, principal=ADMIN).seq == 2
    assert counted.single == 2 and counted.groups == [] and kernel.queued() == 0


def test_more_calls_than_a_group_holds_commit_in_several_groups_in_arrival_order(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    import kernel.dispatcher as dispatcher

    monkeypatch.setattr(dispatcher, "GROUP_MAX", 2)
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    counted = _Counted(kernel)
    results = _calls_together(kernel, [(*_write(f"u{index}", "language"), ADMIN) for index in range(5)])
    assert sorted(result.seq or 0 for result in results) == [1, 2, 3, 4, 5]
    assert counted.groups == [2, 4] and counted.single == 1  # last seqs of groups of 2, then one alone
    kernel.store.close()
    report, entries = _verified(path)
    assert report.verified
    times = [entry.recorded_at for entry in entries]
    assert times == sorted(times)  # the writer reads the time as it takes each call: seq order


def test_work_between_calls_keeps_every_call_out_until_it_ends(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """``between_calls`` runs under the execution lock: a call made meanwhile executes only once the work
    returns (the LangGraph adapters read blobs on the store's connection this way)."""
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    started, release = threading.Event(), threading.Event()
    outcome: dict[str, Any] = {}

    def work() -> str:
        started.set()
        assert release.wait(30)
        outcome["journaled during the work"] = len(_verified(path)[1])
        return "done"

    worker = threading.Thread(target=lambda: outcome.setdefault("work", between_calls(kernel, work)))
    worker.start()
    syscall, args = _write("u1", "k")
    caller = threading.Thread(
        target=lambda: outcome.setdefault("call", kernel.call(syscall, args, principal=ADMIN))
    )
    try:
        assert started.wait(30)
        caller.start()
        caller.join(0.2)
        assert (
            caller.is_alive()
        )  # waiting for the work (not a timing claim: without the lock it ends at once)
    finally:
        release.set()
        worker.join(30)
        if caller.ident is not None:
            caller.join(30)
    assert outcome["work"] == "done" and outcome["call"].ok
    assert outcome["journaled during the work"] == 0


def test_a_call_made_by_work_between_calls_runs_at_once(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """A call the work itself makes, while another thread's call is queued, runs under the lock the work
    holds instead of queueing behind a leader that waits for that lock."""
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    queued: dict[str, SyscallResult] = {}
    other = threading.Thread(
        target=lambda: queued.setdefault("call", kernel.call(*_write("u2", "k"), principal=ADMIN)),
        daemon=True,
    )

    def work() -> SyscallResult:
        other.start()
        _wait_until_queued(kernel, 1)
        return kernel.call(*_write("u1", "k"), principal=ADMIN)

    finished: dict[str, SyscallResult] = {}
    worker = threading.Thread(
        target=lambda: finished.setdefault("work", between_calls(kernel, work)), daemon=True
    )
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "the work's call waited for itself"
    other.join(30)
    assert finished["work"].ok and queued["call"].ok
    assert [entry.seq for entry in _verified(path)[1]] == [1, 2]


class _HoldingLogger:
    """A logger that holds the writer on the event of seq ``held`` until ``release`` is set (a safety bound
    longer than the test's own waits, so that a caller kept waiting by the writer fails the test)."""

    def __init__(self, held: int) -> None:
        self.held = held
        self.reached, self.release = threading.Event(), threading.Event()

    def info(self, event: str, **fields: Any) -> None:
        if fields.get("seq") == self.held:
            self.reached.set()
            assert self.release.wait(120)


def test_a_caller_is_answered_when_its_group_commits_not_when_the_writer_is_free(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two calls wait; the writer runs them as one group, then a group of its own that does not end (its
    logger holds it). The two callers return meanwhile: each was answered when its group committed."""
    import kernel.dispatcher as dispatcher

    monkeypatch.setattr(dispatcher, "GROUP_MAX", 2)
    logger = _HoldingLogger(held=3)
    kernel = kernel_factory(str(tmp_path / "journal.db"), logger=logger)
    answered: dict[str, SyscallResult] = {}
    callers = [
        threading.Thread(
            target=lambda user=user: answered.setdefault(
                user, kernel.call(*_write(user, "k"), principal=ADMIN)
            ),
            daemon=True,
        )
        for user in ("u1", "u2")
    ]

    def work() -> SyscallResult:
        for caller in callers:
            caller.start()
        _wait_until_queued(kernel, 2)
        return kernel.call(*_write("u3", "k"), principal=ADMIN)  # the writer's own: after the two

    finished: dict[str, SyscallResult] = {}
    writer = threading.Thread(
        target=lambda: finished.setdefault("own", between_calls(kernel, work)), daemon=True
    )
    writer.start()
    try:
        assert logger.reached.wait(30), "the writer never reached its own call"
        for caller in callers:
            caller.join(30)
        assert sorted(result.seq or 0 for result in answered.values()) == [1, 2]  # while the writer writes
    finally:
        logger.release.set()
        writer.join(30)
    assert finished["own"].seq == 3

"""Group commit (``Kernel.call``, ``specs/durability.md`` §3.1): calls that threads make while another
call executes wait together and are executed as one group, in one transaction and one commit; each keeps
its own entry, a refused one leaves nothing, and every one is acknowledged when the group commits."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from journal.engine import Durability
from journal.reader import JournalReader
from journal.replay import verify_journal
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.table import SYSCALL_TABLE

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

        def counted_transaction() -> Any:
            self.single += 1
            return transaction()

        @contextmanager
        def counted_batch() -> Iterator[Any]:
            with batch() as opened:
                yield opened
                self.groups.append(opened.next_seq - 1)

        store.transaction = counted_transaction
        store.batch = counted_batch


def _wait_until_queued(kernel: Kernel, count: int) -> None:
    """Wait (a safety bound of 30 s, never a timing assertion) until ``count`` calls are queued."""
    deadline = time.monotonic() + 30
    while len(kernel._waiting) < count:
        assert time.monotonic() < deadline, "the calls did not all queue"
        time.sleep(0.001)


def _calls_together(kernel: Kernel, calls: list[tuple[str, dict[str, Any], str]]) -> list[SyscallResult]:
    """Make the calls from one thread each while the kernel is busy, so that they all wait; then let
    the kernel go: the first thread to get its turn executes them all as one group."""
    results: list[SyscallResult | None] = [None] * len(calls)

    def call(index: int) -> None:
        name, args, principal = calls[index]
        results[index] = kernel.call(name, args, principal=principal)

    threads = [threading.Thread(target=call, args=(index,)) for index in range(len(calls))]
    with kernel._lock:  # the kernel is executing something else
        for thread in threads:
            thread.start()
        _wait_until_queued(kernel, len(calls))
    for thread in threads:
        thread.join(timeout=30)
    assert all(result is not None for result in results)
    return [result for result in results if result is not None]


def _verified(path: Path) -> Any:
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
    def failing_batch() -> Iterator[Any]:
        with batch() as opened:
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


class _CountingLock:
    """The kernel's execution lock, counting which threads take it."""

    def __init__(self, lock: Any) -> None:
        self._lock = lock
        self.takers: list[str] = []

    def __enter__(self) -> Any:
        self.takers.append(threading.current_thread().name)
        return self._lock.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._lock.__exit__(*exc)

    def _is_owned(self) -> bool:
        return bool(self._lock._is_owned())

    def acquire(self, blocking: bool = True) -> bool:
        taken = bool(self._lock.acquire(blocking))
        if taken:
            self.takers.append(threading.current_thread().name)
        return taken

    def release(self) -> None:
        self._lock.release()


def test_the_threads_of_a_group_never_take_the_execution_lock(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    counted = _Counted(kernel)
    held = kernel._lock
    counting = _CountingLock(held)
    calls = [(*_write(f"u{index}", "language"), ADMIN) for index in range(5)]
    results: list[SyscallResult] = []
    threads = [
        threading.Thread(
            target=lambda call=call: results.append(kernel.call(call[0], call[1], principal=call[2])),
            name=f"writer-{index}",
        )
        for index, call in enumerate(calls)
    ]
    with held:  # busy: every call queues behind the first
        kernel._lock = counting  # type: ignore[assignment]
        for thread in threads:
            thread.start()
        _wait_until_queued(kernel, len(calls))
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(result.seq or 0 for result in results) == [1, 2, 3, 4, 5]
    assert counted.groups == [5] and counted.single == 0
    leaders = [name for name in counting.takers if name.startswith("writer-")]
    assert len(leaders) == 1  # the leader alone; the four others were woken with their results


class _Callers:
    """Threads each making one write of a user of its own on ``kernel``, timed from the first."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.results: list[SyscallResult] = []
        self.threads: list[threading.Thread] = []
        self.started = time.monotonic()

    def start(self) -> None:
        index = len(self.threads)

        def call() -> None:
            self.results.append(self.kernel.call(*_write(f"u{index}", "language"), principal=ADMIN))

        thread = threading.Thread(target=call)
        self.threads.append(thread)
        thread.start()

    def lead(self, within: float) -> None:
        """The first call, which leads and waits for company (within ``within`` seconds)."""
        self.started = time.monotonic()
        self.start()
        while not self.kernel._gathering:
            assert time.monotonic() - self.started < within, "the leader did not wait"
            time.sleep(0.001)

    def join(self) -> float:
        """Seconds from the first call until every thread returned."""
        for thread in self.threads:
            thread.join(timeout=60)
            assert not thread.is_alive()
        return time.monotonic() - self.started

    def seqs(self) -> list[int]:
        return sorted(result.seq or 0 for result in self.results)


def test_a_leader_waits_for_as_many_calls_as_the_last_group_held(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a group of 3, the next leader waits (up to ``GATHER_S``) until 3 calls are queued, so the
    threads of the last group share one commit instead of making the next group a group of one."""
    import kernel.dispatcher as dispatcher

    monkeypatch.setattr(dispatcher, "GATHER_S", 30.0)  # a bound the test never reaches
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    counted = _Counted(kernel)
    kernel._last_group = 3
    callers = _Callers(kernel)
    callers.lead(within=30)
    callers.start()
    callers.start()
    assert callers.join() < 30  # it stopped waiting when the third call queued
    assert counted.groups == [3] and counted.single == 0
    assert callers.seqs() == [1, 2, 3]


class _CountingCondition(threading.Condition):
    """A condition that counts its notifications (``notify_all`` is ``notify`` of every waiter)."""

    def __init__(self, lock: Any) -> None:
        super().__init__(lock)
        self.notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def test_the_gathering_leader_alone_is_woken_once_when_its_group_is_complete(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a leader gathers, a call that queues wakes nobody until the queue holds the last group's
    size: then the leader alone (the calls queued before sleep on, each waking costs the interpreter a
    switch). The group's end wakes the waiting threads once."""
    import kernel.dispatcher as dispatcher

    monkeypatch.setattr(dispatcher, "GATHER_S", 30.0)
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    turns = _CountingCondition(kernel._queue_lock)
    gathered = _CountingCondition(kernel._queue_lock)
    kernel._turns, kernel._gathered = turns, gathered
    kernel._last_group = 4
    callers = _Callers(kernel)
    callers.lead(within=30)
    for index in (1, 2, 3):
        queued = len(kernel._waiting)
        callers.start()
        while len(kernel._waiting) == queued and kernel._gathering:  # queued, one at a time
            assert time.monotonic() - callers.started < 30, "a call did not queue"
            time.sleep(0.001)
        if index < 3:
            assert kernel._gathering and turns.notified == 0 and gathered.notified == 0
    assert callers.join() < 30  # the leader was woken, not timed out
    assert gathered.notified == 1
    assert turns.notified == 1  # the group's end
    assert callers.seqs() == [1, 2, 3, 4]


def test_a_stale_waiter_left_by_an_interrupted_wait_does_not_take_the_leaders_wake_up(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Condition.wait`` adds its waiter before it releases the lock: an interrupt between the two leaves
    a waiter nobody waits on. The call that completes a group wakes every waiter of the gathering
    condition, so such a stale one cannot take the leader's wake-up (it would wait all of GATHER_S)."""
    import kernel.dispatcher as dispatcher

    monkeypatch.setattr(dispatcher, "GATHER_S", 5.0)
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    stale = threading.Lock()
    stale.acquire()
    kernel._gathered._waiters.append(stale)  # type: ignore[attr-defined]  # as the interrupted wait leaves it
    kernel._last_group = 2
    callers = _Callers(kernel)
    callers.lead(within=5)
    callers.start()
    assert callers.join() < 4  # woken when the second call queued, not after GATHER_S
    assert callers.seqs() == [1, 2]


def test_a_leader_that_waits_in_vain_runs_what_it_has(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    import kernel.dispatcher as dispatcher

    monkeypatch.setattr(dispatcher, "GATHER_S", 0.01)
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    counted = _Counted(kernel)
    kernel._last_group = 4
    assert kernel.call(*_write("u1", "language"), principal=ADMIN).seq == 1
    assert counted.single == 1 and kernel._last_group == 1
    # a lone writer: the last group was one call, so the next leader does not wait
    monkeypatch.setattr(dispatcher, "GATHER_S", 30.0)
    started = time.monotonic()
    assert kernel.call(*_write("u2", "language"), principal=ADMIN).seq == 2
    assert time.monotonic() - started < 30


def test_a_call_interrupted_while_queued_leaves_the_queue_and_the_next_call_leads(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """A caller interrupted (KeyboardInterrupt, say) while its call waits behind a running group, before any
    group took it, takes its call out of the queue: otherwise it would reach the front with no thread to
    lead it, and every later call would wait for ever."""
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    running, release = threading.Event(), threading.Event()
    run_group = kernel._run_group

    def slow_group(group: Any) -> None:
        running.set()
        release.wait(30)
        run_group(group)

    kernel._run_group = slow_group  # type: ignore[method-assign]
    results: dict[str, SyscallResult] = {}

    def call(tag: str, user: str) -> None:
        results[tag] = kernel.call(*_write(user, "language"), principal=ADMIN)

    leader = threading.Thread(target=call, args=("leader", "u0"))
    with kernel._lock:  # busy: the first call queues (a lone writer's call would run at once, unqueued)
        leader.start()
        _wait_until_queued(kernel, 1)
    assert running.wait(30)  # the leader executes its group (itself)
    sleep = kernel._sleep

    def interrupted(timeout: float | None = None) -> None:
        raise KeyboardInterrupt  # as a signal would, while this thread waits for its turn

    kernel._sleep = interrupted  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        kernel.call(*_write("u1", "language"), principal=ADMIN)
    kernel._sleep = sleep  # type: ignore[method-assign]
    assert len(kernel._waiting) == 1  # the running group's call alone
    later = threading.Thread(target=call, args=("later", "u2"))
    later.start()
    release.set()
    for thread in (leader, later):
        thread.join(timeout=30)
    assert results["leader"].seq == 1 and results["later"].seq == 2


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
    assert kernel._waiting == []


def test_a_lone_writers_call_runs_at_once_and_a_call_meanwhile_queues_and_leads_next(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """A lone writer (last group of one, nothing queued or executing) never enters the queue; a call made
    while it executes queues, and leads once the lone call is done, as any front call does."""
    kernel = kernel_factory(str(tmp_path / "journal.db"))
    counted = _Counted(kernel)
    queued: list[int] = []

    class _SpiedQueue(list[Any]):
        def append(self, waiting: Any) -> None:
            queued.append(1)
            super().append(waiting)

    kernel._waiting = _SpiedQueue()
    assert kernel.call(*_write("u0", "language"), principal=ADMIN).seq == 1
    assert queued == [] and counted.single == 1 and not kernel._waiting

    running, release = threading.Event(), threading.Event()
    execute = kernel._execute_recorded

    def slow_execute(recorded: Any, transactions: Any = None) -> SyscallResult:
        running.set()
        release.wait(30)
        return execute(recorded, transactions)

    kernel._execute_recorded = slow_execute  # type: ignore[method-assign]
    results: dict[str, SyscallResult] = {}
    lone = threading.Thread(
        target=lambda: results.__setitem__("lone", kernel.call(*_write("u1", "tz"), principal=ADMIN))
    )
    lone.start()
    assert running.wait(30)  # the lone call executes, unqueued
    assert queued == []  # executing, and never queued
    later = threading.Thread(
        target=lambda: results.__setitem__("later", kernel.call(*_write("u2", "tz"), principal=ADMIN))
    )
    later.start()
    _wait_until_queued(kernel, 1)  # the execution lock is held: the new call queues
    release.set()
    for thread in (lone, later):
        thread.join(timeout=30)
    assert results["lone"].seq == 2 and results["later"].seq == 3
    assert queued == [1] and not kernel._waiting


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

    worker = threading.Thread(target=lambda: outcome.setdefault("work", kernel.between_calls(work)))
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
        target=lambda: finished.setdefault("work", kernel.between_calls(work)), daemon=True
    )
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "the work's call waited for itself"
    other.join(30)
    assert finished["work"].ok and queued["call"].ok
    assert [entry.seq for entry in _verified(path)[1]] == [1, 2]

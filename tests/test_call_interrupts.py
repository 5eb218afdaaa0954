"""An interrupt (KeyboardInterrupt: Ctrl-C in a notebook or a REPL) while a call waits for the kernel, or
while its thread is the writer, must leave the kernel usable: nothing held, no call left for a writer
that will never come, every other caller answered. Tested by what callers see: real signals, the
results of the other calls, the journal."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from grouped_calls import SAFETY_S, between_calls, calls_together

from journal.reader import JournalReader
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

ADMIN = "admin:ops"


def _write(user: str) -> tuple[str, dict[str, Any], str]:
    args = {"user_id": user, "key": "a", "memory_type": "preference", "source": "explicit_user"}
    return ("memory.write", args, ADMIN)


def _call_from_another_thread(kernel: Kernel, user: str) -> SyscallResult:
    """A call made by a fresh thread, which would wait for ever if the kernel were left held."""
    done: list[SyscallResult] = []
    name, args, principal = _write(user)
    other = threading.Thread(target=lambda: done.append(kernel.call(name, args, principal=principal)))
    other.start()
    other.join(SAFETY_S)
    assert done, "the kernel was left held: the call never returned"
    return done[0]


def _entries(path: Path) -> list[Any]:
    reader = JournalReader.open(str(path))
    try:
        assert verify_journal(reader, table=SYSCALL_TABLE).verified
        return list(reader.entries())
    finally:
        reader.close()


@pytest.fixture
def sigint_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in the main thread, even in a run started with SIGINT ignored
    (``nohup``, a background job of a non-interactive shell, some CI runners)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")
@pytest.mark.usefixtures("sigint_raises")
def test_a_call_interrupted_while_it_waits_leaves_nothing_held_and_is_not_run(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """The main thread's call waits (another thread holds the kernel); SIGINT interrupts the wait. No
    writer runs the abandoned call afterwards, and the next call runs at once."""
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    busy, free = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        free.wait(SAFETY_S)

    holder = threading.Thread(target=between_calls, args=(kernel, hold))
    holder.start()
    assert busy.wait(SAFETY_S)

    def interrupt_once_queued() -> None:
        deadline = time.monotonic() + SAFETY_S
        while kernel.queued() == 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        # to the main thread itself: a process-directed signal may land on another thread and leave the
        # main thread's wait uninterrupted until it ends
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    interrupter = threading.Thread(target=interrupt_once_queued)
    interrupter.start()
    name, args, principal = _write("u0")
    with pytest.raises(KeyboardInterrupt):
        kernel.call(name, args, principal=principal)
    interrupter.join(SAFETY_S)
    free.set()
    holder.join(SAFETY_S)
    assert _call_from_another_thread(kernel, "u1").seq == 1  # the abandoned call was never run
    assert kernel.queued() == 0
    kernel.close()
    assert [entry.seq for entry in _entries(path)] == [1]


class _InterruptingLogger:
    """A logger whose first event raises KeyboardInterrupt in the writer's thread (as a signal would)."""

    def __init__(self) -> None:
        self.raised = False

    def info(self, event: str, **fields: Any) -> None:
        if not self.raised:
            self.raised = True
            raise KeyboardInterrupt


def test_a_writer_interrupted_after_its_commit_still_answers_the_calls_of_its_group(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    logger = _InterruptingLogger()
    kernel = kernel_factory(str(path), logger=logger)
    outcomes: list[str | SyscallResult] = []
    original = kernel.call

    def call(name: object, args: object = None, **options: Any) -> SyscallResult:
        try:
            result = original(name, args, **options)
        except KeyboardInterrupt:  # this thread was the writer: it is told, the other caller answered
            outcomes.append("interrupted")
            return SyscallResult(ok=False, seq=None)
        outcomes.append(result)
        return result

    kernel.call = call  # type: ignore[method-assign]
    calls_together(kernel, [_write("u1"), _write("u2")])
    kernel.call = original  # type: ignore[method-assign]
    answered = [outcome for outcome in outcomes if isinstance(outcome, SyscallResult)]
    assert outcomes.count("interrupted") == 1 and len(answered) == 1
    assert answered[0].ok and answered[0].seq in (1, 2)  # committed with the group, and told so
    assert _call_from_another_thread(kernel, "u3").seq == 3
    kernel.close()
    assert [entry.seq for entry in _entries(path)] == [1, 2, 3]


def test_an_interrupt_inside_the_store_leaves_the_kernel_usable(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    store = kernel.store

    class Interrupted:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def transaction(self, **options: Any) -> Any:
            raise KeyboardInterrupt

    kernel.store = Interrupted()
    name, args, principal = _write("u0")
    with pytest.raises(KeyboardInterrupt):
        kernel.call(name, args, principal=principal)
    kernel.store = store
    assert _call_from_another_thread(kernel, "u1").seq == 1
    kernel.close()
    assert len(_entries(path)) == 1

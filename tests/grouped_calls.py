"""Calls of several threads that one writer takes together into one transaction (``Kernel.call``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel

_T = TypeVar("_T")

SAFETY_S = 60
"""A bound for a wait that would otherwise hang the test, never a timing assertion."""


def between_calls(kernel: Kernel, work: Callable[[], _T]) -> _T:
    """``work``'s result, run as the kernel's writer while no call executes: the calls made meanwhile
    queue; a call ``work`` makes runs at once, on this thread, as the writer's own."""
    with kernel._writing():
        return work()


def calls_together(kernel: Kernel, calls: list[tuple[str, dict[str, Any], str]]) -> list[SyscallResult]:
    """Make the calls, one thread each, while the kernel is busy (``between_calls`` holds it), so that all
    of them are queued when it is free again: the next writer runs them as one group. Results in order."""
    results: list[SyscallResult | None] = [None] * len(calls)
    busy, free = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        free.wait(SAFETY_S)

    def call(index: int) -> None:
        name, args, principal = calls[index]
        results[index] = kernel.call(name, args, principal=principal)

    holder = threading.Thread(target=between_calls, args=(kernel, hold))
    holder.start()
    assert busy.wait(SAFETY_S)
    threads = [threading.Thread(target=call, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + SAFETY_S
    while kernel.queued() < len(calls):
        assert time.monotonic() < deadline, "the calls did not all queue"
        time.sleep(0.001)
    free.set()
    for thread in [holder, *threads]:
        thread.join(SAFETY_S)
    assert all(result is not None for result in results)
    return [result for result in results if result is not None]


def two_writes_in_one_group(kernel: Kernel, write: dict[str, Any]) -> dict[str, SyscallResult]:
    """``memory.write`` of ``write`` for users u1 and u2, each by its own thread, taken by one writer as
    one group. Results by user."""
    users = ("u1", "u2")
    calls = [("memory.write", {**write, "user_id": user}, f"user:{user}") for user in users]
    return dict(zip(users, calls_together(kernel, calls), strict=True))

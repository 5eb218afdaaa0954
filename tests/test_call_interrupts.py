"""An interrupt (KeyboardInterrupt: Ctrl-C in a notebook or a REPL) can land anywhere in ``Kernel.call``;
the kernel must stay usable after it: the execution lock not left held, no call left
in the queue, and another thread's call completes. CPython 3.11 runs a pending signal handler at the end
of a call (before its value is stored), at a function's entry and when a contended lock is waited for:
each such point of ``Kernel.call`` and of the functions it calls to run and end a call
(``_run_alone``, ``_gather``, ``_end_group``) is tried, one interrupt per fresh kernel, as
a lone writer's call and as a call that queues (after a group of two). Adapted from a reviewer's probe."""

from __future__ import annotations

import dis
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from types import CodeType, FrameType
from typing import Any

import pytest

from kernel.boot import open_kernel
from kernel.clock import ManualClock
from kernel.dispatcher import Kernel

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _write(user: str) -> tuple[str, dict[str, Any]]:
    return (
        "memory.write",
        {"user_id": user, "key": "a", "memory_type": "preference", "source": "explicit_user"},
    )


def _handler(code: CodeType, offset: int) -> int | None:
    for entry in dis._parse_exception_table(code):  # type: ignore[attr-defined]
        if entry.start <= offset < entry.end:
            return int(entry.target)
    return None


def _points(function: Callable[..., Any]) -> list[tuple[int, int]]:
    """(offset, line) of each instruction before which a signal handler may run: after a call returns
    (under the call's own handler), after the function's entry (RESUME: the first traced instruction),
    at a ``with`` (a contended lock is waited for)."""
    code = function.__code__
    instructions = list(dis.get_instructions(function))
    found = []
    for before, at in zip([None, *instructions[:-1]], instructions, strict=True):
        after_call = before is not None and before.opname == "CALL"
        if after_call and _handler(code, before.offset) != _handler(code, at.offset):
            continue  # a signal at the call's end is raised under the call's handler, not this one's
        after_entry = before is not None and before.opname == "RESUME"
        if after_call or after_entry or at.opname == "BEFORE_WITH":
            found.append((at.offset, at.positions.lineno if at.positions else 0))
    return found


def _interrupted_once(code: CodeType, offset: int, last_group: int) -> tuple[bool, dict[str, Any]] | None:
    kernel = open_kernel(":memory:", clock=ManualClock(T0, step=timedelta(seconds=1)))
    kernel._last_group = last_group
    hit: list[int] = []

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode" and frame.f_lasti == offset and not hit:
            hit.append(1)
            raise KeyboardInterrupt
        return local

    def outer(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code is code:
            frame.f_trace_opcodes = True
            return local
        return None

    sys.settrace(outer)
    try:
        kernel.call(*_write("u0"), principal="admin:ops")
    except KeyboardInterrupt:
        pass
    finally:
        sys.settrace(None)
    held = bool(kernel._lock._is_owned())  # type: ignore[attr-defined]
    try:
        if not hit:
            return None
        queued = len(kernel._waiting)
        done: list[Any] = []
        other = threading.Thread(
            target=lambda: done.append(kernel.call(*_write("u1"), principal="admin:ops")), daemon=True
        )
        other.start()
        other.join(10)  # a bound for a call that would otherwise wait for ever, not a timing assertion
        state = {
            "lock_held": held,
            "queued": queued,
            "other_done": bool(done),
        }
        return (not held and queued == 0 and bool(done)), state
    finally:
        if not held:
            kernel.close()


@pytest.mark.parametrize(
    ("function", "last_group"),
    [
        (Kernel.call, 1),
        (Kernel._run_alone, 1),
        (Kernel.call, 2),
        (Kernel._end_group, 2),
        (Kernel._gather, 2),
    ],
    ids=["call-lone-writer", "run_alone-lone-writer", "call-after-a-group", "end_group", "gather"],
)
def test_an_interrupt_anywhere_in_a_call_leaves_the_kernel_usable(
    function: Callable[..., Any], last_group: int
) -> None:
    broken = []
    tried = 0
    for offset, line in _points(function):
        outcome = _interrupted_once(function.__code__, offset, last_group)
        if outcome is None:
            continue
        tried += 1
        if not outcome[0]:
            broken.append((line, offset, outcome[1]))
    assert tried > 0
    assert broken == []

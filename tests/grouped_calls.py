"""Two calls of two threads that one group commit takes together (``Kernel.call``)."""

from __future__ import annotations

import threading
from typing import Any

from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel


def two_writes_in_one_group(kernel: Kernel, write: dict[str, Any]) -> dict[str, SyscallResult]:
    """``memory.write`` of ``write`` for users u1 and u2, each by its own thread, while the kernel is busy
    (its execution lock held here), so both queue and one group takes them. Results by user."""
    results: dict[str, SyscallResult] = {}

    def call(user: str) -> None:
        results[user] = kernel.call("memory.write", {**write, "user_id": user}, principal=f"user:{user}")

    threads = [threading.Thread(target=call, args=(user,)) for user in ("u1", "u2")]
    with kernel._lock:  # busy: both calls queue, and one group takes them
        for thread in threads:
            thread.start()
        while len(kernel._waiting) < 2:
            threading.Event().wait(0.001)
    for thread in threads:
        thread.join(timeout=60)
    return results

"""What the LangGraph saver (``integrations.langgraph``) and store (``integrations.langgraph_store``) share:
a kernel opened from a path or URL (or given), the principal and credential every call carries, one lock,
the values a result references (``graph.blobs.get``), and a refusal raised as an ``ArvisCheckpointError``."""

from __future__ import annotations

import base64
import threading
from collections.abc import Iterable
from functools import partial
from types import TracebackType
from typing import Any, Self

from arvis.access import AccessRules
from arvis.canonical import canonical_bytes_of_own
from kernel.arguments import MAX_ARGS_BYTES
from kernel.dispatcher import Kernel
from kernel.errors import ErrorCode
from syscalls.boot import JournalNotFound, open_kernel

_SOME = 400  # hashes of one checkpoint or item a call names: with it, within half of MAX_ARGS_BYTES


class ArvisCheckpointError(RuntimeError):
    """A ``graph.*`` call was refused, or not acknowledged (``seq`` None: nothing was written)."""

    def __init__(self, syscall: str, code: str, detail: str, seq: int | None) -> None:
        super().__init__(f"{syscall} refused ({code}): {detail}" if detail else f"{syscall} refused ({code})")
        self.syscall = syscall
        self.code = code
        self.detail = detail
        self.seq = seq


class CheckpointAccessDenied(ArvisCheckpointError, PermissionError):
    """``memory_policy_denied``: the principal may not read or write that thread."""


class CheckpointArgumentsInvalid(ArvisCheckpointError, ValueError):
    """``invalid_args``: an id out of bounds, metadata with no JSON form, arguments over 64 KiB..."""


def _refusal(syscall: str, code: str, detail: str, seq: int | None) -> ArvisCheckpointError:
    if code == ErrorCode.MEMORY_POLICY_DENIED:
        return CheckpointAccessDenied(syscall, code, detail, seq)
    if code == ErrorCode.INVALID_ARGS:
        return CheckpointArgumentsInvalid(syscall, code, detail, seq)
    return ArvisCheckpointError(syscall, code, detail, seq)


class _KernelClient:
    """What the saver and the store share: a kernel (opened here from a path or URL, then closed by
    ``close``), the principal and credential every call carries, one lock (a call and the read of the
    blobs its result references are never interleaved with another operation of the same client), and a
    refusal raised as an ``ArvisCheckpointError`` carrying the kernel's code, detail and seq."""

    kernel: Kernel
    principal: str
    _credential: str | None
    _owned: bool
    _lock: threading.RLock

    def _attach(
        self, kernel: Kernel | str, principal: str, credential: str | None, *, create: bool = False
    ) -> None:
        """The kernel, opened here from a path or URL (then it is ours to close): a SQLite file that does
        not exist is refused (``syscalls.boot.JournalNotFound``, naming this class) unless ``create``."""
        try:
            self.kernel = open_kernel(kernel, create=create) if isinstance(kernel, str) else kernel
        except JournalNotFound as exc:
            owner = type(self).__name__
            raise JournalNotFound(f"{owner}: {exc}".replace("open_kernel", owner)) from None
        self._owned = isinstance(kernel, str)
        self.principal = principal
        self._credential = credential
        self._lock = threading.RLock()

    def _blobs(self, values: Iterable[tuple[str, dict[str, Any], Iterable[str]]]) -> dict[str, bytes]:
        """The bytes of ``values`` (each: ``checkpoints`` or ``items``, the checkpoint or item, the hashes of
        its values), read by ``graph.blobs.get``, in as few calls as its bounds allow."""
        calls: list[dict[str, Any]] = []
        size, seen = MAX_ARGS_BYTES, set()
        for field, place, hashes in values:
            new = [key for key in dict.fromkeys(hashes) if key not in seen]
            seen.update(new)
            for start in range(0, len(new), _SOME):
                keys = new[start : start + _SOME]
                cost = len(canonical_bytes_of_own(place)) + 67 * len(keys)  # their bytes in the call
                size += cost
                if size > MAX_ARGS_BYTES // 2:  # so that no call names more than MAX_BLOBS
                    calls.append({"hashes": [], "checkpoints": [], "items": []})
                    size = cost
                calls[-1][field].append(place)
                calls[-1]["hashes"] += keys
        answers = [self._call("graph.blobs.get", call)["data"] for call in calls]
        return {key: base64.b64decode(text) for data in answers for key, text in data.items()}

    def close(self) -> None:
        """Close the kernel if this client opened it."""
        if self._owned:
            self.kernel.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _call(self, syscall: str, args: dict[str, Any]) -> Any:
        call = partial(self.kernel.call, syscall, args, principal=self.principal, credential=self._credential)
        with self._lock:  # held again by an operation that reads the blobs of its result
            result = call()
            if not result.ok and self._created(syscall, args):  # a free name, now the principal's: again
                result = call()
        if not result.ok:
            assert result.error is not None
            raise _refusal(syscall, result.error.code, result.error.detail, result.seq)
        return result.value

    def _created(self, syscall: str, args: dict[str, Any]) -> bool:
        """After a refusal of a call on one thread or store namespace in a journal of formats 4 to 6 (where a
        name is used only once created, ``specs/langgraph.md``): whether the name was free and this call has
        just created it as the principal's (``graph.thread.create``, ``graph.namespace.create``), as a
        LangGraph user expects of a thread id it uses first. Another's name stays refused. From format 7 a
        write takes a free name itself, and nothing is retried."""
        if not AccessRules.TYPED <= self.kernel.access_rules < AccessRules.NAMES or syscall not in _NAMED:
            return False
        create, field, named = _NAMED[syscall]
        given = args.get(field)
        names = (given if isinstance(given, list) else [given])[: 1 if field == "namespace" else None]
        created = False
        for name in (name for name in names if isinstance(name, str)):
            made = self.kernel.call(
                create, {named: name}, principal=self.principal, credential=self._credential
            )
            created = (made.ok and made.value["created"] is True) or created
        return created


_THREAD = ("graph.thread.create", "thread_id", "thread_id")
_NAMED = {
    "graph.checkpoint.put": _THREAD,
    "graph.checkpoint.put_writes": _THREAD,
    "graph.checkpoint.get": _THREAD,
    "graph.checkpoint.list": _THREAD,
    "graph.thread.delete": _THREAD,
    "graph.thread.prune": ("graph.thread.create", "thread_ids", "thread_id"),
    "graph.thread.copy": ("graph.thread.create", "target_thread_id", "thread_id"),
    "graph.store.put": ("graph.namespace.create", "namespace", "prefix"),
    "graph.store.get": ("graph.namespace.create", "namespace", "prefix"),
}
"""The calls on one name that a free name's refusal may be met by creating it (formats 4 to 6): the call
that creates it, the argument naming it (a copy's: its target; a prune's: each thread; a namespace's first
element), and the one creating it."""

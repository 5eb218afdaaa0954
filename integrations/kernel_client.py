"""What the LangGraph saver (``integrations.langgraph``) and store (``integrations.langgraph_store``) share:
a kernel opened from a path or URL (or given), the principal and credential every call carries, one lock,
the blobs a result references read back, and a refusal raised as an ``ArvisCheckpointError``."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from types import TracebackType
from typing import Any, Self, cast

from sqlalchemy.pool import StaticPool

from arvis.access import AccessRules
from journal import blob_store
from journal.errors import StorageError
from journal.store import SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.errors import ErrorCode
from syscalls.boot import JournalNotFound, open_kernel

__all__ = [
    "LOCKED_READ",
    "ArvisCheckpointError",
    "CheckpointAccessDenied",
    "CheckpointArgumentsInvalid",
]

LOCKED_READ = 64
"""The most blobs read on the kernel's own connection between its calls (``_KernelClient._blobs``): a
checkpoint's few, never a listing's hundreds, so that no read keeps the kernel's calls waiting long."""


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


def _open(kernel: Kernel | str, owner: str, *, create: bool = False) -> tuple[Kernel, bool]:
    """The kernel (opened here from a path or URL: then it is ours to close), on a SQL journal store. A
    SQLite file that does not exist is refused (``syscalls.boot.JournalNotFound``) unless ``create``."""
    if isinstance(kernel, str):
        try:
            opened = open_kernel(kernel, create=create)
        except JournalNotFound as exc:
            raise JournalNotFound(f"{owner}: {exc}".replace("open_kernel", owner)) from None
    else:
        opened = kernel
    if not isinstance(opened.store, SqlJournalStore):
        raise TypeError(f"{owner} needs a kernel on a SQL journal store (open_kernel)")
    return opened, isinstance(kernel, str)


class _KernelClient:
    """What the saver and the store share: a kernel (opened here from a path or URL, then closed by
    ``close``), the principal and credential every call carries, one lock (a call and the read of the
    blobs its result references are never interleaved with another operation of the same client), and a
    refusal raised as an ``ArvisCheckpointError`` carrying the kernel's code, detail and seq."""

    kernel: Kernel
    principal: str
    _credential: str | None
    _owned: bool
    _engine: Any
    _lock: threading.RLock

    def _attach(
        self, kernel: Kernel | str, principal: str, credential: str | None, *, create: bool = False
    ) -> None:
        self.kernel, self._owned = _open(kernel, type(self).__name__, create=create)
        self._engine = cast(SqlJournalStore, self.kernel.store).engine
        self.principal = principal
        self._credential = credential
        self._lock = threading.RLock()

    def _blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The blobs of ``keys``, each checked against its key. On SQLite, up to ``LOCKED_READ`` of them
        (a checkpoint names about 6) are read on the kernel's own connection between its calls
        (``SqlJournalStore.read_blobs``): every call's commit drops the page cache of the store's other
        connections, and each of these reads follows a journaled call. More, or on PostgreSQL (whose
        cache is the server's, where the read would cost the kernel's calls a BEGIN and a ROLLBACK of
        waiting), on a pooled connection (``get_many``), keeping no call waiting. An in-memory database's
        blobs are always read between calls: its one connection is the kernel's."""
        store = cast(SqlJournalStore, self.kernel.store)
        wanted = set(keys)
        sqlite = self._engine.dialect.name == "sqlite"
        try:
            if sqlite and (len(wanted) <= LOCKED_READ or isinstance(self._engine.pool, StaticPool)):
                return self.kernel.between_calls(lambda: store.read_blobs(wanted))
            return blob_store.get_many(self._engine, wanted)
        except StorageError as exc:
            raise ArvisCheckpointError("graph_blobs", ErrorCode.STORAGE_UNAVAILABLE, str(exc), None) from exc

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
        result = self.kernel.call(syscall, args, principal=self.principal, credential=self._credential)
        if not result.ok and self._created(syscall, args):  # a free name, now the principal's: again
            result = self.kernel.call(syscall, args, principal=self.principal, credential=self._credential)
        if not result.ok:
            assert result.error is not None
            raise _refusal(syscall, result.error.code, result.error.detail, result.seq)
        return result.value

    def _created(self, syscall: str, args: dict[str, Any]) -> bool:
        """After a refusal of a call on one thread or store namespace (typed rules, where a name is used
        only once created, ``specs/langgraph.md``): whether the name was free and this call has just
        created it as the principal's (``graph.thread.create``, ``graph.namespace.create``), as a
        LangGraph user expects of a thread id it uses first. Another's name stays refused."""
        if self.kernel.access_rules < AccessRules.TYPED or syscall not in _NAMED:
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
"""The calls on one name that a free name's refusal may be met by creating it: the call that creates it,
the argument naming it (a copy's: its target; a prune's: each thread; a namespace's first element), and
the one creating it."""

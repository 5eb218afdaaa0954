"""The dispatcher: the one place where a call becomes a journaled result. ``Kernel.call`` never raises.

One queue and one writer at a time (``specs/durability.md`` §3.1), for every entry point: a call, a
batch (``call_many``) and a replay's re-execution (``execute``). A thread records its call (the arguments
encoded, the identity asked), queues it, and waits until it is answered or no thread writes. Then it is
the writer: it takes what is waiting, in arrival order (calls alone together, up to ``GROUP_MAX``; a batch
or a re-execution by itself), runs it in one transaction with one commit (one flush of the log at
``FULL``), answers each caller, who returns at once, and goes on until its own call is answered: group
commit, without a gathering protocol. The time of a call is read when the writer takes it, so recorded
times follow seq order."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from functools import partial
from typing import Any, Protocol

import msgspec

from arvis.canonical import format_time
from journal.store import Clock
from kernel.abi import (
    Execution,
    RecordedCall,
    SyscallError,
    SyscallResult,
    SyscallTable,
    TransactionSource,
    record_args,
    record_text,
)
from kernel.arguments import MAX_NAME_LENGTH, MAX_PRINCIPAL_LENGTH
from kernel.errors import ErrorCode
from kernel.formats import rules_of
from kernel.identity import IdentityPolicy, journal_identity
from kernel.pipeline import pipeline
from kernel.protocols import CommitOutcomeUnknown, JournalStore, StorageBusy, StorageError
from kernel.registry import KernelServiceRegistry
from kernel.telemetry import CallTracer, end_span, start_span

GROUP_MAX = 256
"""The most waiting calls one writer runs in one transaction (the rest go in its next)."""


class CallLogger(Protocol):
    """Where one event per call goes (a structlog logger): syscall, seq, principal, status and
    duration; never arguments or results, so no memory contents reach the logs."""

    def info(self, event: str, **fields: Any) -> Any: ...


_Item = RecordedCall | SyscallResult
"""A call of a group or batch: recorded, or already answered (it could not be recorded)."""

_MALFORMED = "a call is (name, args, principal[, credential])"
_INTERRUPTED = "the call was interrupted before it ran"
"""The detail of a call whose writer was interrupted before it answered it: unacknowledged."""


_Run = Callable[[list[_Item]], list[SyscallResult]]


class _Job:
    """A queued entry: its caller's future, answered by the writer that runs it."""

    __slots__ = ("abandoned", "alone", "items", "results")

    def __init__(self, items: list[_Item], alone: _Run | None = None) -> None:
        self.items = items
        self.alone = alone
        """How a writer runs it by itself (a batch, a re-execution); None: a call alone, run in one
        transaction with the calls alone waiting beside it."""
        self.results: list[SyscallResult] | None = None
        self.abandoned = False
        """Its caller was interrupted while it waited: a writer that has not taken it yet drops it."""


class Kernel:
    """Looks a call up in the table, decodes its arguments, runs the handler in one transaction with
    the journal append, and returns the result. The handler only reads and decides: an accepted call's
    changes (``arvis.changes``) are applied by the journal when it appends the entry; a handler's refusal
    changes nothing and is journaled in that same transaction, an admission refusal in a transaction of
    its own."""

    def __init__(
        self,
        *,
        table: SyscallTable,
        services: KernelServiceRegistry,
        store: JournalStore,
        clock: Clock,
        logger: CallLogger | None = None,
        identity: IdentityPolicy | None = None,
        tracer: CallTracer | None = None,
        group_commit: bool = True,
    ) -> None:
        """``identity``: who this kernel may act as (``kernel.identity``); None: every principal, the
        embedding application vouching for them (``VouchedPrincipals``). Whatever it is, a built-in
        administrator is admitted only with the admin key of the journal ``store`` holds, unless it is
        ``VouchedPrincipals(administrators=True)`` (``kernel.identity.journal_identity``). ``tracer``:
        one span per call (``kernel.telemetry``; ``otel_tracer()`` for OpenTelemetry); None: no spans.
        ``group_commit``: the writer runs every call waiting (up to ``GROUP_MAX``) in one transaction;
        False: each call in a transaction of its own."""
        self.identity: IdentityPolicy = journal_identity(identity, store)
        self.format = rules_of(store.format_version)
        """What the journal's format decides (``kernel.formats``)."""
        self.access_rules = self.format.access
        """The access rules of the journal (``arvis.access.AccessRules``): its format's."""
        self.busy_retries = 3
        self.logger = logger
        self.tracer = tracer
        self.store = store
        self.clock = clock
        self.group_commit = group_commit
        self._execution = Execution(table, services, self.format)
        self._reads = frozenset(name for name, spec in table.items() if not spec.mutates)
        """The calls that change no state: a transaction of reads alone need not flush (``_durable``)."""
        self._turn = threading.Condition()
        """Guards the queue and who writes; notified when a group is answered and when a writer stops."""
        self._writer: int | None = None
        """The thread that writes now, if any: one execution at a time, so the store's one connection is
        never used by two threads. A call made by the writer's own thread (a logger's, a tracer's) is run by
        that same thread, at once."""
        self._queue: deque[_Job] = deque()
        """The calls waiting for a writer, in arrival order (appended by callers, taken by the writer)."""

    def call(
        self, name: object, args: object = None, *, principal: object, credential: object = None
    ) -> SyscallResult:
        """Execute one syscall as ``principal``, proved by ``credential`` when the kernel's identity
        policy asks for one (it is never journaled). Whatever the inputs, returns a SyscallResult and
        never raises; safe to call from several threads.

        The call is queued (``_submit``), and answered when the commit that holds its entry is
        (``specs/durability.md`` §3.1)."""
        recorded = self._record(name, args, principal, credential)
        if isinstance(recorded, SyscallResult):
            return recorded
        return self._submit(_Job([recorded]))[0]

    def _submit(self, job: _Job) -> list[SyscallResult]:
        """Queue ``job`` and wait until a writer answers it, or be the writer that does
        (``_write_until``). An interrupt (Ctrl-C) while it waits leaves nothing held, and the job, if no
        writer took it yet, is dropped."""
        try:
            with self._writing(job) as writing:
                if writing:
                    self._write_until(job)
        except BaseException:
            job.abandoned = True
            raise
        if job.results is None:  # taken by a writer interrupted before it could answer
            return [_unacknowledged(ErrorCode.INTERNAL_ERROR, _INTERRUPTED) for _ in job.items]
        return job.results

    @contextmanager
    def _writing(self, job: _Job | None = None) -> Iterator[bool]:
        """Queue ``job`` (if any), then wait while another thread writes: False when a writer answered
        the job meanwhile; else True, this thread the writer until the block ends (a call it makes
        meanwhile, nested, runs at once)."""
        me, took = threading.get_ident(), False
        try:  # an interrupt anywhere after this thread took the turn still gives it back
            with self._turn:
                if job is not None:
                    self._queue.append(job)
                nested = self._writer == me
                while not nested and self._writer is not None and (job is None or job.results is None):
                    self._turn.wait()
                answered = job is not None and job.results is not None
                if not (answered or nested):
                    took = True
                    self._writer = me
            yield not answered
        finally:
            if took:
                with self._turn:
                    self._writer = None
                    self._turn.notify_all()

    @property
    def services(self) -> KernelServiceRegistry:
        """The services the calls run with (replay binds those a recorded call ran with, then these
        again): the execution's own, so that it sees a change."""
        return self._execution.services

    @services.setter
    def services(self, services: KernelServiceRegistry) -> None:
        self._execution.services = services

    @property
    def table(self) -> SyscallTable:
        """The syscall table the calls are looked up in (the execution's, as ``services``)."""
        return self._execution.table

    @table.setter
    def table(self, table: SyscallTable) -> None:  # a new execution: its decoders are the table's
        self._execution = Execution(table, self._execution.services, self._execution.format)

    def queued(self) -> int:
        """How many calls wait for a writer now (for monitoring; a test's way to see its calls queue)."""
        return len(self._queue)

    def _write_until(self, job: _Job) -> None:
        """As the writer: run what is waiting, a group at a time, until ``job`` is answered, waking its
        callers as each group is. A job is in the queue until a writer takes it, and a writer answers
        what it took; so an empty queue means answered, or taken by a writer that was interrupted
        (``_submit`` then answers it unacknowledged)."""
        with self._turn:
            group = self._take()
        while group:
            self._run_group(group)
            if group == [job]:  # no other caller to wake: the writer's own call, alone
                return
            with self._turn:
                self._turn.notify_all()
                group = self._take() if job.results is None else []

    def _take(self) -> list[_Job]:
        """The next group, in arrival order: calls alone (up to ``GROUP_MAX``, one without group
        commit), or a job run by itself."""
        limit = GROUP_MAX if self.group_commit else 1
        group: list[_Job] = []
        while self._queue and len(group) < limit and not (group and self._queue[0].alone):
            job = self._queue.popleft()
            if not job.abandoned:
                group.append(job)
                if job.alone is not None:
                    break
        return group

    def _run_group(self, group: list[_Job]) -> None:
        """Time and run the group (calls alone: one in a transaction of its own, several in one,
        ``_group``; a job alone as it says) and answer each job, whatever happens here: no caller waits
        in vain."""
        failure = _INTERRUPTED
        try:
            items = [self._timed(item) for job in group for item in job.items]
            self._load_encoder_for(items)
            run = group[0].alone or (self._one if len(items) == 1 else self._group)
            started = time.perf_counter()
            sized = len(group) > 1 or group[0].alone == self._batched  # a span's batch size
            results = self._traced(items, run, len(items) if sized else None)
            answers = iter(results)
            for job in group:
                job.results = [next(answers) for _ in job.items]
            self._log_all(items, results, started)
        except Exception as exc:  # a bug must not escape: the calls left without a result are answered
            failure = type(exc).__name__
        finally:
            for job in group:
                if job.results is None:
                    job.results = [_unacknowledged(ErrorCode.INTERNAL_ERROR, failure) for _ in job.items]

    def _record(self, name: object, args: object, principal: object, credential: object = None) -> _Item:
        """The call in its journaled form, but for its time (``_timed``); unacknowledged if it cannot be
        recorded."""
        try:
            claimed = record_text(principal, MAX_PRINCIPAL_LENGTH)
            syscall = record_text(name, MAX_NAME_LENGTH)
            return RecordedCall(
                syscall=syscall,
                principal=claimed,
                args=record_args({} if args is None else args, self.table.args_limit(syscall)),
                recorded_at="",
                identity_refused=not self._admitted(claimed, credential),
            )
        except Exception as exc:
            return _unacknowledged(ErrorCode.INTERNAL_ERROR, type(exc).__name__)

    def _timed(self, item: _Item) -> _Item:
        """The call with its time, read once by the writer as it takes the call (so one thread reads
        the clock at a time, in seq order); a broken clock is unacknowledged. A re-executed call keeps
        the time it was recorded at."""
        if isinstance(item, SyscallResult) or item.recorded_at:
            return item
        try:
            return msgspec.structs.replace(item, recorded_at=format_time(self.clock.now()))
        except Exception as exc:
            return _unacknowledged(ErrorCode.INTERNAL_ERROR, type(exc).__name__)

    def _admitted(self, principal: str, credential: object) -> bool:
        """The identity policy's verdict; a credential that is not a plain string, or a policy that
        raises, refuses."""
        if credential is not None and type(credential) is not str:
            return False
        try:
            return self.identity.admits(principal, credential) is True
        except Exception:
            return False

    def call_many(
        self, calls: Iterable[tuple[object, object, object] | tuple[object, object, object, object]]
    ) -> list[SyscallResult]:
        """Bulk: ``(name, args, principal)`` or ``(name, args, principal, credential)`` calls in one
        database transaction, each with its own journal entry and result, a refused call leaving nothing
        behind. The batch commits whole: if the storage fails, no call of it is acknowledged (every
        result has seq None). A malformed item (not a tuple of 3 or 4) is refused ``invalid_args``,
        unacknowledged, like a call whose arguments cannot be recorded. Queued as one job (``_submit``)."""
        items = [
            self._record(*call)
            if isinstance(call, tuple | list) and len(call) in (3, 4)
            else _unacknowledged(ErrorCode.INVALID_ARGS, _MALFORMED)
            for call in calls
        ]
        return self._submit(_Job(items, self._batched))

    def _load_encoder_for(self, recorded: Iterable[_Item]) -> None:
        """Before a working-memory call's transaction, load a lazily bound semantic encoder (see
        ``KernelServiceRegistry.semantic_loader``): its detector would load it at its first measure,
        inside the transaction, and a model load (half a second) would hold the write lock."""
        if self.services.semantic_loader is None or self.services.semantic_encoder is not None:
            return
        for item in recorded:
            spec = self.table.get(item.syscall) if isinstance(item, RecordedCall) else None
            if spec is not None and spec.service == "working_memory_service":
                with suppress(Exception):  # a loader that fails: the detector reports the encoder missing
                    self.services.semantic()
                return

    def _traced(self, items: list[_Item], run: _Run, size: int | None) -> list[SyscallResult]:
        """``run(items)`` with one span per recorded call (``size``: the batch's, None for a call alone)."""
        tracer = self.tracer
        if tracer is None:
            return run(items)
        spans = [
            start_span(tracer, item, self.table, self.store, size) if isinstance(item, RecordedCall) else None
            for item in items
        ]
        results: list[SyscallResult] | None = None
        try:
            results = run(items)
        finally:
            for index, span in enumerate(spans):
                end_span(span, None if results is None else results[index])
        return results

    def _log_all(self, items: list[_Item], results: list[SyscallResult], started: float) -> None:
        """One event per call, each given an equal share of the time; a logger that raises (a closed
        stderr's BrokenPipeError, say) is ignored, as a tracer is: the calls are journaled."""
        if self.logger is None:
            return
        each = round((time.perf_counter() - started) * 1000 / max(len(items), 1), 3)
        for item, result in zip(items, results, strict=True):
            recorded = item if isinstance(item, RecordedCall) else None
            with suppress(Exception):
                self.logger.info(
                    "syscall",
                    syscall="" if recorded is None else recorded.syscall,
                    seq=result.seq,
                    principal="" if recorded is None else recorded.principal,
                    status="ok" if result.ok else (result.error.code if result.error else "error"),
                    duration_ms=each,
                )

    def _durable(self, items: Iterable[_Item]) -> bool:
        """Whether the transaction of ``items`` must be flushed at its commit: unless it holds reads
        alone (calls whose table row says they change no state), whose entries are flushed by the next
        commit that is (``specs/durability.md`` §1.1)."""
        return any(isinstance(item, RecordedCall) and item.syscall not in self._reads for item in items)

    def _one(self, items: list[_Item]) -> list[SyscallResult]:
        """Each call alone, in a transaction of its own (a call alone; a group's calls run again)."""
        return [item if isinstance(item, SyscallResult) else self._attempts(item, None) for item in items]

    def _group(self, items: list[_Item]) -> list[SyscallResult]:
        """Several threads' calls in one transaction; if the storage fails it for another reason than a
        busy write lock (a failed commit, one call's driver error), nothing of it was committed, and each
        call is run again on its own, so that one call's failure is not the others'. Never when the
        commit's outcome is unknown (``CommitOutcomeUnknown``): its calls may be journaled."""
        batched, failed = self._batch(items)
        return self._one(items) if failed else batched

    def _batched(self, items: list[_Item]) -> list[SyscallResult]:
        """``call_many``'s calls in one transaction, committing whole (never run again one by one)."""
        return self._batch(items)[0]

    def _batch(self, items: list[_Item]) -> tuple[list[SyscallResult], bool]:
        """The calls in one database transaction, retried whole up to ``busy_retries`` times while the
        write lock is busy (nothing of a failed attempt was committed); and whether the storage failed
        it with nothing committed, so that its calls may run again (never after ``CommitOutcomeUnknown``)."""
        durable = self._durable(items)
        busy_attempts = 0
        while True:
            try:
                with self.store.batch(durable=durable) as batch:
                    return [
                        item
                        if isinstance(item, SyscallResult)
                        else self._execution.run(item, batch.transaction)
                        for item in items
                    ], False
            except StorageBusy as exc:
                if busy_attempts >= self.busy_retries:
                    return [_unacknowledged(ErrorCode.STORAGE_BUSY, str(exc)) for _ in items], False
                busy_attempts += 1
            except CommitOutcomeUnknown as exc:
                return [_unacknowledged(ErrorCode.STORAGE_UNAVAILABLE, str(exc)) for _ in items], False
            except StorageError as exc:
                return [_unacknowledged(ErrorCode.STORAGE_UNAVAILABLE, str(exc)) for _ in items], True
            except Exception as exc:
                return [_unacknowledged(ErrorCode.INTERNAL_ERROR, type(exc).__name__) for _ in items], False

    def pipeline(
        self, *, user_id: str, run_id: str, principal: str, credential: str | None = None
    ) -> AbstractContextManager[Any]:
        """A pipeline run on this kernel (see ``kernel.pipeline``)."""
        return pipeline(self, user_id=user_id, run_id=run_id, principal=principal, credential=credential)

    def close(self) -> None:
        """Close the store; the kernel cannot be used afterwards."""
        with self._writing():
            self.store.close()

    def execute(
        self,
        recorded: RecordedCall,
        transactions: TransactionSource | None = None,
    ) -> SyscallResult:
        """Replay only: re-execute a journaled call in its recorded form (its principal's recorded
        identity verdict, its recorded time) on a replay's scratch store (``keep_entries=False``), in its
        own transaction or in one from ``transactions`` (a batch's). On a store that keeps its entries
        it is refused ``principal_not_allowed``, unjournaled: a live call is made with ``call``, which asks
        the identity policy and reads the clock."""
        if getattr(self.store, "keeps_entries", True) is not False:
            return _unacknowledged(
                ErrorCode.PRINCIPAL_NOT_ALLOWED,
                "a recorded call is re-executed only on a replay's scratch store; make live calls with call",
            )
        return self._execute_recorded(recorded, transactions)

    def _execute_recorded(
        self, recorded: RecordedCall, transactions: TransactionSource | None = None
    ) -> SyscallResult:
        """A call in its recorded form (replay's, through ``execute``), in its own transaction or in one
        from ``transactions`` (a batch's), queued like any call and traced and logged as a call alone."""
        return self._submit(_Job([recorded], lambda _: [self._attempts(recorded, transactions)]))[0]

    def _attempts(self, recorded: RecordedCall, transactions: TransactionSource | None) -> SyscallResult:
        """The call, retried up to ``busy_retries`` times while the write lock is busy (a call of its
        own only: a batch's is retried whole by ``_batch``)."""
        source = transactions or partial(self.store.transaction, durable=self._durable((recorded,)))
        busy_attempts = 0
        while True:
            try:
                return self._execution.run(recorded, source)
            except StorageBusy as exc:
                if busy_attempts >= self.busy_retries or transactions is not None:
                    return _unacknowledged(ErrorCode.STORAGE_BUSY, str(exc))
                busy_attempts += 1
            except StorageError as exc:
                return _unacknowledged(ErrorCode.STORAGE_UNAVAILABLE, str(exc))
            except Exception as exc:  # last resort: a bug must still not escape
                return _unacknowledged(ErrorCode.INTERNAL_ERROR, type(exc).__name__)


def _unacknowledged(code: ErrorCode, detail: str) -> SyscallResult:
    return SyscallResult(ok=False, seq=None, error=SyscallError.of(code, detail))

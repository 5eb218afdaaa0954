"""The dispatcher: the one place where a call becomes a journaled result. ``Kernel.call`` never raises."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, suppress
from typing import Any, Protocol, TypeVar

import msgspec

from arvis.awmu.errors import AwmuRuleError
from arvis.canonical import canonical_bytes_of_own, format_time, parse_time
from arvis.changes import Decision
from arvis.memory.errors import MemoryRuleError
from kernel.abi import CallContext, SyscallError, SyscallResult
from kernel.access import AccessRules
from kernel.arguments import (
    MAX_NAME_LENGTH,
    MAX_PRINCIPAL_LENGTH,
    check_principal,
    check_refused,
    record_args,
    record_text,
)
from kernel.clock import Clock
from kernel.errors import ErrorCode, KernelError
from kernel.formats import rules_of
from kernel.identity import IdentityPolicy, VouchedPrincipals, refusal_detail
from kernel.pipeline import pipeline
from kernel.protocols import CommitOutcomeUnknown, JournalStore, StorageBusy, StorageError, Transaction
from kernel.registry import KernelServiceRegistry
from kernel.result_pieces import split as split_result
from kernel.table import Service, SyscallSpec, SyscallTable
from kernel.telemetry import CallSpan, CallTracer, end_span, start_span

__all__ = ["GATHER_S", "GROUP_MAX", "CallLogger", "Kernel", "RecordedCall", "TransactionSource"]

GROUP_MAX = 256
"""The most waiting calls one group commit takes (the rest wait for the next)."""
GATHER_S = 0.001
"""How long a group's leader waits, at most, for the threads of the last group to queue their next
calls (``Kernel._gather``): a bound on the latency it adds, paid only while fewer calls are queued than
the last group held."""


class CallLogger(Protocol):
    """Where one event per call goes (a structlog logger): syscall, seq, principal, status and
    duration; never arguments or results, so no memory contents reach the logs."""

    def info(self, event: str, **fields: Any) -> Any: ...


TransactionSource = Callable[[], AbstractContextManager[Transaction]]
"""Where a call gets its transaction: the store's own, or one call's scope in a batch."""


class RecordedCall(msgspec.Struct, frozen=True):
    """A call in the exact form the journal holds it: what replay feeds back to ``Kernel.execute``."""

    syscall: str
    principal: str
    args: bytes
    recorded_at: str
    result: bytes | None = None
    """The journaled result when a recorded entry is re-executed (verification): ``CallContext.recorded``."""
    identity_refused: bool = False
    """The deployment's identity policy refused the principal (live), or the journal records that it
    did (replay): the call is refused ``principal_not_allowed`` (``kernel.identity``)."""
    unknown_when_recorded: bool = False
    """Replay only: the journal records the name as not in the table then. A later release may add a
    syscall of that name; the entry must still replay as the ``unknown_syscall`` it was."""


_INTERRUPTED = "the group was interrupted"
"""The detail of a call whose group never ran (an interrupt, a failure before it): unacknowledged."""


class _Waiting:
    """A call recorded by a thread and waiting for a group commit to take it (``Kernel.call``)."""

    __slots__ = ("recorded", "result", "taken")

    def __init__(self, recorded: RecordedCall) -> None:
        self.recorded = recorded
        self.result: SyscallResult | None = None
        self.taken = False
        """A leader took it into its group: that leader answers it, whatever happens to its thread."""


_T = TypeVar("_T")


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
        busy_retries: int = 3,
        logger: CallLogger | None = None,
        identity: IdentityPolicy | None = None,
        tracer: CallTracer | None = None,
        group_commit: bool = True,
    ) -> None:
        """``identity``: who this kernel may act as (``kernel.identity``); None: every principal, the
        embedding application vouching for them (``VouchedPrincipals``). ``tracer``: one span per call
        (``kernel.telemetry``; ``otel_tracer()`` for OpenTelemetry); None: no spans. ``group_commit``:
        calls that threads make while another call is being executed wait together and are then
        executed as one group, in one database transaction and one commit (``Kernel.call``); False:
        each call in a transaction of its own."""
        self.identity: IdentityPolicy = VouchedPrincipals() if identity is None else identity
        self.format = rules_of(store.format_version)
        """What the journal's format decides (``kernel.formats``)."""
        self.access_rules = self.format.access
        """The access rules of the journal (``kernel.access.AccessRules``): its format's."""
        self.busy_retries = busy_retries
        self.logger = logger
        self.tracer = tracer
        self.table = table
        self.services = services
        self.store = store
        self.clock = clock
        bounded = self.access_rules < AccessRules.THREAD_IDS
        self._decoders = {
            name: msgspec.json.Decoder(
                spec.bounded_request_type if bounded and spec.bounded_request_type else spec.request_type
            )
            for name, spec in table.items()
        }
        self._lock = threading.RLock()
        """One execution at a time per kernel: threads sharing a kernel take turns (the journal is one
        chain, appended in one order anyway), so its connection is never used by two at once."""
        self.group_commit = group_commit
        self._waiting: list[_Waiting] = []
        """The calls of ``call`` in arrival order: the group being executed at the front, then the
        calls waiting for the next group."""
        self._queue_lock = threading.RLock()
        """Guards ``_waiting`` (taken directly on the path of a call that does not wait). Reentrant so that
        ``_turns`` waits with the C lock's own release and re-acquire, which an interrupt cannot split (with
        a plain lock the condition's Python re-acquire can be interrupted, leaving the lock released)."""
        self._turns = threading.Condition(self._queue_lock)
        """A thread waits on it until its call is done or at the front."""
        self._sleepers = 0
        """Threads waiting on ``_turns`` now: a group's end wakes them only when there are any."""
        self._last_group = 1
        """How many calls the last group held (``_gather``)."""
        self._gathering = False
        """A leader is waiting for calls to join its group (``_gather``)."""
        self._gathered = threading.Condition(self._queue_lock)
        """The gathering leader waits on it; the call that brings the queue to the last group's size
        wakes it, and no other thread (the calls queued before it sleep on ``_turns``)."""
        self._clock_lock = threading.Lock()
        """One clock reading at a time: threads record their calls concurrently (``_record``)."""

    def _record(
        self, name: object, args: object, principal: object, credential: object = None
    ) -> RecordedCall | SyscallResult:
        """The call in its journaled form, reading the clock once; a broken clock is unacknowledged."""
        try:
            with self._clock_lock:
                recorded_at = format_time(self.clock.now())
            claimed = record_text(principal, MAX_PRINCIPAL_LENGTH)
            syscall = record_text(name, MAX_NAME_LENGTH)
            return RecordedCall(
                syscall=syscall,
                principal=claimed,
                args=record_args({} if args is None else args, self.table.args_limit(syscall)),
                recorded_at=recorded_at,
                identity_refused=not self._admitted(claimed, credential),
            )
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

    def call(
        self, name: object, args: object = None, *, principal: object, credential: object = None
    ) -> SyscallResult:
        """Execute one syscall as ``principal``, proved by ``credential`` when the kernel's identity
        policy asks for one (it is never journaled). Whatever the inputs, returns a SyscallResult and
        never raises; safe to call from several threads.

        With ``group_commit`` (the default), threads record their calls at once and queue them in
        arrival order; the thread whose call is at the front leads: it executes its call and every call
        queued behind it at that moment (up to ``GROUP_MAX``) in one database transaction, each call with
        its own journal entry and a refused one changing nothing, then one commit, while the calls that
        arrive meanwhile queue for the next group. Every call of the group is acknowledged when that
        commit is, exactly as a call of its own would be (``specs/durability.md`` §3.1); the threads of
        the group are woken with their results and never take the execution lock themselves. A leader
        that finds fewer calls queued than the last group held waits up to ``GATHER_S`` for more
        (``_gather``). A lone writer's call (the last group held one call; nothing queued, nothing
        executing) runs at once without queueing (``_run_alone``), as without group commit; so does,
        under the lock it holds, a call from a thread that holds the execution lock already (a group's
        leader, ``call_many``, ``between_calls``). A single interrupt (Ctrl-C) anywhere in the
        kernel's code of a call leaves no lock held and no call in the queue
        (``tests/test_call_interrupts.py``; one point is left inside ``threading.Condition.wait``,
        ``specs/durability.md`` §3.1)."""
        if not self.group_commit:
            with self._lock:
                recorded = self._record(name, args, principal, credential)
                if isinstance(recorded, SyscallResult):
                    return recorded
                self._load_encoder_for([recorded])
                return self._execute_recorded(recorded)
        recorded = self._record(name, args, principal, credential)
        if isinstance(recorded, SyscallResult):
            return recorded
        if self._owns_lock():  # a group's leader (a call from a logger, say), ``call_many``,
            with self._lock:  # ``between_calls``: queued, the call would wait for this very thread
                return self._execute_recorded(recorded)
        alone = probed = False
        try:
            with self._queue_lock:
                # a lone writer (the last group was one call, nothing queued or executing) runs at once,
                # never queued; after a larger group, the next call queues and its leader gathers
                if not self._waiting and self._last_group == 1:
                    probed = True
                    alone = self._lock.acquire(blocking=False)
            if alone:
                return self._run_alone(recorded)
        finally:
            # whatever interrupts it, even between the acquire and ``alone``: a lock left held by this
            # thread would make every later call wait for ever
            if alone or (probed and self._owns_lock()):
                self._lock.release()
        waiting = _Waiting(recorded)
        leading = False
        group: list[_Waiting] = []
        try:
            with self._queue_lock:
                try:
                    self._waiting.append(waiting)
                    if self._gathering and len(self._waiting) >= self._last_group:
                        # all, though one thread at most gathers: a wait interrupted between adding its
                        # waiter and releasing the lock leaves a stale waiter a single notify could take
                        self._gathered.notify_all()
                    while waiting.result is None and self._waiting[0] is not waiting:
                        self._sleep()
                except BaseException:  # interrupted while queued: a call no group took leaves the queue
                    if not waiting.taken and waiting in self._waiting:
                        self._waiting.remove(waiting)
                        if self._sleepers:  # it may have been at the front: the next call leads
                            self._turns.notify_all()
                    raise
                if waiting.result is not None:  # a group led by another thread executed it
                    return waiting.result
                leading = True  # at the front, not taken: this thread leads the next group, and ends it
            with self._lock:  # once nothing else executes (``call_many``, replay)
                with self._queue_lock:
                    if len(self._waiting) < self._last_group:
                        self._gather()
                    group = self._waiting[:GROUP_MAX]  # its call and every one queued behind it now
                    for taken in group:
                        taken.taken = True
                    self._last_group = len(group)
                self._run_group(group)
        finally:
            if leading:  # an interrupt as it begins (at the call's entry) is answered by ending it again
                ending = group or [waiting]
                try:
                    self._end_group(ending)
                except Exception:
                    raise
                except BaseException:
                    self._end_group(ending)
                    raise
        assert waiting.result is not None
        return waiting.result

    def _end_group(self, group: list[_Waiting]) -> None:
        """After a leader's group (or its own call alone, when it was interrupted before it took a group):
        the calls leave the front of the queue, each has a result (unacknowledged, ``internal_error``, if
        the group never ran), and the waiting threads are woken: the new front leads the next group. Each
        step can be run again (``call`` runs it again when an interrupt lands in it): a group left at the
        front would make every later call wait for ever."""
        with self._queue_lock:
            if self._waiting and self._waiting[0] is group[0]:  # still the front
                del self._waiting[: len(group)]
            for taken in group:
                if taken.result is None:  # interrupted before the group ran: never acknowledged
                    taken.result = _unacknowledged(ErrorCode.INTERNAL_ERROR, _INTERRUPTED)
            if self._sleepers:
                self._turns.notify_all()

    def _owns_lock(self) -> bool:
        """Whether this thread holds the execution lock (``RLock._is_owned``, what ``threading.Condition``
        itself asks a lock)."""
        owns: Callable[[], bool] = self._lock._is_owned  # type: ignore[attr-defined]
        return owns()

    def _run_alone(self, recorded: RecordedCall) -> SyscallResult:
        """A lone writer's call, run at once while ``call`` holds the execution lock for it: executed as a
        group of one, without the queue. Calls that arrive meanwhile queue, and the first of them leads
        once ``call`` releases the lock."""
        try:
            self._load_encoder_for([recorded])
            return self._execute_recorded(recorded)
        except Exception as exc:  # a bug must not escape, as in ``_run_group``
            return _unacknowledged(ErrorCode.INTERNAL_ERROR, type(exc).__name__)

    def _sleep(self, timeout: float | None = None) -> None:
        """Wait on ``_turns`` (the caller holds ``_queue_lock``), counted in ``_sleepers``."""
        self._sleepers += 1
        try:
            self._turns.wait(timeout)
        finally:
            self._sleepers -= 1

    def _gather(self) -> None:
        """Called by a new leader (holding ``_queue_lock``) that finds fewer calls queued than the last
        group held: wait up to ``GATHER_S`` for the threads of that group, which are just getting their
        results, to queue their next calls; they then share this group's commit instead of each
        making the next group a small one. A lone writer (a last group of one) never gets here."""
        deadline = time.monotonic() + GATHER_S
        self._gathering = True
        try:
            while len(self._waiting) < self._last_group:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                self._gathered.wait(remaining)
        finally:
            self._gathering = False

    def _run_group(self, group: list[_Waiting]) -> None:
        """Execute ``group`` (the caller holds the execution lock) in one transaction. Every call of it
        gets a result, whatever happens here: a thread waiting for it must never wait forever."""
        failure = _INTERRUPTED
        try:
            recorded: list[RecordedCall | SyscallResult] = [waiting.recorded for waiting in group]
            self._load_encoder_for(recorded)
            if len(group) == 1:
                group[0].result = self._execute_recorded(group[0].recorded)
                return
            started = time.perf_counter()
            results = self._group(recorded)
            for waiting, result in zip(group, results, strict=True):
                waiting.result = result
            if self.logger is not None:
                each = round((time.perf_counter() - started) * 1000 / len(group), 3)
                for item, result in zip(recorded, results, strict=True):
                    self._log(item, result, each)
        except Exception as exc:  # a bug must not escape: the calls left without a result are answered below
            failure = type(exc).__name__
        finally:
            for waiting in group:
                if waiting.result is None:  # an exception above: never acknowledged
                    waiting.result = _unacknowledged(ErrorCode.INTERNAL_ERROR, failure)

    def _group(self, recorded: list[RecordedCall | SyscallResult]) -> list[SyscallResult]:
        """A group of calls of several threads in one transaction; if the storage fails it for another
        reason than a busy write lock (a failed commit, one call's driver error), nothing of it was
        committed, and each call is run again on its own, so that one call's failure is not the others'.
        Never when the commit's outcome is unknown (``CommitOutcomeUnknown``): its calls may be journaled."""
        if self.tracer is None:
            batched, failed = self._run_batch(recorded)
        else:
            batched, failed = self._traced_batch(self.tracer, recorded)
        if not failed:
            return batched
        return [item if isinstance(item, SyscallResult) else self._attempts(item, None) for item in recorded]

    def call_many(
        self, calls: Iterable[tuple[object, object, object] | tuple[object, object, object, object]]
    ) -> list[SyscallResult]:
        """Bulk: ``(name, args, principal)`` or ``(name, args, principal, credential)`` calls in one
        database transaction, each with its own journal entry and result, a refused call leaving nothing
        behind. The batch commits whole: if the storage fails, no call of it is acknowledged (every
        result has seq None)."""
        with self._lock:
            recorded = [self._record_item(call) for call in calls]
            self._load_encoder_for(recorded)
            started = time.perf_counter()
            if self.tracer is None:
                results = self._batch(recorded)
            else:
                results = self._traced_batch(self.tracer, recorded)[0]
        if self.logger is not None:
            each = round((time.perf_counter() - started) * 1000 / max(len(recorded), 1), 3)
            for item, result in zip(recorded, results, strict=True):
                self._log(item, result, each)
        return results

    def _record_item(self, call: object) -> RecordedCall | SyscallResult:
        """One item of ``call_many``: a malformed one (not a tuple of 3 or 4) is refused ``invalid_args``,
        unacknowledged, like a call whose arguments cannot be recorded."""
        if not isinstance(call, tuple | list) or len(call) not in (3, 4):
            return _unacknowledged(ErrorCode.INVALID_ARGS, "a call is (name, args, principal[, credential])")
        return self._record(*call)

    def _load_encoder_for(self, recorded: Iterable[RecordedCall | SyscallResult]) -> None:
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

    def _traced_batch(
        self, tracer: CallTracer, recorded: list[RecordedCall | SyscallResult]
    ) -> tuple[list[SyscallResult], bool]:
        """``_run_batch`` with one span per recorded call, each covering the batch (it commits whole)."""
        spans: list[CallSpan | None] = [
            start_span(tracer, item, self.table, self.store, len(recorded))
            if isinstance(item, RecordedCall)
            else None
            for item in recorded
        ]
        results: list[SyscallResult] | None = None
        try:
            results, failed = self._run_batch(recorded)
        finally:
            for index, span in enumerate(spans):
                end_span(span, None if results is None else results[index])
        return results, failed

    def _batch(self, recorded: list[RecordedCall | SyscallResult]) -> list[SyscallResult]:
        """The calls in one database transaction (``_run_batch``)."""
        return self._run_batch(recorded)[0]

    def _run_batch(self, recorded: list[RecordedCall | SyscallResult]) -> tuple[list[SyscallResult], bool]:
        """The calls in one database transaction, retried whole up to ``busy_retries`` times while the
        write lock is busy (nothing of a failed attempt was committed); and whether the storage failed
        it with nothing committed, so that its calls may run again (never after ``CommitOutcomeUnknown``)."""
        busy_attempts = 0
        while True:
            try:
                with self.store.batch() as batch:
                    return [
                        item if isinstance(item, SyscallResult) else self._execute(item, batch.transaction)
                        for item in recorded
                    ], False
            except StorageBusy as exc:
                if busy_attempts >= self.busy_retries:
                    return [_unacknowledged(ErrorCode.STORAGE_BUSY, str(exc)) for _ in recorded], False
                busy_attempts += 1
            except CommitOutcomeUnknown as exc:
                return [_unacknowledged(ErrorCode.STORAGE_UNAVAILABLE, str(exc)) for _ in recorded], False
            except StorageError as exc:
                return [_unacknowledged(ErrorCode.STORAGE_UNAVAILABLE, str(exc)) for _ in recorded], True
            except Exception as exc:
                failure = type(exc).__name__
                return [_unacknowledged(ErrorCode.INTERNAL_ERROR, failure) for _ in recorded], False

    def pipeline(
        self, *, user_id: str, run_id: str, principal: str, credential: str | None = None
    ) -> AbstractContextManager[Any]:
        """A pipeline run on this kernel (see ``kernel.pipeline``)."""
        return pipeline(self, user_id=user_id, run_id=run_id, principal=principal, credential=credential)

    def between_calls(self, work: Callable[[], _T]) -> _T:
        """``work``'s result, run while no call executes (under the execution lock, as a group of calls
        is): for a reader of the store's own connection between its transactions
        (``SqlJournalStore.read_blobs``). A call ``work`` makes runs at once, under the same lock."""
        with self._lock:
            return work()

    def close(self) -> None:
        """Close the store; the kernel cannot be used afterwards."""
        with self._lock:
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
        self,
        recorded: RecordedCall,
        transactions: TransactionSource | None = None,
    ) -> SyscallResult:
        """Run a call in its recorded form (``call``'s, or replay's through ``execute``), in its own
        transaction or in one from ``transactions`` (a batch's)."""
        with self._lock:
            if self.logger is None and self.tracer is None:
                return self._attempts(recorded, transactions)
            started = time.perf_counter()
            span = None if self.tracer is None else start_span(self.tracer, recorded, self.table, self.store)
            result: SyscallResult | None = None
            try:
                result = self._attempts(recorded, transactions)
            finally:
                end_span(span, result)
            self._log(recorded, result, round((time.perf_counter() - started) * 1000, 3))
            return result

    def _log(self, recorded: RecordedCall | SyscallResult, result: SyscallResult, duration_ms: float) -> None:
        """One event for the call; a logger that raises (a closed stderr's BrokenPipeError, say) is ignored,
        as a tracer is (``telemetry.end_span``): the call is journaled, its result is still returned."""
        if self.logger is None:
            return
        try:
            self.logger.info(
                "syscall",
                syscall=recorded.syscall if isinstance(recorded, RecordedCall) else "",
                seq=result.seq,
                principal=recorded.principal if isinstance(recorded, RecordedCall) else "",
                status="ok" if result.ok else (result.error.code if result.error else "error"),
                duration_ms=duration_ms,
            )
        except Exception:
            return

    def _attempts(self, recorded: RecordedCall, transactions: TransactionSource | None) -> SyscallResult:
        """The call, retried up to ``busy_retries`` times while the write lock is busy (a call of its
        own only: a batch's is retried whole by ``_batch``)."""
        busy_attempts = 0
        while True:
            try:
                return self._execute(recorded, transactions or self.store.transaction)
            except StorageBusy as exc:
                if busy_attempts >= self.busy_retries or transactions is not None:
                    return _unacknowledged(ErrorCode.STORAGE_BUSY, str(exc))
                busy_attempts += 1
            except StorageError as exc:
                return _unacknowledged(ErrorCode.STORAGE_UNAVAILABLE, str(exc))
            except Exception as exc:  # last resort: a bug must still not escape
                return _unacknowledged(ErrorCode.INTERNAL_ERROR, type(exc).__name__)

    def _execute(self, recorded: RecordedCall, transactions: TransactionSource) -> SyscallResult:
        """Admission refusals need no state and are journaled on their own; everything the handler
        decides, accepted or refused, is journaled in the transaction it was decided in."""
        # the moment the handler gets is the journaled text parsed back, live and in replay alike
        now = parse_time(recorded.recorded_at)
        try:
            spec, request = self._admit(recorded)
        except KernelError as refusal:
            return self._journal_refusal(
                recorded, SyscallError.of(refusal.code, refusal.detail), transactions
            )
        with transactions() as tx:
            ctx = CallContext(
                access_rules=self.access_rules,
                seq=tx.next_seq,
                now=now,
                principal=recorded.principal,
                services=self.services,
                tx=tx,
                recorded=recorded.result,
            )
            error: SyscallError | None = None
            try:
                with tx.handler_scope():
                    value = spec.handler(ctx, request)
                    if isinstance(value, Decision):  # decided, not yet written: the journal applies it
                        tx.changes.extend(value.changes)
                        value = value.value
            except KernelError as refusal:
                error = SyscallError.of(refusal.code, refusal.detail)
            except (MemoryRuleError, AwmuRuleError) as refusal:
                error = SyscallError.of(ErrorCode(refusal.code.value), refusal.detail)
            except StorageError:
                raise
            except Exception as exc:
                error = SyscallError.of(ErrorCode.INTERNAL_ERROR, type(exc).__name__)
            pieces: tuple[tuple[str, bytes], ...] = ()
            if error is not None:
                result = SyscallResult(ok=False, seq=tx.next_seq, error=error)
                journaled = canonical_bytes_of_own(result.journal_payload())
            elif self.format.pieces is not None and self.format.pieces.paths_of(spec.name):
                layout = self.format.pieces
                split = split_result(value, layout.paths_of(spec.name), layout.min_bytes)
                # the caller gets the whole result; the journal its bulky parts by reference
                result = SyscallResult.from_journaled(tx.next_seq, split.whole)
                journaled, pieces = split.journaled, split.pieces
            else:
                encoded = canonical_bytes_of_own({"ok": True, "value": value})
                # the caller gets exactly what the journal holds (lists, not tuples), as a replay would
                result = SyscallResult.from_journaled(tx.next_seq, encoded)
                journaled = encoded
            tx.append(
                recorded_at=recorded.recorded_at,
                syscall=recorded.syscall,
                principal=recorded.principal,
                args=recorded.args,
                status="ok" if error is None else error.code,
                result=journaled,
                pieces=pieces,
            )
        return result

    def _admit(self, recorded: RecordedCall) -> tuple[SyscallSpec, Any]:
        """Checks that need no state: principal, name, argument shape, bound service."""
        check_principal(recorded.principal)
        if recorded.identity_refused:
            raise KernelError(ErrorCode.PRINCIPAL_NOT_ALLOWED, refusal_detail(recorded.principal))
        spec = None if recorded.unknown_when_recorded else self.table.get(recorded.syscall)
        if spec is None:
            raise KernelError(ErrorCode.UNKNOWN_SYSCALL, "the name is not in the syscall table")
        check_refused(recorded.args)
        try:
            request = self._decoders[spec.name].decode(recorded.args)
        except msgspec.DecodeError as exc:
            raise KernelError(ErrorCode.INVALID_ARGS, str(exc)) from None
        if spec.service is not Service.ALWAYS and getattr(self.services, spec.service, None) is None:
            raise KernelError(ErrorCode.NO_MEMORY_SERVICE, f"{spec.service.value} is not bound")
        return spec, request

    def _journal_refusal(
        self, recorded: RecordedCall, error: SyscallError, transactions: TransactionSource
    ) -> SyscallResult:
        with transactions() as tx:
            result = SyscallResult(ok=False, seq=tx.next_seq, error=error)
            tx.append(
                recorded_at=recorded.recorded_at,
                syscall=recorded.syscall,
                principal=recorded.principal,
                args=recorded.args,
                status=error.code,
                result=canonical_bytes_of_own(result.journal_payload()),
            )
        return result


def _unacknowledged(code: ErrorCode, detail: str) -> SyscallResult:
    return SyscallResult(ok=False, seq=None, error=SyscallError.of(code, detail))

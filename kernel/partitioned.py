"""The router of a partitioned journal: one ``call`` interface over P kernels, each its own chain.

``PartitionedKernel`` has ``Kernel``'s ``call`` and ``call_many`` and sends each call to the partition of
its subject (``kernel.partition_routing``): a call on one partition takes only that partition's kernel
(its lock, its database's write lock), so writers of different partitions never wait on each other.
A call about several partitions is run in each, in ascending order, and its answers merged. Every
``heads_every`` calls, and on ``checkpoint()``, the router records the head (seq, entry hash) of every
partition in the global log (an ordinary journal, ``kernel.record`` of kind ``arvis.partition_heads``),
so that one signed checkpoint of the global log covers every partition (``specs/scale-out.md``).

The router opens nothing itself: ``kernel.partitioned_boot`` wires the kernels, the global log and the
head readers from a manifest.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from arvis.canonical import decode
from kernel.abi import SyscallError, SyscallResult
from kernel.arguments import MAX_NAME_LENGTH, record_args, record_text
from kernel.dispatcher import Kernel
from kernel.errors import ErrorCode
from kernel.partition_routing import PartitionKey, Route, route
from kernel.pipeline import pipeline
from kernel.protocols import StorageError

__all__ = [
    "DEFAULT_HEADS_EVERY",
    "HEADS_KIND",
    "MANIFEST_KIND",
    "ROUTER_PRINCIPAL",
    "HeadsRecord",
    "HeadsRecorder",
    "PartitionedKernel",
    "RoutedResult",
]

HEADS_KIND = "arvis.partition_heads"
"""``kernel.record`` kind of a global-log entry holding every partition's head."""
MANIFEST_KIND = "arvis.partition_manifest"
"""``kernel.record`` kind of the global log's first entry: the manifest and its hash."""
ROUTER_PRINCIPAL = "service:arvis-partitions"
"""The principal the router records the global log's entries as."""
DEFAULT_HEADS_EVERY = 1000
"""Calls between two automatic records of the heads (0: only on ``checkpoint()`` and ``close()``)."""

Head = tuple[int, str]
"""A partition's head: its last seq and that entry's hash (0 and the genesis hash when empty)."""


class RoutedResult(SyscallResult):
    """A ``SyscallResult`` that says where it was answered: ``partition``'s journal holds the entry ``seq``
    (when ``seq`` is not None; None: the router refused the call itself, journaling nothing). A call
    answered by several partitions has every partition's own result in ``parts``, ``(partition,
    result)`` in ascending order; its ``value`` is then their merge (``specs/scale-out.md`` §4) and
    ``seq``/``partition`` name the first part's entry, or the first refusal's."""

    __slots__ = ("partition", "parts")
    partition: int | None
    parts: tuple[tuple[int, SyscallResult], ...]

    def __init__(
        self,
        *,
        ok: bool,
        seq: int | None,
        value: Any = None,
        error: SyscallError | None = None,
        partition: int | None = None,
        parts: tuple[tuple[int, SyscallResult], ...] = (),
    ) -> None:
        super().__init__(ok=ok, seq=seq, value=value, error=error)
        object.__setattr__(self, "partition", partition)
        object.__setattr__(self, "parts", parts)

    @classmethod
    def of(
        cls, result: SyscallResult, partition: int | None, parts: tuple[tuple[int, SyscallResult], ...] = ()
    ) -> RoutedResult:
        """``result`` as it is (its value still undecoded when it was), placed in ``partition``."""
        routed = cls(ok=result.ok, seq=result.seq, error=result.error, partition=partition, parts=parts)
        object.__setattr__(routed, "_value", result._value)
        object.__setattr__(routed, "_encoded", result._encoded)
        return routed

    def __repr__(self) -> str:
        return f"RoutedResult(partition={self.partition!r}, {super().__repr__()})"

    def to_dict(self) -> dict[str, Any]:
        payload = super().to_dict()
        payload["partition"] = self.partition
        if self.parts:
            payload["parts"] = [{"partition": index, **part.to_dict()} for index, part in self.parts]
        return payload


@dataclass(frozen=True)
class HeadsRecord:
    """A record of every partition's head in the global log: its entry there and the heads."""

    global_seq: int
    global_hash: str
    heads: tuple[Head, ...]


class HeadsRecorder:
    """Records every partition's head in the global log, one record at a time (routers of other
    processes record theirs independently, so a later record may name an older head)."""

    def __init__(
        self,
        global_log: Kernel,
        read_heads: Callable[[], list[Head]],
        global_entry_hash: Callable[[int], str],
    ) -> None:
        self.global_log = global_log
        self._read_heads = read_heads
        self._global_entry_hash = global_entry_hash
        self._lock = threading.Lock()
        self._last: tuple[Head, ...] | None = None

    def heads(self) -> tuple[Head, ...]:
        """Every partition's committed head now, partition 0 first."""
        return tuple(self._read_heads())

    def record(self, *, only_if_changed: bool = False) -> HeadsRecord | None:
        """Record the heads in the global log; None when ``only_if_changed`` and none moved since the
        last record. ``StorageError`` when the global log did not acknowledge it."""
        with self._lock:
            heads = self.heads()
            if only_if_changed and heads == self._last:
                return None
            result = self.global_log.call(
                "kernel.record",
                {"kind": HEADS_KIND, "payload": {"heads": [list(head) for head in heads]}},
                principal=ROUTER_PRINCIPAL,
            )
            if not result.ok or result.seq is None:
                reason = result.error.detail if result.error is not None else "not acknowledged"
                raise StorageError(f"the global log did not record the heads: {reason}")
            self._last = heads
            return HeadsRecord(result.seq, self._global_entry_hash(result.seq), heads)


def _refusal(detail: str) -> RoutedResult:
    """The router's own refusal: nothing journaled anywhere (seq None)."""
    return RoutedResult(ok=False, seq=None, error=SyscallError.of(ErrorCode.INVALID_ARGS, detail))


class PartitionedKernel:
    """``Kernel``'s interface over the partitions of one partitioned journal; safe to share by threads."""

    def __init__(
        self,
        *,
        kernels: Sequence[Kernel],
        key: PartitionKey,
        global_log: Kernel,
        read_heads: Callable[[], list[Head]],
        global_entry_hash: Callable[[int], str],
        heads_every: int = DEFAULT_HEADS_EVERY,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        """``kernels``: partition k's kernel at index k. ``read_heads``: every partition's committed
        head, read without taking any partition's write lock; ``global_entry_hash``: the entry hash of
        a seq of the global log. ``on_close``: releases what the wiring opened besides the kernels
        (the readers)."""
        if not kernels:
            raise ValueError("a partitioned journal has at least one partition")
        if heads_every < 0:
            raise ValueError("heads_every is a number of calls, 0 for none")
        self.kernels: tuple[Kernel, ...] = tuple(kernels)
        self.count = len(self.kernels)
        self.key = key
        self.global_log = global_log
        self.heads_every = heads_every
        self.recorder = HeadsRecorder(global_log, read_heads, global_entry_hash)
        self._on_close = on_close
        self._calls = 0
        self._calls_lock = threading.Lock()
        self._several_lock = threading.Lock()
        """Held by a call written to several partitions, so that two such calls of this router (a '*'
        grant and its revoke) never interleave between partitions (``specs/scale-out.md`` §4)."""
        self._closed = False

    # --- routing ------------------------------------------------------------------------------------

    def _recorded(self, syscall: str, args: object) -> tuple[bytes, object]:
        """The arguments' recorded bytes (within the syscall's limit, as each partition's kernel records
        them) and the value decoded from them: the router routes the bytes and hands the kernel the value,
        whose recorded form is those bytes again, so a call is journaled in the partition its journaled
        arguments route to, even if the caller changes its object meanwhile."""
        recorded = record_args({} if args is None else args, self.kernels[0].table.args_limit(syscall))
        return recorded, decode(recorded)

    def route(self, name: object, args: object = None) -> Route:
        """Where a call with these name and arguments goes (``kernel.partition_routing.route`` of its
        recorded form)."""
        syscall = record_text(name, MAX_NAME_LENGTH)
        return route(syscall, self._recorded(syscall, args)[0], *self._keyed)

    @property
    def _keyed(self) -> tuple[int, PartitionKey]:
        return self.count, self.key

    def _pinned(self, found: Route, partition: object) -> Route | RoutedResult:
        """The route with the caller's choice of partition, or the router's refusal of that choice."""
        if partition is None:
            return found
        if type(partition) is not int or not 0 <= partition < self.count:
            return _refusal(f"partition must be an integer from 0 to {self.count - 1}")
        if found.pinnable:
            return Route((partition,), bound=False)
        if found.bound and found.partitions == (partition,):
            return found
        return _refusal(
            f"the call belongs to partition(s) {list(found.partitions)}, not {partition}: only a call that "
            "names no subject may be pinned"
        )

    # --- calls --------------------------------------------------------------------------------------

    def call(
        self,
        name: object,
        args: object = None,
        *,
        principal: object,
        credential: object = None,
        partition: int | None = None,
    ) -> RoutedResult:
        """Execute one syscall in the partition(s) its route names; never raises. ``partition`` pins a
        call that names no subject (``kernel.record``, a review by request id) to that partition
        instead of partition 0; any other pin must agree with the route."""
        syscall = record_text(name, MAX_NAME_LENGTH)
        recorded, fixed = self._recorded(syscall, args)  # routed and journaled as the same bytes
        placed = self._pinned(route(syscall, recorded, *self._keyed), partition)
        if isinstance(placed, RoutedResult):
            return placed
        if placed.refused:
            return _refusal(placed.refused)
        targets = list(self._targets(placed, fixed))
        with self._several_lock if len(targets) > 1 else _ALONE:  # no interleaving of two '*' grants
            parts = tuple(
                (index, self.kernels[index].call(name, each, principal=principal, credential=credential))
                for index, each in targets
            )
        self._counted(1)
        return _merged(placed, parts, fixed)

    def call_many(
        self, calls: Iterable[tuple[object, object, object] | tuple[object, object, object, object]]
    ) -> list[RoutedResult]:
        """Bulk, as ``Kernel.call_many``: each partition's share of the calls in one transaction of that
        partition, in the order given (a call about several partitions takes its place in each), so
        each partition's batch commits whole; across partitions there is no common transaction."""
        given = list(calls)
        routes: list[Route | RoutedResult] = []
        shares: dict[int, list[tuple[int, tuple[object, ...]]]] = {}
        for position, each in enumerate(given):
            if not isinstance(each, tuple) or len(each) not in (3, 4):
                routes.append(Route((0,), bound=False))  # the kernel refuses the malformed call as it does
                shares.setdefault(0, []).append((position, each))
                continue
            syscall = record_text(each[0], MAX_NAME_LENGTH)
            recorded, fixed = self._recorded(syscall, each[1])
            placed = route(syscall, recorded, *self._keyed)
            if placed.refused:
                routes.append(_refusal(placed.refused))
                continue
            routes.append(placed)
            for index, args in self._targets(placed, fixed):
                shares.setdefault(index, []).append((position, (each[0], args, *each[2:])))
        answers: dict[int, list[tuple[int, SyscallResult]]] = {}
        with self._several_lock if len(shares) > 1 else _ALONE:
            for index in sorted(shares):
                share = shares[index]
                results = self.kernels[index].call_many([call for _, call in share])  # type: ignore[misc]
                for (position, _), result in zip(share, results, strict=True):
                    answers.setdefault(position, []).append((index, result))
        merged = [
            placed
            if isinstance(placed, RoutedResult)
            else _merged(placed, tuple(answers[position]), _args_of(given[position]))
            for position, placed in enumerate(routes)
        ]
        self._counted(len(given))
        return merged

    def _targets(self, placed: Route, args: object) -> Iterator[tuple[int, object]]:
        each = placed.args if placed.args is not None else itertools.repeat(args)
        return zip(placed.partitions, each, strict=False)

    def pipeline(
        self, *, user_id: str, run_id: str, principal: str, credential: str | None = None
    ) -> AbstractContextManager[Any]:
        """A pipeline run (``kernel.pipeline``) in the user's partition; its end is asked of every
        partition (``pipeline.end`` names only the run), and the one holding the run ends it."""
        return pipeline(self, user_id=user_id, run_id=run_id, principal=principal, credential=credential)

    # --- heads --------------------------------------------------------------------------------------

    def _counted(self, calls: int) -> None:
        """Every ``heads_every`` calls, the heads are recorded (by the call that crosses the mark, after
        its own partition committed: no other call waits for it). A record that fails (a busy global
        log) is left for the next mark: ``call`` never raises."""
        if not self.heads_every or calls < 1:
            return
        with self._calls_lock:
            before = self._calls
            self._calls += calls  # a batch counts each of its calls
        if (before + calls) // self.heads_every != before // self.heads_every:
            try:
                self.record_heads(only_if_changed=True)
            except Exception:  # the call itself was answered: a record not made now is made at the next mark
                return

    def heads(self) -> tuple[Head, ...]:
        """Every partition's committed head now, partition 0 first."""
        return self.recorder.heads()

    def record_heads(self, *, only_if_changed: bool = False) -> HeadsRecord | None:
        """``HeadsRecorder.record``."""
        return self.recorder.record(only_if_changed=only_if_changed)

    def checkpoint(self) -> HeadsRecord:
        """Record every partition's head in the global log now and return the record: a signed
        checkpoint of the global log taken after it (``arvis journal checkpoint --sign``) covers every
        partition up to these heads."""
        record = self.record_heads()
        assert record is not None
        return record

    def close(self, *, record_heads: bool = True) -> None:
        """Record the heads one last time (when they changed), then close every kernel; a second close
        does nothing."""
        with self._calls_lock:
            if self._closed:
                return
            self._closed = True
        try:
            if record_heads:
                self.record_heads(only_if_changed=True)
        finally:
            for kernel in (*self.kernels, self.global_log):
                kernel.close()
            if self._on_close is not None:
                self._on_close()


# --- merging the answers of several partitions ----------------------------------------------------------


def _args_of(call: object) -> object:
    return call[1] if isinstance(call, tuple) and len(call) >= 2 else None


def _first_refusal(parts: tuple[tuple[int, SyscallResult], ...]) -> RoutedResult | None:
    for index, part in parts:
        if not part.ok:
            return RoutedResult.of(part, index, parts)
    return None


def _merged(placed: Route, parts: tuple[tuple[int, SyscallResult], ...], args: object) -> RoutedResult:
    if len(parts) == 1 and placed.args is None:
        index, part = parts[0]
        return RoutedResult.of(part, index)
    if placed.merge == "run_end":
        return _run_end(parts)
    refused = _first_refusal(parts)
    if refused is not None:
        return refused
    first_index, first = parts[0]
    values = [part.value for _, part in parts]
    if placed.merge == "grants":
        value: Any = {"grants": _grants(values)}
    elif placed.merge == "deleted":
        value = {**values[0], "deleted": _summed([each["deleted"] for each in values])}
    elif placed.merge == "namespaces":
        value = {"namespaces": _namespaces(values, args)}
    else:
        return RoutedResult.of(first, first_index, parts)
    return RoutedResult(ok=True, seq=first.seq, value=value, partition=first_index, parts=parts)


def _run_end(parts: tuple[tuple[int, SyscallResult], ...]) -> RoutedResult:
    """The partition that holds the run answers; where none does, the first partition's refusal."""

    def rank(part: SyscallResult) -> int:
        if part.ok:
            return 0
        code = part.error.code if part.error is not None else ""
        if code != ErrorCode.PIPELINE_RUN_NOT_FOUND:
            return 1
        return 2 if part.error is not None and part.error.detail.startswith("no run ") else 1

    index, chosen = min(parts, key=lambda item: (rank(item[1]), item[0]))
    return RoutedResult.of(chosen, index, parts)


def _grants(values: list[Any]) -> list[dict[str, Any]]:
    """The union of the partitions' grants, each once, in (principal, capability, scope) order."""
    unique = {(g["principal"], g["capability"], g["scope"]): g for value in values for g in value["grants"]}
    return [unique[triple] for triple in sorted(unique)]


def _summed(counts: list[dict[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for each in counts:
        for name, number in each.items():
            total[name] = total.get(name, 0) + number
    return total


def _namespaces(values: list[Any], args: object) -> list[list[str]]:
    """The partitions' namespaces (each listed from the start up to offset + limit), sorted,
    deduplicated, then cut to the caller's ``offset`` and ``limit``."""
    given = decode(record_args(args if args is not None else {}))
    offset = given.get("offset", 0) if isinstance(given, dict) else 0
    limit = given.get("limit", 100) if isinstance(given, dict) else 100
    unique = sorted({tuple(namespace) for value in values for namespace in value["namespaces"]})
    return [list(namespace) for namespace in unique[offset : offset + limit]]


_ALONE = contextlib.nullcontext()
"""What a call written to one partition holds: nothing beyond that partition's kernel."""

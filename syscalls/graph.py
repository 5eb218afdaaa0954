"""The graph family: LangGraph checkpoints as journaled syscalls (specs/langgraph.md).

Each call mirrors one method of LangGraph's ``BaseCheckpointSaver`` with the semantics of its in-memory
saver (``InMemorySaver``). Values are references, a type tag and the SHA-256 of the serialized bytes; a
call that stores one carries its bytes too (``syscalls.carried``: checked against the hash, stored in the
call's transaction). Effects and results hold hashes only, and a handler decides from the graph state and
its arguments alone, so a replay reads no blob.

Access: a thread is owned by the principal that first writes into it; anyone else needs ``read`` or
``write`` on the scope ``graph:<thread_id>`` (or ``*``); built-in administrators may do anything. A thread
nobody has written into holds nothing: reading it gives nothing, writing it claims it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Literal

import msgspec

from arvis.canonical import canonical_bytes_of_own, decode
from kernel.abi import CallContext
from kernel.access import Capability
from kernel.errors import ErrorCode, KernelError
from kernel.graph_checkpoints import (
    EMPTY_VALUE,
    GraphChannelValue,
    GraphCheckpoint,
    GraphRepository,
    GraphWrite,
)
from syscalls.carried import Named, carried
from syscalls.owned_names import OwnedNames
from syscalls.types import NO_NUL

__all__ = [
    "MAX_LIST",
    "THREAD_SCOPE_PREFIX",
    "WRITES_IDX_MAP",
    "CopyArgs",
    "GetArgs",
    "ListArgs",
    "PruneArgs",
    "PutArgs",
    "PutWritesArgs",
    "RunsArgs",
    "ThreadArgs",
    "graph_get",
    "graph_list",
    "graph_put",
    "graph_put_writes",
    "graph_runs_delete",
    "graph_thread_copy",
    "graph_thread_create",
    "graph_thread_delete",
    "graph_thread_prune",
]

THREAD_SCOPE_PREFIX = "graph:"
"""A thread's grant scope is ``graph:<thread_id>``."""
MAX_THREAD_ID_LENGTH = 128 - len(THREAD_SCOPE_PREFIX)
"""So that a thread's scope fits a grant's scope (128 characters)."""
MAX_LIST = 100
"""The most checkpoints one ``graph.checkpoint.list`` returns (and its default ``limit``): a longer listing
is read in pages, each starting ``after`` the last one returned."""
MAX_IDS = 1000
"""The most run ids (``graph.runs.delete``) or thread ids (``graph.thread.prune``) one call names."""

WRITES_IDX_MAP = {"__error__": -1, "__scheduled__": -2, "__interrupt__": -3, "__resume__": -4}
"""LangGraph's ``WRITES_IDX_MAP``: a write to one of these special channels is stored under this fixed
negative index and overwrites; any other write is stored under its position in the call and is kept when
one of that (task, index) exists already. (A test checks it equals ``langgraph.checkpoint.base``'s.)"""

_PLAIN = r"^[^\x00-\x1f\x7f-\x9f]+\Z"
ThreadId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_THREAD_ID_LENGTH, pattern=_PLAIN)]
Namespace = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]
CheckpointId = Annotated[str, msgspec.Meta(min_length=1, max_length=256, pattern=NO_NUL)]
Name = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]
"""A channel, a task id or a task path."""
RunId = Annotated[str, msgspec.Meta(max_length=256, pattern=NO_NUL)]
Hash = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}\Z")]
TypeTag = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=_PLAIN)]
Version = Annotated[str, msgspec.Meta(max_length=256, pattern=NO_NUL)] | int | float
"""A channel version: LangGraph's are strings, integers or numbers."""


class Ref(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A value: its type, its hash, and its bytes (``data``, base64), which every live call carries."""

    type: TypeTag
    hash: Hash
    data: bytes | None = None


class NewValue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A channel's value at a new version: ``hash`` (and ``data``) null exactly when ``type`` is
    ``empty``."""

    channel: Name
    version: Version
    type: TypeTag
    hash: Hash | None = None
    data: bytes | None = None


class PutArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId
    checkpoint_id: CheckpointId
    checkpoint: Ref
    checkpoint_ns: Namespace = ""
    parent_checkpoint_id: CheckpointId | None = None
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)
    channel_versions: dict[Name, Version] = msgspec.field(default_factory=dict)
    new_values: list[NewValue] = msgspec.field(default_factory=list)


class Write(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    channel: Name
    type: TypeTag
    hash: Hash
    data: bytes | None = None


class PutWritesArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId
    checkpoint_id: CheckpointId
    task_id: Name
    writes: list[Write]
    checkpoint_ns: Namespace = ""
    task_path: Name = ""


class GetArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId
    checkpoint_ns: Namespace = ""
    checkpoint_id: CheckpointId | None = None


class Position(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A checkpoint's place in the listing order (``after``)."""

    thread_id: ThreadId
    checkpoint_ns: Namespace
    checkpoint_id: CheckpointId


class ListArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId | None = None
    checkpoint_ns: Namespace | None = None
    checkpoint_id: CheckpointId | None = None
    before: CheckpointId | None = None
    filter: dict[str, Any] | None = None
    limit: Annotated[int, msgspec.Meta(ge=0, le=MAX_LIST)] = MAX_LIST
    after: Position | None = None


class ThreadArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId


class RunsArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    run_ids: Annotated[list[RunId], msgspec.Meta(max_length=MAX_IDS)]


class CopyArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source_thread_id: ThreadId
    target_thread_id: ThreadId


class PruneArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_ids: Annotated[list[ThreadId], msgspec.Meta(max_length=MAX_IDS)]
    strategy: Literal["keep_latest", "delete"] = "keep_latest"


# --- access -----------------------------------------------------------------------------------------


class _Access(OwnedNames):
    """Graph threads: owned names (``syscalls.owned_names``), created by ``graph.thread.create``."""

    def __init__(self, ctx: CallContext) -> None:
        graph = ctx.tx.graph
        super().__init__(
            ctx,
            scope_prefix=THREAD_SCOPE_PREFIX,
            noun="graph thread",
            owner_of=graph.owner_of,
            add_owner=graph.add_owner,
            create="graph.thread.create",
        )


def graph_thread_create(ctx: CallContext, args: ThreadArgs) -> dict[str, Any]:
    """The thread becomes the caller's (``OwnedNames.create``)."""
    created = _Access(ctx).create(args.thread_id)
    return {"thread_id": args.thread_id, "owner": created["owner"], "created": created["created"]}


# --- wire forms -------------------------------------------------------------------------------------


def _json_text(value: Any) -> str:
    return canonical_bytes_of_own(value).decode("utf-8")


def _version_key(version: Any) -> str:
    """A version as stored in ``graph_channel_values.version``: its canonical JSON text."""
    return _json_text(version)


def _values_index(values: Iterable[GraphChannelValue]) -> dict[tuple[str, str], GraphChannelValue]:
    return {(value.channel, value.version): value for value in values}


def _write_order(write: GraphWrite) -> tuple[str, str, int]:
    """LangGraph's ``writes_sort_key``: (task_path, task_id, idx)."""
    return (write.task_path, write.task_id, write.idx)


def _channel_keys(row: GraphCheckpoint) -> list[tuple[str, str]]:
    """The (channel, version as stored) of every channel the checkpoint's ``channel_versions`` name, in
    their order (canonical JSON: by channel)."""
    return [
        (channel, _version_key(version))
        for channel, version in decode(row.channel_versions.encode("utf-8")).items()
    ]


def _wire(
    row: GraphCheckpoint,
    keys: Iterable[tuple[str, str]],
    values: dict[tuple[str, str], GraphChannelValue],
    writes: Iterable[GraphWrite],
) -> dict[str, Any]:
    """A checkpoint as a result holds it: references, its metadata, and the values of its channels at
    their versions (``keys``, from ``_channel_keys``; a channel whose value is ``empty`` or not stored is
    left out, as LangGraph does)."""
    channel_values: dict[str, Any] = {}
    for key in keys:
        found = values.get(key)
        if found is not None and found.value_type != EMPTY_VALUE:
            channel_values[key[0]] = {"type": found.value_type, "hash": found.value_hash}
    return {
        "thread_id": row.thread_id,
        "checkpoint_ns": row.checkpoint_ns,
        "checkpoint_id": row.checkpoint_id,
        "parent_checkpoint_id": row.parent_checkpoint_id,
        "checkpoint": {"type": row.checkpoint_type, "hash": row.checkpoint_hash},
        "metadata": decode(row.metadata.encode("utf-8")),
        "channel_values": channel_values,
        "pending_writes": [
            {
                "task_id": write.task_id,
                "channel": write.channel,
                "type": write.value_type,
                "hash": write.value_hash,
            }
            for write in sorted(writes, key=_write_order)
        ],
    }


# --- the calls --------------------------------------------------------------------------------------


def graph_put(ctx: CallContext, args: PutArgs) -> dict[str, Any]:
    """``put``: the values of the channels given new versions, then the checkpoint (replacing one of the
    same id), its parent being the checkpoint the caller's config named."""
    named: list[Named] = [("checkpoint", args.checkpoint.hash, args.checkpoint.data)]
    for value in args.new_values:
        what = f"new value of channel '{value.channel}'"
        if (value.type == EMPTY_VALUE) != (value.hash is None):
            raise KernelError(
                ErrorCode.INVALID_ARGS,
                f"{what}: a hash is required unless the type is '{EMPTY_VALUE}', and forbidden then",
            )
        if value.hash is not None:
            named.append((what, value.hash, value.data))
        elif value.data is not None:
            raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: a value of type '{EMPTY_VALUE}' has no bytes")
    _Access(ctx).claim(args.thread_id)
    graph = ctx.tx.graph
    graph.store_values(carried(ctx, named))
    for value in args.new_values:
        graph.put_channel_value(
            GraphChannelValue(
                args.thread_id,
                args.checkpoint_ns,
                value.channel,
                _version_key(value.version),
                value.type,
                value.hash,
                ctx.seq,
            )
        )
    graph.put_checkpoint(
        GraphCheckpoint(
            args.thread_id,
            args.checkpoint_ns,
            args.checkpoint_id,
            args.parent_checkpoint_id,
            args.checkpoint.type,
            args.checkpoint.hash,
            _json_text(args.metadata),
            _json_text(args.channel_versions),
            ctx.seq,
        )
    )
    return {
        "thread_id": args.thread_id,
        "checkpoint_ns": args.checkpoint_ns,
        "checkpoint_id": args.checkpoint_id,
    }


def graph_put_writes(ctx: CallContext, args: PutWritesArgs) -> dict[str, Any]:
    """``put_writes``: each write under (task, index), its index its position in the call or, for a
    special channel, its ``WRITES_IDX_MAP`` index; a regular write already stored is kept, a special one
    replaced."""
    _Access(ctx).claim(args.thread_id)
    graph = ctx.tx.graph
    graph.store_values(
        carried(ctx, [(f"write {index}", write.hash, write.data) for index, write in enumerate(args.writes)])
    )
    stored = 0
    for position, write in enumerate(args.writes):
        idx = WRITES_IDX_MAP.get(write.channel, position)
        if idx >= 0 and graph.write_exists(
            args.thread_id, args.checkpoint_ns, args.checkpoint_id, args.task_id, idx
        ):
            continue
        graph.put_write(
            GraphWrite(
                args.thread_id,
                args.checkpoint_ns,
                args.checkpoint_id,
                args.task_id,
                idx,
                write.channel,
                args.task_path,
                write.type,
                write.hash,
                ctx.seq,
            )
        )
        stored += 1
    return {"stored": stored}


def graph_get(ctx: CallContext, args: GetArgs) -> dict[str, Any]:
    """``get_tuple``: the checkpoint of that id, or the thread's latest in the namespace (the greatest
    id, by code point); null when there is none. Reads that checkpoint, the channel values it names and
    its writes, nothing else."""
    _Access(ctx).require(Capability.READ, args.thread_id)
    graph = ctx.tx.graph
    if args.checkpoint_id is not None:
        row = graph.checkpoint(args.thread_id, args.checkpoint_ns, args.checkpoint_id)
    else:
        latest = graph.newest_checkpoints(args.thread_id, args.checkpoint_ns, limit=1)
        row = latest[0] if latest else None
    if row is None:
        return {"checkpoint": None}
    keys = _channel_keys(row)
    values = _values_index(graph.channel_values_at(row.thread_id, row.checkpoint_ns, keys))
    writes = graph.writes(row.thread_id, row.checkpoint_ns, row.checkpoint_id)
    return {"checkpoint": _wire(row, keys, values, writes)}


def _place(row: GraphCheckpoint) -> tuple[str, str]:
    return (row.thread_id, row.checkpoint_ns)


def _matches(metadata: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """LangGraph's metadata filter: every key's value equal (Python's ``==``) to the stored one."""
    return all(value == metadata.get(key) for key, value in wanted.items())


def _places(graph: GraphRepository, args: ListArgs) -> Iterator[tuple[str, str]]:
    """The (thread, namespace) pairs a listing visits, in its order (ascending by code point), from the
    one of ``after`` on (that one included, whether or not it holds anything)."""
    start = None if args.after is None else (args.after.thread_id, args.after.checkpoint_ns)
    if args.thread_id is None:  # every thread: their pairs at once, sorted here
        for place in sorted(graph.namespaces(args.checkpoint_ns)):
            if start is None or place >= start:
                yield place
    elif args.checkpoint_ns is not None:
        place = (args.thread_id, args.checkpoint_ns)
        if start is None or place >= start:
            yield place
    elif start is None or args.thread_id >= start[0]:  # one thread, every namespace: one at a time
        namespace = None
        if start is not None and start[0] == args.thread_id:
            namespace = start[1]
            yield (args.thread_id, namespace)
        while (namespace := graph.next_namespace(args.thread_id, namespace)) is not None:
            yield (args.thread_id, namespace)


_SCAN = MAX_LIST
"""Checkpoints read at a time while a filter may reject some (without one, exactly those still wanted)."""


def _listed(graph: GraphRepository, args: ListArgs, readable: Callable[[str], bool]) -> list[GraphCheckpoint]:
    """The checkpoints ``list`` returns, in its order: each (thread, namespace) in turn, newest first
    within it, read a page at a time (ids below the last one read) until ``limit`` are kept."""
    chosen: list[GraphCheckpoint] = []
    for place in _places(graph, args):
        if not readable(place[0]):
            continue
        below = args.before
        if args.after is not None and place == (args.after.thread_id, args.after.checkpoint_ns):
            below = args.after.checkpoint_id if below is None else min(below, args.after.checkpoint_id)
        while True:
            wanted = args.limit - len(chosen)
            page = wanted if not args.filter else max(wanted, _SCAN)
            rows = graph.newest_checkpoints(*place, limit=page, below=below, checkpoint_id=args.checkpoint_id)
            for row in rows:
                if args.filter and not _matches(decode(row.metadata.encode("utf-8")), args.filter):
                    continue
                chosen.append(row)
                if len(chosen) >= args.limit:
                    return chosen
            if len(rows) < page or args.checkpoint_id is not None:
                break
            below = rows[-1].checkpoint_id
    return chosen


def graph_list(ctx: CallContext, args: ListArgs) -> dict[str, Any]:
    """``list``: checkpoints of a thread (every thread the principal may read, when none is named), of a
    namespace or all, newest first within each (thread, namespace); at most ``limit``, after ``after``.
    Reads those checkpoints (and any a filter rejected on the way), the channel values they name and
    their writes, nothing else."""
    access = _Access(ctx)
    graph = ctx.tx.graph
    if args.thread_id is not None:
        access.require(Capability.READ, args.thread_id)
    if args.limit == 0:
        return {"checkpoints": []}
    if args.thread_id is not None:
        chosen = _listed(graph, args, lambda thread_id: True)
    else:
        owners = graph.owners()
        chosen = _listed(
            graph,
            args,
            lambda thread_id: access.allows(Capability.READ, thread_id, owners.get(thread_id)),
        )
    listed: list[dict[str, Any]] = []
    for place, grouped in itertools.groupby(chosen, key=_place):  # a (thread, namespace)'s are consecutive
        rows = list(grouped)
        keys = [_channel_keys(row) for row in rows]
        values = _values_index(graph.channel_values_at(*place, {key for row in keys for key in row}))
        writes: dict[str, list[GraphWrite]] = {}
        for write in graph.writes_of(*place, [row.checkpoint_id for row in rows]):
            writes.setdefault(write.checkpoint_id, []).append(write)
        listed.extend(
            _wire(row, row_keys, values, writes.get(row.checkpoint_id, []))
            for row, row_keys in zip(rows, keys, strict=True)
        )
    return {"checkpoints": listed}


def _checkpoint_key(row: GraphCheckpoint) -> tuple[str, str, str]:
    return (row.thread_id, row.checkpoint_ns, row.checkpoint_id)


def _write_key(row: GraphWrite) -> tuple[str, str, str, str, int]:
    return (row.thread_id, row.checkpoint_ns, row.checkpoint_id, row.task_id, row.idx)


def _value_key(row: GraphChannelValue) -> tuple[str, str, str, str]:
    return (row.thread_id, row.checkpoint_ns, row.channel, row.version)


class _Deleted:
    """What a call deleted, deleting rows one by one in key order (so the effects come in one order on
    every backend)."""

    def __init__(self, graph: GraphRepository) -> None:
        self._graph = graph
        self.checkpoints = self.writes = self.channel_values = 0

    def checkpoint_rows(self, rows: Iterable[GraphCheckpoint]) -> None:
        for row in sorted(rows, key=_checkpoint_key):
            self._graph.delete_checkpoint(*_checkpoint_key(row))
            self.checkpoints += 1

    def write_rows(self, rows: Iterable[GraphWrite]) -> None:
        for row in sorted(rows, key=_write_key):
            self._graph.delete_write(*_write_key(row))
            self.writes += 1

    def value_rows(self, rows: Iterable[GraphChannelValue]) -> None:
        for row in sorted(rows, key=_value_key):
            self._graph.delete_channel_value(*_value_key(row))
            self.channel_values += 1

    def thread(self, thread_id: str) -> None:
        self.checkpoint_rows(self._graph.checkpoints(thread_id))
        self.write_rows(self._graph.writes(thread_id))
        self.value_rows(self._graph.channel_values(thread_id))

    def wire(self) -> dict[str, int]:
        return {"checkpoints": self.checkpoints, "writes": self.writes, "channel_values": self.channel_values}


def graph_thread_delete(ctx: CallContext, args: ThreadArgs) -> dict[str, Any]:
    """``delete_thread``: every checkpoint, pending write and channel value of the thread, in every
    namespace. The thread stays its owner's."""
    _Access(ctx).require(Capability.WRITE, args.thread_id)
    deleted = _Deleted(ctx.tx.graph)
    deleted.thread(args.thread_id)
    return {"thread_id": args.thread_id, "deleted": deleted.wire()}


def _run_id(row: GraphCheckpoint) -> Any:
    metadata = decode(row.metadata.encode("utf-8"))
    return metadata.get("run_id") if isinstance(metadata, dict) else None


def graph_runs_delete(ctx: CallContext, args: RunsArgs) -> dict[str, Any]:
    """``delete_for_runs``: the checkpoints whose metadata ``run_id`` is one of ``run_ids``, with their
    pending writes, in every thread the principal may write (others are left alone)."""
    access = _Access(ctx)
    graph = ctx.tx.graph
    wanted = set(args.run_ids)
    owners = graph.owners()
    victims = [
        row
        for row in graph.checkpoints(None)
        if isinstance(run_id := _run_id(row), str)
        and run_id in wanted
        and access.allows(Capability.WRITE, row.thread_id, owners.get(row.thread_id))
    ]
    deleted = _Deleted(graph)
    for row in sorted(victims, key=_checkpoint_key):
        deleted.write_rows(graph.writes(row.thread_id, row.checkpoint_ns, row.checkpoint_id))
        deleted.checkpoint_rows([row])
    return {"deleted": deleted.wire()}


def graph_thread_copy(ctx: CallContext, args: CopyArgs) -> dict[str, Any]:
    """``copy_thread``: every checkpoint, pending write and channel value of the source thread, written
    into the target (replacing rows of the same key there); needs ``read`` on the source and ``write``
    on the target, which it claims when unclaimed and something is copied."""
    source, target = args.source_thread_id, args.target_thread_id
    if source == target:
        raise KernelError(ErrorCode.INVALID_ARGS, "the source and the target are the same thread")
    access = _Access(ctx)
    access.require(Capability.READ, source)
    target_owner = access.require(Capability.WRITE, target)
    graph = ctx.tx.graph
    checkpoints = sorted(graph.checkpoints(source), key=_checkpoint_key)
    values = sorted(graph.channel_values(source), key=_value_key)
    writes = sorted(graph.writes(source), key=_write_key)
    if (checkpoints or values or writes) and target_owner is None:
        access.claim_unowned(target)
    for value in values:
        graph.put_channel_value(
            GraphChannelValue(target, *_value_key(value)[1:], value.value_type, value.value_hash, ctx.seq)
        )
    for row in checkpoints:
        graph.put_checkpoint(
            GraphCheckpoint(
                target,
                row.checkpoint_ns,
                row.checkpoint_id,
                row.parent_checkpoint_id,
                row.checkpoint_type,
                row.checkpoint_hash,
                row.metadata,
                row.channel_versions,
                ctx.seq,
            )
        )
    for write in writes:
        graph.put_write(
            GraphWrite(
                target,
                *_write_key(write)[1:],
                write.channel,
                write.task_path,
                write.value_type,
                write.value_hash,
                ctx.seq,
            )
        )
    copied = {"checkpoints": len(checkpoints), "writes": len(writes), "channel_values": len(values)}
    return {"source_thread_id": source, "target_thread_id": target, "copied": copied}


def _prune_keep_latest(graph: GraphRepository, deleted: _Deleted, thread_id: str) -> None:
    """Keep the latest checkpoint of each namespace, its pending writes and the channel values its
    versions name; delete the rest of the thread."""
    rows = graph.checkpoints(thread_id)
    latest: dict[str, GraphCheckpoint] = {}
    for row in rows:
        kept = latest.get(row.checkpoint_ns)
        if kept is None or row.checkpoint_id > kept.checkpoint_id:
            latest[row.checkpoint_ns] = row
    kept_ids = {(row.checkpoint_ns, row.checkpoint_id) for row in latest.values()}
    referenced = {
        (row.checkpoint_ns, channel, _version_key(version))
        for row in latest.values()
        for channel, version in decode(row.channel_versions.encode("utf-8")).items()
    }
    deleted.checkpoint_rows(row for row in rows if (row.checkpoint_ns, row.checkpoint_id) not in kept_ids)
    deleted.write_rows(
        write
        for write in graph.writes(thread_id)
        if (write.checkpoint_ns, write.checkpoint_id) not in kept_ids
    )
    deleted.value_rows(
        value
        for value in graph.channel_values(thread_id)
        if (value.checkpoint_ns, value.channel, value.version) not in referenced
    )


def graph_thread_prune(ctx: CallContext, args: PruneArgs) -> dict[str, Any]:
    """``prune``: ``keep_latest`` keeps each namespace's latest checkpoint (with its writes and the
    channel values it names); ``delete`` deletes the threads' checkpoints like ``graph.thread.delete``.
    Needs ``write`` on every thread named."""
    access = _Access(ctx)
    threads = sorted(set(args.thread_ids))
    for thread_id in threads:
        access.require(Capability.WRITE, thread_id)
    graph = ctx.tx.graph
    deleted = _Deleted(graph)
    for thread_id in threads:
        if args.strategy == "delete":
            deleted.thread(thread_id)
        else:
            _prune_keep_latest(graph, deleted, thread_id)
    return {"strategy": args.strategy, "deleted": deleted.wire()}

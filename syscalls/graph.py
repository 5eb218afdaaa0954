"""The graph family: LangGraph checkpoints as journaled syscalls (specs/langgraph.md).

Each call mirrors one method of LangGraph's ``BaseCheckpointSaver`` with the semantics of its in-memory
saver (``InMemorySaver``). Values are references, a type tag and the SHA-256 of the serialized bytes; a
call that stores one carries its bytes too (``syscalls.carried``: checked against the hash, returned with
its decision and stored with its entry). A call that changes state returns a ``Decision``. Effects and
results hold hashes only, and a handler decides from the graph state and its arguments alone, so a
replay reads no blob.

Access: a thread is owned by the principal whose write first stores into it, in that call (in formats 4
to 6, by the one that creates it, ``graph.thread.create``); anyone else needs ``read`` or ``write`` on the
thread's scope (``graph:<thread_id>``, or ``graph:#<SHA-256>`` for an id that does not fit one:
``syscalls.graph_args``) or on ``*``; built-in administrators may do anything. The arguments are
``syscalls.graph_args``'; the thread maintenance calls (delete, copy, prune) are ``syscalls.graph_threads``.
"""

from __future__ import annotations

import base64
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any

import msgspec

from arvis.access import AccessRules, Capability
from arvis.canonical import decode, sha256_hex
from arvis.changes import Change, Decision
from arvis.graph_checkpoints import (
    EMPTY_VALUE,
    OWNERS,
    GraphChannelValue,
    GraphCheckpoint,
    GraphRepository,
    GraphWrite,
    stored,
)
from journal.blob_store import BlobMissing, checked
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError
from kernel.formats import VALUES_ONCE
from kernel.protocols import StorageError
from syscalls import graph_args, graph_store
from syscalls.carried import Named, carried, values_answer
from syscalls.graph_args import (
    MAX_LIST,
    THREAD_SCOPE_PREFIX,
    GetArgs,
    ListArgs,
    Position,
    PutArgs,
    PutWritesArgs,
    ThreadArgs,
    thread_scope_name,
)
from syscalls.owned_names import OwnedNames

WRITES_IDX_MAP = {"__error__": -1, "__scheduled__": -2, "__interrupt__": -3, "__resume__": -4}
"""LangGraph's ``WRITES_IDX_MAP``: a write to one of these special channels is stored under this fixed
negative index and overwrites; any other write is stored under its position in the call and is kept when
one of that (task, index) exists already. (A test checks it equals ``langgraph.checkpoint.base``'s.)"""


# --- access -----------------------------------------------------------------------------------------


class ThreadAccess(OwnedNames):
    """Graph threads: owned names (``syscalls.owned_names``), also created by ``graph.thread.create``; a
    thread's scope names it by ``thread_scope_name`` from format 5 on (before, by its id, which was
    always short and plain there)."""

    def __init__(self, ctx: CallContext) -> None:
        graph = ctx.read.graph
        super().__init__(
            ctx,
            scope_prefix=THREAD_SCOPE_PREFIX,
            scope_name=thread_scope_name if ctx.access_rules >= AccessRules.THREAD_IDS else None,
            noun="graph thread",
            owner_of=graph.owner_of,
            owners=(OWNERS, "thread_id"),
            create="graph.thread.create",
        )


def graph_thread_create(ctx: CallContext, args: ThreadArgs) -> Decision:
    """The thread becomes the caller's (``OwnedNames.create``)."""
    return ThreadAccess(ctx).create(args.thread_id, "thread_id")


# --- wire forms -------------------------------------------------------------------------------------


def channel_keys(row: GraphCheckpoint) -> list[tuple[str, str]]:
    """The (channel, version as stored) of every channel the checkpoint's ``channel_versions`` name, in
    their order (canonical JSON: by channel)."""
    return [
        (channel, graph_store.json_text(version))
        for channel, version in decode(row.channel_versions.encode("utf-8")).items()
    ]


def _wire(
    row: GraphCheckpoint,
    keys: Iterable[tuple[str, str]],
    values: dict[tuple[str, str], GraphChannelValue],
    writes: Iterable[GraphWrite],
) -> dict[str, Any]:
    """A checkpoint as a result holds it: references, its metadata, and the values of its channels at
    their versions (``keys``, from ``channel_keys``; a channel whose value is ``empty`` or not stored is
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
        "pending_writes": [  # in the order of LangGraph's ``writes_sort_key``: (task_path, task_id, idx)
            {
                "task_id": write.task_id,
                "channel": write.channel,
                "type": write.value_type,
                "hash": write.value_hash,
            }
            for write in sorted(writes, key=lambda write: (write.task_path, write.task_id, write.idx))
        ],
    }


# --- the calls --------------------------------------------------------------------------------------


def named(value: graph_args.Value | graph_args.NewValue | graph_args.Write) -> str | None:
    """The hash naming a value a call carries: the one given beside its bytes before format 8, else theirs
    (None: no bytes, which ``carried`` refuses unless the value is ``empty``)."""
    if isinstance(value, graph_args.Ref | graph_args.HashedNewValue | graph_args.HashedWrite):
        return value.hash
    return None if value.data is None else sha256_hex(value.data)


def graph_put(ctx: CallContext, args: PutArgs) -> Decision:
    """``put``: the values of the channels given new versions, then the checkpoint (replacing one of the
    same id), its parent being the checkpoint the caller's config named."""
    checkpoint_hash = named(args.checkpoint)
    given: list[Named] = [("checkpoint", checkpoint_hash, args.checkpoint.data)]
    carries = "a hash is" if ctx.format_version < VALUES_ONCE else "bytes are"
    values: list[Change] = []
    for value in args.new_values:
        what, value_hash = f"new value of channel '{value.channel}'", named(value)
        version = (
            args.channel_versions.get(value.channel) if value.version is msgspec.UNSET else value.version
        )
        if (value.type == EMPTY_VALUE) != (value_hash is None):
            raise KernelError(
                ErrorCode.INVALID_ARGS,
                f"{what}: {carries} required unless the type is '{EMPTY_VALUE}', and forbidden then",
            )
        if version is None:  # left out (from format 8), and channel_versions has none
            raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: no version, given or in channel_versions")
        if value_hash is not None:
            given.append((what, value_hash, value.data))
        elif value.data is not None:
            raise KernelError(ErrorCode.INVALID_ARGS, f"{what}: a value of type '{EMPTY_VALUE}' has no bytes")
        place = (args.thread_id, args.checkpoint_ns, value.channel)
        values.append(
            stored(GraphChannelValue(*place, graph_store.json_text(version), value.type, value_hash, ctx.seq))
        )
    access = ThreadAccess(ctx)
    access.claim(args.thread_id)
    blobs = carried(ctx, given, derived=ctx.format_version >= VALUES_ONCE)
    assert checkpoint_hash is not None  # carried refuses a value named by neither hash nor bytes
    changes: list[Change] = [*access.changes, *values]
    checkpoint = GraphCheckpoint(
        args.thread_id,
        args.checkpoint_ns,
        args.checkpoint_id,
        args.parent_checkpoint_id,
        args.checkpoint.type,
        checkpoint_hash,
        graph_store.json_text(args.metadata),
        graph_store.json_text(args.channel_versions),
        ctx.seq,
    )
    changes.append(stored(checkpoint))
    put = {key: getattr(args, key) for key in ("thread_id", "checkpoint_ns", "checkpoint_id")}
    # from format 8 the result no longer repeats the arguments' position
    return Decision(put if ctx.format_version < VALUES_ONCE else {}, tuple(changes), tuple(blobs.items()))


def graph_put_writes(ctx: CallContext, args: PutWritesArgs) -> Decision:
    """``put_writes``: each write under (task, index), its index its position in the call or, for a
    special channel, its ``WRITES_IDX_MAP`` index; a regular write already stored is kept, a special one
    replaced."""
    access = ThreadAccess(ctx)
    access.claim(args.thread_id)
    graph = ctx.read.graph
    hashes = [named(write) for write in args.writes]
    writes = [(f"write {index}", hashes[index], write.data) for index, write in enumerate(args.writes)]
    blobs = carried(ctx, writes, derived=ctx.format_version >= VALUES_ONCE)
    changes: list[Change] = [*access.changes]
    for position, (write, write_hash) in enumerate(zip(args.writes, hashes, strict=True)):
        idx = WRITES_IDX_MAP.get(write.channel, position)
        if idx >= 0 and graph.write_exists(
            args.thread_id, args.checkpoint_ns, args.checkpoint_id, args.task_id, idx
        ):
            continue
        assert write_hash is not None  # carried refuses a value named by neither hash nor bytes
        row = GraphWrite(
            args.thread_id,
            args.checkpoint_ns,
            args.checkpoint_id,
            args.task_id,
            idx,
            write.channel,
            args.task_path,
            write.type,
            write_hash,
            ctx.seq,
        )
        changes.append(stored(row))
    return Decision({"stored": len(changes) - len(access.changes)}, tuple(changes), tuple(blobs.items()))


def graph_get(ctx: CallContext, args: GetArgs) -> Decision:
    """``get_tuple``: the checkpoint of that id, or the thread's latest in the namespace (the greatest
    id, by code point); null when there is none. Reads that checkpoint, the channel values it names and
    its writes, nothing else; the caller alone also gets its ``channel_versions`` and its values' bytes
    (``values_answer``)."""
    ThreadAccess(ctx).require(Capability.READ, args.thread_id)
    graph = ctx.read.graph
    if args.checkpoint_id is not None:
        row = graph.checkpoint(args.thread_id, args.checkpoint_ns, args.checkpoint_id)
    else:
        latest = graph.newest_checkpoints(args.thread_id, args.checkpoint_ns, limit=1)
        row = latest[0] if latest else None
    if row is None:
        return Decision({"checkpoint": None})
    found = _wired(graph, [row])[0]
    versions = decode(row.channel_versions.encode("utf-8"))  # unjournaled: its put's arguments hold them
    answer = {"channel_versions": versions, **(values_answer(ctx, value_hashes(found)) or {})}
    return Decision({"checkpoint": found}, unjournaled=answer)


def value_hashes(found: dict[str, Any]) -> list[str]:
    """The hashes of a wired checkpoint's values: itself, its channel values, its pending writes."""
    refs = (found["checkpoint"], *found["channel_values"].values(), *found["pending_writes"])
    return [ref["hash"] for ref in refs]


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


MAX_BLOBS = 500  # the most hashes, checkpoints or store items one graph.blobs.get names
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


def graph_list(ctx: CallContext, args: ListArgs) -> dict[str, Any] | Decision:
    """``list``: checkpoints of a thread (every thread the principal may read, when none is named), of a
    namespace or all, newest first within each (thread, namespace); at most ``limit``, after ``after``.
    Reads those checkpoints (and any a filter rejected on the way), the channel values they name and
    their writes, nothing else; the caller alone also gets their ``channel_versions``."""
    access = ThreadAccess(ctx)
    graph = ctx.read.graph
    if args.thread_id is not None:
        access.require(Capability.READ, args.thread_id)
    if args.limit == 0:
        return {"checkpoints": []}
    owners = None if args.thread_id is not None else graph.owners()  # the thread named: allowed above

    def readable(thread_id: str) -> bool:
        return owners is None or access.allows(Capability.READ, thread_id, owners.get(thread_id))

    chosen = _listed(graph, args, readable)
    versions = [decode(row.channel_versions.encode("utf-8")) for row in chosen]  # as ``graph_get``'s
    return Decision({"checkpoints": _wired(graph, chosen)}, unjournaled={"channel_versions": versions})


def _wired(graph: GraphRepository, chosen: list[GraphCheckpoint]) -> list[dict[str, Any]]:
    """The checkpoints as results hold them, their values and writes read a (thread, namespace) at a time."""
    listed: list[dict[str, Any]] = []
    for place, grouped in itertools.groupby(chosen, key=_place):  # a (thread, namespace)'s are consecutive
        rows = list(grouped)
        keys = [channel_keys(row) for row in rows]
        found = graph.channel_values_at(*place, {key for row in keys for key in row})
        values = {(value.channel, value.version): value for value in found}
        writes: dict[str, list[GraphWrite]] = {}
        for write in graph.writes_of(*place, [row.checkpoint_id for row in rows]):
            writes.setdefault(write.checkpoint_id, []).append(write)
        listed.extend(
            _wire(row, row_keys, values, writes.get(row.checkpoint_id, []))
            for row, row_keys in zip(rows, keys, strict=True)
        )
    return listed


class ItemPlace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    namespace: Annotated[list[graph_store.Label], msgspec.Meta(min_length=1)]
    key: graph_store.Key


class BlobsArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hashes: Annotated[list[graph_store.Hash], msgspec.Meta(min_length=1, max_length=MAX_BLOBS)]
    checkpoints: Annotated[list[Position], msgspec.Meta(max_length=MAX_BLOBS)] = []
    items: Annotated[list[ItemPlace], msgspec.Meta(max_length=MAX_BLOBS)] = []
    """The checkpoints and store items whose values the hashes are."""


def graph_blobs_get(ctx: CallContext, args: BlobsArgs) -> Decision:
    """The bytes of values, each of a checkpoint or store item named that the caller may read (their
    ``get``'s refusal, else ``memory_policy_denied`` whether or not the blob is stored: specs/langgraph.md
    §4.1). Journaled: the sorted hashes; the caller alone gets ``data`` (``Decision.unjournaled``)."""
    access, graph, values = ThreadAccess(ctx), ctx.read.graph, set[str]()
    for thread_id in dict.fromkeys(at.thread_id for at in args.checkpoints):
        access.require(Capability.READ, thread_id)
    places = dict.fromkeys((at.thread_id, at.checkpoint_ns, at.checkpoint_id) for at in args.checkpoints)
    for found in _wired(graph, sorted(filter(None, (graph.checkpoint(*at) for at in places)), key=_place)):
        values.update(value_hashes(found))
    for at in args.items:
        item = graph_store.store_get(ctx, graph_store.GetArgs(at.namespace, at.key, False)).value["item"]
        values.update([] if item is None else [item["value_hash"]])
    wanted = sorted(set(args.hashes))
    for key in (key for key in wanted if key not in values):
        detail = f"blob {key} is not a value of a checkpoint or store item named that the principal may read"
        raise KernelError(ErrorCode.MEMORY_POLICY_DENIED, detail)
    if ctx.recorded is not None:  # a replay: the journaled value names the bytes; none are read
        return Decision({"blobs": wanted})
    try:
        blobs = checked(wanted, ctx.read.graph_store.stored_values(wanted))
    except BlobMissing as exc:  # the database lost a blob it references: nothing is journaled
        raise StorageError(f"the blobs could not be read: {exc}") from exc
    data = {key: base64.b64encode(blobs[key]).decode("ascii") for key in wanted}
    return Decision({"blobs": wanted}, unjournaled={"data": data})

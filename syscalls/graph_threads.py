"""The graph family's thread maintenance: LangGraph's ``delete_thread``, ``delete_for_runs``,
``copy_thread`` and ``prune`` as journaled syscalls (specs/langgraph.md §3), on the rows ``syscalls.graph``
writes, under its access rules (``ThreadAccess``); each returns a ``Decision`` of the rows it deletes or
copies."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arvis.access import Capability
from arvis.canonical import decode
from arvis.changes import Change, Decision
from arvis.graph_checkpoints import (
    GraphChannelValue,
    GraphCheckpoint,
    GraphRepository,
    GraphRow,
    GraphWrite,
    deleted,
    stored,
)
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError
from syscalls.graph import ThreadAccess, channel_keys
from syscalls.graph_args import CopyArgs, PruneArgs, RunsArgs, ThreadArgs


class _Deleted:
    """What a call deletes (``changes``), row by row in key order (so the effects come in one order on
    every backend), and how many rows of each kind (``counts``). A row sorts by its key as it is: the key
    is its first fields (``arvis.graph_checkpoints``), unique in its table, so no later field is compared."""

    def __init__(self, graph: GraphRepository) -> None:
        self._graph = graph
        self.changes: list[Change] = []
        self.counts = {"checkpoints": 0, "writes": 0, "channel_values": 0}

    def rows(self, kind: str, rows: Iterable[GraphRow]) -> None:
        for row in sorted(rows):
            self.changes.append(deleted(row))
            self.counts[kind] += 1

    def thread(self, thread_id: str) -> None:
        self.rows("checkpoints", self._graph.checkpoints(thread_id))
        self.rows("writes", self._graph.writes(thread_id))
        self.rows("channel_values", self._graph.channel_values(thread_id))

    def decision(self, value: dict[str, Any]) -> Decision:
        """The call's ``value``, with what it deleted under ``deleted``, and the deletions."""
        return Decision({**value, "deleted": dict(self.counts)}, tuple(self.changes))


def graph_thread_delete(ctx: CallContext, args: ThreadArgs) -> Decision:
    """``delete_thread``: every checkpoint, pending write and channel value of the thread, in every
    namespace. The thread stays its owner's."""
    ThreadAccess(ctx).require(Capability.WRITE, args.thread_id)
    deleted = _Deleted(ctx.read.graph)
    deleted.thread(args.thread_id)
    return deleted.decision({"thread_id": args.thread_id})


def _run_id(row: GraphCheckpoint) -> Any:
    metadata = decode(row.metadata.encode("utf-8"))
    return metadata.get("run_id") if isinstance(metadata, dict) else None


def graph_runs_delete(ctx: CallContext, args: RunsArgs) -> Decision:
    """``delete_for_runs``: the checkpoints whose metadata ``run_id`` is one of ``run_ids``, with their
    pending writes, in every thread the principal may write (others are left alone)."""
    access = ThreadAccess(ctx)
    graph = ctx.read.graph
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
    for row in sorted(victims):
        deleted.rows("writes", graph.writes(row.thread_id, row.checkpoint_ns, row.checkpoint_id))
        deleted.rows("checkpoints", [row])
    return deleted.decision({})


def graph_thread_copy(ctx: CallContext, args: CopyArgs) -> Decision:
    """``copy_thread``: every checkpoint, pending write and channel value of the source thread, written
    into the target (replacing rows of the same key there); needs ``read`` on the source and ``write``
    on the target, which it claims when unclaimed and something is copied."""
    source, target = args.source_thread_id, args.target_thread_id
    if source == target:
        raise KernelError(ErrorCode.INVALID_ARGS, "the source and the target are the same thread")
    access = ThreadAccess(ctx)
    access.require(Capability.READ, source)
    target_owner = access.require(Capability.WRITE, target)
    graph = ctx.read.graph
    checkpoints = sorted(graph.checkpoints(source))  # in key order, as ``_Deleted``
    values = sorted(graph.channel_values(source))
    writes = sorted(graph.writes(source))
    if (checkpoints or values or writes) and target_owner is None:
        access.claim_unowned(target)
    copies: list[GraphChannelValue | GraphCheckpoint | GraphWrite] = [
        *(value._replace(thread_id=target, written_seq=ctx.seq) for value in values),
        *(row._replace(thread_id=target, written_seq=ctx.seq) for row in checkpoints),
        *(write._replace(thread_id=target, written_seq=ctx.seq) for write in writes),
    ]
    copied = {"checkpoints": len(checkpoints), "writes": len(writes), "channel_values": len(values)}
    value = {"source_thread_id": source, "target_thread_id": target, "copied": copied}
    return Decision(value, (*access.changes, *map(stored, copies)))


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
    referenced = {(row.checkpoint_ns, *key) for row in latest.values() for key in channel_keys(row)}
    deleted.rows(
        "checkpoints", [row for row in rows if (row.checkpoint_ns, row.checkpoint_id) not in kept_ids]
    )
    writes = graph.writes(thread_id)
    deleted.rows(
        "writes", [write for write in writes if (write.checkpoint_ns, write.checkpoint_id) not in kept_ids]
    )
    values = graph.channel_values(thread_id)
    deleted.rows(
        "channel_values",
        [value for value in values if (value.checkpoint_ns, value.channel, value.version) not in referenced],
    )


def graph_thread_prune(ctx: CallContext, args: PruneArgs) -> Decision:
    """``prune``: ``keep_latest`` keeps each namespace's latest checkpoint (with its writes and the
    channel values it names); ``delete`` deletes the threads' checkpoints like ``graph.thread.delete``.
    Needs ``write`` on every thread named."""
    access = ThreadAccess(ctx)
    threads = sorted(set(args.thread_ids))
    for thread_id in threads:
        access.require(Capability.WRITE, thread_id)
    graph = ctx.read.graph
    deleted = _Deleted(graph)
    for thread_id in threads:
        if args.strategy == "delete":
            deleted.thread(thread_id)
        else:
            _prune_keep_latest(graph, deleted, thread_id)
    return deleted.decision({"strategy": args.strategy})

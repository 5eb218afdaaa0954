"""A LangGraph checkpointer whose every operation is a journaled arvis syscall (specs/langgraph.md).

``ArvisCheckpointSaver`` implements LangGraph's ``BaseCheckpointSaver`` (sync and async, every base and
extended capability of the conformance suite) on a kernel: each value is serialized with the saver's
``serde``, and the call that stores it (``graph.checkpoint.put`` …) carries its bytes (before format 8
with their hash); the kernel stores them in the call's own transaction; ``graph.blobs.get`` reads them
back. Nothing bypasses ``Kernel.call``: the journal records, in order, who stored, read, listed and
deleted which checkpoint, verification replays it, and checks the blobs against their hashes.

    from integrations.langgraph import ArvisCheckpointSaver

    saver = ArvisCheckpointSaver("agent.db", principal="agent:planner", create=True)  # a new journal
    graph = builder.compile(checkpointer=saver)

A refused call raises ``ArvisCheckpointError`` (``CheckpointAccessDenied`` for ``memory_policy_denied``,
``CheckpointArgumentsInvalid`` for ``invalid_args``), carrying the kernel's code, detail and seq.

``ArvisStore`` (``integrations/langgraph_store.py``, re-exported here) implements LangGraph's long-term
store (``BaseStore``) the same way: each operation a ``graph.store.*`` syscall, with the semantics of
LangGraph's ``InMemoryStore`` (semantic search included), plus TTLs.
"""

from __future__ import annotations

import asyncio
import base64
import builtins
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    PendingWrite,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
)
from langgraph.checkpoint.serde.base import SerializerProtocol

from arvis.graph_checkpoints import EMPTY_VALUE
from integrations.kernel_client import (
    ArvisCheckpointError,
    CheckpointAccessDenied,
    CheckpointArgumentsInvalid,
    _KernelClient,
)
from journal import blob_store
from kernel.dispatcher import Kernel
from kernel.formats import VALUES_ONCE
from syscalls.graph import value_hashes
from syscalls.graph_args import MAX_LIST

if TYPE_CHECKING:
    from integrations.langgraph_store import ArvisStore

__all__ = [
    "ArvisCheckpointError",
    "ArvisCheckpointSaver",
    "ArvisStore",
    "CheckpointAccessDenied",
    "CheckpointArgumentsInvalid",
]

_List = builtins.list  # the saver's own ``list`` method shadows the builtin in its class body


def _configurable(config: RunnableConfig) -> dict[str, Any]:
    return config.get("configurable") or {}


_DEFAULTS = {"checkpoint_ns": "", "task_path": "", "parent_checkpoint_id": None}


def _given(args: dict[str, Any]) -> dict[str, Any]:
    """``args`` without those that are their defaults (``_DEFAULTS``): the journal holds them as given."""
    return {key: value for key, value in args.items() if key not in _DEFAULTS or value != _DEFAULTS[key]}


def _config(thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint_id,
        }
    }


class ArvisCheckpointSaver(_KernelClient, BaseCheckpointSaver[str]):
    """LangGraph's checkpointer on an arvis kernel, acting as ``principal`` (with ``credential`` when the
    kernel's identity policy asks for one). ``kernel``: a ``Kernel`` on a SQL journal store, or a database
    path or URL, opened here (``open_kernel``) and closed by ``close``; a SQLite file that does not exist
    is refused (``syscalls.boot.JournalNotFound``) unless ``create=True`` asks for a new journal there.

    The saver's operations take turns (one lock). Every value a call stores travels with it (its bytes),
    every value read comes by ``graph.blobs.get``: nothing bypasses ``Kernel.call``."""

    def __init__(
        self,
        kernel: Kernel | str,
        *,
        principal: str,
        credential: str | None = None,
        serde: SerializerProtocol | None = None,
        create: bool = False,
    ) -> None:
        super().__init__(serde=serde)
        self._attach(kernel, principal, credential, create=create)

    def _carried(self, value_type: str, data: bytes) -> dict[str, str]:
        """A value as a call carries it: its type and bytes (base64), and their hash before format 8."""
        value = {"type": value_type, "data": base64.b64encode(data).decode("ascii")}
        if self.kernel.format.version < VALUES_ONCE:
            value["hash"] = blob_store.hash_of(data)
        return value

    def _fetch(self, rows: Sequence[dict[str, Any]]) -> dict[str, bytes]:
        """The blobs every checkpoint of ``rows`` references (``_KernelClient._blobs``)."""
        return self._blobs(
            (
                "checkpoints",
                {key: row[key] for key in ("thread_id", "checkpoint_ns", "checkpoint_id")},
                value_hashes(row),
            )
            for row in rows
        )

    def _load(self, ref: dict[str, Any], blobs: dict[str, bytes]) -> Any:
        return self.serde.loads_typed((ref["type"], blobs[ref["hash"]]))

    def _tuple(
        self, row: dict[str, Any], blobs: dict[str, bytes], config: RunnableConfig | None = None
    ) -> CheckpointTuple:
        thread_id, checkpoint_ns = row["thread_id"], row["checkpoint_ns"]
        stored = self._load(row["checkpoint"], blobs)
        checkpoint = cast(
            Checkpoint,
            {
                "id": row["checkpoint_id"],  # from format 8 not in its bytes, nor its versions:
                "channel_versions": row["channel_versions"],  # the read gives them (unjournaled)
                **stored,
                "channel_values": {
                    channel: self._load(ref, blobs) for channel, ref in row["channel_values"].items()
                },
            },
        )
        writes: _List[PendingWrite] = [
            (write["task_id"], write["channel"], self._load(write, blobs)) for write in row["pending_writes"]
        ]
        parent = row["parent_checkpoint_id"]
        return CheckpointTuple(
            config=config or _config(thread_id, checkpoint_ns, row["checkpoint_id"]),
            checkpoint=checkpoint,
            metadata=cast(CheckpointMetadata, row["metadata"]),
            parent_config=_config(thread_id, checkpoint_ns, parent) if parent else None,
            pending_writes=writes,
        )

    # --- BaseCheckpointSaver ---------------------------------------------------------------------

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        configurable = _configurable(config)
        args: dict[str, Any] = {
            "thread_id": str(configurable["thread_id"]),
            "checkpoint_ns": configurable.get("checkpoint_ns") or "",
        }
        if checkpoint_id := get_checkpoint_id(config):
            args["checkpoint_id"] = checkpoint_id
        with self._lock:
            answer = self._call("graph.checkpoint.get", args)
            row = answer["checkpoint"]
            if row is None:
                return None
            blobs = {key: base64.b64decode(text) for key, text in answer.get("data", {}).items()}
            if not blobs.keys() >= set(value_hashes(row)):  # past what one answer carries
                blobs = self._fetch([row])
        row = {**row, "channel_versions": answer["channel_versions"]}
        # as LangGraph's own savers: the config asked by id is returned as given
        return self._tuple(row, blobs, config if checkpoint_id else None)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        args: dict[str, Any] = {}
        if config is not None:
            configurable = _configurable(config)
            args["thread_id"] = str(configurable["thread_id"])
            if configurable.get("checkpoint_ns") is not None:
                args["checkpoint_ns"] = configurable["checkpoint_ns"]
            if checkpoint_id := get_checkpoint_id(config):
                args["checkpoint_id"] = checkpoint_id
        if before is not None and (before_id := get_checkpoint_id(before)):
            args["before"] = before_id
        if filter:
            args["filter"] = filter
        remaining = limit
        while remaining is None or remaining > 0:
            page = MAX_LIST if remaining is None else min(remaining, MAX_LIST)
            with self._lock:
                answer = self._call("graph.checkpoint.list", {**args, "limit": page})
                rows, blobs = answer["checkpoints"], self._fetch(answer["checkpoints"])
            for row, versions in zip(rows, answer["channel_versions"], strict=True):
                yield self._tuple({**row, "channel_versions": versions}, blobs)
            if len(rows) < page:
                return
            if remaining is not None:
                remaining -= len(rows)
            last = rows[-1]
            args["after"] = {key: last[key] for key in ("thread_id", "checkpoint_ns", "checkpoint_id")}

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        configurable = _configurable(config)
        thread_id = str(configurable["thread_id"])
        checkpoint_ns = configurable.get("checkpoint_ns") or ""
        stored: dict[str, Any] = dict(checkpoint)
        values: dict[str, Any] = stored.pop("channel_values")
        once = self.kernel.format.version >= VALUES_ONCE
        if once:  # the call carries them, and reads return them
            del stored["id"], stored["channel_versions"]
        new_values: _List[dict[str, Any]] = []
        for channel, version in new_versions.items():
            value: dict[str, Any] = {"channel": channel, "version": version, "type": EMPTY_VALUE}
            current = checkpoint["channel_versions"].get(channel)
            if once and type(current) is type(version) and current == version:  # the kernel takes that one
                del value["version"]
            if channel in values:
                value.update(self._carried(*self.serde.dumps_typed(values[channel])))
            new_values.append(value)
        args = {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint["id"],
            "parent_checkpoint_id": configurable.get("checkpoint_id"),
            "checkpoint": self._carried(*self.serde.dumps_typed(stored)),
            "metadata": get_serializable_checkpoint_metadata(config, metadata),
            "channel_versions": checkpoint["channel_versions"],
            "new_values": new_values,
        }
        self._call("graph.checkpoint.put", _given(args))
        return _config(thread_id, checkpoint_ns, checkpoint["id"])

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        configurable = _configurable(config)
        args = {
            "thread_id": str(configurable["thread_id"]),
            "checkpoint_ns": configurable.get("checkpoint_ns") or "",
            "checkpoint_id": configurable["checkpoint_id"],
            "task_id": task_id,
            "task_path": task_path,
            "writes": [
                {"channel": channel, **self._carried(*self.serde.dumps_typed(value))}
                for channel, value in writes
            ],
        }
        self._call("graph.checkpoint.put_writes", _given(args))

    def delete_thread(self, thread_id: str) -> None:
        self._call("graph.thread.delete", {"thread_id": str(thread_id)})

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        self._call("graph.runs.delete", {"run_ids": [str(run_id) for run_id in run_ids]})

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        self._call(
            "graph.thread.copy",
            {"source_thread_id": str(source_thread_id), "target_thread_id": str(target_thread_id)},
        )

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        self._call(
            "graph.thread.prune",
            {"thread_ids": [str(thread_id) for thread_id in thread_ids], "strategy": strategy},
        )

    def get_next_version(self, current: str | None, channel: None) -> str:
        """As LangGraph's in-memory and SQL savers: a zero-padded counter and a random fraction, so two
        branches forked from one checkpoint never give one channel the same version."""
        number = 0 if current is None else current if isinstance(current, int) else int(current.split(".")[0])
        return f"{number + 1:032}.{random.random():016}"

    # --- async: the sync methods, in a worker thread ---------------------------------------------

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        found = await asyncio.to_thread(
            lambda: _List(self.list(config, filter=filter, before=before, limit=limit))
        )
        for item in found:
            yield item

    async def aput(self, *args: Any, **kwargs: Any) -> RunnableConfig:  # ``put``'s, forwarded whole
        return await asyncio.to_thread(self.put, *args, **kwargs)

    async def aput_writes(self, *args: Any, **kwargs: Any) -> None:  # ``put_writes``'s, forwarded whole
        await asyncio.to_thread(self.put_writes, *args, **kwargs)

    async def adelete_thread(self, thread_id: str) -> None:
        await asyncio.to_thread(self.delete_thread, thread_id)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await asyncio.to_thread(self.delete_for_runs, run_ids)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await asyncio.to_thread(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await asyncio.to_thread(self.prune, thread_ids, strategy=strategy)


def __getattr__(name: str) -> Any:
    """``ArvisStore``, imported on first use (``integrations.langgraph_store`` imports this module)."""
    if name == "ArvisStore":
        from integrations.langgraph_store import ArvisStore

        return ArvisStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""What the kernel needs to know about LangGraph checkpoints (the ``graph.*`` syscalls, specs/langgraph.md).

Values are never stored in these rows: a checkpoint, a channel value and a pending write are each a
*reference*, a type tag (the serializer's, e.g. ``msgpack``) and the lower-case hex SHA-256 of the
serialized bytes, which live in the content-addressed ``graph_blobs`` table outside the journal's state
(``journal.blob_store``). The call that stores a reference carries the bytes (its handler checks them
against the hash and returns them with its decision, stored with its entry); the handlers decide from
these rows and their arguments alone, so a replay reads no blob.

Metadata and channel versions are kept as canonical JSON text: the handler filters on the metadata, and
resolves a checkpoint's channel values through its channel versions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection
from typing import NamedTuple

from arvis.changes import Delete, Upsert

OWNERS = "graph_thread_owners"
"""The table of thread owners (``thread_id``, ``owner``, ``created_seq``)."""

EMPTY_VALUE = "empty"
"""The type of a channel value that was given a new version but holds nothing (LangGraph's ``("empty",
b"")``): it has no blob (its hash is None) and is left out when the checkpoint's values are resolved."""


class GraphCheckpoint(NamedTuple):
    """One row of ``graph_checkpoints``."""

    thread_id: str
    checkpoint_ns: str
    checkpoint_id: str
    parent_checkpoint_id: str | None
    checkpoint_type: str
    checkpoint_hash: str
    metadata: str
    """Canonical JSON text of the checkpoint's metadata (an object)."""
    channel_versions: str
    """Canonical JSON text of the checkpoint's ``channel_versions`` (channel -> version)."""
    written_seq: int


class GraphChannelValue(NamedTuple):
    """One row of ``graph_channel_values``: a channel's value at one version, in one thread and namespace."""

    thread_id: str
    checkpoint_ns: str
    channel: str
    version: str
    """Canonical JSON text of the version (a string, an integer or a number)."""
    value_type: str
    value_hash: str | None
    written_seq: int


class GraphWrite(NamedTuple):
    """One row of ``graph_writes``: a pending write of a task against a checkpoint."""

    thread_id: str
    checkpoint_ns: str
    checkpoint_id: str
    task_id: str
    idx: int
    channel: str
    task_path: str
    value_type: str
    value_hash: str
    written_seq: int


GraphRow = GraphCheckpoint | GraphChannelValue | GraphWrite
_TABLES: dict[type, tuple[str, int]] = {
    GraphCheckpoint: ("graph_checkpoints", 3),
    GraphChannelValue: ("graph_channel_values", 4),
    GraphWrite: ("graph_writes", 5),
}
"""Each row type's table, and how many of its first fields are its primary key."""


def stored(row: GraphRow) -> Upsert:
    """The change storing a row (replacing the one of its key)."""
    return Upsert(_TABLES[type(row)][0], row._asdict())


def deleted(row: GraphRow) -> Delete:
    """The change deleting a row, by its key."""
    table, size = _TABLES[type(row)]
    return Delete(table, dict(zip(row._fields[:size], row[:size], strict=True)))


class GraphRepository(ABC):
    """The graph state of one transaction. Reads return rows in no particular order (handlers sort them
    by code point, the same on every backend), except ``newest_checkpoints`` and ``next_namespace``, which
    order by code point themselves. It only reads: a handler returns what it changes (``stored``,
    ``deleted``)."""

    @abstractmethod
    def owner_of(self, thread_id: str) -> str | None:
        """The principal that owns the thread (the first to write into it); None for an unclaimed thread."""

    @abstractmethod
    def owners(self) -> dict[str, str]:
        """Every claimed thread and its owner."""

    @abstractmethod
    def checkpoint(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> GraphCheckpoint | None:
        """One checkpoint, or None."""

    @abstractmethod
    def checkpoints(self, thread_id: str | None, checkpoint_ns: str | None = None) -> list[GraphCheckpoint]:
        """The checkpoints of a thread (every thread for None), of one namespace or all (None)."""

    @abstractmethod
    def newest_checkpoints(
        self,
        thread_id: str,
        checkpoint_ns: str,
        *,
        limit: int,
        below: str | None = None,
        checkpoint_id: str | None = None,
    ) -> list[GraphCheckpoint]:
        """At most ``limit`` checkpoints of the thread's namespace, greatest id first (by code point), of
        id less than ``below`` (by code point) and equal to ``checkpoint_id``, each when given."""

    @abstractmethod
    def next_namespace(self, thread_id: str, after: str | None) -> str | None:
        """The least namespace (by code point) of the thread holding a checkpoint, greater than ``after``
        when given; None when there is none."""

    @abstractmethod
    def namespaces(self, checkpoint_ns: str | None) -> list[tuple[str, str]]:
        """Every (thread, namespace) holding a checkpoint, of that namespace when given (None: all)."""

    @abstractmethod
    def channel_values(self, thread_id: str, checkpoint_ns: str | None = None) -> list[GraphChannelValue]:
        """The channel values of a thread, of one namespace or all (None)."""

    @abstractmethod
    def channel_values_at(
        self, thread_id: str, checkpoint_ns: str, keys: Collection[tuple[str, str]]
    ) -> list[GraphChannelValue]:
        """The stored channel values of the thread's namespace whose (channel, version) is one of
        ``keys`` (``version`` as stored: canonical JSON text)."""

    @abstractmethod
    def writes(
        self, thread_id: str, checkpoint_ns: str | None = None, checkpoint_id: str | None = None
    ) -> list[GraphWrite]:
        """The pending writes of a thread, of one namespace or all, of one checkpoint or all."""

    @abstractmethod
    def writes_of(
        self, thread_id: str, checkpoint_ns: str, checkpoint_ids: Collection[str]
    ) -> list[GraphWrite]:
        """The pending writes against the checkpoints of those ids in the thread's namespace."""

    @abstractmethod
    def write_exists(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str, task_id: str, idx: int
    ) -> bool:
        """Whether a pending write of this key is stored."""

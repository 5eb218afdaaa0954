"""What the kernel needs from storage: a transaction that offers what a handler reads and appends the
journal entry that commits with them."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from arvis.awmu.repository import AwmuReader
from arvis.changes import Change
from arvis.graph_checkpoints import GraphRepository
from arvis.graph_store import GraphStoreRepository
from arvis.memory.memory_service import MemoryReader
from journal.context_owner_repository import SqlContextOwnerRepository
from journal.entry import EntryContent as EntryContent
from journal.entry import JournalEntry
from journal.errors import CommitOutcomeUnknown as CommitOutcomeUnknown
from journal.errors import StorageBusy as StorageBusy
from journal.errors import StorageError as StorageError
from journal.grant_repository import SqlGrantRepository
from journal.transaction import SqlPipelineRunRepository

"""The storage errors (``journal.errors``) and ``EntryContent`` (``journal.entry``) are named here too: they
are part of what the kernel needs from storage."""


class Reader(Protocol):
    """All a handler sees of storage: one read-only view per family, in the call's transaction. It
    never writes: the handler returns its changes (``arvis.changes.Decision``)."""

    memory: MemoryReader
    awmu: AwmuReader
    pipeline_runs: SqlPipelineRunRepository
    grants: SqlGrantRepository
    context_owners: SqlContextOwnerRepository
    graph: GraphRepository
    graph_store: GraphStoreRepository


class Transaction(Protocol):
    @property
    def read(self) -> Reader:
        """What the call's handler reads through, in this transaction."""
        ...

    @property
    def next_seq(self) -> int:
        """The seq the entry appended in this transaction will get."""
        ...

    def handler_scope(self) -> AbstractContextManager[None]:
        """Where the handler runs: it only reads; a driver error becomes a ``StorageError``."""
        ...

    def append(
        self,
        content: EntryContent,
        *,
        changes: Sequence[Change] = (),
        pieces: Sequence[tuple[str, bytes]] = (),
    ) -> JournalEntry:
        """Apply the call's decided ``changes`` (an accepted call's only: ``status`` ``ok``) and append
        its entry, chaining it and hashing exactly those changes as its effects; ``pieces``: the (key,
        bytes) the journaled ``result`` references (``kernel.result_pieces``) and the values the call
        carries (``Decision.blobs``), stored content-addressed in the same transaction."""
        ...


class Batch(Protocol):
    def transaction(self) -> AbstractContextManager[Transaction]:
        """One call inside the batch's database transaction."""
        ...


class JournalStore(Protocol):
    @property
    def format_version(self) -> int:
        """The journal's format version, which selects its access rules."""
        ...

    def transaction(self, *, durable: bool = True) -> AbstractContextManager[Transaction]:
        """One write transaction: everything in it commits together or not at all. ``durable=False``:
        a read's, whose commit may wait for the next durable one to reach the disk."""
        ...

    def batch(self, *, durable: bool = True) -> AbstractContextManager[Batch]:
        """One database transaction for many calls, each journaled on its own (``durable``: as above)."""
        ...

    def close(self) -> None:
        """Release the database connection."""
        ...

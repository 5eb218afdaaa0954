"""What the kernel needs from storage: a transaction that offers the repositories and appends the
journal entry that commits with them."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from arvis.awmu.repository import AwmuRepository
from arvis.memory.memory_long_repository import MemoryLongRepository
from kernel.abi import JournalEntry
from kernel.access import GrantRepository
from kernel.context_owners import ContextOwnerRepository
from kernel.graph_checkpoints import GraphRepository
from kernel.graph_store import GraphStoreRepository
from kernel.pipeline_runs import PipelineRunRepository

__all__ = ["Batch", "JournalStore", "StorageBusy", "StorageError", "StorageStale", "Transaction"]


class StorageError(Exception):
    """The database failed (locked past the timeout, disk full, I/O error, connection lost).

    Raised by storage, translated once at its edge; the dispatcher reports it as
    ``storage_unavailable`` without journaling, because nothing was acknowledged.
    """


class StorageBusy(StorageError):
    """Another writer held the database's write lock past the wait allowed: nothing was written,
    and the call may simply be tried again."""


class StorageStale(StorageBusy):
    """What a store assumed of the database since its own last commit (the head of the journal) no
    longer held: another writer appended. Nothing was written; ``Kernel.call`` runs the call again at
    once, and that run reads the database."""


class Transaction(Protocol):
    @property
    def next_seq(self) -> int:
        """The seq the entry appended in this transaction will get."""
        ...

    @property
    def memory_repository(self) -> MemoryLongRepository: ...

    @property
    def awmu_repository(self) -> AwmuRepository: ...

    @property
    def pipeline_runs(self) -> PipelineRunRepository: ...

    @property
    def grants(self) -> GrantRepository: ...

    @property
    def context_owners(self) -> ContextOwnerRepository: ...

    @property
    def graph(self) -> GraphRepository: ...

    @property
    def graph_store(self) -> GraphStoreRepository: ...

    def handler_scope(self, *, mutating: bool) -> AbstractContextManager[None]:
        """Where the handler runs; a refusal raised in it leaves nothing the handler wrote."""
        ...

    def append(
        self,
        *,
        recorded_at: str,
        syscall: str,
        principal: str,
        args: bytes,
        status: str,
        result: bytes,
        pieces: Sequence[tuple[str, bytes]] = (),
    ) -> JournalEntry:
        """Append the call's entry, chaining it and hashing the effects written in this transaction;
        ``pieces``: the (key, bytes) the journaled ``result`` references (``kernel.result_pieces``),
        stored content-addressed in the same transaction."""
        ...


class Batch(Protocol):
    def transaction(self) -> AbstractContextManager[Transaction]:
        """One call inside the batch's database transaction (a savepoint)."""
        ...


class JournalStore(Protocol):
    @property
    def format_version(self) -> int:
        """The journal's format version, which selects its access rules."""
        ...

    def transaction(self) -> AbstractContextManager[Transaction]:
        """One write transaction: everything in it commits together or not at all."""
        ...

    def batch(self) -> AbstractContextManager[Batch]:
        """One database transaction for many calls, each journaled on its own."""
        ...

    def close(self) -> None:
        """Release the database connection."""
        ...

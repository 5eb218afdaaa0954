"""A call's open transaction on the journal store (``SqlTransaction``), and a batch's (``SqlBatch``), whose
calls each get a scope of their own: the repositories a handler reads through, the changes it decided, and
the append of its journal entry, which writes them (``journal.apply``) in the same database transaction.
``journal.store`` begins and commits them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

import msgspec

from arvis.awmu.repository import AwmuReader
from arvis.canonical import canonical_bytes_of_own, sha256_hex
from arvis.changes import Change
from arvis.graph_checkpoints import GraphRepository
from arvis.graph_store import GraphStoreRepository
from arvis.memory.memory_service import MemoryReader
from journal import blob_store
from journal.apply import ChangeWriter, Planned, plan
from journal.awmu_repository import SqlAwmuReader
from journal.chain import EMPTY_EFFECTS_HASH, compute_entry_hash
from journal.context_owner_repository import SqlContextOwnerRepository
from journal.entry import JournalEntry, Pos
from journal.errors import StorageError
from journal.grant_repository import SqlGrantRepository
from journal.graph_repository import SqlGraphRepository
from journal.graph_store_repository import SqlGraphStoreRepository
from journal.memory_repository import SqlMemoryReader
from journal.pipeline_repository import ActiveRuns, SqlPipelineRunRepository
from journal.sql import SqlRunner
from journal.statements import APPEND, EFFECTS_INSERT

__all__ = ["SqlBatch", "SqlReader", "SqlTransaction", "Translate"]

Translate = Callable[[BaseException], BaseException]
"""Maps an exception to the one to raise: a driver error to its StorageError, anything else to itself."""


class _HandlerScope:
    """Where a handler runs (see ``SqlTransaction.handler_scope``)."""

    __slots__ = ("_translate",)

    def __init__(self, translate: Translate) -> None:
        self._translate = translate

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is None:
            return
        translated = self._translate(error)
        if translated is not error:
            raise translated from error


class SqlReader:
    """What a handler reads through (``kernel.protocols.Reader``): a read-only view per family over the
    store's one runner, each reading in the transaction open on it: one serves all the store's calls."""

    __slots__ = ("awmu", "context_owners", "grants", "graph", "graph_store", "memory", "pipeline_runs")

    def __init__(self, sql: SqlRunner, active_runs: ActiveRuns | None = None) -> None:
        self.memory: MemoryReader = SqlMemoryReader(sql)
        self.awmu: AwmuReader = SqlAwmuReader(sql)
        self.pipeline_runs = SqlPipelineRunRepository(sql, active=active_runs)
        self.grants = SqlGrantRepository(sql)
        self.context_owners = SqlContextOwnerRepository(sql)
        self.graph: GraphRepository = SqlGraphRepository(sql)
        self.graph_store: GraphStoreRepository = SqlGraphStoreRepository(sql)


class SqlTransaction:
    """One open write transaction: what its handler reads through, and the append of its journal entry."""

    def __init__(
        self,
        sql: SqlRunner,
        *,
        at: Pos,
        translate: Translate,
        deferred: bool = False,
        read: SqlReader,
        active_runs: ActiveRuns | None = None,
        stores_pieces: bool = True,
    ) -> None:
        """``at``: the journal's position, where the entry is appended. ``read``: what the handler reads
        through. ``stores_pieces``: whether the
        pieces of a result journaled by reference, the blobs a call carries (``Decision.blobs``) and its
        effects (the log of ``journal.effects``) are stored (False in a private scratch store, whose replay
        compares the references and the effects hash alone)."""
        self._translate = translate
        self._deferred = deferred
        self._stores_pieces = stores_pieces
        self._active_runs = active_runs
        self._sql = sql
        self._at = at
        self.read = read
        self.next_seq = at.next_seq
        """The seq the entry appended in this transaction will get."""
        self._writer = ChangeWriter(sql)
        self.appended: JournalEntry | None = None
        self.failed = False
        """Set when writing the call's changes or entry failed part way: its transaction holds some of
        them, so it must not commit (a batch it belongs to is rolled back whole)."""

    def handler_scope(self) -> _HandlerScope:
        """Where the handler runs: it only reads (what it decides is handed to ``append``), so nothing
        has to be undone when it fails; driver errors become StorageError."""
        return _HandlerScope(self._translate)

    def append(
        self,
        *,
        recorded_at: str,
        syscall: str,
        principal: str,
        args: bytes,
        status: str,
        result: bytes,
        changes: Sequence[Change] = (),
        pieces: Sequence[tuple[str, bytes]] = (),
    ) -> JournalEntry:
        if self.appended is not None:
            raise StorageError("a transaction appends exactly one journal entry")
        effects = list(changes) if status == "ok" else []
        if self._active_runs is not None and any(change.table == "pipeline_runs" for change in effects):
            self._active_runs.changed()  # a run began or ended: what was kept of active runs is stale
        planned = plan(effects)  # a change set the writer refuses writes nothing: the batch may go on
        try:  # from the first write on, a failure leaves part of the call written: never commit it
            return self._write(
                planned, effects, pieces, recorded_at, syscall, principal, args, status, result
            )
        except BaseException:
            self.failed = True
            raise

    def _write(
        self,
        planned: Planned,
        effects: list[Change],
        pieces: Sequence[tuple[str, bytes]],
        recorded_at: str,
        syscall: str,
        principal: str,
        args: bytes,
        status: str,
        result: bytes,
    ) -> JournalEntry:
        self._writer.write(planned)  # the one place state is written
        if pieces and self._stores_pieces:  # a scratch replay store compares the references alone
            blob_store.store_in(self._sql, dict(pieces))
        seq, prev_hash = self.next_seq, self._at.entry_hash
        logged = canonical_bytes_of_own(effects) if effects else None
        effects_hash = EMPTY_EFFECTS_HASH if logged is None else sha256_hex(logged)
        entry_hash = compute_entry_hash(
            prev_hash=prev_hash,
            seq=seq,
            recorded_at=recorded_at,
            syscall=syscall,
            principal=principal,
            args=args,
            status=status,
            result=result,
            effects_hash=effects_hash,
        )
        entry = JournalEntry(
            seq=seq,
            recorded_at=recorded_at,
            syscall=syscall,
            principal=principal,
            args=args,
            status=status,
            result=result,
            effects_hash=effects_hash,
            prev_hash=prev_hash,
            entry_hash=entry_hash,
        )
        # the effects log (journal.effects), once the entry is whole; a scratch replay store keeps none
        if logged is not None and self._stores_pieces:
            self._sql.write(EFFECTS_INSERT, {"seq": seq, "effects": logged})
        if not self._deferred:  # a batch inserts its entries together, before it commits
            self._sql.write(APPEND, msgspec.structs.asdict(entry))
        self.appended = entry
        return entry


class _BatchCall:
    """One call of a batch (see ``SqlBatch.transaction``)."""

    __slots__ = ("_batch", "_tx")

    def __init__(self, batch: SqlBatch) -> None:
        self._batch = batch
        self._tx: SqlTransaction | None = None

    def __enter__(self) -> SqlTransaction:
        batch = self._batch
        self._tx = SqlTransaction(
            batch.sql,
            at=batch.at,
            translate=batch.translate,
            deferred=True,
            read=batch.read,
            active_runs=batch.active_runs,
            stores_pieces=batch.keep_entries,
        )
        return self._tx

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        batch, tx = self._batch, self._tx
        assert tx is not None
        if tx.failed:  # part of its writes are in the batch's transaction, whoever catches the error
            batch.failed = True
        if error is None and tx.appended is None:
            error = StorageError("a transaction must append its journal entry before commit")
        if error is None:
            assert tx.appended is not None
            if batch.keep_entries:
                batch.journal_rows.append(msgspec.structs.asdict(tx.appended))
            batch.last_entry = tx.appended
            batch.at = tx.appended.pos
            return
        # nothing was written before the call appended (it only decided); a failure while it wrote
        # marked the batch failed above, so the batch cannot commit and nothing needs undoing here
        translated = batch.translate(error)
        if translated is not error or kind is None:  # a new error, or one raised here: raise it
            raise translated from error if translated is not error else None


class SqlBatch:
    """The open transaction of a batch; ``transaction()`` gives each call its own scope, whose changes
    are applied when its entry is appended."""

    def __init__(
        self,
        sql: SqlRunner,
        *,
        at: Pos,
        translate: Translate,
        read: SqlReader,
        active_runs: ActiveRuns | None = None,
        keep_entries: bool = True,
    ) -> None:
        self.keep_entries = keep_entries
        self.read = read
        self.sql = sql
        self.at = at
        """The journal's position after the batch's calls so far: where its next call appends."""
        self.translate = translate
        self.active_runs = active_runs
        self.last_entry: JournalEntry | None = None
        self.journal_rows: list[dict[str, Any]] = []
        self.failed = False
        """A call of the batch failed while writing its changes (``SqlTransaction.failed``): the batch
        is rolled back whole at its end, even if that call's error was caught and answered."""

    def transaction(self) -> _BatchCall:
        return _BatchCall(self)

    def insert_entries(self) -> None:
        """Insert the entries of the calls so far, in one statement (no call reads the journal)."""
        if self.journal_rows:
            self.sql.write_many(APPEND, self.journal_rows)
            self.journal_rows = []

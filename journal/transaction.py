"""A call's open transaction on the journal store (``SqlTransaction``), and a batch's (``SqlBatch``), whose
calls each get a scope of their own: the repositories a handler reads through, the changes it decided, and
the append of its journal entry, which writes them (``journal.apply``) in the same database transaction.
``journal.store`` begins and commits them, and keeps what they learn of active pipeline runs
(``ActiveRuns``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import msgspec

from arvis.awmu.repository import AwmuReader
from arvis.canonical import canonical_bytes_of_own, sha256_hex
from arvis.changes import Change
from arvis.graph_checkpoints import GraphRepository
from arvis.graph_store import GraphStoreRepository
from arvis.memory.memory_rows import COLUMNS
from arvis.memory.memory_service import MemoryReader, StoredEntry, entry_from_row
from arvis.pipeline_runs import PipelineRun
from journal import blob_store, statements
from journal.apply import ChangeWriter, plan
from journal.awmu_repository import SqlAwmuReader
from journal.context_owner_repository import SqlContextOwnerRepository
from journal.entry import EMPTY_EFFECTS_HASH, EntryContent, JournalEntry, Pos, compute_entry_hash
from journal.errors import StorageError
from journal.grant_repository import SqlGrantRepository
from journal.graph_repository import SqlGraphRepository
from journal.graph_store_repository import SqlGraphStoreRepository
from journal.memory_repository import wire_of
from journal.sql import SqlRunner

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


def _run(row: tuple[Any, ...] | None) -> PipelineRun | None:
    if row is None:
        return None
    return PipelineRun(
        str(row[0]), str(row[1]), str(row[2]), int(row[3]), None if row[4] is None else int(row[4])
    )


class ActiveRuns:
    """The active run of each user looked up so far, kept by a store across its transactions; the one
    place its rule lives: a value is used only under the journal head it was read under.

    Every change of ``pipeline_runs`` is a call's, journaled in the transaction that makes it, so while
    the journal's head is the one a value was read under, no run has begun or ended since (another
    writer's append moves the head). The store reports each database transaction: ``start`` with the
    head it read under the write lock (whatever was kept under another head is dropped), ``committed``
    with the head its commit left. A transaction that rolls back reports nothing: what it kept was
    read under the head it started from, before it changed any run. A call that begins or ends a run
    (``changed``) drops everything and keeps nothing until the next ``start``: what is read after that
    may be uncommitted (a later call of the same batch reads it), and the transaction may roll back.
    (``specs/journal-format.md`` §7.)"""

    __slots__ = ("_head", "_known", "_usable")

    def __init__(self) -> None:
        self._known: dict[str, PipelineRun | None] = {}
        self._head: Pos | None = None
        self._usable = False

    def start(self, head: Pos) -> None:
        """A database transaction starts from ``head``, read under the write lock."""
        if head != self._head:
            self._known.clear()
            self._head = head
        self._usable = True

    def committed(self, head: Pos) -> None:
        """The transaction committed, leaving ``head``: what it kept is still true there (it changed
        no run, or ``changed`` dropped everything, and no other writer could append meanwhile)."""
        self._head = head

    def changed(self) -> None:
        """The transaction begins or ends a run."""
        self._known.clear()
        self._usable = False

    def active_for(self, user_id: str, read: Callable[[str], PipelineRun | None]) -> PipelineRun | None:
        """The user's active run: the one kept, else ``read`` (kept while the transaction may keep)."""
        if not self._usable:
            return read(user_id)
        if user_id not in self._known:
            self._known[user_id] = read(user_id)
        return self._known[user_id]


class SqlPipelineRunRepository:
    """Pipeline runs, read in the transaction: a run's beginning and end are changes its calls decide
    (``syscalls.pipeline``), which ``journal.apply`` writes."""

    def __init__(self, sql: SqlRunner, active: ActiveRuns) -> None:
        self._sql = sql
        self._active = active

    def get(self, run_id: str) -> PipelineRun | None:
        return _run(self._sql.first(statements.PIPELINE_RUN, {"run_id": run_id}))

    def active_for(self, user_id: str) -> PipelineRun | None:
        """The run holding this user's memory still, if any (the oldest when several)."""
        return self._active.active_for(user_id, self._read_active)

    def _read_active(self, user_id: str) -> PipelineRun | None:
        return _run(self._sql.first(statements.ACTIVE_RUN, {"user_id": user_id}))


class SqlMemoryReader:
    """Reads ``memory_entries`` in the transaction (``arvis.memory.memory_service.MemoryReader``); it
    never writes: what a call changes goes to ``journal.apply``. Ordering is done in Python on fixed-form
    text, never by SQL collation."""

    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        """Straight from the rows: times are stored in their fixed form and governance as canonical JSON
        text, embedded as it is (``msgspec.Raw``)."""
        return [wire_of(row) for row in self._sql.rows(statements.MEMORY_WIRES, {"user_id": user_id})]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        """The current entry straight from its row, as ``list_entry_wires`` gives it."""
        row = self._sql.first(statements.MEMORY_CURRENT_WIRE, {"user_id": user_id, "key": key})
        return None if row is None else wire_of(row)

    def current(self, *, user_id: str, key: str) -> StoredEntry | None:
        """The key's current row (the newest version, revoked or not) with its version."""
        row = self._sql.first(statements.MEMORY_CURRENT, {"user_id": user_id, "key": key})
        return None if row is None else _stored(dict(zip(COLUMNS, row, strict=True)))

    def current_and_count(self, *, user_id: str, key: str) -> tuple[StoredEntry | None, int]:
        """``current`` and the user's count, in one read."""
        row = self._sql.first(statements.MEMORY_CURRENT_AND_COUNT, {"user_id": user_id, "key": key})
        assert row is not None  # the anchor row is always there
        count = 0 if row[0] is None else int(row[0])
        found = None if row[1] is None else _stored(dict(zip(COLUMNS, row[1:], strict=True)))
        return found, count


def _stored(row: dict[str, Any]) -> StoredEntry:
    return StoredEntry(entry_from_row(row), int(row["version"]))


class SqlReader:
    """What a handler reads through (``kernel.protocols.Reader``): a read-only view per family over the
    store's one runner, each reading in the transaction open on it: one serves all the store's calls."""

    __slots__ = ("awmu", "context_owners", "grants", "graph", "graph_store", "memory", "pipeline_runs")

    def __init__(self, sql: SqlRunner, active_runs: ActiveRuns) -> None:
        self.memory: MemoryReader = SqlMemoryReader(sql)
        self.awmu: AwmuReader = SqlAwmuReader(sql)
        self.pipeline_runs = SqlPipelineRunRepository(sql, active_runs)
        self.grants = SqlGrantRepository(sql)
        self.context_owners = SqlContextOwnerRepository(sql)
        self.graph: GraphRepository = SqlGraphRepository(sql)
        self.graph_store: GraphStoreRepository = SqlGraphStoreRepository(sql)


@dataclass(slots=True)
class Shared:
    """What every transaction of one store shares (``journal.store``): its runner, how it translates
    driver errors, what it learned of active pipeline runs (valid under one head), the reader handlers read
    through, and whether it keeps entries (False: a private scratch store, storing neither entries nor the
    pieces a result journals by reference, blobs: its replay compares references and hashes)."""

    sql: SqlRunner
    translate: Translate
    active_runs: ActiveRuns
    keep_entries: bool
    read: SqlReader = field(init=False)

    def __post_init__(self) -> None:
        self.read = SqlReader(self.sql, self.active_runs)


class SqlTransaction:
    """One open write transaction: what its handler reads through, and the append of its journal entry."""

    def __init__(self, shared: Shared, at: Pos, *, batched: bool = False) -> None:
        """``at``: the journal's position, where the entry is appended; ``batched``: a batch's call,
        whose entry the batch inserts with the others before it commits."""
        self._shared = shared
        self._inserts = shared.keep_entries and not batched
        self._at = at
        self.read = shared.read
        self.next_seq = at.next_seq
        """The seq the entry appended in this transaction will get."""
        self._writer = ChangeWriter(shared.sql)
        self.appended: JournalEntry | None = None
        self.failed = False
        """Set when writing the call's changes or entry failed part way: its transaction holds some of
        them, so it must not commit (a batch it belongs to is rolled back whole)."""

    def handler_scope(self) -> _HandlerScope:
        """Where the handler runs: it only reads (what it decides is handed to ``append``), so nothing
        has to be undone when it fails; driver errors become StorageError."""
        return _HandlerScope(self._shared.translate)

    def append(
        self,
        content: EntryContent,
        *,
        changes: Sequence[Change] = (),
        pieces: Sequence[tuple[str, bytes]] = (),
    ) -> JournalEntry:
        if self.appended is not None:
            raise StorageError("a transaction appends exactly one journal entry")
        effects = list(changes) if content.status == "ok" else []
        if any(change.table == "pipeline_runs" for change in effects):
            self._shared.active_runs.changed()  # a run began or ended: what was kept of active runs is stale
        planned = plan(effects)  # a change set the writer refuses writes nothing: the batch may go on
        seq, shared = self.next_seq, self._shared
        try:  # from the first write on, a failure leaves part of the call written: never commit it
            self._writer.write(planned, seq)  # the one place state is written
            if pieces and shared.keep_entries:  # a scratch replay store compares the references alone
                blob_store.store_in(shared.sql, dict(pieces))
            hashed = canonical_bytes_of_own(effects) if effects else None
            effects_hash = EMPTY_EFFECTS_HASH if hashed is None else sha256_hex(hashed)
            fields = msgspec.structs.asdict(content)  # the call and its answer; then what the chain adds
            chained: dict[str, Any] = {
                "seq": seq,
                "effects_hash": effects_hash,
                "prev_hash": self._at.entry_hash,
            }
            row = {**fields, **chained, "entry_hash": compute_entry_hash(**fields, **chained)}
            entry = JournalEntry(**row)
            if self._inserts:  # a batch inserts its entries together, before it commits
                shared.sql.write(statements.APPEND, row)
        except BaseException:
            self.failed = True
            raise
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
        self._tx = SqlTransaction(batch.shared, batch.at, batched=True)
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
            if batch.shared.keep_entries:
                batch.journal_rows.append(msgspec.structs.asdict(tx.appended))
            batch.last_entry = tx.appended
            batch.at = tx.appended.pos
            return
        # nothing was written before the call appended (it only decided); a failure while it wrote
        # marked the batch failed above, so the batch cannot commit and nothing needs undoing here
        translated = batch.shared.translate(error)
        if translated is not error or kind is None:  # a new error, or one raised here: raise it
            raise translated from error if translated is not error else None


class SqlBatch:
    """The open transaction of a batch; ``transaction()`` gives each call its own scope, whose changes
    are applied when its entry is appended."""

    def __init__(self, shared: Shared, at: Pos) -> None:
        self.shared = shared
        self.at = at
        """The journal's position after the batch's calls so far: where its next call appends."""
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
            self.shared.sql.write_many(statements.APPEND, self.journal_rows)
            self.journal_rows = []

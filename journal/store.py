"""The SQL journal store: one write transaction per call, the journal entry appended inside it.

Driver errors are translated here, once, into ``StorageError``. The scopes a call goes through (its
transaction, its handler) are small context-manager classes: they run on every call, where
generator-based context managers cost more than the statements they wrap.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from types import TracebackType
from typing import Any, Generic, TypeVar

import msgspec
from sqlalchemy import Connection, Engine, inspect, select
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from arvis.awmu.repository import AwmuRepository
from arvis.canonical import canonical_bytes_of_own, format_time, sha256_hex
from arvis.changes import Change, ChangeSet
from arvis.memory.memory_service import MemoryReader
from journal import blob_store
from journal.apply import ChangeWriter, Planned, plan
from journal.awmu_repository import SqlAwmuRepository
from journal.chain import EMPTY_EFFECTS_HASH, compute_entry_hash, genesis_hash
from journal.context_owner_repository import NoContextOwners, SqlContextOwnerRepository
from journal.engine import fetch_all, one_line, reading
from journal.grant_repository import NoGrants, SqlGrantRepository
from journal.graph_repository import NoGraph, SqlGraphRepository
from journal.graph_store_repository import NoGraphStore, SqlGraphStoreRepository
from journal.memory_repository import SqlMemoryReader
from journal.migrate import upgrade_to_head
from journal.pipeline_repository import ActiveRuns, Head, NoPipelineRuns, SqlPipelineRunRepository
from journal.schema import FORMAT_VERSION, FORMAT_VERSIONS, journal_header
from journal.sql import SqlRunner, insert_sql
from journal.state_checkpoints import (
    DEFAULT_INTERVAL,
    AppendHook,
    CheckpointWriter,
    checkpoint_tables_present,
)
from journal.tiles import TILE, tile_from_rows, tiles_completed
from kernel.abi import JournalEntry
from kernel.access import GrantRepository
from kernel.clock import Clock
from kernel.context_owners import ContextOwnerRepository
from kernel.graph_checkpoints import GraphRepository
from kernel.graph_store import GraphStoreRepository
from kernel.pipeline_runs import PipelineRunRepository
from kernel.protocols import CommitOutcomeUnknown, StorageBusy, StorageError

__all__ = [
    "APPEND_LOCK",
    "APPEND_LOCK_SQL",
    "JournalHeader",
    "SqlBatch",
    "SqlJournalStore",
    "SqlTransaction",
    "read_header",
]


class JournalHeader:
    """The journal's identity: its id, format version and the genesis hash entry 1 chains from."""

    def __init__(self, journal_id: str, format_version: int, created_at: str, genesis: str) -> None:
        self.journal_id = journal_id
        self.format_version = format_version
        self.created_at = created_at
        self.genesis_hash = genesis


def read_header(connection: Connection) -> JournalHeader | None:
    """The header's identity columns (not the admin verifier: ``journal.admin_binding``), which every
    revision's header has."""
    c = journal_header.c
    rows = fetch_all(connection, select(c.journal_id, c.format_version, c.created_at, c.genesis_hash))
    row = rows[0] if rows else None
    if row is None:
        return None
    return JournalHeader(row.journal_id, row.format_version, row.created_at, row.genesis_hash)


def _where(engine: Engine) -> str:
    """The engine's URL as text, for a new journal's id. A file name that is not UTF-8 (bytes read back
    as lone surrogates) cannot be rendered as a URL; its bytes are taken in hex instead."""
    try:
        return str(engine.url)
    except UnicodeEncodeError:
        return (engine.url.database or "").encode("utf-8", "surrogateescape").hex()


def _create_header(
    engine: Engine,
    clock: Clock,
    journal_id: str | None,
    copy: JournalHeader | None,
    format_version: int,
    admin_verifier: str | None = None,
) -> None:
    """Write the header of a new journal (or a copy of another journal's header, for replay), with the
    verifier of its admin key when one is given (``journal.admin_binding``). A header already there is
    read without the write lock (the common case: opening a live journal)."""
    with reading(engine.connect()) as connection:
        if read_header(connection) is not None:
            return
    with engine.begin() as connection:
        if read_header(connection) is not None:
            return
        if connection.dialect.name == "postgresql":  # SQLite holds its write lock since BEGIN IMMEDIATE
            connection.exec_driver_sql("LOCK TABLE journal_header IN EXCLUSIVE MODE")
            if read_header(connection) is not None:  # another process created it while we waited
                return
        if copy is None:
            created_at = format_time(clock.now())
            identity = journal_id or "j-" + sha256_hex(f"{created_at}|{_where(engine)}".encode())[:32]
            copy = JournalHeader(identity, format_version, created_at, genesis_hash(identity, format_version))
        row = {
            "singleton": 1,
            "journal_id": copy.journal_id,
            "format_version": copy.format_version,
            "created_at": copy.created_at,
            "genesis_hash": copy.genesis_hash,
        }
        connection.execute(
            journal_header.insert(),
            row | ({} if admin_verifier is None else {"admin_verifier": admin_verifier}),
        )


_HEAD = "SELECT seq, entry_hash FROM journal ORDER BY seq DESC LIMIT 1"
_ENTRY_HASH_AT = "SELECT entry_hash FROM journal WHERE seq = :seq"
APPEND_LOCK = 0x6172_7669_736A_6E6C
"""The PostgreSQL advisory lock (key ``"arvisjnl"``) a writer of a database's journal holds from its head
read to its commit: a transaction-scoped lock, local to the database (each partition's is its own), that
only appending writers wait on; a table lock on ``journal`` would also stop other statements on the
table."""
APPEND_LOCK_SQL = f"SELECT pg_advisory_xact_lock({APPEND_LOCK})"
_FIRST_PREV = "SELECT prev_hash FROM journal WHERE seq = 1"


_TILE_ENTRIES = "SELECT seq, entry_hash FROM journal WHERE seq >= :first AND seq <= :last ORDER BY seq"
_TILE_INSERT = (
    insert_sql("merkle_tiles", ["tile", "root"]) + " ON CONFLICT (tile) DO UPDATE SET root = excluded.root"
)
"""A row already there (a hand edit, a partial copy) is replaced, never left to block every append that
completes its tile: tiles are derived, and verification reports a wrong one."""


def _header_holds(connection: Connection, header: JournalHeader) -> bool:
    """The header's genesis hash is the one its id and format give, and entry 1 (if any) chains from it:
    recomputing the genesis hash after editing the format is not enough, the first entry was hashed on
    the original one (the full check is verification's)."""
    if header.genesis_hash != genesis_hash(header.journal_id, header.format_version):
        return False
    first = connection.exec_driver_sql(_FIRST_PREV).first()
    connection.rollback()
    return first is None or first[0] == header.genesis_hash


_APPEND = insert_sql("journal", [field for field in JournalEntry.__struct_fields__])


Translate = Callable[[BaseException], BaseException]
"""Maps an exception to the one to raise: a driver error to its StorageError, anything else to itself."""


class _HandlerScope:
    """Where a handler runs (see ``SqlTransaction.handler_scope``)."""

    __slots__ = ("_changes", "_translate")

    def __init__(self, changes: ChangeSet, translate: Translate) -> None:
        self._changes = changes
        self._translate = translate

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is None:
            return
        self._changes.discard()  # nothing was written: a refused call's decision is dropped whole
        translated = self._translate(error)
        if translated is not error:
            raise translated from error


class SqlTransaction:
    """One open write transaction: repositories bound to it, and the append of its journal entry."""

    def __init__(
        self,
        sql: SqlRunner,
        *,
        next_seq: int,
        prev_hash: str,
        tables: frozenset[str],
        translate: Translate,
        deferred: bool = False,
        active_runs: ActiveRuns | None = None,
        stores_pieces: bool = True,
        on_append: AppendHook | None = None,
    ) -> None:
        """``stores_pieces``: whether the pieces of a result journaled by reference, and the values the
        graph calls carry, are stored (False in a private scratch store, whose replay compares the
        references alone). ``on_append``: called
        with the entry and the call's effects once the entry is appended (``journal.state_checkpoints``)."""
        self._on_append = on_append
        self._translate = translate
        self._deferred = deferred
        self._stores_pieces = stores_pieces
        self._active_runs = active_runs
        self._sql = sql
        self._next_seq = next_seq
        self._prev_hash = prev_hash
        self._tables = tables
        self.changes = ChangeSet()
        """What the call decided to change, staged until ``append`` applies it (``journal.apply``)."""
        self._writer = ChangeWriter(sql, counted="memory_entry_counts" in tables)
        self._memory: SqlMemoryReader | None = None
        self._awmu: SqlAwmuRepository | None = None
        self._runs: PipelineRunRepository | None = None
        self._grants: GrantRepository | None = None
        self._owners: ContextOwnerRepository | None = None
        self._graph: GraphRepository | None = None
        self._graph_store: GraphStoreRepository | None = None
        self.appended: JournalEntry | None = None
        self.failed = False
        """Set when writing the call's changes or entry failed part way: its transaction holds some of
        them, so it must not commit (a batch it belongs to is rolled back whole)."""

    @property
    def next_seq(self) -> int:
        return self._next_seq

    @property
    def memory_repository(self) -> MemoryReader:
        if self._memory is None:
            self._memory = SqlMemoryReader(self._sql, counted="memory_entry_counts" in self._tables)
        return self._memory

    @property
    def awmu_repository(self) -> AwmuRepository:
        if self._awmu is None:
            self._awmu = SqlAwmuRepository(self._sql, changes=self.changes)
        return self._awmu

    @property
    def pipeline_runs(self) -> PipelineRunRepository:
        if self._runs is None:
            self._runs = (
                SqlPipelineRunRepository(self._sql, changes=self.changes, active=self._active_runs)
                if "pipeline_runs" in self._tables
                else NoPipelineRuns()
            )
        return self._runs

    @property
    def grants(self) -> GrantRepository:
        if self._grants is None:
            self._grants = (
                SqlGrantRepository(self._sql, seq=self._next_seq, changes=self.changes)
                if "grants" in self._tables
                else NoGrants()
            )
        return self._grants

    @property
    def context_owners(self) -> ContextOwnerRepository:
        if self._owners is None:
            self._owners = (
                SqlContextOwnerRepository(self._sql, seq=self._next_seq, changes=self.changes)
                if "awmu_context_owners" in self._tables
                else NoContextOwners()
            )
        return self._owners

    @property
    def graph(self) -> GraphRepository:
        if self._graph is None:
            self._graph = (
                SqlGraphRepository(
                    self._sql, seq=self._next_seq, changes=self.changes, stores_blobs=self._stores_pieces
                )
                if "graph_checkpoints" in self._tables
                else NoGraph()
            )
        return self._graph

    @property
    def graph_store(self) -> GraphStoreRepository:
        if self._graph_store is None:
            self._graph_store = (
                SqlGraphStoreRepository(
                    self._sql, seq=self._next_seq, changes=self.changes, stores_blobs=self._stores_pieces
                )
                if "graph_store_items" in self._tables
                else NoGraphStore()
            )
        return self._graph_store

    def handler_scope(self) -> _HandlerScope:
        """Where the handler runs: it only reads and stages changes, so a refusal (or any failure)
        drops the staged changes and nothing has to be undone; driver errors become StorageError."""
        return _HandlerScope(self.changes, self._translate)

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
        if self.appended is not None:
            raise StorageError("a transaction appends exactly one journal entry")
        effects = self.changes.records() if status == "ok" else []
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
        if self._stores_pieces:  # a scratch replay store compares the references alone
            blob_store.store_in(self._sql, dict(pieces))
        effects_hash = sha256_hex(canonical_bytes_of_own(effects)) if effects else EMPTY_EFFECTS_HASH
        seq, prev_hash = self._next_seq, self._prev_hash
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
        if not self._deferred:  # a batch inserts its entries together, before it commits
            self._sql.write(_APPEND, msgspec.structs.asdict(entry))
        if self._on_append is not None:  # state checkpoints, in this same transaction
            self._on_append(self._sql, entry, effects)
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
            next_seq=batch.next_seq,
            prev_hash=batch.prev_hash,
            tables=batch.tables,
            translate=batch.translate,
            deferred=True,
            active_runs=batch.active_runs,
            stores_pieces=batch.keep_entries,
            on_append=batch.on_append,
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
            batch.next_seq += 1
            batch.prev_hash = tx.appended.entry_hash
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
        next_seq: int,
        prev_hash: str,
        translate: Translate,
        tables: frozenset[str],
        active_runs: ActiveRuns | None = None,
        keep_entries: bool = True,
        on_append: AppendHook | None = None,
    ) -> None:
        self.on_append = on_append
        self.keep_entries = keep_entries
        self.tables = tables
        self.sql = sql
        self.next_seq = next_seq
        self.prev_hash = prev_hash
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
            self.sql.write_many(_APPEND, self.journal_rows)
            self.journal_rows = []


_Opened = TypeVar("_Opened", SqlTransaction, SqlBatch)


class _Whole(Generic[_Opened]):
    """One whole database transaction (a call's, a batch's), run on the driver connection: begun,
    the head read under the write lock (see ``_head``), committed; rolled back on any failure so
    that no transaction (and no write lock) is left open; driver errors translated."""

    __slots__ = ("_first_seq", "_make", "_opened", "_store")
    _make: Callable[[int, str], _Opened]
    _opened: _Opened | None

    def __init__(self, store: SqlJournalStore, make: Callable[[int, str], _Opened]) -> None:
        self._store = store
        self._make = make
        self._opened: _Opened | None = None
        self._first_seq = 0

    def __enter__(self) -> _Opened:
        store = self._store
        try:
            store._sql.begin(None if store._postgres else "BEGIN IMMEDIATE")
            next_seq, prev_hash = store._head()
            store._active_runs.start((next_seq, prev_hash))
        except BaseException as error:
            store._end_driver_transaction()
            raise store._translate(error) from error
        self._opened = self._make(next_seq, prev_hash)
        self._first_seq = next_seq
        return self._opened

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        store, opened = self._store, self._opened
        if error is None:
            assert opened is not None
            try:
                if isinstance(opened, SqlTransaction) and opened.appended is None:
                    raise StorageError("a transaction must append its journal entry before commit")
                if opened.failed:
                    raise StorageError(
                        "a call of the batch failed while its changes were written: the batch is rolled back"
                    )
                if isinstance(opened, SqlBatch):
                    opened.insert_entries()
                last = opened.appended if isinstance(opened, SqlTransaction) else opened.last_entry
                if last is not None:
                    store._store_tiles(self._first_seq - 1, last.seq)
            except BaseException as failure:
                store._end_driver_transaction()
                raise store._translate(failure) from failure
            try:
                store._sql.commit()
            except Exception as failure:  # the database may have committed it: read the outcome back
                store._end_driver_transaction()
                if last is None or not store._committed(last, failure):
                    raise store._translate(failure) from failure
            except BaseException:
                store._end_driver_transaction()
                raise
            if last is not None:
                store.last_entry = last
                store._committed_head = (last.seq + 1, last.entry_hash)
                store._active_runs.committed(store._committed_head)
            return
        store._end_driver_transaction()
        translated = store._translate(error)
        if translated is not error:
            raise translated from error


class SqlJournalStore:
    """A journal and its state in one SQL database (SQLite or PostgreSQL), through one connection.

    Not thread-safe by itself: a ``Kernel`` that owns it serialises its calls (one lock per kernel), and
    separate stores (threads or processes) are serialised by the database's write lock.

    ``keep_entries=False`` makes a private scratch store that only replays: each call's entry is
    computed, hashed and returned as usual but not stored, and the head is the one its own last commit
    left (no other writer may use the database).
    """

    def __init__(
        self,
        engine: Engine,
        *,
        clock: Clock,
        journal_id: str | None = None,
        copy_header: JournalHeader | None = None,
        upgrade: bool = True,
        keep_entries: bool = True,
        format_version: int = FORMAT_VERSION,
        state_checkpoint_interval: int = DEFAULT_INTERVAL,
        admin_verifier: str | None = None,
    ) -> None:
        """``format_version`` is the format a journal created here gets (an existing one keeps its own),
        ``admin_verifier`` the verifier of its admin key it records (an existing one keeps its own).
        ``state_checkpoint_interval``: a state checkpoint is stored with every entry whose seq is a
        multiple of it (``journal.state_checkpoints``; 0: none, and a mark so that a writer of the same
        journal that keeps them builds its next one whole)."""
        if format_version not in FORMAT_VERSIONS:
            raise ValueError(f"unknown journal format version {format_version}")
        if state_checkpoint_interval < 0:
            raise ValueError("the state checkpoint interval is a number of entries, 0 for none")
        self.engine = engine
        self.last_entry: JournalEntry | None = None
        self._keep_entries = keep_entries
        try:
            if upgrade:
                upgrade_to_head(engine)
            _create_header(engine, clock, journal_id, copy_header, format_version, admin_verifier)
            self._connection = reading(engine.connect())  # its own writes begin on the driver
            header = read_header(self._connection)
            self._connection.rollback()
            self._sql = SqlRunner(self._connection)
            self._driver_error: type[Exception] = engine.dialect.loaded_dbapi.Error
            self._postgres = engine.dialect.name == "postgresql"
            # the head this store's last commit left: a scratch store's next head (``_head``)
            self._committed_head: Head | None = None
            self._active_runs = ActiveRuns()
            """What the store learned of active pipeline runs, valid under one head (``ActiveRuns``)."""
            self._tables = frozenset(inspect(self._connection).get_table_names())
            self._connection.rollback()
            self.on_append: AppendHook | None = (
                CheckpointWriter(state_checkpoint_interval, postgres=self._postgres, tables=self._tables)
                if keep_entries and checkpoint_tables_present(self._tables)
                else None
            )
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot open the journal database: {one_line(exc)}") from exc
        assert header is not None
        if header.format_version not in FORMAT_VERSIONS:
            self._connection.close()
            raise StorageError(
                f"the journal is in format {header.format_version}, which this release does not know"
            )
        try:
            holds = _header_holds(self._connection, header)
        except SQLAlchemyError as exc:
            self._connection.close()
            raise StorageError(f"cannot open the journal database: {one_line(exc)}") from exc
        if not holds:
            # its format selects the access rules: an edited header must not open under other rules
            self._connection.close()
            raise StorageError(
                "journal header altered: its genesis hash does not match its id and format, or the first "
                "entry does not chain from it; run `arvis journal verify --chain-only`"
            )
        self.header = header

    @property
    def keeps_entries(self) -> bool:
        """False for a replay's scratch store (``keep_entries=False``): the only store ``Kernel.execute``
        re-executes recorded calls on."""
        return self._keep_entries

    @property
    def format_version(self) -> int:
        """The journal's format (its header's): which access rules the kernel applies to it."""
        return int(self.header.format_version)

    def _head(self) -> tuple[int, str]:
        """The next seq and the previous hash, read under the write lock: SQLite took it at BEGIN
        IMMEDIATE; on PostgreSQL the journal's append lock (``APPEND_LOCK``) is taken here, in the same
        transaction, so entries are inserted in commit order and no reader sees a gap fill later. Read
        committed: the head read, a statement after the lock, sees every append committed before it."""
        if not self._keep_entries:  # a private scratch store: its own last commit is the head
            return self._committed_head or (1, self.header.genesis_hash)
        if self._postgres:  # pipelined: the lock and the head read are one round trip
            self._sql.send(APPEND_LOCK_SQL)
        head = self._sql.first(_HEAD)
        return (1, self.header.genesis_hash) if head is None else (int(head[0]) + 1, str(head[1]))

    def resume_after(self, seq: int, entry_hash: str) -> None:
        """A private scratch store (``keep_entries=False``) given the state right after entry ``seq``
        (a state checkpoint, ``journal.timetravel``): its next call takes ``seq + 1``, chained from
        ``entry_hash``."""
        if self._keep_entries:
            raise StorageError("only a scratch store resumes from a state checkpoint")
        self._committed_head = (seq + 1, entry_hash)

    def _translate(self, error: BaseException) -> BaseException:
        """A driver error as the StorageError to raise; anything else as it is."""
        if isinstance(error, DBAPIError):
            return _storage_error(error.orig if error.orig is not None else error)
        if isinstance(error, self._driver_error):
            return _storage_error(error)
        return error

    def _committed(self, last: JournalEntry, failure: Exception) -> bool:
        """After a failed commit: whether the transaction committed all the same, read back from the
        journal (its last entry is there, with its hash). The COMMIT may have reached the server before
        the connection was lost (on PostgreSQL it is sent in the pipeline with the writes): reporting
        that transaction failed would have its calls run again, and journaled twice. On PostgreSQL the
        read first takes the append lock, which the failed transaction's session holds until that
        transaction has ended, committed or not: a session still inside its COMMIT (a slow flush, a
        synchronous standby) is waited for, up to the lock timeout. A scratch store (replay; no journal
        rows, nothing another reader could see) is not read. Raises ``CommitOutcomeUnknown`` when the
        journal cannot be read."""
        if not self._keep_entries:
            return False
        try:
            self._sql.attach()  # the connection again, opened anew if the failure invalidated it
            if self._postgres:
                self._sql.send(APPEND_LOCK_SQL)
            row = self._sql.first(_ENTRY_HASH_AT, {"seq": last.seq})
        except Exception as unread:
            self._end_driver_transaction()
            raise CommitOutcomeUnknown(
                f"the commit failed ({one_line(self._translate(failure))}) and whether it was made all the "
                f"same could not be read back ({one_line(self._translate(unread))}): entries up to seq "
                f"{last.seq} may be in the journal; read it before calling again"
            ) from failure
        except BaseException:  # interrupted: leave no transaction (nor the lock) open
            self._end_driver_transaction()
            raise
        self._end_driver_transaction()  # ends the read and releases the lock; what was read stands
        return row is not None and str(row[0]) == last.entry_hash

    def _end_driver_transaction(self) -> None:
        """Roll back whatever the driver has open; a connection that cannot even do that is
        invalidated, and the next transaction opens a new one."""
        try:
            if not self._connection.invalidated:
                self._sql.rollback()
        except Exception:
            with suppress(Exception):
                self._sql.close()
            with suppress(Exception):
                self._connection.invalidate()

    def _store_tiles(self, last_seq_before: int, last_seq: int) -> None:
        """Store the Merkle tiles (``journal.tiles``) the transaction's entries completed, read back from
        the journal inside the transaction. A tile over a gap or a damaged entry hash (a hand edit) is not
        stored: proofs then read those entries, and verification reports them."""
        if not self._keep_entries or "merkle_tiles" not in self._tables:
            return
        for tile in tiles_completed(last_seq_before, last_seq):
            first = tile * TILE + 1
            root = tile_from_rows(
                self._sql.rows(_TILE_ENTRIES, {"first": first, "last": first + TILE - 1}), first
            )
            if root is not None:
                self._sql.write(_TILE_INSERT, {"tile": tile, "root": root.hex()})

    def _new_transaction(self, next_seq: int, prev_hash: str) -> SqlTransaction:
        return SqlTransaction(
            self._sql,
            next_seq=next_seq,
            prev_hash=prev_hash,
            tables=self._tables,
            translate=self._translate,
            deferred=not self._keep_entries,
            active_runs=self._active_runs,
            stores_pieces=self._keep_entries,
            on_append=self.on_append,
        )

    def _new_batch(self, next_seq: int, prev_hash: str) -> SqlBatch:
        return SqlBatch(
            self._sql,
            next_seq=next_seq,
            prev_hash=prev_hash,
            tables=self._tables,
            translate=self._translate,
            active_runs=self._active_runs,
            keep_entries=self._keep_entries,
            on_append=self.on_append,
        )

    def transaction(self) -> _Whole[SqlTransaction]:
        """One call: BEGIN IMMEDIATE, the head read, the entry, COMMIT."""
        return _Whole(self, self._new_transaction)

    def batch(self) -> _Whole[SqlBatch]:
        """Many calls in one database transaction (bulk loads): each call still gets its own journal
        entry, and a refused call changes nothing (it decided, and nothing was written). The batch
        commits as a whole or not at all."""
        return _Whole(self, self._new_batch)

    @contextmanager
    def read_only(self) -> Iterator[SqlMemoryReader]:
        """Repositories for reading outside any syscall (audit tools); the transaction is rolled back."""
        try:
            with self._connection.begin() as transaction:
                self._sql.attach()
                yield SqlMemoryReader(self._sql, counted="memory_entry_counts" in self._tables)
                transaction.rollback()
        except DBAPIError as exc:
            raise StorageError(one_line(exc)) from exc

    def read_blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        """Blobs read on this store's own connection, between its transactions
        (``journal.blob_store.read_with``: each checked against its key, ``BlobMissing`` otherwise): its
        page cache is the one the last commit left, where another connection's would have been dropped
        by that commit. The caller keeps every transaction of this store out meanwhile (the kernel's
        execution lock, ``Kernel.between_calls``)."""
        try:
            driver = self._connection.connection.dbapi_connection
            if driver is None:
                raise StorageError("the blobs could not be read: the store's connection is closed")
            if self._sql.pipelined or not _driver_idle(driver):
                raise StorageError(
                    "the blobs could not be read: the store's connection is in a transaction (or broken)"
                )
            try:
                return blob_store.read_with(driver, self.engine.dialect.paramstyle, self._driver_error, keys)
            finally:
                driver.rollback()  # PostgreSQL: the read's implicit transaction (SQLite: nothing open)
        except (SQLAlchemyError, self._driver_error) as exc:
            raise StorageError(f"the blobs could not be read: {one_line(exc)}") from exc

    def close(self) -> None:
        self._sql.close()
        self._connection.close()
        self.engine.dispose()


def _driver_idle(driver: Any) -> bool:
    """Whether the driver connection is open with no transaction (``sqlite3``: not ``in_transaction``;
    psycopg, the other driver the engines use: its transaction status is idle, not in a transaction, in
    error or unknown, as a broken connection's is)."""
    if isinstance(driver, sqlite3.Connection):
        return not driver.in_transaction
    status = driver.info.transaction_status
    return bool(status == type(status).IDLE)


_BUSY_SQLSTATES = frozenset({"55P03", "40001", "40P01"})  # lock not available, serialization, deadlock


def _storage_error(exc: BaseException) -> StorageError:
    """A driver error as StorageError, or StorageBusy when another writer held the lock too long."""
    message = f"{type(exc).__name__}: {one_line(exc)}"
    text = str(exc).lower()
    locked = "database is locked" in text or "database is busy" in text
    busy = getattr(exc, "sqlstate", None) in _BUSY_SQLSTATES or (
        type(exc).__name__ == "OperationalError" and locked
    )
    return StorageBusy(message) if busy else StorageError(message)

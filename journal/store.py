"""The SQL journal store: one write transaction per call (or per batch), the journal entry appended inside
it; the open transaction itself is ``journal.transaction``'s. And the journal's clocks, injected: the
dispatcher reads its clock once per call (the entry's ``recorded_at``), the store once when it creates a
journal (its header's ``created_at``); nothing else reads time.

Driver errors are translated here, once, into ``StorageError``. The scopes a call goes through (its
transaction, its handler) are small context-manager classes: they run on every call, where
generator-based context managers cost more than the statements they wrap.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from functools import partial
from types import TracebackType
from typing import Generic, Protocol, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from journal import statements
from journal.admin_binding import current_verifier
from journal.engine import one_line, reading
from journal.entry import JournalEntry, Pos
from journal.errors import CommitOutcomeUnknown, StorageBusy, StorageError
from journal.header import JournalHeader, create_header, header_holds, read_header
from journal.migrate import upgrade_to_head
from journal.schema import FORMAT_VERSION, FORMAT_VERSIONS
from journal.sql import SqlRunner
from journal.tiles import TILE, tile_from_rows, tiles_completed
from journal.transaction import ActiveRuns, Shared, SqlBatch, SqlTransaction, Translate


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware UTC datetime."""
        ...


class SystemClock:
    """The wall clock, the production default."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock driven by the caller: tests, demos and replay set or advance it explicitly."""

    def __init__(self, start: datetime, *, step: timedelta = timedelta(0)) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = start.astimezone(UTC)
        self._step = step

    def now(self) -> datetime:
        current = self._now
        self._now = current + self._step
        return current

    def set(self, moment: datetime) -> None:
        if moment.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = moment.astimezone(UTC)

    def advance(self, delta: timedelta) -> None:
        self._now += delta


_Opened = TypeVar("_Opened", SqlTransaction, SqlBatch)


class _Whole(Generic[_Opened]):
    """One whole database transaction (a call's, a batch's), run on the driver connection: begun,
    the head read under the write lock (see ``_head``), committed; rolled back on any failure so
    that no transaction (and no write lock) is left open; driver errors translated."""

    __slots__ = ("_durable", "_make", "_opened", "_start", "_store")
    _make: Callable[[Pos], _Opened]
    _opened: _Opened | None

    def __init__(self, store: SqlJournalStore, make: Callable[[Pos], _Opened], durable: bool) -> None:
        self._store = store
        self._make = make
        self._durable = durable
        self._opened: _Opened | None = None
        self._start: Pos | None = None

    def __enter__(self) -> _Opened:
        store = self._store
        try:
            store._begin(self._durable)
            self._start = start = store._head()
            store._shared.active_runs.start(start)
        except BaseException as error:
            store._end_driver_transaction()
            raise store._translate(error) from error
        self._opened = self._make(start)
        return self._opened

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        store, opened, start = self._store, self._opened, self._start
        if error is None:
            assert opened is not None and start is not None
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
                    store._store_tiles(start.seq, last.seq)
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
                store._committed_head = last.pos
                store._shared.active_runs.committed(last.pos)
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
        keep_entries: bool = True,
        format_version: int = FORMAT_VERSION,
        admin_verifier: str | None = None,
        store_quota_bytes: int | None = None,
    ) -> None:
        """``format_version`` is the format a journal created here gets (an existing one keeps its own),
        ``admin_verifier`` the verifier of its admin key it records and ``store_quota_bytes`` its graph
        store's quota (``journal.header.create_header``; an existing journal keeps its own)."""
        if format_version not in FORMAT_VERSIONS:
            raise ValueError(f"unknown journal format version {format_version}")
        self.engine = engine
        self.last_entry: JournalEntry | None = None
        self._keep_entries = keep_entries
        try:
            upgrade_to_head(engine)
            create_header(
                engine, clock.now, journal_id, copy_header, format_version, admin_verifier, store_quota_bytes
            )
            self._connection = reading(engine.connect())  # its own writes begin on the driver
            header = read_header(self._connection)
            self._connection.rollback()
            self._sql = SqlRunner(self._connection)
            # the driver's alone, not a method: the transactions share it, and no cycle holds the store
            self._translate: Translate = partial(_translated, engine.dialect.loaded_dbapi.Error)
            self._postgres = engine.dialect.name == "postgresql"
            self._flushes = _flushing(self._connection, self._postgres)
            """How this session's commits flush the log, or None where they do not (``_begin``)."""
            self._unflushed: object = None
            """The SQLite driver connection set to ``synchronous=NORMAL`` for a read, if any."""
            # the position this store's last commit left: a scratch store's head (``_head``)
            self._committed_head: Pos | None = None
            self._shared = Shared(self._sql, self._translate, ActiveRuns(), keep_entries)
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot open the journal database: {one_line(exc)}") from exc
        assert header is not None
        self.header = self._checked(header)

    def _checked(self, header: JournalHeader) -> JournalHeader:
        """The header, if this release knows its format and it holds (``header_holds``); the
        connection closed and ``StorageError`` raised if not."""
        if header.format_version not in FORMAT_VERSIONS:
            self._connection.close()
            raise StorageError(
                f"the journal is in format {header.format_version}, which this release does not know"
            )
        try:
            holds = header_holds(self._connection, header)
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
        return header

    def admin_verifier(self) -> str | None:
        """The verifier of the journal's admin key now (``journal.admin_binding.current_verifier``); None
        when it has none. ``StorageError`` when it cannot be read."""
        try:
            return current_verifier(self._connection)
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot read the journal's admin verifier: {one_line(exc)}") from exc
        finally:
            self._connection.rollback()

    @property
    def keeps_entries(self) -> bool:
        """False for a replay's scratch store (``keep_entries=False``): the only store ``Kernel.execute``
        re-executes recorded calls on."""
        return self._keep_entries

    @property
    def format_version(self) -> int:
        """The journal's format (its header's): which access rules the kernel applies to it."""
        return int(self.header.format_version)

    def _head(self) -> Pos:
        """The journal's position, read under the write lock: SQLite took it at BEGIN IMMEDIATE; on
        PostgreSQL the journal's append lock (``statements.APPEND_LOCK``) is taken here, in the same
        transaction, so entries are inserted in commit order and no reader sees a gap fill later. Read
        committed: the head read, a statement after the lock, sees every append committed before it."""
        if not self._keep_entries:  # a private scratch store: its own last commit is the head
            return self._committed_head or Pos(0, self.header.genesis_hash)
        if self._postgres:  # pipelined: the lock and the head read are one round trip
            self._sql.send(statements.APPEND_LOCK_SQL)
        head = self._sql.first(statements.HEAD)
        return Pos(0, self.header.genesis_hash) if head is None else Pos(int(head[0]), str(head[1]))

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
                self._sql.send(statements.APPEND_LOCK_SQL)
            row = self._sql.first(statements.ENTRY_HASH_AT, {"seq": last.seq})
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
        if not self._keep_entries or last_seq // TILE == last_seq_before // TILE:  # none completed
            return
        for tile in tiles_completed(last_seq_before, last_seq):
            first = tile * TILE + 1
            root = tile_from_rows(
                self._sql.rows(statements.TILE_ENTRIES, {"first": first, "last": first + TILE - 1}), first
            )
            if root is not None:
                self._sql.write(statements.TILE_INSERT, {"tile": tile, "root": root.hex()})

    def transaction(self, *, durable: bool = True) -> _Whole[SqlTransaction]:
        """One call: BEGIN IMMEDIATE, the head read, the entry, COMMIT. ``durable=False`` for a read
        (a call that changes no state): its commit need not flush the log (``_begin``)."""
        return _Whole(self, partial(SqlTransaction, self._shared), durable)

    def batch(self, *, durable: bool = True) -> _Whole[SqlBatch]:
        """Many calls in one database transaction (bulk loads): each call still gets its own journal
        entry, and a refused call changes nothing (it decided, and nothing was written). The batch
        commits as a whole or not at all. ``durable=False``: its calls are reads alone."""
        return _Whole(self, partial(SqlBatch, self._shared), durable)

    def _begin(self, durable: bool) -> None:
        """Begin a write transaction. Where commits flush the log (SQLite ``synchronous`` FULL or
        EXTRA; PostgreSQL ``synchronous_commit`` not off), one that is not ``durable`` (reads alone)
        commits without a flush of its own, and the next commit that flushes takes its entries along:
        SQLite's connection at ``synchronous=NORMAL`` until the next durable transaction begins,
        PostgreSQL's ``SET LOCAL synchronous_commit = off`` (``specs/durability.md`` §1.1)."""
        if self._postgres:
            self._sql.begin(None)
            if not durable and self._flushes is not None:
                self._sql.send(statements.NO_FLUSH_POSTGRES)
            return
        cursor = self._sql.attach()
        if self._flushes is not None:
            driver = self._connection.connection.dbapi_connection
            if durable == (self._unflushed is driver):  # the level changes: a read's, or back
                cursor.execute(self._flushes if durable else statements.NO_FLUSH_SQLITE)
                self._unflushed = None if durable else driver
        cursor.execute(statements.BEGIN_IMMEDIATE)

    def close(self) -> None:
        self._sql.close()
        self._connection.close()
        self.engine.dispose()


def _flushing(connection: Connection, postgres: bool) -> str | None:
    """The statement that sets the session's own flushing level again (SQLite's ``synchronous`` as
    configured; on PostgreSQL none is needed, ``SET LOCAL`` ends with its transaction), or None where
    commits do not flush the log anyway (SQLite NORMAL or OFF, PostgreSQL ``synchronous_commit=off``)."""
    if postgres:
        level = str(connection.exec_driver_sql(statements.POSTGRES_SYNCHRONOUS).scalar())
        return None if level == "off" else level
    number = int(connection.exec_driver_sql(statements.SQLITE_SYNCHRONOUS).scalar() or 0)
    return statements.SET_SQLITE_SYNCHRONOUS.format(number) if number >= 2 else None


_BUSY_SQLSTATES = frozenset({"55P03", "40001", "40P01"})  # lock not available, serialization, deadlock


def _translated(driver_error: type[Exception], error: BaseException) -> BaseException:
    """A driver error (a ``driver_error``) as the StorageError to raise; anything else as it is."""
    if isinstance(error, DBAPIError):
        return _storage_error(error.orig if error.orig is not None else error)
    if isinstance(error, driver_error):
        return _storage_error(error)
    return error


def _storage_error(exc: BaseException) -> StorageError:
    """A driver error as StorageError, or StorageBusy when another writer held the lock too long."""
    message = f"{type(exc).__name__}: {one_line(exc)}"
    text = str(exc).lower()
    locked = "database is locked" in text or "database is busy" in text
    busy = getattr(exc, "sqlstate", None) in _BUSY_SQLSTATES or (
        type(exc).__name__ == "OperationalError" and locked
    )
    return StorageBusy(message) if busy else StorageError(message)

"""The SQL floor of a journaled write: the kernel's own statements, recorded with their parameters as
``Kernel.call('memory.write')`` ran them, then replayed through raw ``sqlite3`` on a fresh database with
the same schema and durability. What the replay costs is what the kernel's SQL costs, Python aside; the
rest of a call is the kernel's Python. Also measured: the pages each commit writes to the WAL (with
checkpoints off), for the kernel's statements and for the raw reference.

The statements are recorded at the DBAPI boundary (SQLAlchemy's ``do_connect`` event makes the engine
open its connection with a recording cursor), so nothing of the kernel is patched.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.common import write_args
from bench.reference import RawJournal
from journal.engine import Durability, open_engine
from journal.store import SqlJournalStore, SystemClock
from kernel.dispatcher import Kernel
from syscalls.boot import default_services, open_kernel
from syscalls.table import SYSCALL_TABLE

__all__ = ["SqlFloor", "copy_database", "recorded_calls", "replayed_seconds", "split_calls", "sql_floor"]

_COMMIT = "COMMIT"
_WAL_FRAME_HEADER = 24
_counter = itertools.count()

Statement = tuple[str, Any]


@dataclass(frozen=True)
class _Many:
    """The parameter sets of one ``executemany``, replayed as one."""

    rows: list[Any]


class _RecordingCursor(sqlite3.Cursor):
    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        self.connection.recorded.append((sql, parameters))  # type: ignore[attr-defined]
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        rows = list(parameters)
        self.connection.recorded.append((sql, _Many(rows)))  # type: ignore[attr-defined]
        return super().executemany(sql, rows)


class _RecordingConnection(sqlite3.Connection):
    """``sqlite3.Connection`` whose cursors and commits append to ``recorded``."""

    recorded: list[Statement]

    def cursor(self, factory: Any = _RecordingCursor) -> Any:
        return super().cursor(factory)

    def commit(self) -> None:
        self.recorded.append((_COMMIT, None))
        super().commit()


@dataclass(frozen=True)
class SqlFloor:
    calls_per_second: float  # the kernel's statements alone, replayed through raw sqlite3
    statements_per_call: float  # COMMIT included
    kernel_pages_per_commit: float
    reference_pages_per_commit: float


def recorded_calls(
    path: Path, calls: Callable[[Kernel], object], durability: Durability = Durability.NORMAL
) -> list[Statement]:
    """The statements, with their parameters and commits, that a kernel opened on the SQLite file
    ``path`` at ``durability`` runs for ``calls(kernel)``; opening it (migrations, the header) not
    included."""
    engine = open_engine(str(path), durability=durability)
    recorded: list[Statement] = []

    @event.listens_for(engine, "do_connect")
    def _connect(dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        connection = dialect.loaded_dbapi.connect(*cargs, **{**cparams, "factory": _RecordingConnection})
        connection.recorded = recorded
        return connection

    clock = SystemClock()
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=SqlJournalStore(engine, clock=clock),
        clock=clock,
    )
    try:
        recorded.clear()
        calls(kernel)
        return list(recorded)
    finally:
        kernel.close()


def _recorded_writes(directory: Path, calls: int) -> list[Statement]:
    """The statements of ``2 * calls`` writes (each a new key), from the first."""

    def writes(kernel: Kernel) -> None:
        for index in range(2 * calls):
            name, args, principal = write_args(index)
            if not kernel.call(name, args, principal=principal).ok:
                raise RuntimeError("the kernel refused a benchmark write")

    return recorded_calls(directory / f"recorded-{next(_counter)}.db", writes)


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite file ``source`` (its write-ahead log folded in) at ``target``."""
    with closing(sqlite3.connect(str(source))) as reading, closing(sqlite3.connect(str(target))) as writing:
        reading.backup(writing)


def replayed_seconds(
    snapshot: Path,
    target: Path,
    warm_up: list[Statement],
    measured: list[Statement],
    durability: Durability = Durability.NORMAL,
) -> float:
    """Seconds raw ``sqlite3`` takes to run ``measured`` on a copy of ``snapshot`` made at ``target`` (WAL,
    at the ``durability`` the kernel ran them at), after ``warm_up``; neither the copy nor the warm-up
    is timed."""
    copy_database(snapshot, target)
    with closing(sqlite3.connect(str(target), isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={Durability(durability).value}")
        _replay(db, warm_up)
        return _replay(db, measured)


def split_calls(statements: list[Statement], calls: int) -> tuple[list[Statement], list[Statement]]:
    """The statements of the first ``calls`` calls (the warm-up), and of the rest."""
    commits = 0
    for position, (sql, _) in enumerate(statements):
        if sql == _COMMIT:
            commits += 1
            if commits == calls:
                return statements[: position + 1], statements[position + 1 :]
    raise RuntimeError(f"recorded {commits} commits for {2 * calls} calls")


def _fresh(directory: Path) -> tuple[sqlite3.Connection, str]:
    """An empty database with the kernel's schema, opened by raw sqlite3 at the benchmark's durability."""
    path = directory / f"replayed-{next(_counter)}.db"
    open_kernel(str(path), create=True).close()
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db, str(path)


def _replay(db: sqlite3.Connection, statements: list[Statement]) -> float:
    """Seconds to run the statements."""
    cursor = db.cursor()
    started = time.perf_counter()
    for sql, parameters in statements:
        if sql == _COMMIT:
            db.commit()
        elif isinstance(parameters, _Many):
            cursor.executemany(sql, parameters.rows)
        else:
            cursor.execute(sql, parameters)
    return time.perf_counter() - started


def _pages_per_commit(db: sqlite3.Connection, path: str, run: Callable[[], object], commits: int) -> float:
    """WAL frames written by ``run`` per commit, with automatic checkpoints off."""
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA wal_autocheckpoint=0")
    page_size = int(db.execute("PRAGMA page_size").fetchone()[0])
    run()
    frames = max(os.path.getsize(path + "-wal") - 32, 0) / (page_size + _WAL_FRAME_HEADER)
    return frames / commits


def sql_floor(directory: Path, calls: int) -> SqlFloor:
    """Record ``2 * calls`` writes; replay the first half untimed, then time the second half."""
    warm_up, measured = split_calls(_recorded_writes(directory, calls), calls)
    db, _ = _fresh(directory)
    try:
        _replay(db, warm_up)
        seconds = _replay(db, measured)
    finally:
        db.close()
    db, path = _fresh(directory)
    try:
        _replay(db, warm_up)
        kernel_pages = _pages_per_commit(db, path, lambda: _replay(db, measured), calls)
    finally:
        db.close()
    raw_path = directory / f"raw-pages-{next(_counter)}.db"
    raw = RawJournal(raw_path)
    try:
        for index in range(calls):
            raw.write(*write_args(index))
        more = [write_args(index) for index in range(calls, 2 * calls)]

        def reference_writes() -> None:
            for call in more:
                raw.write(*call)

        reference_pages = _pages_per_commit(raw.db, str(raw_path), reference_writes, calls)
    finally:
        raw.close()
    return SqlFloor(
        calls_per_second=calls / seconds,
        statements_per_call=sum(1 for sql, _ in measured) / calls,
        kernel_pages_per_commit=kernel_pages,
        reference_pages_per_commit=reference_pages,
    )

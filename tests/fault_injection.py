"""Fault injection at the DBAPI boundary, and the writer processes of the concurrency and crash tests.

The model is SQLite's own test harness, which swaps the entries of its ``aSyscall`` table (open, read,
write, fsync...) for versions that fail on the Nth call. Here the swappable boundary is the DBAPI
connection: through SQLAlchemy's public ``do_connect`` event, :func:`inject` makes the engine open its
connections as the driver's own connection class extended by a few lines (``sqlite3.connect``'s
``factory``; a ``psycopg.Connection`` subclass and its ``cursor_factory``), so that every statement
(``cursor.execute``) and every ``commit`` first passes through :meth:`FaultPlan.step`, which counts
them and fails the one it was armed for:

* ``Fault.DISK_FULL``: the driver's disk-full error (SQLite ``database or disk is full``, PostgreSQL
  SQLSTATE 53100) instead of the operation;
* ``Fault.IO_ERROR``: the driver's I/O error (SQLite ``disk I/O error``, PostgreSQL 58030) instead
  of the operation;
* ``Fault.DISCONNECT``: the connection is lost under its holder (closed; on PostgreSQL the server
  terminates the session) and the operation then runs on it, so the driver raises exactly what it
  raises on a connection that is gone.

Nothing of the kernel, the store or SQLAlchemy is patched; a faulted operation is never half done
(the driver is not called, as a failing syscall in SQLite's harness is not).

The writer functions at the end run in child processes (``multiprocessing``, spawn or forkserver);
they live here, in an importable module, because a child imports its target by module name.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from multiprocessing.connection import Connection as Pipe
from typing import Any

from sqlalchemy import Engine, event

from arvis.canonical import canonical_bytes_of_own, sha256_hex
from journal.engine import Durability, open_engine
from journal.store import SqlJournalStore, SystemClock
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE

__all__ = [
    "AfterCrash",
    "Fault",
    "FaultPlan",
    "acknowledged_bytes",
    "check_after_crash",
    "crash_writer",
    "driver_error",
    "inject",
    "mixed_calls",
    "open_writer_kernel",
    "pool_writer",
    "set_start_barrier",
]


class Fault(StrEnum):
    DISK_FULL = "disk_full"
    IO_ERROR = "io_error"
    DISCONNECT = "disconnect"


def driver_error(driver: Any, fault: Fault) -> Exception:
    """The error the driver itself raises for a full disk or an I/O error (with PostgreSQL's SQLSTATE)."""
    if driver.__name__ == "psycopg":
        from psycopg import errors

        if fault is Fault.DISK_FULL:
            return errors.DiskFull('could not extend file "base/1/2": No space left on device')
        return errors.IoError('could not read block 0 in file "base/1/2": Input/output error')
    error: Exception = driver.OperationalError(
        "database or disk is full" if fault is Fault.DISK_FULL else "disk I/O error"
    )
    return error


@dataclass
class FaultPlan:
    """Counts the operations that reach the driver and fails the one it is armed for.

    ``operations`` counts every statement and commit through every connection of the plan since it
    was made, ``log`` says what each was (the first words of its SQL); ``fired`` lists (operation
    number, fault, what the operation was) of the faults raised. ``connections`` are the driver
    connections opened under the plan, oldest first. ``killer``, when set, is how a DISCONNECT ends a
    connection (PostgreSQL: the server terminates the session); by default it is closed.
    """

    operations: int = 0
    connections: list[Any] = field(default_factory=list)
    fired: list[tuple[int, Fault, str]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    killer: Callable[[Any], None] | None = None
    _at: int | None = None
    _fault: Fault | None = None
    _action: tuple[int, Callable[[], None]] | None = None

    def arm(self, fault: Fault, after: int = 0) -> None:
        """Fail the operation ``after`` operations from now (0: the very next one)."""
        self._at = self.operations + after
        self._fault = fault

    def disarm(self) -> None:
        self._at = self._fault = None

    @property
    def armed(self) -> bool:
        return self._at is not None

    def interpose(self, after: int, action: Callable[[], None]) -> None:
        """Run ``action`` just before the operation ``after`` operations from now (an interleaving:
        another writer's call at an exact point of this connection's call)."""
        self._action = (self.operations + after, action)

    def step(self, connection: Any, what: str) -> None:
        """Called before each operation; raises the armed fault when this is its operation."""
        number = self.operations
        self.operations += 1
        self.log.append(what)
        if self._action is not None and self._action[0] == number:
            action, self._action = self._action[1], None
            action()
        if self._at != number or self._fault is None:
            return
        fault = self._fault
        self.disarm()
        self.fired.append((number, fault, what))
        if fault is Fault.DISCONNECT:
            # the operation itself then runs, and fails the way the driver fails on a lost connection
            connection.arvis_dropped = True
            if self.killer is not None:
                self.killer(connection)
            else:
                connection.close()
            return
        raise driver_error(connection.arvis_driver, fault)

    @property
    def live(self) -> Any:
        """The most recently opened connection that was not dropped."""
        for connection in reversed(self.connections):
            if not connection.arvis_dropped:
                return connection
        raise LookupError("no open connection")

    def attach(self, connection: Any, driver: Any) -> Any:
        connection.arvis_plan = self
        connection.arvis_driver = driver
        connection.arvis_dropped = False
        self.connections.append(connection)
        return connection


def _describe(sql: Any) -> str:
    words = str(sql).split()
    return " ".join(words[:3]) if words else ""


class _SqliteCursor(sqlite3.Cursor):
    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        self.connection.arvis_plan.step(self.connection, _describe(sql))  # type: ignore[attr-defined]
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        self.connection.arvis_plan.step(self.connection, _describe(sql))  # type: ignore[attr-defined]
        return super().executemany(sql, parameters)


class _SqliteConnection(sqlite3.Connection):
    """``sqlite3.Connection`` whose cursors and commits report to the connection's plan."""

    arvis_plan: FaultPlan

    def cursor(self, factory: Any = _SqliteCursor) -> Any:
        return super().cursor(factory)

    def commit(self) -> None:
        self.arvis_plan.step(self, "COMMIT")
        super().commit()


@cache
def _psycopg_connection_class() -> Any:
    """``psycopg.Connection`` and ``psycopg.Cursor`` extended the same way (made on first use, so
    that the SQLite tests do not need psycopg)."""
    import psycopg

    class PgCursor(psycopg.Cursor[Any]):
        def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
            self.connection.arvis_plan.step(self.connection, _describe(query))  # type: ignore[attr-defined]
            return super().execute(query, params, **options)

        def executemany(self, query: Any, params_seq: Any, **options: Any) -> None:
            self.connection.arvis_plan.step(self.connection, _describe(query))  # type: ignore[attr-defined]
            super().executemany(query, params_seq, **options)

    class PgConnection(psycopg.Connection[Any]):
        arvis_plan: FaultPlan

        def commit(self) -> None:
            self.arvis_plan.step(self, "COMMIT")
            super().commit()

    PgConnection.arvis_cursor_class = PgCursor  # type: ignore[attr-defined]
    return PgConnection


def inject(engine: Engine, plan: FaultPlan) -> Engine:
    """Make every new DBAPI connection of ``engine`` report to ``plan`` (through SQLAlchemy's
    ``do_connect`` event; the engine's own ``connect`` set-up still runs on it). Call before the
    engine's first connection."""

    @event.listens_for(engine, "do_connect")
    def _connect(dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        driver = dialect.loaded_dbapi
        if dialect.name == "sqlite":
            connection = driver.connect(*cargs, **{**cparams, "factory": _SqliteConnection})
        elif dialect.driver == "psycopg":
            connection_class = _psycopg_connection_class()
            connection = connection_class.connect(*cargs, **cparams)
            connection.cursor_factory = connection_class.arvis_cursor_class
        else:
            raise NotImplementedError(f"no fault injection for {dialect.name}+{dialect.driver}")
        return plan.attach(connection, driver)

    return engine


# --------------------------------------------------------------------------------------------------
# what the writer processes call


def acknowledged_bytes(result: SyscallResult) -> bytes:
    """The result bytes the journal must hold for an acknowledged result, from the result alone (for a
    read journaled by reference, what its stored form expands to: ``tools.audit.pieces.expanded_result``)."""
    return canonical_bytes_of_own(result.journal_payload())


_TEXTS = [
    "The user lives in Paris",
    "The user lives in Berlin",
    "The user prefers tea",
    "The user prefers coffee",
    "Never share the user's data",
    "The meeting is on Monday",
    "The meeting is on Friday",
]
_KEYS = ["language", "timezone", "tone_style", "topic", "city", "diet"]
_MEMORY_TYPES = ["preference", "context", "style"]


def mixed_calls(rng: random.Random, writer: int) -> Iterator[tuple[str, dict[str, Any], str]]:
    """An endless mix of long-term writes (new, replacing, conflicting), revokes, reads, and
    working-memory calls on a context shared by every writer and one of the writer's own (format 2: an
    administrator grants each writer's agent read and write on the shared context; its own is named after
    it, so it may create it and owns it)."""
    agent = f"agent:w{writer}"
    own = f"{agent}/ctx"
    for capability in ("read", "write"):
        yield (
            "access.grant",
            {"principal": agent, "capability": capability, "scope": "context:shared"},
            "operator:faults",
        )
    yield ("memory.awmu.create", {"context_id": "shared"}, agent)  # only the first writer's succeeds
    yield ("memory.awmu.create", {"context_id": own}, agent)
    while True:
        roll = rng.random()
        user = rng.choice(["u1", "u2", f"w{writer}"])
        key = rng.choice(_KEYS)
        if roll < 0.30:
            args: dict[str, Any] = {
                "user_id": user,
                "key": key,
                "memory_type": rng.choice(_MEMORY_TYPES),
                "source": "explicit_user",
                "value_ref": f"w{writer}-{rng.randrange(1000)}",
            }
            if rng.random() < 0.6:
                args["replace"] = True
            yield ("memory.write", args, f"user:{user}")
        elif roll < 0.37:
            yield ("memory.revoke", {"user_id": user, "key": key}, f"user:{user}")
        elif roll < 0.50:
            yield ("memory.get", {"user_id": user, "key": key}, f"user:{user}")
        elif roll < 0.55:
            yield ("memory.snapshot", {"user_id": user}, f"user:{user}")
        elif roll < 0.58:
            yield ("memory.list", {"user_id": user, "include_inactive": True}, f"user:{user}")
        elif roll < 0.80:
            context = rng.choice(["shared", own])
            yield (
                "memory.awmu.propose",
                {
                    "context_id": context,
                    "text": rng.choice(_TEXTS),
                    "source": rng.choice(["user", "system"]),
                    "confidence": rng.choice([0.3, 0.65, 0.9]),
                },
                agent,
            )
        elif roll < 0.88:
            yield ("memory.awmu.turn", {"context_id": rng.choice(["shared", own])}, agent)
        elif roll < 0.94:
            yield (
                "memory.awmu.assemble",
                {"context_id": rng.choice(["shared", own]), "token_budget": 40},
                agent,
            )
        else:
            yield ("memory.awmu.list", {"context_id": rng.choice(["shared", own]), "status": "all"}, agent)


@dataclass(frozen=True)
class WriterReport:
    """What one writer of the concurrency test saw: every acknowledged (seq, result bytes) in the
    order the calls returned, the codes of the unacknowledged ones, and any exception (must be none)."""

    writer: int
    calls: int
    acknowledged: list[tuple[int, bytes]]
    unacknowledged: list[tuple[str, str]]
    exceptions: list[str]


_START: Any = None
_OPEN_ONE_AT_A_TIME: Any = None


def set_start_barrier(barrier: Any, open_lock: Any = None) -> None:
    """Process-pool initializer: the barrier every writer waits at before its first call, and, when
    given, a lock that makes the writers open the journal one at a time (before the barrier)."""
    global _START, _OPEN_ONE_AT_A_TIME
    _START, _OPEN_ONE_AT_A_TIME = barrier, open_lock


def open_writer_kernel(target: str, **engine_options: Any) -> Kernel:
    """A kernel on the shared journal with the wall clock, as a deployed writer would have."""
    clock = SystemClock()
    store = SqlJournalStore(open_engine(target, **engine_options), clock=clock)
    return Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),  # mixed_calls grants as operator:faults
    )


def pool_writer(target: str, writer: int, calls: int, seed: int, busy_timeout_ms: int) -> WriterReport:
    """One process of the concurrency test: ``calls`` mixed calls on the shared journal."""
    acknowledged: list[tuple[int, bytes]] = []
    unacknowledged: list[tuple[str, str]] = []
    exceptions: list[str] = []
    try:
        if _OPEN_ONE_AT_A_TIME is None:
            _START.wait(timeout=120)  # every writer opens and writes at once (the timeout: a safety net)
            kernel = open_writer_kernel(target, busy_timeout_ms=busy_timeout_ms)
        else:
            with _OPEN_ONE_AT_A_TIME:
                kernel = open_writer_kernel(target, busy_timeout_ms=busy_timeout_ms)
            _START.wait(timeout=120)
    except Exception as exc:
        return WriterReport(writer, 0, [], [], [f"open: {type(exc).__name__}: {exc}"])
    try:
        rng = random.Random(seed)
        for _, (name, args, principal) in zip(range(calls), mixed_calls(rng, writer), strict=False):
            try:
                result = kernel.call(name, args, principal=principal)
            except BaseException as exc:  # Kernel.call must never raise: recorded for the test to fail
                exceptions.append(f"{name}: {type(exc).__name__}: {exc}")
                continue
            if result.seq is not None:
                acknowledged.append((result.seq, acknowledged_bytes(result)))
            else:
                error = result.error
                unacknowledged.append((error.code, error.detail) if error else ("?", repr(result)))
    finally:
        kernel.close()
    return WriterReport(writer, calls, acknowledged, unacknowledged, exceptions)


def crash_writer(target: str, durability: str, seed: int, report: Pipe, threads: int = 1) -> None:
    """The process the crash test kills: opens the journal, says ``ready``, then calls for ever. Each
    acknowledged call is reported as ``(seq, entry hash, sha256 of the result bytes)`` before
    anything else is done; an unacknowledged one as ``("unacknowledged", code, detail)``. With
    ``threads`` > 1, that many threads share the kernel (their calls commit in groups) and report
    ``(seq, "", sha256 of the result bytes)``: a group's calls do not know their entry hashes."""
    kernel = open_writer_kernel(target, durability=Durability(durability))
    store = kernel.store
    assert isinstance(store, SqlJournalStore)
    report.send(("ready", os.getpid()))
    if threads > 1:
        _threaded_crash_writer(kernel, seed, report, threads)
        return
    rng = random.Random(seed)
    for name, args, principal in mixed_calls(rng, seed % 1000):
        result = kernel.call(name, args, principal=principal)
        if result.seq is not None:
            entry = store.last_entry
            assert entry is not None and entry.seq == result.seq
            report.send((result.seq, entry.entry_hash, sha256_hex(acknowledged_bytes(result))))
        else:
            error = result.error
            report.send(("unacknowledged", error.code if error else "?", error.detail if error else ""))


def _threaded_crash_writer(kernel: Kernel, seed: int, report: Pipe, threads: int) -> None:
    sending = threading.Lock()

    def work(number: int) -> None:
        rng = random.Random(seed + number)
        for name, args, principal in mixed_calls(rng, (seed + number) % 1000):
            result = kernel.call(name, args, principal=principal)
            with sending:
                if result.seq is not None:
                    report.send((result.seq, "", sha256_hex(acknowledged_bytes(result))))
                else:
                    error = result.error
                    report.send(
                        ("unacknowledged", error.code if error else "?", error.detail if error else "")
                    )

    workers = [threading.Thread(target=work, args=(number,), daemon=True) for number in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


@dataclass(frozen=True)
class AfterCrash:
    """What the crash test's check found in a journal after a kill (see :func:`check_after_crash`)."""

    journal_exists: bool
    lost: list[int]
    verified: bool
    divergence: str
    dense: bool
    entries: dict[int, tuple[str, str]]
    """Every entry as seq -> (entry hash, sha256 of the result bytes)."""


def _holds(stored: tuple[str, str] | None, reported: tuple[str, str]) -> bool:
    """Whether the journal's (entry hash, result hash) is what was reported ("" for an entry hash a
    threaded writer could not know)."""
    if stored is None:
        return False
    return stored[1] == reported[1] and reported[0] in ("", stored[0])


def check_after_crash(target: str, acknowledged: dict[int, tuple[str, str]]) -> AfterCrash:
    """The journal after a kill: which acknowledged calls are missing or different, whether the chain
    verifies and the stored state equals the replay (``verify_journal``), whether seq is dense. Runs
    in a process of its own while the crash test goes on with another file."""
    from journal.reader import JournalReader
    from tools.audit.pieces import expanded_result
    from tools.audit.replay import verify_journal

    if not os.path.exists(target):  # killed before the file was created (a reader never creates it)
        return AfterCrash(False, sorted(acknowledged), True, "", True, {})
    reader = JournalReader.open(target)
    try:
        if reader.header() is None:  # killed before the journal was created
            return AfterCrash(False, sorted(acknowledged), True, "", True, {})
        journal = {
            entry.seq: (entry.entry_hash, sha256_hex(expanded_result(reader.engine, entry)))
            for entry in reader.entries()
        }
        verdict = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    lost = sorted(seq for seq, found in acknowledged.items() if not _holds(journal.get(seq), found))
    return AfterCrash(
        journal_exists=True,
        lost=lost,
        verified=verdict.verified,
        divergence=str(verdict.divergence),
        dense=sorted(journal) == list(range(1, len(journal) + 1)),
        entries=journal,
    )

"""Benchmark: ``memory.write`` throughput with 1, 2, 4 and 8 concurrent writers.

Acknowledged calls per second (a result with a ``seq``), each writer writing new keys for users of its
own (no two writers touch the same user, so no write conflicts with another), for a fixed duration:

- SQLite at ``Durability.FULL`` and ``NORMAL``: writer threads sharing one kernel with group commit
  (``specs/durability.md`` §3.1), the same without group commit, and writer processes (spawned, started
  together at a barrier) each with a kernel of its own on the same file;
- PostgreSQL 15 with ``synchronous_commit = on`` (and ``fsync`` on), on a throwaway cluster started by
  ``scripts/pg-up`` as the test suite starts one (but durable): threads sharing one kernel, and processes.
  Skipped, with a note, where no server can be started;
- the ``eventsourcing`` library at FULL (its SQLite recorder, WAL) with 1 and 4 writer threads sharing
  one application, the peer of ``bench_write_full``;
- SQLite's own ceiling, no kernel: writer processes appending the raw reference's rows (``bench.reference``,
  the journal insert and the state upsert, chained on the head read under the write lock) to one file
  through ``sqlite3`` at FULL, and the same with each commit at NORMAL and the WAL fsynced after the
  write lock is released (a flush the processes could share; not the kernel's guarantee).

Every configuration at every writer count is one point; a repetition runs every point once, kernel
configurations interleaved with the peer, so drift of the machine falls on all alike; the figures are
medians. After each kernel run (not timed) the journal is checked: its seq dense from 1, and exactly
the acknowledged calls in it. Targets: SQLite FULL, threads with group commit, 4 writers ÷ 1 writer
>= 2.5; PostgreSQL, threads, 4 ÷ 1 >= 3; the kernel at FULL with 4 writer threads >= 2x eventsourcing
at FULL with 4 writer threads.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import subprocess
import tempfile
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.queues import Queue as ProcessQueue
from multiprocessing.synchronize import Barrier as ProcessBarrier
from pathlib import Path
from typing import Any, Literal
from uuid import UUID

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from bench.common import BenchResult, Series, scratch_dir
from bench.reference import RawJournal
from journal.engine import Durability, open_engine
from journal.migrate import upgrade_to_head
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from kernel.services import default_services
from syscalls.boot import open_kernel

__all__ = ["NAME", "WRITERS", "run"]

NAME = "concurrency"
WRITERS = (1, 2, 4, 8)
ES_WRITERS = (1, 4)
"""The writer counts of the eventsourcing peer (the target compares 4 writers; 1 is its own baseline)."""
USERS_PER_WRITER = 25
START_TIMEOUT_S = 300.0
"""How long the writers of a run may take to be ready (spawned processes import the kernel)."""

REPO = Path(__file__).resolve().parent.parent
PG_BIN = Path(os.environ.get("ARVIS_PG_BIN", "/usr/lib/postgresql/15/bin"))
PG_DURABLE = "-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
"""Unlike the test suite's throwaway cluster (fsync off): a commit here is acknowledged after the flush."""

Backend = Literal["sqlite", "postgres", "eventsourcing", "raw_sqlite"]
Mode = Literal["threads", "threads_no_group_commit", "processes", "processes_flush_after"]


def _sizes(quick: bool) -> tuple[float, int]:
    """Seconds per run, repetitions."""
    return (1.0, 2) if quick else (5.0, 5)


@dataclass(frozen=True)
class Config:
    """One configuration, measured at every writer count of ``WRITERS``."""

    key: str
    backend: Backend
    durability: Durability
    mode: Mode
    title: str
    target: float | None = None

    @property
    def name(self) -> str:
        return f"{NAME}_{self.key}"


SQLITE_FULL_THREADS = Config(
    "sqlite_full_threads",
    "sqlite",
    Durability.FULL,
    "threads",
    "SQLite FULL, writer threads sharing one kernel, group commit",
    target=2.5,
)
POSTGRES_THREADS = Config(
    "postgres_threads",
    "postgres",
    Durability.FULL,
    "threads",
    "PostgreSQL 15 (synchronous_commit on), writer threads sharing one kernel, group commit",
    target=3.0,
)
KERNEL_CONFIGS: tuple[Config, ...] = (
    SQLITE_FULL_THREADS,
    Config(
        "sqlite_full_threads_no_group_commit",
        "sqlite",
        Durability.FULL,
        "threads_no_group_commit",
        "SQLite FULL, writer threads sharing one kernel, group_commit=False",
    ),
    Config(
        "sqlite_full_processes",
        "sqlite",
        Durability.FULL,
        "processes",
        "SQLite FULL, writer processes, one kernel each on the same file",
    ),
    Config(
        "sqlite_normal_threads",
        "sqlite",
        Durability.NORMAL,
        "threads",
        "SQLite NORMAL, writer threads sharing one kernel, group commit",
    ),
    Config(
        "sqlite_normal_threads_no_group_commit",
        "sqlite",
        Durability.NORMAL,
        "threads_no_group_commit",
        "SQLite NORMAL, writer threads sharing one kernel, group_commit=False",
    ),
    Config(
        "sqlite_normal_processes",
        "sqlite",
        Durability.NORMAL,
        "processes",
        "SQLite NORMAL, writer processes, one kernel each on the same file",
    ),
    POSTGRES_THREADS,
    Config(
        "postgres_processes",
        "postgres",
        Durability.FULL,
        "processes",
        "PostgreSQL 15 (synchronous_commit on), writer processes, one kernel each",
    ),
)
RAW_CONFIGS: tuple[Config, ...] = (
    Config(
        "raw_sqlite_full_processes",
        "raw_sqlite",
        Durability.FULL,
        "processes",
        "raw sqlite3 at FULL, no kernel (the reference's journal insert and state upsert, chained on the "
        "head), writer processes on one file: SQLite's own ceiling on this machine",
    ),
    Config(
        "raw_sqlite_flush_after_processes",
        "raw_sqlite",
        Durability.FULL,
        "processes_flush_after",
        "raw sqlite3 as above, each commit at NORMAL and the WAL fsynced after the write lock is released "
        "(a flush shared by the processes; not the kernel's guarantee, specs/durability.md §3.1)",
    ),
)
EVENTSOURCING = Config(
    "eventsourcing_full_threads",
    "eventsourcing",
    Durability.FULL,
    "threads",
    "eventsourcing at FULL (SQLite recorder, WAL), writer threads sharing one application",
)
VERSUS_NAME = f"{NAME}_full_4_writers_vs_eventsourcing"


@dataclass
class Outcome:
    """One timed run: calls acknowledged, the wall time, and the calls not acknowledged, by code."""

    acknowledged: int
    elapsed: float
    unacknowledged: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.acknowledged / self.elapsed


def _write(writer: int, index: int) -> tuple[dict[str, str], str]:
    """The ``index``-th write of writer ``writer``: a new key for one of the writer's own users."""
    user = f"w{writer}-u{index % USERS_PER_WRITER}"
    args = {
        "user_id": user,
        "key": f"pref_{index}",
        "memory_type": "preference",
        "source": "explicit_user",
        "value_ref": f"vault://users/{user}/prefs/{index}",
    }
    return args, f"user:{user}"


def _tally(result: SyscallResult, seqs: list[int], failed: Counter[str]) -> None:
    """An acknowledged call's seq, or the code of a call that was not acknowledged; a journaled refusal
    is a fault of the benchmark (its writes never conflict) and stops it."""
    if result.seq is None:
        failed[result.error.code if result.error is not None else "unknown"] += 1
    elif not result.ok:
        raise RuntimeError(f"the kernel refused a benchmark write: {result.error}")
    else:
        seqs.append(result.seq)


def _open(target: str, durability: Durability, *, group_commit: bool = True) -> Kernel:
    # the semantic encoder is left unbound: memory.write never measures similarity
    return open_kernel(
        target, durability=durability, services=default_services(), group_commit=group_commit, create=True
    )


def verify_journal(target: str, acknowledged: list[int]) -> None:
    """The journal on ``target`` (fresh before the run) holds seq 1..n densely, and its n entries are
    exactly the acknowledged calls (one each): no acknowledged call lost, none counted twice."""
    engine = open_engine(target, read_only=True)
    try:
        with engine.connect() as connection:
            count, low, high = connection.execute(
                text("SELECT COUNT(*), MIN(seq), MAX(seq) FROM journal")
            ).one()
    finally:
        engine.dispose()
    count = int(count)
    dense = count == 0 or (int(low) == 1 and int(high) == count)
    if not dense:
        raise RuntimeError(f"journal seq not dense: {count} entries, seq {low}..{high}")
    if count != len(acknowledged) or sorted(acknowledged) != list(range(1, count + 1)):
        raise RuntimeError(
            f"journal holds {count} entries, {len(acknowledged)} calls acknowledged "
            f"({len(set(acknowledged))} distinct seqs)"
        )


# -- writer threads sharing one kernel ---------------------------------------------------------------


def kernel_threads(
    target: str, durability: Durability, writers: int, duration: float, *, group_commit: bool
) -> Outcome:
    """``writers`` threads calling one kernel for ``duration`` seconds (opening it is not timed)."""
    kernel = _open(target, durability, group_commit=group_commit)
    barrier = threading.Barrier(writers + 1)
    seqs: list[list[int]] = [[] for _ in range(writers)]
    failures: list[Counter[str]] = [Counter() for _ in range(writers)]
    errors: list[str] = []
    deadline = [0.0]

    def work(writer: int) -> None:
        try:
            barrier.wait(timeout=START_TIMEOUT_S)
            stop, mine, failed, call = deadline[0], seqs[writer], failures[writer], kernel.call
            index = 0
            while time.perf_counter() < stop:
                args, principal = _write(writer, index)
                _tally(call("memory.write", args, principal=principal), mine, failed)
                index += 1
        except BaseException:
            errors.append(traceback.format_exc())

    threads = [threading.Thread(target=work, args=(writer,), daemon=True) for writer in range(writers)]
    try:
        for thread in threads:
            thread.start()
        started = time.perf_counter()
        deadline[0] = started + duration
        barrier.wait(timeout=START_TIMEOUT_S)
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    finally:
        kernel.close()
    if errors:
        raise RuntimeError(f"a writer thread failed:\n{errors[0]}")
    acknowledged = [seq for mine in seqs for seq in mine]
    verify_journal(target, acknowledged)
    return Outcome(len(acknowledged), elapsed, sum(failures, Counter()))


# -- writer processes, one kernel each ----------------------------------------------------------------


def _serve_writer(
    writer: int,
    duration: float,
    barrier: ProcessBarrier,
    reports: ProcessQueue[dict[str, Any]],
    start: Callable[[], Any],
    write: Callable[[Any, int, list[int], Counter[str]], None],
) -> None:
    """The body of one writer process: ``start()`` opens what it writes with (before the barrier, and is
    closed at the end), then ``write(opened, index, seqs, failed)`` until the deadline; the seqs
    acknowledged, the calls not, and the times are reported (or the error, and the barrier aborted)."""
    try:
        opened = start()
    except BaseException:
        barrier.abort()
        reports.put({"writer": writer, "error": traceback.format_exc()})
        return
    try:
        barrier.wait(timeout=START_TIMEOUT_S)
        started = time.monotonic()
        stop = started + duration
        seqs: list[int] = []
        failed: Counter[str] = Counter()
        index = 0
        while time.monotonic() < stop:
            write(opened, index, seqs, failed)
            index += 1
        ended = time.monotonic()
        reports.put(
            {"writer": writer, "seqs": seqs, "failed": dict(failed), "started": started, "ended": ended}
        )
    except BaseException:
        barrier.abort()
        reports.put({"writer": writer, "error": traceback.format_exc()})
    finally:
        opened.close()


def _process_writer(
    target: str,
    durability: Durability,
    writer: int,
    duration: float,
    barrier: ProcessBarrier,
    reports: ProcessQueue[dict[str, Any]],
) -> None:
    """One writer process: its own kernel (opened before the barrier), writes until its deadline."""

    def write(kernel: Kernel, index: int, seqs: list[int], failed: Counter[str]) -> None:
        args, principal = _write(writer, index)
        _tally(kernel.call("memory.write", args, principal=principal), seqs, failed)

    _serve_writer(writer, duration, barrier, reports, lambda: _open(target, durability), write)


def _run_processes(
    writer: Callable[..., None], arguments: tuple[Any, ...], target: str, writers: int, duration: float
) -> tuple[list[int], float, Counter[str]]:
    """``writers`` spawned processes running ``writer(*arguments, index, duration, barrier, reports)``,
    released together: the seqs they acknowledged, the wall time from the release to the last writer's
    last acknowledgement (CLOCK_MONOTONIC is one clock for every process of the machine), and the calls
    not acknowledged; the journal on ``target`` is checked to hold exactly the acknowledged seqs."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(writers + 1)
    reports: ProcessQueue[dict[str, Any]] = context.Queue()
    processes = [
        context.Process(target=writer, args=(*arguments, index, duration, barrier, reports), daemon=True)
        for index in range(writers)
    ]
    for process in processes:
        process.start()
    received: list[dict[str, Any]] = []
    try:
        with suppress(threading.BrokenBarrierError):  # a writer failed to start: its report says why
            barrier.wait(timeout=START_TIMEOUT_S)
        released = time.monotonic()
        for _ in processes:
            try:
                received.append(reports.get(timeout=START_TIMEOUT_S + duration))
            except queue.Empty:
                break
    finally:
        for process in processes:
            process.join(timeout=60)
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join()
        reports.close()
    failures = [report["error"] for report in received if "error" in report]
    if failures or len(received) != writers:
        detail = failures[0] if failures else f"{len(received)} of {writers} writers reported"
        raise RuntimeError(f"a writer process failed:\n{detail}")
    acknowledged = [seq for report in received for seq in report["seqs"]]
    began = min([released, *(float(report["started"]) for report in received)])
    ended = max(float(report["ended"]) for report in received)
    verify_journal(target, acknowledged)
    failed: Counter[str] = Counter()
    for report in received:
        failed.update(report["failed"])
    return acknowledged, ended - began, failed


def kernel_processes(target: str, durability: Durability, writers: int, duration: float) -> Outcome:
    """``writers`` spawned processes, each with a kernel of its own on ``target``, released together."""
    _open(target, durability).close()  # created and migrated once, before the writers open it
    acknowledged, elapsed, failed = _run_processes(
        _process_writer, (target, durability), target, writers, duration
    )
    return Outcome(len(acknowledged), elapsed, failed)


# -- SQLite's own ceiling: the kernel's rows through raw sqlite3, one connection per process -----------


def _raw_process_writer(
    path: str,
    flush_after: bool,
    writer: int,
    duration: float,
    barrier: ProcessBarrier,
    reports: ProcessQueue[dict[str, Any]],
) -> None:
    """One writer process of ``raw_processes``: the reference's journal insert and state upsert per call,
    chained on the head it reads under the write lock."""

    def write(raw: RawJournal, index: int, seqs: list[int], failed: Counter[str]) -> None:
        args, principal = _write(writer, index)
        seqs.append(raw.write_at_head("memory.write", args, principal, flush_after=flush_after))

    def start() -> RawJournal:
        return RawJournal(Path(path), synchronous="NORMAL" if flush_after else "FULL")

    _serve_writer(writer, duration, barrier, reports, start, write)


def raw_processes(path: str, writers: int, duration: float, *, flush_after: bool) -> Outcome:
    """``writers`` processes appending the kernel's rows to one SQLite file through raw ``sqlite3``, each
    commit at FULL, or (``flush_after``) at NORMAL with the WAL fsynced after the write lock is released:
    what SQLite itself allows many processes on one file at FULL, and what moving the flush out of the
    lock would buy (the kernel does not: a reader could see an entry a crash can still take back)."""
    RawJournal(Path(path)).close()  # the schema, once, before the writers open it
    acknowledged, elapsed, failed = _run_processes(
        _raw_process_writer, (path, flush_after), path, writers, duration
    )
    return Outcome(len(acknowledged), elapsed, failed)


# -- the eventsourcing peer ---------------------------------------------------------------------------


def eventsourcing_threads(path: Path, writers: int, duration: float) -> Outcome:
    """``writers`` threads sharing one eventsourcing application on a fresh SQLite file (WAL, FULL):
    per call one domain event on the writer's own user's aggregate and ``Application.save`` (one
    transaction). The aggregates are created and saved before the timed part."""
    from eventsourcing.application import Application
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    from bench.bench_write_full import UserMemory

    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    application: Application[UUID] = Application(env=env)
    try:
        recorder = application.recorder
        if not isinstance(recorder, SQLiteApplicationRecorder):
            raise RuntimeError(f"eventsourcing is not on its SQLite recorder: {type(recorder).__name__}")
        datastore = recorder.datastore
        with datastore.transaction(commit=False) as cursor:
            cursor.execute("PRAGMA synchronous")
            synchronous = int(cursor.fetchone()[0])
            cursor.execute("PRAGMA journal_mode")
            mode = str(cursor.fetchone()[0])
        if synchronous != 2 or mode.lower() != "wal":
            raise RuntimeError(f"eventsourcing runs with synchronous={synchronous}, journal_mode={mode}")
        aggregates = [
            {f"w{writer}-u{user}": UserMemory(f"w{writer}-u{user}") for user in range(USERS_PER_WRITER)}
            for writer in range(writers)
        ]
        application.save(*(aggregate for mine in aggregates for aggregate in mine.values()))
        barrier = threading.Barrier(writers + 1)
        saved = [0] * writers
        failures: list[Counter[str]] = [Counter() for _ in range(writers)]
        errors: list[str] = []
        deadline = [0.0]

        def work(writer: int) -> None:
            try:
                barrier.wait(timeout=START_TIMEOUT_S)
                stop, mine, failed = deadline[0], aggregates[writer], failures[writer]
                index = 0
                while time.perf_counter() < stop:
                    args, principal = _write(writer, index)
                    aggregate = mine[args["user_id"]]
                    aggregate.write(
                        key=args["key"],
                        memory_type=args["memory_type"],
                        source=args["source"],
                        value_ref=args["value_ref"],
                        principal=principal,
                    )
                    index += 1
                    try:
                        application.save(aggregate)
                    except Exception as exc:
                        failed[type(exc).__name__] += 1
                    else:
                        saved[writer] += 1
            except BaseException:
                errors.append(traceback.format_exc())

        threads = [threading.Thread(target=work, args=(writer,), daemon=True) for writer in range(writers)]
        for thread in threads:
            thread.start()
        started = time.perf_counter()
        deadline[0] = started + duration
        barrier.wait(timeout=START_TIMEOUT_S)
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        if errors:
            raise RuntimeError(f"an eventsourcing writer thread failed:\n{errors[0]}")
        with datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT COUNT(*) FROM stored_events")
            stored = int(cursor.fetchone()[0])
        created = writers * USERS_PER_WRITER
        if stored != created + sum(saved):
            raise RuntimeError(f"eventsourcing stored {stored - created} events, {sum(saved)} acknowledged")
    finally:
        application.close()
    return Outcome(sum(saved), elapsed, sum(failures, Counter()))


# -- PostgreSQL ---------------------------------------------------------------------------------------


class Postgres:
    """A throwaway PostgreSQL cluster started by ``scripts/pg-up`` (as ``tests/pg_cluster.py`` does,
    but with fsync and synchronous_commit on), a template database migrated once, and a fresh database
    from it per run."""

    def __init__(self, url: str, directory: Path) -> None:
        self.url = url
        self.directory = directory
        self.admin: Engine = create_engine(
            make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool
        )
        self.template = f"arvis_bench_template_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{self.template}"'))
            self.settings = {
                name: str(connection.execute(text(f"SHOW {name}")).scalar_one())
                for name in ("server_version", "fsync", "synchronous_commit", "full_page_writes")
            }
        engine = open_engine(self._url_of(self.template))
        try:
            upgrade_to_head(engine)
        finally:
            engine.dispose()

    def _url_of(self, database: str) -> str:
        return make_url(self.url).set(database=database).render_as_string(hide_password=False)

    @contextmanager
    def fresh(self) -> Iterator[str]:
        name = f"arvis_bench_{uuid.uuid4().hex[:16]}"
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'))
        try:
            yield self._url_of(name)
        finally:
            with self.admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def stop(self) -> None:
        try:
            with self.admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)'))
        finally:
            self.admin.dispose()
            _pg_down(self.directory)


def _pg_down(directory: Path) -> None:
    subprocess.run(
        [str(REPO / "scripts" / "pg-down"), str(directory)],
        env={**os.environ, "ARVIS_PG_BIN": str(PG_BIN)},
        capture_output=True,
        check=False,
        timeout=300,
    )


@contextmanager
def postgres() -> Iterator[tuple[Postgres | None, str]]:
    """The cluster, or None and why none could be started."""
    if not all((PG_BIN / name).is_file() for name in ("initdb", "pg_ctl", "postgres", "psql")):
        yield None, f"no PostgreSQL server binaries in {PG_BIN} (install postgresql-15 or set ARVIS_PG_BIN)"
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        yield None, "the psycopg driver is not installed"
        return
    directory = Path(tempfile.mkdtemp(prefix="arvis-pg-bench-", dir="/tmp"))
    server: Postgres | None = None
    try:
        done = subprocess.run(
            [str(REPO / "scripts" / "pg-up"), str(directory)],
            env={**os.environ, "ARVIS_PG_BIN": str(PG_BIN), "ARVIS_PG_OPTS": PG_DURABLE},
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        if done.returncode != 0:
            yield None, f"scripts/pg-up failed ({done.returncode}): {done.stderr.strip()[-500:]}"
            return
        server = Postgres(done.stdout.strip().splitlines()[-1], directory)
        if server.settings["fsync"] != "on" or server.settings["synchronous_commit"] != "on":
            raise RuntimeError(f"the PostgreSQL server is not durable: {server.settings}")
        yield server, ""
    finally:
        if server is not None:
            server.stop()
        else:
            _pg_down(directory)


# -- the schedule -------------------------------------------------------------------------------------

Measure = Callable[[float], Outcome]
Point = tuple[Config, int, Measure]


def _points(directory: Path, server: Postgres | None) -> list[Point]:
    """Every (configuration, writers) point, in the order a repetition runs them: each configuration at
    every writer count in turn (so that its 1 and 4 writers run close in time), the eventsourcing peer
    right after the kernel's FULL threads at the same writer count; every other repetition reverses it."""
    counter = iter(range(1_000_000_000))

    def sqlite_file() -> str:
        return str(directory / f"kernel-{next(counter)}.db")

    def kernel_point(config: Config, writers: int) -> Measure:
        def measure(duration: float) -> Outcome:
            if config.backend == "postgres":
                assert server is not None
                with server.fresh() as url:
                    return _kernel_run(config, url, writers, duration)
            path = sqlite_file()
            try:
                return _kernel_run(config, path, writers, duration)
            finally:
                for suffix in ("", "-wal", "-shm", ".admin-key"):
                    Path(path + suffix).unlink(missing_ok=True)

        return measure

    def peer_point(writers: int) -> Measure:
        def measure(duration: float) -> Outcome:
            path = directory / f"eventsourcing-{next(counter)}.db"
            try:
                return eventsourcing_threads(path, writers, duration)
            finally:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(path) + suffix).unlink(missing_ok=True)

        return measure

    points: list[Point] = []
    for config in (*KERNEL_CONFIGS, *RAW_CONFIGS):
        if config.backend == "postgres" and server is None:
            continue
        for writers in WRITERS:
            points.append((config, writers, kernel_point(config, writers)))
            if config is SQLITE_FULL_THREADS and writers in ES_WRITERS:
                points.append((EVENTSOURCING, writers, peer_point(writers)))
    return points


def _kernel_run(config: Config, target: str, writers: int, duration: float) -> Outcome:
    if config.backend == "raw_sqlite":
        return raw_processes(target, writers, duration, flush_after=config.mode == "processes_flush_after")
    if config.mode == "processes":
        return kernel_processes(target, config.durability, writers, duration)
    return kernel_threads(target, config.durability, writers, duration, group_commit=config.mode == "threads")


def _warm_up(points: list[Point]) -> None:
    """One short untimed run of each kind at 2 writers (imports, page cache, the PostgreSQL template)."""
    seen: set[tuple[Backend, Mode]] = set()
    for config, writers, measure in points:
        if writers == 2 and (config.backend, config.mode) not in seen:
            seen.add((config.backend, config.mode))
            measure(0.3)


# -- results ------------------------------------------------------------------------------------------


def _figure(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def _by_writers(config: Config, outcomes: dict[tuple[str, int], list[Outcome]]) -> dict[int, Series]:
    counts = ES_WRITERS if config is EVENTSOURCING else WRITERS
    return {
        writers: Series(tuple(outcome.rate for outcome in outcomes[(config.key, writers)]), "calls/s")
        for writers in counts
    }


def _writers_note(series: dict[int, Series]) -> str:
    parts = [
        f"{writers}: {_figure(found.median)} ({_figure(found.minimum)}-{_figure(found.maximum)})"
        for writers, found in series.items()
    ]
    one = series[1].median
    ratios = ", ".join(
        f"{writers}÷1 {found.median / one:.2f}" for writers, found in series.items() if writers > 1
    )
    return f"acknowledged calls/s by writers, median (min-max): {'; '.join(parts)}; {ratios}"


def _unacknowledged_note(config: Config, outcomes: dict[tuple[str, int], list[Outcome]]) -> str:
    counts = ES_WRITERS if config is EVENTSOURCING else WRITERS
    parts = []
    for writers in counts:
        total: Counter[str] = sum(
            (outcome.unacknowledged for outcome in outcomes[(config.key, writers)]), Counter()
        )
        if total:
            codes = ", ".join(f"{code} {count}" for code, count in sorted(total.items()))
            parts.append(f"{writers} writers: {codes}")
    if not parts:
        return "every call acknowledged (no storage_busy or other unacknowledged result) in every run"
    return "calls not acknowledged (excluded from the figures; summed over the runs): " + "; ".join(parts)


def _common_notes(duration: float, repetitions: int, loads: list[float]) -> list[str]:
    return [
        f"this machine has {os.cpu_count()} CPU cores, shared with other work: writers beyond that "
        "contend for the cores (and the GIL, for threads), so whatever is bound by CPU rather than by "
        "the flush cannot scale with writers here; that is what it is",
        f"each run {duration:g} s on a fresh database, {repetitions} repetitions of every point "
        "(configurations and the peer interleaved), medians; each writer writes new keys for "
        f"{USERS_PER_WRITER} users of its own (no conflicts); opening kernels and starting writers "
        "is not timed",
        "after every run of the kernel or of raw sqlite3 (not timed): journal seq dense from 1 and entries "
        "= acknowledged calls, each acknowledged seq once",
        "1-minute load average at the start of each repetition and at the end: "
        + ", ".join(f"{load:.2f}" for load in loads)
        + " (other work shares the cores and the disk: the flush of FULL, and so its figures, vary with it)",
    ]


def _results(
    outcomes: dict[tuple[str, int], list[Outcome]],
    measured: list[Config],
    duration: float,
    repetitions: int,
    pg_note: str,
    loads: list[float],
) -> list[BenchResult]:
    common = _common_notes(duration, repetitions, loads)
    results: list[BenchResult] = []
    for config in measured:
        series = _by_writers(config, outcomes)
        notes = [_writers_note(series), _unacknowledged_note(config, outcomes), *common]
        if config.mode in ("processes", "processes_flush_after"):
            opening = "its own sqlite3 connection" if config.backend == "raw_sqlite" else "its kernel"
            notes.append(
                f"processes started with multiprocessing (spawn), each opening {opening}, released "
                "together at a barrier; timed from the release to the last writer's last acknowledgement"
            )
        if config.backend == "postgres" or config is SQLITE_FULL_THREADS:
            notes.append(pg_note)
        results.append(
            BenchResult(
                name=config.name,
                title=f"memory.write throughput, {config.title}",
                kernel_label="4 writers",
                kernel=series[4],
                baseline_label="1 writer",
                baseline=series[1],
                ratio=series[4].median / series[1].median,
                ratio_means="acknowledged calls/s with 4 writers ÷ with 1 writer",
                target=config.target,
                notes=notes,
                extra={
                    "by_writers": {str(writers): found.to_json() for writers, found in series.items()},
                    "seconds_per_run": duration,
                },
            )
        )
    kernel = _by_writers(SQLITE_FULL_THREADS, outcomes)
    peer = _by_writers(EVENTSOURCING, outcomes)
    results.append(
        BenchResult(
            name=VERSUS_NAME,
            title="memory.write at FULL with 4 writer threads against eventsourcing with 4 writer threads",
            kernel_label="4 threads sharing one kernel (group commit), SQLite WAL FULL",
            kernel=kernel[4],
            baseline_label="eventsourcing, 4 threads sharing one Application (SQLite recorder, WAL, FULL)",
            baseline=peer[4],
            ratio=kernel[4].median / peer[4].median,
            ratio_means="kernel calls/s ÷ eventsourcing events/s, 4 writers each",
            target=2.0,
            notes=[
                f"eventsourcing {_writers_note(peer)}",
                _unacknowledged_note(EVENTSOURCING, outcomes),
                f"with 1 writer each: kernel {_figure(kernel[1].median)}, eventsourcing "
                f"{_figure(peer[1].median)} calls/s, ratio {kernel[1].median / peer[1].median:.2f}",
                "eventsourcing's connections checked: journal_mode=wal, synchronous=2 (FULL); its "
                "aggregates (one per user) are created and saved before the timed part; its writes are "
                "serialised by its connection pool's writer lock, one transaction and one fsync per event",
                *common,
            ],
            extra={
                "kernel_by_writers": {str(writers): found.to_json() for writers, found in kernel.items()},
                "eventsourcing_by_writers": {
                    str(writers): found.to_json() for writers, found in peer.items()
                },
            },
        )
    )
    return results


def run(quick: bool = False) -> list[BenchResult]:
    duration, repetitions = _sizes(quick)
    with scratch_dir(NAME) as directory, postgres() as (server, why_not):
        if server is None:
            pg_note = f"PostgreSQL: SKIPPED, no server could be started: {why_not}"
        else:
            settings = server.settings
            pg_note = (
                f"PostgreSQL {settings['server_version']}: a throwaway cluster started by scripts/pg-up on a "
                f"unix socket, databases in /tmp, fsync={settings['fsync']}, synchronous_commit="
                f"{settings['synchronous_commit']}, full_page_writes={settings['full_page_writes']}; "
                "kernels at Durability.FULL (synchronous_commit on per session); a fresh database per run"
            )
        points = _points(directory, server)
        _warm_up(points)
        outcomes: dict[tuple[str, int], list[Outcome]] = {
            (config.key, writers): [] for config, writers, _ in points
        }
        loads: list[float] = []
        for repetition in range(repetitions):
            began = time.perf_counter()
            loads.append(os.getloadavg()[0])
            for config, writers, measure in points if repetition % 2 == 0 else points[::-1]:
                outcomes[(config.key, writers)].append(measure(duration))
            print(
                f"   {NAME}: repetition {repetition + 1}/{repetitions}, {len(points)} runs, "
                f"{time.perf_counter() - began:.0f} s",
                flush=True,
            )
        loads.append(os.getloadavg()[0])
    measured = [
        config
        for config in (*KERNEL_CONFIGS, *RAW_CONFIGS)
        if config.backend != "postgres" or server is not None
    ]
    return _results(outcomes, measured, duration, repetitions, pg_note, loads)


def _table(results: list[BenchResult]) -> str:
    lines = ["| configuration | " + " | ".join(f"{w} writers" for w in WRITERS) + " | 4÷1 | target | met |"]
    for result in results:
        by = result.extra.get("by_writers")
        if by is None:
            continue
        cells = " | ".join(_figure(by[str(w)]["median"]) for w in WRITERS)
        lines.append(
            f"| {result.name} | {cells} | {result.ratio or 0:.2f} | {result.target_text()} "
            f"| {result.met_text()} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 s runs, 2 repetitions")
    options = parser.parse_args()
    found = run(options.quick)
    for result in found:
        print(result.report(), flush=True)
    print(_table(found))

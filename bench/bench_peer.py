"""Peer benchmark: the arvis kernel against LangGraph's own SQLite persistence, ``SqliteStore`` (long-term
memory) and ``SqliteSaver`` (a thread's checkpoints), from ``langgraph-checkpoint-sqlite``.

Both sides run on SQLite files in WAL mode at the same ``synchronous`` level (``SYNCHRONOUS``: the kernel
opened with that durability, the peer's ``sqlite3`` connections set to it by PRAGMA, and both read back
before anything is timed). Each measurement alternates the kernel's repetitions with the peer's in this
one process run (after one untimed warm-up of each); figures are medians; every ratio is kernel ÷ peer,
so lower is better for the kernel:

1. single writes: ``memory.write`` through ``Kernel.call`` against ``SqliteStore.put``;
2. bulk writes: ``Kernel.call_many`` against ``SqliteStore.batch`` of ``PutOp``;
3. get: ``memory.get`` against ``SqliteStore.get`` (target <= 2);
4. list: ``memory.list`` and ``memory.snapshot`` of a user of 10,000 entries against ``SqliteStore.search``
   with ``limit=10_000``;
5. history: a LangGraph thread of 2,000 checkpoints listed through ``ArvisCheckpointSaver`` against
   ``SqliteSaver.list``;
6. state at a middle point (target <= 10): ``ArvisCheckpointSaver.get_tuple`` against
   ``SqliteSaver.get_tuple`` of the same graph's middle checkpoint (what LangGraph's ``get_state`` reads);
   a user's memory at a middle point, ``tools.audit.timetravel.snapshot_at`` (one query, version columns)
   against ``SqliteSaver.get_tuple`` of a graph holding the same entries in its state; and, unlike for
   like, ``snapshot_at`` (and ``state_at``) at seq N/2 of a journal of N writes against
   ``SqliteSaver.get_tuple`` of the counting thread's middle checkpoint;
7. database size after one workload (10,000 writes, 8,000 gets, 17 snapshots and 8 lists of one user) on
   both sides, after ``PRAGMA wal_checkpoint(TRUNCATE)`` (target <= 2);
8. database size after the graph workload of 5 and 6 (the counting thread of 2,000 checkpoints, nothing
   else) through ``ArvisCheckpointSaver`` and through ``SqliteSaver`` (target <= 3, issue 52).

``python -m bench.bench_peer [--quick]`` runs it alone; ``python -m bench.run --only peer`` with the rest.
"""

from __future__ import annotations

import argparse
import itertools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import PutOp
from langgraph.store.sqlite import SqliteStore

from bench.common import BenchResult, ProfileJob, Series, alternate, scratch_dir, timed, write_args
from bench.sql_floor import Statement, copy_database, recorded_calls, replayed_seconds, split_calls
from integrations.langgraph import ArvisCheckpointSaver
from journal.engine import Durability
from journal.reader import JournalReader
from journal.store import SqlJournalStore
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from tools.audit.timetravel import snapshot_at, state_at

__all__ = [
    "DB_SIZE_NAME",
    "GET_NAME",
    "GRAPH_AT_NAME",
    "GRAPH_SIZE_NAME",
    "MEMORY_AT_NAME",
    "NAME",
    "SNAPSHOT_AT_NAME",
    "STATE_AT_NAME",
    "SYNCHRONOUS",
    "Sizes",
    "profile_setup_get",
    "profile_setup_snapshot_at",
    "profile_setup_state_at",
    "run",
    "sizes",
]

NAME = "peer"
WRITE_NAME = "peer_write"
BULK_NAME = "peer_bulk_write"
GET_NAME = "peer_get"
LIST_NAME = "peer_list"
SNAPSHOT_NAME = "peer_snapshot"
HISTORY_NAME = "peer_history"
SNAPSHOT_AT_NAME = "peer_snapshot_at_middle"
STATE_AT_NAME = "peer_state_at_middle"
GRAPH_AT_NAME = "peer_graph_state_at_middle"
MEMORY_AT_NAME = "peer_memory_at_middle"
DB_SIZE_NAME = "peer_db_size"
GRAPH_SIZE_NAME = "peer_graph_db_size"

SYNCHRONOUS = Durability.NORMAL
"""The ``synchronous`` level of both sides: the kernel's durability, and the PRAGMA set on every
connection of the peer (``Durability.FULL`` here makes both sides FULL)."""

_SYNCHRONOUS_CODE = {Durability.OFF: 0, Durability.NORMAL: 1, Durability.FULL: 2}

GET_TARGET = 2.0
STATE_TARGET = 10.0
SIZE_TARGET = 2.0
GRAPH_SIZE_TARGET = 3.0

USER = "user-0"
READER = f"user:{USER}"  # the user reads their own memory
AGENT = "agent:planner"  # who runs the graph on the kernel's checkpointer
THREAD: RunnableConfig = {"configurable": {"thread_id": "peer-bench"}}
_counter = itertools.count()


@dataclass(frozen=True)
class Sizes:
    """Every size of the benchmark (``sizes(quick)``)."""

    repetitions: int
    single_writes: int  # writes per repetition, one transaction each
    bulk_batch: int  # writes per batch
    bulk_batches: int  # batches per repetition
    entries: int  # entries of the user read by get, list, snapshot and search
    gets: int  # gets per repetition
    steps: int  # checkpoints of the LangGraph thread
    journal_writes: int  # N: writes of the journal whose middle (N // 2) is travelled to
    peer_state_calls: int  # get_tuple calls per peer sample (one is ~0.1 ms: the sample is their mean)
    size_writes: int
    size_gets: int
    size_snapshots: int
    size_lists: int
    size_repetitions: int


def sizes(quick: bool) -> Sizes:
    if quick:
        return Sizes(
            repetitions=3,
            single_writes=200,
            bulk_batch=500,
            bulk_batches=2,
            entries=1_000,
            gets=200,
            steps=200,
            journal_writes=200,
            peer_state_calls=20,
            size_writes=1_000,
            size_gets=800,
            size_snapshots=17,
            size_lists=8,
            size_repetitions=1,
        )
    return Sizes(
        repetitions=7,
        single_writes=2_000,
        bulk_batch=1_000,
        bulk_batches=10,
        entries=10_000,
        gets=2_000,
        steps=2_000,
        journal_writes=2_000,
        peer_state_calls=200,
        size_writes=10_000,
        size_gets=8_000,
        size_snapshots=17,
        size_lists=8,
        size_repetitions=5,
    )


# --- both sides: opening, durability, the workload ---------------------------------------------------


def _fresh(directory: Path, tag: str) -> Path:
    return directory / f"{tag}-{next(_counter)}.db"


def _open_kernel(path: Path) -> Kernel:
    return open_kernel(str(path), durability=SYNCHRONOUS, create=True)


def _kernel_pragmas(kernel: Kernel) -> tuple[int, str]:
    """``synchronous`` and ``journal_mode`` of the kernel's own connections."""
    if not isinstance(kernel.store, SqlJournalStore):
        raise RuntimeError("the kernel is not on a SQL journal store")
    with kernel.store.engine.connect() as connection:
        synchronous = int(connection.exec_driver_sql("PRAGMA synchronous").scalar_one())
        mode = str(connection.exec_driver_sql("PRAGMA journal_mode").scalar_one())
    return synchronous, mode.lower()


def _peer_pragmas(connection: sqlite3.Connection) -> tuple[int, str]:
    synchronous = int(connection.execute("PRAGMA synchronous").fetchone()[0])
    mode = str(connection.execute("PRAGMA journal_mode").fetchone()[0])
    return synchronous, mode.lower()


def _check_same_durability(kernel: Kernel, connection: sqlite3.Connection) -> None:
    expected = (_SYNCHRONOUS_CODE[SYNCHRONOUS], "wal")
    found = {"kernel": _kernel_pragmas(kernel), "peer": _peer_pragmas(connection)}
    if any(pragmas != expected for pragmas in found.values()):
        raise RuntimeError(f"the two sides do not run at synchronous={SYNCHRONOUS.value}, WAL: {found}")


def _peer_connection(path: Path, *, autocommit: bool) -> sqlite3.Connection:
    """A connection as LangGraph's ``from_conn_string`` opens it (``SqliteStore``: autocommit, its own
    BEGIN/COMMIT per batch; ``SqliteSaver``: Python's implicit transactions, a commit per operation), in
    WAL mode (``SqliteSaver.setup`` sets it too) at ``SYNCHRONOUS``."""
    if autocommit:
        connection = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    else:
        connection = sqlite3.connect(str(path), check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={SYNCHRONOUS.value}")
    return connection


@contextmanager
def _peer_store(path: Path) -> Iterator[tuple[SqliteStore, sqlite3.Connection]]:
    """LangGraph's ``SqliteStore`` (no vector index, no TTL) on a file at the benchmark's durability."""
    connection = _peer_connection(path, autocommit=True)
    try:
        store = SqliteStore(connection)
        store.setup()
        yield store, connection
    finally:
        connection.close()


def _namespace(user_id: str) -> tuple[str, ...]:
    return ("memories", user_id)


def _peer_put(index: int, *, users: int = 100) -> PutOp:
    """The peer's form of ``write_args(index, users=users)``: the same key under the user's namespace,
    its value the same fields the kernel's write carries (type, source, value reference)."""
    _, args, _ = write_args(index, users=users)
    return PutOp(
        namespace=_namespace(args["user_id"]),
        key=args["key"],
        value={"memory_type": args["memory_type"], "source": args["source"], "value_ref": args["value_ref"]},
    )


def _ok(result: SyscallResult, what: str) -> Any:
    if not result.ok:
        raise RuntimeError(f"{what} refused: {result.error}")
    return result.value


def _load_kernel(kernel: Kernel, first: int, count: int, *, users: int, batch: int = 1_000) -> None:
    """``count`` writes from the ``first``-th, through ``call_many`` in batches (not timed)."""
    for start in range(first, first + count, batch):
        results = kernel.call_many(
            write_args(index, users=users) for index in range(start, min(start + batch, first + count))
        )
        refused = [result.error for result in results if not result.ok]
        if refused:
            raise RuntimeError(f"the kernel refused a benchmark write: {refused[0]}")


def _load_peer(store: SqliteStore, first: int, count: int, *, users: int, batch: int = 1_000) -> None:
    for start in range(first, first + count, batch):
        store.batch(
            [_peer_put(index, users=users) for index in range(start, min(start + batch, first + count))]
        )


def _keys(count: int, entries: int) -> list[str]:
    """``count`` keys of the user's ``entries``, spread over them (a stride prime to the count)."""
    stride = next(step for step in (7_919, 104_729, 1) if entries % step != 0)
    return [f"pref_{(index * stride) % entries}" for index in range(count)]


def _kernel_get(kernel: Kernel, key: str) -> None:
    value = _ok(kernel.call("memory.get", {"user_id": USER, "key": key}, principal=READER), "memory.get")
    if value["entry"] is None:
        raise RuntimeError(f"memory.get found no entry for {key}")


def _peer_get(store: SqliteStore, key: str) -> None:
    if store.get(_namespace(USER), key) is None:
        raise RuntimeError(f"SqliteStore.get found no item for {key}")


def _kernel_list(kernel: Kernel, entries: int) -> None:
    value = _ok(kernel.call("memory.list", {"user_id": USER}, principal=READER), "memory.list")
    if value["count"] != entries:
        raise RuntimeError(f"memory.list gave {value['count']} entries, not {entries}")


def _kernel_snapshot(kernel: Kernel, entries: int) -> None:
    value = _ok(kernel.call("memory.snapshot", {"user_id": USER}, principal=READER), "memory.snapshot")
    if value["snapshot"]["total_entries"] != entries:
        raise RuntimeError(f"memory.snapshot holds {value['snapshot']['total_entries']}, not {entries}")


def _peer_search(store: SqliteStore, entries: int) -> None:
    found = store.search(_namespace(USER), limit=entries)
    if len(found) != entries:
        raise RuntimeError(f"SqliteStore.search gave {len(found)} items, not {entries}")


# --- 1, 2: writes ------------------------------------------------------------------------------------


def kernel_single_us(directory: Path, calls: int) -> float:
    """Microseconds per ``memory.write``, one ``Kernel.call`` (one transaction) each, on a fresh file."""
    kernel = _open_kernel(_fresh(directory, "kernel-write"))
    workload = [write_args(index) for index in range(calls)]
    call = kernel.call
    try:
        with timed() as elapsed:
            results = [call(name, args, principal=principal) for name, args, principal in workload]
    finally:
        kernel.close()
    for result in results:
        _ok(result, "memory.write")
    return elapsed[0] * 1e6 / calls


def peer_single_us(directory: Path, calls: int) -> float:
    """Microseconds per ``SqliteStore.put`` (one transaction each) on a fresh file."""
    workload = [_peer_put(index) for index in range(calls)]
    with _peer_store(_fresh(directory, "peer-write")) as (store, connection):
        put = store.put
        with timed() as elapsed:
            for op in workload:
                assert op.value is not None
                put(op.namespace, op.key, op.value)
        stored = connection.execute("SELECT COUNT(*) FROM store").fetchone()[0]
    if stored != calls:
        raise RuntimeError("SqliteStore lost writes")
    return elapsed[0] * 1e6 / calls


def kernel_bulk_us(directory: Path, batch: int, batches: int) -> float:
    """Microseconds per write of ``Kernel.call_many`` batches on a fresh file."""
    kernel = _open_kernel(_fresh(directory, "kernel-bulk"))
    workload = [
        [write_args(first + index) for index in range(batch)] for first in range(0, batch * batches, batch)
    ]
    try:
        with timed() as elapsed:
            results = [kernel.call_many(calls) for calls in workload]
    finally:
        kernel.close()
    for result in itertools.chain.from_iterable(results):
        _ok(result, "memory.write")
    return elapsed[0] * 1e6 / (batch * batches)


def peer_bulk_us(directory: Path, batch: int, batches: int) -> float:
    """Microseconds per write of ``SqliteStore.batch`` of ``PutOp`` on a fresh file."""
    workload = [
        [_peer_put(first + index) for index in range(batch)] for first in range(0, batch * batches, batch)
    ]
    with _peer_store(_fresh(directory, "peer-bulk")) as (store, connection):
        with timed() as elapsed:
            for ops in workload:
                store.batch(ops)
        stored = connection.execute("SELECT COUNT(*) FROM store").fetchone()[0]
    if stored != batch * batches:
        raise RuntimeError("SqliteStore lost writes")
    return elapsed[0] * 1e6 / (batch * batches)


# --- 5, 6: a LangGraph thread ------------------------------------------------------------------------


class Counter(TypedDict):
    count: int
    note: str


def _step(state: Counter) -> dict[str, Any]:
    return {"count": state["count"] + 1, "note": f"step {state['count'] + 1}"}


def run_thread(checkpointer: BaseCheckpointSaver[str], steps: int) -> None:
    """A one-node graph that loops until ``THREAD`` holds ``steps`` checkpoints (the input's, the start's,
    then one per super-step): a small state that changes every step, as a counting agent's would."""
    builder = StateGraph(Counter)
    builder.add_node("step", _step)
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", lambda state: "step" if state["count"] < steps - 2 else END)
    graph = builder.compile(checkpointer=checkpointer)
    config: RunnableConfig = {**THREAD, "recursion_limit": steps + 10}
    graph.invoke({"count": 0, "note": ""}, config)


def _history(saver: BaseCheckpointSaver[str], steps: int) -> list[CheckpointTuple]:
    found = list(saver.list(THREAD))
    if len(found) != steps:
        raise RuntimeError(f"{type(saver).__name__} lists {len(found)} checkpoints, not {steps}")
    return found


def _middle_config(history: list[CheckpointTuple]) -> RunnableConfig:
    """The config of the thread's middle checkpoint (the list is newest first)."""
    return history[len(history) // 2].config


def _get_middle(saver: BaseCheckpointSaver[str], config: RunnableConfig, expected: int) -> None:
    found = saver.get_tuple(config)
    if found is None or found.checkpoint["channel_values"]["count"] != expected:
        raise RuntimeError(f"{type(saver).__name__}.get_tuple missed the middle checkpoint")


def build_journal(path: Path, writes: int) -> None:
    """A journal of ``writes`` entries, each one ``memory.write`` of a new key of ``USER`` (not timed)."""
    kernel = open_kernel(str(path), durability=SYNCHRONOUS, create=True)
    try:
        _load_kernel(kernel, 0, writes, users=1)
    finally:
        kernel.close()


def kernel_snapshot_at(reader: JournalReader, middle: int) -> None:
    value = snapshot_at(reader, USER, middle)
    if value["seq"] != middle or value["snapshot"]["total_entries"] != middle:
        raise RuntimeError("snapshot_at did not travel to the middle of the journal")


def kernel_state_at(reader: JournalReader, middle: int) -> None:
    if state_at(reader, middle).seq != middle:
        raise RuntimeError("state_at did not travel to the middle of the journal")


def _merged(held: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {**held, **new}


class Remembered(TypedDict):
    entries: Annotated[dict[str, Any], _merged]
    count: int


def _remember(state: Remembered) -> dict[str, Any]:
    put = _peer_put(state["count"], users=1)
    return {"entries": {put.key: put.value}, "count": state["count"] + 1}


def run_memory_thread(checkpointer: BaseCheckpointSaver[str], writes: int) -> None:
    """A one-node graph keeping ``USER``'s memory in its own state, as an agent on LangGraph alone would:
    each step adds the entry of ``memory.write`` number ``count`` (``_peer_put``: the same key and fields
    as the kernel's journal), until it holds ``writes``; so the checkpoint after step i holds i entries."""
    builder = StateGraph(Remembered)
    builder.add_node("remember", _remember)
    builder.add_edge(START, "remember")
    builder.add_conditional_edges("remember", lambda state: "remember" if state["count"] < writes else END)
    graph = builder.compile(checkpointer=checkpointer)
    graph.invoke({"entries": {}, "count": 0}, {**THREAD, "recursion_limit": writes + 10})


def _holding(saver: BaseCheckpointSaver[str], entries: int) -> RunnableConfig:
    """The config of the thread's checkpoint holding ``entries`` entries."""
    for found in saver.list(THREAD):
        if found.checkpoint["channel_values"].get("count") == entries:
            return found.config
    raise RuntimeError(f"no checkpoint of the memory graph holds {entries} entries")


def _get_memory(saver: BaseCheckpointSaver[str], config: RunnableConfig, entries: int) -> None:
    found = saver.get_tuple(config)
    if found is None or len(found.checkpoint["channel_values"]["entries"]) != entries:
        raise RuntimeError(f"{type(saver).__name__}.get_tuple missed the checkpoint of {entries} entries")


# --- 7: database size ---------------------------------------------------------------------------------


def _positions(count: int, total: int) -> set[int]:
    """``count`` positions spread evenly over ``total`` steps."""
    return {index * total // count for index in range(count)}


def _file_bytes(path: Path) -> int:
    """The database file and its WAL (after a TRUNCATE checkpoint the WAL is empty or gone)."""
    return sum(part.stat().st_size for part in (path, Path(f"{path}-wal")) if part.exists())


def _checkpoint(connection: sqlite3.Connection) -> None:
    busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise RuntimeError("the WAL checkpoint was blocked")


def _table_bytes(path: Path) -> dict[str, int]:
    """Bytes per table and index (SQLite's ``dbstat``), largest first; empty where not compiled in."""
    with closing(sqlite3.connect(str(path))) as connection:
        try:
            rows = connection.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
            ).fetchall()
        except sqlite3.OperationalError:
            return {}
    return {str(name): int(size) for name, size in rows}


def _journal_bytes(path: Path) -> dict[str, int]:
    """Bytes of the journal's columns by what they hold: each syscall's arguments and results, and the
    three hashes of every entry (hex text), with SQLite's ``LENGTH`` of the stored values."""
    with closing(sqlite3.connect(str(path))) as connection:
        rows = connection.execute(
            "SELECT syscall, SUM(LENGTH(args)), SUM(LENGTH(result)), "
            "SUM(LENGTH(effects_hash) + LENGTH(prev_hash) + LENGTH(entry_hash)), COUNT(*) "
            "FROM journal GROUP BY syscall"
        ).fetchall()
    found: dict[str, int] = {"hashes": 0, "entries": 0}
    for syscall, args, result, hashes, entries in rows:
        found[f"{syscall} args"] = int(args)
        found[f"{syscall} results"] = int(result)
        found["hashes"] += int(hashes)
        found["entries"] += int(entries)
    return dict(sorted(found.items(), key=lambda item: -item[1]))


def _floor_note(journal: dict[str, int], tables: dict[str, int], peer: float) -> str:
    """This design's floor, uncompressed: each call's arguments and one 32-byte hash, nothing else of the
    journal (no result, time, seq or name), beside the state table the kernel's reads use (or, where
    SQLite has no ``dbstat``, beside a state table as small as the peer's whole file)."""
    arguments = sum(size for name, size in journal.items() if name.endswith(" args"))
    hashes = 32 * journal.get("entries", 0)
    state = tables.get("memory_entries")
    journal_part = arguments + hashes
    parts = (
        f"the calls' arguments ({arguments:,}) and one binary 32-byte hash per entry ({hashes:,}), with no "
        "result, time, seq or name"
    )
    with_peers = f"{(journal_part + peer) / peer:.2f}x with a state table as small as the peer's whole file"
    if state is None:
        return f"this design's floor, uncompressed: {parts}, beside a state table: {with_peers} (no dbstat)"
    floor = journal_part + state
    return (
        f"this design's floor (a journal of every call beside a state table for the reads), uncompressed: "
        f"{parts}, beside the kernel's memory_entries ({state:,}): {floor:,} bytes, {floor / peer:.2f}x the "
        f"peer's file ({with_peers}); a design answering reads from the journal alone is not bound by it"
    )


@dataclass(frozen=True)
class Workload:
    writes: int
    gets: int
    snapshots: int
    lists: int

    def describe(self) -> str:
        return (
            f"{self.writes:,} writes (batches of 1,000), {self.gets:,} gets, {self.snapshots} snapshots and "
            f"{self.lists} lists of one user"
        )


def kernel_size(
    directory: Path, work: Workload, seconds: list[float], tables: dict[str, int], journal: dict[str, int]
) -> float:
    """Bytes of the kernel's database after ``work`` (and a TRUNCATE checkpoint), its time appended to
    ``seconds``, its bytes per table put in ``tables`` and its journal's bytes by column in ``journal``."""
    path = _fresh(directory, "kernel-size")
    kernel = _open_kernel(path)
    keys = _keys(work.gets, work.writes)
    snapshots, lists = _positions(work.snapshots, work.gets), _positions(work.lists, work.gets)
    try:
        with timed() as elapsed:
            _load_kernel(kernel, 0, work.writes, users=1)
            for index, key in enumerate(keys):
                _kernel_get(kernel, key)
                if index in snapshots:
                    _kernel_snapshot(kernel, work.writes)
                if index in lists:
                    _kernel_list(kernel, work.writes)
    finally:
        kernel.close()
    with closing(sqlite3.connect(str(path))) as connection:
        _checkpoint(connection)
    seconds.append(elapsed[0])
    tables.clear()
    tables.update(_table_bytes(path))
    journal.clear()
    journal.update(_journal_bytes(path))
    return float(_file_bytes(path))


def peer_size(directory: Path, work: Workload, seconds: list[float], tables: dict[str, int]) -> float:
    """Bytes of ``SqliteStore``'s database after the same entries and the same reads (a snapshot and a
    list are each a ``search`` of every entry)."""
    path = _fresh(directory, "peer-size")
    keys = _keys(work.gets, work.writes)
    snapshots, lists = _positions(work.snapshots, work.gets), _positions(work.lists, work.gets)
    with _peer_store(path) as (store, connection):
        with timed() as elapsed:
            _load_peer(store, 0, work.writes, users=1)
            for index, key in enumerate(keys):
                _peer_get(store, key)
                if index in snapshots:
                    _peer_search(store, work.writes)
                if index in lists:
                    _peer_search(store, work.writes)
        _checkpoint(connection)
        size = _file_bytes(path)
    seconds.append(elapsed[0])
    tables.clear()
    tables.update(_table_bytes(path))
    return float(size)


# --- the run ------------------------------------------------------------------------------------------


def _ratio(kernel: Series, peer: Series) -> float:
    return kernel.median / peer.median


def _peer_versions() -> str:
    found = []
    for package in ("langgraph-checkpoint-sqlite", "langgraph-checkpoint", "langgraph"):
        try:
            found.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            found.append(f"{package} not installed")
    return ", ".join(found)


def _durability_note() -> str:
    return (
        f"both sides in WAL mode at synchronous={SYNCHRONOUS.value} ({_SYNCHRONOUS_CODE[SYNCHRONOUS]}): the "
        f"kernel opened with Durability.{SYNCHRONOUS.name}, the peer's sqlite3 connections set by PRAGMA "
        "synchronous (and journal_mode=WAL, which SqliteSaver sets itself and SqliteStore does not); both "
        f"read back before timing; the peer: {_peer_versions()}"
    )


def _writes(directory: Path, size: Sizes) -> list[BenchResult]:
    kernel, peer = alternate(
        size.repetitions,
        lambda: kernel_single_us(directory, size.single_writes),
        lambda: peer_single_us(directory, size.single_writes),
    )
    single_kernel, single_peer = Series(tuple(kernel), "µs/write"), Series(tuple(peer), "µs/write")
    kernel, peer = alternate(
        size.repetitions,
        lambda: kernel_bulk_us(directory, size.bulk_batch, size.bulk_batches),
        lambda: peer_bulk_us(directory, size.bulk_batch, size.bulk_batches),
    )
    bulk_kernel, bulk_peer = Series(tuple(kernel), "µs/write"), Series(tuple(peer), "µs/write")
    return [
        BenchResult(
            name=WRITE_NAME,
            title="single writes, one transaction each, against LangGraph's SqliteStore.put",
            kernel_label="Kernel.call('memory.write')",
            kernel=single_kernel,
            baseline_label="SqliteStore.put",
            baseline=single_peer,
            ratio=_ratio(single_kernel, single_peer),
            ratio_means="kernel µs/write ÷ SqliteStore µs/write (lower is better)",
            notes=[
                f"{size.single_writes:,} writes per run, each a new key of one of 100 users, on a fresh "
                "file; the peer stores the same key under ('memories', user) with the same fields "
                "(type, source, value reference) as a JSON value",
                "the kernel also validates, checks the caller's right, versions the entry and appends a "
                "hash-chained journal entry in the same transaction; the store upserts one row",
                _durability_note(),
            ],
            extra={"writes_per_run": size.single_writes},
        ),
        BenchResult(
            name=BULK_NAME,
            title="bulk writes, one transaction per batch, against SqliteStore.batch of puts",
            kernel_label=f"Kernel.call_many, batches of {size.bulk_batch:,}",
            kernel=bulk_kernel,
            baseline_label=f"SqliteStore.batch of {size.bulk_batch:,} PutOp",
            baseline=bulk_peer,
            ratio=_ratio(bulk_kernel, bulk_peer),
            ratio_means="kernel µs/write ÷ SqliteStore µs/write (lower is better)",
            notes=[
                f"{size.bulk_batches} batches of {size.bulk_batch:,} writes per run on a fresh file",
                "the kernel keeps one journal entry (and savepoint) per call of the batch; the store "
                "writes the batch as one multi-row INSERT",
                _durability_note(),
            ],
            extra={"batch": size.bulk_batch, "batches_per_run": size.bulk_batches},
        ),
    ]


def _recorded_gets(
    path: Path, keys: list[str], directory: Path
) -> tuple[Path, list[Statement], list[Statement]]:
    """A copy of the kernel's database at ``path`` (the snapshot each floor sample starts from), and the
    SQL a kernel runs on it for the gets of ``keys`` twice: the first pass (the warm-up) and the second."""
    snapshot = _fresh(directory, "floor-snapshot")
    copy_database(path, snapshot)
    recording = _fresh(directory, "floor-recorded")
    copy_database(snapshot, recording)

    def gets(kernel: Kernel) -> None:
        for key in keys + keys:
            _kernel_get(kernel, key)

    warm_up, measured = split_calls(recorded_calls(recording, gets, SYNCHRONOUS), len(keys))
    return snapshot, warm_up, measured


def _reads(directory: Path, size: Sizes) -> list[BenchResult]:
    path = _fresh(directory, "kernel-read")
    kernel = _open_kernel(path)
    try:
        _load_kernel(kernel, 0, size.entries, users=1)
        with _peer_store(_fresh(directory, "peer-read")) as (store, connection):
            _check_same_durability(kernel, connection)
            _load_peer(store, 0, size.entries, users=1)
            keys = _keys(size.gets, size.entries)
            snapshot, warm_up, measured = _recorded_gets(path, keys, directory)

            def floor_get_us() -> float:
                seconds = replayed_seconds(
                    snapshot, _fresh(directory, "floor-read"), warm_up, measured, SYNCHRONOUS
                )
                return seconds * 1e6 / len(keys)

            def kernel_get_us() -> float:
                with timed() as elapsed:
                    for key in keys:
                        _kernel_get(kernel, key)
                return elapsed[0] * 1e6 / len(keys)

            def peer_get_us() -> float:
                with timed() as elapsed:
                    for key in keys:
                        _peer_get(store, key)
                return elapsed[0] * 1e6 / len(keys)

            def kernel_list_ms() -> float:
                with timed() as elapsed:
                    _kernel_list(kernel, size.entries)
                return elapsed[0] * 1e3

            def kernel_snapshot_ms() -> float:
                with timed() as elapsed:
                    _kernel_snapshot(kernel, size.entries)
                return elapsed[0] * 1e3

            def peer_search_ms() -> float:
                with timed() as elapsed:
                    _peer_search(store, size.entries)
                return elapsed[0] * 1e3

            get_kernel, get_peer, get_floor = alternate(
                size.repetitions, kernel_get_us, peer_get_us, floor_get_us
            )
            list_kernel, snapshot_kernel, search_peer = alternate(
                size.repetitions, kernel_list_ms, kernel_snapshot_ms, peer_search_ms
            )
    finally:
        kernel.close()
    gets_k, gets_p = Series(tuple(get_kernel), "µs/get"), Series(tuple(get_peer), "µs/get")
    gets_floor = Series(tuple(get_floor), "µs/get")
    list_k, snap_k = Series(tuple(list_kernel), "ms"), Series(tuple(snapshot_kernel), "ms")
    search_p = Series(tuple(search_peer), "ms")
    decoded = (
        "the kernel's timing includes reading the result's value (decoded from the journaled bytes on "
        "first access), as the store's includes decoding its rows' JSON"
    )
    return [
        BenchResult(
            name=GET_NAME,
            title=f"get of one key of a user of {size.entries:,} entries, against SqliteStore.get",
            kernel_label="Kernel.call('memory.get')",
            kernel=gets_k,
            baseline_label="SqliteStore.get",
            baseline=gets_p,
            ratio=_ratio(gets_k, gets_p),
            ratio_means="kernel µs/get ÷ SqliteStore µs/get (lower is better)",
            target=GET_TARGET,
            direction="<=",
            notes=[
                f"{size.gets:,} gets per run of keys spread over the user's entries, same keys both sides",
                "a kernel read is journaled (an entry appended and committed, its result in it); the "
                "store's get is one SELECT in a transaction",
                decoded,
                "the kernel's SQL alone (its statements for these gets, recorded at the driver and "
                "replayed through raw sqlite3 on a copy of its database, bench/sql_floor.py): "
                f"{gets_floor.describe()}, {gets_floor.median / gets_p.median:.2f}x SqliteStore.get; what "
                f"the target leaves for the kernel's Python: "
                f"{GET_TARGET * gets_p.median - gets_floor.median:.1f} µs/get, where it takes "
                f"{gets_k.median - gets_floor.median:.1f}",
                _durability_note(),
            ],
            extra={"entries": size.entries, "gets_per_run": size.gets, "sql_floor": gets_floor.to_json()},
        ),
        BenchResult(
            name=LIST_NAME,
            title=f"memory.list of a user of {size.entries:,} entries, against SqliteStore.search",
            kernel_label="Kernel.call('memory.list')",
            kernel=list_k,
            baseline_label=f"SqliteStore.search(limit={size.entries:,})",
            baseline=search_p,
            ratio=_ratio(list_k, search_p),
            ratio_means="kernel ms ÷ SqliteStore ms (lower is better)",
            notes=[
                "one call per sample on the same files as the gets; the store returns every item of the "
                "user's namespace",
                decoded,
            ],
            extra={"entries": size.entries},
        ),
        BenchResult(
            name=SNAPSHOT_NAME,
            title=f"memory.snapshot of a user of {size.entries:,} entries, against SqliteStore.search",
            kernel_label="Kernel.call('memory.snapshot')",
            kernel=snap_k,
            baseline_label=f"SqliteStore.search(limit={size.entries:,})",
            baseline=search_p,
            ratio=_ratio(snap_k, search_p),
            ratio_means="kernel ms ÷ SqliteStore ms (lower is better)",
            notes=[
                "the same peer samples as the list (measured in the same alternation); the snapshot adds "
                "the projection, two hashes and the spec's wire form",
                decoded,
            ],
            extra={"entries": size.entries},
        ),
    ]


def _sampler(work: Callable[[], object], calls: int = 1) -> Callable[[], float]:
    """A sample for ``alternate``: the mean milliseconds of ``calls`` runs of ``work`` (the same wrapper
    on every side of a comparison)."""

    def sample() -> float:
        with timed() as elapsed:
            for _ in range(calls):
                work()
        return elapsed[0] * 1e3 / calls

    return sample


def _state_result(
    name: str,
    title: str,
    kernel_label: str,
    kernel: Series,
    peer: Series,
    *,
    notes: list[str],
    extra: dict[str, Any],
) -> BenchResult:
    """A row of state at a middle point: the kernel against ``SqliteSaver.get_tuple`` (``STATE_TARGET``)."""
    return BenchResult(
        name=name,
        title=title,
        kernel_label=kernel_label,
        kernel=kernel,
        baseline_label="SqliteSaver.get_tuple",
        baseline=peer,
        ratio=_ratio(kernel, peer),
        ratio_means="kernel ms ÷ SqliteSaver ms (lower is better)",
        target=STATE_TARGET,
        direction="<=",
        notes=notes,
        extra=extra,
    )


def _thread(directory: Path, size: Sizes) -> list[BenchResult]:
    journal = _fresh(directory, "kernel-journal")
    build_journal(journal, size.journal_writes)
    middle = size.journal_writes // 2
    reader = JournalReader.open(str(journal))
    kernel = _open_kernel(_fresh(directory, "kernel-graph"))
    try:
        saver = ArvisCheckpointSaver(kernel, principal=AGENT)
        with closing(_peer_connection(_fresh(directory, "peer-graph"), autocommit=False)) as connection:
            peer = SqliteSaver(connection)
            run_thread(saver, size.steps)
            run_thread(peer, size.steps)
            _check_same_durability(kernel, connection)
            kernel_middle, peer_middle = (
                _middle_config(_history(saver, size.steps)),
                _middle_config(_history(peer, size.steps)),
            )
            expected = size.steps - 2 - size.steps // 2

            kernel_history_ms = _sampler(lambda: _history(saver, size.steps))
            peer_history_ms = _sampler(lambda: _history(peer, size.steps))
            kernel_snapshot_at_ms = _sampler(lambda: kernel_snapshot_at(reader, middle))
            kernel_state_at_ms = _sampler(lambda: kernel_state_at(reader, middle))
            peer_get_tuple_ms = _sampler(
                lambda: _get_middle(peer, peer_middle, expected), size.peer_state_calls
            )
            saver_get_tuple_ms = _sampler(
                lambda: _get_middle(saver, kernel_middle, expected), size.peer_state_calls
            )

            history_kernel, history_peer = alternate(size.repetitions, kernel_history_ms, peer_history_ms)
            at_snapshot, at_state, at_peer, at_saver = alternate(
                size.repetitions,
                kernel_snapshot_at_ms,
                kernel_state_at_ms,
                peer_get_tuple_ms,
                saver_get_tuple_ms,
            )
    finally:
        reader.close()
        kernel.close()
    hist_k, hist_p = Series(tuple(history_kernel), "ms"), Series(tuple(history_peer), "ms")
    snap_k, state_k = Series(tuple(at_snapshot), "ms"), Series(tuple(at_state), "ms")
    get_p, get_saver = Series(tuple(at_peer), "ms"), Series(tuple(at_saver), "ms")
    thread_note = (
        f"the thread: one LangGraph graph looping a one-node step until it holds {size.steps:,} "
        "checkpoints, run once on each saver (not timed); its state is a counter and a short note"
    )
    travel_notes = [
        f"the kernel's journal: {size.journal_writes:,} memory.write entries of one user (bulk-loaded, not "
        f"timed, read through JournalReader.open); the moment is seq {middle:,}, the peer's the thread's "
        f"middle checkpoint (of {size.steps:,})",
        "the kernel answers by replaying the journal up to that seq into a scratch store (time travel "
        "over any seq, verified by the chain); LangGraph reads the one stored checkpoint row: the kernel's "
        "cost grows with the seq, the peer's does not",
        f"peer sample: the mean of {size.peer_state_calls} get_tuple calls; for comparison, the same "
        f"middle checkpoint read through ArvisCheckpointSaver.get_tuple: {get_saver.describe()} "
        f"({get_saver.median / get_p.median:.2f}x SqliteSaver)",
    ]
    return [
        BenchResult(
            name=HISTORY_NAME,
            title=f"history of a LangGraph thread of {size.steps:,} checkpoints, against SqliteSaver.list",
            kernel_label="ArvisCheckpointSaver.list (graph.checkpoint.list)",
            kernel=hist_k,
            baseline_label="SqliteSaver.list",
            baseline=hist_p,
            ratio=_ratio(hist_k, hist_p),
            ratio_means="kernel ms ÷ SqliteSaver ms (lower is better)",
            notes=[
                thread_note,
                "every checkpoint listed and deserialized on both sides; the kernel's saver pages through "
                "graph.checkpoint.list (each page a journaled call) and reads each page's blobs",
                _durability_note(),
            ],
            extra={"steps": size.steps},
        ),
        _state_result(
            GRAPH_AT_NAME,
            f"state at a middle point of a LangGraph thread of {size.steps:,} checkpoints: get_tuple "
            "of its middle checkpoint, against SqliteSaver",
            "ArvisCheckpointSaver.get_tuple (graph.checkpoint.get)",
            get_saver,
            get_p,
            notes=[
                "what LangGraph's get_state reads: the same graph's state at its middle checkpoint, through "
                "each saver; the kernel's is a journaled call (graph.checkpoint.get) and a read of the "
                "checkpoint's blobs, each checked against its hash",
                f"each sample: the mean of {size.peer_state_calls} get_tuple calls, on both sides; measured "
                "in the same alternation as snapshot_at and state_at",
                thread_note,
            ],
            extra={"steps": size.steps},
        ),
        _state_result(
            SNAPSHOT_AT_NAME,
            f"state at a middle point: snapshot_at seq {middle:,} of {size.journal_writes:,}, "
            "against SqliteSaver.get_tuple of the middle checkpoint",
            "tools.audit.timetravel.snapshot_at",
            snap_k,
            get_p,
            notes=[*travel_notes, thread_note],
            extra={
                "journal_writes": size.journal_writes,
                "seq": middle,
                "steps": size.steps,
                "arvis_saver_get_tuple": get_saver.to_json(),
            },
        ),
        _state_result(
            STATE_AT_NAME,
            f"state at a middle point: state_at seq {middle:,} of {size.journal_writes:,}, "
            "against SqliteSaver.get_tuple of the middle checkpoint",
            "tools.audit.timetravel.state_at",
            state_k,
            get_p,
            notes=[
                "state_at: every state table and its digest at that seq (not one user's snapshot); the "
                "same peer samples as snapshot_at, measured in the same alternation",
                *travel_notes[:2],
            ],
            extra={"journal_writes": size.journal_writes, "seq": middle},
        ),
    ]


def _top(tables: dict[str, int], count: int = 4) -> str:
    return (
        ", ".join(f"{name} {size:,}" for name, size in list(tables.items())[:count]) or "dbstat unavailable"
    )


def _size(directory: Path, size: Sizes) -> BenchResult:
    work = Workload(size.size_writes, size.size_gets, size.size_snapshots, size.size_lists)
    kernel_seconds: list[float] = []
    peer_seconds: list[float] = []
    kernel_tables: dict[str, int] = {}
    peer_tables: dict[str, int] = {}
    journal_columns: dict[str, int] = {}
    kernel, peer = alternate(
        size.size_repetitions,
        lambda: kernel_size(directory, work, kernel_seconds, kernel_tables, journal_columns),
        lambda: peer_size(directory, work, peer_seconds, peer_tables),
        warmup=False,
    )
    kernel_series, peer_series = Series(tuple(kernel), "bytes"), Series(tuple(peer), "bytes")
    kernel_time, peer_time = Series(tuple(kernel_seconds), "s"), Series(tuple(peer_seconds), "s")
    return BenchResult(
        name=DB_SIZE_NAME,
        title=f"database size after {work.describe()}",
        kernel_label="the kernel's SQLite file",
        kernel=kernel_series,
        baseline_label="SqliteStore's SQLite file",
        baseline=peer_series,
        ratio=_ratio(kernel_series, peer_series),
        ratio_means="kernel bytes ÷ SqliteStore bytes (lower is better)",
        target=SIZE_TARGET,
        direction="<=",
        notes=[
            "sizes after PRAGMA wal_checkpoint(TRUNCATE): the database file plus its (then empty) WAL; a "
            "fresh pair of files per run",
            "the same entries on both sides; the peer performs the same reads (a get per get, a "
            "search(limit=all) per snapshot and per list), which write nothing to its file, while the "
            "kernel journals every call, reads included, with its result",
            f"largest tables and indexes (dbstat, bytes): kernel {_top(kernel_tables)}; "
            f"peer {_top(peer_tables)}",
            "the kernel's journal by column (LENGTH of the stored values, bytes): "
            f"{_top({name: size for name, size in journal_columns.items() if name != 'entries'}, 6)}",
            _floor_note(journal_columns, kernel_tables, peer_series.median),
            f"the whole workload took: kernel {kernel_time.describe()}; peer {peer_time.describe()}",
            _durability_note(),
        ],
        extra={
            "kernel_bytes": int(kernel_series.median),
            "peer_bytes": int(peer_series.median),
            "kernel_tables": kernel_tables,
            "peer_tables": peer_tables,
            "kernel_seconds": kernel_time.to_json(),
            "peer_seconds": peer_time.to_json(),
            "workload": {
                "writes": work.writes,
                "gets": work.gets,
                "snapshots": work.snapshots,
                "lists": work.lists,
            },
        },
    )


def _memory_at(directory: Path, size: Sizes) -> BenchResult:
    """A user's memory as it was at a middle point, each side holding the same entries: the kernel's
    ``snapshot_at`` (one query, version columns) against LangGraph's ``get_tuple`` of the checkpoint of a
    graph that keeps the same entries in its state (every LangGraph checkpoint holds the whole state)."""
    moment = size.journal_writes // 2
    journal = _fresh(directory, "kernel-memory")
    build_journal(journal, size.journal_writes)
    kernel_bytes = journal.stat().st_size  # the kernel closed it: its WAL is checkpointed into the file
    reader = JournalReader.open(str(journal))
    try:
        peer_path = _fresh(directory, "peer-memory")
        with closing(_peer_connection(peer_path, autocommit=False)) as connection:
            peer = SqliteSaver(connection)
            run_memory_thread(peer, size.journal_writes)
            config = _holding(peer, moment)

            kernel_ms = _sampler(lambda: kernel_snapshot_at(reader, moment))
            peer_ms = _sampler(lambda: _get_memory(peer, config, moment), size.peer_state_calls)

            at_kernel, at_peer = alternate(size.repetitions, kernel_ms, peer_ms)
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        peer_bytes = peer_path.stat().st_size
    finally:
        reader.close()
    kernel_series, peer_series = Series(tuple(at_kernel), "ms"), Series(tuple(at_peer), "ms")
    return _state_result(
        MEMORY_AT_NAME,
        f"a user's memory at a middle point, {moment:,} entries on each side: snapshot_at seq "
        f"{moment:,} (one query, version columns), against SqliteSaver.get_tuple of a graph holding them",
        "tools.audit.timetravel.snapshot_at",
        kernel_series,
        peer_series,
        notes=[
            f"the kernel's journal: {size.journal_writes:,} memory.write entries of one user; snapshot_at "
            f"folds the logged effects of the first {moment:,} into a scratch store and reads the snapshot "
            "there, re-executing nothing",
            f"the peer: a LangGraph graph whose state holds the same entries (the same keys and fields), one "
            f"more each step, {size.journal_writes:,} steps on SqliteSaver (not timed); its checkpoint of "
            f"{moment:,} entries is read and deserialized whole; each sample the mean of "
            f"{size.peer_state_calls} get_tuple calls",
            "what each database holds: LangGraph writes the whole state at every step, "
            f"{peer_bytes / 1e6:.1f} MB for this thread; the kernel's journal of the calls with its effects "
            f"log {kernel_bytes / 1e6:.1f} MB",
            _durability_note(),
        ],
        extra={
            "journal_writes": size.journal_writes,
            "seq": moment,
            "kernel_bytes": kernel_bytes,
            "peer_bytes": peer_bytes,
        },
    )


def _graph_size(directory: Path, size: Sizes) -> BenchResult:
    """The saver's database after the graph workload alone (``run_thread``: the counting thread of
    ``size.steps`` checkpoints, no read), each side on a fresh file, after a TRUNCATE checkpoint."""
    kernel_path, peer_path = _fresh(directory, "kernel-graph-size"), _fresh(directory, "peer-graph-size")
    kernel = _open_kernel(kernel_path)
    try:
        run_thread(ArvisCheckpointSaver(kernel, principal=AGENT), size.steps)
    finally:
        kernel.close()
    with closing(_peer_connection(peer_path, autocommit=False)) as connection:
        run_thread(SqliteSaver(connection), size.steps)
    for path in (kernel_path, peer_path):
        with closing(sqlite3.connect(str(path))) as connection:
            _checkpoint(connection)
    kernel_bytes, peer_bytes = float(_file_bytes(kernel_path)), float(_file_bytes(peer_path))
    tables, journal = _table_bytes(kernel_path), _journal_bytes(kernel_path)
    kernel_series, peer_series = Series((kernel_bytes,), "bytes"), Series((peer_bytes,), "bytes")
    return BenchResult(
        name=GRAPH_SIZE_NAME,
        title=f"database size after a LangGraph thread of {size.steps:,} checkpoints, against SqliteSaver",
        kernel_label="the kernel's SQLite file (ArvisCheckpointSaver)",
        kernel=kernel_series,
        baseline_label="SqliteSaver's SQLite file",
        baseline=peer_series,
        ratio=kernel_bytes / peer_bytes,
        ratio_means="kernel bytes ÷ SqliteSaver bytes (lower is better)",
        target=GRAPH_SIZE_TARGET,
        direction="<=",
        notes=[
            f"the graph of 5 and 6 run once on each saver, {size.steps:,} checkpoints, nothing read after; "
            "sizes after PRAGMA wal_checkpoint(TRUNCATE), one run (the bytes do not vary from run to run "
            "but for the checkpoints' random version fractions)",
            f"largest tables and indexes (dbstat, bytes): kernel {_top(tables, 8)}; "
            f"peer {_top(_table_bytes(peer_path))}",
            "the kernel's journal by column (LENGTH of the stored values, bytes): "
            f"{_top({name: size for name, size in journal.items() if name != 'entries'}, 6)}",
        ],
        extra={"kernel_bytes": int(kernel_bytes), "peer_bytes": int(peer_bytes), "kernel_tables": tables},
    )


def run(quick: bool = False) -> list[BenchResult]:
    size = sizes(quick)
    with scratch_dir(NAME) as directory:
        results = _writes(directory, size)
        results += _reads(directory, size)
        results += _thread(directory, size)
        results.append(_memory_at(directory, size))
        results.append(_size(directory, size))
        results.append(_graph_size(directory, size))
    return results


# --- the kernel side alone, for the profiler ----------------------------------------------------------


def profile_setup_get(directory: Path, quick: bool) -> ProfileJob:
    size = sizes(quick)
    kernel = _open_kernel(directory / "get.db")
    _load_kernel(kernel, 0, size.entries, users=1)
    keys = _keys(size.gets, size.entries)

    def work() -> object:
        for key in keys:
            _kernel_get(kernel, key)
        return None

    return work, kernel.close


def _travel_job(directory: Path, quick: bool, travel: Callable[[JournalReader, int], None]) -> ProfileJob:
    size = sizes(quick)
    path = directory / "journal.db"
    build_journal(path, size.journal_writes)
    reader = JournalReader.open(str(path))
    return lambda: travel(reader, size.journal_writes // 2), reader.close


def profile_setup_snapshot_at(directory: Path, quick: bool) -> ProfileJob:
    return _travel_job(directory, quick, kernel_snapshot_at)


def profile_setup_state_at(directory: Path, quick: bool) -> ProfileJob:
    return _travel_job(directory, quick, kernel_state_at)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--graph-size", action="store_true", help="only the graph workload's database size")
    options = parser.parse_args()
    if options.graph_size:
        with scratch_dir(NAME) as scratch:
            print(_graph_size(scratch, sizes(options.quick)).report(), flush=True)
    else:
        for found in run(options.quick):
            print(found.report(), flush=True)

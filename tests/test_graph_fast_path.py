"""``graph.checkpoint.get`` and ``graph.checkpoint.list`` read only what they return (specs/langgraph.md §3):
the checkpoints asked for, by point or keyset queries in code-point order, the channel values those
checkpoints name and their writes. Their results must stay byte for byte those of the implementation that
read every row of the thread (old journals are re-executed and compared), which is kept here as the
reference: every get and list below runs both, on the same transaction, and compares.

The thread ids, namespaces, checkpoint ids and channels mix cases, punctuation, accents and characters
beyond the BMP, whose code-point order differs from a locale's (the test PostgreSQL cluster collates with
ICU en-US)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import pg_cluster
from graph_values import carried
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import T0

from arvis.access import Capability
from arvis.canonical import canonical_bytes_of_own, decode
from arvis.changes import Decision
from arvis.graph_checkpoints import EMPTY_VALUE, GraphChannelValue, GraphCheckpoint, GraphWrite
from journal.store import ManualClock
from kernel.abi import CallContext
from kernel.dispatcher import Kernel
from kernel.errors import KernelError
from kernel.table import SyscallTable
from syscalls.boot import open_kernel
from syscalls.graph import ThreadAccess
from syscalls.graph_args import MAX_LIST, GetArgs, ListArgs, Position
from syscalls.table import SYSCALL_TABLE

# --- the reference: get and list as they were, reading every row of the thread -----------------------


def _json_text(value: Any) -> str:
    return canonical_bytes_of_own(value).decode("utf-8")


def _version_key(version: Any) -> str:
    return _json_text(version)


def _values_index(values: Iterable[GraphChannelValue]) -> dict[tuple[str, str], GraphChannelValue]:
    return {(value.channel, value.version): value for value in values}


def _write_order(write: GraphWrite) -> tuple[str, str, int]:
    return (write.task_path, write.task_id, write.idx)


def _wire(
    row: GraphCheckpoint, values: dict[tuple[str, str], GraphChannelValue], writes: Iterable[GraphWrite]
) -> dict[str, Any]:
    channel_values: dict[str, Any] = {}
    for channel, version in decode(row.channel_versions.encode("utf-8")).items():
        found = values.get((channel, _version_key(version)))
        if found is not None and found.value_type != EMPTY_VALUE:
            channel_values[channel] = {"type": found.value_type, "hash": found.value_hash}
    return {
        "thread_id": row.thread_id,
        "checkpoint_ns": row.checkpoint_ns,
        "checkpoint_id": row.checkpoint_id,
        "parent_checkpoint_id": row.parent_checkpoint_id,
        "checkpoint": {"type": row.checkpoint_type, "hash": row.checkpoint_hash},
        "metadata": decode(row.metadata.encode("utf-8")),
        "channel_values": channel_values,
        "pending_writes": [
            {
                "task_id": write.task_id,
                "channel": write.channel,
                "type": write.value_type,
                "hash": write.value_hash,
            }
            for write in sorted(writes, key=_write_order)
        ],
    }


def reference_get(ctx: CallContext, args: GetArgs) -> dict[str, Any]:
    ThreadAccess(ctx).require(Capability.READ, args.thread_id)
    graph = ctx.read.graph
    if args.checkpoint_id is not None:
        row = graph.checkpoint(args.thread_id, args.checkpoint_ns, args.checkpoint_id)
    else:
        row = max(
            graph.checkpoints(args.thread_id, args.checkpoint_ns),
            key=lambda found: found.checkpoint_id,
            default=None,
        )
    if row is None:
        return {"checkpoint": None}
    values = _values_index(graph.channel_values(row.thread_id, row.checkpoint_ns))
    writes = graph.writes(row.thread_id, row.checkpoint_ns, row.checkpoint_id)
    return {"checkpoint": _wire(row, values, writes)}


def _after(row: GraphCheckpoint, position: Position) -> bool:
    mine, theirs = (row.thread_id, row.checkpoint_ns), (position.thread_id, position.checkpoint_ns)
    return mine > theirs or (mine == theirs and row.checkpoint_id < position.checkpoint_id)


def _matches(metadata: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(value == metadata.get(key) for key, value in wanted.items())


def reference_list(ctx: CallContext, args: ListArgs) -> dict[str, Any]:
    access = ThreadAccess(ctx)
    graph = ctx.read.graph
    if args.thread_id is not None:
        access.require(Capability.READ, args.thread_id)
        rows = graph.checkpoints(args.thread_id, args.checkpoint_ns)
    else:
        owners = graph.owners()
        rows = [
            row
            for row in graph.checkpoints(None, args.checkpoint_ns)
            if access.allows(Capability.READ, row.thread_id, owners.get(row.thread_id))
        ]
    rows.sort(key=lambda row: row.checkpoint_id, reverse=True)
    rows.sort(key=lambda row: (row.thread_id, row.checkpoint_ns))
    chosen: list[GraphCheckpoint] = []
    for row in rows:
        if len(chosen) >= args.limit:
            break
        if args.after is not None and not _after(row, args.after):
            continue
        if args.checkpoint_id is not None and row.checkpoint_id != args.checkpoint_id:
            continue
        if args.before is not None and row.checkpoint_id >= args.before:
            continue
        if args.filter and not _matches(decode(row.metadata.encode("utf-8")), args.filter):
            continue
        chosen.append(row)
    values: dict[tuple[str, str], dict[tuple[str, str], GraphChannelValue]] = {}
    writes: dict[tuple[str, str], dict[str, list[GraphWrite]]] = {}
    listed = []
    for row in chosen:
        place = (row.thread_id, row.checkpoint_ns)
        if place not in values:
            values[place] = _values_index(graph.channel_values(*place))
            by_checkpoint: dict[str, list[GraphWrite]] = {}
            for write in graph.writes(*place):
                by_checkpoint.setdefault(write.checkpoint_id, []).append(write)
            writes[place] = by_checkpoint
        listed.append(_wire(row, values[place], writes[place].get(row.checkpoint_id, [])))
    return {"checkpoints": listed}


# --- a kernel whose get and list run both, and record both outcomes -----------------------------------

Outcome = tuple[str, bytes]
"""("ok", canonical bytes of the value) or ("refused", canonical bytes of [code, detail])."""


def _outcome(handler: Callable[[CallContext, Any], Any], ctx: CallContext, args: Any) -> Outcome:
    """The journaled value's outcome (a ``Decision``'s value; what the caller alone gets is not compared)."""
    try:
        answered = handler(ctx, args)
        return ("ok", canonical_bytes_of_own(answered.value if isinstance(answered, Decision) else answered))
    except KernelError as exc:
        return ("refused", canonical_bytes_of_own([str(exc.code), exc.detail]))


class Compared:
    """The syscall table with ``graph.checkpoint.get`` and ``list`` running the reference first, then the
    real handler (whose outcome the call keeps), each pair of outcomes recorded."""

    REFERENCES: ClassVar[dict[str, Callable[[CallContext, Any], dict[str, Any]]]] = {
        "graph.checkpoint.get": reference_get,
        "graph.checkpoint.list": reference_list,
    }

    def __init__(self) -> None:
        self.pairs: list[tuple[str, Any, Outcome, Outcome]] = []
        specs = []
        for spec in SYSCALL_TABLE.values():
            reference = self.REFERENCES.get(spec.name)
            if reference is not None:
                spec = dataclasses.replace(spec, handler=self._both(spec.name, reference, spec.handler))
            specs.append(spec)
        self.table = SyscallTable(specs)

    def _both(
        self,
        name: str,
        reference: Callable[[CallContext, Any], dict[str, Any]],
        handler: Callable[[CallContext, Any], Any],
    ) -> Callable[[CallContext, Any], Any]:
        def run(ctx: CallContext, args: Any) -> Any:
            expected = _outcome(reference, ctx, args)
            got = _outcome(handler, ctx, args)
            self.pairs.append((name, args, expected, got))
            return handler(ctx, args)

        return run

    def check(self, calls: int) -> None:
        assert len(self.pairs) == calls
        for name, args, expected, got in self.pairs:
            assert got == expected, (name, args)


@contextmanager
def compared_kernel(target: str) -> Iterator[tuple[Kernel, Compared]]:
    kernel = open_kernel(target, clock=ManualClock(T0), create=True)
    compared = Compared()
    kernel.table = compared.table
    try:
        yield kernel, compared
    finally:
        kernel.close()


# --- random threads -----------------------------------------------------------------------------------

AGENTS = ("agent:a", "agent:b")
THREADS = ("t", "T", "t-1", "t1", "tä", "té", "u", "日本", "\U0001d518x", "a b")
NAMESPACES = ("", "child", "Child", "child:1", "c-d", "cd", "ä", "\U0001d518")
CHANNELS = ("a", "B", "messages", "é", "__start__", "\U0001d518")
VALUES = tuple(carried(character.encode()) for character in "0123456789abcdef")
"""Values as a call carries them (type msgpack, hash, bytes)."""
ID_ALPHABET = "0123456789aAbBzZ-_.é\U0001d518"
ids = st.text(alphabet=ID_ALPHABET, min_size=1, max_size=5)
versions = st.one_of(
    st.integers(min_value=0, max_value=4),
    st.sampled_from([1.0, 2.5, -0.5]),
    st.text(alphabet="0123.ab", min_size=0, max_size=3),
)
meta_values = st.sampled_from([0, 1, 2, 1.0, True, False, None, "loop", "input", "r1", "r2"])
metadata = st.dictionaries(st.sampled_from(["step", "source", "run_id", "flag"]), meta_values, max_size=4)
filters = st.one_of(
    st.none(), st.dictionaries(st.sampled_from(["step", "source", "run_id", "flag", "other"]), meta_values)
)


@st.composite
def put_args(draw: st.DrawFn) -> dict[str, Any]:
    channel_versions = draw(st.dictionaries(st.sampled_from(CHANNELS), versions, max_size=4))
    new_values: list[dict[str, Any]] = []
    for channel, version in channel_versions.items():  # some versions never stored: left out when read
        kind = draw(st.sampled_from(["value", "value", "empty", "missing"]))
        if kind == "value":
            new_values.append({"channel": channel, "version": version, **draw(st.sampled_from(VALUES))})
        elif kind == "empty":
            new_values.append({"channel": channel, "version": version, "type": EMPTY_VALUE, "hash": None})
    return {
        "thread_id": draw(st.sampled_from(THREADS)),
        "checkpoint_ns": draw(st.sampled_from(NAMESPACES)),
        "checkpoint_id": draw(ids),
        "parent_checkpoint_id": draw(st.none() | ids),
        "checkpoint": draw(st.sampled_from(VALUES)),
        "metadata": draw(metadata),
        "channel_versions": channel_versions,
        "new_values": new_values,
    }


@st.composite
def put_writes_args(draw: st.DrawFn) -> dict[str, Any]:
    channels = st.sampled_from([*CHANNELS, "__error__", "__interrupt__"])
    writes = draw(st.lists(channels, min_size=1, max_size=3))
    return {
        "thread_id": draw(st.sampled_from(THREADS)),
        "checkpoint_ns": draw(st.sampled_from(NAMESPACES)),
        "checkpoint_id": draw(ids),
        "task_id": draw(st.sampled_from(["task-1", "Task-2", "é"])),
        "task_path": draw(st.sampled_from(["", "~a", "~B"])),
        "writes": [{"channel": channel, **VALUES[3]} for channel in writes],
    }


writes_ops = st.tuples(st.just("graph.checkpoint.put_writes"), st.sampled_from(AGENTS), put_writes_args())
puts_ops = st.tuples(st.just("graph.checkpoint.put"), st.sampled_from(AGENTS), put_args())


@st.composite
def get_args(draw: st.DrawFn) -> dict[str, Any]:
    args: dict[str, Any] = {"thread_id": draw(st.sampled_from(THREADS))}
    if draw(st.booleans()):
        args["checkpoint_ns"] = draw(st.sampled_from(NAMESPACES))
    if draw(st.booleans()):
        args["checkpoint_id"] = draw(ids)
    return args


@st.composite
def list_args(draw: st.DrawFn) -> dict[str, Any]:
    optional: dict[str, st.SearchStrategy[Any]] = {
        "thread_id": st.sampled_from(THREADS),
        "checkpoint_ns": st.sampled_from(NAMESPACES),
        "checkpoint_id": ids,
        "before": ids,
        "filter": filters,
        "limit": st.integers(min_value=0, max_value=8) | st.just(MAX_LIST),
        "after": st.fixed_dictionaries(
            {
                "thread_id": st.sampled_from(THREADS),
                "checkpoint_ns": st.sampled_from(NAMESPACES),
                "checkpoint_id": ids,
            }
        ),
    }
    args: dict[str, Any] = {}
    for name, strategy in optional.items():
        if draw(st.booleans()):
            args[name] = draw(strategy)
    return args


queries = st.one_of(
    st.tuples(st.just("graph.checkpoint.get"), st.sampled_from(AGENTS), get_args()),
    st.tuples(st.just("graph.checkpoint.list"), st.sampled_from(AGENTS), list_args()),
    st.tuples(st.just("page"), st.sampled_from(AGENTS), list_args()),
)
workloads = st.tuples(
    st.lists(st.one_of(puts_ops, puts_ops, writes_ops), min_size=1, max_size=40),
    st.lists(queries, min_size=1, max_size=25),
)


def _run(kernel: Kernel, compared: Compared, operations: list[Any], asked: list[Any]) -> None:
    """The writes (a refused one, into another's thread, changes nothing), then the queries: a ``page``
    is a whole listing read a few at a time, each page continuing after the last one (as the adapter)."""
    for syscall, principal, args in operations:
        kernel.call(syscall, args, principal=principal)
    calls = 0
    for syscall, principal, args in asked:
        if syscall != "page":
            kernel.call(syscall, args, principal=principal)
            calls += 1
            continue
        args = {**args, "limit": max(1, args.get("limit", 1) % 4)}
        for _ in range(200):
            result = kernel.call("graph.checkpoint.list", args, principal=principal)
            calls += 1
            if not result.ok or len(result.value["checkpoints"]) < args["limit"]:
                break
            last = result.value["checkpoints"][-1]
            args["after"] = {key: last[key] for key in ("thread_id", "checkpoint_ns", "checkpoint_id")}
    compared.check(calls)


@given(workloads)
def test_get_and_list_return_what_reading_every_row_returned(workload: tuple[list[Any], list[Any]]) -> None:
    with compared_kernel(":memory:") as (kernel, compared):
        _run(kernel, compared, *workload)


@settings(max_examples=10)
@given(workload=workloads)
def test_get_and_list_on_postgresql_order_by_code_point_not_collation(
    pg_server: pg_cluster.Cluster, workload: tuple[list[Any], list[Any]]
) -> None:
    with pg_cluster.fresh_database(pg_server) as url, compared_kernel(url) as (kernel, compared):
        _run(kernel, compared, *workload)


# --- long threads: pages, batches and filters beyond one read ----------------------------------------


def _long_thread(kernel: Kernel, seed: int, channels: tuple[str, ...] = CHANNELS[:4]) -> list[Any]:
    """Two namespaces of 260 and 40 checkpoints in one thread (ids of mixed case and length), every
    channel a new version at each (with more than four channels, each a new version at some steps only),
    some writes: so a page names more channel values than one batched read holds and a filter rejects
    more checkpoints than one scan reads."""
    rng = random.Random(seed)
    assert kernel.call("graph.thread.create", {"thread_id": "thread"}, principal=AGENTS[0]).ok  # format 4
    steps = {"": 260, "child:1": 40}
    for checkpoint_ns, count in steps.items():
        parent = None
        current = dict.fromkeys(channels, "0000.0")
        for step in range(count):
            checkpoint_id = f"{step:04d}" + rng.choice(["", "a", "B", "-", "é"])
            for place, channel in enumerate(channels):
                if place < 4 or rng.random() < 1 / place:
                    current[channel] = f"{step:04d}.{rng.random():.6f}"
            channel_versions = dict(current)
            args = {
                "thread_id": "thread",
                "checkpoint_ns": checkpoint_ns,
                "checkpoint_id": checkpoint_id,
                "parent_checkpoint_id": parent,
                "checkpoint": rng.choice(VALUES),
                "metadata": {"step": step, "source": "loop" if step % 7 else "input", "rare": step % 97 == 0},
                "channel_versions": channel_versions,
                "new_values": [
                    {"channel": channel, "version": version, **rng.choice(VALUES)}
                    for channel, version in channel_versions.items()
                    if rng.random() < 0.9
                ],
            }
            assert kernel.call("graph.checkpoint.put", args, principal=AGENTS[0]).ok
            if step % 3 == 0:
                writes = {
                    "thread_id": "thread",
                    "checkpoint_ns": checkpoint_ns,
                    "checkpoint_id": checkpoint_id,
                    "task_id": f"task-{step % 5}",
                    "writes": [{"channel": "a", **VALUES[1]}],
                }
                assert kernel.call("graph.checkpoint.put_writes", writes, principal=AGENTS[0]).ok
            parent = checkpoint_id
    return [
        ("page", AGENTS[0], {"thread_id": "thread", "limit": MAX_LIST}),
        ("page", AGENTS[0], {"limit": MAX_LIST}),
        ("page", AGENTS[0], {"thread_id": "thread", "checkpoint_ns": "", "limit": 7}),
        ("page", AGENTS[0], {"thread_id": "thread", "filter": {"source": "input"}, "limit": 5}),
        ("page", AGENTS[0], {"thread_id": "thread", "filter": {"rare": True}, "limit": MAX_LIST}),
        ("page", AGENTS[0], {"thread_id": "thread", "before": "0200", "filter": {"step": 3.0}, "limit": 2}),
        ("page", AGENTS[1], {"limit": MAX_LIST}),
        ("graph.checkpoint.list", AGENTS[0], {"thread_id": "thread", "before": "0150"}),
        ("graph.checkpoint.list", AGENTS[0], {"checkpoint_ns": "child:1", "filter": {"source": "loop"}}),
        ("graph.checkpoint.get", AGENTS[0], {"thread_id": "thread"}),
        ("graph.checkpoint.get", AGENTS[0], {"thread_id": "thread", "checkpoint_ns": "child:1"}),
        ("graph.checkpoint.get", AGENTS[1], {"thread_id": "thread"}),
    ]


def _run_pages(kernel: Kernel, compared: Compared, asked: list[Any]) -> None:
    calls = 0
    for syscall, principal, args in asked:
        args = dict(args)
        while True:
            result = kernel.call(
                "graph.checkpoint.list" if syscall == "page" else syscall, args, principal=principal
            )
            calls += 1
            if syscall != "page" or not result.ok or len(result.value["checkpoints"]) < args["limit"]:
                break
            last = result.value["checkpoints"][-1]
            args["after"] = {key: last[key] for key in ("thread_id", "checkpoint_ns", "checkpoint_id")}
    compared.check(calls)


def test_long_threads_list_in_pages_as_before() -> None:
    with compared_kernel(":memory:") as (kernel, compared):
        _run_pages(kernel, compared, _long_thread(kernel, 1))


def test_long_threads_list_in_pages_as_before_on_postgresql(pg_url: str) -> None:
    with compared_kernel(pg_url) as (kernel, compared):
        _run_pages(kernel, compared, _long_thread(kernel, 2))


MANY_CHANNELS = CHANNELS + tuple(f"ch-{index}" for index in range(13))
"""19 channels, most of them new at some steps only: a checkpoint's values take more than one grouped
read (8 channels each), and a page's take groups of channels with many versions beside channels with few
(every batch of a group padded to the longest)."""


def test_many_channels_read_in_groups_as_before() -> None:
    with compared_kernel(":memory:") as (kernel, compared):
        _run_pages(kernel, compared, _long_thread(kernel, 3, MANY_CHANNELS))


def test_many_channels_read_in_groups_as_before_on_postgresql(pg_url: str) -> None:
    with compared_kernel(pg_url) as (kernel, compared):
        _run_pages(kernel, compared, _long_thread(kernel, 4, MANY_CHANNELS))

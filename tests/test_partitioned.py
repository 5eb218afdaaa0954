"""Partitioned journals (specs/scale-out.md): the routing rules, the router, the global log of heads,
verification across partitions, the command line; on SQLite (one file per partition) and PostgreSQL
(one database per partition on one server)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path
from typing import Any

import pg_cluster
import psycopg
import pytest
from graph_values import stored
from hypothesis import given
from hypothesis import strategies as st
from strategies import T0, VOUCHED

from journal.partition_manifest import ManifestError, read_manifest
from journal.partition_verify import PartitionedReport, verify_partitioned
from journal.store import APPEND_LOCK
from kernel.arguments import record_args
from kernel.clock import ManualClock
from kernel.partition_routing import (
    FREE_SYSCALLS,
    ROUTED_SYSCALLS,
    Merge,
    PartitionKey,
    key_text,
    partition_of,
    route,
)
from kernel.partitioned import PartitionedKernel, RoutedResult
from kernel.partitioned_boot import create_partitioned, open_partitioned
from kernel.pipeline import run_pipeline
from kernel.protocols import StorageError
from kernel.services import default_services
from syscalls.table import SYSCALL_TABLE
from tools.cli import main

P = 4
ADMIN = "operator:ops"
REPO = Path(__file__).resolve().parent.parent


def _clock() -> ManualClock:
    return ManualClock(T0, step=timedelta(seconds=1))


def _write(user: str, key: str = "k") -> tuple[str, dict[str, Any], str]:
    args = {"user_id": user, "key": key, "memory_type": "preference", "source": "explicit_user"}
    return "memory.write", args, f"user:{user}"


def _users_by_partition(count: int, key: PartitionKey = PartitionKey.HASH) -> dict[int, list[str]]:
    """A few user ids of each partition."""
    found: dict[int, list[str]] = {index: [] for index in range(count)}
    number = 0
    while min(len(users) for users in found.values()) < 3:
        user = f"u{number}"
        found[partition_of(user, count, key)].append(user)
        number += 1
    return found


def _routed(syscall: str, args: Any, count: int = P, key: PartitionKey = PartitionKey.HASH) -> Any:
    return route(syscall, record_args(args), count, key)


def _verify(location: Path | str, **kwargs: Any) -> PartitionedReport:
    return verify_partitioned(location, table=SYSCALL_TABLE, services=default_services(), **kwargs)


@pytest.fixture
def location(tmp_path: Path) -> Path:
    """A new partitioned journal of P partitions on SQLite (its directory)."""
    create_partitioned(tmp_path / "set", partitions=P, clock=_clock(), set_id="ps-test")
    return tmp_path / "set"


@pytest.fixture
def router(location: Path) -> Iterator[PartitionedKernel]:
    opened = open_partitioned(
        location, clock=_clock(), services=default_services(), heads_every=10, identity=VOUCHED
    )
    yield opened
    opened.close()


# --- routing rules --------------------------------------------------------------------------------


def test_every_syscall_of_the_table_has_a_routing_rule() -> None:
    """A syscall added to the table must be given its subject here, or it would silently go to 0."""
    unplaced = [
        name for name in SYSCALL_TABLE if name not in ROUTED_SYSCALLS and not name.startswith("memory.awmu.")
    ]
    assert unplaced == []


def test_the_partition_function_is_fixed_for_ever() -> None:
    """Golden values: a partition once written must be found by every later release."""
    assert [partition_of(user, 4) for user in ("alice", "bob", "carol", "u0", "u1", "u2")] == [
        0,
        1,
        1,
        0,
        1,
        0,
    ]
    assert [partition_of("alice", count) for count in (1, 2, 3, 7)] == [0, 0, 2, 6]
    assert key_text("acme:alice", PartitionKey.TENANT) == "acme"
    assert key_text("acme/chat-1", PartitionKey.TENANT) == "acme"
    assert key_text("alone", PartitionKey.TENANT) == "alone"
    tenant = partition_of("acme", 4)
    assert partition_of("acme:alice", 4, PartitionKey.TENANT) == tenant
    assert partition_of("acme/chat", 4, PartitionKey.TENANT) == tenant


@pytest.mark.parametrize(
    ("syscall", "args", "subjects"),
    [
        ("memory.write", _write("alice")[1], ["alice"]),
        ("memory.get", {"user_id": "bob", "key": "k"}, ["bob"]),
        ("pipeline.begin", {"user_id": "carol", "run_id": "r"}, ["carol"]),
        ("memory.awmu.propose", {"context_id": "chat-9", "text": "x"}, ["chat-9"]),
        ("graph.checkpoint.put", {"thread_id": "t-1"}, ["t-1"]),
        ("graph.checkpoint.list", {"thread_id": "t-2"}, ["t-2"]),
        ("graph.thread.delete", {"thread_id": "t-3"}, ["t-3"]),
        ("graph.store.put", {"namespace": ["docs", "a"], "key": "k", "value_hash": None}, ["docs"]),
        ("graph.store.search", {"namespace_prefix": ["docs"]}, ["docs"]),
        (
            "access.grant",
            {"principal": "agent:x", "capability": "read", "scope": "user:alice"},
            ["user:alice", "alice"],
        ),
        (
            "access.revoke",
            {"principal": "agent:x", "capability": "read", "scope": "context:chat-9"},
            ["context:chat-9", "chat-9"],
        ),
        (
            "access.grant",
            {"principal": "a:x", "capability": "read", "scope": "store:docs"},
            ["store:docs", "docs"],
        ),
        (
            "access.grant",
            {"principal": "a:x", "capability": "read", "scope": "graph:t-1"},
            ["graph:t-1", "t-1"],
        ),
    ],
)
def test_a_call_goes_to_its_subjects_partition(
    syscall: str, args: dict[str, Any], subjects: list[str]
) -> None:
    found = _routed(syscall, args)
    assert found.bound and not found.refused
    assert found.partitions == tuple(sorted({partition_of(subject, P) for subject in subjects}))


@pytest.mark.parametrize(
    ("syscall", "args"),
    [
        ("kernel.record", {"kind": "note"}),
        ("memory.awmu.review", {"request_id": "c3", "decision": "approve"}),
        ("memory.awmu.reopen_request", {"request_id": "c3"}),
        ("no.such.call", {"user_id": "alice"}),
        ("memory.write", {"user_id": 5}),
        ("memory.write", {}),
        ("memory.write", ["alice"]),
        ("memory.write", {"$refused_args": "x"}),
        ("graph.store.get", {"namespace": [], "key": "k"}),
        ("access.grant", {"principal": "a:x", "capability": "read", "scope": 7}),
    ],
)
def test_a_call_without_a_subject_goes_to_partition_0(syscall: str, args: Any) -> None:
    found = _routed(syscall, args)
    assert found.partitions == (0,) and not found.bound and found.pinnable


def test_calls_about_every_partition() -> None:
    star = _routed("access.grant", {"principal": "a:x", "capability": "read"})  # scope defaults to "*"
    assert star.partitions == tuple(range(P)) and not star.bound and star.merge is Merge.SAME
    assert _routed("access.list", {}).merge is Merge.GRANTS
    assert _routed("pipeline.end", {"run_id": "r"}).merge is Merge.RUN_END
    assert _routed("graph.runs.delete", {"run_ids": ["r"]}).merge is Merge.DELETED
    listing = _routed("graph.store.list_namespaces", {"offset": 2, "limit": 3})
    assert listing.merge is Merge.NAMESPACES and listing.args is not None
    assert all(each["offset"] == 0 and each["limit"] == 5 for each in listing.args)
    assert {"kernel.record", "memory.awmu.review", "memory.awmu.reopen_request"} == FREE_SYSCALLS


def test_calls_that_span_partitions_are_split_or_refused() -> None:
    users = _users_by_partition(P)
    threads = [users[0][0], users[2][0], users[0][1]]
    prune = _routed("graph.thread.prune", {"thread_ids": threads})
    assert prune.partitions == (0, 2) and prune.bound and prune.args is not None
    assert [each["thread_ids"] for each in prune.args] == [[threads[0], threads[2]], [threads[1]]]
    same = _routed("graph.thread.copy", {"source_thread_id": users[1][0], "target_thread_id": users[1][1]})
    assert same.partitions == (1,)
    across = _routed("graph.thread.copy", {"source_thread_id": users[1][0], "target_thread_id": users[3][0]})
    assert across.refused and across.partitions == ()
    assert _routed("graph.store.search", {}).refused
    assert _routed("graph.checkpoint.list", {}).refused
    assert _routed("graph.store.list_namespaces", {"offset": 999, "limit": 10}).refused
    # with one partition nothing spans partitions
    assert _routed("graph.store.search", {}, count=1).partitions == (0,)
    assert _routed("graph.thread.copy", {"source_thread_id": "a", "target_thread_id": "b"}, 1).partitions == (
        0,
    )


_SUBJECT = st.text(min_size=0, max_size=12)
_CALL = st.one_of(
    st.tuples(
        st.sampled_from(sorted(SYSCALL_TABLE)),
        st.dictionaries(
            st.sampled_from(["user_id", "context_id", "thread_id", "scope", "principal", "run_id"]),
            _SUBJECT,
            max_size=4,
        ),
    ),
    st.tuples(
        st.just("graph.thread.prune"), st.fixed_dictionaries({"thread_ids": st.lists(_SUBJECT, max_size=5)})
    ),
    st.tuples(
        st.just("graph.store.put"), st.fixed_dictionaries({"namespace": st.lists(_SUBJECT, max_size=3)})
    ),
    st.tuples(
        st.text(max_size=20),
        st.recursive(
            st.none() | st.integers() | _SUBJECT, lambda inner: st.lists(inner, max_size=3), max_leaves=5
        ),
    ),
)
_KEY = st.sampled_from(list(PartitionKey))


def _describe(found: Any) -> list[Any]:
    return [list(found.partitions), found.bound, found.merge.value, found.refused, found.args]


class RouteWorker:
    """A second Python process (its own hash seed) answering routes: stability across processes."""

    def __init__(self) -> None:
        script = (
            "import json, sys\n"
            "from kernel.partition_routing import route, PartitionKey\n"
            "for line in sys.stdin:\n"
            "    syscall, args, count, key = json.loads(line)\n"
            "    found = route(syscall, bytes.fromhex(args), count, PartitionKey(key))\n"
            "    print(json.dumps([list(found.partitions), found.bound, found.merge.value, found.refused,"
            " found.args]), flush=True)\n"
        )
        env = {**os.environ, "PYTHONHASHSEED": "12345"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=REPO,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def route(self, syscall: str, args: bytes, count: int, key: PartitionKey) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([syscall, args.hex(), count, key.value]) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def route_worker() -> Iterator[RouteWorker]:
    worker = RouteWorker()
    yield worker
    worker.close()


@given(call=_CALL, count=st.integers(1, 9), key=_KEY)
def test_routing_is_a_pure_function_of_the_recorded_call(
    route_worker: RouteWorker, call: tuple[str, Any], count: int, key: PartitionKey
) -> None:
    """The route of a call depends only on its recorded (syscall, args) and the set's count and key:
    the same twice, whatever the order of the arguments' keys, and the same in another process."""
    syscall, args = call
    recorded = record_args(args)
    found = route(syscall, recorded, count, key)
    assert route(syscall, recorded, count, key) == found
    if isinstance(args, dict):
        assert route(syscall, record_args(dict(reversed(list(args.items())))), count, key) == found
    assert all(0 <= index < count for index in found.partitions)
    assert route_worker.route(syscall, recorded, count, key) == json.loads(json.dumps(_describe(found)))


# --- the router on SQLite -------------------------------------------------------------------------


def _mixed_workload(router: PartitionedKernel) -> None:
    """Long-term memory, working memory, grants, a pipeline run, graph calls and records, in every
    partition."""
    users = _users_by_partition(P)
    for index in range(P):
        for user in users[index]:
            assert router.call(*_write(user)[:2], principal=_write(user)[2]).ok
    assert router.call("access.grant", {"principal": "agent:p", "capability": "read"}, principal=ADMIN).ok
    assert router.call(
        "access.grant",
        {"principal": "agent:p", "capability": "write", "scope": f"user:{users[2][0]}"},
        principal=ADMIN,
    ).ok
    for index in range(P):
        context = f"ctx-{users[index][0]}"
        created = router.call("memory.awmu.create", {"context_id": context}, principal=ADMIN)
        assert created.ok and created.partition == partition_of(context, P)
        seeded = router.call(
            "memory.awmu.seed", {"context_id": context, "text": "The sky is blue."}, principal=ADMIN
        )
        assert seeded.ok
    listing = router.call("memory.list", {"user_id": users[1][0]}, principal="agent:p")
    assert listing.ok and listing.partition == 1  # the "*" grant reached partition 1
    ended = run_pipeline(
        router, [lambda ctx: len(ctx.long_memory)], user_id=users[2][0], run_id="run-1", principal="agent:p"
    )
    assert ended
    namespace_owner = users[3][0]
    assert router.call("graph.namespace.create", {"prefix": namespace_owner}, principal=ADMIN).ok  # format 4
    put = router.call(
        "graph.store.put",
        {"namespace": [namespace_owner, "a"], "key": "k", **stored({"n": 1})},
        principal=ADMIN,
    )
    assert put.ok and put.partition == partition_of(namespace_owner, P)
    found = router.call("graph.store.search", {"namespace_prefix": [namespace_owner]}, principal=ADMIN)
    assert found.ok and len(found.value["items"]) == 1
    spaces = router.call("graph.store.list_namespaces", {}, principal=ADMIN)
    assert spaces.ok and spaces.value["namespaces"] == [[namespace_owner, "a"]] and len(spaces.parts) == P
    pruned = router.call("graph.thread.prune", {"thread_ids": [users[0][0], users[1][0]]}, principal=ADMIN)
    assert pruned.ok and [index for index, _ in pruned.parts] == [0, 1]
    recorded = router.call("kernel.record", {"kind": "note", "payload": 1}, principal="agent:p", partition=3)
    assert recorded.ok and recorded.partition == 3


def test_mixed_calls_verify_partition_by_partition(router: PartitionedKernel, location: Path) -> None:
    _mixed_workload(router)
    record = router.checkpoint()
    assert [seq for seq, _ in record.heads] == [seq for seq, _ in router.heads()]
    router.close()
    report = _verify(location)
    assert report.verified, report.to_json()
    assert [part.name for part in report.parts] == ["global", "p0", "p1", "p2", "p3"]
    assert all(part.entries > 0 and part.replayed for part in report.parts)
    assert all(part.recorded_seq == part.head_seq for part in report.parts[1:])
    assert report.heads_records >= 2  # the automatic ones every 10 calls, the checkpoint, the close


def test_a_star_grant_reaches_every_partition_and_says_so(router: PartitionedKernel) -> None:
    granted = router.call("access.grant", {"principal": "agent:z", "capability": "read"}, principal=ADMIN)
    assert isinstance(granted, RoutedResult) and granted.ok
    assert [index for index, _ in granted.parts] == list(range(P))
    assert all(part.ok and part.value["added"] for _, part in granted.parts)
    for index in range(P):
        own = router.kernels[index].call("access.list", {}, principal=ADMIN)
        assert own.value["grants"] == [{"capability": "read", "principal": "agent:z", "scope": "*"}]
    scoped = router.call(
        "access.grant",
        {"principal": "agent:z", "capability": "write", "scope": "user:alice"},
        principal=ADMIN,
    )
    assert scoped.partition == partition_of("alice", P) and scoped.parts == ()
    listed = router.call("access.list", {"principal": "agent:z"}, principal=ADMIN)
    assert listed.value["grants"] == [
        {"capability": "read", "principal": "agent:z", "scope": "*"},
        {"capability": "write", "principal": "agent:z", "scope": "user:alice"},
    ]
    revoked = router.call("access.revoke", {"principal": "agent:z", "capability": "read"}, principal=ADMIN)
    assert revoked.ok and all(part.value["removed"] for _, part in revoked.parts)
    denied = router.call("memory.list", {"user_id": "bob"}, principal="agent:z")
    assert denied.error is not None and denied.error.code == "memory_policy_denied"


def test_call_many_keeps_each_partitions_order(router: PartitionedKernel) -> None:
    users = _users_by_partition(P)
    calls: list[tuple[Any, ...]] = [
        ("memory.list", {"user_id": users[1][0]}, "agent:q"),  # refused: no grant yet
        ("access.grant", {"principal": "agent:q", "capability": "read"}, ADMIN),
        *(_write(users[index][0]) for index in range(P)),
        ("memory.list", {"user_id": users[1][0]}, "agent:q"),  # after the grant in partition 1's batch
        ("graph.store.search", {}, ADMIN),  # refused by the router
    ]
    results = router.call_many(calls)
    assert [result.ok for result in results] == [False, True, True, True, True, True, True, False]
    assert results[0].partition == 1 and results[0].seq is not None
    assert results[-1].seq is None and results[-1].partition is None
    assert [results[2 + index].partition for index in range(P)] == list(range(P))


def test_the_router_refuses_what_no_partition_can_answer(router: PartitionedKernel) -> None:
    users = _users_by_partition(P)
    across = router.call(
        "graph.thread.copy",
        {"source_thread_id": users[0][0], "target_thread_id": users[1][0]},
        principal=ADMIN,
    )
    assert not across.ok and across.seq is None and across.error is not None
    assert "cannot span partitions" in across.error.detail
    wrong = router.call(*_write(users[0][0])[:2], principal=_write(users[0][0])[2], partition=1)
    assert wrong.seq is None and "only a call that names no subject" in (
        wrong.error.detail if wrong.error else ""
    )
    right = router.call(*_write(users[0][0])[:2], principal=_write(users[0][0])[2], partition=0)
    assert right.ok and right.partition == 0
    bad = router.call("kernel.record", {"kind": "x"}, principal="agent:p", partition=P)
    assert bad.seq is None


def test_a_review_is_pinned_to_its_contexts_partition(router: PartitionedKernel) -> None:
    """Request ids (``c<seq>``) are unique only within a partition: the reviewer names the partition
    the canonization answered from."""
    context = "ctx-review"
    home = partition_of(context, P)
    router.call("memory.awmu.create", {"context_id": context}, principal=ADMIN)
    unit = router.call(
        "memory.awmu.seed", {"context_id": context, "text": "Water boils at 100 C."}, principal=ADMIN
    )
    unit_id = unit.value["unit_id"]
    asked = router.call("memory.awmu.canonize", {"context_id": context, "unit_id": unit_id}, principal=ADMIN)
    assert asked.ok and asked.partition == home
    router.call("access.grant", {"principal": "agent:rev", "capability": "canonize"}, principal=ADMIN)
    review = {"request_id": asked.value["request"]["request_id"], "decision": "approve"}
    reviewed = router.call("memory.awmu.review", review, principal="agent:rev", partition=asked.partition)
    assert reviewed.ok, reviewed
    assert reviewed.partition == home


def test_threads_on_different_partitions_run_at_once(router: PartitionedKernel, location: Path) -> None:
    """A writer holding partition 0's write lock (another connection, in a transaction) stops calls on
    partition 0 only: calls on partition 1 complete while it holds it."""
    users = _users_by_partition(P)
    blocker = sqlite3.connect(str(location / "p0.db"), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    waiting: list[RoutedResult] = []
    worker = threading.Thread(
        target=lambda: waiting.append(router.call(*_write(users[0][0])[:2], principal=_write(users[0][0])[2]))
    )
    try:
        worker.start()
        started = time.perf_counter()
        for number in range(20):
            done = router.call(*_write(users[1][0], f"k{number}")[:2], principal=_write(users[1][0])[2])
            assert done.ok and done.partition == 1
        elapsed = time.perf_counter() - started
        assert worker.is_alive() and not waiting  # partition 0's call is still waiting for the lock
        assert elapsed < 5.0
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    worker.join(timeout=30)
    assert waiting and waiting[0].ok and waiting[0].partition == 0


def test_threads_writing_many_partitions(router: PartitionedKernel, location: Path) -> None:
    failures: list[Any] = []

    def work(number: int) -> None:
        for index in range(40):
            user = f"w{number}-{index % 7}"
            result = router.call(*_write(user, f"k{index}")[:2], principal=f"user:{user}")
            if not result.ok or result.partition != partition_of(user, P):
                failures.append(result)

    workers = [threading.Thread(target=work, args=(number,)) for number in range(4)]
    for each in workers:
        each.start()
    for each in workers:
        each.join()
    assert failures == []
    router.close()
    assert _verify(location).verified


# --- verification across partitions ---------------------------------------------------------------


@pytest.fixture
def written(router: PartitionedKernel, location: Path) -> Path:
    """A set holding the mixed workload, its heads recorded, closed."""
    _mixed_workload(router)
    router.close()
    assert _verify(location).verified
    return location


def _drop_update_trigger(path: Path) -> None:
    with sqlite3.connect(str(path)) as connection:
        connection.execute("DROP TRIGGER IF EXISTS journal_no_update")


def test_an_edited_row_is_named_by_partition_and_seq(written: Path) -> None:
    _drop_update_trigger(written / "p2.db")
    with sqlite3.connect(str(written / "p2.db")) as connection:
        connection.execute("UPDATE journal SET principal = 'user:mallory' WHERE seq = 2")
    report = _verify(written)
    assert not report.verified
    bad = report.first_bad
    assert bad is not None and (bad.name, bad.first_bad_seq) == ("p2", 2)
    assert [part.verified for part in report.parts] == [True, True, True, False, True]


def test_an_entry_in_the_wrong_partition_is_named(written: Path) -> None:
    """A call journaled in a partition the router would not send it to (written there directly)."""
    router = open_partitioned(written, clock=_clock(), services=default_services(), identity=VOUCHED)
    try:
        alice = partition_of("alice", P)
        wrong = (alice + 1) % P
        moved = router.kernels[wrong].call(*_write("alice")[:2], principal="user:alice")
        assert moved.ok
    finally:
        router.close()
    report = _verify(written)
    bad = report.first_bad
    assert bad is not None and bad.name == f"p{wrong}" and bad.first_bad_seq == moved.seq
    assert bad.reason == f"misrouted: this memory.write belongs in partition {alice}, not {wrong}"


def test_a_missing_partition_is_named_and_never_recreated(written: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (written / f"p3.db{suffix}").unlink(missing_ok=True)
    report = _verify(written)
    bad = report.first_bad
    assert bad is not None and (bad.name, bad.first_bad_seq) == ("p3", 0)
    assert "no journal at" in (bad.reason or "")
    with pytest.raises(StorageError, match="partition 3: no journal"):
        open_partitioned(written, services=default_services(), identity=VOUCHED)
    assert not (written / "p3.db").exists()


def test_a_partition_rolled_back_behind_its_recorded_head(written: Path, tmp_path: Path) -> None:
    """An older copy of a partition put back (a lost tail, a restored backup) no longer holds the head
    the global log recorded: named at the first missing seq."""
    shutil.copy(written / "p1.db", tmp_path / "old-p1.db")
    router = open_partitioned(written, clock=_clock(), services=default_services(), identity=VOUCHED)
    users = _users_by_partition(P)
    for number in range(3):
        router.call(*_write(users[1][0], f"later{number}")[:2], principal=f"user:{users[1][0]}")
    record = router.checkpoint()
    router.close()
    shutil.copy(tmp_path / "old-p1.db", written / "p1.db")
    report = _verify(written)
    bad = report.first_bad
    assert bad is not None and bad.name == "p1"
    old_head = report.parts[2].head_seq
    assert bad.first_bad_seq == old_head + 1 == record.heads[1][0] - 2
    assert "no longer extends the head recorded in the global log" in (bad.reason or "")


def test_swapped_partitions_are_named(written: Path) -> None:
    os.rename(written / "p0.db", written / "tmp.db")
    os.rename(written / "p1.db", written / "p0.db")
    os.rename(written / "tmp.db", written / "p1.db")
    report = _verify(written)
    bad = report.first_bad
    assert bad is not None and (bad.name, bad.first_bad_seq) == ("p0", 0)
    assert "not partition 0's" in (bad.reason or "")


def test_an_altered_manifest_is_refused(written: Path) -> None:
    path = written / "partitions.json"
    data = json.loads(path.read_text())
    data["identity"]["key"] = "tenant"
    path.write_text(json.dumps(data))
    report = _verify(written)
    assert not report.verified and report.first_bad is not None and report.first_bad.name == "global"
    assert "manifest altered" in (report.first_bad.reason or "")
    with pytest.raises(StorageError, match="manifest altered"):
        open_partitioned(written, services=default_services(), identity=VOUCHED)


def test_a_star_grant_missing_from_one_partition(written: Path) -> None:
    """A "*" grant applied to some partitions only (written around the router) is a problem across
    partitions."""
    router = open_partitioned(written, clock=_clock(), services=default_services(), identity=VOUCHED)
    try:
        router.kernels[2].call(
            "access.grant", {"principal": "agent:half", "capability": "read"}, principal=ADMIN
        )
    finally:
        router.close()
    report = _verify(written)
    assert not report.verified and report.first_bad is None
    assert report.problems and "differ between p0 and p2" in report.problems[0]


def test_a_global_log_that_is_not_the_routers(written: Path) -> None:
    manifest = read_manifest(written)
    from kernel.boot import open_kernel

    log = open_kernel(manifest.global_database(), services=default_services(), identity=VOUCHED, create=True)
    try:
        log.call("kernel.record", {"kind": "other"}, principal="agent:x")
    finally:
        log.close()
    report = _verify(written)
    bad = report.first_bad
    assert (
        bad is not None
        and bad.name == "global"
        and "not a record of the 4 partitions' heads" in (bad.reason or "")
    )


def test_open_refuses_a_set_it_cannot_trust(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="no partition manifest"):
        open_partitioned(tmp_path / "nothing", identity=VOUCHED)
    create_partitioned(tmp_path / "set", partitions=2, clock=_clock())
    with pytest.raises(ManifestError, match="exists already"):
        create_partitioned(tmp_path / "set", partitions=2, clock=_clock())


def test_one_partition_behaves_as_one_journal(tmp_path: Path) -> None:
    create_partitioned(tmp_path / "one", partitions=1, clock=_clock())
    router = open_partitioned(tmp_path / "one", clock=_clock(), services=default_services(), identity=VOUCHED)
    try:
        assert router.call("graph.store.search", {}, principal=ADMIN).ok
        granted = router.call("access.grant", {"principal": "a:x", "capability": "read"}, principal=ADMIN)
        assert granted.partition == 0 and granted.parts == ()
    finally:
        router.close()
    assert _verify(tmp_path / "one").verified


# --- the command line -----------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = str(tmp_path / "cli")
    assert _cli(capsys, "partitions", "create", target, "-P", "3", "--partition-key", "tenant")[0] == 0
    router = open_partitioned(target, clock=_clock(), services=default_services(), identity=VOUCHED)
    for tenant in ("acme", "globex", "initech"):
        router.call(*_write(f"{tenant}:a")[:2], principal=f"user:{tenant}:a")
    router.close()
    code, out = _cli(capsys, "partitions", "verify", target, "-o", "json")
    assert code == 0 and json.loads(out)["verified"] is True
    code, out = _cli(
        capsys, "partitions", "route", target, "memory.get", "--args", '{"user_id": "acme:zed"}', "-o", "json"
    )
    assert code == 0 and json.loads(out)["partitions"] == [partition_of("acme", 3)]
    code, out = _cli(capsys, "partitions", "checkpoint", target, "-o", "json")
    checkpoint = json.loads(out)["checkpoint"]
    code, out = _cli(capsys, "partitions", "heads", target, "-o", "json")
    assert code == 0 and all(row["head_seq"] == row["recorded_seq"] for row in json.loads(out)["partitions"])
    # one signed checkpoint of the global log covers every partition
    key = tmp_path / "audit.key"
    assert _cli(capsys, "journal", "keygen", "--name", "example.com/audit", "--out", str(key))[0] == 0
    note = tmp_path / "cp.note"
    global_db = str(Path(target) / "global.db")
    assert (
        _cli(capsys, "journal", "checkpoint", "--db", global_db, "--sign", str(key), "--out", str(note))[0]
        == 0
    )
    code, out = _cli(capsys, "partitions", "verify", target, "--checkpoint", str(note), "--key", f"{key}.pub")
    assert code == 0 and out.splitlines()[-1].startswith("verified: 3 partitions")
    assert _cli(capsys, "partitions", "verify", target, "--checkpoint", checkpoint, "-j", "2")[0] == 0
    # a tampered partition: exit 1, named
    _drop_update_trigger(Path(target) / "p1.db")
    with sqlite3.connect(str(Path(target) / "p1.db")) as connection:
        connection.execute("UPDATE journal SET recorded_at = '2020-01-01T00:00:00.000000Z' WHERE seq = 1")
    code, out = _cli(capsys, "partitions", "verify", target)
    assert code == 1 and "NOT verified: first bad: p1 at seq 1" in out
    assert main(["partitions", "verify", str(tmp_path / "missing")]) == 2


# --- PostgreSQL: one database per partition on one server -----------------------------------------


@pytest.fixture
def pg_set(pg_server: pg_cluster.Cluster, tmp_path: Path) -> Iterator[Path]:
    """A partitioned journal of 3 partitions, each a database of the test server (and the global log)."""
    with ExitStack() as stack:
        urls = [stack.enter_context(pg_cluster.fresh_database(pg_server)) for _ in range(4)]
        manifest = tmp_path / "pg-set.json"
        create_partitioned(
            manifest, partitions=3, databases=urls[:3], global_database=urls[3], clock=_clock()
        )
        yield manifest


def test_postgres_partitions(pg_set: Path) -> None:
    router = open_partitioned(
        pg_set, clock=_clock(), services=default_services(), heads_every=5, identity=VOUCHED
    )
    users = _users_by_partition(3)
    try:
        for index in range(3):
            for user in users[index]:
                result = router.call(*_write(user)[:2], principal=f"user:{user}")
                assert result.ok and result.partition == index
        assert (
            len(
                router.call(
                    "access.grant", {"principal": "agent:p", "capability": "read"}, principal=ADMIN
                ).parts
            )
            == 3
        )
        assert router.call("memory.list", {"user_id": users[2][0]}, principal="agent:p").ok
    finally:
        router.close()
    report = _verify(pg_set, jobs=2)
    assert report.verified, report.to_json()
    # an entry written around the router, in the wrong database
    router = open_partitioned(pg_set, clock=_clock(), services=default_services(), identity=VOUCHED)
    try:
        moved = router.kernels[1].call(*_write(users[0][0])[:2], principal=f"user:{users[0][0]}")
    finally:
        router.close()
    bad = _verify(pg_set).first_bad
    assert bad is not None and (bad.name, bad.first_bad_seq) == ("p1", moved.seq)


def test_postgres_partitions_do_not_wait_on_each_other(pg_set: Path) -> None:
    manifest = read_manifest(pg_set)
    router = open_partitioned(pg_set, clock=_clock(), services=default_services(), identity=VOUCHED)
    users = _users_by_partition(3)
    url = manifest.database(0).replace("postgresql+psycopg://", "postgresql://")
    blocker = psycopg.connect(url)
    blocker.execute(f"SELECT pg_advisory_xact_lock({APPEND_LOCK})")  # partition 0's append lock, held
    waiting: list[RoutedResult] = []
    worker = threading.Thread(
        target=lambda: waiting.append(router.call(*_write(users[0][0])[:2], principal=f"user:{users[0][0]}"))
    )
    try:
        worker.start()
        for number in range(10):
            done = router.call(*_write(users[1][0], f"k{number}")[:2], principal=f"user:{users[1][0]}")
            assert done.ok and done.partition == 1
        assert worker.is_alive() and not waiting
    finally:
        blocker.rollback()
        blocker.close()
    worker.join(timeout=30)
    router.close()
    assert waiting and waiting[0].ok and waiting[0].partition == 0
    assert _verify(pg_set).verified


def test_a_star_revoke_waits_for_a_star_grant_of_the_same_router(tmp_path: Path) -> None:
    """Two calls written to every partition never interleave between partitions in one router: the
    revoke cannot run whole while the grant is between partitions, and every partition ends alike."""
    from kernel.services import default_services
    from syscalls.table import SYSCALL_TABLE

    location = tmp_path / "set"
    create_partitioned(str(location), partitions=4)
    router = open_partitioned(str(location), services=default_services(), heads_every=0, identity=VOUCHED)
    grant = {"principal": "user:eve", "capability": "read", "scope": "*"}
    reached, resume = threading.Event(), threading.Event()
    third = router.kernels[2]
    original = third.call

    def paused(name: object, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "granting":
            reached.set()
            resume.wait(timeout=30)
        return original(name, *args, **kwargs)

    third.call = paused  # type: ignore[method-assign]
    results: dict[str, Any] = {}
    granting = threading.Thread(
        name="granting",
        target=lambda: results.__setitem__(
            "grant", router.call("access.grant", grant, principal="admin:ops")
        ),
    )
    revoking = threading.Thread(
        target=lambda: results.__setitem__(
            "revoke", router.call("access.revoke", grant, principal="admin:ops")
        )
    )
    granting.start()
    assert reached.wait(timeout=30)
    revoking.start()
    time.sleep(0.3)
    assert "revoke" not in results  # it waits for the grant to reach every partition
    resume.set()
    granting.join(timeout=30)
    revoking.join(timeout=30)
    assert results["grant"].ok and results["revoke"].ok
    listed = [
        kernel.call("access.list", {"principal": "user:eve"}, principal="admin:ops").value["grants"]
        for kernel in router.kernels
    ]
    assert listed == [[]] * 4
    router.close()
    assert verify_partitioned(str(location), table=SYSCALL_TABLE, replay=False).verified


def test_a_split_call_holding_another_partitions_subject_is_misrouted(tmp_path: Path) -> None:
    """The router splits a prune by partition; a partition holding one that names another partition's
    thread (written past the router) fails verification at that entry."""
    from kernel.partition_routing import partition_of
    from kernel.services import default_services
    from syscalls.table import SYSCALL_TABLE

    location = tmp_path / "set"
    create_partitioned(str(location), partitions=2)
    router = open_partitioned(str(location), services=default_services(), heads_every=0, identity=VOUCHED)
    own = next(f"t{index}" for index in range(100) if partition_of(f"t{index}", 2) == 0)
    foreign = next(f"t{index}" for index in range(100) if partition_of(f"t{index}", 2) == 1)
    split = router.call("graph.thread.prune", {"thread_ids": [own, foreign]}, principal="admin:ops")
    assert split.ok
    forged = router.kernels[0].call(
        "graph.thread.prune", {"thread_ids": [own, foreign]}, principal="admin:ops"
    )
    assert forged.seq is not None
    router.close()
    report = verify_partitioned(str(location), table=SYSCALL_TABLE, replay=False)
    assert not report.verified
    assert report.to_json()["first_bad"]["seq"] == forged.seq

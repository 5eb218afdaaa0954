"""The LangGraph store (integrations/langgraph.py ``ArvisStore``, specs/langgraph.md §9): the same
operations on ``ArvisStore`` and LangGraph's ``InMemoryStore`` give the same results; every operation is
journaled and verification replays it; TTLs follow the journaled time; a tampered value is named by
verify; a stranger is refused."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.store.memory")

from langgraph.store.base import BaseStore, GetOp, Item, ListNamespacesOp, MatchCondition, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from integrations.langgraph import ArvisStore, CheckpointAccessDenied
from journal.blob_store import hash_of
from journal.reader import JournalReader
from journal.store import ManualClock
from syscalls.boot import open_kernel
from syscalls.carried import ANSWER_BYTES
from syscalls.graph import MAX_BLOBS
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import ReplayReport, verify_journal

AGENT = "agent:planner"
STRANGER = "agent:stranger"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _verify(path: Path) -> ReplayReport:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()


def _syscalls(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT syscall FROM journal ORDER BY seq").fetchall()
    return [row[0] for row in rows]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def store(db: Path, clock: ManualClock) -> Iterator[ArvisStore]:
    kernel = open_kernel(str(db), clock=clock, create=True)
    with ArvisStore(kernel, principal=AGENT) as opened:
        yield opened
    kernel.close()


def _plain(result: Any) -> Any:
    """A result without its times (each store has its own clock)."""
    if isinstance(result, Item):
        return (result.namespace, result.key, result.value)
    if isinstance(result, list):
        return [_plain(each) for each in result]
    return result


def _fill(store: BaseStore) -> None:
    store.put(("users", "u1"), "k1", {"a": 1, "tag": "x", "nested": {"n": 1}, "list": [1, 2]})
    store.put(("users", "u1"), "k2", {"a": 5, "tag": "y"})
    store.put(("users", "u2"), "k1", {"a": 3, "tag": "x"})
    store.put(("docs",), "d1", {"a": 2.5})
    store.put(("docs", "deep", "er"), "d2", {"a": 0, "s": "text"})
    store.put(
        ("users", "u1"), "k1", {"a": 7, "tag": "x", "nested": {"n": 2}, "list": [1, 2]}
    )  # keeps its place
    store.put(("users", "u3"), "k9", {"a": 9})
    store.delete(("users", "u3"), "k9")  # its namespace stays listed, as InMemoryStore's
    store.put(("users", "u2"), "k0", {"a": 4})


def _reads(store: BaseStore) -> list[Any]:
    return [
        store.get(("users", "u1"), "k1"),
        store.get(("users", "u1"), "absent"),
        store.get(("users", "u3"), "k9"),
        store.search(("users",)),
        store.search(()),
        store.search((), limit=2, offset=1),
        store.search(("users",), filter={"tag": "x"}),
        store.search((), filter={"a": {"$gte": 3, "$lt": 7}}),
        store.search(("users",), filter={"a": {"$ne": 5}}),
        store.search(("users",), filter={"a": {"$gt": 2}, "tag": {"$eq": "x"}}),
        store.search(("users",), filter={"nested": {"n": 2}, "list": [1, 2]}),
        store.search(("users",), query="ignored without an index", limit=1),
        store.list_namespaces(),
        store.list_namespaces(prefix=("users",)),
        store.list_namespaces(suffix=("u1",)),
        store.list_namespaces(prefix=("*", "u2")),
        store.list_namespaces(max_depth=1),
        store.list_namespaces(max_depth=2, limit=2, offset=1),
    ]


def test_operations_agree_with_the_in_memory_store(db: Path, store: ArvisStore) -> None:
    reference = InMemoryStore()
    _fill(reference)
    _fill(store)
    assert _plain(_reads(store)) == _plain(_reads(reference))
    calls = _syscalls(db)
    # a namespace's first put takes it, in that call: nothing is refused, nothing created apart
    assert calls.count("graph.namespace.create") == 0
    assert calls.count("graph.store.put") == 9
    assert calls.count("graph.store.get") == 3
    assert calls.count("graph.store.search") == 9
    assert calls.count("graph.store.list_namespaces") == 6
    report = _verify(db)
    assert report.verified, report.divergence


def _ops(*, listing: bool = True) -> list[Any]:
    """(InMemoryStore lists a namespace a get merely read: so namespaces are listed only once written.)"""
    ops: list[Any] = [
        PutOp(("a", "b"), "k", {"v": 1}),
        GetOp(("a", "b"), "k"),  # reads run before the batch's puts
        PutOp(("a", "b"), "k", {"v": 2}),  # the last put of a key wins
        PutOp(("a", "c"), "k", {"v": 3}),
        SearchOp(("a",)),
    ]
    if listing:
        ops.append(ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("a",)),)))
    return ops


def test_batch_and_abatch_agree_with_the_in_memory_store(db: Path, store: ArvisStore) -> None:
    reference = InMemoryStore()
    assert _plain(store.batch(_ops(listing=False))) == _plain(reference.batch(_ops(listing=False)))
    assert _plain(store.batch(_ops())) == _plain(reference.batch(_ops()))
    assert _plain(asyncio.run(store.abatch(_ops()))) == _plain(asyncio.run(reference.abatch(_ops())))
    assert _plain(asyncio.run(store.aget(("a", "c"), "k"))) == (("a", "c"), "k", {"v": 3})
    report = _verify(db)
    assert report.verified, report.divergence


def test_ttl_follows_the_journaled_time(db: Path, store: ArvisStore, clock: ManualClock) -> None:
    store.put(("t",), "short", {"v": 1}, ttl=1)
    store.put(("t",), "kept", {"v": 2})
    clock.advance(timedelta(seconds=50))
    assert store.get(("t",), "short", refresh_ttl=False) is not None
    clock.advance(timedelta(seconds=20))  # 70 s after the put: expired
    assert store.get(("t",), "short") is None
    assert [item.key for item in store.search(("t",))] == ["kept"]
    store.put(("t",), "refreshed", {"v": 3}, ttl=1)
    clock.advance(timedelta(seconds=50))
    assert store.get(("t",), "refreshed") is not None  # refreshed: one more minute from now
    clock.advance(timedelta(seconds=50))
    assert [item.key for item in store.search(("t",))] == ["kept", "refreshed"]
    clock.advance(timedelta(minutes=2))
    assert [item.key for item in store.search(("t",))] == ["kept"]
    report = _verify(db)
    assert report.verified, report.divergence


def test_a_tampered_value_is_named_by_verify(db: Path, store: ArvisStore) -> None:
    store.put(("p",), "k", {"secret": 1})
    assert [item.key for item in store.search(("p",), filter={"secret": 1})] == ["k"]
    value_hash = hash_of(b'[2,{"secret":1},null]')  # the value's encoding 2 (arvis/store_values.py)
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE graph_blobs SET data = ? WHERE hash = ?", (b'[2,{"secret":2},null]', value_hash)
        )
    report = _verify(db)
    assert not report.verified and report.divergence is not None
    assert value_hash in str(report.divergence)
    # the live store refuses to hand the altered value out, and the refusal of a filtered search is journaled
    with pytest.raises(Exception, match="does not hash to its key"):
        store.search(("p",), filter={"secret": 1})


def test_a_stranger_is_refused(db: Path, store: ArvisStore) -> None:
    store.put(("mine", "x"), "k", {"v": 1})
    with ArvisStore(store.kernel, principal=STRANGER) as stranger:
        with pytest.raises(CheckpointAccessDenied, match="may not read store namespace 'mine'"):
            stranger.get(("mine", "x"), "k")
        with pytest.raises(CheckpointAccessDenied, match="may not write store namespace 'mine'"):
            stranger.put(("mine", "y"), "k", {"v": 2})
        assert stranger.search(()) == []  # what it may not read is left out, silently
        assert stranger.list_namespaces() == []
        stranger.put(("theirs",), "k", {"v": 3})  # claims its own first element
        assert [item.key for item in stranger.search(())] == ["k"]
    report = _verify(db)
    assert report.verified, report.divergence


def test_time_travel_and_rollback_replay_a_filtered_search_with_the_journals_blobs(
    db: Path, store: ArvisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every replay, not verification alone, reads the replayed journal's blobs: a filtered search
    replays as recorded at any seq, and a rollback of someone else does not count it as a dependent."""
    import journal_helpers as h

    from tools.audit.timetravel import state_at

    store.put(("alice",), "k", {"color": "red"})
    assert [item.key for item in store.search(("alice",), filter={"color": "red"})] == ["k"]
    reader = JournalReader.open(str(db))
    try:
        assert state_at(reader, None).seq == len(_syscalls(db))
    finally:
        reader.close()
    assert h.cli(capsys, "db", "keygen", "--db", db)[0] == 0  # the journal's admin key, bound (journaled)
    code, out, err = h.cli(
        capsys,
        "journal",
        "rollback",
        "--db",
        db,
        "--principal",
        "user:nobody",
        "--as",
        "operator:x",
        "-o",
        "json",
    )
    assert json.loads(out)["dependents"] == [], out
    assert code == 0, err


class _Syscalls:
    """A kernel's logger (one event per call): the names of the calls made."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def info(self, event: str, **fields: Any) -> None:
        self.names.append(fields["syscall"])


def test_a_search_journals_its_values_by_hash_whatever_their_size(db: Path, clock: ManualClock) -> None:
    """The journaled search names each value by its hash: its entry is as long for a value of 300 KiB as
    for one of 10 bytes. Its answer carries the values' bytes up to ``ANSWER_BYTES``; a larger value is
    read after it by ``graph.blobs.get``. Verification replays both searches."""
    lengths = {}
    with ArvisStore(open_kernel(str(db), create=True, clock=clock), principal=AGENT) as store:
        small, big = {"t": "x"}, {"t": "x" * (ANSWER_BYTES + 1)}
        store.batch([PutOp(("s",), "k", small), PutOp(("b",), "k", big)])
        for namespace, value, names in (
            ("s", small, ["graph.store.search"]),
            ("b", big, ["graph.store.search", "graph.blobs.get"]),
        ):
            store.kernel.logger = logged = _Syscalls()
            assert [item.value for item in store.search((namespace,))] == [value]
            assert logged.names == names
        store.kernel.close()
    with sqlite3.connect(db) as connection:
        for namespace in ("s", "b"):
            lengths[namespace] = connection.execute(
                "SELECT LENGTH(args) + LENGTH(result) FROM journal WHERE syscall = 'graph.store.search' "
                "AND CAST(args AS TEXT) LIKE ?",
                (f'%"{namespace}"%',),
            ).fetchone()[0]
    assert lengths["s"] == lengths["b"] < 1024, lengths
    assert _verify(db).verified


@pytest.mark.parametrize("target", ["file", "memory", "postgresql"])
def test_a_search_answers_with_its_values_in_one_journaled_call(
    request: pytest.FixtureRequest, tmp_path: Path, target: str
) -> None:
    """A search's answer carries the bytes of the values it returns, on every database: one journaled call
    (``graph.store.search``) for a few or for more than ``graph.blobs.get`` names at once, never a second
    call that names every item again; a get still reads its value through ``graph.blobs.get``."""
    url = {"file": str(tmp_path / "s.db"), "memory": ":memory:"}.get(target) or request.getfixturevalue(
        "pg_url"
    )
    with ArvisStore(open_kernel(url, create=True), principal=AGENT) as store:
        many = MAX_BLOBS + 7
        store.batch([PutOp(("many",), f"k{index:04d}", {"v": index}) for index in range(many)])
        for limit in (3, many):
            store.kernel.logger = logged = _Syscalls()
            found = store.search(("many",), limit=limit)
            assert [(item.key, item.value) for item in found] == [
                (f"k{index:04d}", {"v": index}) for index in range(limit)
            ]
            assert logged.names == ["graph.store.search"], (target, limit)
        store.kernel.logger = logged = _Syscalls()
        item = store.get(("many",), "k0001")
        assert item is not None and item.value == {"v": 1}
        assert logged.names == ["graph.store.get", "graph.blobs.get"]
        store.kernel.close()

"""The LangGraph checkpointer (integrations/langgraph.py, specs/langgraph.md): LangGraph's own conformance
suite on a real SQLite journal, a real graph run through it, and what the kernel adds: every operation
journaled, verification by replay, tampered blobs named, strangers refused."""

from __future__ import annotations

import asyncio
import base64
import operator
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest

pytest.importorskip("langgraph.checkpoint.conformance")

from langgraph.checkpoint.base import WRITES_IDX_MAP as LANGGRAPH_WRITES_IDX_MAP
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.report import CapabilityReport
from langgraph.checkpoint.conformance.test_utils import (
    generate_checkpoint,
    generate_config,
    generate_metadata,
)
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from strategies import VOUCHED

from integrations.langgraph import (
    ArvisCheckpointError,
    ArvisCheckpointSaver,
    CheckpointAccessDenied,
    CheckpointArgumentsInvalid,
)
from journal.blob_store import get_many, hash_of
from journal.engine import open_engine
from journal.reader import JournalReader
from kernel.abi import JournalEntry
from kernel.dispatcher import Kernel
from syscalls.boot import JournalNotFound, open_kernel
from syscalls.graph import WRITES_IDX_MAP
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import ReplayReport, verify_journal

AGENT = "agent:planner"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
STRANGER = "agent:stranger"
OPERATOR = "operator:alice"


def _verify(path: Path | str) -> ReplayReport:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()


def _entries(path: Path | str) -> list[JournalEntry]:
    reader = JournalReader.open(str(path))
    try:
        return list(reader.entries())
    finally:
        reader.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "graph.db"


@pytest.fixture
def kernel(db: Path) -> Iterator[Kernel]:
    opened = open_kernel(str(db), identity=VOUCHED, create=True)
    yield opened
    opened.close()


@pytest.fixture
def saver(kernel: Kernel) -> ArvisCheckpointSaver:
    return ArvisCheckpointSaver(kernel, principal=AGENT)


# --- LangGraph's conformance suite ------------------------------------------------------------------


def _conformance(path: Path | str) -> CapabilityReport:
    @checkpointer_test(name="ArvisCheckpointSaver")
    async def factory() -> Any:
        with ArvisCheckpointSaver(str(path), principal=AGENT, create=True) as fresh:
            yield fresh

    return asyncio.run(validate(factory))


def test_the_conformance_suite_passes_every_capability_and_the_journal_verifies(db: Path) -> None:
    report = _conformance(db)
    failures = {name: result.failures for name, result in report.results.items() if result.failures}
    assert report.passed_all_base(), failures
    assert report.passed_all(), failures  # the extended ones: delete_for_runs, copy_thread, prune
    assert report.conformance_level() == "FULL"
    assert all(result.detected for result in report.results.values())
    # every capability suite ran on the one journal: every operation is an entry, and it replays
    entries = _entries(db)
    assert {entry.syscall for entry in entries} == {
        name
        for name in SYSCALL_TABLE
        if name.startswith("graph.")
        and not name.startswith(("graph.store.", "graph.namespace.", "graph.thread.create"))
    }
    assert [entry.syscall for entry in entries if entry.status != "ok"] == []  # a thread: taken by its write
    verified = _verify(db)
    assert verified.verified, verified.divergence
    assert verified.replayed and verified.entries == len(entries)


def test_the_conformance_suite_passes_on_postgresql(pg_url: str) -> None:
    report = _conformance(pg_url)
    failures = {name: result.failures for name, result in report.results.items() if result.failures}
    assert report.passed_all_base(), failures
    assert report.passed_all(), failures
    assert report.conformance_level() == "FULL"  # passed_all alone would pass with nothing detected
    assert all(result.detected for result in report.results.values())
    verified = _verify(pg_url)
    assert verified.verified, verified.divergence
    assert verified.entries == len(_entries(pg_url))


def test_the_writes_index_map_is_langgraphs() -> None:
    assert WRITES_IDX_MAP == LANGGRAPH_WRITES_IDX_MAP


# --- a real graph -----------------------------------------------------------------------------------


class State(TypedDict):
    steps: Annotated[list[str], operator.add]
    count: int


def _graph(checkpointer: Any, **compile_options: Any) -> Any:
    builder = StateGraph(State)
    builder.add_node("first", lambda state: {"steps": ["first"], "count": state["count"] + 1})
    builder.add_node("second", lambda state: {"steps": ["second"], "count": state["count"] * 10})
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    builder.add_edge("second", END)
    return builder.compile(checkpointer=checkpointer, **compile_options)


def _run(checkpointer: Any) -> tuple[Any, ...]:
    """Two invocations on one thread, one interrupted and resumed; what LangGraph gives back."""
    graph = _graph(checkpointer, interrupt_before=["second"])
    config = {"configurable": {"thread_id": "conversation-1"}}
    first = graph.invoke({"steps": [], "count": 1}, config)
    assert graph.get_state(config).next == ("second",)
    resumed = graph.invoke(None, config)
    graph.invoke({"steps": ["again"], "count": 2}, config)
    final = graph.invoke(None, config)
    history = [
        (snapshot.values, snapshot.next, snapshot.metadata["step"])
        for snapshot in graph.get_state_history(config)
    ]
    return first, resumed, final, graph.get_state(config).values, history


def test_a_graph_runs_on_the_journal_as_on_langgraphs_memory_saver(
    db: Path, saver: ArvisCheckpointSaver
) -> None:
    on_the_journal = _run(saver)
    assert on_the_journal == _run(InMemorySaver())
    assert on_the_journal[:3] == (
        {"steps": ["first"], "count": 2},
        {"steps": ["first", "second"], "count": 20},
        {"steps": ["first", "second", "again", "first", "second"], "count": 30},
    )
    report = _verify(db)
    assert report.verified, report.divergence


def test_a_graph_runs_asynchronously(db: Path, saver: ArvisCheckpointSaver) -> None:
    graph = _graph(saver)
    config = {"configurable": {"thread_id": "async-1"}}
    result = asyncio.run(graph.ainvoke({"steps": [], "count": 4}, config))
    assert result == {"steps": ["first", "second"], "count": 50}
    assert asyncio.run(graph.aget_state(config)).values == result
    assert _verify(db).verified


# --- journaled, by hash ------------------------------------------------------------------------------


def _put(saver: ArvisCheckpointSaver, thread_id: str, value: Any, **metadata: Any) -> Any:
    checkpoint = generate_checkpoint(channel_values={"ch": value}, channel_versions={"ch": 1})
    return saver.put(generate_config(thread_id), checkpoint, generate_metadata(**metadata), {"ch": 1})


def test_every_operation_is_a_journal_entry_that_holds_hashes_only(
    db: Path, saver: ArvisCheckpointSaver
) -> None:
    secret = "a value that only the blob store holds"
    stored = _put(saver, "t1", secret, run_id="run-1")
    saver.put_writes(stored, [("ch", secret), ("__interrupt__", {"why": secret})], "task-1")
    assert saver.get_tuple(stored) is not None
    assert len(list(saver.list(generate_config("t1")))) == 1
    saver.copy_thread("t1", "t2")
    saver.prune(["t2"])
    saver.delete_for_runs(["run-0"])
    saver.delete_thread("t2")
    entries = _entries(db)
    # the first put into t1 and the copy into t2 take their threads, in those calls: nothing refused
    assert [entry.syscall for entry in entries] == [
        "graph.checkpoint.put",
        "graph.checkpoint.put_writes",
        "graph.checkpoint.get",  # one call: its values' bytes come to the caller alone, unjournaled
        "graph.checkpoint.list",
        "graph.blobs.get",  # the bytes of the values the listing references, journaled by their hashes
        "graph.thread.copy",
        "graph.thread.prune",
        "graph.runs.delete",
        "graph.thread.delete",
    ]
    assert all(entry.status == "ok" and entry.principal == AGENT for entry in entries)
    for entry in entries:
        assert secret.encode() not in entry.args and secret.encode() not in entry.result
    data = saver.serde.dumps_typed(secret)[1]
    value_hash = hash_of(data)
    # from format 8 a put carries the bytes alone (base64), their hash named by what reads them
    assert value_hash.encode() not in entries[0].args and base64.b64encode(data) in entries[0].args
    assert value_hash.encode() in entries[2].result
    assert value_hash.encode() in entries[4].args and value_hash.encode() in entries[4].result
    assert get_many(saver.kernel.store.engine, [value_hash])  # type: ignore[attr-defined]
    assert saver.get_tuple(stored).pending_writes == [  # type: ignore[union-attr]
        ("task-1", "__interrupt__", {"why": secret}),
        ("task-1", "ch", secret),
    ]
    assert _verify(db).verified


def test_metadata_too_big_for_the_arguments_is_refused_invalid_args(saver: ArvisCheckpointSaver) -> None:
    with pytest.raises(CheckpointArgumentsInvalid) as refused:
        _put(saver, "t1", "v", notes="x" * 17_000_000)  # over the 16 MiB of a value-carrying call
    assert refused.value.code == "invalid_args" and refused.value.seq is not None
    assert "16777216" in refused.value.detail
    assert saver.get_tuple(generate_config("t1")) is None


# --- verification of the blob store ---------------------------------------------------------------


def test_a_tampered_blob_is_named_by_verify(db: Path, saver: ArvisCheckpointSaver) -> None:
    stored = _put(saver, "t1", "original")
    value_hash = hash_of(saver.serde.dumps_typed("original")[1])
    assert _verify(db).verified
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE graph_blobs SET data = ? WHERE hash = ?", (b"forged", value_hash))
    report = _verify(db)
    assert not report.verified and report.divergence is not None
    assert value_hash in report.divergence.reason and "does not hash to its key" in report.divergence.reason
    assert report.divergence.seq == 1  # the put that referenced it
    with pytest.raises(ArvisCheckpointError, match=value_hash) as refused:  # graph.blobs.get's read
        saver.get_tuple(stored)
    assert refused.value.code == "storage_unavailable" and refused.value.seq is None  # nothing journaled


def test_a_missing_blob_is_named_by_verify(db: Path, saver: ArvisCheckpointSaver) -> None:
    _put(saver, "t1", "first")
    _put(saver, "t1", "second")
    value_hash = hash_of(saver.serde.dumps_typed("second")[1])
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM graph_blobs WHERE hash = ?", (value_hash,))
    report = _verify(db)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == 2  # the second put
    assert f"references graph blob {value_hash}, which graph_blobs does not hold" in report.divergence.reason


def test_an_unreferenced_blob_is_harmless(db: Path, saver: ArvisCheckpointSaver) -> None:
    """Blobs are stored before the call: a refused call leaves bytes nobody references, and no state."""
    stranger = ArvisCheckpointSaver(saver.kernel, principal=STRANGER)
    _put(saver, "t1", "mine")
    with pytest.raises(CheckpointAccessDenied):
        _put(stranger, "t1", "not stored in state")
    assert _verify(db).verified


# --- access ------------------------------------------------------------------------------------------


def test_a_stranger_is_refused_and_the_refusals_are_journaled(db: Path, saver: ArvisCheckpointSaver) -> None:
    stored = _put(saver, "t1", "v")
    stranger = ArvisCheckpointSaver(saver.kernel, principal=STRANGER)
    attempts = [
        lambda: stranger.get_tuple(stored),
        lambda: list(stranger.list(generate_config("t1"))),
        lambda: _put(stranger, "t1", "w"),
        lambda: stranger.put_writes(stored, [("ch", "w")], "task"),
        lambda: stranger.delete_thread("t1"),
        lambda: stranger.prune(["t1"]),
        lambda: stranger.copy_thread("t1", "mine"),
    ]
    for attempt in attempts:
        with pytest.raises(CheckpointAccessDenied) as refused:
            attempt()
        assert refused.value.code == "memory_policy_denied" and refused.value.seq is not None
        assert "graph thread 't1'" in refused.value.detail
    # what a stranger cannot see it does not list, nor delete by run
    assert list(stranger.list(None)) == []
    stranger.delete_for_runs(["run-0"])
    refused_entries = [entry for entry in _entries(db) if entry.principal == STRANGER]
    assert [entry.status for entry in refused_entries][: len(attempts)] == ["memory_policy_denied"] * len(
        attempts
    )
    assert saver.get_tuple(stored).checkpoint["channel_values"] == {"ch": "v"}  # type: ignore[union-attr]
    # the stranger's own thread is its own
    _put(stranger, "elsewhere", "x")
    assert stranger.get_tuple(generate_config("elsewhere")) is not None
    assert _verify(db).verified


def test_grants_open_a_thread_and_administrators_may_do_anything(saver: ArvisCheckpointSaver) -> None:
    stored = _put(saver, "t1", "v")
    stranger = ArvisCheckpointSaver(saver.kernel, principal=STRANGER)
    grant = {"principal": STRANGER, "capability": "read", "scope": "graph:t1"}
    assert saver.kernel.call("access.grant", grant, principal=OPERATOR).ok
    assert stranger.get_tuple(stored) is not None
    with pytest.raises(CheckpointAccessDenied):
        _put(stranger, "t1", "w")
    admin = ArvisCheckpointSaver(saver.kernel, principal=OPERATOR)
    assert [found.config["configurable"]["thread_id"] for found in admin.list(None)] == ["t1"]
    admin.delete_thread("t1")
    assert saver.get_tuple(stored) is None


def test_a_path_that_does_not_exist_is_refused_unless_asked_to_create_it(tmp_path: Path) -> None:
    path = tmp_path / "mistyped.db"
    with pytest.raises(JournalNotFound) as refused:
        ArvisCheckpointSaver(str(path), principal=AGENT)
    assert str(path) in str(refused.value) and "create=True" in str(refused.value)
    assert "ArvisCheckpointSaver" in str(refused.value) and not path.exists()
    assert isinstance(refused.value, FileNotFoundError)


def test_a_path_opens_and_closes_its_own_kernel(tmp_path: Path) -> None:
    path = tmp_path / "own.db"
    with ArvisCheckpointSaver(str(path), principal=AGENT, create=True) as own:
        stored = _put(own, "t1", [1, 2, 3])
    with ArvisCheckpointSaver(str(path), principal=AGENT) as again:
        assert again.get_tuple(stored).checkpoint["channel_values"] == {"ch": [1, 2, 3]}  # type: ignore[union-attr]
    assert _verify(path).verified


def test_listing_pages_through_more_than_one_call(db: Path, saver: ArvisCheckpointSaver) -> None:
    parent = None
    ids = []
    for step in range(105):
        config = generate_config("long")
        if parent is not None:
            config["configurable"]["checkpoint_id"] = parent["configurable"]["checkpoint_id"]
        checkpoint = generate_checkpoint()
        parent = saver.put(config, checkpoint, generate_metadata(step=step), {})
        ids.append(checkpoint["id"])
    listed = [found.checkpoint["id"] for found in saver.list(generate_config("long"))]
    assert listed == ids[::-1]
    assert [found.checkpoint["id"] for found in saver.list(generate_config("long"), limit=101)] == ids[::-1][
        :101
    ]
    lists = [entry for entry in _entries(db) if entry.syscall == "graph.checkpoint.list"]
    assert len(lists) == 2 + 2


def test_a_copy_of_a_journal_holding_graph_state_carries_its_blobs(
    db: Path, saver: ArvisCheckpointSaver, tmp_path: Path
) -> None:
    from journal.copy import copy_journal

    _run(saver)  # committed: another connection reads it while the saver's kernel stays open
    target = tmp_path / "copy.db"
    source_engine, target_engine = open_engine(str(db)), open_engine(str(target))
    try:
        copy_journal(source_engine, target_engine)
    finally:
        source_engine.dispose()
        target_engine.dispose()
    report = _verify(target)
    assert report.verified and report.replayed, report.divergence

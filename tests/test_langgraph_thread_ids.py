"""Thread ids as LangGraph's ``SqliteSaver`` takes them (specs/langgraph.md §3, §5.1): the same operations
on generated ids through ``SqliteSaver`` and ``ArvisCheckpointSaver`` give the same ``get`` and ``list``;
an id that does not fit a grant's scope is granted by its hash; a journal of format 4 refuses such ids as it
always did, and replays its refusals byte for byte."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("langgraph.checkpoint.sqlite")
pytest.importorskip("langgraph.checkpoint.conformance")

from langgraph.checkpoint.conformance.test_utils import generate_checkpoint, generate_metadata
from langgraph.checkpoint.sqlite import SqliteSaver
from strategies import VOUCHED

from arvis.canonical import sha256_hex
from integrations.langgraph import ArvisCheckpointSaver, CheckpointAccessDenied, CheckpointArgumentsInvalid
from journal.engine import open_engine
from journal.reader import JournalReader
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from syscalls.boot import default_services, open_kernel
from syscalls.graph_args import thread_scope_name
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"
STRANGER = "agent:stranger"
OPERATOR = "operator:alice"
T0 = datetime(2026, 1, 1, tzinfo=UTC)

THREAD_IDS = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=300)
"""What ``SqliteSaver`` takes as a thread id, NUL aside (PostgreSQL text cannot hold it)."""
SHAPES = ["", "x" * 123, "x" * 1024, "#abc", "user:bob/chat", "a/b\\c", "é中🙂", "tab\there", "\x7f", " "]


def _verified(path: Path) -> bool:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE).verified
    finally:
        reader.close()


@contextmanager
def _fresh() -> Iterator[tuple[SqliteSaver, ArvisCheckpointSaver]]:
    """Both savers on new in-memory databases: each example starts from nothing. The kernel's saver acts
    as a principal that is no administrator: any thread id is anyone's to use, ``P/rest`` included, as in
    SqliteSaver (specs/langgraph.md §5)."""
    connection = sqlite3.connect(":memory:", check_same_thread=False)
    kernel = open_kernel(":memory:", identity=VOUCHED)
    try:
        yield SqliteSaver(connection), ArvisCheckpointSaver(kernel, principal=AGENT)
    finally:
        kernel.close()
        connection.close()


_IDS = count()


def _checkpoint_id() -> str:
    """Increasing ids, the same for both savers."""
    return f"1f0{next(_IDS):013d}"


def _operate(saver: Any, thread_ids: list[str], ids: list[str], values: list[int]) -> None:
    """The same writes on any saver: two checkpoints per thread (the second in a child namespace too), a
    pending write on each thread's first one."""
    for thread_id, first, second, value in zip(thread_ids, ids[0::2], ids[1::2], values, strict=True):
        config: Any = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
        one = generate_checkpoint(checkpoint_id=first, channel_values={"n": value}, channel_versions={"n": 1})
        at_one = saver.put(config, one, generate_metadata(step=0, mark=value), {"n": 1})
        saver.put_writes(at_one, [("n", value + 1)], task_id="task-1")
        two = generate_checkpoint(
            checkpoint_id=second, channel_values={"n": -value}, channel_versions={"n": 2}
        )
        saver.put(at_one, two, generate_metadata(step=1, mark=value), {"n": 2})
        child: Any = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "child"}}
        saver.put(child, two, generate_metadata(step=1, mark=value), {"n": 2})


def _seen(found: Any) -> Any:
    if found is None:
        return None
    return (
        found.config,
        found.parent_config,
        found.checkpoint["id"],
        found.checkpoint["channel_values"],
        {key: found.metadata[key] for key in ("step", "mark")},
        sorted(found.pending_writes),
    )


def _observed(saver: Any, thread_ids: list[str]) -> list[Any]:
    seen: list[Any] = []
    for thread_id in thread_ids:
        for namespace in ("", "child"):
            config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": namespace}}
            seen.append(_seen(saver.get_tuple(config)))
            seen.append([_seen(found) for found in saver.list(config)])
        # every namespace: SqliteSaver orders by checkpoint id across them, the kernel namespace by
        # namespace (InMemorySaver's order, specs/langgraph.md §3): the same checkpoints
        every = saver.list({"configurable": {"thread_id": thread_id}})
        seen.append(sorted((_seen(found) for found in every), key=repr))
    return seen


@settings(max_examples=30, deadline=None)
@given(
    thread_ids=st.lists(THREAD_IDS | st.sampled_from(SHAPES), min_size=1, max_size=3, unique=True),
    data=st.data(),
)
def test_generated_thread_ids_behave_as_in_sqlite_saver(thread_ids: list[str], data: st.DataObject) -> None:
    with _fresh() as (sqlite_saver, arvis_saver):
        _compare(sqlite_saver, arvis_saver, thread_ids, data)


def _compare(
    sqlite_saver: SqliteSaver, arvis_saver: ArvisCheckpointSaver, thread_ids: list[str], data: st.DataObject
) -> None:
    ids = [_checkpoint_id() for _ in range(2 * len(thread_ids))]
    values = data.draw(st.lists(st.integers(0, 1000), min_size=len(thread_ids), max_size=len(thread_ids)))
    for saver in (sqlite_saver, arvis_saver):
        _operate(saver, thread_ids, ids, values)
    assert _observed(arvis_saver, thread_ids) == _observed(sqlite_saver, thread_ids)
    # every thread listed across threads, by its exact id
    for saver in (sqlite_saver, arvis_saver):
        listed = {
            found.config["configurable"]["thread_id"]
            for found in saver.list(None, filter={"mark": values[0]})
        }
        assert set(thread_ids[:1]) <= listed
    for saver in (sqlite_saver, arvis_saver):
        saver.delete_thread(thread_ids[0])
    assert _observed(arvis_saver, thread_ids) == _observed(sqlite_saver, thread_ids)


def test_the_journal_of_generated_thread_ids_verifies(tmp_path: Path) -> None:
    path = tmp_path / "arvis.db"
    kernel = open_kernel(str(path), identity=VOUCHED, create=True)
    saver = ArvisCheckpointSaver(kernel, principal=OPERATOR)
    _operate(saver, SHAPES, [_checkpoint_id() for _ in range(2 * len(SHAPES))], list(range(len(SHAPES))))
    kernel.close()
    assert _verified(path)


# --- scopes ------------------------------------------------------------------------------------------


def test_a_thread_scope_names_a_short_plain_id_itself_and_any_other_by_its_hash() -> None:
    assert thread_scope_name("conversation-1") == "conversation-1"
    assert thread_scope_name("x" * 122) == "x" * 122
    for other in ("", "x" * 123, "#abc", "tab\there"):
        assert thread_scope_name(other) == "#" + sha256_hex(other.encode("utf-8"))
    assert len("graph:" + thread_scope_name("x" * 1024)) == 71


@pytest.mark.parametrize("thread_id", ["", "y" * 300, "#" + sha256_hex(b"y" * 300)])
def test_a_grant_on_the_hashed_scope_opens_a_long_thread_and_only_it(tmp_path: Path, thread_id: str) -> None:
    kernel = open_kernel(str(tmp_path / "j.db"), identity=VOUCHED, create=True)
    owner = ArvisCheckpointSaver(kernel, principal=AGENT)
    stranger = ArvisCheckpointSaver(kernel, principal=STRANGER)
    config: Any = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    owner.put(config, generate_checkpoint(checkpoint_id=_checkpoint_id()), generate_metadata(), {})
    with pytest.raises(CheckpointAccessDenied):
        stranger.get_tuple(config)
    scope = "graph:" + thread_scope_name(thread_id)
    granted = kernel.call(
        "access.grant", {"principal": STRANGER, "capability": "read", "scope": scope}, principal=OPERATOR
    )
    assert granted.ok, granted.error
    found = stranger.get_tuple(config)
    assert found is not None and found.config["configurable"]["thread_id"] == thread_id
    # the literal id that spells the hash is another thread, with another scope
    other: Any = {
        "configurable": {"thread_id": "#" + sha256_hex(thread_id.encode("utf-8")), "checkpoint_ns": ""}
    }
    owner.put(other, generate_checkpoint(checkpoint_id=_checkpoint_id()), generate_metadata(), {})
    with pytest.raises(CheckpointAccessDenied):
        stranger.get_tuple(other)
    kernel.close()


# --- format 4 keeps its rule -------------------------------------------------------------------------


def _format_4(path: Path) -> Kernel:
    engine = open_engine(str(path))
    store = SqlJournalStore(engine, clock=ManualClock(T0), format_version=4)
    return Kernel(
        table=SYSCALL_TABLE, services=default_services(), store=store, clock=ManualClock(T0), identity=VOUCHED
    )


def test_a_format_4_journal_refuses_ids_that_do_not_fit_as_it_did_and_replays_the_refusals(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j4.db"
    kernel = _format_4(path)
    saver = ArvisCheckpointSaver(kernel, principal=AGENT)
    for thread_id, detail in [
        ("", "Expected `str` of length >= 1 - at `$.thread_id`"),
        ("x" * 123, "Expected `str` of length <= 122 - at `$.thread_id`"),
    ]:
        with pytest.raises(CheckpointArgumentsInvalid) as refused:
            saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
        assert refused.value.detail == detail
    # a refusal masks a later field's error as it always did: the bounded types decode formats 1-4
    bad = kernel.call(
        "graph.checkpoint.put_writes",
        {"thread_id": "x" * 123, "checkpoint_id": "c", "task_id": "t", "writes": [{"channel": 1}]},
        principal=AGENT,
    )
    assert bad.error is not None and bad.error.detail.endswith("at `$.thread_id`")
    for syscall, args, where in [
        (
            "graph.checkpoint.list",
            {"after": {"thread_id": "", "checkpoint_ns": "", "checkpoint_id": "c"}},
            "$.after",
        ),
        ("graph.thread.prune", {"thread_ids": ["a", "y" * 200]}, "$.thread_ids[1]"),
        ("graph.thread.copy", {"source_thread_id": "a", "target_thread_id": "\x01"}, "$.target_thread_id"),
    ]:
        refused_call = kernel.call(syscall, args, principal=AGENT)
        assert refused_call.error is not None and refused_call.error.code == "invalid_args"
        assert (
            refused_call.error.detail.endswith(f"at `{where}`")
            or f"at `{where}." in refused_call.error.detail
        )
    ok = kernel.call("graph.thread.create", {"thread_id": "x" * 122}, principal=AGENT)
    assert ok.ok
    kernel.close()
    assert _verified(path)

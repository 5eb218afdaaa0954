"""Graph names as LangGraph has them (issue 52, points 1-3; specs/langgraph.md §5, access-and-pipelines.md
§1.8): any thread id or store namespace works for whoever the deployment admits, slashes and URLs included;
the first write under a name takes it, in that call, so a clean run journals no refusal; a read of a name
nobody took finds nothing and takes nothing; a refusal names its real reason. Journals of formats 4 to 6
keep their rules for life and replay byte for byte."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.checkpoint.conformance")

from langgraph.checkpoint.conformance.test_utils import generate_checkpoint, generate_metadata
from strategies import VOUCHED

from integrations.langgraph import ArvisCheckpointSaver, ArvisStore, CheckpointAccessDenied
from journal.engine import open_engine
from journal.reader import JournalReader
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from syscalls.boot import default_services, open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"
OTHER = "agent:other"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
SLASHED = ["user-42/session-1", "org/team/t", "https://example.com/chat/7", "user:bob/notes"]
"""Names with a slash, one of them naming another principal before it: LangGraph's savers take them all."""


def _config(thread_id: str) -> Any:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


def _put(saver: ArvisCheckpointSaver, thread_id: str, value: Any) -> Any:
    checkpoint = generate_checkpoint(channel_values={"n": value}, channel_versions={"n": 1})
    return saver.put(_config(thread_id), checkpoint, generate_metadata(), {"n": 1})


def _verified(path: Path) -> bool:
    reader = JournalReader.open(str(path))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
        return report.verified and report.replayed
    finally:
        reader.close()


def _refusals(path: Path) -> list[tuple[str, str]]:
    reader = JournalReader.open(str(path))
    try:
        return [(entry.syscall, entry.status) for entry in reader.entries() if entry.status != "ok"]
    finally:
        reader.close()


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[Kernel]:
    opened = open_kernel(str(tmp_path / "names.db"), create=True, identity=VOUCHED)
    yield opened
    opened.close()


def test_thread_ids_and_namespaces_with_slashes_work_for_any_principal(
    tmp_path: Path, kernel: Kernel
) -> None:
    """Point 1: the principal named before a slash has no hold on the name; the caller is no
    administrator and created nothing beforehand, and nothing is refused."""
    saver = ArvisCheckpointSaver(kernel, principal=AGENT)
    store = ArvisStore(kernel, principal=AGENT)
    for name in SLASHED:
        _put(saver, name, name)
        found = saver.get_tuple(_config(name))
        assert found is not None and found.checkpoint["channel_values"] == {"n": name}
        label = name.replace(".", "-")  # LangGraph's store refuses a label with a period
        store.put((label, "facts"), "k", {"name": name})
        item = store.get((label, "facts"), "k")
        assert item is not None and item.value == {"name": name}
    assert _refusals(tmp_path / "names.db") == []
    assert _verified(tmp_path / "names.db")


def test_a_refusal_names_its_real_reason(kernel: Kernel) -> None:
    """Point 1: another principal's thread or namespace is refused because it is another's, naming the
    grant that would do; not a missing ``graph.thread.create``."""
    _put(ArvisCheckpointSaver(kernel, principal=AGENT), "user-42/session-1", 1)
    ArvisStore(kernel, principal=AGENT).put(("org/team/t",), "k", {"v": 1})
    with pytest.raises(CheckpointAccessDenied) as refused:
        ArvisCheckpointSaver(kernel, principal=OTHER).get_tuple(_config("user-42/session-1"))
    assert refused.value.detail == (
        f"principal '{OTHER}' may not read graph thread 'user-42/session-1': it is another principal's; "
        "no grant gives read on 'graph:user-42/session-1'"
    )
    put = kernel.call(
        "graph.store.put", {"namespace": ["org/team/t"], "key": "k", "value_hash": None}, principal=OTHER
    )
    assert put.error is not None and put.error.detail == (
        f"principal '{OTHER}' may not write store namespace 'org/team/t': it is another principal's; "
        "no grant gives write on 'store:org/team/t'"
    )


def test_a_read_of_an_unused_name_finds_nothing_and_takes_nothing(tmp_path: Path, kernel: Kernel) -> None:
    """Point 2: a typo in a read leaves the name free: whoever writes it first gets it."""
    reader = ArvisCheckpointSaver(kernel, principal=AGENT)
    reader_store = ArvisStore(kernel, principal=AGENT)
    assert reader.get_tuple(_config("conversation-l")) is None
    assert list(reader.list(_config("conversation-l"))) == []
    assert reader_store.get(("typo",), "k") is None
    assert reader_store.search(("typo",)) == []
    reader.delete_thread("conversation-l")
    reader.copy_thread("conversation-l", "empty-copy")  # copies nothing, takes neither
    writer = ArvisCheckpointSaver(kernel, principal=OTHER)
    for thread_id in ("conversation-l", "empty-copy"):
        _put(writer, thread_id, "mine")
        assert writer.get_tuple(_config(thread_id)) is not None
    ArvisStore(kernel, principal=OTHER).put(("typo",), "k", {"v": 1})
    with pytest.raises(CheckpointAccessDenied, match="another principal's"):
        reader.get_tuple(_config("conversation-l"))
    with pytest.raises(CheckpointAccessDenied, match="another principal's"):
        reader_store.get(("typo",), "k")
    created = kernel.call("graph.thread.create", {"thread_id": "still-free"}, principal=AGENT)
    assert created.ok and created.value["created"] is True  # an explicit creation still takes a name
    assert _refusals(tmp_path / "names.db") == [
        ("graph.checkpoint.get", "memory_policy_denied"),
        ("graph.store.get", "memory_policy_denied"),
    ]
    assert _verified(tmp_path / "names.db")


def test_a_first_write_takes_its_name_in_that_call(tmp_path: Path, kernel: Kernel) -> None:
    """Point 3: the kernel's put that first stores under a name takes it in its own entry: one call, no
    refused first try; the name is then its writer's, as an explicit creation would have made it."""
    _put(ArvisCheckpointSaver(kernel, principal=AGENT), "conversation-1", 1)
    ArvisStore(kernel, principal=AGENT).put(("counters", "demo"), "last", {"count": 1})
    reader = JournalReader.open(str(tmp_path / "names.db"))
    try:
        assert [(entry.syscall, entry.status) for entry in reader.entries()] == [
            ("graph.checkpoint.put", "ok"),
            ("graph.store.put", "ok"),
        ]
    finally:
        reader.close()
    mine = kernel.call("graph.thread.create", {"thread_id": "conversation-1"}, principal=AGENT)
    assert mine.ok and mine.value == {"thread_id": "conversation-1", "owner": AGENT, "created": False}
    theirs = kernel.call("graph.namespace.create", {"prefix": "counters"}, principal=OTHER)
    assert theirs.error is not None and theirs.error.detail.endswith("another principal has")


# --- formats 4 to 6 keep their rules ------------------------------------------------------------------


def _format(path: Path, version: int) -> Kernel:
    store = SqlJournalStore(open_engine(str(path)), clock=ManualClock(T0), format_version=version)
    return Kernel(
        table=SYSCALL_TABLE, services=default_services(), store=store, clock=ManualClock(T0), identity=VOUCHED
    )


@pytest.mark.parametrize("version", [4, 6])
def test_a_journal_of_formats_4_to_6_keeps_created_names_and_replays(tmp_path: Path, version: int) -> None:
    """There a name is used once created: the adapters meet a free name's refusal by creating it and
    calling again (the refused first try stays in the journal, as those releases wrote it); a name
    reserved to another principal stays refused."""
    path = tmp_path / f"j{version}.db"
    kernel = _format(path, version)
    saver = ArvisCheckpointSaver(kernel, principal=AGENT)
    assert saver.get_tuple(_config("t")) is None
    _put(saver, "t", 1)
    assert saver.get_tuple(_config("t")) is not None
    with pytest.raises(CheckpointAccessDenied, match="not one it created"):
        _put(saver, "user-42/session-1", 1)
    reserved = kernel.call("graph.thread.create", {"thread_id": "user-42/session-1"}, principal=AGENT)
    assert reserved.error is not None and "reserved to 'user-42'" in reserved.error.detail
    other = ArvisCheckpointSaver(kernel, principal=OTHER)
    with pytest.raises(CheckpointAccessDenied):
        other.get_tuple(_config("t"))
    kernel.close()
    assert ("graph.checkpoint.get", "memory_policy_denied") in _refusals(path)
    assert _verified(path)

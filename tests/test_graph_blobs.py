"""``graph.blobs.get`` (specs/langgraph.md §4): the LangGraph adapters read values through it alone; it
returns the bytes of values of checkpoints and store items the caller may read, journals their hashes
only, replays, and refuses the rest alike."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from graph_values import stored

pytest.importorskip("langgraph.checkpoint.base")

from langgraph.checkpoint.base import empty_checkpoint

from arvis.canonical import canonical_bytes
from integrations.langgraph import ArvisCheckpointSaver, ArvisStore
from journal.blob_store import hash_of
from journal.reader import JournalReader
from kernel.abi import JournalEntry
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"
STRANGER = "agent:stranger"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "blobs.db"


@pytest.fixture
def kernel(db: Path) -> Iterator[Kernel]:
    opened = open_kernel(str(db), create=True)
    yield opened
    opened.close()


def _entries(db: Path) -> list[JournalEntry]:
    reader = JournalReader.open(str(db))
    try:
        return list(reader.entries())
    finally:
        reader.close()


def _verified(db: Path) -> bool:
    reader = JournalReader.open(str(db))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE).verified
    finally:
        reader.close()


def _checkpoint(kernel: Kernel) -> tuple[dict[str, Any], str, bytes]:
    """A checkpoint of thread t1 holding one channel value: its place, the value's hash and bytes."""
    saver = ArvisCheckpointSaver(kernel, principal=AGENT)
    checkpoint = {**empty_checkpoint(), "channel_values": {"ch": "a secret"}, "channel_versions": {"ch": 1}}
    config = saver.put({"configurable": {"thread_id": "t1"}}, checkpoint, {}, {"ch": 1})  # type: ignore[arg-type]
    data = saver.serde.dumps_typed("a secret")[1]
    return dict(config["configurable"]), hash_of(data), data


def test_a_round_trip_reads_values_through_the_call_which_journals_hashes_only(
    db: Path, kernel: Kernel
) -> None:
    place, value_hash, data = _checkpoint(kernel)
    saver = ArvisCheckpointSaver(kernel, principal=AGENT)
    assert saver.get_tuple({"configurable": place}).checkpoint["channel_values"] == {"ch": "a secret"}  # type: ignore[union-attr]
    store = ArvisStore(kernel, principal=AGENT)
    store.put(("docs",), "k", {"text": "another secret"})
    assert store.get(("docs",), "k").value == {"text": "another secret"}  # type: ignore[union-attr]
    # the checkpoint's get answers with its values' bytes itself; the store's get reads them by hash
    reads = [entry for entry in _entries(db) if entry.syscall in ("graph.checkpoint.get", "graph.blobs.get")]
    assert [(entry.syscall, entry.status) for entry in reads] == [
        ("graph.checkpoint.get", "ok"),
        ("graph.blobs.get", "ok"),
    ]
    assert value_hash.encode() in reads[0].result and data not in reads[0].result
    assert b"secret" not in reads[0].result + reads[1].result  # the bytes went to the caller alone
    assert _verified(db)


def test_the_caller_gets_the_bytes_of_the_hashes_it_names(db: Path, kernel: Kernel) -> None:
    place, value_hash, data = _checkpoint(kernel)
    result = kernel.call("graph.blobs.get", {"hashes": [value_hash], "checkpoints": [place]}, principal=AGENT)
    assert result.ok, result.error
    assert result.value["blobs"] == [value_hash]
    assert base64.b64decode(result.value["data"][value_hash]) == data
    assert _entries(db)[-1].result == b'{"ok":true,"value":{"blobs":["' + value_hash.encode() + b'"]}}'
    assert _verified(db)


def test_a_caller_who_may_not_read_is_refused_alike_whether_or_not_the_blob_exists(
    db: Path, kernel: Kernel
) -> None:
    place, value_hash, _ = _checkpoint(kernel)
    asked = {"hashes": [value_hash], "checkpoints": [place]}
    refused = kernel.call("graph.blobs.get", asked, principal=STRANGER)
    assert not refused.ok and refused.error is not None and refused.error.code == "memory_policy_denied"
    # its own thread named, another's value asked: refused, as a hash nobody stored is
    mine = ArvisCheckpointSaver(kernel, principal=STRANGER)
    own = mine.put({"configurable": {"thread_id": "t2"}}, empty_checkpoint(), {}, {})["configurable"]
    for wanted in (value_hash, hash_of(b"stored by nobody")):
        result = kernel.call(
            "graph.blobs.get", {"hashes": [wanted], "checkpoints": [own]}, principal=STRANGER
        )
        assert not result.ok and result.error is not None and result.error.code == "memory_policy_denied"
        assert result.error.detail == (
            f"blob {wanted} is not a value of a checkpoint or store item named that the principal may read"
        )
    store = ArvisStore(kernel, principal=AGENT)
    store.put(("docs",), "k", {"text": "x"})
    item = {"namespace": ["docs"], "key": "k"}
    item_hash = hash_of(b"any")  # the namespace is refused first
    result = kernel.call("graph.blobs.get", {"hashes": [item_hash], "items": [item]}, principal=STRANGER)
    assert not result.ok and result.error is not None and result.error.code == "memory_policy_denied"
    assert _verified(db)  # the refusals replay too


@pytest.mark.parametrize("hashes", [["ABC"], ["0" * 63], ["A" * 64], [], ["0" * 64] * 501])
def test_a_malformed_or_unbounded_list_of_hashes_is_refused_invalid_args(
    db: Path, kernel: Kernel, hashes: list[str]
) -> None:
    result = kernel.call("graph.blobs.get", {"hashes": hashes}, principal=AGENT)
    assert not result.ok and result.error is not None and result.error.code == "invalid_args"
    assert "$.hashes" in result.error.detail and result.seq is not None  # journaled
    assert _verified(db)


def test_a_value_stored_earlier_in_the_same_transaction_is_read(db: Path, kernel: Kernel) -> None:
    """In one batch (as in one group of calls), the put's blob is not committed yet when the read runs:
    the read finds it in the call's own transaction."""
    kernel.call("graph.namespace.create", {"prefix": "docs"}, principal=AGENT)
    put = {"namespace": ["docs"], "key": "k", **stored({"text": "fresh"})}
    read = {"hashes": [put["value_hash"]], "items": [{"namespace": ["docs"], "key": "k"}]}
    results = kernel.call_many([("graph.store.put", put, AGENT), ("graph.blobs.get", read, AGENT)])
    assert all(result.ok for result in results), [result.error for result in results]
    data = base64.b64decode(results[1].value["data"][put["value_hash"]])
    assert data == canonical_bytes({"text": "fresh"})
    assert _verified(db)

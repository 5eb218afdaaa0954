"""Each graph value journaled once, from journal format 8 (specs/langgraph.md §2, §3, issue 52 point 10).

A checkpoint call carries a value's bytes alone (their hash, which the state and the results name it by,
is theirs); a new value's version may be left to ``channel_versions``; a put's result no longer repeats
its arguments. A checkpoint read gives its caller the checkpoint's ``channel_versions`` (unjournaled: its
put's arguments hold them), so the saver stores neither them nor the id again inside the checkpoint's
bytes. A journal of format 7 keeps its form, and both verify."""

from __future__ import annotations

import base64
import sqlite3
from pathlib import Path

import journal_helpers as h
from graph_values import carried, hashed
from langgraph.checkpoint.base import empty_checkpoint

from arvis.canonical import decode, sha256_hex
from integrations.langgraph import ArvisCheckpointSaver
from journal.engine import open_engine
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

A = "agent:a"


def _kernel(path: Path, clock: ManualClock, version: int | None = None) -> Kernel:
    if version is not None:
        SqlJournalStore(open_engine(str(path)), clock=clock, format_version=version).close()
    return open_kernel(str(path), clock=clock, create=version is None)


def _args(path: Path, syscall: str) -> list[bytes]:
    with sqlite3.connect(path) as connection:
        query = "SELECT args FROM journal WHERE syscall = ? ORDER BY seq"
        return [bytes(args) for (args,) in connection.execute(query, (syscall,))]


def _journaled(path: Path, seq: int | None) -> bytes:
    with sqlite3.connect(path) as connection:
        return bytes(connection.execute("SELECT result FROM journal WHERE seq = ?", (seq,)).fetchone()[0])


def test_a_value_is_named_by_its_bytes_alone(tmp_path: Path, clock: ManualClock) -> None:
    db = tmp_path / "once.db"
    kernel = _kernel(db, clock)
    assert kernel.format.version == 8
    put = {
        "thread_id": "t",
        "checkpoint_id": "c1",
        "checkpoint": carried(b"checkpoint"),
        "channel_versions": {"a": "2", "b": 3},
        "new_values": [
            {"channel": "a", **carried(b"value a")},
            {"channel": "b", "version": 3, "type": "empty"},
        ],
    }
    calls = [
        ("graph.checkpoint.put", put),  # a's version: channel_versions'
        (
            "graph.checkpoint.put_writes",
            {
                "thread_id": "t",
                "checkpoint_id": "c1",
                "task_id": "k",
                "writes": [{"channel": "a", **carried(b"w")}],
            },
        ),
        ("graph.checkpoint.put", {**put, "checkpoint": hashed(b"checkpoint")}),  # a hash beside: refused
        ("graph.checkpoint.put", {**put, "checkpoint": {"type": "msgpack"}}),  # no bytes: not carried
        ("graph.checkpoint.put", {**put, "new_values": [{"channel": "z", **carried(b"z")}]}),  # no version
        ("graph.checkpoint.get", {"thread_id": "t"}),
    ]
    results = [kernel.call(syscall, args, principal=A) for syscall, args in calls]
    kernel.close()
    assert [result.value for result in results[:2]] == [{}, {"stored": 1}]
    codes = [result.error.code if result.error else "ok" for result in results[2:5]]
    assert codes == ["invalid_args", "graph_value_not_carried", "invalid_args"]
    assert results[2].error is not None and "unknown field `hash`" in results[2].error.detail
    assert results[3].error is not None and results[3].error.detail.startswith("checkpoint: a value is named")
    assert results[4].error is not None and "no version" in results[4].error.detail
    found = results[5].value["checkpoint"]
    assert found["checkpoint"] == {"type": "msgpack", "hash": sha256_hex(b"checkpoint")}
    assert results[5].value["channel_versions"] == {"a": "2", "b": 3}  # the caller's alone
    assert b"channel_versions" not in _journaled(db, results[5].seq)
    assert found["channel_values"] == {"a": {"type": "msgpack", "hash": sha256_hex(b"value a")}}
    assert found["pending_writes"][0]["hash"] == sha256_hex(b"w")
    assert b'"hash"' not in _args(db, "graph.checkpoint.put")[0]
    assert h.verify(db).verified


def test_the_saver_writes_each_journal_in_its_own_form(tmp_path: Path, clock: ManualClock) -> None:
    """Format 8: no hash in the arguments, the checkpoint's bytes without its id and versions, a new
    value's version left out; format 7 as before. The saver reads both back whole."""
    for version, hashes in ((None, False), (7, True)):
        db = tmp_path / f"saver-{version}.db"
        saver = ArvisCheckpointSaver(_kernel(db, clock, version), principal=A)
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = {"a": "value a"}
        checkpoint["channel_versions"] = {"a": saver.get_next_version(None, None)}
        config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
        stored = saver.put(config, checkpoint, {"step": 1}, dict(checkpoint["channel_versions"]))
        saver.put_writes(stored, [("a", "write")], "task")
        found = saver.get_tuple(stored)
        put = _args(db, "graph.checkpoint.put")[0]
        carried_checkpoint = decode(put)["checkpoint"]
        blob = saver.serde.loads_typed(("msgpack", base64.b64decode(carried_checkpoint["data"])))
        saver.close()
        assert found is not None and found.checkpoint == checkpoint
        assert found.pending_writes == [("task", "a", "write")]
        assert (b'"hash"' in put) is hashes and (b'"version"' in put) is hashes
        assert ("id" in blob and "channel_versions" in blob) is hashes and "channel_values" not in blob
        assert h.verify(db).verified

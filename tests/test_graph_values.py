"""Values enter with the call that stores them (specs/langgraph.md §2, issue 36 findings 1 and 2).

``graph.checkpoint.put``, ``graph.checkpoint.put_writes`` and ``graph.store.put`` carry the bytes of every
value they store: a hash named alone is refused ``graph_value_not_carried``, journaled, whether or not
anyone stored those bytes, so no call makes an honest journal unverifiable and no reference tells one
principal what another stored; bytes that do not hash to the hash named are refused ``invalid_args``."""

from __future__ import annotations

import base64
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from graph_values import hashed, stored
from strategies import VOUCHED

from arvis.canonical import canonical_bytes, sha256_hex
from journal.engine import open_engine
from journal.reader import JournalReader
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

A, B = "agent:a", "agent:b"
ADMIN = "operator:root"
SECRET = b"the secret value"


def _verified(path: Path) -> bool:
    reader = JournalReader.open(str(path))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert report.verified, report.divergence
    return True


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "values.db"


@pytest.fixture
def kernel(db: Path, clock: ManualClock) -> Iterator[Kernel]:
    """A journal of format 7, where a value is carried with its hash (format 8: test_graph_values_once)."""
    SqlJournalStore(open_engine(str(db)), clock=clock, format_version=7).close()
    opened = open_kernel(str(db), clock=clock)
    assert opened.format.version == 7
    yield opened
    opened.close()


def _named(data: bytes) -> dict[str, str]:
    """A reference naming ``data`` by its hash without carrying it."""
    return {"type": "msgpack", "hash": sha256_hex(data)}


def _calls(ref: dict[str, Any], store_value: dict[str, Any], thread: str) -> list[tuple[str, dict[str, Any]]]:
    """One call of each syscall that stores a value, each storing ``ref`` (``store_value`` for the store)."""
    return [
        ("graph.checkpoint.put", {"thread_id": thread, "checkpoint_id": "c1", "checkpoint": ref}),
        (
            "graph.checkpoint.put",
            {
                "thread_id": thread,
                "checkpoint_id": "c2",
                "checkpoint": hashed(b"checkpoint"),
                "channel_versions": {"messages": 1},
                "new_values": [{"channel": "messages", "version": 1, **ref}],
            },
        ),
        (
            "graph.checkpoint.put_writes",
            {"thread_id": thread, "checkpoint_id": "c1", "task_id": "t", "writes": [{"channel": "a", **ref}]},
        ),
        ("graph.store.put", {"namespace": [thread], "key": "k", **store_value}),
    ]


def _own(kernel: Kernel, principal: str, *threads: str) -> None:
    """Create each thread and the store namespace of that name as ``principal``'s (format 4)."""
    for thread in threads:
        assert kernel.call("graph.thread.create", {"thread_id": thread}, principal=principal).ok
        assert kernel.call("graph.namespace.create", {"prefix": thread}, principal=principal).ok


def _has(db: Path, key: str) -> bool:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT 1 FROM graph_blobs WHERE hash = ?", (key,)).fetchone() is not None


def test_a_hash_of_bytes_never_stored_is_refused_journaled_and_the_journal_verifies(
    db: Path, kernel: Kernel
) -> None:
    value = {"never": "stored"}
    _own(kernel, A, "t1")
    for syscall, args in _calls(_named(SECRET), {"value_hash": sha256_hex(canonical_bytes(value))}, "t1"):
        result = kernel.call(syscall, args, principal=A)
        assert result.error is not None and result.error.code == "graph_value_not_carried", (syscall, result)
        assert result.seq is not None  # journaled
    assert not _has(db, sha256_hex(SECRET))
    assert kernel.call("graph.checkpoint.get", {"thread_id": "t1"}, principal=A).value == {"checkpoint": None}
    assert _verified(db)


def test_bytes_that_do_not_hash_to_the_hash_named_are_refused(db: Path, kernel: Kernel) -> None:
    forged = {**_named(SECRET), "data": base64.b64encode(b"something else").decode()}
    value = {"n": 1}
    _own(kernel, A, "t1")
    for syscall, args in _calls(forged, {"value_hash": "0" * 64, "value": value}, "t1"):
        result = kernel.call(syscall, args, principal=A)
        assert result.error is not None and result.error.code == "invalid_args", (syscall, result)
        assert "hash to" in result.error.detail and result.seq is not None
    assert not _has(db, sha256_hex(b"something else")) and not _has(db, sha256_hex(canonical_bytes(value)))
    assert _verified(db)


def test_a_value_carried_is_stored_with_its_call_and_read_back(db: Path, kernel: Kernel) -> None:
    value = {"tz": "UTC"}
    _own(kernel, A, "t1")
    for syscall, args in _calls(hashed(SECRET), stored(value), "t1"):
        assert kernel.call(syscall, args, principal=A).ok, syscall
    assert _has(db, sha256_hex(SECRET)) and _has(db, sha256_hex(canonical_bytes(value)))
    got = kernel.call("graph.store.get", {"namespace": ["t1"], "key": "k"}, principal=A)
    assert got.ok and got.value["item"]["value_hash"] == sha256_hex(canonical_bytes(value))
    found = kernel.call(
        "graph.store.search", {"namespace_prefix": ["t1"], "filter": {"tz": "UTC"}}, principal=A
    )
    assert found.ok and len(found.value["items"]) == 1
    assert _verified(db)


def test_naming_another_principals_value_answers_as_for_a_value_nobody_stored(
    db: Path, kernel: Kernel
) -> None:
    """A stores a value; B names its hash in B's own thread and namespace: B gets exactly the refusal it
    gets for a hash nobody stored (the detail differs only by the hash), and nothing of A's."""
    value = {"secret": 1}
    _own(kernel, A, "a-thread")
    _own(kernel, B, "b-thread")
    for syscall, args in _calls(hashed(SECRET), stored(value), "a-thread"):
        assert kernel.call(syscall, args, principal=A).ok, syscall
    guessed = _calls(_named(SECRET), {"value_hash": sha256_hex(canonical_bytes(value))}, "b-thread")
    wrong = _calls(_named(b"a wrong guess"), {"value_hash": sha256_hex(b"a wrong guess")}, "b-thread")
    for (syscall, right_args), (_, wrong_args) in zip(guessed, wrong, strict=True):
        right = kernel.call(syscall, right_args, principal=B)
        miss = kernel.call(syscall, wrong_args, principal=B)
        assert right.error is not None and miss.error is not None, syscall
        assert right.error.code == miss.error.code == "graph_value_not_carried"
        right_hash = right_args.get("value_hash") or sha256_hex(SECRET)
        wrong_hash = wrong_args.get("value_hash") or sha256_hex(b"a wrong guess")
        assert right.error.detail.replace(right_hash, "H") == miss.error.detail.replace(wrong_hash, "H")
    assert kernel.call("graph.checkpoint.get", {"thread_id": "b-thread"}, principal=B).value == {
        "checkpoint": None
    }
    assert kernel.call("graph.store.get", {"namespace": ["b-thread"], "key": "k"}, principal=B).value == {
        "item": None
    }
    assert _verified(db)


def test_values_up_to_the_graph_calls_own_limit_are_carried(db: Path, kernel: Kernel) -> None:
    """A checkpoint's values come with its call, so the three value-carrying calls take arguments of up to
    ``MAX_VALUE_ARGS_BYTES`` (a conversation's checkpoint outgrows 64 KiB fast); every other call keeps
    the kernel's 65 536 bytes, and a call over its limit is refused, journaled."""
    big = bytes(range(256)) * 4096  # 1 MiB
    big_value = {"history": "x" * 1_000_000}
    _own(kernel, A, "t9")
    for syscall, args in _calls(hashed(big), stored(big_value), "t9"):
        assert kernel.call(syscall, args, principal=A).ok, syscall
    assert _has(db, sha256_hex(big))
    note = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}
    too_long = kernel.call("memory.write", note | {"notes": "x" * 70_000}, principal="user:u1")
    assert too_long.error is not None and too_long.error.code == "invalid_args" and too_long.seq is not None
    assert "exceed 65536 bytes" in too_long.error.detail
    over = kernel.call(
        "graph.store.put", {"namespace": ["t9"], "key": "k2", **stored({"x": "y" * 17_000_000})}, principal=A
    )
    assert (
        over.error is not None
        and over.error.code == "invalid_args"
        and "exceed 16777216 bytes" in over.error.detail
    )
    assert _verified(db)


def test_a_filtered_search_reads_a_value_put_in_the_same_transaction(db: Path, kernel: Kernel) -> None:
    """A put and a filtered search committed together (one batch, as a group commit runs them): the search
    finds the value live, and the journal verifies (the replay reads what the live call read)."""
    _own(kernel, A, "n")
    put = {"namespace": ["n"], "key": "k", **stored({"colour": "blue"})}
    results = kernel.call_many(
        [
            ("graph.store.put", put, A),
            ("graph.store.search", {"namespace_prefix": ["n"], "filter": {"colour": "blue"}}, A),
        ]
    )
    assert [result.ok for result in results] == [True, True], results
    assert [item["key"] for item in results[1].value["items"]] == ["k"]
    assert _verified(db)


def test_a_refused_put_leaves_no_blob(db: Path, clock: ManualClock) -> None:
    """The bytes a call carries are stored with its entry, only when it is accepted: a put over its
    owner's quota is refused, and stores nothing."""
    value = {"refused": True}
    kernel = open_kernel(str(db), clock=clock, create=True, identity=VOUCHED, store_quota_bytes=4)
    try:
        refused = kernel.call(
            "graph.store.put", {"namespace": ["n"], "key": "k", **stored(value)}, principal=ADMIN
        )
        assert refused.error is not None and refused.error.code == "memory_limit_exceeded", refused
        assert refused.seq is not None
    finally:
        kernel.close()
    assert not _has(db, sha256_hex(canonical_bytes(value)))
    assert _verified(db)

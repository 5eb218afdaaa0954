"""The cheaper append of revision 0006: the per-user entry counts that replaced a COUNT(*) at every
write; and stores that take turns on one file. (What a store keeps of active pipeline runs between its
calls is tested in test_caches.py.)"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from arvis.memory.memory_rows import COLUMNS
from arvis.memory.memory_service import entry_from_row
from journal.reader import JournalReader
from journal.store import SqlJournalStore
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h


def _write(key: str, user: str = "u1") -> tuple[str, dict[str, Any], str]:
    args = {"user_id": user, "key": key, "memory_type": "preference", "source": "explicit_user"}
    return "memory.write", args, f"user:{user}"


def _call(kernel: Kernel, call: tuple[str, dict[str, Any], str]) -> int:
    name, args, principal = call
    result = kernel.call(name, args, principal=principal)
    assert result.ok and result.seq is not None, result
    return result.seq


def _verified(path: Path) -> bool:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE).verified
    finally:
        reader.close()


def test_two_stores_on_one_file_take_turns_and_the_chain_holds(tmp_path: Path) -> None:
    """Each store reads the head under the write lock in every transaction: whatever the other store
    appended is chained from, and no seq is lost or taken twice (state rows keyed by seq included)."""
    path = tmp_path / "j.db"
    first, second = open_kernel(str(path), create=True), open_kernel(str(path), create=True)
    try:
        seqs = [_call(first if index % 3 else second, _write(f"key_{index}")) for index in range(12)]
        # a working-memory call writes a state row keyed by seq (awmu_events)
        # (the agent's own context: format 2 reserves a name "P/..." to P)
        seqs.append(
            _call(second, ("memory.awmu.create", {"context_id": "agent:planner/c1"}, "agent:planner"))
        )
        for kernel in (first, second, first):
            result = kernel.call(
                "memory.awmu.propose",
                {
                    "context_id": "agent:planner/c1",
                    "text": f"fact {len(seqs)}",
                    "confidence": 0.9,
                },
                principal="agent:planner",
            )
            assert result.ok and result.seq is not None, result
            seqs.append(result.seq)
    finally:
        first.close()
        second.close()
    assert seqs == list(range(1, len(seqs) + 1))
    assert _verified(path)


def _counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT user_id, entries FROM memory_entry_counts").fetchall()
    return {str(user): int(count) for user, count in rows}


def test_entry_counts_follow_every_insert_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), create=True)
    try:
        _call(kernel, _write("a"))
        _call(kernel, _write("b"))
        _call(kernel, _write("a", user="u2"))
        replace = {**_write("a")[1], "replace": True}
        _call(kernel, ("memory.write", replace, "user:u1"))  # a new version: one more row
        _call(kernel, ("memory.revoke", {"user_id": "u1", "key": "b"}, "user:u1"))  # an update: no row
        conflict = kernel.call(*_write("a")[:2], principal="user:u1")  # refused: nothing written
        assert conflict.error is not None and conflict.error.code == "memory_conflict"
    finally:
        kernel.close()
    assert _counts(path) == {"u1": 3, "u2": 1}
    with sqlite3.connect(path) as connection:
        rows = dict(connection.execute("SELECT user_id, COUNT(*) FROM memory_entries GROUP BY user_id"))
    assert rows == {"u1": 3, "u2": 1}


def test_the_limit_is_read_from_the_counts(tmp_path: Path) -> None:
    from arvis.memory.memory_service import MAX_ENTRIES_PER_USER

    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), create=True)
    try:
        _call(kernel, _write("a"))
        with sqlite3.connect(path) as connection:
            connection.execute(
                "UPDATE memory_entry_counts SET entries = ? WHERE user_id = 'u1'", (MAX_ENTRIES_PER_USER,)
            )
        refused = kernel.call(*_write("b")[:2], principal="user:u1")
        assert refused.error is not None and refused.error.code == "memory_limit_exceeded"
        assert refused.seq is not None  # a journaled refusal
        _call(kernel, _write("b", user="u2"))  # another user is not concerned
    finally:
        kernel.close()
    # the hand-edited count changed what the kernel decided: replaying the journal shows it
    divergence = _divergence(path)
    assert divergence is not None and divergence.seq == 2
    assert "memory_limit_exceeded" in divergence.reason


def _divergence(path: Path) -> Any:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE).divergence
    finally:
        reader.close()


def test_verification_checks_the_counts_against_the_entries(tmp_path: Path) -> None:
    """A count edited by hand that has not yet changed any decision is found all the same."""
    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), create=True)
    try:
        _call(kernel, _write("a"))
    finally:
        kernel.close()
    assert _divergence(path) is None
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE memory_entry_counts SET entries = 7 WHERE user_id = 'u1'")
    divergence = _divergence(path)
    assert divergence is not None and "entry counts" in divergence.reason


def test_the_wire_forms_from_rows_are_the_typed_entries_wire_forms(tmp_path: Path) -> None:
    """``SqlMemoryReader.list_entry_wires`` (rows as stored) equals ``to_wire`` of the typed
    entries, history, revocation, expiry, notes and governance included."""
    from arvis.canonical import plain

    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), create=True)
    try:
        _call(kernel, _write("a"))
        _call(
            kernel, ("memory.write", {**_write("a")[1], "replace": True, "notes": "ttl_default"}, "user:u1")
        )
        governed = {**_write("g")[1], "governance": {"visibility": "sealed", "sharing": "never_share"}}
        _call(kernel, ("memory.write", governed, "user:u1"))
        tomorrow = datetime.now(timezone(timedelta(hours=2))) + timedelta(days=1)
        _call(kernel, ("memory.write", {**_write("e")[1], "expires_at": tomorrow.isoformat()}, "user:u1"))
        _call(kernel, _write("r"))
        _call(kernel, ("memory.revoke", {"user_id": "u1", "key": "r"}, "user:u1"))
        store = kernel.store
        assert isinstance(store, SqlJournalStore)
        with h.memory_reader(store) as repository:
            from_rows = plain(repository.list_entry_wires(user_id="u1"))
        with store.engine.connect() as connection:  # the typed reading of the same rows
            selected = ", ".join(f'"{name}"' for name in COLUMNS)
            rows = connection.exec_driver_sql(f"SELECT {selected} FROM memory_entries WHERE user_id = 'u1'")
            typed = [entry_from_row(dict(zip(COLUMNS, row, strict=True))).to_wire() for row in rows]
    finally:
        kernel.close()
    key = lambda wire: (wire["key"], wire["created_at"], wire["superseded_at"] or "")  # noqa: E731
    assert sorted(from_rows, key=key) == sorted(typed, key=key)
    assert len(typed) == 5


def test_a_writer_refuses_state_text_that_is_not_utf8_and_journals_nothing(tmp_path: Path) -> None:
    """Only readers decode hand-edited text leniently (for the verifier); the kernel's own connection
    keeps the driver's strict decoding, and a row it cannot read is a storage error, not a result."""
    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), create=True)
    try:
        head = _call(kernel, _write("a"))
        with sqlite3.connect(path) as connection:
            connection.execute("UPDATE memory_entries SET source = CAST(X'ff' AS TEXT) WHERE \"key\" = 'a'")
        result = kernel.call("memory.get", {"user_id": "u1", "key": "a"}, principal="user:u1")
        assert result.seq is None and result.error is not None
        assert result.error.code == "storage_unavailable"
        assert _call(kernel, _write("b")) == head + 1  # nothing was journaled; the next call works
    finally:
        kernel.close()

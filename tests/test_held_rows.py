"""``arvis.memory.held_rows.HeldMemory``: one user's ``memory_entries`` rows held in memory answer the memory
service as the table does (``SqlMemoryReader`` with ``ChangeWriter``, on a real SQLite database), and take
only rows and changes the table would hold."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine

from arvis.canonical import canonical_bytes_of_own
from arvis.changes import Delete, Insert, Update, Upsert
from arvis.memory.errors import MemoryRuleError
from arvis.memory.held_rows import HeldMemory, UnheldRow
from arvis.memory.memory_rows import COLUMNS
from arvis.memory.memory_service import MemoryService
from journal.apply import ChangeWriter
from journal.memory_repository import SqlMemoryReader
from journal.schema import memory_entries, memory_entry_counts
from journal.sql import SqlRunner, insert_sql
from syscalls.memory_long import WriteArgs

USER = "u1"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
KEYS = ("a", "B", "b", "é", "z", "\U0001d518", "a b", "a-b")
"""Keys whose code-point order differs from a case-insensitive or locale order."""
SERVICE = MemoryService()
_DECODE_WRITE = msgspec.json.Decoder(WriteArgs)


@contextmanager
def _table() -> Iterator[SqlRunner]:
    """A fresh SQLite database holding ``memory_entries`` and its counts, in one open transaction."""
    engine = create_engine("sqlite://")
    memory_entries.create(engine)
    memory_entry_counts.create(engine)
    with engine.connect() as connection:
        sql = SqlRunner(connection)
        sql.attach()
        try:
            yield sql
        finally:
            connection.rollback()
    engine.dispose()


def _rows(sql: SqlRunner) -> list[dict[str, Any]]:
    names = ", ".join(f'"{column}"' for column in COLUMNS)
    return [dict(zip(COLUMNS, row, strict=True)) for row in sql.rows(f"SELECT {names} FROM memory_entries")]


def _load(sql: SqlRunner, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        sql.write(insert_sql("memory_entries", COLUMNS), row)
    if rows:
        sql.write(
            insert_sql("memory_entry_counts", ["user_id", "entries"]), {"user_id": USER, "entries": len(rows)}
        )


def _write(key: str, replace: bool, expires: int | None, notes: str | None) -> WriteArgs:
    args: dict[str, Any] = {
        "user_id": USER,
        "key": key,
        "memory_type": "preference",
        "source": "explicit_user",
    }
    args.update(replace=replace, notes=notes, value_ref=None if notes is None else f"ref:{key}")
    if expires is not None:
        args["expires_at"] = (T0 + timedelta(seconds=expires)).isoformat()
    return _DECODE_WRITE.decode(canonical_bytes_of_own(args))


operations = st.lists(
    st.tuples(
        st.sampled_from(("write", "write", "write", "revoke")),
        st.sampled_from(KEYS),
        st.booleans(),
        st.one_of(st.none(), st.integers(0, 40)),
        st.one_of(st.none(), st.sampled_from(("ttl_default", "policy_gate"))),
        st.integers(0, 3),  # seconds since the last operation: several may share a moment
    ),
    max_size=30,
)


def _outcome(service_call: Any) -> Any:
    try:
        decision = service_call()
    except MemoryRuleError as refusal:
        return ("refused", refusal.code, str(refusal)), ()
    return ("ok", canonical_bytes_of_own(decision.value)), decision.changes


def _reads(reader: Any, now: datetime) -> tuple[Any, ...]:
    """Everything the service reads or returns over the rows, as bytes."""
    current = {key: reader.current(user_id=USER, key=key) for key in KEYS}
    return (
        canonical_bytes_of_own(reader.list_entry_wires(user_id=USER)),
        canonical_bytes_of_own([reader.get_entry_wire(user_id=USER, key=key) for key in KEYS]),
        {
            key: None if found is None else (found.entry.to_wire(), found.version)
            for key, found in current.items()
        },
        [reader.current_and_count(user_id=USER, key=key)[1] for key in KEYS],
        canonical_bytes_of_own(SERVICE.snapshot(reader, user_id=USER, now=now)),
        canonical_bytes_of_own(SERVICE.list(reader, user_id=USER, now=now, include_inactive=True)),
        reader.list_entry_wires(user_id="someone else"),
    )


@settings(max_examples=150, deadline=None)
@given(before=operations, after=operations)
def test_held_rows_answer_as_the_table_does(before: list[Any], after: list[Any]) -> None:
    """The rows the table holds after ``before`` are handed to ``HeldMemory`` (as a checkpoint's page
    would hand them); then every operation of ``after`` is decided on both, with the same outcome and
    the same changes, and every read agrees after each."""
    with _table() as sql:
        reader, writer = SqlMemoryReader(sql, counted=True), ChangeWriter(sql, counted=True)
        now, seq = T0, 0

        def run(operation: Any, on: Any) -> Any:
            kind, key, replace, expires, notes, _ = operation
            if kind == "write":
                request = _write(key, replace, expires, notes)
                return _outcome(lambda: SERVICE.write(on, request, now=now, seq=seq))
            return _outcome(lambda: SERVICE.revoke(on, user_id=USER, key=key, now=now))

        for operation in before:
            now, seq = now + timedelta(seconds=operation[-1]), seq + 1
            outcome, changes = run(operation, reader)
            writer.apply(changes)
        held = HeldMemory(USER, _rows(sql))
        assert _reads(held, now) == _reads(reader, now)
        for operation in after:
            now, seq = now + timedelta(seconds=operation[-1]), seq + 1
            outcome, changes = run(operation, reader)
            assert run(operation, held) == (outcome, changes)
            writer.apply(changes)
            held.apply(changes)
            assert _reads(held, now) == _reads(reader, now)


GOVERNANCE = (
    '{"encryption":"at_rest","principal":"user","retention":"persistent","sharing":"personal",'
    '"visibility":"usable"}'
)


def _row(**changed: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "user_id": USER,
        "key": "a",
        "version": 1,
        "memory_type": "preference",
        "created_at": "2026-01-01T00:00:00.000000Z",
        "source": "explicit_user",
        "notes": None,
        "value_ref": None,
        "expires_at": None,
        "revoked_at": None,
        "superseded_at": None,
        "governance": GOVERNANCE,
        "written_seq": 1,
    }
    row.update(changed)
    return row


@pytest.mark.parametrize(
    "rows",
    [
        [_row(user_id="u2")],
        [{key: value for key, value in _row().items() if key != "notes"}],
        [{**_row(), "extra": 1}],
        [_row(value_ref=5)],
        [_row(version="1")],
        [_row(version=True)],
        [_row(written_seq=1.0)],
        [_row(memory_type=None)],
        [_row(governance={"encryption": "at_rest"})],
        [_row(), _row(notes="again")],
    ],
    ids=[
        "another-user",
        "missing-column",
        "unknown-column",
        "value-ref-not-text",
        "version-text",
        "version-bool",
        "seq-float",
        "required-null",
        "governance-object",
        "same-key-and-version",
    ],
)
def test_rows_the_table_would_not_hold_are_refused(rows: list[dict[str, Any]]) -> None:
    with pytest.raises(UnheldRow):
        HeldMemory(USER, rows)


_WHERE = {"user_id": USER, "key": "a", "version": 1}


@pytest.mark.parametrize(
    "change",
    [
        Insert("memory_entries", _row()),  # version 1 is held already
        Insert("memory_entries", _row(version=2, user_id="u2")),
        Insert("memory_entry_counts", {"user_id": USER, "entries": 1}),
        Update("memory_entries", {**_WHERE, "version": 9}, {"revoked_at": "2026-01-02T00:00:00.000000Z"}),
        Update(
            "memory_entries", {"user_id": USER, "key": "a"}, {"revoked_at": "2026-01-02T00:00:00.000000Z"}
        ),
        Update("memory_entries", _WHERE, {"notes": "x"}),
        Update("memory_entries", _WHERE, {"revoked_at": 5}),
        Upsert("memory_entries", _row(version=2)),
        Delete("memory_entries", _WHERE),
    ],
    ids=[
        "insert-held-version",
        "insert-another-user",
        "another-table",
        "update-absent-row",
        "update-without-version",
        "update-other-column",
        "update-not-text",
        "upsert",
        "delete",
    ],
)
def test_a_change_set_the_rows_cannot_take_changes_nothing(change: Any) -> None:
    held = HeldMemory(USER, [_row()])
    before = held.list_entry_wires(user_id=USER)
    good = Insert("memory_entries", _row(key="b"))
    revoke = Update("memory_entries", _WHERE, {"revoked_at": "2026-01-02T00:00:00.000000Z"})
    with pytest.raises(UnheldRow):
        held.apply([revoke, good, change])
    assert canonical_bytes_of_own(held.list_entry_wires(user_id=USER)) == canonical_bytes_of_own(before)
    assert held.count_entries(user_id=USER) == 1
    held.apply([revoke, good])
    assert held.count_entries(user_id=USER) == 2
    assert held.current(user_id=USER, key="a") is not None
    assert held.get_entry_wire(user_id=USER, key="a")["revoked_at"] == "2026-01-02T00:00:00.000000Z"  # type: ignore[index]

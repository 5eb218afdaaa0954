"""The kernel on a real SQLite file: reopening, append-only triggers, tamper detection, pragmas, locking."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy.exc
from chain_check import ChainReport, verify_chain
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text
from strategies import T0, key_args, state_rows, write_args

from journal.engine import Durability, open_engine
from journal.entry import compute_entry_hash
from journal.reader import JournalReader
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from syscalls.boot import default_services, open_kernel
from syscalls.table import SYSCALL_TABLE

TEXT_COLUMNS = ("recorded_at", "syscall", "principal", "status", "effects_hash", "prev_hash", "entry_hash")
BLOB_COLUMNS = ("args", "result")
COLUMNS = TEXT_COLUMNS + BLOB_COLUMNS
TRIGGERS = ("journal_no_update", "journal_no_delete", "journal_header_no_update", "journal_header_no_delete")


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection in autocommit mode, closed on exit."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        yield connection
    finally:
        connection.close()


def verify_file(path: Path) -> ChainReport:
    reader = JournalReader.open(str(path))
    try:
        header = reader.header()
        assert header is not None
        return verify_chain(header, reader.entries())
    finally:
        reader.close()


def populate(kernel: Kernel) -> None:
    """Six calls: accepted writes, a revoke, reads and two refusals."""
    calls = [
        ("memory.write", write_args("language", value_ref="en")),
        ("memory.write", write_args("no_marketing_emails", memory_type="constraint")),
        ("memory.write", write_args("language", value_ref="fr")),  # memory_conflict
        ("memory.revoke", key_args("no_marketing_emails")),
        ("memory.list", {"user_id": "u1", "include_inactive": True}),
        ("memory.snapshot", {"user_id": "u1", "bogus": 1}),  # invalid_args
    ]
    for name, args in calls:
        assert kernel.call(name, args, principal="user:u1").seq is not None


def drop_triggers(path: Path) -> None:
    with raw(path) as connection:
        for trigger in TRIGGERS:
            connection.execute(f"DROP TRIGGER {trigger}")


def flip_byte(path: Path, seq: int, column: str, position: int, mask: int) -> None:
    """XOR one byte of one column of journal row ``seq``, keeping the column's storage class."""
    with raw(path) as connection:
        (data,) = connection.execute(
            f"SELECT CAST({column} AS BLOB) FROM journal WHERE seq = ?", (seq,)
        ).fetchone()
        changed = bytearray(data)
        changed[position % len(changed)] ^= mask
        value = "CAST(? AS TEXT)" if column in TEXT_COLUMNS else "?"
        connection.execute(f"UPDATE journal SET {column} = {value} WHERE seq = ?", (bytes(changed), seq))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "journal.db"


def copy_database(source: Path, target: Path) -> Path:
    with raw(source) as origin, contextlib.closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)
    return target


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed journal file holding the six calls of ``populate``, built once per module."""
    path = tmp_path_factory.mktemp("template") / "journal.db"
    kernel = open_kernel(str(path), clock=ManualClock(T0, step=timedelta(seconds=1)), create=True)
    try:
        populate(kernel)
    finally:
        kernel.store.close()
    return path


@pytest.fixture
def populated(template: Path, db: Path) -> Path:
    """A private copy of the template journal."""
    return copy_database(template, db)


# --------------------------------------------------------------------------------------------------
# reopening


def test_reopen_keeps_state_and_continues_the_chain(db: Path, kernel_factory: Callable[..., Kernel]) -> None:
    first = kernel_factory(str(db), journal_id="j-reopen")
    populate(first)
    for reader in ("audit", "a"):  # the readers of this test, granted through the journal
        grant = {"principal": reader, "capability": "read", "scope": "user:u1"}
        assert first.call("access.grant", grant, principal="operator:test").ok
    listing = first.call("memory.list", {"user_id": "u1", "include_inactive": True}, principal="audit").value
    rows = state_rows(first)
    header = first.store.header
    head = list(JournalReader(first.store.engine).entries())[-1]
    first.store.close()

    second = kernel_factory(str(db), clock=ManualClock(T0 + timedelta(days=1)))
    assert (second.store.header.journal_id, second.store.header.genesis_hash) == (
        "j-reopen",
        header.genesis_hash,
    )
    assert state_rows(second) == rows
    # the grant to "a" survived the reopening
    assert (
        second.call("memory.list", {"user_id": "u1", "include_inactive": True}, principal="a").value
        == listing
    )
    assert second.call("memory.get", key_args("language"), principal="a").value["entry"]["value_ref"] == "en"

    result = second.call("memory.write", write_args("timezone"), principal="user:u1")
    assert result.ok
    assert result.seq == head.seq + 3  # after the list and the get above
    entries = list(JournalReader(second.store.engine).entries())
    assert [entry.seq for entry in entries] == list(range(1, head.seq + 4))
    assert entries[head.seq].prev_hash == head.entry_hash
    second.store.close()

    report = verify_file(db)
    assert report.verified, report
    assert (report.entries, report.head.seq, report.head.entry_hash) == (
        head.seq + 3,
        head.seq + 3,
        entries[-1].entry_hash,
    )


def test_two_kernels_on_one_file_share_one_gapless_chain(
    db: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    first = kernel_factory(str(db))
    second = kernel_factory(str(db), clock=ManualClock(T0, step=timedelta(seconds=1)))
    seqs = []
    for number, kernel in zip(range(10), itertools.cycle([first, second]), strict=False):
        result = kernel.call("memory.write", write_args(f"k{number}"), principal="user:u1")
        assert result.ok
        seqs.append(result.seq)
    assert seqs == list(range(1, 11))
    first.store.close()
    second.store.close()
    assert verify_file(db).verified


# --------------------------------------------------------------------------------------------------
# append-only triggers


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE journal SET status = 'ok' WHERE seq = 3",
        "UPDATE journal SET args = x'7b7d'",
        "DELETE FROM journal WHERE seq = 6",
        "DELETE FROM journal",
        "UPDATE journal_header SET journal_id = 'forged'",
        "DELETE FROM journal_header",
    ],
)
def test_triggers_refuse_update_and_delete_through_sqlite3(populated: Path, statement: str) -> None:
    with raw(populated) as connection:
        before = connection.execute("SELECT * FROM journal ORDER BY seq").fetchall()
        header = connection.execute("SELECT * FROM journal_header").fetchall()
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            connection.execute(statement)
        assert connection.execute("SELECT * FROM journal ORDER BY seq").fetchall() == before
        assert connection.execute("SELECT * FROM journal_header").fetchall() == header
    assert len(before) == 6
    assert verify_file(populated).verified


@pytest.mark.parametrize(
    "statement", ["UPDATE journal SET principal = 'x'", "DELETE FROM journal WHERE seq > 1"]
)
def test_triggers_refuse_update_and_delete_through_sqlalchemy(
    db: Path, kernel_factory: Callable[..., Kernel], statement: str
) -> None:
    kernel = kernel_factory(str(db))
    populate(kernel)
    with (
        pytest.raises(sqlalchemy.exc.IntegrityError, match="append-only"),
        kernel.store.engine.begin() as connection,
    ):
        connection.execute(text(statement))
    assert len(list(JournalReader(kernel.store.engine).entries())) == 6
    assert kernel.call("memory.list", {"user_id": "u1"}, principal="user:u1").seq == 7


# --------------------------------------------------------------------------------------------------
# tampering that bypasses the triggers


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize("seq", [1, 4, 6])
def test_flipping_a_byte_names_its_seq(populated: Path, column: str, seq: int) -> None:
    assert verify_file(populated).verified
    drop_triggers(populated)
    flip_byte(populated, seq, column, position=0, mask=0x01)
    report = verify_file(populated)
    assert not report.verified
    assert report.first_bad_seq == seq, report
    assert report.head.seq == seq - 1


@pytest.fixture(scope="module")
def pristine(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template journal with its triggers dropped, copied for each example."""
    path = copy_database(template, tmp_path_factory.mktemp("pristine") / "journal.db")
    drop_triggers(path)
    return path


_copies = itertools.count()


@given(
    seq=st.integers(min_value=1, max_value=6),
    column=st.sampled_from(COLUMNS),
    position=st.integers(min_value=0, max_value=10_000),
    mask=st.integers(min_value=1, max_value=255),
)
def test_flipping_any_byte_of_any_entry_fails_at_that_seq(
    pristine: Path, tmp_path_factory: pytest.TempPathFactory, seq: int, column: str, position: int, mask: int
) -> None:
    """Flipping any bit pattern of any byte of any column of entry N makes verification fail at N, and
    only there: every entry before N still verifies."""
    copy = copy_database(pristine, tmp_path_factory.getbasetemp() / f"tampered-{next(_copies)}.db")
    flip_byte(copy, seq, column, position, mask)
    report = verify_file(copy)
    copy.unlink()
    assert report.first_bad_seq == seq, report
    assert report.entries == seq - 1


def test_deleting_a_middle_row_is_a_seq_gap(populated: Path) -> None:
    drop_triggers(populated)
    with raw(populated) as connection:
        connection.execute("DELETE FROM journal WHERE seq = 4")
    report = verify_file(populated)
    assert (report.verified, report.first_bad_seq) == (False, 4)
    assert "gap" in (report.reason or "")


def test_altered_header_fails_before_the_first_entry(populated: Path) -> None:
    drop_triggers(populated)
    with raw(populated) as connection:
        connection.execute("UPDATE journal_header SET journal_id = 'j-forged'")
    report = verify_file(populated)
    assert (report.verified, report.first_bad_seq, report.entries) == (False, 0, 0)


def test_rewritten_entry_with_recomputed_hash_breaks_the_next_link(populated: Path) -> None:
    """An editor who rewrites entry 3 and its own hash is still caught: entry 4 no longer chains."""
    drop_triggers(populated)
    with raw(populated) as connection:
        row = connection.execute(
            "SELECT seq, recorded_at, syscall, principal, args, status, result, effects_hash, prev_hash "
            "FROM journal WHERE seq = 3"
        ).fetchone()
        forged = compute_entry_hash(
            prev_hash=row[8],
            seq=row[0],
            recorded_at=row[1],
            syscall=row[2],
            principal="user:mallory",
            args=row[4],
            status=row[5],
            result=row[6],
            effects_hash=row[7],
        )
        connection.execute(
            "UPDATE journal SET principal = 'user:mallory', entry_hash = ? WHERE seq = 3", (forged,)
        )
    report = verify_file(populated)
    assert (report.verified, report.first_bad_seq) == (False, 4)


# --------------------------------------------------------------------------------------------------
# pragmas and durability


def _pragma(kernel: Kernel, name: str) -> object:
    with kernel.store.engine.connect() as connection:
        return connection.exec_driver_sql(f"PRAGMA {name}").scalar()


def test_file_journal_uses_wal_and_synchronous_normal(
    db: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    kernel = kernel_factory(str(db))
    assert _pragma(kernel, "journal_mode") == "wal"
    assert _pragma(kernel, "synchronous") == 1  # NORMAL
    assert _pragma(kernel, "busy_timeout") == 10_000
    with raw(db) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # persisted in the file


def test_durability_full(db: Path, kernel_factory: Callable[..., Kernel]) -> None:
    kernel = kernel_factory(str(db), durability=Durability.FULL)
    assert _pragma(kernel, "synchronous") == 2  # FULL
    assert _pragma(kernel, "journal_mode") == "wal"
    assert kernel.call("memory.write", write_args(), principal="user:u1").ok


def test_durability_values() -> None:
    assert Durability("NORMAL") is Durability.NORMAL
    assert Durability("FULL") is Durability.FULL
    with pytest.raises(ValueError):
        Durability("EXTRA")


def test_in_memory_database_is_not_wal(kernel: Kernel) -> None:
    assert _pragma(kernel, "journal_mode") == "memory"


# --------------------------------------------------------------------------------------------------
# a locked database


def test_a_locked_database_is_storage_busy_and_journals_nothing(db: Path) -> None:
    """Another writer holding the lock past the busy timeout (and the retries) gives storage_busy:
    unacknowledged, nothing journaled, and the next call succeeds."""
    clock = ManualClock(T0, step=timedelta(seconds=1))
    store = SqlJournalStore(open_engine(str(db), busy_timeout_ms=20), clock=clock)
    kernel = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
    try:
        assert kernel.call("memory.write", write_args("language"), principal="user:u1").seq == 1
        with raw(db) as holder:
            holder.execute("BEGIN IMMEDIATE")
            result = kernel.call("memory.write", write_args("timezone"), principal="user:u1")
            holder.execute("ROLLBACK")
        assert (result.ok, result.seq) == (False, None)
        assert result.error is not None and result.error.code == "storage_busy"
        assert "locked" in result.error.detail
        assert [row["key"] for row in state_rows(kernel)] == ["language"]
        retried = kernel.call("memory.write", write_args("timezone"), principal="user:u1")
        assert (retried.ok, retried.seq) == (True, 2)
    finally:
        store.close()
    assert verify_file(db).verified

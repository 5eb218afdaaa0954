"""Readers and writers on journals a hand edit damaged (the append-only triggers dropped, one column
changed): every command either reports the damage (verify: not verified, exit 1) or refuses with one
clear line (exit 1 or 2), never an "unexpected error", a hang, a silent pass or a changed file."""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path
from typing import Any

import journal_helpers as h
import pytest

from journal.reader import JournalReader

BAD_TEXT = "CAST(X'ff' AS TEXT)"
"""One byte that is not UTF-8, stored as TEXT (SQLite keeps it; strict decoding fails on it)."""

MAX_SEQ = 2**63 - 1


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    h.build_journal(path)
    return path


def _header_edit(path: Path, assignment: str) -> None:
    h.drop_trigger(path, "journal_header_no_update")
    with h.raw_db(path) as connection:
        connection.execute(f"UPDATE journal_header SET {assignment}")


def _json(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, Any]:
    code, out, err = h.cli(capsys, *argv)
    assert "unexpected error" not in err
    return code, json.loads(out)


def _one_line_refusal(code: int, out: str, err: str) -> None:
    assert code in (1, 2), (code, out, err)
    assert "unexpected error" not in err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err


# --- A: invalid UTF-8 in the header and in state rows ------------------------------------------------

HEADER_EDITS = {
    "journal_id": f"journal_id = {BAD_TEXT}",
    "created_at": "created_at = X'ff'",
    "created_at_form": "created_at = '2026-01-01'",
    "genesis_hash": f"genesis_hash = {BAD_TEXT}",
}


@pytest.mark.parametrize("edit", sorted(HEADER_EDITS))
@pytest.mark.parametrize("output", ["table", "json"])
def test_verify_names_seq_0_for_a_header_that_is_not_text(
    db: Path, capsys: pytest.CaptureFixture[str], edit: str, output: str
) -> None:
    _header_edit(db, HEADER_EDITS[edit])
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db, "-o", output)
    assert code == 1, err
    assert "unexpected error" not in err
    if output == "json":
        report = json.loads(out)
        assert (report["verified"], report["first_bad_seq"]) == (False, 0)
        assert report["reason"].startswith("journal header altered")
    else:
        assert out.startswith("NOT verified: seq 0 ")


STATE_EDITS = {
    "grants.principal": f"UPDATE grants SET principal = {BAD_TEXT} || principal",
    "memory_entries.key": f"UPDATE memory_entries SET key = {BAD_TEXT} || key",
    "memory_entries.governance": "UPDATE memory_entries SET governance = CAST(X'7bff' AS TEXT)",
}


@pytest.mark.parametrize("edit", sorted(STATE_EDITS))
def test_verify_reports_a_state_row_that_is_not_text_as_a_state_mismatch(
    db: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    with h.raw_db(db) as connection:
        assert connection.execute(STATE_EDITS[edit]).rowcount >= 1
    code, report = _json(capsys, "journal", "verify", "--db", db, "-o", "json")
    assert code == 1
    assert report["verified"] is False
    assert report["reason"] == "the stored state differs from the state its journal produces"
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db)
    assert code == 1 and "unexpected error" not in err
    assert "the stored state differs" in out


def test_verify_of_several_journals_keeps_every_report(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The damaged journals come after a sound one: its report is not lost to a crash on theirs."""
    bad_header = h.copy_db(db, tmp_path / "header.db")
    _header_edit(bad_header, HEADER_EDITS["journal_id"])
    bad_state = h.copy_db(db, tmp_path / "state.db")
    with h.raw_db(bad_state) as connection:
        connection.execute(STATE_EDITS["grants.principal"])
    argv = ("journal", "verify", "--db", db, "--db", bad_header, "--db", bad_state)
    code, reports = _json(capsys, *argv, "-o", "json")
    assert code == 1
    assert [(r["db"], r["verified"], r["first_bad_seq"]) for r in reports] == [
        (str(db), True, None),
        (str(bad_header), False, 0),
        (str(bad_state), False, len(h.STANDARD_CALLS)),
    ]
    code, out, err = h.cli(capsys, *argv)
    assert code == 1 and "unexpected error" not in err
    assert out.count("NOT verified") == 2 and "1 of 3 journals verified" in out


@pytest.mark.parametrize("edit", sorted(HEADER_EDITS))
def test_copy_refuses_a_header_that_is_not_text_and_state_and_snapshot_read_past_it(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    _header_edit(db, HEADER_EDITS[edit])
    # state and a snapshot read the rows as of the seq (their seqs and history), never the header: they answer
    code, out, err = h.cli(capsys, "journal", "state", "--db", db, "-o", "json")
    assert code == 0 and json.loads(out)["seq"] == len(h.STANDARD_CALLS), err
    code, out, err = h.cli(capsys, "journal", "snapshot", "--db", db, "--user", h.USER, "-o", "json")
    assert code == 0 and json.loads(out)["user_id"] == h.USER, err
    code, out, err = h.cli(capsys, "journal", "copy", "--db", db, "--to", tmp_path / "copy.db")
    if code == 0:  # copied as stored: the copy fails verification at the same place
        code, report = _json(capsys, "journal", "verify", "--db", tmp_path / "copy.db", "-o", "json")
        assert (code, report["first_bad_seq"]) == (1, 0)
    else:
        _one_line_refusal(code, out, err)


@pytest.mark.parametrize("edit", sorted(STATE_EDITS))
def test_copy_refuses_a_state_row_that_is_not_text(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    with h.raw_db(db) as connection:
        connection.execute(STATE_EDITS[edit])
    _one_line_refusal(*h.cli(capsys, "journal", "copy", "--db", db, "--to", tmp_path / "copy.db"))
    code, out, err = h.cli(capsys, "journal", "state", "--db", db, "-o", "json")  # nothing re-executed
    if code != 0:  # a row the query cannot read as text: refused, naming what says where
        assert out == "" and "arvis journal verify" in err and "unexpected error" not in err
    else:
        assert json.loads(out)["seq"] == len(h.STANDARD_CALLS)


# --- B: the Merkle commands page by keyset -----------------------------------------------------------


def _insert_copy_of_row(path: Path, seq: int, source_seq: int = 5) -> None:
    columns = ", ".join(h.JOURNAL_COLUMNS)
    with h.raw_db(path) as connection:
        connection.execute(
            f"INSERT INTO journal (seq, {columns}) SELECT ?, {columns} FROM journal WHERE seq = ?",
            (seq, source_seq),
        )


@pytest.mark.parametrize("command", [("root",), ("prove", "3"), ("consistency", "2")])
def test_merkle_commands_report_a_row_at_the_largest_seq_as_a_gap(db: Path, command: tuple[str, ...]) -> None:
    """Ranges of seqs from 1 to the head would be 10**15 empty queries: the keyset reads one more row."""
    _insert_copy_of_row(db, MAX_SEQ)
    done = h.arvis_subprocess("journal", *command[:1], "--db", db, *command[1:], timeout=60)
    assert done.returncode == 2, done.stderr
    assert "gap" in done.stderr and "unexpected" not in done.stderr
    assert f"seq {len(h.STANDARD_CALLS) + 1} is missing" in done.stderr


def test_entry_hashes_stop_before_the_first_row_out_of_place(db: Path) -> None:
    with h.reader_of(db) as reader:
        every = list(reader.entry_hashes(batch=3))
    assert len(every) == len(h.STANDARD_CALLS)
    h.drop_trigger(db, "journal_no_delete")
    with h.raw_db(db) as connection:
        connection.execute("DELETE FROM journal WHERE seq = 7")
    with h.reader_of(db) as reader:
        assert list(reader.entry_hashes(batch=3)) == every[:6]
        assert list(reader.entry_hashes(5, batch=2)) == every[:5]


# --- C: rows below seq 1 ------------------------------------------------------------------------------


def _allow_any_seq(path: Path) -> None:
    """Drop the table's ``seq >= 1`` CHECK by editing the schema text, as a forger could."""
    with h.raw_db(path) as connection:
        connection.execute("PRAGMA journal_mode=DELETE")
        (sql,) = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'journal'").fetchone()
        assert "CHECK (seq >= 1)" in sql
        connection.execute("PRAGMA writable_schema=ON")
        connection.execute(
            "UPDATE sqlite_master SET sql = ? WHERE name = 'journal'",
            (sql.replace("CHECK (seq >= 1)", "CHECK (1)"),),
        )


@pytest.mark.parametrize("hidden", [-3, 0])
def test_a_row_below_seq_1_fails_verification_and_is_listed(
    db: Path, capsys: pytest.CaptureFixture[str], hidden: int
) -> None:
    _allow_any_seq(db)
    _insert_copy_of_row(db, hidden)
    for chain_only in ((), ("--chain-only",)):
        code, report = _json(capsys, "journal", "verify", "--db", db, "-o", "json", *chain_only)
        assert code == 1
        assert (report["verified"], report["first_bad_seq"]) == (False, 1)
        assert report["reason"] == f"seq gap: expected 1, found {hidden}"
    code, entries = _json(capsys, "journal", "ls", "--db", db, "-o", "json")
    assert code == 0
    assert [entry["seq"] for entry in entries] == [hidden, *range(1, len(h.STANDARD_CALLS) + 1)]
    code, stats = _json(capsys, "journal", "stats", "--db", db, "-o", "json")
    assert stats["entries"] == len(h.STANDARD_CALLS) + 1
    code, _, err = h.cli(capsys, "journal", "root", "--db", db)
    assert code == 2 and "gap" in err


# --- D and E: text columns stored as BLOBs ----------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "option", "value"),
    [
        ("syscall", "--syscall", "memory.write"),
        ("principal", "--principal", h.PRINCIPAL),
        ("status", "--status", "ok"),
    ],
)
def test_exact_filters_match_a_blob_holding_the_same_bytes(
    db: Path, capsys: pytest.CaptureFixture[str], column: str, option: str, value: str
) -> None:
    seq = h.SEQ_FIRST_WRITE
    assert h.read_cell(db, seq, column) == value
    h.write_cell(db, seq, column, value.encode("utf-8"))
    with h.raw_db(db) as connection:
        (stored,) = connection.execute(
            f"SELECT typeof({column}) FROM journal WHERE seq = ?", (seq,)
        ).fetchone()
    assert stored == "blob"
    code, exact = _json(capsys, "journal", "ls", "--db", db, option, value, "-o", "json")
    assert code == 0
    assert seq in [entry["seq"] for entry in exact]
    if column == "syscall":  # the glob path already matched it: both agree
        code, globbed = _json(capsys, "journal", "ls", "--db", db, option, "memory.wri*", "-o", "json")
        assert [entry["seq"] for entry in globbed] == [entry["seq"] for entry in exact]


def test_a_blob_that_is_not_utf8_keeps_its_bytes_and_fails_verification(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seq = h.SEQ_FIRST_WRITE
    raw = b"user:\xff\xfe"
    h.write_cell(db, seq, "principal", raw)
    with h.reader_of(db) as reader:
        entry = reader.get(seq)
    assert entry is not None and entry.principal.encode("utf-8", "surrogateescape") == raw
    code, shown = _json(capsys, "journal", "show", "--db", db, seq, "-o", "json")
    assert code == 0
    assert shown["principal"] == "user:\\xff\\xfe"
    assert base64.b64decode(shown["principal_b64"]) == raw
    code, report = _json(capsys, "journal", "verify", "--db", db, "-o", "json")
    assert (code, report["first_bad_seq"]) == (1, seq)
    assert report["reason"] == "a column holds bytes that are not valid text"


# --- F, G, H: what a writer refuses, untouched -----------------------------------------------------


def _fingerprint(path: Path) -> tuple[bytes, list[str]]:
    """The file's bytes, and the names of the files beside it (a -wal or -shm left behind shows)."""
    return path.read_bytes(), sorted(p.name for p in path.parent.iterdir())


def _foreign(path: Path) -> Path:
    connection = sqlite3.connect(path)
    try:
        connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY)")
        connection.execute("INSERT INTO users (name) VALUES ('ada')")
        connection.commit()
    finally:
        connection.close()
    return path


WRITERS = {
    "call": ("call", "memory.list", "--principal", h.PRINCIPAL, "--args", json.dumps({"user_id": h.USER})),
    "db upgrade": ("db", "upgrade"),
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_writers_refuse_a_database_of_another_application(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], writer: str
) -> None:
    path = _foreign(tmp_path / "foreign.db")
    before = _fingerprint(path)
    code, _, err = h.cli(capsys, *WRITERS[writer], "--db", path)
    assert code == 2, err
    assert h.error_lines(err) == [
        f"arvis: storage error: {path} holds tables that are not an arvis journal's: orders, users"
    ]
    assert _fingerprint(path) == before


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_writers_accept_an_empty_file_and_a_journal(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str], writer: str
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    for path in (empty, db):
        code, _, err = h.cli(capsys, *WRITERS[writer], "--db", path)
        assert code == 0, err


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_newer_schema_is_refused_before_anything_is_written(
    db: Path, capsys: pytest.CaptureFixture[str], writer: str
) -> None:
    """The writer's connection switches the file to WAL: the stamp is read before it connects."""
    with h.raw_db(db) as connection:
        connection.execute("PRAGMA journal_mode=DELETE")
        connection.execute("UPDATE alembic_version SET version_num = '0999_future'")
    before = _fingerprint(db)
    code, _, err = h.cli(capsys, *WRITERS[writer], "--db", db)
    assert code == 2
    assert "newer arvis" in err and "unexpected" not in err
    assert _fingerprint(db) == before


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_path_ending_with_a_separator_names_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], writer: str
) -> None:
    for target in (f"{tmp_path / 'd'}/", f"sqlite:///{tmp_path / 'd'}/"):
        code, _, err = h.cli(capsys, *WRITERS[writer], "--create", "--db", target)
        assert code == 2, err
        assert "names a directory" in err
    assert list(tmp_path.iterdir()) == []


def test_reader_open_refuses_a_path_ending_with_a_separator(tmp_path: Path, db: Path) -> None:
    from kernel.protocols import StorageError

    with pytest.raises(StorageError, match="names a directory"):
        JournalReader.open(f"{db}/")

"""The stand-alone verifier printed in specs/journal-format.md checks real journals like the kernel's own."""

from __future__ import annotations

import ast
import hashlib
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from chain_check import verify_chain

from journal.reader import JournalReader
from journal.schema import FORMAT_VERSIONS
from journal.store import ManualClock
from syscalls.boot import open_kernel

SPEC = Path(__file__).resolve().parent.parent / "specs" / "journal-format.md"
PRINCIPAL = "user:u1"
WRITE = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}

CALLS: list[tuple[object, object, object, str]] = [
    ("memory.write", WRITE, PRINCIPAL, "ok"),
    ("memory.write", WRITE, PRINCIPAL, "memory_conflict"),
    ("memory.write", {**WRITE, "replace": True, "value_ref": "ref-2"}, PRINCIPAL, "ok"),
    ("memory.write", {**WRITE, "key": "no_ads", "source": "governance"}, PRINCIPAL, "memory_policy_denied"),
    ("memory.get", {"user_id": "u1", "key": "language"}, PRINCIPAL, "ok"),
    ("memory.get", {"user_id": "u1", "key": " language"}, PRINCIPAL, "memory_invalid_key"),
    ("memory.revoke", {"user_id": "u1", "key": "language"}, PRINCIPAL, "ok"),
    ("memory.list", {"user_id": "u1", "include_inactive": True}, PRINCIPAL, "ok"),
    ("memory.snapshot", {"user_id": "u1"}, PRINCIPAL, "ok"),
    ("memory.list", {"user_id": "u1"}, "", "invalid_principal"),
    ("memory.unknown", {}, PRINCIPAL, "unknown_syscall"),
    ("memory.list", {"user_id": "u1", "extra": "é"}, PRINCIPAL, "invalid_args"),
    ("memory.list", {"user_id": 2**70}, PRINCIPAL, "invalid_args"),  # refusal marker
]


def _verifier_source() -> str:
    section = SPEC.read_text(encoding="utf-8").split("\n## 10. ", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, "§10 of journal-format.md must hold exactly one python block: the verifier"
    return str(blocks[0])


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "verify_journal.py"
    path.write_text(_verifier_source(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "j.db"
    clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(milliseconds=1500))
    kernel = open_kernel(str(path), clock=clock, create=True)
    try:
        for seq, (name, args, principal, status) in enumerate(CALLS, start=1):
            result = kernel.call(name, args, principal=principal)
            assert result.seq == seq
            assert (result.error.code if result.error else "ok") == status
    finally:
        kernel.store.close()
    return path


@pytest.fixture
def journal_copy(pristine: Path, tmp_path: Path) -> Path:
    target = tmp_path / "j.db"
    for part in pristine.parent.glob(pristine.name + "*"):
        shutil.copy(part, tmp_path / part.name)
    return target


def _run(verifier: Path, db: Path) -> subprocess.CompletedProcess[str]:
    # -I -S: no site-packages at all, so the program can only use the standard library.
    return subprocess.run(
        [sys.executable, "-I", "-S", str(verifier), str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _reference(db: Path) -> tuple[int | None, str | None]:
    reader = JournalReader.open(str(db))
    try:
        header = reader.header()
        assert header is not None
        report = verify_chain(header, reader.entries())
    finally:
        reader.close()
    return report.first_bad_seq, report.reason


def _edit(db: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    connection = sqlite3.connect(db)
    try:
        for sql, params in statements:
            connection.execute(sql, params)
        connection.commit()
    finally:
        connection.close()


def _fetch(db: Path, sql: str, params: tuple[object, ...] = ()) -> object:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql, params).fetchone()[0]
    finally:
        connection.close()


def _nudge(char: str) -> str:
    """Another character of the same kind (digit, lower-case hex, letter, other)."""
    if char in "012345678abcde":
        return chr(ord(char) + 1)
    if char in "9f":
        return "0"
    return "x" if char != "x" else "y"


def test_program_uses_only_sqlite3_hashlib_sys() -> None:
    imported: set[str] = set()
    for node in ast.walk(ast.parse(_verifier_source())):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert imported <= {"sqlite3", "hashlib", "sys"}


def test_intact_journal_prints_ok_with_count_and_head(verifier: Path, journal_copy: Path) -> None:
    reader = JournalReader.open(str(journal_copy))
    try:
        head = reader.head()
        count = reader.count()
    finally:
        reader.close()
    assert head is not None
    assert count == head.seq == len(CALLS)
    done = _run(verifier, journal_copy)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"OK {len(CALLS)} {head.entry_hash}\n", "")
    assert _reference(journal_copy) == (None, None)


def test_empty_journal_is_ok_at_genesis(verifier: Path, tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    open_kernel(str(db), create=True).store.close()
    reader = JournalReader.open(str(db))
    try:
        header = reader.header()
    finally:
        reader.close()
    assert header is not None
    genesis = header.genesis_hash
    done = _run(verifier, db)
    assert (done.returncode, done.stdout) == (0, f"OK 0 {genesis}\n")


TEXT_COLUMNS = ["principal", "status", "effects_hash", "recorded_at", "syscall", "prev_hash", "entry_hash"]
BLOB_COLUMNS = ["args", "result"]


@pytest.mark.parametrize("seq", [1, 6, len(CALLS)])
@pytest.mark.parametrize("column", TEXT_COLUMNS + BLOB_COLUMNS)
def test_one_changed_byte_is_named_by_seq(verifier: Path, journal_copy: Path, column: str, seq: int) -> None:
    value = _fetch(journal_copy, f"SELECT {column} FROM journal WHERE seq = ?", (seq,))
    if column in BLOB_COLUMNS:
        assert isinstance(value, bytes)
        middle = len(value) // 2
        changed: object = value[:middle] + bytes([value[middle] ^ 0x01]) + value[middle + 1 :]
    else:
        assert isinstance(value, str)
        changed = _nudge(value[0]) + value[1:]
    assert changed != value
    _edit(
        journal_copy,
        ("DROP TRIGGER journal_no_update", ()),
        (f"UPDATE journal SET {column} = ? WHERE seq = ?", (changed, seq)),
    )
    done = _run(verifier, journal_copy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(f"BAD {seq} ")
    assert _reference(journal_copy) == (seq, done.stdout.removeprefix(f"BAD {seq} ").rstrip("\n"))


def test_deleted_row_is_a_gap(verifier: Path, journal_copy: Path) -> None:
    _edit(journal_copy, ("DROP TRIGGER journal_no_delete", ()), ("DELETE FROM journal WHERE seq = 4", ()))
    done = _run(verifier, journal_copy)
    assert (done.returncode, done.stdout) == (1, "BAD 4 seq gap: expected 4, found 5\n")
    assert _reference(journal_copy) == (4, "seq gap: expected 4, found 5")


def test_removed_tail_is_invisible_to_the_chain(verifier: Path, journal_copy: Path) -> None:
    last = len(CALLS)
    previous = _fetch(journal_copy, "SELECT entry_hash FROM journal WHERE seq = ?", (last - 1,))
    _edit(
        journal_copy, ("DROP TRIGGER journal_no_delete", ()), ("DELETE FROM journal WHERE seq = ?", (last,))
    )
    done = _run(verifier, journal_copy)
    assert (done.returncode, done.stdout) == (0, f"OK {last - 1} {previous}\n")


def test_altered_header_is_bad_at_zero(verifier: Path, journal_copy: Path) -> None:
    _edit(
        journal_copy,
        ("DROP TRIGGER journal_header_no_update", ()),
        ("UPDATE journal_header SET journal_id = journal_id || 'x'", ()),
    )
    done = _run(verifier, journal_copy)
    assert (done.returncode, done.stdout) == (
        1,
        "BAD 0 journal header altered: genesis hash does not match its id\n",
    )
    assert _reference(journal_copy) == (0, "journal header altered: genesis hash does not match its id")


def test_a_non_integer_seq_cannot_even_be_stored(journal_copy: Path) -> None:
    """Since revision 0006 seq is SQLite's rowid: a tamperer cannot store 2.5 there (the verifier
    still reports such a seq as a gap, for journals written before that revision)."""
    with pytest.raises(sqlite3.IntegrityError, match="datatype mismatch"):
        _edit(
            journal_copy,
            ("DROP TRIGGER journal_no_update", ()),
            ("UPDATE journal SET seq = 2.5 WHERE seq = 2", ()),
        )


def test_invalid_utf8_text_is_named_by_seq(verifier: Path, journal_copy: Path) -> None:
    _edit(
        journal_copy,
        ("DROP TRIGGER journal_no_update", ()),
        ("UPDATE journal SET principal = CAST(X'75ff' AS TEXT) WHERE seq = 3", ()),
    )
    done = _run(verifier, journal_copy)
    assert (done.returncode, done.stdout) == (1, "BAD 3 a column holds bytes that are not valid text\n")


def test_unsupported_format_version_is_bad_at_zero(verifier: Path, journal_copy: Path) -> None:
    header = "SELECT journal_id FROM journal_header"
    journal_id = _fetch(journal_copy, header)
    assert isinstance(journal_id, str)

    def frame(data: bytes) -> bytes:
        return len(data).to_bytes(8, "big") + data

    unknown = max(FORMAT_VERSIONS) + 1
    genesis = hashlib.sha256(
        b"arvis-journal" + frame(journal_id.encode()) + frame(str(unknown).encode())
    ).hexdigest()
    _edit(
        journal_copy,
        ("DROP TRIGGER journal_header_no_update", ()),
        ("UPDATE journal_header SET format_version = ?, genesis_hash = ?", (unknown, genesis)),
    )
    done = _run(verifier, journal_copy)
    assert (done.returncode, done.stdout) == (1, f"BAD 0 unsupported format version {unknown}\n")


def test_missing_file_is_an_io_error(verifier: Path, tmp_path: Path) -> None:
    done = _run(verifier, tmp_path / "absent.db")
    assert done.returncode == 2
    assert done.stdout == ""
    assert not (tmp_path / "absent.db").exists()

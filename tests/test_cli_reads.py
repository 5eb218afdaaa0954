"""``arvis call`` before anything is journaled (issue 38 item 4): a principal without a kind gets a hint
and exit 2; a journal that cannot be written is named as such, with the commands that read one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

GET = '{"user_id": "u1", "key": "language"}'


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    h.build_journal(path)
    return path


def _count(db: Path) -> int:
    with h.reader_of(db) as reader:
        return reader.count()


@pytest.mark.parametrize(("given", "meant"), [("bob", "user:bob"), (":u1", "user:u1")])
def test_a_principal_without_a_kind_is_refused_before_the_journal(
    capsys: pytest.CaptureFixture[str], db: Path, given: str, meant: str
) -> None:
    before = _count(db)
    code, out, err = h.cli(capsys, "call", "memory.get", "--db", db, "--principal", given, "--args", GET)
    assert (code, out) == (2, "")
    assert f"hint: did you mean {meant}?" in err
    assert _count(db) == before


def test_the_environment_principal_is_checked_too(
    capsys: pytest.CaptureFixture[str], db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARVIS_PRINCIPAL", "bob")
    before = _count(db)
    code, _, err = h.cli(capsys, "call", "memory.get", "--db", db, "--args", GET)
    assert code == 2 and "did you mean user:bob?" in err and _count(db) == before


def test_a_read_only_journal_says_reads_are_journaled(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    before = _count(db)
    code, _, err = h.cli(
        capsys,
        "call",
        "memory.get",
        "--db",
        f"sqlite:///{db}?mode=ro",
        "--principal",
        "user:u1",
        "--args",
        GET,
    )
    assert code == 1
    assert "reads included" in err and "arvis journal snapshot" in err and "arvis journal state" in err
    assert _count(db) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file anyway")
def test_an_unwritable_file_is_refused_at_once(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    db.chmod(0o444)
    try:
        code, out, err = h.cli(
            capsys, "call", "memory.get", "--db", db, "--principal", "user:u1", "--args", GET
        )
    finally:
        db.chmod(0o644)
    assert (code, out) == (2, "") and "cannot write the journal" in err and "journal snapshot" in err


def test_an_unwritable_directory_is_refused_at_once(
    capsys: pytest.CaptureFixture[str], db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where SQLite keeps its -wal and -shm files: ``os.access`` is what the check asks (root passes
    any real permission check, so it is stood in for here)."""
    directory = os.path.dirname(os.path.abspath(db))
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: path != directory and real_access(path, mode))
    before = _count(db)
    code, out, err = h.cli(capsys, "call", "memory.get", "--db", db, "--principal", "user:u1", "--args", GET)
    assert (code, out) == (2, "") and "read-only" in err and "journal snapshot" in err
    monkeypatch.undo()
    assert _count(db) == before

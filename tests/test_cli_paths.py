"""A path is a path, and storage problems are clear errors (issue 19).

Plain paths are never URL-decoded; readers never create a file; a journal in a read-only directory
still verifies; an unsupported or malformed URL, a database migrated by a newer arvis, a mistyped
``--db`` and a demo over an existing file are all refused in one line, exit 2.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from journal.engine import UnsupportedDatabase, open_engine
from journal.reader import JournalReader
from kernel.protocols import StorageError
from syscalls.boot import open_kernel

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

SNAPSHOT = json.dumps({"user_id": h.USER})
ODD_NAMES = ["evidence%41.db", "q?x.db", "a#b.db", "with space.db", "é€ü.db", "%2F%3F%23.db"]

READERS: list[list[str]] = [
    ["ls"],
    ["show", "--db", "{db}", "1"],
    ["tail"],
    ["verify"],
    ["checkpoint"],
    ["snapshot", "--db", "{db}", "--user", h.USER],
    ["state"],
    ["stats"],
    ["export"],
    ["diff", "--db", "{db}", "--other", "{db}"],
]


def _argv(command: list[str], db: object) -> list[str]:
    """``journal COMMAND --db DB ...``, the database put where ``{db}`` is (or right after the command)."""
    if "{db}" not in command:
        command = [command[0], "--db", "{db}", *command[1:]]
    return ["journal", *(str(db) if part == "{db}" else part for part in command)]


def _one_clean_error(err: str) -> str:
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err
    return lines[0]


def _names(directory: Path) -> set[str]:
    return {entry.name for entry in directory.iterdir()}


@pytest.fixture(autouse=True)
def _principal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``arvis call`` has no default principal: these calls are the user's own (paths are the point)."""
    monkeypatch.setenv("ARVIS_PRINCIPAL", h.PRINCIPAL)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own directory as the working directory (relative names land there), no $ARVIS_DB."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARVIS_DB", raising=False)
    return tmp_path


# --- bug 1: plain paths are taken literally --------------------------------------------------------


@pytest.mark.parametrize("name", ODD_NAMES)
def test_a_plain_path_names_exactly_that_file(
    name: str, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", name, "--create", "--args", SNAPSHOT)
    assert code == 0, err
    assert json.loads(out)["seq"] == 1
    assert name in _names(here)
    assert {n for n in _names(here) if not n.startswith(name)} == set()  # nothing decoded, nothing cut
    code, out, err = h.cli(capsys, "journal", "verify", "--db", name, "-o", "json")
    assert code == 0, err
    assert json.loads(out)["entries"] == 1
    with h.reader_of(here / name) as reader:
        assert reader.count() == 1


def test_a_percent_escape_in_a_path_is_not_decoded(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h.build_journal(here / "evidenceA.db")
    before = _names(here)
    code, _, err = h.cli(capsys, "journal", "verify", "--db", "evidence%41.db")
    assert code == 2
    assert "no journal at evidence%41.db" in _one_clean_error(err)
    code, _, err = h.cli(capsys, "call", "memory.snapshot", "--db", "new%41.db", "--args", SNAPSHOT)
    assert code == 2
    assert _names(here) == before  # neither new%41.db nor newA.db


def test_a_question_mark_in_a_path_is_not_a_query(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = h.cli(capsys, "journal", "verify", "--db", "q?x.db")
    assert code == 2
    assert "no journal at q?x.db" in _one_clean_error(err)
    assert _names(here) == set()  # verify once created "q"


# --- bug 2: readers never create files -------------------------------------------------------------


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_no_reader_creates_a_missing_journal(
    command: list[str], here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for missing in ("missing.db", "sqlite:///missing.db", "sqlite:///missing.db?mode=ro"):
        code, out, err = h.cli(capsys, *_argv(command, missing))
        assert code == 2, err
        assert out == ""
        assert "no journal at" in _one_clean_error(err)
    assert _names(here) == set()


def test_the_reader_api_never_creates_a_file(here: Path) -> None:
    for missing in ("gone.db", "g%41?#.db", f"sqlite:///{here}/gone.db", "sqlite:///gone.db?mode=ro"):
        with pytest.raises(StorageError, match="no journal at"):
            JournalReader.open(missing)
    assert _names(here) == set()


def _count(target: str) -> int:
    reader = JournalReader.open(target)
    try:
        return reader.count()
    finally:
        reader.close()


def test_a_sqlite_url_with_mode_ro_is_read_only(here: Path) -> None:
    """``?mode=ro`` in a URL reaches SQLite (SQLAlchemy alone would drop it and create the file)."""
    with pytest.raises(StorageError, match="no journal at"):
        open_engine("sqlite:///absent.db?mode=ro")
    with pytest.raises(StorageError):
        open_kernel("sqlite:///absent.db?mode=ro", create=True)
    assert _names(here) == set()
    h.build_journal(here / "j.db")
    kernel = open_kernel("sqlite:///j.db?mode=ro", create=True)  # a kernel cannot write through it either
    try:
        refused = kernel.call("memory.snapshot", {"user_id": h.USER}, principal=h.PRINCIPAL)
    finally:
        kernel.close()
    assert not refused.ok and refused.error is not None
    assert refused.error.code == "storage_unavailable"
    assert _count("sqlite:///j.db?mode=ro") == len(h.STANDARD_CALLS)


# --- bug 3: a journal in a read-only directory -------------------------------------------------------


@contextlib.contextmanager
def _read_only(directory: Path) -> Iterator[None]:
    directory.chmod(0o555)
    try:
        yield
    finally:
        directory.chmod(0o755)


def _permissions_hold() -> bool:
    """Whether this process is refused writing in a read-only directory. Root is not (it may ignore
    permissions: os.geteuid() == 0 with CAP_DAC_OVERRIDE), so the tests that need it skip."""
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        with _read_only(directory):
            try:
                (directory / "probe").touch()
            except PermissionError:
                return True
            (directory / "probe").unlink()
            return False


needs_permissions = pytest.mark.skipif(
    not _permissions_hold(), reason="running as root: a read-only directory is writable to it"
)


@needs_permissions
def test_a_journal_in_a_read_only_directory_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    h.build_journal(shelf / "journal.db")  # closed: its -wal and -shm are gone
    assert _names(shelf) == {"journal.db"}
    with _read_only(shelf):
        code, out, err = h.cli(capsys, "journal", "verify", "--db", shelf / "journal.db", "-o", "json")
        assert code == 0, err
        assert json.loads(out)["entries"] == len(h.STANDARD_CALLS)
        code, out, err = h.cli(capsys, "journal", "ls", "--db", shelf / "journal.db", "-o", "json")
        assert code == 0, err
        assert len(json.loads(out)) == len(h.STANDARD_CALLS)
    assert _names(shelf) == {"journal.db"}


@needs_permissions
def test_commits_left_in_a_wal_of_a_read_only_directory_are_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``immutable=1`` would read the main file alone: a non-empty -wal makes the read fail instead."""
    source = tmp_path / "live.db"
    kernel = open_kernel(str(source), clock=h.make_clock(), create=True)
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    try:
        h.run_calls(kernel, h.STANDARD_CALLS[:3])
        for suffix in ("", "-wal"):  # as a crash would leave them: commits still in the -wal
            (shelf / f"journal.db{suffix}").write_bytes(Path(f"{source}{suffix}").read_bytes())
    finally:
        kernel.close()
    assert (shelf / "journal.db-wal").stat().st_size > 0
    with _read_only(shelf):
        code, _, err = h.cli(capsys, "journal", "verify", "--db", shelf / "journal.db")
    assert code == 2
    assert "write-ahead log" in _one_clean_error(err)


# --- bug 4: unsupported and malformed URLs -----------------------------------------------------------

BAD_URLS = [
    "mysql://user:hunter2@host/db",
    "foo://bar",
    "://",
    "postgresql://user@host:notaport/db",
    "postgresql://user:hunter2@host:notaport/db",
    "postgresql+asyncpg://user@host/db",
    "sqlite://host/journal.db",
]


@pytest.mark.parametrize("url", BAD_URLS)
@pytest.mark.parametrize(
    "argv",
    [
        ["call", "memory.snapshot", "--create", "--args", SNAPSHOT, "--db", "{db}"],
        ["journal", "ls", "--db", "{db}"],
        ["journal", "verify", "--db", "{db}"],
        ["db", "upgrade", "--create", "--db", "{db}"],
        ["journal", "copy", "--db", "src.db", "--to", "{db}"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_an_unsupported_database_is_a_usage_error(
    url: str, argv: list[str], here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if argv[1] == "copy":
        h.build_journal(here / "src.db", h.STANDARD_CALLS[:1])
    before = _names(here)
    code, out, err = h.cli(capsys, *(url if part == "{db}" else part for part in argv))
    assert code == 2
    assert out == ""
    line = _one_clean_error(err)
    assert "hunter2" not in err
    assert "sqlite:///" in err and "postgresql://" in err  # says what is accepted
    assert line != "arvis: " and _names(here) == before


@pytest.mark.parametrize("url", BAD_URLS)
def test_open_kernel_refuses_an_unsupported_database_before_connecting(url: str, here: Path) -> None:
    with pytest.raises(UnsupportedDatabase, match="postgresql://"):
        open_kernel(url, create=True)
    with pytest.raises(UnsupportedDatabase):
        JournalReader.open(url)
    assert _names(here) == set()


# --- bug 5: a database migrated by a newer arvis -----------------------------------------------------


def test_a_newer_schema_revision_is_refused_clearly(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = here / "newer.db"
    h.build_journal(path, h.STANDARD_CALLS[:3])
    with h.raw_db(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0999_future'")
    argvs: list[list[object]] = [
        ["call", "memory.snapshot", "--db", path, "--args", SNAPSHOT],
        ["db", "upgrade", "--db", path],
        ["journal", "ls", "--db", path],
        ["journal", "verify", "--db", path],
    ]
    for argv in argvs:
        code, out, err = h.cli(capsys, *argv)
        assert code == 2, (argv, err)
        assert out == ""
        line = _one_clean_error(err)
        assert "newer arvis" in line and "0999_future" in line and "upgrade arvis" in line
    with pytest.raises(StorageError, match="newer arvis"):
        open_kernel(str(path), create=True)
    with h.raw_db(path) as connection:
        assert connection.execute("SELECT count(*) FROM journal").fetchone() == (3,)


# --- bug 6: nothing is destroyed or created by mistake ----------------------------------------------


def test_demo_refuses_to_replace_an_existing_file(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = here / "kept.db"
    h.build_journal(kept, h.STANDARD_CALLS[:2])
    before = kept.read_bytes()
    code, out, err = h.cli(capsys, "demo", "--db", kept)
    assert code == 2
    assert out == ""
    assert "already exists" in _one_clean_error(err) and "--force" in err
    assert kept.read_bytes() == before
    code, out, err = h.cli(capsys, "demo", "--db", kept, "--force")  # not the demo's journal: still refused
    assert (code, out) == (2, "")
    assert "not the journal a demo run wrote" in _one_clean_error(err)
    assert kept.read_bytes() == before


@pytest.mark.parametrize("target", [":memory:", "postgresql://u@h/db", "sqlite:///x.db", "."])
def test_demo_writes_only_a_file(target: str, here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = h.cli(capsys, "demo", "--db", target, "--force")
    assert code == 2
    _one_clean_error(err)
    assert _names(here) == set()


def test_call_refuses_a_missing_file_unless_create(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for argv in (["--db", "typo.db"], ["--db", "sqlite:///typo.db"], []):
        monkeypatch.setenv("ARVIS_DB", "typo.db")
        code, out, err = h.cli(capsys, "call", "memory.snapshot", *argv, "--args", SNAPSHOT)
        assert code == 2
        assert out == ""
        assert "no journal at" in _one_clean_error(err)
        assert "--create" in err
        assert _names(here) == set()
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--create", "--args", SNAPSHOT)
    assert code == 0, err
    assert _names(here) >= {"typo.db"}
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--args", SNAPSHOT)  # it exists now
    assert code == 0, err
    assert json.loads(out)["seq"] == 2


def test_call_on_memory_needs_no_create(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", ":memory:", "--args", SNAPSHOT)
    assert code == 0, err
    assert json.loads(out)["seq"] == 1
    assert _names(here) == set()


def test_call_on_a_directory_is_a_usage_error(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "folder.db").mkdir()
    code, _, err = h.cli(capsys, "call", "memory.snapshot", "--db", "folder.db", "--create")
    assert code == 2
    assert "not a file" in _one_clean_error(err)


def test_a_postgresql_database_is_the_servers_to_create(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", pg_url, "--args", SNAPSHOT)
    assert code == 0, err
    assert json.loads(out)["seq"] == 1


# --- bug 7: db upgrade makes a journal the readers read ---------------------------------------------


def test_an_upgraded_new_database_reads_as_an_empty_journal(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = h.cli(capsys, "db", "upgrade", "--db", "fresh.db")
    assert code == 2 and "--create" in err
    assert _names(here) == set()
    code, out, err = h.cli(capsys, "db", "upgrade", "--db", "fresh.db", "--create")
    assert code == 0, err
    assert "started an empty journal" in out
    code, out, err = h.cli(capsys, "journal", "ls", "--db", "fresh.db", "-o", "json")
    assert code == 0, err
    assert json.loads(out) == []
    code, out, err = h.cli(capsys, "journal", "verify", "--db", "fresh.db", "-o", "json")
    assert code == 0, err
    assert json.loads(out)["verified"] is True and json.loads(out)["entries"] == 0
    code, out, _ = h.cli(capsys, "db", "upgrade", "--db", "fresh.db")
    assert code == 0 and "already at head" in out and "started" not in out
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", "fresh.db", "--args", SNAPSHOT)
    assert code == 0, err
    assert json.loads(out)["seq"] == 1
    assert h.verify(here / "fresh.db").verified


def test_copy_into_an_upgraded_database_says_why_not(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h.build_journal(here / "src.db", h.STANDARD_CALLS[:2])
    assert h.cli(capsys, "db", "upgrade", "--db", "dst.db", "--create")[0] == 0
    code, _, err = h.cli(capsys, "journal", "copy", "--db", "src.db", "--to", "dst.db")
    assert code == 2
    assert "empty journal of its own" in _one_clean_error(err)


# --- --args from stdin or a file ---------------------------------------------------------------------


def test_call_args_from_stdin(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(SNAPSHOT.encode())))
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", "j.db", "--create", "--args", "-")
    assert code == 0, err
    assert json.loads(out)["ok"] is True
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"{not json")))
    code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", "j.db", "--args", "-")
    assert code == 2
    assert "stdin" in _one_clean_error(err)


def test_call_args_from_a_file(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "args file.json").write_text(SNAPSHOT, encoding="utf-8")
    code, out, err = h.cli(
        capsys, "call", "memory.snapshot", "--db", "j.db", "--create", "--args", "@args file.json"
    )
    assert code == 0, err
    assert json.loads(out)["ok"] is True
    for missing in ("@nope.json", "@", "@."):
        code, out, err = h.cli(capsys, "call", "memory.snapshot", "--db", "j.db", "--args", missing)
        assert code == 2
        assert out == ""
        assert "--args file" in _one_clean_error(err)  # no such file, or not a regular file
    (here / "bad.json").write_text("{oops", encoding="utf-8")
    code, _, err = h.cli(capsys, "call", "memory.snapshot", "--db", "j.db", "--args", "@bad.json")
    assert code == 2
    assert "bad.json" in _one_clean_error(err)
    with h.reader_of(here / "j.db") as reader:
        assert reader.count() == 1  # only the good call was journaled

"""The command line at its seams with the file system (issue 36, finding 9): a path the system refuses to
look up, a FIFO where a file is read, a schema stamp that is no arvis revision, a umask of 000. Each case
is a clear `arvis: …` line on stderr and exit 2, never a hang, a traceback or "unexpected error".

Every command runs in a subprocess (the module of this checkout, not an installed script) with a timeout
that only guards against a hang: nothing here times how fast a command answers."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from journal.migrate import HEAD_REVISION

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

ROOT = Path(__file__).resolve().parent.parent
HANG_GUARD_S = 20
LONG = "a" * 5000
SNAPSHOT = '{"user_id": "u1"}'


def _arvis(*argv: object, cwd: Path, umask: int | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "ARVIS_DB": "", "ARVIS_PRINCIPAL": "", "PYTHONPATH": str(ROOT)}
    preexec: Callable[[], object] | None = None if umask is None else (lambda: os.umask(umask))
    return subprocess.run(
        [sys.executable, "-m", "tools.cli", *(str(arg) for arg in argv)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=HANG_GUARD_S,  # a hang fails the test (TimeoutExpired); no speed is asserted
        preexec_fn=preexec,
        check=False,
    )


def _clear_usage_error(completed: subprocess.CompletedProcess[str], *expected: str) -> str:
    """Exit 2, nothing on stdout, one `arvis: …` line (plus hints) holding every ``expected`` text."""
    err = completed.stderr
    assert completed.returncode == 2, err
    assert completed.stdout == ""
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err
    for text in expected:
        assert text in lines[0], err
    return lines[0]


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seams") / "journal.db"
    h.build_journal(path, h.STANDARD_CALLS[:3])
    return path


# --- a path the system refuses to look up -------------------------------------------------------------

LONG_PATH_COMMANDS: list[tuple[object, ...]] = [
    ("journal", "ls", "--db", LONG),
    ("journal", "verify", "--db", LONG),
    ("journal", "stats", "--db", LONG),
    ("journal", "export", "--db", LONG),
    ("db", "upgrade", "--db", LONG),
    ("db", "keygen", "--db", LONG),
    ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--create", "--db", LONG, "--args", SNAPSHOT),
    ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--db", f"sqlite:///{LONG}", "--args", SNAPSHOT),
    ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--db", f"{LONG}/j.db", "--args", SNAPSHOT),
    ("mcp", "--principal", h.PRINCIPAL, "--db", LONG),
    ("demo", "--db", LONG),
]


@pytest.mark.parametrize("argv", LONG_PATH_COMMANDS, ids=lambda argv: " ".join(map(str, argv[:2])))
def test_a_name_too_long_is_a_clear_usage_error(argv: tuple[object, ...], tmp_path: Path) -> None:
    line = _clear_usage_error(_arvis(*argv, cwd=tmp_path), "File name too long")
    assert len(line) < 400  # the 5,000 characters are cut, not echoed whole
    assert list(tmp_path.iterdir()) == []


def test_a_checkpoint_file_name_too_long_is_a_clear_usage_error(journal: Path, tmp_path: Path) -> None:
    completed = _arvis("journal", "verify", "--db", journal, "--checkpoint", LONG, cwd=tmp_path)
    _clear_usage_error(completed)


# --- a FIFO where a file is read: refused at once, no one ever writes to it ---------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def test_args_from_a_fifo_are_refused_without_a_writer(journal: Path, fifo: Path, tmp_path: Path) -> None:
    argv = ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--db", journal, "--args", f"@{fifo}")
    _clear_usage_error(_arvis(*argv, cwd=tmp_path), "not a regular file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/"])
def test_args_from_anything_but_a_regular_file_are_refused(
    journal: Path, device: str, tmp_path: Path
) -> None:
    argv = ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--db", journal, "--args", f"@{device}")
    _clear_usage_error(_arvis(*argv, cwd=tmp_path), "not a regular file")


def test_args_from_a_regular_file_still_work(journal: Path, tmp_path: Path) -> None:
    given = tmp_path / "args.json"
    given.write_text(SNAPSHOT)
    copy = h.copy_db(journal, tmp_path / "copy.db")
    argv = ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--db", copy, "--args", f"@{given}")
    completed = _arvis(*argv, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr


# --- a schema stamp that is no arvis revision ---------------------------------------------------------

GARBAGE_STAMPS = ["'garbage'", "''", "'0000'", "12", "'0005 '", "X'ff'", "printf('%.*c', 5000, 'x')"]


def _stamped(journal: Path, tmp_path: Path, stamp_sql: str) -> Path:
    path = h.copy_db(journal, tmp_path / "stamped.db")
    with h.raw_db(path) as connection:
        connection.execute(f"UPDATE alembic_version SET version_num = {stamp_sql}")
    return path


def _readers_and_writers(path: Path) -> list[tuple[object, ...]]:
    return [
        ("journal", "ls", "--db", path),
        ("journal", "verify", "--db", path),
        ("db", "upgrade", "--db", path),
        ("call", "memory.snapshot", "--principal", h.PRINCIPAL, "--db", path, "--args", SNAPSHOT),
    ]


@pytest.mark.parametrize("stamp_sql", GARBAGE_STAMPS)
def test_a_garbage_schema_stamp_is_not_called_newer(journal: Path, tmp_path: Path, stamp_sql: str) -> None:
    path = _stamped(journal, tmp_path, stamp_sql)
    for argv in _readers_and_writers(path):
        line = _clear_usage_error(_arvis(*argv, cwd=tmp_path), "not an arvis journal", "alembic_version")
        assert "newer" not in line and "upgrade arvis" not in line
        assert len(line) < 400


@pytest.mark.parametrize("stamp", [f"{int(HEAD_REVISION) + 1:04d}", "0999_future"])
def test_a_stamp_numbered_past_the_head_is_still_newer(journal: Path, tmp_path: Path, stamp: str) -> None:
    path = _stamped(journal, tmp_path, f"'{stamp}'")
    for argv in _readers_and_writers(path):
        _clear_usage_error(_arvis(*argv, cwd=tmp_path), "newer arvis", stamp, "upgrade arvis")


# --- umask 000: what is created stays private --------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_new_journal_and_its_key_are_private_under_umask_000(tmp_path: Path) -> None:
    argv = (
        "call",
        "memory.snapshot",
        "--principal",
        h.PRINCIPAL,
        "--create",
        "--db",
        "new.db",
        "--args",
        SNAPSHOT,
    )
    completed = _arvis(*argv, cwd=tmp_path, umask=0)
    assert completed.returncode == 0, completed.stderr
    made = sorted(tmp_path.iterdir())
    assert made
    for entry in made:
        assert _mode(entry) == 0o600, entry

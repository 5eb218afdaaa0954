"""Bad ``--at`` (issue 51): past the head, 0, or not a number is one ``arvis: …`` line naming the
journal's head, exit 2, and the database untouched, in every command that takes a position ``--at``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

N = len(h.STANDARD_CALLS)
HEAD = f"the journal's head (seq {N})"
EMPTY = "the journal's head (none: the journal is empty)"
COMMANDS = {"snapshot": ("--user", h.USER), "state": (), "root": ()}
NOT_A_SEQ = ["abc", "", "1.5", "-1", "0x10", "2026-01-01T00:00:00Z", "1e3"]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("at") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture(scope="module")
def pristine_empty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("at-empty") / "journal.db"
    h.build_journal(path, [])
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


@pytest.fixture
def empty(pristine_empty: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine_empty, tmp_path / "empty.db")


def _files(path: Path) -> dict[str, tuple[int, str]]:
    """Every file of the database (the main file, a -wal or -shm beside it): its size and sha256."""
    return {
        item.name: (item.stat().st_size, hashlib.sha256(item.read_bytes()).hexdigest())
        for item in sorted(path.parent.glob(path.name + "*"))
    }


def _refused(capsys: pytest.CaptureFixture[str], path: Path, command: str, at: object) -> str:
    """The one error line of ``journal COMMAND --at AT``: exit 2, nothing on stdout, nothing written."""
    before = _files(path)
    code, out, err = h.cli(capsys, "journal", command, "--db", path, *COMMANDS[command], f"--at={at}")
    assert (code, out) == (2, ""), err
    assert "Traceback" not in err and "usage:" not in err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err
    assert _files(path) == before
    return lines[0]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("at", [N + 1, 999, 2**63 - 1, 2**63, 10**30])
def test_past_the_head(db: Path, capsys: pytest.CaptureFixture[str], command: str, at: int) -> None:
    assert _refused(capsys, db, command, at) == f"arvis: --at {at} is past {HEAD}"


@pytest.mark.parametrize("command", ["snapshot", "state"])
def test_zero_is_before_the_first_entry(db: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    assert _refused(capsys, db, command, 0) == (
        f"arvis: --at 0 is before the first entry: seqs start at 1, up to {HEAD}"
    )


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("at", NOT_A_SEQ)
def test_not_a_seq(db: Path, capsys: pytest.CaptureFixture[str], command: str, at: str) -> None:
    first = 0 if command == "root" else 1  # root's --at is a tree size: 0 is the empty tree
    assert _refused(capsys, db, command, at) == (
        f"arvis: --at {at!r} is not a seq: --at takes a whole number from {first} to {HEAD}"
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_an_empty_journal_has_no_seq_to_travel_to(
    empty: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert _refused(capsys, empty, command, 1) == f"arvis: --at 1 is past {EMPTY}"
    assert _refused(capsys, empty, command, "x").endswith(
        f"a whole number from {int(command != 'root')} to {EMPTY}"
    )
    if command != "root":
        assert _refused(capsys, empty, command, 0).endswith(f"seqs start at 1, up to {EMPTY}")


def test_the_ends_of_the_journal_still_answer(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in COMMANDS:
        for at in (1, N, f" {N} "):
            code, _, err = h.cli(capsys, "journal", command, "--db", db, *COMMANDS[command], f"--at={at}")
            assert code == 0, err
    code, out, err = h.cli(capsys, "journal", "root", "--db", db, "--at", 0)
    assert (code, err) == (0, "") and "tree_size\t0" in out


def test_a_real_process_refuses_alike(db: Path) -> None:
    before = _files(db)
    for at, message in ((999, f"--at 999 is past {HEAD}"), ("abc", "--at 'abc' is not a seq")):
        done = h.arvis_subprocess("journal", "state", "--db", db, "--at", at)
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert h.error_lines(done.stderr)[0].startswith(f"arvis: {message}")
    assert _files(db) == before

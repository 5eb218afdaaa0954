"""Every reader survives any byte in any column: undecodable text is shown escaped, exact bytes travel
as base64, and verification names the tampered seq — never "unexpected error"."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from strategies import VOUCHED

from arvis.canonical import canonical_bytes

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

LAST = len(h.STANDARD_CALLS)
ARVIS = str(Path(sys.executable).parent / "arvis")
TEXT_COLUMNS = ("syscall", "principal", "status", "recorded_at")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("robust") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


def _store_invalid_text(path: Path, seq: int, column: str, raw: bytes) -> None:
    """A text column holding bytes that are not UTF-8, as a hand edit with sqlite3 leaves it."""
    h.drop_trigger(path, "journal_no_update")
    with h.raw_db(path) as connection:
        connection.execute(f"UPDATE journal SET {column} = CAST(? AS TEXT) WHERE seq = ?", (raw, seq))


def _no_crash(err: str) -> None:
    assert "unexpected error" not in err
    assert "Traceback" not in err


@pytest.mark.parametrize("column", TEXT_COLUMNS)
def test_every_reader_shows_invalid_text_escaped(
    db: Path, column: str, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = b"mem\xffory"
    _store_invalid_text(db, LAST, column, raw)  # the last entry: tail shows it too
    for argv in (
        ("journal", "ls", "--db", db, "-o", "json"),
        ("journal", "ls", "--db", db, "-o", "jsonl"),
        ("journal", "ls", "--db", db),
        ("journal", "show", "--db", db, str(LAST)),
        ("journal", "show", "--db", db, str(LAST), "-o", "table"),
        ("journal", "stats", "--db", db, "-o", "json"),
        ("journal", "stats", "--db", db),
        ("journal", "tail", "--db", db, "-o", "jsonl"),
        ("journal", "tail", "--db", db),
        ("journal", "export", "--db", db),
    ):
        code, out, err = h.cli(capsys, *argv)
        _no_crash(err)
        assert code == 0, (argv, err)
        if argv[1] != "stats" or column in ("syscall", "status", "recorded_at"):
            assert "\\xff" in out, argv


@pytest.mark.parametrize("column", TEXT_COLUMNS)
def test_export_carries_the_exact_bytes_of_invalid_text(
    db: Path, column: str, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = b"mem\xffory"
    _store_invalid_text(db, 2, column, raw)
    code, out, _ = h.cli(capsys, "journal", "export", "--db", db)
    assert code == 0
    line = json.loads(out.splitlines()[1])
    assert line[column] == "mem\\xffory"
    assert base64.b64decode(line[f"{column}_b64"]) == raw


@pytest.mark.parametrize("column", ("syscall", "principal"))
@pytest.mark.parametrize("fmt", ("json", "table"))
def test_verify_names_the_seq_of_invalid_text(
    db: Path, column: str, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _store_invalid_text(db, 3, column, b"\xff\xfe")
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db, "-o", fmt)
    _no_crash(err)
    assert code == 1, err
    if fmt == "json":
        text = json.dumps(json.loads(out))
        assert '"seq": 3' in text or '"first_bad_seq": 3' in text or "3" in text
    else:
        assert "seq 3" in out


def test_one_entry_shape_everywhere(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ls -o json, ls -o jsonl, show, tail -o jsonl and export give an entry the same JSON shape."""
    shapes: dict[str, Any] = {}
    _, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "-o", "json")
    shapes["ls json"] = json.loads(out)[1]
    _, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "-o", "jsonl")
    shapes["ls jsonl"] = json.loads(out.splitlines()[1])
    _, out, _ = h.cli(capsys, "journal", "show", "--db", db, "2")
    shapes["show"] = json.loads(out)
    _, out, _ = h.cli(capsys, "journal", "export", "--db", db)
    shapes["export"] = json.loads(out.splitlines()[1])
    _, out, _ = h.cli(capsys, "journal", "tail", "--db", db, "-n", "1000", "-o", "jsonl")
    shapes["tail"] = json.loads(out.splitlines()[1])
    first = shapes["export"]
    assert isinstance(first["args"], dict)
    for name, shape in shapes.items():
        assert shape == first, name
    stored = h.read_cell(db, 2, "args")
    assert canonical_bytes(first["args"]) == stored


def test_args_that_are_not_canonical_travel_as_base64(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bytes that decode but do not re-encode to themselves (a hand edit adding a space) are not
    shown as a value that would hash differently."""
    edited = b'{"user_id": "u1"}'
    h.write_cell(db, 2, "args", edited)
    _, out, _ = h.cli(capsys, "journal", "show", "--db", db, "2")
    entry = json.loads(out)
    assert "args" not in entry
    assert base64.b64decode(entry["args_b64"]) == edited


# --- services: a journal written with a service unbound verifies ----------------------------------


def _unbound_journal(path: Path) -> None:
    """Two sessions on one file: the first binds no service, the second the default ones."""
    from kernel.registry import KernelServiceRegistry
    from syscalls.boot import open_kernel

    first = open_kernel(str(path), services=KernelServiceRegistry(), identity=VOUCHED, create=True)
    try:
        assert first.call("memory.write", h.WRITE, principal="operator:x").error.code == "no_memory_service"  # type: ignore[union-attr]
        refused = first.call("memory.awmu.create", {"context_id": "c"}, principal="operator:x")
        assert refused.error is not None and refused.error.code == "no_memory_service"
    finally:
        first.close()
    second = open_kernel(str(path), identity=VOUCHED, create=True)
    try:
        assert second.call("memory.write", h.WRITE, principal="operator:x").ok
        assert second.call("memory.awmu.create", {"context_id": "c"}, principal="operator:x").ok
    finally:
        second.close()


def test_a_journal_written_with_services_unbound_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "unbound.db"
    _unbound_journal(path)
    code, out, err = h.cli(capsys, "journal", "verify", "--db", path)
    assert code == 0, out + err
    assert "verified" in out


def test_a_refusal_forged_as_unbound_is_still_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a no_memory_service refusal is replayed unbound: the same entry with its status edited
    to another code does not verify."""
    path = tmp_path / "unbound.db"
    _unbound_journal(path)
    h.write_cell(path, 1, "status", "invalid_args")
    code, _, _ = h.cli(capsys, "journal", "verify", "--db", path)
    assert code == 1


# --- syscall names and enum values: the table and "did you mean" ----------------------------------


def test_syscalls_lists_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from syscalls.table import SYSCALL_TABLE

    code, out, _ = h.cli(capsys, "syscalls", "-o", "json")
    assert code == 0
    listed = json.loads(out)
    assert [item["name"] for item in listed] == sorted(SYSCALL_TABLE)
    write = next(item for item in listed if item["name"] == "memory.write")
    assert write["mutates"] is True
    memory_type = next(arg for arg in write["arguments"] if arg["name"] == "memory_type")
    assert memory_type["required"] is True
    assert "preference" in memory_type["type"]
    code, out, _ = h.cli(capsys, "syscalls")
    assert code == 0
    assert "memory.awmu.turn" in out


def test_syscalls_of_one_name_and_of_a_typo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = h.cli(capsys, "syscalls", "memory.awmu.seed")
    assert code == 0
    assert "authority" in out and "RELIABLE" in out
    code, _, err = h.cli(capsys, "syscalls", "memory.wrte")
    assert code == 2
    assert "did you mean memory.write" in err


def test_call_suggests_the_syscall_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.db"
    h.build_journal(path)
    code, out, err = h.cli(
        capsys, "call", "memory.wirte", "--db", path, "--principal", h.PRINCIPAL, "--args", "{}"
    )
    assert code == 1
    assert json.loads(out)["error"]["code"] == "unknown_syscall"  # the kernel's answer, unchanged
    assert "did you mean memory.write" in err


def test_call_lists_the_valid_enum_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.db"
    h.build_journal(path)
    args = json.dumps({**h.WRITE, "memory_type": "prefrence"})
    code, out, err = h.cli(
        capsys, "call", "memory.write", "--db", path, "--principal", h.PRINCIPAL, "--args", args
    )
    assert code == 1
    assert json.loads(out)["error"]["code"] == "invalid_args"
    assert "did you mean preference?" in err
    assert "valid values for memory_type: preference, context, rule, style, constraint" in err


# --- times, tables, scenarios -----------------------------------------------------------------


def test_since_takes_the_words_journalctl_takes() -> None:
    from datetime import UTC, datetime

    from tools.timespec import parse_moment

    now = datetime(2026, 12, 1, 10, 30, tzinfo=UTC)
    assert parse_moment("yesterday", now=now) == "2026-11-30T00:00:00.000000Z"
    assert parse_moment("today", now=now) == "2026-12-01T00:00:00.000000Z"
    assert parse_moment("tomorrow", now=now) == "2026-12-02T00:00:00.000000Z"
    assert parse_moment("now", now=now) == "2026-12-01T10:30:00.000000Z"
    assert parse_moment("2h ago", now=now) == "2026-12-01T08:30:00.000000Z"


def test_an_age_too_old_is_a_clear_error(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = h.cli(capsys, "journal", "ls", "--db", db, "--since", "99999999999d")
    assert code == 2
    _no_crash(err)
    assert "before year 1" in err


def test_tables_never_cut_a_value_at_80_columns() -> None:
    from rich.console import Console

    from tools.output import print_table

    console = Console(width=80, record=True, force_terminal=True, file=io.StringIO())
    long_names = ["memory.awmu.validate_summary", "operator:a-rather-long-principal-name", "x" * 70]
    print_table("t", ("seq", "syscall", "principal", "status"), [(1, *long_names)], console=console)
    text = console.export_text()
    assert "…" not in text
    assert all(len(line) <= 80 for line in text.splitlines())
    # every character of every value is on screen (folded across lines, never dropped)
    shown_chars = sorted(c for c in text if not c.isspace() and c != "─")
    expected = sorted(
        c for c in "t" + "seqsyscallprincipalstatus" + "1" + "".join(long_names) if not c.isspace()
    )
    assert shown_chars == expected


def test_a_scenario_with_nothing_to_play_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.yml"
    empty.write_text("id: empty\ntitle: nothing to play\nestablishedFacts: []\nturns: []\n")
    code, _, err = h.cli(capsys, "scenario", "run", empty, "--db", tmp_path / "journals")
    _no_crash(err)
    assert code == 1
    assert "skipped" in err


# --- filters that cannot match are said, not answered by silence ------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "meant"),
    [
        ("--status", "bogus", None),
        ("--status", "memory_entry_not_fond", "memory_entry_not_found"),
        ("--syscall", "memory.wrte", "memory.write"),
        ("--syscall", "memroy.*", None),
    ],
)
def test_a_filter_that_matches_nothing_known_is_a_usage_error(
    db: Path, option: str, value: str, meant: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = h.cli(capsys, "journal", "ls", "--db", db, option, value)
    assert code == 2
    assert out == ""
    _no_crash(err)
    if meant is not None:
        assert f"did you mean {meant}" in err


def test_a_journaled_name_the_table_lacks_is_a_valid_filter(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused call to a mistyped syscall is journaled under that name: it can be listed."""
    code, _, _ = h.cli(capsys, "call", "memory.wirte", "--db", db, "--principal", h.PRINCIPAL)
    assert code == 1
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "--syscall", "memory.wirte", "-o", "json")
    assert code == 0
    listed = json.loads(out)
    assert [entry["syscall"] for entry in listed] == ["memory.wirte"]
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "--status", "unknown_syscall", "-o", "json")
    assert code == 0
    assert json.loads(out)[-1]["syscall"] == "memory.wirte"


def test_a_principal_that_is_not_utf8_filters(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A principal given as raw bytes (argv decoded with surrogateescape) finds the tampered entry."""
    _store_invalid_text(db, 3, "principal", b"\xffA")
    code, out, err = h.cli(capsys, "journal", "ls", "--db", db, "--by", "\udcffA", "-o", "json")
    _no_crash(err)
    assert code == 0
    assert [entry["seq"] for entry in json.loads(out)] == [3]


def test_a_positional_database_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``journal ls DB``, deprecated one release, is a usage error now: the database is ``--db DB``."""
    with pytest.raises(SystemExit) as stopped:
        h.cli(capsys, "journal", "ls", db)
    assert stopped.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "-o", "json")
    assert code == 0 and len(json.loads(out)) == LAST


def test_log_level_goes_after_the_command_too(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = json.dumps({"user_id": h.USER, "key": "language"})
    code, _, err = h.cli(
        capsys,
        "call",
        "memory.get",
        "--db",
        db,
        "--principal",
        h.PRINCIPAL,
        "--args",
        args,
        "--log-level",
        "info",
    )
    assert code in (0, 1)
    assert '"event": "syscall"' in err or '"event":"syscall"' in err


def test_call_prints_one_line_with_jsonl(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = json.dumps({"user_id": h.USER, "key": "language"})
    _, out, _ = h.cli(
        capsys, "call", "memory.get", "--db", db, "--principal", h.PRINCIPAL, "--args", args, "-o", "jsonl"
    )
    assert len(out.splitlines()) == 1
    assert "seq" in json.loads(out)


def test_tail_prints_a_json_array_but_not_while_following(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = h.cli(capsys, "journal", "tail", "--db", db, "-n", "3", "-o", "json")
    assert code == 0
    assert [entry["seq"] for entry in json.loads(out)] == [LAST - 2, LAST - 1, LAST]
    code, _, err = h.cli(capsys, "journal", "tail", "--db", db, "-f", "-o", "json")
    assert code == 2
    assert "jsonl" in err


# --- review findings: markup, control characters, values the output encoder refuses, odd inputs ------


def test_journal_text_is_never_markup_or_a_control_sequence() -> None:
    from rich.console import Console

    from tools.output import cell, print_table

    assert cell("a\nb\tc\x1b[31m") == "a\\nb\\tc\\x1b[31m"
    assert cell("mem\udcff") == "mem\\xff"
    console = Console(width=120, record=True, force_terminal=True, file=io.StringIO())
    print_table(None, ("principal",), [("user:[red]bob[/red]",), ("user:[/]",)], console=console)
    text = console.export_text()
    assert "user:[red]bob[/red]" in text and "user:[/]" in text


def test_a_tsv_row_cannot_be_forged_by_a_newline(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h.write_cell(db, 2, "principal", "x\n99\tforged")
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db)
    assert code == 0
    assert len(out.splitlines()) == LAST + 1  # the header and one line per entry


@pytest.mark.parametrize(
    "stored",
    [b'{"n":99999999999999999999}', b"[" * 300 + b"]" * 300, b"[" * 254 + b"]" * 254],
    ids=["bigint", "deep", "deep-in-an-entry"],
)
def test_json_the_output_encoder_refuses_travels_as_base64(
    db: Path, stored: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    h.write_cell(db, 2, "args", stored)
    for argv in (("journal", "show", "--db", db, "2"), ("journal", "export", "--db", db)):
        code, out, err = h.cli(capsys, *argv)
        _no_crash(err)
        assert code == 0
    line = json.loads(out.splitlines()[1])
    assert base64.b64decode(line["args_b64"]) == stored


@pytest.mark.parametrize("option", ["timeout=abc", "check_same_thread=maybe", "detect_types=x"])
def test_a_bad_sqlite_driver_option_is_a_usage_error(
    db: Path, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = h.cli(capsys, "journal", "ls", "--db", f"sqlite:///{db}?{option}")
    _no_crash(err)
    assert code == 2
    assert "not valid" in err


def test_a_day_is_the_longest_interval(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:  # argparse's own usage error
        h.cli(capsys, "journal", "tail", "--db", db, "-f", "--interval", "1e308")
    assert exited.value.code == 2
    assert "more than a day" in capsys.readouterr().err


def test_a_new_journal_at_a_path_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    path = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xfb.db")
    args = json.dumps({"user_id": "a"})
    code, _, err = h.cli(
        capsys, "call", "memory.list", "--create", "--db", path, "--principal", "user:a", "--args", args
    )
    _no_crash(err)
    assert code == 0
    code, _, err = h.cli(capsys, "journal", "verify", "--db", path)
    assert code == 0, err
    code, _, err = h.cli(
        capsys, "journal", "ls", "--db", os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xfc.db")
    )
    assert code == 2
    assert "\\xfc.db" in err


def test_args_from_a_file_too_large_are_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read to the limit and no further (a device, /dev/zero, is refused first: test_cli_seams.py)."""
    large = tmp_path / "large.json"
    large.write_bytes(b" " * (2 << 20))
    code, _, err = h.cli(
        capsys, "call", "memory.list", "--db", db, "--principal", h.PRINCIPAL, "--args", f"@{large}"
    )
    assert code == 2
    assert "larger than" in err


def test_a_closed_pipe_ends_like_any_unix_tool(db: Path) -> None:
    completed = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {ARVIS} journal ls --db '{db}' -o jsonl | head -c 1 >/dev/null"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in completed.stderr
    assert completed.returncode in (0, 141)


def test_every_command_speaks_json(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = h.cli(capsys, "journal", "export", "--db", db, "-o", "json")
    assert code == 0 and len(json.loads(out)) == LAST
    code, out, _ = h.cli(capsys, "journal", "copy", "--db", db, "--to", tmp_path / "copy.db", "-o", "json")
    assert code == 0 and json.loads(out)["entries"] == LAST
    code, out, _ = h.cli(capsys, "db", "upgrade", "--db", tmp_path / "copy.db", "-o", "json")
    assert code == 0 and json.loads(out)["before"] == json.loads(out)["after"]
    code, out, _ = h.cli(capsys, "demo", "--db", tmp_path / "demo.db", "-o", "json")
    assert code == 0
    demo = json.loads(out)
    assert demo["verification"]["verified"] is True and demo["calls"]


def test_a_long_table_on_a_terminal_is_printed_in_chunks() -> None:
    from rich.console import Console

    from tools.output import TABLE_CHUNK, print_table

    console = Console(width=80, record=True, force_terminal=True, file=io.StringIO())
    print_table(
        "t", ("seq", "syscall"), ((i, "memory.get") for i in range(2 * TABLE_CHUNK + 5)), console=console
    )
    text = console.export_text()
    assert text.count(" seq ") == 1  # the header once
    assert f" {2 * TABLE_CHUNK + 4} " in text


def test_tail_stops_following_a_removed_journal(db: Path) -> None:
    import time

    follower = subprocess.Popen(
        [ARVIS, "journal", "tail", "--db", str(db), "-f", "--interval", "0.1", "-n", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(1.5)
        db.unlink()
        _, err = follower.communicate(timeout=30)
    finally:
        follower.kill()
    assert follower.returncode == 1
    assert "was removed" in err


def test_a_new_journal_is_private_to_its_owner(tmp_path: Path) -> None:
    """0600, and SQLite gives the -wal and -shm files the same; an existing file keeps its mode."""
    import os
    import stat

    from syscalls.boot import open_kernel

    path = tmp_path / "private.db"
    kernel = open_kernel(str(path), identity=VOUCHED, create=True)
    try:
        assert kernel.call("memory.list", {"user_id": "a"}, principal="user:a").ok
        for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            assert name.exists(), name  # an open WAL journal has all three
            assert stat.S_IMODE(name.stat().st_mode) == 0o600, name
    finally:
        kernel.close()
    os.chmod(path, 0o640)
    open_kernel(str(path), identity=VOUCHED, create=True).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640

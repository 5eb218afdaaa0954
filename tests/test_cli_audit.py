"""The auditor's commands never lie, never trap, never crash: ``journal diff`` compares content, not
hashes; ``verify`` takes several journals and names the stored and the replayed state; ``state`` and
``snapshot`` show governance alike; ``checkpoint`` and ``diff`` speak JSON; out-of-range seqs and
durations are usage errors; a column of invalid UTF-8 is named, not a crash."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from journal.state import state_digest
from tools import argtypes

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

N = len(h.STANDARD_CALLS)
TOO_BIG = str(2**63)
LATER = h.make_clock(h.T0 + h.STEP * 100)
ONE_MORE: list[h.Call] = [("memory.list", {"user_id": h.USER}, h.AGENT)]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("audit") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


@pytest.fixture
def twin(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "twin.db")


def _json(capsys: pytest.CaptureFixture[str], *argv: object, code: int = 0) -> Any:
    got, out, err = h.cli(capsys, *argv)
    assert got == code, err
    return json.loads(out)


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    """argparse's refusal: exit 2, a message on stderr, nothing on stdout, no traceback."""
    from tools.cli import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    assert exited.value.code == 2
    assert captured.out == ""
    assert "Traceback" not in captured.err and "unexpected error" not in captured.err
    return captured.err


def _clean_error(err: str) -> None:
    assert "Traceback" not in err and "unexpected error" not in err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err


def _forge_args(path: Path, seq: int) -> None:
    """Edit a row's args behind the chain's back: its entry hash stays what it was."""
    h.write_cell(path, seq, "args", b'{"user_id":"forged"}')


def _digest(path: Path) -> str:
    with h.reader_of(path) as reader, reader.engine.connect() as connection:
        return state_digest(connection)


def _store_invalid_text(path: Path, seq: int, column: str) -> None:
    h.drop_trigger(path, "journal_no_update")
    with h.raw_db(path) as connection:
        connection.execute(f"UPDATE journal SET {column} = CAST(x'6d656dff' AS TEXT) WHERE seq = ?", (seq,))


# --- diff compares content -----------------------------------------------------------------------


def test_diff_sees_forged_args_under_an_unchanged_hash(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _forge_args(twin, 5)
    assert h.read_cell(twin, 5, "entry_hash") == h.read_cell(db, 5, "entry_hash")
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", twin)
    assert code == 1
    assert out.splitlines() == [
        "first difference at seq 5: args differ",
        f"state identical (digest {_digest(db)})",
    ]
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json", code=1)
    assert report["state"]["identical"] is True
    assert {name: value for name, value in report.items() if name != "state"} == {
        "identical": False,
        "first_difference": {"seq": 5, "fields": ["args"], "only_in": None},
        "header_fields": [],
        "lengths": [N, N],
    }


@pytest.mark.parametrize(("column", "value"), [("status", "forged"), ("result", b"{}"), ("recorded_at", "x")])
def test_diff_names_every_kind_of_field(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str], column: str, value: object
) -> None:
    h.write_cell(twin, 7, column, value)
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json", code=1)
    assert report["first_difference"] == {"seq": 7, "fields": [column], "only_in": None}


def test_diff_of_identical_journals_as_json(db: Path, twin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json")
    state = report.pop("state")
    assert report == {"identical": True, "first_difference": None, "header_fields": [], "lengths": [N, N]}
    assert state["identical"] is True and state["first_difference"] is None and state["tables"] == []
    assert state["digests"] == [_digest(db)] * 2 and state["content_tables"] == []
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", twin)
    assert (code, out.strip()) == (
        0,
        f"identical: {N} entries, and the state they hold (digest {_digest(db)})",
    )


def test_diff_of_a_prefix_says_how_many_more(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h.build_journal(twin, ONE_MORE * 3, clock=LATER)
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", twin)
    assert code == 1
    assert out.splitlines()[0] == (
        f"first difference at seq {N + 1}: the second journal ({twin}) has 3 more entries after seq {N}, "
        "where the first ends"
    )
    report = _json(capsys, "journal", "diff", "--db", twin, "--other", db, "-o", "json", code=1)
    assert report["first_difference"] == {"seq": N + 1, "fields": [], "only_in": "first"}
    assert report["lengths"] == [N + 3, N]


def test_diff_reports_the_first_difference_and_counts_to_the_end(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _forge_args(twin, 3)
    h.build_journal(twin, ONE_MORE, clock=LATER)
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "jsonl", code=1)
    assert report["first_difference"]["seq"] == 3
    assert report["lengths"] == [N, N + 1]


def test_diff_of_empty_journals_with_other_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    h.build_journal(first, [])
    h.build_journal(second, [], journal_id="j-other")
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", first, "--other", second)
    assert code == 1
    assert out.splitlines()[:2] == [
        "entries identical: 0 entries",
        "headers differ: journal_id, genesis_hash",
    ]
    report = _json(capsys, "journal", "diff", "--db", first, "--other", second, "-o", "json", code=1)
    assert report["identical"] is False and report["first_difference"] is None
    assert report["header_fields"] == ["journal_id", "genesis_hash"]


def test_diff_sees_an_edited_state_row_under_identical_entries(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The kernel serves the stored state: two journals whose entries are equal but whose memories
    differ are not the same journal (exit 1), and the row is named by table and primary key."""
    with h.raw_db(twin) as connection:
        connection.execute(
            "UPDATE memory_entries SET value_ref = 'forged' WHERE key = 'language' AND version = 2"
        )
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", twin)
    assert code == 1
    assert out.splitlines() == [
        f"entries identical: {N} entries",
        "state differs: first at memory_entries row (user_id=u1, key=language, version=2): value_ref differ",
        "  memory_entries: 1 row differs in user_id u1",
        "memory content differs in: memory_entries",
    ]
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json", code=1)
    assert report["identical"] is False and report["first_difference"] is None
    state = report["state"]
    assert state["identical"] is False
    assert state["first_difference"] == {
        "table": "memory_entries",
        "key": {"user_id": "u1", "key": "language", "version": 2},
        "columns": ["value_ref"],
        "only_in": None,
    }
    assert state["digests"] == [_digest(db), _digest(twin)]
    assert state["tables"] == [
        {
            "table": "memory_entries",
            "rows": 1,
            "partition_column": "user_id",
            "partitions": ["u1"],
            "partition_count": 1,
        }
    ]
    assert state["content_tables"] == ["memory_entries"]


def test_diff_names_a_row_only_one_state_holds(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with h.raw_db(twin) as connection:
        connection.execute("DELETE FROM memory_entries WHERE key = 'language' AND version = 1")
    for first, second, side, path in ((db, twin, "first", db), (twin, db, "second", db)):
        code, out, _ = h.cli(capsys, "journal", "diff", "--db", first, "--other", second)
        assert code == 1
        assert out.splitlines()[1] == (
            "state differs: first at memory_entries row (user_id=u1, key=language, version=1): "
            f"only the {side} journal ({path}) holds it"
        )
        report = _json(capsys, "journal", "diff", "--db", first, "--other", second, "-o", "json", code=1)
        assert report["state"]["first_difference"]["only_in"] == side


def test_diff_says_when_only_the_bookkeeping_differs(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A superseded version is history, not what the memory says: the states differ, the content not."""
    with h.raw_db(twin) as connection:
        connection.execute(
            "UPDATE memory_entries SET notes = 'edited' WHERE key = 'language' AND version = 1"
        )
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", twin)
    assert code == 1
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json", code=1)
    content = report["state"]["content_digests"]
    assert content[0] == content[1] and report["state"]["content_tables"] == []
    assert (
        out.splitlines()[-1] == f"memory content the same (digest {content[0]}): only its bookkeeping differs"
    )


def test_diff_of_states_where_one_lacks_an_empty_table(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database written before a migration lacks the newer tables; a missing table holds no rows."""
    with h.raw_db(twin) as connection:
        assert connection.execute("SELECT count(*) FROM graph_store_items").fetchone() == (0,)
        connection.execute("DROP TABLE graph_store_items")
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json")
    assert report["identical"] is True and report["state"]["digests"] == [_digest(db)] * 2


def test_diff_streams_both_journals(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries come in batches (here of 2), so neither journal is ever held whole."""
    from journal.reader import JournalReader

    entries = JournalReader.entries
    batches: list[int] = []

    def small_batches(self: JournalReader, where: Any = None, *, batch: int = 0) -> Any:
        batches.append(2)
        return entries(self, where, batch=2)

    monkeypatch.setattr(JournalReader, "entries", small_batches)
    _forge_args(twin, N)
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json", code=1)
    assert report["first_difference"]["seq"] == N and report["lengths"] == [N, N]
    assert batches == [2, 2]


# --- verify: several journals, stored and replayed state named -----------------------------------


def test_verify_takes_several_journals(db: Path, twin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = _json(capsys, "journal", "verify", "--db", db, "--db", twin, "-o", "json")
    assert [(r["db"], r["verified"], r["entries"]) for r in reports] == [
        (str(db), True, N),
        (str(twin), True, N),
    ]
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db, "--db", twin)
    assert code == 0
    assert out.splitlines()[0].startswith(f"{db}: verified: {N} entries")
    assert out.splitlines()[-1] == "2 of 2 journals verified"


def test_verify_fails_when_any_journal_fails(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h.tamper_one(twin, 6, "principal", position=1)
    reports = _json(capsys, "journal", "verify", "--db", db, "--db", twin, "-o", "json", code=1)
    assert [(r["verified"], r["first_bad_seq"]) for r in reports] == [(True, None), (False, 6)]
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db, "--db", twin, "-o", "jsonl")
    assert code == 1
    assert [json.loads(line)["verified"] for line in out.splitlines()] == [True, False]
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", twin, "--db", db)
    assert code == 1
    assert f"{twin}: NOT verified: seq 6" in out and out.splitlines()[-1] == "1 of 2 journals verified"


def test_verify_of_one_journal_keeps_its_shape(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _json(capsys, "journal", "verify", "--db", db, "-o", "json")
    assert report["db"] == str(db) and report["verified"] is True


def test_verify_reads_the_environment_without_a_path(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARVIS_DB", str(db))
    assert _json(capsys, "journal", "verify", "-o", "json")["db"] == str(db)
    monkeypatch.delenv("ARVIS_DB")
    code, out, err = h.cli(capsys, "journal", "verify")
    assert (code, out) == (2, "")
    _clean_error(err)


def test_verify_checks_every_path_before_replaying_any(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db, "--db", tmp_path / "missing.db")
    assert (code, out) == (2, "")
    _clean_error(err)
    assert "missing.db" in err


def test_verify_names_the_stored_and_the_replayed_state(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with h.raw_db(db) as connection:
        connection.execute("UPDATE memory_entries SET value_ref = 'forged' WHERE key = 'language'")
    with h.reader_of(db) as reader, reader.engine.connect() as connection:
        stored = state_digest(connection)
    report = _json(capsys, "journal", "verify", "--db", db, "-o", "json", code=1)
    divergence = report["divergence"]
    assert divergence["expected"] == report["state_digest"] != stored  # the replay is what the journal says
    assert divergence["found"] == stored
    assert divergence["labels"] == {"expected": "replayed state", "found": "stored state"}
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db)
    assert code == 1
    lines = out.splitlines()
    assert lines[1].split() == ["replayed", "state", "(expected):", report["state_digest"]]
    assert lines[2].split() == ["stored", "state", "(found):", stored]


# --- state and snapshot: one shape ---------------------------------------------------------------


def test_state_shows_governance_as_snapshot_does(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _json(capsys, "journal", "state", "--db", db, "-o", "json")
    snapshot = _json(capsys, "journal", "snapshot", "--db", db, "--user", h.USER)
    entry = next(
        row for row in state["tables"]["memory_entries"] if row["key"] == "language" and row["version"] == 2
    )
    shown = next(e for e in snapshot["snapshot"]["active_entries"] if e["key"] == "language")
    assert isinstance(entry["governance"], dict)
    assert entry["governance"] == shown["governance"]


def test_state_keeps_governance_that_is_not_json_as_stored(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.audit.timetravel import StateAt

    rows = {"memory_entries": [{"governance": "not json"}, {"governance": "[1]"}]}
    shown = StateAt(1, None, "d", rows).to_json()["tables"]["memory_entries"]
    assert shown == [{"governance": "not json"}, {"governance": "[1]"}]


def test_snapshot_before_the_first_entry_says_so(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = h.cli(capsys, "journal", "snapshot", "--db", db, "--user", h.USER, "--at", 0)
    assert (code, out) == (2, "")
    _clean_error(err)
    assert "before the first entry" in err


# --- checkpoint -o json ----------------------------------------------------------------------------


def test_checkpoint_as_json(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = h.read_cell(db, N, "entry_hash")
    assert _json(capsys, "journal", "checkpoint", "--db", db, "-o", "json") == {
        "seq": N,
        "entry_hash": head,
        "checkpoint": f"{N}:{head}",
        "position": {"seq": N, "hash": head},
    }
    code, out, _ = h.cli(capsys, "journal", "checkpoint", "--db", db)
    assert (code, out.strip()) == (0, f"{N}:{head}")


# --- numbers out of range are usage errors ---------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("show", TOO_BIG),
        ("show", "-3"),
        ("tail", "--interval", "nan"),
        ("tail", "--interval", "inf"),
        ("tail", "--interval", "-1"),
        ("tail", "--interval", "0"),
        ("tail", "-f", "--idle-exit", "nan"),
        ("tail", "-f", "--idle-exit", "-inf"),
    ],
)
def test_numbers_out_of_range_are_usage_errors(
    db: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    err = _usage_error(capsys, "journal", argv[0], "--db", db, *argv[1:])
    assert "error: argument" in err  # --at is checked against the journal: tests/test_cli_at.py


def test_the_largest_seq_is_accepted_and_is_simply_absent(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    largest = str(argtypes.MAX_SEQ)
    for argv in (("show", "--db", db, largest), ("state", "--db", db, "--at", largest)):
        code, out, err = h.cli(capsys, "journal", *argv)
        assert (code, out) == (2, "")
        _clean_error(err)


@pytest.mark.parametrize("bad", [f"{TOO_BIG}:{'a' * 64}", f"-1:{'a' * 64}", f"3:{'z' * 64}", "3:"])
def test_checkpoint_out_of_range_is_a_clean_error(
    db: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db, f"--checkpoint={bad}")
    assert (code, out) == (2, "")
    _clean_error(err)


def test_argtypes_accept_what_they_should() -> None:
    assert argtypes.seq_number("0") == 0
    assert argtypes.seq_number(str(argtypes.MAX_SEQ)) == argtypes.MAX_SEQ
    assert argtypes.positive_seconds("0.25") == 0.25
    kept = argtypes.checkpoint(f"7:{'AB' * 32}")
    assert (kept.seq, kept.entry_hash) == (7, "ab" * 32)
    for bad in ("", "x", "1e3", "9" * 5000):
        with pytest.raises(argparse.ArgumentTypeError):
            argtypes.seq_number(bad)
    for bad in ("", "x", "nan", "-0.0", "1e400"):
        with pytest.raises(argparse.ArgumentTypeError):
            argtypes.positive_seconds(bad)
    for bad in ("0:" + "a" * 64, "1:" + "a" * 63, "1" + "a" * 64):
        with pytest.raises(argparse.ArgumentTypeError):
            argtypes.checkpoint(bad)


# --- invalid UTF-8 in a text column ----------------------------------------------------------------


@pytest.mark.parametrize("column", ["syscall", "principal"])
def test_verify_json_names_the_seq_of_invalid_utf8(
    db: Path, capsys: pytest.CaptureFixture[str], column: str
) -> None:
    _store_invalid_text(db, 1, column)
    report = _json(capsys, "journal", "verify", "--db", db, "-o", "json", code=1)
    assert report["first_bad_seq"] == 1 and report["verified"] is False
    assert report["divergence"]["class"] == "invalid_history"
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db)
    assert code == 1 and "unexpected error" not in err
    assert out.startswith("NOT verified: seq 1")
    if column == "syscall":
        assert "(mem\\xff)" in out


def test_diff_of_a_journal_with_invalid_utf8(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _store_invalid_text(twin, 2, "syscall")
    report = _json(capsys, "journal", "diff", "--db", db, "--other", twin, "-o", "json", code=1)
    assert report["first_difference"] == {"seq": 2, "fields": ["syscall"], "only_in": None}


def test_the_store_is_untouched_by_every_audit_command(
    db: Path, twin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = db.read_bytes()
    for argv in (
        ("verify", "--db", db, "--db", twin),
        ("diff", "--db", db, "--other", twin),
        ("checkpoint", "--db", db, "-o", "json"),
        ("state", "--db", db, "-o", "json"),
    ):
        assert h.cli(capsys, "journal", *argv)[0] == 0
    assert db.read_bytes() == before


@pytest.mark.parametrize("output", ["json", "table"])
def test_verify_never_prints_a_urls_password(
    db: Path, output: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from journal.reader import JournalReader
    from tools import journal_audit

    urls = ["postgresql://auditor:s3cret@one/journal", "postgresql://auditor:s3cret@two/journal"]
    options = argparse.Namespace(db=urls, checkpoint=None, key=None, output=output, chain_only=True)
    assert journal_audit.run_verify(options, lambda _url: JournalReader.open(str(db))) == 0
    out = capsys.readouterr().out
    assert "s3cret" not in out and "postgresql://auditor:***@one/journal" in out

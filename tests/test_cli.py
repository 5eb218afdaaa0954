"""The ``arvis`` command line: call, journal ls/show/tail/verify/checkpoint/stats/export/diff, db."""

from __future__ import annotations

import argparse
import base64
import json
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from arvis.canonical import canonical_bytes
from journal.entry import compute_entry_hash
from tools import journal_ls

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

N = len(h.STANDARD_CALLS)
WRITE_JSON = json.dumps(h.WRITE)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


def _json(capsys: pytest.CaptureFixture[str], *argv: object, code: int = 0) -> Any:
    got, out, err = h.cli(capsys, *argv)
    assert got == code, err
    return json.loads(out)


def _jsonl(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def _seqs(capsys: pytest.CaptureFixture[str], db: Path, *options: object) -> list[int]:
    entries = _json(capsys, "journal", "ls", "--db", db, "-o", "json", *options)
    return [entry["seq"] for entry in entries]


def _clean_error(err: str) -> None:
    assert "Traceback" not in err
    lines = h.error_lines(err)
    assert len(lines) == 1, err
    assert lines[0].startswith("arvis: ")


_seqs_where = h.standard_seqs
WRITES = _seqs_where(lambda c, s: c[0] == "memory.write")
ERRORS = _seqs_where(lambda c, s: s != "ok")


# --- arvis call ----------------------------------------------------------------------------------


def test_call_prints_the_result_and_exits_0_or_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "new.db"
    admin = ("--principal", "operator:local")  # --create wrote the admin key it needs
    first = _json(capsys, "call", "memory.write", "--db", db, "--create", *admin, "--args", WRITE_JSON)
    assert first["ok"] is True
    assert first["seq"] == 1
    assert first["value"]["entry"]["key"] == "language"
    refused = _json(capsys, "call", "memory.write", "--db", db, *admin, "--args", WRITE_JSON, code=1)
    assert refused["ok"] is False
    assert refused["seq"] == 2
    assert refused["error"]["code"] == "memory_conflict"
    assert refused["error"]["message"]
    get_args = '{"user_id":"u1","key":"language"}'
    denied = _json(
        capsys, "call", "memory.get", "--db", db, "--args", get_args, "--principal", "agent:cli", code=1
    )
    assert denied["seq"] == 3 and denied["error"]["code"] == "memory_policy_denied"
    grant_args = '{"principal":"agent:cli","capability":"read","scope":"user:u1"}'
    granted = _json(capsys, "call", "access.grant", "--db", db, *admin, "--args", grant_args)
    assert granted["ok"] and granted["seq"] == 4
    read = _json(capsys, "call", "memory.get", "--db", db, "--args", get_args, "--principal", "agent:cli")
    assert read["ok"] and read["seq"] == 5
    with h.reader_of(db) as reader:
        entries = list(reader.entries())
    assert [(e.syscall, e.status, e.principal) for e in entries] == [
        ("memory.write", "ok", "operator:local"),
        ("memory.write", "memory_conflict", "operator:local"),
        ("memory.get", "memory_policy_denied", "agent:cli"),
        ("access.grant", "ok", "operator:local"),
        ("memory.get", "ok", "agent:cli"),
    ]
    assert h.verify(db).verified


@pytest.mark.parametrize(
    ("syscall", "args", "code"),
    [
        ("memory.forget", "{}", "unknown_syscall"),
        ("memory.list", "[1, 2]", "invalid_args"),
        ("memory.list", '{"user_id": "u1", "bogus": 1}', "invalid_args"),
        ("memory.get", '{"user_id": "u1", "key": " x"}', "memory_invalid_key"),
    ],
)
def test_call_refusals_exit_1_and_are_journaled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], syscall: str, args: str, code: str
) -> None:
    db = tmp_path / "new.db"
    result = _json(
        capsys,
        "call",
        syscall,
        "--db",
        db,
        "--create",
        "--principal",
        "operator:local",
        "--args",
        args,
        code=1,
    )
    assert result["error"]["code"] == code
    assert result["seq"] == 1
    with h.reader_of(db) as reader:
        assert [e.status for e in reader.entries()] == [code]


@pytest.mark.parametrize("bad", ["{not json", "", "{'single': 'quotes'}", '{"a": 1'])
def test_call_with_bad_args_json_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    db = tmp_path / "new.db"
    h.build_journal(db, h.STANDARD_CALLS[:1])
    code, out, err = h.cli(
        capsys, "call", "memory.list", "--db", db, "--principal", h.PRINCIPAL, "--args", bad
    )
    assert code == 2
    assert out == ""
    _clean_error(err)
    assert "--args" in err
    with h.reader_of(db) as reader:
        assert reader.count() == 1  # nothing journaled


def test_call_reads_the_database_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "env.db"
    monkeypatch.setenv("ARVIS_DB", str(db))
    snapshot = ("memory.snapshot", "--principal", h.PRINCIPAL, "--args", '{"user_id":"u1"}')
    assert _json(capsys, "call", *snapshot, "--create")["seq"] == 1
    monkeypatch.delenv("ARVIS_DB")
    code, _, err = h.cli(capsys, "call", *snapshot)
    assert code == 2
    _clean_error(err)


def test_call_in_a_real_process(tmp_path: Path) -> None:
    db = tmp_path / "proc.db"
    write = ("call", "memory.write", "--db", db, "--principal", "operator:local")
    ok = h.arvis_subprocess(*write, "--create", "--args", WRITE_JSON)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["seq"] == 1
    refused = h.arvis_subprocess(*write, "--args", WRITE_JSON)
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["error"]["code"] == "memory_conflict"
    bad = h.arvis_subprocess(*write, "--args", "{oops")
    assert bad.returncode == 2
    assert bad.stdout == ""
    _clean_error(bad.stderr)
    verified = h.arvis_subprocess("journal", "verify", "--db", db, "-o", "json")
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["entries"] == 2


# --- journal ls ----------------------------------------------------------------------------------


def test_ls_lists_everything_in_order(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _seqs(capsys, db) == list(range(1, N + 1))


def test_ls_table_output(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "-n", 2)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split("\t")[:3] == ["seq", "recorded_at", "syscall"]
    assert [line.split("\t")[0] for line in lines[1:]] == [str(N - 1), str(N)]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (("-n", 3), [N - 2, N - 1, N]),
        (("-n", 0), []),
        (("-n", 100), list(range(1, N + 1))),
        (("-r",), list(range(N, 0, -1))),
        (("-n", 3, "-r"), [N, N - 1, N - 2]),
        (("--syscall", "memory.w*"), WRITES),
        (("--syscall", "access.*"), list(range(1, len(h.SETUP_CALLS) + 1))),
        (("--syscall", "memory.get"), _seqs_where(lambda c, s: c[0] == "memory.get")),
        (("--syscall", "memory.?et"), _seqs_where(lambda c, s: c[0] == "memory.get")),
        (("--syscall", "kernel.record"), []),  # a syscall this journal never called
        (("--syscall", "memory.awmu.*"), []),
        (("--status", "ok"), _seqs_where(lambda c, s: s == "ok")),
        (("--status", "error"), ERRORS),
        (("--status", "memory_conflict"), [h.SEQ_CONFLICT]),
        (("--by", h.AGENT), _seqs_where(lambda c, s: c[2] == h.AGENT)),
        (("--by", h.OPERATOR), list(range(1, len(h.SETUP_CALLS) + 1))),
        (("--syscall", "memory.w*", "--status", "error"), [s for s in WRITES if s in ERRORS]),
        (("--syscall", "memory.w*", "-n", 2), WRITES[-2:]),
        (("--status", "error", "-n", 2, "-r"), ERRORS[:-3:-1]),
        (("--since", "2026-01-01T00:00:05Z", "--until", "2026-01-01T00:00:08Z"), [5, 6, 7, 8]),
        (("--since", "2026-01-01T01:00:05+01:00"), list(range(5, N + 1))),
        (("--since", "2026-01-01"), list(range(1, N + 1))),
        (("--until", "2025-12-31"), []),
    ],
)
def test_ls_filters(
    db: Path, capsys: pytest.CaptureFixture[str], options: tuple[object, ...], expected: list[int]
) -> None:
    assert _seqs(capsys, db, *options) == expected


def test_ls_relative_times(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Entries 4.5h, 3.5h, 2.5h, 1.5h and 0.5h old (the header takes the first clock reading)."""
    db = tmp_path / "recent.db"
    start = datetime.now(UTC) - timedelta(hours=5, minutes=30)
    calls = [("memory.snapshot", {"user_id": h.USER}, h.PRINCIPAL)] * 5
    h.build_journal(db, calls, clock=h.make_clock(start, timedelta(hours=1)))
    assert _seqs(capsys, db, "--since", "2h") == [4, 5]
    assert _seqs(capsys, db, "--since", "120m") == [4, 5]
    assert _seqs(capsys, db, "--until", "3h") == [1, 2]
    assert _seqs(capsys, db, "--since", "4h", "--until", "1h") == [2, 3, 4]
    assert _seqs(capsys, db, "--since", "1d") == [1, 2, 3, 4, 5]
    assert _seqs(capsys, db, "--since", "1w", "-r", "-n", 1) == [5]


def test_ls_json_and_jsonl_hold_the_same_entries(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    as_json = _json(capsys, "journal", "ls", "--db", db, "-o", "json")
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "-o", "jsonl")
    assert code == 0
    assert _jsonl(out) == as_json
    assert len(as_json) == N
    first = as_json[0]
    assert set(first) == {
        "seq", "recorded_at", "syscall", "principal", "args", "status", "result",
        "effects_hash", "prev_hash", "entry_hash",
    }  # fmt: skip
    assert first["args"] == h.SETUP_CALLS[0][1]
    assert first["result"]["ok"] is True
    write = as_json[h.SEQ_FIRST_WRITE - 1]
    assert write["args"] == h.WRITE
    assert write["result"]["ok"] is True


@pytest.mark.parametrize(
    "bad",
    [
        ("--since", "yesterday-ish", "-o", "json"),
        ("--until", "2026-13-45", "-o", "jsonl"),
        ("-n", -1),
        pytest.param(("--since", "yesterday-ish")),
    ],
)
def test_ls_bad_options_exit_2(db: Path, capsys: pytest.CaptureFixture[str], bad: tuple[object, ...]) -> None:
    code, out, err = h.cli(capsys, "journal", "ls", "--db", db, *bad)
    assert code == 2
    assert out == ""
    _clean_error(err)


# --- journal show --------------------------------------------------------------------------------


def test_show_one_entry(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = _json(capsys, "journal", "show", "--db", db, h.SEQ_REPLACE)
    assert entry["seq"] == h.SEQ_REPLACE
    assert entry["syscall"] == "memory.write"
    assert entry["args"] == {**h.WRITE, "replace": True, "value_ref": "ref-2"}
    assert entry["result"]["value"]["superseded"]["key"] == "language"
    assert entry["entry_hash"] == h.read_cell(db, h.SEQ_REPLACE, "entry_hash")
    refused = _json(capsys, "journal", "show", "--db", db, h.SEQ_CONFLICT)
    assert refused["status"] == "memory_conflict"
    assert refused["result"]["error"]["code"] == "memory_conflict"
    granted = _json(capsys, "journal", "show", "--db", db, 1)
    assert (granted["syscall"], granted["principal"], granted["status"]) == ("access.grant", h.OPERATOR, "ok")
    assert granted["result"]["value"] == {"grant": h.SETUP_CALLS[0][1], "added": True}
    code, out, _ = h.cli(capsys, "journal", "show", "--db", db, h.SEQ_REPLACE, "-o", "table")
    assert code == 0 and "ref-2" in out


def test_show_missing_seq_exits_2(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = h.cli(capsys, "journal", "show", "--db", db, N + 1)
    assert code == 2
    assert out == ""
    _clean_error(err)


# --- journal tail --------------------------------------------------------------------------------


def test_tail_prints_the_last_entries(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = h.cli(capsys, "journal", "tail", "--db", db, "-n", 3)
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == [str(N - 2), str(N - 1), str(N)]
    code, out, _ = h.cli(capsys, "journal", "tail", "--db", db, "-n", 2, "-o", "jsonl")
    assert code == 0
    assert [entry["seq"] for entry in _jsonl(out)] == [N - 1, N]


def test_tail_follow_picks_up_an_entry_from_another_process(db: Path) -> None:
    process = subprocess.Popen(
        [
            str(h.ARVIS_BIN),
            "journal",
            "tail",
            "--db",
            str(db),
            "-n",
            "1",
            "-f",
            "--idle-exit",
            "1.5",
            "--interval",
            "0.1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.split("\t")[0] == str(N)
        time.sleep(0.3)  # let it start following (not an assertion: it only orders the two processes)
        more: list[h.Call] = [
            ("memory.write", {**h.WRITE, "key": "tone_style", "memory_type": "style"}, h.PRINCIPAL),
            ("memory.get", {"user_id": h.USER, "key": "tone_style"}, h.AGENT),
        ]
        h.build_journal(db, more, clock=h.make_clock(h.T0 + h.STEP * 100))
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    followed = [line.split("\t") for line in out.splitlines()]
    assert [(row[0], row[2]) for row in followed] == [
        (str(N + 1), "memory.write"),
        (str(N + 2), "memory.get"),
    ]


class _RacingReader:
    """A reader whose ``head`` is read just after another process appended an entry."""

    def __init__(self, reader: Any, path: Path) -> None:
        self._reader = reader
        self._path = path
        self.appended = False

    def entries(self, *args: Any, **kwargs: Any) -> Any:
        return self._reader.entries(*args, **kwargs)

    def head(self) -> Any:
        if not self.appended:
            self.appended = True
            snapshot: list[h.Call] = [("memory.snapshot", {"user_id": h.USER}, h.AGENT)]
            h.build_journal(self._path, snapshot, clock=h.make_clock(h.T0 + h.STEP * 100))
        return self._reader.head()


def test_tail_follow_never_skips_an_entry_appended_while_it_starts(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = argparse.Namespace(
        lines=1, follow=True, interval=0.05, idle_exit=0.3, output="jsonl", db=str(db)
    )
    with h.reader_of(db) as reader:
        racing = _RacingReader(reader, db)
        capsys.readouterr()
        assert journal_ls.run_tail(racing, options) == 0  # type: ignore[arg-type]
    assert racing.appended
    seqs = [entry["seq"] for entry in _jsonl(capsys.readouterr().out)]
    assert seqs, "nothing printed"
    assert seqs == list(range(seqs[0], N + 2))  # in order, without a gap, up to the new entry


# --- journal verify and checkpoint ---------------------------------------------------------------

VERIFY_KEYS = {"verified", "entries", "first_bad_seq", "reason", "divergence"}
DIVERGENCE_KEYS = {"seq", "class", "expected", "found"}


def test_verify_json_on_a_sound_journal(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _json(capsys, "journal", "verify", "--db", db, "-o", "json")
    assert set(report) >= VERIFY_KEYS
    assert report["verified"] is True
    assert report["entries"] == N
    assert report["first_bad_seq"] is None and report["reason"] is None and report["divergence"] is None
    assert report["replayed"] is True
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db)
    assert code == 0
    assert out.startswith("verified:")


def test_verify_leaves_the_file_unchanged(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = db.read_bytes()
    assert h.cli(capsys, "journal", "verify", "--db", db)[0] == 0
    assert db.read_bytes() == before


def test_verify_json_on_a_tampered_journal(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h.tamper_one(db, 6, "principal", position=1)
    report = _json(capsys, "journal", "verify", "--db", db, "-o", "json", code=1)
    assert report["verified"] is False
    assert report["first_bad_seq"] == 6
    assert report["reason"]
    assert set(report["divergence"]) >= DIVERGENCE_KEYS
    assert report["divergence"]["seq"] == 6
    assert report["divergence"]["class"] == "invalid_history"
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db)
    assert code == 1
    assert out.startswith("NOT verified: seq 6")


def test_verify_reports_expected_and_found_for_a_forged_result(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seq = h.SEQ_AGENT_GET
    forged = json.loads(h.read_cell(db, seq, "result"))
    forged["value"]["status"] = "expired"
    h.rewrite_history(db, seq, "result", json.dumps(forged, sort_keys=True, separators=(",", ":")).encode())
    assert _json(capsys, "journal", "verify", "--db", db, "--chain-only", "-o", "json")["verified"] is True
    report = _json(capsys, "journal", "verify", "--db", db, "-o", "json", code=1)
    divergence = report["divergence"]
    assert (report["first_bad_seq"], divergence["seq"], divergence["class"]) == (seq, seq, "nondeterminism")
    assert divergence["expected"]["value"]["status"] == "expired"
    assert divergence["found"]["value"]["status"] == "active"


def test_chain_only_does_not_see_edited_state_but_replay_does(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with h.raw_db(db) as connection:
        connection.execute("UPDATE memory_entries SET value_ref = 'forged' WHERE key = 'language'")
    chain_only = _json(capsys, "journal", "verify", "--db", db, "--chain-only", "-o", "json")
    assert chain_only["verified"] is True
    assert chain_only["replayed"] is False
    full = _json(capsys, "journal", "verify", "--db", db, "-o", "json", code=1)
    assert full["divergence"]["class"] == "invalid_history"
    assert "stored state differs" in full["reason"]
    assert full["divergence"]["expected"] != full["divergence"]["found"]


def _checkpoint(capsys: pytest.CaptureFixture[str], db: Path) -> str:
    code, out, err = h.cli(capsys, "journal", "checkpoint", "--db", db)
    assert code == 0, err
    return out.strip()


def test_checkpoint_prints_the_head(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkpoint = _checkpoint(capsys, db)
    assert checkpoint == f"{N}:{h.read_cell(db, N, 'entry_hash')}"
    assert checkpoint == str(h.head_checkpoint(db))


def test_checkpoint_of_an_empty_journal_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "empty.db"
    h.build_journal(db, [])
    code, out, err = h.cli(capsys, "journal", "checkpoint", "--db", db)
    assert code == 2 and out == ""
    _clean_error(err)


def test_verify_against_a_checkpoint(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkpoint = _checkpoint(capsys, db)
    assert h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", checkpoint)[0] == 0
    h.build_journal(
        db, [("memory.list", {"user_id": h.USER}, h.AGENT)], clock=h.make_clock(h.T0 + h.STEP * 100)
    )
    assert h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", checkpoint)[0] == 0
    assert h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", checkpoint, "--chain-only")[0] == 0


@pytest.mark.parametrize("chain_only", [False, True])
def test_truncated_tail_fails_against_the_checkpoint(
    db: Path, capsys: pytest.CaptureFixture[str], chain_only: bool
) -> None:
    checkpoint = _checkpoint(capsys, db)
    h.truncate_tail(db, N - 3)
    flags = ["--chain-only"] if chain_only else []
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", checkpoint, *flags)
    assert code == 1
    assert out.startswith("NOT verified")
    report = _json(
        capsys, "journal", "verify", "--db", db, "--checkpoint", checkpoint, "-o", "json", *flags, code=1
    )
    assert report["first_bad_seq"] == N - 2
    assert report["divergence"]["class"] == "invalid_history"


def test_truncated_tail_fails_in_a_real_process(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkpoint = _checkpoint(capsys, db)
    h.truncate_tail(db, N - 1)
    result = h.arvis_subprocess("journal", "verify", "--db", db, "--checkpoint", checkpoint)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_rewritten_history_fails_against_the_old_checkpoint(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = _checkpoint(capsys, db)
    # an administrator may read too: the rewritten chain is self-consistent and replays
    h.rewrite_history(db, h.SEQ_AGENT_SNAPSHOT, "principal", "operator:forger")
    assert h.cli(capsys, "journal", "verify", "--db", db)[0] == 0
    report = _json(capsys, "journal", "verify", "--db", db, "--checkpoint", checkpoint, "-o", "json", code=1)
    assert report["first_bad_seq"] == N
    assert report["divergence"]["class"] == "invalid_history"
    assert report["divergence"]["expected"] == checkpoint.split(":")[1]
    assert report["divergence"]["found"] == h.read_cell(db, N, "entry_hash")


@pytest.mark.parametrize("bad", ["14", "x:abc", "0:" + "a" * 64, "3:" + "a" * 63])
def test_malformed_checkpoint_exits_2(db: Path, capsys: pytest.CaptureFixture[str], bad: str) -> None:
    code, out, err = h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", bad)
    assert code == 2 and out == ""
    _clean_error(err)


# --- journal stats, export, diff -----------------------------------------------------------------


def test_stats_json(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = _json(capsys, "journal", "stats", "--db", db, "-o", "json")
    assert stats["entries"] == N
    assert stats["journal_id"] == h.JOURNAL_ID
    assert stats["head"] == str(h.head_checkpoint(db))
    assert stats["first_recorded_at"] == "2026-01-01T00:00:01.000000Z"
    assert stats["last_recorded_at"] == f"2026-01-01T00:00:{N:02d}.000000Z"
    assert stats["size_bytes"] > 0
    counts = {(row["syscall"], row["status"]): row["count"] for row in stats["by_syscall"]}
    assert sum(counts.values()) == N
    assert counts[("access.grant", "ok")] == len(h.SETUP_CALLS)
    assert counts[("memory.write", "ok")] == 3
    assert counts[("memory.snapshot", "ok")] == 2
    assert counts[("memory.write", "memory_conflict")] == 1
    assert counts[("memory.revoke", "memory_policy_denied")] == 1
    code, out, _ = h.cli(capsys, "journal", "stats", "--db", db)
    assert code == 0 and f"entries: {N}" in out


def _raw_rows(db: Path) -> list[tuple[Any, ...]]:
    with h.raw_db(db) as connection:
        return connection.execute(
            f"SELECT seq, {', '.join(h.JOURNAL_COLUMNS)} FROM journal ORDER BY seq"
        ).fetchall()


def _exported_bytes(line: dict[str, Any], name: str) -> bytes:
    if name in line:  # the value is the bytes: it re-encodes canonically to exactly what is stored
        return canonical_bytes(line[name])
    return base64.b64decode(line[f"{name}_b64"])


def test_export_recovers_the_exact_bytes(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = h.cli(capsys, "journal", "export", "--db", db)
    assert code == 0
    lines = _jsonl(out)
    rows = _raw_rows(db)
    assert len(lines) == len(rows) == N
    for line, row in zip(lines, rows, strict=True):
        stored = dict(zip(("seq", *h.JOURNAL_COLUMNS), row, strict=True))
        assert _exported_bytes(line, "args") == stored["args"]
        assert _exported_bytes(line, "result") == stored["result"]
        for name in (
            "seq",
            "recorded_at",
            "syscall",
            "principal",
            "status",
            "effects_hash",
            "prev_hash",
            "entry_hash",
        ):
            assert line[name] == stored[name]
        # an auditor can recompute the chain from the export alone
        assert (
            compute_entry_hash(
                prev_hash=line["prev_hash"],
                seq=line["seq"],
                recorded_at=line["recorded_at"],
                syscall=line["syscall"],
                principal=line["principal"],
                args=_exported_bytes(line, "args"),
                status=line["status"],
                result=_exported_bytes(line, "result"),
                effects_hash=line["effects_hash"],
            )
            == line["entry_hash"]
        )


def test_export_keeps_bytes_that_are_not_utf8(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damaged = b"\xff" + h.read_cell(db, 2, "args")[1:]
    h.write_cell(db, 2, "args", damaged)
    code, out, _ = h.cli(capsys, "journal", "export", "--db", db)
    assert code == 0
    line = _jsonl(out)[1]
    assert "args" not in line
    assert _exported_bytes(line, "args") == damaged


def _twin(tmp_path: Path, name: str, calls: list[h.Call], journal_id: str = h.JOURNAL_ID) -> Path:
    path = tmp_path / name
    h.build_journal(path, calls, journal_id=journal_id)
    return path


def test_diff_of_identical_journals(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    twin = _twin(tmp_path, "twin.db", h.STANDARD_CALLS)
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", twin)
    assert code == 0
    assert out.startswith(f"identical: {N} entries, and the state they hold")


def test_diff_names_the_first_differing_seq(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = list(h.STANDARD_CALLS)
    seq = h.SEQ_AGENT_SNAPSHOT
    name, args, _ = calls[seq - 1]
    calls[seq - 1] = (name, args, "operator:other")  # allowed too: only the principal differs
    other = _twin(tmp_path, "other.db", calls)
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", other)
    assert code == 1
    assert out.startswith(f"first difference at seq {seq}:")
    assert "principal" in out and "args" not in out


def test_diff_of_a_longer_journal(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    longer = _twin(tmp_path, "longer.db", [*h.STANDARD_CALLS, ("memory.list", {"user_id": h.USER}, h.AGENT)])
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", longer)
    assert code == 1
    assert f"seq {N + 1}" in out and "second" in out
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", longer, "--other", db)
    assert code == 1
    assert f"seq {N + 1}" in out and "first" in out


def test_diff_of_journals_with_other_ids(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = _twin(tmp_path, "other-id.db", h.STANDARD_CALLS, journal_id="j-other")
    code, out, _ = h.cli(capsys, "journal", "diff", "--db", db, "--other", other)
    assert code == 1
    assert out.startswith("first difference at seq 1:")


# --- files that are not journals -----------------------------------------------------------------

READ_COMMANDS: list[tuple[str, ...]] = [
    ("journal", "ls"),
    ("journal", "verify"),
    ("journal", "stats"),
    ("journal", "export"),
    ("journal", "checkpoint"),
    ("journal", "tail"),
]


@pytest.mark.parametrize("command", READ_COMMANDS)
def test_missing_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    missing = tmp_path / "missing.db"
    code, out, err = h.cli(capsys, *command, "--db", missing)
    assert code == 2
    assert out == ""
    _clean_error(err)
    assert "missing.db" in err
    assert not missing.exists()


def test_missing_file_in_a_real_process(tmp_path: Path) -> None:
    result = h.arvis_subprocess("journal", "verify", "--db", tmp_path / "missing.db")
    assert result.returncode == 2
    assert result.stdout == ""
    _clean_error(result.stderr)


def _not_a_journal(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.db"
    if kind == "text":
        path.write_text("this is not a database\n")
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        import sqlite3

        connection = sqlite3.connect(str(path))
        try:
            connection.execute("CREATE TABLE notes (body TEXT)")
            connection.commit()
        finally:
            connection.close()
    return path


@pytest.mark.parametrize("kind", ["text", "empty", "other-sqlite"])
@pytest.mark.parametrize("command", [("journal", "ls"), ("journal", "verify")])
def test_not_a_journal_exits_2_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: tuple[str, ...]
) -> None:
    path = _not_a_journal(tmp_path, kind)
    code, out, err = h.cli(capsys, *command, "--db", path)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith("arvis: ")


@pytest.mark.parametrize("kind", ["text", "other-sqlite"])
def test_not_a_journal_reports_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = _not_a_journal(tmp_path, kind)
    code, _, err = h.cli(capsys, "journal", "verify", "--db", path)
    assert code == 2
    _clean_error(err)


def test_not_a_journal_in_a_real_process(tmp_path: Path) -> None:
    result = h.arvis_subprocess("journal", "ls", "--db", _not_a_journal(tmp_path, "text"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("arvis: ")


@pytest.mark.parametrize("kind", ["empty", "other-sqlite"])
def test_reading_a_file_that_is_not_a_journal_leaves_it_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = _not_a_journal(tmp_path, kind)
    before = path.read_bytes()
    assert h.cli(capsys, "journal", "ls", "--db", path)[0] == 2
    assert path.read_bytes() == before

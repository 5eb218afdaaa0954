"""Time travel: a user's snapshot and the whole state as of any seq, rebuilt from the journal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arvis.canonical import decode
from kernel.protocols import StorageError
from tools.audit.timetravel import snapshot_at, state_at

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

SNAPSHOT_SEQS = [i + 1 for i, call in enumerate(h.STANDARD_CALLS) if call[0] == "memory.snapshot"]


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("timetravel") / "journal.db"
    h.build_journal(path)
    return path


def _recorded_value(path: Path, seq: int) -> dict[str, Any]:
    with h.reader_of(path) as reader:
        entry = reader.get(seq)
    assert entry is not None and entry.status == "ok"
    payload = decode(entry.result)
    value: dict[str, Any] = payload["value"]
    return value


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: object) -> Any:
    code, out, err = h.cli(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def _without_time(value: dict[str, Any]) -> dict[str, Any]:
    trimmed = {k: v for k, v in value.items() if k not in ("seq", "snapshot_hash")}
    trimmed["snapshot"] = {k: v for k, v in value["snapshot"].items() if k != "created_at"}
    return trimmed


def test_there_are_snapshots_to_compare() -> None:
    assert len(SNAPSHOT_SEQS) >= 2


@pytest.mark.parametrize("seq", SNAPSHOT_SEQS)
def test_snapshot_at_a_snapshot_entry_is_exactly_what_it_returned(
    journal_path: Path, capsys: pytest.CaptureFixture[str], seq: int
) -> None:
    recorded = _recorded_value(journal_path, seq)
    travelled = _cli_json(capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER, "--at", seq)
    assert travelled == {"seq": seq, **recorded}


@pytest.mark.parametrize("seq", SNAPSHOT_SEQS)
def test_snapshot_after_seq_matches_a_live_snapshot_taken_right_after_it(
    journal_path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, seq: int
) -> None:
    """Replay the first ``seq - 1`` calls live, take a snapshot at once: same memory, later time."""
    before = seq - 1
    live_path = tmp_path / "live.db"
    results = h.build_journal(
        live_path, [*h.STANDARD_CALLS[:before], ("memory.snapshot", {"user_id": h.USER}, h.AGENT)]
    )
    live = results[-1]
    assert live.ok and live.seq == seq
    travelled = _cli_json(
        capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER, "--at", before
    )
    assert travelled["seq"] == before
    assert _without_time(travelled) == _without_time(live.value)
    with h.reader_of(journal_path) as reader:
        entry = reader.get(before)
    assert entry is not None
    assert travelled["snapshot"]["created_at"] == entry.recorded_at


def test_snapshot_changes_across_a_write(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seq = h.SEQ_REPLACE
    before = _cli_json(capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER, "--at", seq - 1)
    after = _cli_json(capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER, "--at", seq)
    assert _without_time(before) != _without_time(after)
    refs = [e["value_ref"] for e in after["snapshot"]["active_entries"] if e["key"] == "language"]
    assert refs == ["ref-2"]


def test_snapshot_defaults_to_the_head(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = _cli_json(capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER)
    assert head == {"seq": len(h.STANDARD_CALLS), **_recorded_value(journal_path, len(h.STANDARD_CALLS))}


def test_snapshot_api_matches_the_cli(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with h.reader_of(journal_path) as reader:
        value = snapshot_at(reader, h.USER, 8)
    assert value == _cli_json(
        capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER, "--at", 8
    )


def test_snapshot_past_the_end_is_an_error(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = h.cli(capsys, "journal", "snapshot", "--db", journal_path, "--user", h.USER, "--at", 99)
    assert code == 2
    assert out == ""
    assert "99" in err and "Traceback" not in err
    with h.reader_of(journal_path) as reader, pytest.raises(StorageError):
        snapshot_at(reader, h.USER, 99)


def _digests(path: Path) -> dict[int, str]:
    with h.reader_of(path) as reader:
        return {seq: state_at(reader, seq).digest for seq in range(1, len(h.STANDARD_CALLS) + 1)}


def _assert_changes_only_on_writes(digests: dict[int, str]) -> None:
    assert len(set(digests.values())) == len(h.MUTATING_OK_SEQS)
    for seq in range(2, len(h.STANDARD_CALLS) + 1):
        changed = digests[seq] != digests[seq - 1]
        assert changed == (seq in h.MUTATING_OK_SEQS), f"seq {seq}: {h.STANDARD_CALLS[seq - 1][0]}"


def test_state_digest_changes_after_a_write_and_not_after_a_read(journal_path: Path) -> None:
    _assert_changes_only_on_writes(_digests(journal_path))


def test_state_json_digest_changes_after_a_write_and_not_after_a_read(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    digests = {}
    for seq in range(1, len(h.STANDARD_CALLS) + 1):
        state = _cli_json(capsys, "journal", "state", "--db", journal_path, "--at", seq, "-o", "json")
        assert state["seq"] == seq
        assert (len(state["tables"]["memory_entries"]) >= 1) == (seq >= h.SEQ_FIRST_WRITE)
        assert len(state["tables"]["grants"]) == min(seq, len(h.SETUP_CALLS))
        digests[seq] = state["state_digest"]
    _assert_changes_only_on_writes(digests)
    assert digests == _digests(journal_path)


def test_state_at_the_head_is_the_stored_state(journal_path: Path) -> None:
    with h.reader_of(journal_path) as reader:
        state = state_at(reader, None)
    report = h.verify(journal_path)
    assert report.verified
    assert state.seq == report.head.seq
    assert state.digest == report.state_digest


def test_state_tables_as_of_a_seq(journal_path: Path) -> None:
    with h.reader_of(journal_path) as reader:
        granted = state_at(reader, len(h.SETUP_CALLS))
        early = state_at(reader, h.SEQ_FIRST_WRITE)
        late = state_at(reader, h.SEQ_REVOKE)
    assert granted.tables["memory_entries"] == []
    assert [(r["principal"], r["capability"], r["scope"]) for r in granted.tables["grants"]] == [
        (h.AGENT, "read", f"user:{h.USER}"),
        (h.SERVICE, "write", f"user:{h.USER}"),
    ]
    assert [(r["key"], r["version"]) for r in early.tables["memory_entries"]] == [("language", 1)]
    rows = {(r["key"], r["version"]): r for r in late.tables["memory_entries"]}
    assert set(rows) == {("language", 1), ("language", 2), ("timezone", 1)}
    assert rows[("language", 1)]["superseded_at"] is not None
    assert rows[("timezone", 1)]["revoked_at"] is not None
    assert early.recorded_at is not None and late.recorded_at is not None
    assert early.recorded_at < late.recorded_at


def test_state_table_output(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = h.cli(capsys, "journal", "state", "--db", journal_path, "--at", h.SEQ_REPLACE)
    assert code == 0
    assert f"state after seq {h.SEQ_REPLACE}" in out
    assert "memory_entries: 3 rows" in out
    assert "grants: 2 rows" in out

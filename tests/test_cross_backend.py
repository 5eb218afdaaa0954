"""Cross-backend audit: a journal written on PostgreSQL verifies by replay on SQLite (in memory, as
``verify_journal`` always replays), a SQLite journal copied into PostgreSQL verifies there and the
reverse, and the command line accepts either kind of database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from contract_calls import (
    AGENT,
    JOURNAL_ID,
    SCENARIOS,
    Run,
    assert_same_run,
    clock,
    engine_of,
    reader_of,
    run_calls,
)
from sqlalchemy.exc import DBAPIError
from strategies import VOUCHED

from journal.copy import copy_journal
from journal.store import ManualClock
from kernel.protocols import StorageError
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

EVERYTHING: list[h.Call] = [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]]
"""Every scenario of the contract, one after the other in one journal."""


def _everything_on_sqlite() -> Run:
    return run_calls(":memory:", EVERYTHING)


Capsys = pytest.CaptureFixture[str]


def _verify_json(capsys: Capsys, target: str, *extra: str) -> tuple[int, dict[str, object]]:
    code, out, err = h.cli(capsys, "journal", "verify", "--db", target, "-o", "json", *extra)
    assert "unexpected error" not in err
    return code, json.loads(out)


def _tamper_postgres(target: str, seq: int) -> None:
    with engine_of(target) as engine, engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE journal DISABLE TRIGGER journal_no_update")
        connection.exec_driver_sql(f"UPDATE journal SET status = 'ok' WHERE seq = {seq}")
        connection.exec_driver_sql("ALTER TABLE journal ENABLE TRIGGER journal_no_update")


def test_a_postgres_journal_verifies_by_replay_on_sqlite(pg_url: str) -> None:
    written = run_calls(pg_url, EVERYTHING)
    assert_same_run(written, _everything_on_sqlite())
    with reader_of(pg_url) as reader:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    assert report.verified, report.divergence
    assert report.replayed
    assert report.head.entry_hash == written.entries[-1].entry_hash
    assert report.state_digest == written.digest


def test_the_cli_verifies_a_postgres_url(pg_url: str, capsys: Capsys) -> None:
    written = run_calls(pg_url, EVERYTHING)
    code, report = _verify_json(capsys, pg_url)
    assert code == 0, report
    assert report["verified"] is True and report["replayed"] is True
    assert report["head_hash"] == written.entries[-1].entry_hash
    assert report["state_digest"] == written.digest
    # the driverless form of the URL gets psycopg
    plain = pg_url.replace("postgresql+psycopg://", "postgresql://", 1)
    code, report = _verify_json(capsys, plain, "--chain-only")
    assert code == 0, report
    assert report["entries"] == len(EVERYTHING)


def test_the_installed_cli_verifies_a_postgres_url(pg_url: str) -> None:
    run_calls(pg_url, SCENARIOS["memory"])
    done = h.arvis_subprocess("journal", "verify", "--db", pg_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified:")


def test_the_cli_names_the_first_bad_seq_on_postgres(pg_url: str, capsys: Capsys) -> None:
    run_calls(pg_url, SCENARIOS["memory"])
    _tamper_postgres(pg_url, 4)  # a memory_conflict refusal now claims to be ok
    code, report = _verify_json(capsys, pg_url)
    assert code == 1
    assert report["verified"] is False and report["first_bad_seq"] == 4


def test_a_sqlite_journal_copied_into_postgres_verifies_there(
    tmp_path: Path, pg_url: str, capsys: Capsys
) -> None:
    source = str(tmp_path / "journal.db")
    written = run_calls(source, EVERYTHING)
    code, out, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", pg_url)
    assert code == 0, err
    assert f"copied {len(EVERYTHING)} entries" in out
    assert "arvis journal verify" in out
    code, report = _verify_json(capsys, pg_url)
    assert code == 0, report
    assert (report["head_hash"], report["state_digest"]) == (written.entries[-1].entry_hash, written.digest)
    with reader_of(pg_url) as reader:
        assert list(reader.entries()) == written.entries
        header = reader.header()
    assert header is not None and header.journal_id == JOURNAL_ID


def test_a_postgres_journal_copied_into_sqlite_verifies_there(
    tmp_path: Path, pg_url: str, capsys: Capsys
) -> None:
    written = run_calls(pg_url, EVERYTHING)
    target = str(tmp_path / "copy.db")
    code, _, err = h.cli(capsys, "journal", "copy", "--db", pg_url, "--to", target)
    assert code == 0, err
    code, report = _verify_json(capsys, target)
    assert code == 0, report
    assert (report["head_hash"], report["state_digest"]) == (written.entries[-1].entry_hash, written.digest)


def test_a_copy_can_be_continued_on_the_other_backend(tmp_path: Path, pg_url: str) -> None:
    """Moving from SQLite to PostgreSQL: the copy takes new calls and the whole still verifies."""
    first, rest = EVERYTHING[:20], EVERYTHING[20:]
    source = str(tmp_path / "journal.db")
    run_calls(source, first)
    with engine_of(source) as reading, engine_of(pg_url) as writing:
        copied = copy_journal(reading, writing, batch=7)
    assert copied.entries == 20
    after_sqlite = ManualClock(h.T0 + 21 * h.STEP, step=h.STEP)  # the header's moment, then 20 calls
    kernel = open_kernel(pg_url, clock=after_sqlite, journal_id="j-ignored", identity=VOUCHED, create=True)
    try:
        h.run_calls(kernel, rest)
    finally:
        kernel.close()
    with reader_of(pg_url) as reader:
        report = verify_journal(reader, table=SYSCALL_TABLE)
        entries = list(reader.entries())
    assert report.verified, report.divergence
    expected = _everything_on_sqlite()
    assert entries == expected.entries
    assert report.state_digest == expected.digest


def test_damage_travels_with_the_copy(tmp_path: Path, pg_url: str, capsys: Capsys) -> None:
    source = tmp_path / "journal.db"
    run_calls(str(source), SCENARIOS["memory"])
    h.tamper_one(source, 6, "result", position=3)
    assert h.cli(capsys, "journal", "copy", "--db", source, "--to", pg_url)[0] == 0
    code, report = _verify_json(capsys, pg_url)
    assert code == 1
    assert report["first_bad_seq"] == 6


def test_copy_refuses_a_target_that_holds_a_journal(tmp_path: Path, pg_url: str, capsys: Capsys) -> None:
    source = str(tmp_path / "journal.db")
    run_calls(source, SCENARIOS["odd"])
    run_calls(pg_url, [("kernel.record", {"kind": "x"}, AGENT)])
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", pg_url)
    assert code == 2
    assert "not empty" in err
    with reader_of(pg_url) as reader:
        assert reader.count() == 1
    with (
        engine_of(source) as reading,
        engine_of(pg_url) as writing,
        pytest.raises(StorageError, match="journal"),
    ):
        copy_journal(reading, writing)


def test_copy_refuses_a_source_without_a_journal(tmp_path: Path, pg_url: str, capsys: Capsys) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    code, _, err = h.cli(capsys, "journal", "copy", "--db", empty, "--to", pg_url)
    assert code == 2
    assert "no arvis journal" in err


def test_the_copy_is_append_only_on_postgres(tmp_path: Path, pg_url: str, capsys: Capsys) -> None:
    source = str(tmp_path / "journal.db")
    run_calls(source, SCENARIOS["memory"])
    assert h.cli(capsys, "journal", "copy", "--db", source, "--to", pg_url)[0] == 0
    with engine_of(pg_url) as engine:
        for statement in ("UPDATE journal SET status = 'ok'", "DELETE FROM journal", "TRUNCATE journal"):
            with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
                connection.exec_driver_sql(statement)


def test_a_fresh_kernel_on_postgres_is_the_same_kernel(pg_bare_url: str) -> None:
    """open_kernel with a postgresql+psycopg:// URL: migrated, header written, same results."""
    kernel = open_kernel(pg_bare_url, clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True)
    try:
        results = [r.to_dict() for r in h.run_calls(kernel, SCENARIOS["memory"])]
    finally:
        kernel.close()
    assert results == run_calls(":memory:", SCENARIOS["memory"]).results

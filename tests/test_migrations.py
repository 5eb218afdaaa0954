"""Migrations: a journal written at an old revision still verifies once brought to head."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from journal.engine import open_engine
from journal.migrate import current_revision, head_revision, upgrade_to_head

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

FILTER_INDEXES = {"ix_journal_recorded_at", "ix_journal_syscall", "ix_journal_principal", "ix_journal_status"}
OLD_CALLS = [call for call in h.STANDARD_CALLS if call not in h.SETUP_CALLS]
"""The standard calls but the grants: a database at 0001 has no grants table, so no one can be granted
anything there (the agent's and the service's calls are refused, at 0001 and at head alike)."""


def _revision(path: Path) -> str | None:
    engine = open_engine(str(path))
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def _indexes(path: Path) -> set[str]:
    with h.raw_db(path) as connection:
        rows = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal'"
        ).fetchall()
    return {name for (name,) in rows}


@pytest.fixture
def old_journal(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "old.db"
    results = h.write_at_revision(str(path), "0001", OLD_CALLS)
    assert [r.seq for r in results] == list(range(1, len(OLD_CALLS) + 1))
    yield path


def test_head_is_beyond_0001() -> None:
    assert head_revision() != "0001"


def test_journal_written_at_0001_stays_at_0001(old_journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _revision(old_journal) == "0001"
    assert not FILTER_INDEXES & _indexes(old_journal)
    # reading never migrates
    assert h.verify(old_journal, replay=False).verified
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", old_journal, "-o", "json")
    assert code == 0
    assert len(json.loads(out)) == len(OLD_CALLS)
    assert _revision(old_journal) == "0001"


def test_upgrade_then_verify(old_journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chain_before = h.verify(old_journal, replay=False)
    assert chain_before.verified
    code, out, err = h.cli(capsys, "db", "upgrade", "--db", old_journal)
    assert code == 0, err
    assert "0001" in out and head_revision() in out
    assert _revision(old_journal) == head_revision()
    # 0002 added the filter indexes, 0006 dropped them and made seq the rowid: no index on the journal
    assert _indexes(old_journal) == set()
    with h.raw_db(old_journal) as connection:
        seq = [row for row in connection.execute("PRAGMA table_info(journal)") if row[1] == "seq"]
        assert seq and seq[0][2] == "INTEGER" and seq[0][5] == 1
        # the per-user counts were filled from the entries the journal already held
        counts = dict(connection.execute("SELECT user_id, entries FROM memory_entry_counts").fetchall())
        rows = dict(
            connection.execute("SELECT user_id, COUNT(*) FROM memory_entries GROUP BY user_id").fetchall()
        )
        assert counts == rows and rows
    after = h.verify(old_journal)
    assert after.verified, after.divergence
    assert after.replayed
    assert (after.entries, after.head.entry_hash) == (len(OLD_CALLS), chain_before.head.entry_hash)
    # the same calls written at head give the same journal and the same state
    twin = tmp_path / "twin.db"
    h.build_journal(twin, OLD_CALLS)
    at_head = h.verify(twin)
    assert (at_head.head.entry_hash, at_head.state_digest) == (after.head.entry_hash, after.state_digest)
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", old_journal, "-o", "json")
    assert code == 0
    assert json.loads(out)["verified"] is True
    code, out, _ = h.cli(capsys, "db", "upgrade", "--db", old_journal)
    assert code == 0
    assert "already at head" in out


def test_verifying_a_journal_not_yet_upgraded_is_clean(
    old_journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = h.cli(capsys, "journal", "verify", "--db", old_journal)
    assert "unexpected error" not in err
    if code == 0:  # verified as it is (state tables it lacks are empty) ...
        assert out.startswith("verified:")
    else:  # ... or refused in one line that says what to do
        assert code == 2
        lines = h.error_lines(err)
        assert len(lines) == 1 and "upgrade" in err
    assert _revision(old_journal) == "0001"


def test_upgraded_journal_keeps_its_triggers(old_journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    assert h.cli(capsys, "db", "upgrade", "--db", old_journal)[0] == 0
    with h.raw_db(old_journal) as connection, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        connection.execute("DELETE FROM journal WHERE seq = 1")


def test_upgraded_journal_accepts_new_entries_that_verify(
    old_journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = h.head_checkpoint(old_journal)
    assert h.cli(capsys, "db", "upgrade", "--db", old_journal)[0] == 0
    more: list[h.Call] = [
        ("memory.write", {**h.WRITE, "key": "tone_style", "memory_type": "style"}, h.PRINCIPAL),
        ("memory.list", {"user_id": h.USER}, h.AGENT),
    ]
    results = h.build_journal(old_journal, more, clock=h.make_clock(h.T0 + h.STEP * 100))
    assert [r.seq for r in results] == [checkpoint.seq + 1, checkpoint.seq + 2]
    report = h.verify(old_journal, checkpoint=checkpoint)
    assert report.verified, report.divergence


def test_tampered_old_journal_is_still_caught_after_upgrade(
    old_journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h.tamper_one(old_journal, 5, "args", position=2)
    # the schema is migrated; the past, which a replay would rebuild, is not: exit 1, naming the entry
    code, _, err = h.cli(capsys, "db", "upgrade", "--db", old_journal)
    assert (code, _revision(old_journal)) == (1, head_revision())
    assert "does not verify at seq 5" in err
    report = h.verify(old_journal)
    assert report.divergence is not None
    assert report.divergence.seq == 5


def test_opening_a_kernel_upgrades(old_journal: Path) -> None:
    h.build_journal(
        old_journal,
        [("memory.snapshot", {"user_id": h.USER}, h.AGENT)],
        clock=h.make_clock(h.T0 + h.STEP * 100),
    )
    assert _revision(old_journal) == head_revision()
    assert h.verify(old_journal).verified


def test_an_in_memory_store_gets_exactly_the_migrated_schema(tmp_path: Path) -> None:
    """In-memory databases (scratch stores) copy a template the migrations built once per process; the
    copy holds the very schema the migrations give a file."""
    from sqlalchemy import text

    on_file = open_engine(str(tmp_path / "migrated.db"))
    in_memory = open_engine(":memory:")
    try:
        upgrade_to_head(on_file)
        assert upgrade_to_head(in_memory) == (None, head_revision())
        assert upgrade_to_head(in_memory) == (head_revision(), head_revision())  # already there

        def schema(engine: Any) -> list[tuple[Any, ...]]:
            with engine.connect() as connection:
                rows = connection.execute(
                    text("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
                )
                return [tuple(row) for row in rows]

        assert schema(in_memory) == schema(on_file)
        assert current_revision(in_memory) == head_revision()
    finally:
        on_file.dispose()
        in_memory.dispose()


GRAPH_TABLES = (
    "graph_checkpoints",
    "graph_channel_values",
    "graph_writes",
    "graph_store_items",
    "graph_blobs",
)


def _graph_layout(path: Path) -> dict[str, tuple[bool, int]]:
    """Each LangGraph table: whether SQLite stores it WITHOUT ROWID, and its rows."""
    with h.raw_db(path) as connection:
        return {
            table: (
                "WITHOUT ROWID"
                in connection.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
                ).fetchone()[0],
                connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0],
            )
            for table in GRAPH_TABLES
        }


def test_revision_0021_stores_the_graph_tables_in_one_b_tree_each(tmp_path: Path) -> None:
    """A journal of every family's contract calls written at 0020 (rowid tables, each with an index of
    its key), migrated: the same rows in WITHOUT ROWID tables, no index of their key left, and it verifies
    with the digest it had."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
    from contract_calls import SCENARIOS

    path = tmp_path / "graph.db"
    h.write_at_revision(str(path), "0020", [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]])
    before = _graph_layout(path)
    assert not any(rowless for rowless, _ in before.values())
    assert before["graph_checkpoints"][1] and before["graph_blobs"][1], "no rows: the test proves less"
    digest = h.verify(path).state_digest
    engine = open_engine(str(path))
    try:
        assert upgrade_to_head(engine) == ("0020", head_revision())
    finally:
        engine.dispose()
    assert _graph_layout(path) == {table: (True, rows) for table, (_, rows) in before.items()}
    with h.raw_db(path) as connection:
        autoindexes = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'sqlite_autoindex_graph_%'"
        ).fetchall()
    assert [name for (name,) in autoindexes if any(table in name for table in GRAPH_TABLES)] == []
    report = h.verify(path)
    assert report.verified and report.state_digest == digest

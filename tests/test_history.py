"""The past in rows (``journal.history``): every state table's rows carry the seq that wrote them and the
rows a call replaced, updated or deleted are kept, so the state as of any seq is read, not re-executed;
verification holds what was kept to what its replay keeps."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arvis.scenario.conditions import Condition
from journal.schema import ROW_SEQ_TABLES, STATE_TABLES
from syscalls.boot import open_kernel
from tools.audit.timetravel import NoSuchMoment, PastNotInRows, snapshot_at, state_at
from tools.scenario.load import load_scenario
from tools.scenario.runner import run_scenario

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "golden"))
import generate_r4  # noqa: E402
from contract_calls import SCENARIOS, clock  # noqa: E402
from strategies import VOUCHED  # noqa: E402


def _contract(path: Path) -> None:
    """Every family's calls the contract tests make (``contract_calls``), accepted and refused."""
    h.build_journal(path, [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]])


def _scenario(path: Path) -> None:
    """A working-memory scenario run: contexts, units, reviews, events, decay."""
    run_scenario(load_scenario(ROOT / "scenarios" / "poisoned-source.yml"), Condition.FULL_AWMU, path)


def _r4(path: Path) -> None:
    """The calls of the r4 golden journal (graph store under a quota, working-memory origins), run today."""
    kernel = open_kernel(str(path), clock=clock(), identity=VOUCHED, create=True, store_quota_bytes=600)
    try:
        h.run_calls(kernel, generate_r4.calls())
    finally:
        kernel.close()


def _standard(path: Path) -> None:
    h.build_journal(path)


BUILDERS: dict[str, Callable[[Path], Any]] = {
    "every family's contract calls": _contract,
    "working-memory scenario": _scenario,
    "graph store and working-memory origins": _r4,
    "standard calls": _standard,
}


_BUILT: dict[str, Path] = {}


@pytest.fixture(params=sorted(BUILDERS))
def journal_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each journal built once per process (a module-scoped parametrized fixture trips xdist's ordering)."""
    if request.param not in _BUILT:
        path = tmp_path_factory.mktemp("history") / "journal.db"
        BUILDERS[request.param](path)
        _BUILT[request.param] = path
    return _BUILT[request.param]


def _head(path: Path) -> int:
    with h.reader_of(path) as reader:
        head = reader.head()
    assert head is not None
    return head.seq


def test_the_state_read_from_rows_is_the_state_a_replay_gives(journal_path: Path) -> None:
    """At evenly spread seqs and the head, the rows written by then and those kept after give exactly the
    rows and the digest that re-executing the journal gives."""
    head = _head(journal_path)
    seqs = sorted({*range(1, head + 1, max(1, head // 7)), head})
    with h.reader_of(journal_path) as reader:
        for seq in seqs:
            folded = state_at(reader, seq)
            replayed = h.replayed_at(reader, seq)
            assert folded.digest == replayed.digest, seq
            assert folded.tables == replayed.tables, seq
            assert (folded.seq, folded.recorded_at) == (replayed.seq, replayed.recorded_at)
            users = {row["user_id"] for row in replayed.tables["memory_entries"]}
            for user in sorted(users)[:3]:  # a snapshot reads that user's rows alone
                assert snapshot_at(reader, user, seq) == h.replayed_snapshot(reader, user, seq)


def test_the_state_read_at_the_head_is_the_stored_state(journal_path: Path) -> None:
    assert h.verify(journal_path).verified
    with h.reader_of(journal_path) as reader:
        assert state_at(reader, None).digest == h.verify(journal_path).state_digest


def test_every_row_carries_the_seq_of_the_last_call_that_wrote_it(journal_path: Path) -> None:
    """A row of ``ROW_SEQ_TABLES`` carries the seq of an accepted entry; each version of it kept in
    ``graph_history`` was written at or before the seq that ended it, which is at or before the seq the
    row carries now (the call that ended a version wrote the next one); no effects log is kept beside."""
    import json

    with h.raw_db(journal_path) as connection:
        tables = {
            name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        accepted = {seq for (seq,) in connection.execute("SELECT seq FROM journal WHERE status = 'ok'")}
        current: dict[tuple[str, tuple[Any, ...]], int] = {}
        for table in sorted(ROW_SEQ_TABLES):
            names = ", ".join(f'"{name}"' for name in KEYS[table])
            for row in connection.execute(f"SELECT {names}, written_seq FROM {table}"):
                current[table, tuple(row[:-1])] = row[-1]
        kept = [
            (table, json.loads(row), ended)
            for table, row, ended in connection.execute('SELECT tbl, "row", ended_seq FROM graph_history')
            if table in ROW_SEQ_TABLES
        ]
    assert "journal_effects" not in tables and "history_from" in tables
    assert set(current.values()) <= accepted
    for table, row, ended in kept:
        assert row["written_seq"] <= ended, (table, row)
        now = current.get((table, tuple(row[name] for name in KEYS[table])))
        assert now is None or ended <= now, (table, row, ended, now)
    assert h.verify(journal_path).verified


KEYS = {
    str(table.name): [str(column.name) for column in table.primary_key.columns]
    for table in STATE_TABLES
    if table.name in ROW_SEQ_TABLES
}


# --- verification checks what the rows keep --------------------------------------------------------


@pytest.fixture
def logged(tmp_path: Path) -> Path:
    """The standard calls (their seqs as ``journal_helpers`` names them), then a working-memory context
    created and turned, whose record is replaced."""
    path = tmp_path / "journal.db"
    turn = {"context_id": "ward", "turn": 1, "proposals": []}
    h.build_journal(
        path,
        [
            *h.STANDARD_CALLS,
            ("memory.awmu.create", {"context_id": "ward"}, h.OPERATOR),
            ("memory.awmu.turn", turn, h.OPERATOR),
        ],
    )
    return path


def _damage(path: Path, statement: str, *values: Any) -> None:
    connection = sqlite3.connect(path)
    try:
        connection.execute(statement, values)
        connection.commit()
    finally:
        connection.close()


def test_verification_names_a_row_seq_that_was_edited(logged: Path) -> None:
    """``written_seq`` is not in the state digest: verification compares it with the replay's itself."""
    with h.raw_db(logged) as connection:
        (seq,) = connection.execute("SELECT written_seq FROM awmu_contexts").fetchone()
    _damage(logged, "UPDATE awmu_contexts SET written_seq = written_seq - 1")
    report = h.verify(logged)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == seq
    assert "the seq that wrote a row of awmu_contexts" in report.divergence.reason


def test_time_travel_reads_rows_without_replaying(logged: Path) -> None:
    """An entry that would not replay (its recorded result edited, its hash left) does not stop reading
    the past: it re-executes nothing (verification is what re-executes and names it)."""
    before = state_at_seq(logged, h.SEQ_REPLACE)
    # the recorded result of the first write, changed: a replay from entry 1 departs there
    h.tamper_one(logged, h.SEQ_FIRST_WRITE, "result", 40)
    assert state_at_seq(logged, h.SEQ_REPLACE) == before
    report = h.verify(logged)
    assert report.divergence is not None and report.divergence.seq == h.SEQ_FIRST_WRITE


def state_at_seq(path: Path, seq: int) -> str:
    with h.reader_of(path) as reader:
        return state_at(reader, seq).digest


# --- a journal older than the history ------------------------------------------------------------


def _migrated_with_entries(path: Path) -> tuple[int, int]:
    """A journal written at 0013 (before the effects log), migrated to the head with entries and written
    after: (its entries before, its entries after the migration)."""
    early = h.STANDARD_CALLS
    first_write = h.STANDARD_CALLS[h.SEQ_FIRST_WRITE - 1]
    late = [
        (first_write[0], {**first_write[1], "key": "after-the-migration"}, first_write[2]),
        ("memory.awmu.create", {"context_id": "late"}, h.OPERATOR),
    ]
    clock = h.make_clock()
    h.write_at_revision(str(path), "0013", early, clock=clock)
    h.build_journal(path, late, clock=clock)  # opening it migrates it to the head
    return len(early), len(late)


def _reads_as_replayed(path: Path, seqs: range | tuple[int, ...]) -> None:
    with h.reader_of(path) as reader:
        for seq in seqs:
            assert state_at(reader, seq).digest == h.replayed_at(reader, seq).digest, seq


def test_a_journal_migrated_with_entries_refuses_time_travel_until_its_past_is_rebuilt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing is re-executed to read the past: where the rows do not hold it, time travel says so and
    names ``arvis db upgrade``, which rebuilds it once (then the rows give what a replay gives)."""
    path = tmp_path / "old.db"
    early, late = _migrated_with_entries(path)
    with h.raw_db(path) as connection:
        (first,) = connection.execute("SELECT first_seq FROM history_from").fetchone()
        (late_seq,) = connection.execute("SELECT written_seq FROM awmu_contexts").fetchone()
    assert (first, late_seq) == (early + 1, early + late)
    assert h.verify(path).verified
    code, out, err = h.cli(capsys, "journal", "state", "--db", path, "--at", 3)
    assert code != 0 and out == ""
    assert f"hold its past from seq {early + 1} only" in err and "arvis db upgrade" in err
    assert h.cli(capsys, "db", "upgrade", "--db", path)[0] == 0
    _reads_as_replayed(path, (3, early, early + late))


@pytest.mark.parametrize("golden", ["r1-working-memory", "r3-contract"])
def test_db_upgrade_rebuilds_a_past_the_migration_could_not_derive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], golden: str
) -> None:
    """A journal of a release before the effects log (the golden r1: working memories turned; r3: every
    family's calls), upgraded by ``arvis db upgrade``: verified by replay, the replay's rows, their seqs
    and their past are written over the database's, once, and the past is read from rows from entry 1."""
    import json

    path = tmp_path / "golden.db"
    shutil.copyfile(ROOT / "tests" / "golden" / f"{golden}.db", path)
    code, out, err = h.cli(capsys, "db", "upgrade", "--db", path, "-o", "json")
    assert code == 0, err
    head = _head(path)
    assert json.loads(out)["rebuilt_past"] == head and json.loads(out)["divergence"] is None
    with h.raw_db(path) as connection:
        assert connection.execute("SELECT count(*) FROM history_from").fetchone() == (0,)
        assert connection.execute("SELECT count(*) FROM graph_history").fetchone() != (0,)
        for table in ROW_SEQ_TABLES:
            assert connection.execute(
                f"SELECT count(*) FROM {table} WHERE written_seq IS NULL"
            ).fetchone() == (0,)
    assert h.verify(path).verified
    _reads_as_replayed(path, range(1, head + 1, 7))
    code, out, err = h.cli(capsys, "db", "upgrade", "--db", path, "-o", "json")
    assert (code, json.loads(out)["rebuilt_past"]) == (0, None)  # once: nothing left to rebuild


def test_db_upgrade_leaves_a_journal_that_does_not_verify_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    early, _ = _migrated_with_entries(path)
    h.tamper_one(path, h.SEQ_FIRST_WRITE, "result", 40)  # its hash left: a replay departs there
    stored = path.read_bytes()
    code, out, err = h.cli(capsys, "db", "upgrade", "--db", path)
    assert code == 1 and "rebuilt" not in out
    assert f"does not verify at seq {h.SEQ_FIRST_WRITE}" in err and "not rebuilt" in err
    assert path.read_bytes() == stored
    with h.raw_db(path) as connection:
        assert connection.execute("SELECT first_seq FROM history_from").fetchone() == (early + 1,)


def test_the_cli_reads_the_state_a_replay_gives(logged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    for seq in (h.SEQ_FIRST_WRITE, h.SEQ_REPLACE, h.SEQ_REVOKE):
        code, out, err = h.cli(capsys, "journal", "state", "--db", logged, "--at", seq, "-o", "json")
        assert code == 0, err
        with h.reader_of(logged) as reader:
            assert json.loads(out) == json.loads(json.dumps(h.replayed_at(reader, seq).to_json()))
        code, out, err = h.cli(
            capsys, "journal", "snapshot", "--db", logged, "--user", h.USER, "--at", seq, "-o", "json"
        )
        assert code == 0, err
        with h.reader_of(logged) as reader:
            assert json.loads(out) == json.loads(json.dumps(h.replayed_snapshot(reader, h.USER, seq)))


def test_a_moment_past_the_head_is_refused(logged: Path) -> None:
    head = _head(logged)
    with (
        h.reader_of(logged) as reader,
        pytest.raises(NoSuchMoment, match=f"no entry {head + 5} \\(it ends at {head}\\)"),
    ):
        state_at(reader, head + 5)


@pytest.mark.parametrize(
    ("golden", "revision"), [("r5-sybil", "0014"), ("r6-queue", "0015"), ("r7-history", "0018")]
)
def test_a_journal_whose_log_covers_it_gets_its_past_in_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], golden: str, revision: str
) -> None:
    """A journal written at 0014, 0015 or 0018 (the golden r5: a store item; r6: a working memory's queue;
    r7: the LangGraph tables), upgraded by ``arvis db upgrade`` (its effects log is an arvis table, not
    another application's): the log gives each row's ``written_seq`` and the rows its calls replaced
    (revision 0020), nothing is left to rebuild, the log goes, and it verifies and reads its past as a
    replay does."""
    import json

    from journal.migrate import HEAD_REVISION

    path = tmp_path / "golden.db"
    shutil.copyfile(ROOT / "tests" / "golden" / f"{golden}.db", path)
    code, out, err = h.cli(capsys, "db", "upgrade", "--db", path, "-o", "json")
    assert code == 0, err
    upgraded = json.loads(out)
    assert (upgraded["before"], upgraded["after"], upgraded["rebuilt_past"]) == (
        revision,
        HEAD_REVISION,
        None,
    )
    with h.raw_db(path) as connection:
        names = ", ".join(f"'{table}'" for table in ROW_SEQ_TABLES)
        (derived,) = connection.execute(
            f"SELECT count(*) FROM graph_history WHERE tbl IN ({names})"
        ).fetchone()
        assert connection.execute("SELECT count(*) FROM history_from").fetchone() == (0,)
    assert derived, "the golden journal replaces no row of these tables: the test proves nothing"
    assert h.verify(path).verified
    with h.reader_of(path) as reader:
        for seq in range(1, _head(path) + 1):
            read = state_at(reader, seq)
            assert read == h.replayed_at(reader, seq), seq


@pytest.mark.parametrize(
    ("table", "column"), [("graph_writes", "checkpoint_ns"), ("pipeline_runs", "principal")]
)
def test_verification_names_a_kept_row_that_was_edited_or_dropped(
    tmp_path: Path, table: str, column: str
) -> None:
    """``graph_history`` is held to the replay's: a kept row edited, taken out, or made text that is not
    JSON or not an object (hand edits), is named at its seq, never a crash."""
    path = tmp_path / "journal.db"
    _contract(path)
    assert h.verify(path).verified
    with h.raw_db(path) as connection:
        kept = connection.execute(
            "SELECT min(ended_seq) FROM graph_history WHERE tbl = ?", (table,)
        ).fetchone()[0]
    assert kept is not None, "the contract calls replace or delete no such row: the test proves nothing"
    for damage in (
        f"UPDATE graph_history SET \"row\" = json_set(\"row\", '$.{column}', 'edited') WHERE ended_seq = ?",
        "DELETE FROM graph_history WHERE ended_seq = ?",
        "UPDATE graph_history SET \"row\" = 'not json' WHERE ended_seq = ?",
        "UPDATE graph_history SET \"row\" = '[1, 2]' WHERE ended_seq = ?",
    ):
        damaged = tmp_path / "damaged.db"
        shutil.copyfile(path, damaged)
        _damage(damaged, damage, kept)
        report = h.verify(damaged)
        assert not report.verified and report.divergence is not None
        assert report.divergence.seq == kept, damage
        assert "graph_history" in report.divergence.reason


@pytest.mark.parametrize("revision", ["0016", "0018", "0019"])
def test_a_copy_of_a_journal_older_than_the_history_gets_its_past_from_db_upgrade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], revision: str
) -> None:
    """A source at 0016 (graph rows replaced and deleted, no history kept), 0018 (deleted grants not
    kept) or 0019 (replaced working-memory rows not kept): the copy's rows cover what is appended to it;
    its past is refused until ``arvis db upgrade`` rebuilds it, then reads as the source's replay."""
    source, copied = tmp_path / "old.db", tmp_path / "copy.db"
    h.write_at_revision(
        str(source), revision, [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]]
    )
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", copied)
    assert code == 0, err
    assert h.verify(copied).verified
    with h.reader_of(copied) as reader, pytest.raises(PastNotInRows, match="arvis db upgrade"):
        state_at(reader, 1)
    assert h.cli(capsys, "db", "upgrade", "--db", copied)[0] == 0
    with h.reader_of(copied) as reader:
        for seq in range(1, _head(copied) + 1, 5):
            folded = state_at(reader, seq)
            assert folded == h.replayed_at(reader, seq), seq

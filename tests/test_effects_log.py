"""The effects log (``journal.effects``): each accepted entry's effects kept with it, the state as of any
seq folded from them, checked by verification against the chain."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from arvis.canonical import canonical_bytes
from arvis.scenario.conditions import Condition
from journal.schema import PAST_IN_ROWS
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.timetravel import NoSuchMoment, snapshot_at, state_at
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
        path = tmp_path_factory.mktemp("effects") / "journal.db"
        BUILDERS[request.param](path)
        _BUILT[request.param] = path
    return _BUILT[request.param]


def _head(path: Path) -> int:
    with h.reader_of(path) as reader:
        head = reader.head()
    assert head is not None
    return head.seq


def test_the_state_folded_from_the_log_is_the_state_a_replay_gives(journal_path: Path) -> None:
    """At evenly spread seqs and the head, folding the log gives exactly the rows and the digest that
    re-executing the journal gives: the fold applies each change as ``journal.apply`` does."""
    head = _head(journal_path)
    seqs = sorted({*range(1, head + 1, max(1, head // 7)), head})
    with h.reader_of(journal_path) as reader:
        for seq in seqs:
            folded = state_at(reader, seq, table=SYSCALL_TABLE)
            replayed = state_at(reader, seq, table=SYSCALL_TABLE, replay=True)
            assert folded.digest == replayed.digest, seq
            assert folded.tables == replayed.tables, seq
            assert (folded.seq, folded.recorded_at) == (replayed.seq, replayed.recorded_at)
            users = {row["user_id"] for row in replayed.tables["memory_entries"]}
            for user in sorted(users)[:3]:  # a snapshot folds that user's rows alone
                assert snapshot_at(reader, user, seq, table=SYSCALL_TABLE) == snapshot_at(
                    reader, user, seq, table=SYSCALL_TABLE, replay=True
                )


def test_the_fold_at_the_head_is_the_stored_state(journal_path: Path) -> None:
    assert h.verify(journal_path).verified
    with h.reader_of(journal_path) as reader:
        assert state_at(reader, None, table=SYSCALL_TABLE).digest == h.verify(journal_path).state_digest


def test_each_entry_logs_its_changes_of_tables_whose_past_is_not_in_their_rows(journal_path: Path) -> None:
    """An entry logs its changes of every table outside ``PAST_IN_ROWS`` as canonical JSON (its whole
    change set, the bytes its ``effects_hash`` is taken over, when it changed none of those tables); one
    that changed only such tables, or nothing, logs nothing. The replay logs the same (verification)."""
    import hashlib

    with h.raw_db(journal_path) as connection:
        rows = connection.execute(
            "SELECT j.seq, j.status, j.effects_hash, e.effects FROM journal j "
            "LEFT JOIN journal_effects e ON e.seq = j.seq"
        ).fetchall()
    empty = hashlib.sha256(b"[]").hexdigest()
    for seq, status, effects_hash, effects in rows:
        if effects is None:
            continue
        assert status == "ok" and effects_hash != empty, seq
        changes = orjson.loads(effects)
        assert changes and canonical_bytes(changes) == effects, seq
        assert not {change["table"] for change in changes} & PAST_IN_ROWS, seq
    assert h.verify(journal_path).verified


def test_a_memory_write_or_a_grant_logs_nothing_and_a_working_memory_call_its_change_set(
    logged: Path,
) -> None:
    """``memory_entries`` is read as of any seq from its version columns, grants from their rows and
    ``graph_history``: their changes are not logged; a context's record is."""
    with h.raw_db(logged) as connection:
        rows = dict(
            connection.execute(
                "SELECT j.syscall, count(e.seq) FROM journal j LEFT JOIN journal_effects e ON e.seq = j.seq "
                "WHERE j.status = 'ok' GROUP BY j.syscall"
            ).fetchall()
        )
    assert rows["memory.write"] == rows["memory.revoke"] == rows["access.grant"] == 0
    assert rows["memory.awmu.create"] > 0


# --- verification checks the log ------------------------------------------------------------------


@pytest.fixture
def logged(tmp_path: Path) -> Path:
    """The standard calls (their seqs as ``journal_helpers`` names them), then a working-memory context
    created, whose record the log holds."""
    path = tmp_path / "journal.db"
    h.build_journal(path, [*h.STANDARD_CALLS, ("memory.awmu.create", {"context_id": "ward"}, h.OPERATOR)])
    return path


def _first_logged(path: Path) -> int:
    with h.raw_db(path) as connection:
        return int(connection.execute("SELECT min(seq) FROM journal_effects").fetchone()[0])


def _damage(path: Path, statement: str, *values: Any) -> None:
    connection = sqlite3.connect(path)
    try:
        connection.execute(statement, values)
        connection.commit()
    finally:
        connection.close()


def test_verification_names_logged_effects_that_were_edited(logged: Path) -> None:
    seq = _first_logged(logged)
    _damage(logged, "UPDATE journal_effects SET effects = CAST('[]' AS BLOB) WHERE seq = ?", seq)
    report = h.verify(logged)
    assert not report.verified and report.divergence is not None
    assert (report.divergence.seq, report.divergence.reason) == (
        seq,
        f"the effects logged for entry {seq} are not those its call logs",
    )


def test_verification_names_effects_logged_for_an_entry_that_logs_none(logged: Path) -> None:
    """A row given to a memory write (whose changes are read from the rows) is named when it holds a
    change of a table whose past the log keeps (those of the others are what earlier revisions logged)."""
    forged = '[{"op":"delete","table":"awmu_units","where":{"unit_id":"u1"}}]'
    _damage(
        logged,
        "INSERT INTO journal_effects (seq, effects) VALUES (?, CAST(? AS BLOB))",
        h.SEQ_FIRST_WRITE,
        forged,
    )
    report = h.verify(logged)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == h.SEQ_FIRST_WRITE


def test_verification_names_logged_effects_that_are_missing(logged: Path) -> None:
    seq = _first_logged(logged)
    _damage(logged, "DELETE FROM journal_effects WHERE seq = ?", seq)
    report = h.verify(logged)
    assert not report.verified and report.divergence is not None
    assert (report.divergence.seq, report.divergence.reason) == (
        seq,
        f"the effects log holds no effects of entry {seq}",
    )


def test_verification_names_effects_logged_for_no_entry(logged: Path) -> None:
    _damage(logged, "INSERT INTO journal_effects (seq, effects) VALUES (?, CAST('[]' AS BLOB))", 10_000)
    report = h.verify(logged, replay=False)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == 10_000


def test_time_travel_reads_the_log_without_replaying(logged: Path) -> None:
    """An entry that would not replay (its recorded result edited, its hash left) does not stop the fold:
    reading the past re-executes nothing (verification is what re-executes and names it)."""
    before = state_at_seq(logged, h.SEQ_REPLACE)
    # the recorded result of the first write, changed: a replay from entry 1 departs there
    h.tamper_one(logged, h.SEQ_FIRST_WRITE, "result", 40)
    assert state_at_seq(logged, h.SEQ_REPLACE) == before
    with h.reader_of(logged) as reader, pytest.raises(Exception, match="does not replay"):
        state_at(reader, h.SEQ_REPLACE, table=SYSCALL_TABLE, replay=True)


def state_at_seq(path: Path, seq: int) -> str:
    with h.reader_of(path) as reader:
        return state_at(reader, seq, table=SYSCALL_TABLE).digest


# --- a journal older than the log ---------------------------------------------------------------


def test_a_journal_migrated_with_entries_replays_its_past_and_logs_what_follows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    early = h.STANDARD_CALLS
    first_write = h.STANDARD_CALLS[h.SEQ_FIRST_WRITE - 1]
    late = [
        (first_write[0], {**first_write[1], "key": "after-the-migration"}, first_write[2]),
        ("memory.awmu.create", {"context_id": "late"}, h.OPERATOR),  # logged (a memory write is not)
    ]
    clock = h.make_clock()
    h.write_at_revision(str(path), "0013", early, clock=clock)
    h.build_journal(path, late, clock=clock)  # opening it migrates it to the head
    with h.raw_db(path) as connection:
        (first,) = connection.execute("SELECT first_seq FROM journal_effects_from").fetchone()
        logged = {seq for (seq,) in connection.execute("SELECT seq FROM journal_effects")}
    assert first == len(early) + 1
    assert logged and min(logged) >= first
    assert h.verify(path).verified
    with h.reader_of(path) as reader:  # the past is replayed: the same answer either way
        for seq in (3, len(early), len(early) + len(late)):
            assert (
                state_at(reader, seq, table=SYSCALL_TABLE).digest
                == state_at(reader, seq, table=SYSCALL_TABLE, replay=True).digest
            )


def test_the_cli_reads_the_same_state_either_way(logged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    for seq in (h.SEQ_FIRST_WRITE, h.SEQ_REPLACE, h.SEQ_REVOKE):
        outs = []
        for extra in ((), ("--replay",)):
            code, out, err = h.cli(
                capsys, "journal", "state", "--db", logged, "--at", seq, "-o", "json", *extra
            )
            assert code == 0, err
            outs.append(json.loads(out))
        assert outs[0] == outs[1]
        code, out, err = h.cli(
            capsys, "journal", "snapshot", "--db", logged, "--user", h.USER, "--at", seq, "-o", "json"
        )
        assert code == 0, err
        with h.reader_of(logged) as reader:
            assert json.loads(out) == json.loads(
                json.dumps(snapshot_at(reader, h.USER, seq, table=SYSCALL_TABLE, replay=True))
            )


def test_a_moment_past_the_head_is_refused_before_any_replay(logged: Path) -> None:
    head = _head(logged)
    with h.reader_of(logged) as reader:
        for replay in (False, True):
            with pytest.raises(NoSuchMoment, match=f"no entry {head + 5} \\(it ends at {head}\\)"):
                state_at(reader, head + 5, table=SYSCALL_TABLE, replay=replay)


@pytest.mark.parametrize(("golden", "revision"), [("r5-sybil", "0014"), ("r6-queue", "0015")])
def test_revisions_0016_to_0018_keep_in_the_log_only_what_rows_do_not_hold(
    tmp_path: Path, golden: str, revision: str
) -> None:
    """A journal written at 0014 or 0015 (the golden r5: a store item; r6: memory writes; whole change
    sets logged), migrated: each row keeps only its changes of tables outside ``PAST_IN_ROWS``, a row left
    with none goes, and the journal verifies and reads its past as a replay does."""
    from journal.engine import open_engine
    from journal.migrate import HEAD_REVISION, upgrade_to_head

    path = tmp_path / "golden.db"
    shutil.copyfile(ROOT / "tests" / "golden" / f"{golden}.db", path)

    def rows() -> dict[int, bytes]:
        with h.raw_db(path) as connection:
            found = connection.execute("SELECT seq, effects FROM journal_effects")
            return {seq: bytes(data) for seq, data in found}

    before = {seq: orjson.loads(data) for seq, data in rows().items()}
    kept = {
        seq: canonical_bytes([change for change in changes if change["table"] not in PAST_IN_ROWS])
        for seq, changes in before.items()
        if any(change["table"] not in PAST_IN_ROWS for change in changes)
    }
    loses = [seq for seq, changes in before.items() if kept.get(seq) != canonical_bytes(changes)]
    assert kept and loses, "the golden journal logs nothing rows hold, or only that: the test proves nothing"
    engine = open_engine(str(path))
    try:
        assert upgrade_to_head(engine) == (revision, HEAD_REVISION)
    finally:
        engine.dispose()
    assert rows() == kept
    assert h.verify(path).verified
    with h.reader_of(path) as reader:
        for seq in range(1, _head(path) + 1):
            folded = state_at(reader, seq, table=SYSCALL_TABLE)
            assert folded == state_at(reader, seq, table=SYSCALL_TABLE, replay=True), seq


def test_verification_names_a_kept_graph_row_that_was_edited_or_dropped(tmp_path: Path) -> None:
    """``graph_history`` is held to the replay's: a kept row edited, or taken out, is named at its seq."""
    path = tmp_path / "journal.db"
    _contract(path)
    assert h.verify(path).verified
    with h.raw_db(path) as connection:
        kept = connection.execute(
            "SELECT min(ended_seq) FROM graph_history WHERE tbl = 'graph_writes'"
        ).fetchone()[0]
    assert kept is not None, "the contract calls replace or delete no graph row: the test proves nothing"
    for damage in (
        'UPDATE graph_history SET "row" = replace("row", \'"checkpoint_ns":""\', '
        '\'"checkpoint_ns":"edited"\') WHERE ended_seq = ?',
        "DELETE FROM graph_history WHERE ended_seq = ?",
    ):
        damaged = tmp_path / "damaged.db"
        shutil.copyfile(path, damaged)
        _damage(damaged, damage, kept)
        report = h.verify(damaged)
        assert not report.verified and report.divergence is not None
        assert report.divergence.seq == kept, damage
        assert "graph_history" in report.divergence.reason


@pytest.mark.parametrize("revision", ["0016", "0018"])
def test_a_copy_of_a_journal_older_than_the_history_replays_its_past(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], revision: str
) -> None:
    """A source at 0016 (graph rows replaced and deleted, no history kept) or 0018 (deleted grants not
    kept): the copy's log and history cover what is appended to it, so its past is replayed, and reads as
    the source's replay."""
    source, copied = tmp_path / "old.db", tmp_path / "copy.db"
    h.write_at_revision(
        str(source), revision, [call for name in sorted(SCENARIOS) for call in SCENARIOS[name]]
    )
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", copied)
    assert code == 0, err
    assert h.verify(copied).verified
    with h.reader_of(copied) as reader:
        for seq in range(1, _head(copied) + 1, 5):
            folded = state_at(reader, seq, table=SYSCALL_TABLE)
            assert folded == state_at(reader, seq, table=SYSCALL_TABLE, replay=True), seq

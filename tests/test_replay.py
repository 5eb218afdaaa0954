"""Verification replay: the chain, re-execution byte for byte, divergence classes, checkpoints."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arvis.canonical import decode
from journal.entry import Pos
from syscalls.table import SYSCALL_TABLE
from tools import argtypes
from tools.audit.replay import verify_journal
from tools.audit.replayer import DivergenceClass

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "journal.db"
    results = h.build_journal(path)
    assert [r.error.code if r.error else "ok" for r in results] == h.STANDARD_STATUSES
    return path


@pytest.fixture
def journal_copy(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


# --- replay verifies whatever was called ---------------------------------------------------------


def test_standard_journal_verifies(pristine: Path) -> None:
    report = h.verify(pristine)
    assert report.verified, report.divergence
    assert report.replayed
    assert report.entries == report.head.seq == len(h.STANDARD_CALLS)
    assert report.state_digest is not None
    assert report.to_json()["first_bad_seq"] is None


def _check_replay(calls: list[h.Call]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "journal.db"
        results = h.build_journal(path, calls)
        # every call was acknowledged and journaled, refused ones included
        assert [r.seq for r in results] == list(range(1, len(calls) + 1))
        with h.reader_of(path) as reader:
            statuses = [entry.status for entry in reader.entries()]
        assert statuses == [r.error.code if r.error else "ok" for r in results]
        report = h.verify(path)
        assert report.verified, report.divergence
        assert report.replayed
        assert report.entries == len(calls)
        chain_only = h.verify(path, replay=False)
        assert chain_only.verified and not chain_only.replayed
        assert chain_only.head.entry_hash == report.head.entry_hash


@SETTINGS
@given(calls=h.call_sequences)
def test_replay_verifies_any_sequence_of_calls(calls: list[h.Call]) -> None:
    _check_replay(calls)


@SETTINGS
@given(calls=h.awmu_sequences)
def test_replay_verifies_any_sequence_of_working_memory_calls(calls: list[h.Call]) -> None:
    _check_replay(calls)


# --- tampering with the journal is caught at the damaged row -------------------------------------


@pytest.mark.parametrize("column", h.JOURNAL_COLUMNS)
@pytest.mark.parametrize("seq", [1, h.SEQ_REPLACE, h.SEQ_EMPTY_PRINCIPAL, len(h.STANDARD_CALLS)])
def test_one_changed_byte_is_caught_at_its_row(journal_copy: Path, column: str, seq: int) -> None:
    h.tamper_one(journal_copy, seq, column, position=3)
    for replay in (True, False):
        report = h.verify(journal_copy, replay=replay)
        assert not report.verified
        assert report.divergence is not None
        assert report.divergence.seq == seq, report.divergence
        assert report.divergence.kind == DivergenceClass.INVALID_HISTORY
        assert report.to_json()["first_bad_seq"] == seq


_TEXT_REPLACEMENTS = st.characters(codec="utf-8", exclude_characters="\x00")


@SETTINGS
@given(
    seq=st.integers(1, len(h.STANDARD_CALLS)),
    column=st.sampled_from(h.JOURNAL_COLUMNS),
    position=st.integers(0, 10_000),
    replacement=_TEXT_REPLACEMENTS,
)
def test_any_changed_byte_is_caught_at_its_row(
    pristine: Path, seq: int, column: str, position: int, replacement: str
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = h.copy_db(pristine, Path(directory) / "journal.db")
        value = h.read_cell(path, seq, column)
        if column in h.BLOB_COLUMNS:
            h.write_cell(path, seq, column, h.flip_bit(value, position, position % 8))
        elif not value:  # an empty text (the principal of a refused call): one character appears
            h.write_cell(path, seq, column, replacement)
        else:
            if value[position % len(value)] == replacement:
                replacement = h.other_char(replacement)
            h.write_cell(path, seq, column, h.replace_char(value, position, replacement))
        report = h.verify(path)
        assert not report.verified
        assert report.divergence is not None
        assert (report.divergence.seq, report.divergence.kind) == (seq, DivergenceClass.INVALID_HISTORY)


def test_untouched_copy_still_verifies_after_trigger_drop(journal_copy: Path) -> None:
    """The control for the tamper tests: dropping the triggers alone changes nothing."""
    h.drop_trigger(journal_copy, "journal_no_update")
    h.drop_trigger(journal_copy, "journal_no_delete")
    assert h.verify(journal_copy).verified


def test_triggers_refuse_update_and_delete(journal_copy: Path) -> None:
    import sqlite3

    with h.raw_db(journal_copy) as connection:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            connection.execute("UPDATE journal SET status = 'ok' WHERE seq = 4")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            connection.execute(f"DELETE FROM journal WHERE seq = {len(h.STANDARD_CALLS)}")
    assert h.verify(journal_copy).verified


def test_a_missing_row_in_the_middle_is_a_seq_gap(journal_copy: Path) -> None:
    h.drop_trigger(journal_copy, "journal_no_delete")
    with h.raw_db(journal_copy) as connection:
        connection.execute("DELETE FROM journal WHERE seq = 6")
    report = h.verify(journal_copy)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (6, DivergenceClass.INVALID_HISTORY)


def test_an_altered_header_is_reported_before_any_entry(journal_copy: Path) -> None:
    h.drop_trigger(journal_copy, "journal_header_no_update")
    with h.raw_db(journal_copy) as connection:
        connection.execute("UPDATE journal_header SET journal_id = 'j-other'")
    report = h.verify(journal_copy)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (0, DivergenceClass.INVALID_HISTORY)


# --- nondeterministic handlers -------------------------------------------------------------------

_CUSTOM_PREFIX: list[h.Call] = [  # TEST_TABLE has no access.* calls: the owner reads
    ("memory.write", h.WRITE, h.PRINCIPAL),
    ("memory.get", {"user_id": h.USER, "key": "language"}, h.PRINCIPAL),
    ("memory.write", h.WRITE, h.PRINCIPAL),  # refused: memory_conflict
]


def test_custom_table_with_deterministic_syscall_verifies(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    h.build_custom_journal(path, [*_CUSTOM_PREFIX, ("test.constant", {"label": "a"}, h.AGENT)])
    report = h.verify(path, table=h.TEST_TABLE)
    assert report.verified, report.divergence
    assert report.entries == 4


def test_nondeterministic_result_is_reported_at_its_seq(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    calls = [
        *_CUSTOM_PREFIX,
        ("test.counter", {"label": "a"}, h.AGENT),  # seq 4
        ("memory.snapshot", {"user_id": h.USER}, h.PRINCIPAL),
        ("test.counter", {"label": "b"}, h.AGENT),
    ]
    h.build_custom_journal(path, calls)
    assert h.verify(path, table=h.TEST_TABLE, replay=False).verified  # the chain is fine
    report = h.verify(path, table=h.TEST_TABLE)
    assert not report.verified
    divergence = report.divergence
    assert divergence is not None
    assert divergence.seq == 4
    assert divergence.syscall == "test.counter"
    assert divergence.kind == DivergenceClass.NONDETERMINISM
    assert divergence.expected != divergence.found
    assert divergence.expected["value"]["label"] == divergence.found["value"]["label"] == "a"
    assert divergence.diff.strip()
    assert '"n"' in divergence.diff
    assert report.to_json()["divergence"]["class"] == "nondeterminism"


def test_nondeterministic_effects_are_reported_at_their_seq(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    h.build_custom_journal(path, [*_CUSTOM_PREFIX, ("test.hidden", {"label": "x"}, h.AGENT)])
    report = h.verify(path, table=h.TEST_TABLE)
    divergence = report.divergence
    assert divergence is not None
    assert (divergence.seq, divergence.kind) == (4, DivergenceClass.NONDETERMINISM)
    assert divergence.expected != divergence.found
    assert "effects" in divergence.reason


def test_forged_result_with_a_recomputed_chain_fails_replay(journal_copy: Path) -> None:
    """Someone rewrote a result and rebuilt the chain: only replay can tell."""
    seq = h.SEQ_AGENT_GET
    recorded = decode(h.read_cell(journal_copy, seq, "result"))
    recorded["value"]["status"] = "revoked"
    h.rewrite_history(journal_copy, seq, "result", orjson.dumps(recorded, option=orjson.OPT_SORT_KEYS))
    assert h.verify(journal_copy, replay=False).verified
    report = h.verify(journal_copy)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (seq, DivergenceClass.NONDETERMINISM)
    assert report.divergence.expected == recorded
    assert report.divergence.found["value"]["status"] == "active"


def test_forged_status_with_a_recomputed_chain_fails_replay(journal_copy: Path) -> None:
    h.rewrite_history(journal_copy, h.SEQ_CONFLICT, "status", "ok")
    assert h.verify(journal_copy, replay=False).verified
    report = h.verify(journal_copy)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (h.SEQ_CONFLICT, DivergenceClass.NONDETERMINISM)


def test_a_forged_principal_without_the_right_fails_replay(journal_copy: Path) -> None:
    """A read rewritten as made by a principal with no grant: the access rule refuses it on replay."""
    h.rewrite_history(journal_copy, h.SEQ_AGENT_GET, "principal", "agent:someone-else")
    assert h.verify(journal_copy, replay=False).verified
    report = h.verify(journal_copy)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (
        h.SEQ_AGENT_GET,
        DivergenceClass.NONDETERMINISM,
    )
    assert report.divergence.found["error"]["code"] == "memory_policy_denied"


def test_a_removed_grant_fails_replay(journal_copy: Path) -> None:
    """The grants are state: deleting one by hand is caught, even by the chain-blind state check."""
    with h.raw_db(journal_copy) as connection:
        assert connection.execute("DELETE FROM grants WHERE principal = ?", (h.AGENT,)).rowcount == 1
    assert h.verify(journal_copy, replay=False).verified  # the chain does not cover the state
    report = h.verify(journal_copy)
    assert report.divergence is not None
    assert report.divergence.kind == DivergenceClass.INVALID_HISTORY
    assert "stored state differs" in report.divergence.reason


# --- the state tables are checked against the journal --------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE memory_entries SET value_ref = 'forged' WHERE key = 'language' AND version = 2",
        "UPDATE memory_entries SET revoked_at = NULL WHERE key = 'timezone'",
        "DELETE FROM memory_entries WHERE key = 'timezone'",
        "INSERT INTO memory_entries (user_id, key, version, memory_type, created_at, source, governance, "
        "written_seq) VALUES ('u9', 'k', 1, 'rule', '2026-01-01T00:00:00.000000Z', 'explicit_user', '{}', 1)",
    ],
)
def test_state_edited_by_hand_is_reported(journal_copy: Path, statement: str) -> None:
    with h.raw_db(journal_copy) as connection:
        assert connection.execute(statement).rowcount == 1
    assert h.verify(journal_copy, replay=False).verified  # the chain does not cover the state
    report = h.verify(journal_copy)
    assert not report.verified
    assert report.divergence is not None
    assert report.divergence.kind == DivergenceClass.INVALID_HISTORY
    assert "stored state differs" in report.divergence.reason
    assert report.divergence.expected != report.divergence.found


# --- checkpoints ---------------------------------------------------------------------------------


def test_checkpoint_of_the_head_verifies_and_keeps_verifying(journal_copy: Path) -> None:
    checkpoint = h.head_checkpoint(journal_copy)
    assert checkpoint.seq == len(h.STANDARD_CALLS)
    assert h.verify(journal_copy, checkpoint=checkpoint).verified
    assert h.verify(journal_copy, checkpoint=str(checkpoint), replay=False).verified
    more: list[h.Call] = [
        ("memory.write", {**h.WRITE, "key": "tone_style", "memory_type": "style"}, h.PRINCIPAL),
        ("memory.get", {"user_id": h.USER, "key": "nope"}, h.AGENT),
    ]
    h.build_journal(journal_copy, more, clock=h.make_clock(h.T0 + h.STEP * 100))
    report = h.verify(journal_copy, checkpoint=checkpoint)
    assert report.verified, report.divergence
    assert report.head.seq == checkpoint.seq + 2


def test_checkpoint_parse_round_trips_and_refuses_garbage() -> None:
    text = "3:" + "a" * 64
    assert str(argtypes.checkpoint(text)) == text
    assert argtypes.checkpoint("3:" + "A" * 64) == Pos(3, "a" * 64)
    for bad in ("3", "x:" + "a" * 64, "0:" + "a" * 64, "3:abc", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            argtypes.checkpoint(bad)


def test_checkpoint_with_a_wrong_hash_fails(journal_copy: Path) -> None:
    checkpoint = Pos(7, "0" * 64)
    report = h.verify(journal_copy, checkpoint=checkpoint)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (7, DivergenceClass.INVALID_HISTORY)


def test_several_checkpoints_must_all_hold(journal_copy: Path) -> None:
    head = h.head_checkpoint(journal_copy)
    with h.reader_of(journal_copy) as reader:
        verified = verify_journal(reader, table=SYSCALL_TABLE, checkpoint=[Pos(7, "0" * 64), head])
        assert verified.divergence is not None and verified.divergence.seq == 7
        # two at one seq with different hashes: no journal holds both, whichever is given last
        with pytest.raises(ValueError, match="two checkpoints at seq"):
            verify_journal(reader, table=SYSCALL_TABLE, checkpoint=[Pos(head.seq, "0" * 64), head])


@pytest.mark.parametrize("keep", [0, 9, 13])
def test_truncated_tail_fails_against_the_checkpoint(journal_copy: Path, keep: int) -> None:
    checkpoint = h.head_checkpoint(journal_copy)
    h.truncate_tail(journal_copy, keep)
    assert h.verify(journal_copy, replay=False).verified  # invisible to the chain alone
    for replay in (True, False):
        report = h.verify(journal_copy, checkpoint=checkpoint, replay=replay)
        assert not report.verified
        assert report.divergence is not None
        assert report.divergence.kind == DivergenceClass.INVALID_HISTORY
        assert report.divergence.seq == keep + 1


def test_rewritten_history_verifies_alone_but_not_against_the_old_checkpoint(journal_copy: Path) -> None:
    checkpoint = h.head_checkpoint(journal_copy)
    seq = h.SEQ_AGENT_GET
    middle = Pos(seq + 2, h.read_cell(journal_copy, seq + 2, "entry_hash"))
    # a read by another principal allowed to read gets the same result: the rewritten journal even
    # replays cleanly
    h.rewrite_history(journal_copy, seq, "principal", "operator:someone-else")
    rewritten = h.verify(journal_copy)
    assert rewritten.verified, rewritten.divergence
    assert rewritten.head.entry_hash != checkpoint.entry_hash
    for kept in (checkpoint, middle):
        report = h.verify(journal_copy, checkpoint=kept)
        assert not report.verified
        assert report.divergence is not None
        assert report.divergence.seq == kept.seq
        assert report.divergence.kind == DivergenceClass.INVALID_HISTORY
        assert report.divergence.expected == kept.entry_hash
        assert report.divergence.found != kept.entry_hash


def test_checkpoint_before_the_rewrite_still_holds(journal_copy: Path) -> None:
    seq = h.SEQ_AGENT_GET
    early = Pos(seq - 1, h.read_cell(journal_copy, seq - 1, "entry_hash"))
    h.rewrite_history(journal_copy, seq, "principal", "operator:someone-else")
    assert h.verify(journal_copy, checkpoint=early).verified

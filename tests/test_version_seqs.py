"""Versioned long-term memory (revision 0015): ``memory_entries`` rows carry the seq that superseded or
revoked them, a user's snapshot as of any seq is one query over them (``tools.audit.timetravel``), and it
answers what replaying the journal answers, on a journal written at head and on one migrated from 0014."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from arvis.canonical import parse_time, plain
from arvis.memory.memory_service import MemoryService
from journal.engine import open_engine
from journal.migrate import upgrade_to_head
from journal.reader import JournalFilter
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import header_of
from tools.audit.replayer import Replayer
from tools.audit.timetravel import snapshot_at

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

USERS = ("u1", "u2")
KEYS = ("a", "b", "c")
VERSIONS = 'SELECT user_id, "key", version, written_seq, superseded_seq, revoked_seq FROM memory_entries'


def _call(op: str, user: str, key: str, index: int) -> h.Call:
    """One call of a schedule: a write (replacing or not: a conflict is refused) or a revoke."""
    args: dict[str, Any] = {"user_id": user, "key": key}
    if op == "revoke":
        return "memory.revoke", args, f"user:{user}"
    write = {**args, "memory_type": "preference", "source": "explicit_user", "value_ref": f"v{index}"}
    return "memory.write", {**write, "replace": op == "replace"}, f"user:{user}"


schedules = st.lists(
    st.tuples(st.sampled_from(("write", "replace", "revoke")), st.sampled_from(USERS), st.sampled_from(KEYS)),
    min_size=1,
    max_size=24,
).map(lambda drawn: [_call(op, user, key, index) for index, (op, user, key) in enumerate(drawn)])

MIXED: list[h.Call] = [
    _call(op, user, key, index)
    for index, (op, user, key) in enumerate(
        [
            ("write", "u1", "a"),
            ("write", "u2", "a"),
            ("replace", "u1", "a"),
            ("revoke", "u1", "a"),
            ("write", "u1", "a"),
            ("replace", "u1", "a"),
            ("write", "u1", "b"),
            ("revoke", "u2", "a"),
            ("revoke", "u2", "a"),  # refused: already revoked
            ("replace", "u2", "a"),
            ("replace", "u1", "b"),
            ("revoke", "u1", "b"),
        ]
    )
]
"""Supersessions and revokes of versions written before and after them, refusals among them."""


def _replayed_snapshots(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Every user's ``memory.snapshot`` value right after every seq, read from a scratch store the journal
    is replayed into one entry at a time (the answer time travel gave by replaying, the oracle)."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    with h.reader_of(path) as reader:
        replayer = Replayer(header_of(reader), table=SYSCALL_TABLE, blobs_from=reader.engine)
        try:
            for entry in reader.entries(JournalFilter()):
                assert replayer.apply(entry) is None
                assert replayer.flush() is None
                with h.memory_reader(replayer.store) as repository:
                    for user in USERS:
                        value = MemoryService().snapshot(
                            repository, user_id=user, now=parse_time(entry.recorded_at)
                        )
                        found[user, entry.seq] = {"seq": entry.seq, **plain(value)}
        finally:
            replayer.close()
    return found


def _travelled(path: Path, expected: dict[tuple[str, int], dict[str, Any]]) -> None:
    """``snapshot_at`` of every user at every seq is the replayed snapshot, byte for byte."""
    with h.reader_of(path) as reader:
        for (user, seq), value in expected.items():
            assert snapshot_at(reader, user, seq) == value, (user, seq)


@given(schedules)
def test_a_snapshot_read_by_query_is_the_replayed_one_at_every_seq(calls: list[h.Call]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "journal.db"
        h.build_journal(path, calls)
        _travelled(path, _replayed_snapshots(path))


def _versions(url: str) -> list[tuple[Any, ...]]:
    engine = open_engine(url)
    try:
        with engine.connect() as connection:
            return sorted(tuple(row) for row in connection.execute(text(VERSIONS)))
    finally:
        engine.dispose()


def test_the_writer_stamps_the_seq_that_superseded_or_revoked_a_version(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    h.build_journal(path, MIXED)
    assert _versions(str(path)) == [
        ("u1", "a", 1, 1, 3, None),
        ("u1", "a", 2, 3, None, 4),
        ("u1", "a", 3, 5, 6, None),
        ("u1", "a", 4, 6, None, None),
        ("u1", "b", 1, 7, 11, None),
        ("u1", "b", 2, 11, None, 12),
        ("u2", "a", 1, 2, None, 8),
        ("u2", "a", 2, 10, None, None),
    ]


def _migrated(target: str, calls: Sequence[h.Call]) -> None:
    """``calls`` written by a release at revision 0014 into ``target``, then brought to head."""
    h.write_at_revision(target, "0014", calls)
    engine = open_engine(target)
    try:
        upgrade_to_head(engine)
    finally:
        engine.dispose()


def test_migrating_derives_the_seqs_the_writer_would_have_stamped(tmp_path: Path) -> None:
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    _migrated(str(old), MIXED)
    h.build_journal(new, MIXED)
    assert _versions(str(old)) == _versions(str(new))
    assert h.verify(old).verified
    _travelled(old, _replayed_snapshots(old))


def test_migrating_on_postgresql_derives_them_too(pg_bare_url: str, tmp_path: Path) -> None:
    _migrated(pg_bare_url, MIXED)
    h.build_journal(tmp_path / "new.db", MIXED)
    assert _versions(pg_bare_url) == _versions(str(tmp_path / "new.db"))


def test_a_seq_that_cannot_be_derived_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A revoke the journal does not show (a hand edit) leaves NULL: the query cannot say when it
    happened, and nothing is re-executed to find out: that user's snapshot is refused, naming verify."""
    path = tmp_path / "journal.db"
    h.build_journal(path, MIXED)
    with h.raw_db(path) as connection:
        connection.execute("UPDATE memory_entries SET revoked_seq = NULL WHERE user_id = 'u2'")
        connection.commit()
    code, out, err = h.cli(capsys, "journal", "snapshot", "--db", path, "--user", "u2", "--at", 3)
    assert code != 0 and out == "" and "without the seq that set it" in err and "arvis journal verify" in err


@pytest.mark.parametrize("edit", ["revoked_seq = 5", "revoked_seq = NULL", "superseded_seq = 12"])
def test_verification_holds_the_version_seqs_to_the_journal(tmp_path: Path, edit: str) -> None:
    """The seqs time travel reads are not in the state digest, so verification compares them with the
    replay's: an edited one (it would change what ``snapshot --at`` answers) fails verification."""
    path = tmp_path / "journal.db"
    h.build_journal(path, MIXED)
    assert h.verify(path).verified
    with h.raw_db(path) as connection:
        connection.execute(f"UPDATE memory_entries SET {edit} WHERE user_id = 'u1' AND \"key\" = 'b'")
        connection.commit()
    report = h.verify(path)
    assert not report.verified and report.divergence is not None
    assert "seqs that superseded or revoked memory entries differ" in report.divergence.reason


def test_a_copy_keeps_the_version_seqs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "source.db", tmp_path / "copy.db"
    h.build_journal(source, MIXED)
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", target)
    assert code == 0, err
    assert _versions(str(target)) == _versions(str(source))


def test_a_copy_to_postgresql_keeps_them_and_answers_alike(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "source.db"
    h.build_journal(source, MIXED)
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", pg_url)
    assert code == 0, err
    assert _versions(pg_url) == _versions(str(source))
    expected = _replayed_snapshots(source)
    with h.reader_of(pg_url) as reader:  # type: ignore[arg-type]  # a URL opens as a path does
        for (user, seq), value in expected.items():
            assert snapshot_at(reader, user, seq) == value, (user, seq)

"""State checkpoints (``journal.state_checkpoints``): written by the store every N entries, rebuilt and
compared by verification, and the starting point of time travel, which must give exactly what a replay
from the first entry gives."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import StaticPool
from strategies import VOUCHED

from arvis.canonical import sha256_hex
from journal.checkpoint_pages import (
    LAYOUTS,
    PARTITION_COLUMNS,
    Builder,
    Dirty,
    Tables,
    closes_page,
    connection_rows,
    index_pages,
    manifest_bytes,
)
from journal.engine import open_engine
from journal.migrate import upgrade_to_head
from journal.reader import JournalReader
from journal.schema import STATE_TABLES, grants
from journal.state_checkpoints import (
    DEFAULT_INTERVAL,
    CheckpointWriter,
    nearest_checkpoint,
    stored_checkpoints,
)
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal
from tools.audit.timetravel import (
    replay_from_checkpoint,
    replay_until,
    snapshot_at,
    state_at,
)

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
USERS = ("u1", "u2", "u3")
KEYS = ("language", "timezone", "tone_style", "working_mode")


# --- building journals ---------------------------------------------------------------------------


def _build(target: str, calls: Sequence[h.Call], *, interval: int, batch: bool = False) -> list[Any]:
    kernel = open_kernel(
        target,
        clock=h.make_clock(),
        journal_id=h.JOURNAL_ID,
        state_checkpoint_interval=interval,
        identity=VOUCHED,
        create=True,
    )
    try:
        if batch:
            return kernel.call_many(calls)  # type: ignore[arg-type]
        return h.run_calls(kernel, calls)
    finally:
        kernel.close()


@contextmanager
def _reader(target: str | Path) -> Iterator[JournalReader]:
    reader = JournalReader.open(str(target))
    try:
        yield reader
    finally:
        reader.close()


def build_manifest(connection: Any) -> tuple[str, Tables]:
    """The manifest (its hash and tables) of the state a database holds now, built from every row: what
    any checkpoint of that state must hold. Nothing is stored."""
    present = frozenset(inspect(connection).get_table_names())

    def never(_: str) -> Any:
        raise AssertionError("a full build reads no index")

    postgres = connection.dialect.name == "postgresql"
    builder = Builder(
        connection_rows(connection), postgres=postgres, sink=lambda *_: None, index_of=never, present=present
    )
    tables = builder.full()
    return sha256_hex(manifest_bytes(tables)), tables


def _checkpoints(reader: JournalReader) -> dict[int, str]:
    with reader.engine.connect() as connection:
        return stored_checkpoints(connection)


def _full_manifest(reader: JournalReader, seq: int) -> str:
    """The manifest of the state right after ``seq``, built whole from a replay from the first entry."""
    replayer, _, _, _ = replay_until(reader, seq, table=SYSCALL_TABLE, checkpoints=False)
    try:
        with replayer.store.engine.connect() as connection:
            return build_manifest(connection)[0]
    finally:
        replayer.close()


def _assert_time_travel_matches(reader: JournalReader, size: int, users: Sequence[str]) -> None:
    """At every seq: ``state_at`` and ``snapshot_at`` from the nearest checkpoint give exactly what a
    replay from the first entry gives, and the checkpoint was used wherever there is one."""
    stored = _checkpoints(reader)
    for seq in range(1, size + 1):
        nearest = max((c for c in stored if c <= seq), default=None)
        fast = state_at(reader, seq, table=SYSCALL_TABLE)
        full = state_at(reader, seq, table=SYSCALL_TABLE, checkpoints=False)
        assert fast.checkpoint == nearest, seq
        assert (fast.seq, fast.recorded_at, fast.digest, fast.tables) == (
            full.seq,
            full.recorded_at,
            full.digest,
            full.tables,
        ), seq
        for user in users:
            slow = snapshot_at(reader, user, seq, table=SYSCALL_TABLE, checkpoints=False)
            assert snapshot_at(reader, user, seq, table=SYSCALL_TABLE) == slow, (seq, user)


def _assert_checkpoints_are_the_state(reader: JournalReader) -> None:
    """Every stored manifest is the one the whole state at its seq gives (built from every row)."""
    for seq, manifest_hash in _checkpoints(reader).items():
        assert _full_manifest(reader, seq) == manifest_hash, seq


# --- strategies ------------------------------------------------------------------------------------


@st.composite
def memory_calls(draw: Callable[..., Any]) -> h.Call:
    """Writes (new, replacing, expiring), revokes, gets and snapshots of a few users' memories."""
    user = draw(st.sampled_from(USERS))
    key = draw(st.sampled_from(KEYS))
    kind = draw(st.sampled_from(["write", "write", "write", "write", "revoke", "get", "snapshot"]))
    principal = f"user:{user}"
    if kind == "write":
        args: dict[str, Any] = {
            "user_id": user,
            "key": key,
            "memory_type": draw(st.sampled_from(["preference", "rule"])),
            "source": "explicit_user",
        }
        if draw(st.booleans()):
            args["replace"] = True
        if draw(st.integers(0, 4)) == 0:
            args["expires_at"] = "2026-01-01T00:00:07Z"
        if draw(st.integers(0, 3)) == 0:
            args["value_ref"] = draw(st.sampled_from(["ref-a", "réf-\u2028b", ""]))
        return ("memory.write", args, principal)
    if kind == "revoke":
        return ("memory.revoke", {"user_id": user, "key": key}, principal)
    if kind == "get":
        return ("memory.get", {"user_id": user, "key": key}, principal)
    return ("memory.snapshot", {"user_id": user}, principal)


memory_sequences = st.lists(memory_calls(), min_size=1, max_size=28)


# --- writing ---------------------------------------------------------------------------------------


def test_partition_columns_name_columns_of_the_state_tables() -> None:
    names = {str(table.name): {str(c.name) for c in table.columns} for table in STATE_TABLES}
    assert set(LAYOUTS) == set(names)
    for table, column in PARTITION_COLUMNS.items():
        assert table in names
        assert column is None or column in names[table]


def test_the_default_interval() -> None:
    assert DEFAULT_INTERVAL == 0  # opt-in: journal-format.md §16.3
    with pytest.raises(ValueError):
        CheckpointWriter(-1, postgres=False)


def test_a_checkpoint_is_stored_at_every_multiple_of_the_interval(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    calls = [h.STANDARD_CALLS[i % len(h.STANDARD_CALLS)] for i in range(23)]
    _build(str(path), calls, interval=5)
    with _reader(path) as reader:
        assert sorted(_checkpoints(reader)) == [5, 10, 15, 20]
        _assert_checkpoints_are_the_state(reader)
        assert h.verify(path).verified
    with h.raw_db(path) as connection:
        dirty = connection.execute("SELECT tbl, part, row_key FROM state_checkpoint_dirty").fetchall()
    # what changed after seq 20: entries 21..23 are standard calls 4..6 (a write of timezone, a read,
    # a conflict): the service's new timezone entry, version 2 (version 1 was revoked at seq 10)
    assert dirty == [("memory_entries", '"u1"', '["timezone",2]')]


def test_interval_zero_stores_none(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    _build(str(path), h.STANDARD_CALLS, interval=0)
    with _reader(path) as reader:
        assert _checkpoints(reader) == {}
        assert state_at(reader, 9, table=SYSCALL_TABLE).checkpoint is None
    with h.raw_db(path) as connection:  # a writer that keeps none records nothing
        assert connection.execute("SELECT tbl, part, row_key FROM state_checkpoint_dirty").fetchall() == []


def test_writers_with_and_without_checkpoints_share_a_journal(tmp_path: Path) -> None:
    """A writer that keeps no checkpoints records nothing: the one that keeps them sees entries that do not
    chain from its own last one, and builds its next checkpoint whole."""
    path = tmp_path / "j.db"
    calls = [h.STANDARD_CALLS[i % len(h.STANDARD_CALLS)] for i in range(40)]
    clock = h.make_clock()
    for start in range(0, 40, 3):
        interval = 4 if (start // 3) % 2 == 0 else 0
        kernel = open_kernel(
            str(path),
            clock=clock,
            journal_id=h.JOURNAL_ID,
            state_checkpoint_interval=interval,
            identity=VOUCHED,
            create=True,
        )
        try:
            h.run_calls(kernel, calls[start : start + 3])
        finally:
            kernel.close()
    with _reader(path) as reader:
        assert sorted(_checkpoints(reader)) == [8, 20, 32]  # the seqs the writers that keep them took
        _assert_checkpoints_are_the_state(reader)
    assert h.verify(path).verified


def test_checkpoints_inside_a_batch(tmp_path: Path) -> None:
    """``call_many``: the checkpoint of a seq inside the batch holds the state right after that call,
    a refused call at the checkpoint's seq included."""
    path = tmp_path / "j.db"
    results = _build(str(path), h.STANDARD_CALLS * 2, interval=3, batch=True)
    assert [r.seq for r in results] == list(range(1, 2 * len(h.STANDARD_CALLS) + 1))
    with _reader(path) as reader:
        assert sorted(_checkpoints(reader)) == list(range(3, 2 * len(h.STANDARD_CALLS) + 1, 3))
        _assert_checkpoints_are_the_state(reader)
        _assert_time_travel_matches(reader, 2 * len(h.STANDARD_CALLS), [h.USER, "nobody"])
    assert h.verify(path).verified


def test_a_journal_from_before_checkpoints_gets_its_first_one_whole(tmp_path: Path) -> None:
    """A database at 0010 with state in it: migrated, its first checkpoint holds the whole state."""
    path = tmp_path / "old.db"
    clock = h.make_clock()
    h.write_at_revision(str(path), "0010", h.STANDARD_CALLS[:7], clock=clock)
    kernel = open_kernel(
        str(path),
        clock=clock,
        journal_id=h.JOURNAL_ID,
        state_checkpoint_interval=4,
        identity=VOUCHED,
        create=True,
    )
    try:
        h.run_calls(kernel, h.STANDARD_CALLS[7:])
    finally:
        kernel.close()
    with _reader(path) as reader:
        assert sorted(_checkpoints(reader)) == [8, 12, 16]
        _assert_checkpoints_are_the_state(reader)
        _assert_time_travel_matches(reader, len(h.STANDARD_CALLS), [h.USER])
    assert h.verify(path).verified


# --- pages: the incremental build is the whole build -------------------------------------------------

_PRINCIPALS = [f"p{i}" for i in range(3)]
_GRANT_KEYS = [(capability, f"s{i:02d}") for capability in ("read", "write", "admin") for i in range(40)]


@given(
    st.lists(
        st.lists(
            st.tuples(st.booleans(), st.sampled_from(_PRINCIPALS), st.sampled_from(_GRANT_KEYS)),
            min_size=1,
            max_size=30,
        ),
        min_size=1,
        max_size=6,
    )
)
@settings(max_examples=60, deadline=None)
def test_rebuilding_the_changed_pages_gives_the_whole_build(
    rounds: list[list[tuple[bool, str, Any]]],
) -> None:
    """Rows inserted and deleted (grants: one partition per principal, many pages each), round after
    round: the manifest updated from what changed equals the one built from every row."""
    engine = create_engine("sqlite://", poolclass=StaticPool)
    upgrade_to_head(engine)
    with engine.connect() as connection:
        builder = _pages_builder(connection)
        tables: dict[str, dict[str, str]] = {}
        for changes in rounds:
            dirty = Dirty()
            for insert, principal, (capability, scope) in changes:
                key = {"principal": principal, "capability": capability, "scope": scope}
                connection.execute(grants.delete().filter_by(**key))
                if insert:
                    connection.execute(grants.insert(), {**key, "granted_seq": 1})
                dirty.add(("grants", principal, (capability, scope)))
            tables = builder.update(tables, dirty)
            assert manifest_bytes(tables) == manifest_bytes(build_manifest(connection)[1])


def test_deleting_the_row_that_closes_a_page_joins_it_to_the_next() -> None:
    engine = create_engine("sqlite://", poolclass=StaticPool)
    upgrade_to_head(engine)
    closing = [key for key in _GRANT_KEYS if closes_page(list(key))]
    assert len(closing) >= 4
    with engine.connect() as connection:
        builder = _pages_builder(connection)
        for capability, scope in _GRANT_KEYS:
            row = {"principal": "p0", "capability": capability, "scope": scope, "granted_seq": 1}
            connection.execute(grants.insert(), row)
        tables = builder.update({}, _dirty(*_GRANT_KEYS))
        assert manifest_bytes(tables) == manifest_bytes(build_manifest(connection)[1])
        for removed in (closing[1], closing[2], _GRANT_KEYS[0], closing[-1]):
            capability, scope = removed
            connection.execute(grants.delete().filter_by(principal="p0", capability=capability, scope=scope))
            tables = builder.update(tables, _dirty(removed))
            assert manifest_bytes(tables) == manifest_bytes(build_manifest(connection)[1])
        for capability, scope in (closing[1], ("admin", "a-first"), ("write", "zz-last")):
            row = {"principal": "p0", "capability": capability, "scope": scope, "granted_seq": 2}
            connection.execute(grants.insert(), row)
            tables = builder.update(tables, _dirty((capability, scope)))
            assert manifest_bytes(tables) == manifest_bytes(build_manifest(connection)[1])


def _dirty(*keys: tuple[str, str]) -> Dirty:
    dirty = Dirty()
    dirty.add_all(("grants", "p0", key) for key in keys)
    return dirty


def _pages_builder(connection: Any) -> Builder:
    """A builder on ``connection`` that keeps the indexes it builds (as verification's does)."""
    indexes: dict[str, bytes] = {}

    def rows(sql: str, values: Any) -> Any:
        return [tuple(row) for row in connection.execute(text(sql), dict(values)).all()]

    def keep(digest: str, data: bytes, index: bool) -> None:
        if index:
            indexes[digest] = data

    return Builder(rows, postgres=False, sink=keep, index_of=lambda digest: index_pages(indexes[digest]))


def test_pages_are_cut_by_key() -> None:
    cut = [closes_page(["key", version]) for version in range(2_000)]
    assert 400 < sum(cut) < 600  # one in four
    assert cut == [closes_page(["key", version]) for version in range(2_000)]


# --- time travel equals the replay from the first entry ---------------------------------------------


@given(memory_sequences, st.integers(1, 5))
@SETTINGS
def test_time_travel_from_checkpoints_is_the_full_replay(calls: list[h.Call], interval: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "j.db"
        _build(str(path), calls, interval=interval)
        with _reader(path) as reader:
            assert sorted(_checkpoints(reader)) == list(range(interval, len(calls) + 1, interval))
            _assert_time_travel_matches(reader, len(calls), USERS)
            _assert_checkpoints_are_the_state(reader)
        assert h.verify(path).verified


@given(st.one_of(h.call_sequences, h.awmu_sequences), st.integers(1, 4))
@SETTINGS
def test_time_travel_of_every_table_from_checkpoints(calls: list[h.Call], interval: int) -> None:
    """Grants, working memory, refusals of every kind: the state from a checkpoint is the full replay's."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "j.db"
        results = _build(str(path), calls, interval=interval)
        size = sum(1 for r in results if r.seq is not None)
        with _reader(path) as reader:
            _assert_time_travel_matches(reader, size, ["u1"])
            _assert_checkpoints_are_the_state(reader)
        assert h.verify(path).verified


def test_the_command_line_travels_from_the_nearest_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    _build(str(path), h.STANDARD_CALLS, interval=4)
    with _reader(path) as reader:
        resumed = replay_from_checkpoint(reader, 11, table=SYSCALL_TABLE)
        assert resumed is not None and resumed[3] == 8
        resumed[0].close()
        expected_state = state_at(reader, 11, table=SYSCALL_TABLE, checkpoints=False).to_json()
        expected_snapshot = snapshot_at(reader, h.USER, 11, table=SYSCALL_TABLE, checkpoints=False)
    code, out, err = h.cli(capsys, "journal", "state", "--db", path, "--at", 11, "-o", "json")
    assert code == 0, err
    assert json.loads(out) == expected_state
    code, out, err = h.cli(capsys, "journal", "snapshot", "--db", path, "--user", h.USER, "--at", 11)
    assert code == 0, err
    assert json.loads(out) == expected_snapshot
    code, _, err = h.cli(capsys, "journal", "snapshot", "--db", path, "--user", h.USER, "--at", 99)
    assert code == 2 and "99" in err


def test_no_checkpoints_replays_from_the_first_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-checkpoints`` never reads a stored checkpoint (which only `journal verify` proves)."""
    import tools.audit.timetravel as timetravel

    path = tmp_path / "j.db"
    _build(str(path), h.STANDARD_CALLS, interval=4)
    with _reader(path) as reader:
        expected_state = state_at(reader, 11, table=SYSCALL_TABLE, checkpoints=False).to_json()
        expected_snapshot = snapshot_at(reader, h.USER, 11, table=SYSCALL_TABLE, checkpoints=False)

    def untrusted(*args: object, **kwargs: object) -> None:
        raise AssertionError("a stored checkpoint was read")

    monkeypatch.setattr(timetravel, "replay_from_checkpoint", untrusted)
    code, out, err = h.cli(
        capsys, "journal", "state", "--db", path, "--at", 11, "-o", "json", "--no-checkpoints"
    )
    assert code == 0, err
    assert json.loads(out) == expected_state
    code, out, err = h.cli(
        capsys, "journal", "snapshot", "--db", path, "--user", h.USER, "--at", 11, "--no-checkpoints"
    )
    assert code == 0, err
    assert json.loads(out) == expected_snapshot
    code, _, err = h.cli(capsys, "journal", "snapshot", "--db", path, "--user", h.USER, "--at", 11)
    assert code != 0  # without the flag the (here untrusted) checkpoint path is taken


# --- verification -------------------------------------------------------------------------------------


@pytest.fixture
def checkpointed(tmp_path: Path) -> Path:
    path = tmp_path / "j.db"
    _build(str(path), h.STANDARD_CALLS, interval=4)
    return path


def test_snapshot_at_replays_through_the_kernel_from_the_nearest_checkpoint(
    checkpointed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`snapshot --at` takes the one execution path every replay takes: the entries after the nearest
    checkpoint (8, for seq 11) re-executed by ``Kernel.execute``, every syscall alike, and nothing before
    it; the snapshot is the one the replay from the first entry gives."""
    with _reader(checkpointed) as reader:
        slow = snapshot_at(reader, h.USER, 11, table=SYSCALL_TABLE, checkpoints=False)
        executed: list[str] = []
        execute = Kernel.execute

        def counted(self: Kernel, recorded: Any, *args: Any, **kwargs: Any) -> Any:
            executed.append(recorded.syscall)
            return execute(self, recorded, *args, **kwargs)

        monkeypatch.setattr(Kernel, "execute", counted)
        assert snapshot_at(reader, h.USER, 11, table=SYSCALL_TABLE) == slow
    assert executed == [call[0] for call in h.STANDARD_CALLS[8:11]]


def _manifest_of(path: Path, seq: int) -> tuple[str, dict[str, Any]]:
    with h.raw_db(path) as connection:
        digest = connection.execute("SELECT manifest_hash FROM state_checkpoints WHERE seq = ?", (seq,))
        manifest_hash = digest.fetchone()[0]
        data = connection.execute("SELECT data FROM graph_blobs WHERE hash = ?", (manifest_hash,)).fetchone()
    return manifest_hash, json.loads(data[0])


def _edit(path: Path, sql: str, values: Sequence[Any] = ()) -> None:
    with h.raw_db(path) as connection:
        connection.execute(sql, values)
        connection.commit()


def test_a_checkpoint_that_is_not_the_state_fails_verification_at_its_seq(checkpointed: Path) -> None:
    later, _ = _manifest_of(checkpointed, 12)
    _edit(checkpointed, "UPDATE state_checkpoints SET manifest_hash = ? WHERE seq = 8", (later,))
    report = h.verify(checkpointed)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == 8
    assert report.divergence.kind == "invalid_history"
    assert report.divergence.reason.startswith("state checkpoint at seq 8 does not hold the state")
    assert "memory_entries 'u1' differs" in report.divergence.reason
    assert report.divergence.found == later
    assert h.verify(checkpointed, replay=False).verified  # only a replay knows the state
    with _reader(checkpointed) as reader:  # entry 9, a snapshot, does not replay on it: not used
        travelled = state_at(reader, 9, table=SYSCALL_TABLE)
        assert travelled.checkpoint is None
        assert travelled.digest == state_at(reader, 9, table=SYSCALL_TABLE, checkpoints=False).digest


def test_a_missing_page_is_named(checkpointed: Path) -> None:
    _, manifest = _manifest_of(checkpointed, 16)
    index = manifest["tables"]["memory_entries"][h.USER]
    with h.raw_db(checkpointed) as connection:
        pages = json.loads(
            connection.execute("SELECT data FROM graph_blobs WHERE hash = ?", (index,)).fetchone()[0]
        )
    page = pages[0][1]
    first = min(seq for seq in (4, 8, 12, 16) if _manifest_of(checkpointed, seq)[1] == manifest)
    assert first == 12  # entries 13..16 change nothing: the checkpoints of 12 and 16 are one
    _edit(checkpointed, "DELETE FROM graph_blobs WHERE hash = ?", (page,))
    for replay in (False, True):
        report = h.verify(checkpointed, replay=replay)
        assert not report.verified and report.divergence is not None
        assert report.divergence.reason == (
            f"state checkpoint at seq 12 references graph blob {page} (page 0 of memory_entries, "
            f"partition '{h.USER}'), which graph_blobs does not hold"
        )
        assert report.divergence.seq == 12
    with _reader(checkpointed) as reader:  # time travel falls back to the full replay
        fast = state_at(reader, 17, table=SYSCALL_TABLE)
        assert fast.checkpoint is None
        assert fast.digest == state_at(reader, 17, table=SYSCALL_TABLE, checkpoints=False).digest
        slow = snapshot_at(reader, h.USER, 17, table=SYSCALL_TABLE, checkpoints=False)
        assert snapshot_at(reader, h.USER, 17, table=SYSCALL_TABLE) == slow


def test_a_missing_manifest_and_a_damaged_blob_are_named(checkpointed: Path) -> None:
    manifest_hash, _ = _manifest_of(checkpointed, 4)
    _edit(checkpointed, "UPDATE graph_blobs SET data = ? WHERE hash = ?", (b"{}", manifest_hash))
    report = h.verify(checkpointed, replay=False)
    assert report.divergence is not None
    assert report.divergence.seq == 4
    assert report.divergence.reason.startswith(f"graph blob {manifest_hash} does not hash to its key")
    _edit(checkpointed, "DELETE FROM graph_blobs WHERE hash = ?", (manifest_hash,))
    report = h.verify(checkpointed, replay=False)
    assert report.divergence is not None
    assert report.divergence.reason == (
        f"state checkpoint at seq 4 references graph blob {manifest_hash} (its manifest), which "
        "graph_blobs does not hold"
    )


def test_a_checkpoint_past_the_head_is_named(checkpointed: Path) -> None:
    manifest_hash, _ = _manifest_of(checkpointed, 4)
    _edit(checkpointed, "INSERT INTO state_checkpoints VALUES (400, ?)", (manifest_hash,))
    report = h.verify(checkpointed, replay=False)
    assert report.divergence is not None and report.divergence.seq == 400
    assert report.divergence.reason == "state checkpoint at seq 400 is past the journal's head (seq 17)"


@pytest.mark.parametrize("seq", [0, -7])
def test_a_checkpoint_before_the_first_entry_is_named_and_never_used(checkpointed: Path, seq: int) -> None:
    """No entry has it, so the replay would never compare it: verification names it, and time travel
    never starts from it (review: a forged one at seq 0 passed and fed `snapshot --at`)."""
    manifest_hash, _ = _manifest_of(checkpointed, 4)
    _edit(checkpointed, "DELETE FROM state_checkpoints", ())
    _edit(checkpointed, "INSERT INTO state_checkpoints VALUES (?, ?)", (seq, manifest_hash))
    report = h.verify(checkpointed, replay=False)
    assert report.divergence is not None and report.divergence.seq == 0
    assert report.divergence.reason == f"state checkpoint at seq {seq} is before the first entry"
    engine = open_engine(str(checkpointed))
    try:
        with engine.connect() as connection:
            assert nearest_checkpoint(connection, 17) is None
    finally:
        engine.dispose()


def test_time_travel_that_departs_from_the_record_falls_back(checkpointed: Path) -> None:
    """A checkpoint whose state makes a later call replay otherwise than journaled is not used: the
    state comes from the replay from the first entry."""
    earlier, _ = _manifest_of(checkpointed, 4)
    _edit(checkpointed, "UPDATE state_checkpoints SET manifest_hash = ? WHERE seq >= 12", (earlier,))
    with _reader(checkpointed) as reader:
        # entry 17 is a snapshot of u1, whose memory at seq 4 was not what it was at 12
        assert replay_from_checkpoint(reader, 17, table=SYSCALL_TABLE) is None
        fast = state_at(reader, 17, table=SYSCALL_TABLE)
        assert fast.checkpoint is None
        assert fast.digest == state_at(reader, 17, table=SYSCALL_TABLE, checkpoints=False).digest
    report = h.verify(checkpointed)
    assert report.divergence is not None and report.divergence.seq == 12


# --- PostgreSQL ---------------------------------------------------------------------------------------


def test_checkpoints_on_postgresql(pg_url: str) -> None:
    calls = [h.STANDARD_CALLS[i % len(h.STANDARD_CALLS)] for i in range(30)]
    _build(pg_url, calls, interval=4)
    with _reader(pg_url) as reader:
        assert sorted(_checkpoints(reader)) == list(range(4, 31, 4))
        _assert_checkpoints_are_the_state(reader)
        _assert_time_travel_matches(reader, 30, [h.USER, "nobody"])
        report = verify_journal(reader, table=SYSCALL_TABLE)
        assert report.verified, report.divergence


def test_checkpoints_on_postgresql_match_sqlite(pg_url: str, tmp_path: Path) -> None:
    """The same calls give the same manifests on both backends (text ordered as bytes on both)."""
    calls: list[h.Call] = [
        *h.SETUP_CALLS,
        *(
            (
                "memory.write",
                {**h.WRITE, "key": key, "replace": True, "value_ref": str(i)},
                h.PRINCIPAL,
            )
            for i, key in enumerate(["b", "a", "B", "é", "ab", "a b", "Z", "z", "_", "ä"] * 3)
        ),
    ]
    path = tmp_path / "j.db"
    _build(pg_url, calls, interval=8)
    _build(str(path), calls, interval=8)
    with _reader(pg_url) as on_pg, _reader(path) as on_sqlite:
        assert _checkpoints(on_pg) == _checkpoints(on_sqlite)
        assert len(_checkpoints(on_pg)) == 4


def test_the_migration_adds_empty_tables(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    engine = open_engine(str(path))
    upgrade_to_head(engine, target="0010")
    upgrade_to_head(engine)
    engine.dispose()
    with sqlite3.connect(path) as connection:
        for table in ("state_checkpoints", "state_checkpoint_dirty"):
            assert connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,)


def test_a_writer_that_keeps_none_interleaved_with_one_that_does(tmp_path: Path) -> None:
    """Both open at once: the writer keeping checkpoints sees entries that do not chain from its own last
    one (the other recorded nothing) and builds its next checkpoint whole, so every checkpoint holds the
    state its journal produces."""
    path = tmp_path / "j.db"
    calls = [h.STANDARD_CALLS[i % len(h.STANDARD_CALLS)] for i in range(30)]
    clock = h.make_clock()
    keeping = open_kernel(
        str(path),
        clock=clock,
        journal_id=h.JOURNAL_ID,
        state_checkpoint_interval=3,
        identity=VOUCHED,
        create=True,
    )
    other = open_kernel(
        str(path),
        clock=clock,
        journal_id=h.JOURNAL_ID,
        state_checkpoint_interval=0,
        identity=VOUCHED,
        create=True,
    )
    try:
        for index, call in enumerate(calls):
            h.run_calls(keeping if index % 4 else other, [call])
    finally:
        keeping.close()
        other.close()
    with _reader(path) as reader:
        assert _checkpoints(reader)
        _assert_checkpoints_are_the_state(reader)
    assert h.verify(path).verified

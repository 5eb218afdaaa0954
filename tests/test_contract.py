"""One contract, every backend: the journal, the store, every syscall family, the reader, the state digest
and verification replay behave the same on SQLite and on PostgreSQL, byte for byte.

``Contract`` holds the tests and is subclassed once per backend (``TestSqlite``: a file in tmp_path;
``TestPostgres``: a fresh database on the session's cluster), each giving the ``target`` fixture and the
few statements that differ (bypassing the append-only triggers). Every scenario runs with a fixed
ManualClock and journal id, and its results, journal entries and state digest must equal the same
scenario's run on the reference backend, SQLite in memory: the same calls give the same entry hashes
and state digest whatever the database.
"""

from __future__ import annotations

import tempfile
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pg_cluster
import pytest
from contract_calls import (
    AGENT,
    AWMU,
    COLLATION,
    COLLATION_IDS,
    JOURNAL_ID,
    KERNEL_AND_PIPELINE,
    MEMORY,
    MEMORY_STATUSES,
    NUL_IN_TEXT,
    PRINCIPAL,
    SCENARIOS,
    TIME_FORM,
    USER,
    Call,
    assert_same_run,
    clock,
    engine_of,
    observe,
    reader_of,
    reference,
    run_calls,
)
from hypothesis import HealthCheck, given, settings
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from strategies import VOUCHED

from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
from arvis.memory.memory_service import insert_entry
from journal.engine import Durability, open_engine
from journal.entry import EMPTY_EFFECTS_HASH, EntryContent, compute_entry_hash, genesis_hash
from journal.migrate import current_revision, head_revision, upgrade_to_head
from journal.reader import JournalFilter
from journal.schema import FORMAT_VERSION, memory_entries
from journal.state import iter_state_rows, state_digest
from journal.store import ManualClock, SqlJournalStore
from kernel.abi import JournalEntry, RecordedCall
from kernel.protocols import StorageError
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h


def test_the_scenarios_call_every_syscall_and_see_every_family_refuse() -> None:
    """The contract covers the whole table: a new syscall needs a place in contract_calls.SCENARIOS."""
    entries = [entry for name in SCENARIOS for entry in reference(name).entries]
    called = {entry.syscall for entry in entries}
    assert set(SYSCALL_TABLE) <= called, (
        f"not in any contract scenario: {sorted(set(SYSCALL_TABLE) - called)}"
    )
    for family in {name.rsplit(".", 1)[0] for name in SYSCALL_TABLE}:
        statuses = {entry.status for entry in entries if entry.syscall.rsplit(".", 1)[0] == family}
        assert "ok" in statuses and statuses - {"ok"}, f"{family}: {sorted(statuses)}"


# --------------------------------------------------------------------------------------------------
# the contract


class Contract:
    """The behaviour every backend owes. Subclasses give ``target`` (a fresh database without a
    journal), ``bare_target`` (one without even the schema), ``targets`` (a factory of fresh databases,
    for Hypothesis) and ``tamper``."""

    stores_nul_in_text: ClassVar[bool] = True
    append_only_statements: ClassVar[tuple[str, ...]] = (
        "UPDATE journal SET status = 'ok' WHERE seq = 1",
        "DELETE FROM journal WHERE seq = 1",
        "DELETE FROM journal",
        "UPDATE journal_header SET journal_id = 'j-other'",
        "DELETE FROM journal_header",
    )

    def tamper(self, target: str, seq: int, column: str, value: Any) -> None:
        """Change one journal cell behind the append-only triggers' back."""
        raise NotImplementedError

    # --- journal: append, chain, head ------------------------------------------------------------

    @pytest.mark.parametrize("scenario", sorted(SCENARIOS))
    def test_scenario_is_byte_identical_to_the_reference(self, target: str, scenario: str) -> None:
        assert_same_run(run_calls(target, SCENARIOS[scenario]), reference(scenario))

    def test_memory_statuses(self, target: str) -> None:
        run = run_calls(target, MEMORY)
        statuses = [entry.status for entry in run.entries]
        assert statuses == MEMORY_STATUSES

    def test_every_family_writes_and_refuses(self, target: str) -> None:
        run = run_calls(target, [*AWMU, *KERNEL_AND_PIPELINE])
        statuses: dict[str, set[str]] = defaultdict(set)
        for entry in run.entries:
            statuses[entry.syscall].add(entry.status)
        assert {"ok", "awmu_context_exists"} <= statuses["memory.awmu.create"]
        assert "awmu_unit_not_found" in statuses["memory.awmu.get"]
        assert "awmu_context_not_found" in statuses["memory.awmu.list"]
        assert {"ok", "invalid_args"} <= statuses["kernel.record"]
        assert {"ok", "pipeline_run_exists"} <= statuses["pipeline.begin"]
        assert {"ok", "pipeline_run_not_found"} <= statuses["pipeline.end"]
        assert {"ok", "memory_policy_denied"} <= statuses["memory.write"]
        ok_families = {entry.syscall.rsplit(".", 1)[0] for entry in run.entries if entry.status == "ok"}
        assert {"memory", "memory.awmu", "kernel", "pipeline"} <= ok_families
        assert any(
            e.effects_hash != EMPTY_EFFECTS_HASH for e in run.entries if e.syscall.startswith("memory.awmu")
        )

    def test_chain_head_and_header(self, target: str) -> None:
        run = run_calls(target, MEMORY)
        assert run.header == (JOURNAL_ID, FORMAT_VERSION, "2026-01-01T00:00:00.000000Z", run.header[3])
        prev = genesis_hash(JOURNAL_ID, FORMAT_VERSION)
        assert run.header[3] == prev
        for seq, entry in enumerate(run.entries, start=1):
            assert entry.seq == seq
            assert entry.prev_hash == prev
            assert type(entry.args) is bytes and type(entry.result) is bytes
            assert TIME_FORM.fullmatch(entry.recorded_at)
            fields = {name: getattr(entry, name) for name in JournalEntry.__struct_fields__}
            del fields["entry_hash"]
            assert compute_entry_hash(**fields) == entry.entry_hash
            prev = entry.entry_hash
        with reader_of(target) as reader:
            assert reader.count() == len(MEMORY)
            assert reader.head() == run.entries[-1]
            assert reader.get(5) == run.entries[4]
            assert reader.get(len(MEMORY) + 1) is None
            header = reader.header()
        assert header is not None and header.genesis_hash == run.header[3]

    def test_results_are_what_the_journal_holds(self, target: str) -> None:
        run = run_calls(target, MEMORY)
        for result, entry in zip(run.results, run.entries, strict=True):
            assert result["seq"] == entry.seq
            assert result["ok"] is (entry.status == "ok")

    def test_reopening_continues_the_chain(self, target: str) -> None:
        half = len(MEMORY) // 2
        kernel = open_kernel(target, clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True)
        try:
            h.run_calls(kernel, MEMORY[:half])
            moment = kernel.clock.now()
        finally:
            kernel.close()
        resumed = ManualClock(moment, step=h.STEP)
        kernel = open_kernel(
            target, clock=resumed, journal_id="j-ignored-once-created", identity=VOUCHED, create=True
        )
        try:
            results = h.run_calls(kernel, MEMORY[half:])
            run = observe(kernel, results)
        finally:
            kernel.close()
        assert run.header[0] == JOURNAL_ID
        expected = run_calls(":memory:", MEMORY)
        assert run.entries == expected.entries
        assert run.digest == expected.digest

    def test_journal_is_append_only(self, target: str) -> None:
        run_calls(target, MEMORY[:3])
        with engine_of(target) as engine:
            for statement in self.append_only_statements:
                with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
                    connection.exec_driver_sql(statement)
        with reader_of(target) as reader:
            assert reader.count() == 3
        assert self._verify(target).verified

    # --- store: transactions and batches ---------------------------------------------------------

    def _store(self, target: str) -> SqlJournalStore:
        return SqlJournalStore(open_engine(target), clock=clock(), journal_id=JOURNAL_ID)

    def test_a_failed_transaction_leaves_nothing(self, target: str) -> None:
        store = self._store(target)
        entry = MemoryLongEntry(
            memory_type=MemoryLongType.PREFERENCE, key="language", created_at=h.T0, source="explicit_user"
        )
        try:
            with pytest.raises(RuntimeError), store.transaction() as tx:
                tx.append(
                    EntryContent(
                        recorded_at="2026-01-01T00:00:01.000000Z",
                        syscall="memory.write",
                        principal=PRINCIPAL,
                        args=b"{}",
                        status="ok",
                        result=b"{}",
                    ),
                    changes=[insert_entry(USER, entry, version=1, seq=tx.next_seq)],
                )
                raise RuntimeError("the handler failed after writing")
            with pytest.raises(StorageError, match="must append"), store.transaction() as tx:
                assert tx.next_seq == 1
            with pytest.raises(StorageError, match="exactly one"), store.transaction() as tx:
                for _ in range(2):
                    tx.append(
                        EntryContent(
                            recorded_at="2026-01-01T00:00:01.000000Z",
                            syscall="kernel.record",
                            principal=PRINCIPAL,
                            args=b"{}",
                            status="ok",
                            result=b"{}",
                        ),
                    )
            with store.transaction() as tx:
                assert tx.next_seq == 1
                kept = tx.append(
                    EntryContent(
                        recorded_at="2026-01-01T00:00:01.000000Z",
                        syscall="kernel.record",
                        principal=PRINCIPAL,
                        args=b'{"kind":"x"}',
                        status="ok",
                        result=b"{}",
                    ),
                )
            assert store.last_entry == kept
            with store.engine.connect() as connection:
                assert list(iter_state_rows(connection, memory_entries)) == []
        finally:
            store.close()
        with reader_of(target) as reader:
            assert [entry.seq for entry in reader.entries()] == [1]

    def test_a_batch_equals_the_same_calls_one_by_one(self, target: str) -> None:
        assert_same_run(run_calls(target, MEMORY, batch=True), run_calls(":memory:", MEMORY))

    def test_a_batch_that_fails_commits_nothing(self, target: str) -> None:
        run_calls(target, MEMORY[:2])
        recorded = [
            RecordedCall(syscall=e.syscall, principal=e.principal, args=e.args, recorded_at=e.recorded_at)
            for e in reference("memory").entries[2:6]
        ]
        kernel = open_kernel(target, clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True)
        try:
            with pytest.raises(RuntimeError), kernel.store.batch() as batch:
                results = [kernel._execute_recorded(call, batch.transaction) for call in recorded]
                assert [result.seq for result in results] == [3, 4, 5, 6]
                raise RuntimeError("the bulk load was interrupted")
            after = observe(kernel, [])
        finally:
            kernel.close()
        expected = run_calls(":memory:", MEMORY[:2])
        assert (after.entries, after.digest) == (expected.entries, expected.digest)

    def test_concurrent_opens_create_one_journal(self, bare_target: str) -> None:
        """Four kernels opening one new database at once migrate it and write its header once."""
        target = bare_target
        barrier = threading.Barrier(4)
        errors: list[BaseException] = []
        heads: list[str] = []

        def open_and_call() -> None:
            try:
                barrier.wait()
                kernel = open_kernel(
                    target, clock=clock(), journal_id=JOURNAL_ID, identity=VOUCHED, create=True
                )
                try:
                    result = kernel.call("kernel.record", {"kind": "hello"}, principal=AGENT)
                    assert result.ok, result.to_dict()
                    heads.append(kernel.store.header.genesis_hash)  # type: ignore[attr-defined]
                finally:
                    kernel.close()
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=open_and_call) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert heads == [genesis_hash(JOURNAL_ID, FORMAT_VERSION)] * 4
        with reader_of(target) as reader:
            assert [entry.seq for entry in reader.entries()] == [1, 2, 3, 4]
        assert self._verify(target).verified

    # --- migrations ------------------------------------------------------------------------------

    def test_a_journal_written_at_0001_upgrades_and_verifies(self, bare_target: str) -> None:
        """Alembic from the first revision to head, on a journal written in between."""
        target = bare_target
        early: list[Call] = [  # calls that touch no table newer than 0001
            ("kernel.record", {"kind": "note", "payload": {"n": n}}, AGENT) for n in range(3)
        ]
        shared = clock()
        old = h.write_at_revision(target, "0001", early, clock=shared, journal_id=JOURNAL_ID)
        later = shared.now()
        assert [result.seq for result in old] == [1, 2, 3]
        with engine_of(target) as fresh:
            assert upgrade_to_head(fresh) == ("0001", head_revision())
            assert current_revision(fresh) == head_revision()
        kernel = open_kernel(
            target,
            clock=ManualClock(later, step=h.STEP),
            journal_id=JOURNAL_ID,
            identity=VOUCHED,
            create=True,
        )
        try:
            h.run_calls(kernel, MEMORY)
        finally:
            kernel.close()
        report = self._verify(target)
        assert report.verified, report.divergence
        expected = run_calls(":memory:", [*early, *MEMORY])
        assert report.head == expected.entries[-1].pos
        assert report.state_digest == expected.digest

    # --- reader ----------------------------------------------------------------------------------

    def test_reader_filters_and_pages_like_the_reference(self, target: str) -> None:
        run_calls(target, MEMORY)
        expected = reference("memory").entries
        since, until = expected[2].recorded_at, expected[9].recorded_at
        filters = [
            JournalFilter(),
            JournalFilter(descending=True),
            JournalFilter(syscall="memory.write"),
            JournalFilter(status="ok"),
            JournalFilter(principal=AGENT),
            JournalFilter(since=since, until=until),
            JournalFilter(after_seq=4, until_seq=12, descending=True),
            JournalFilter(status="memory_entry_expired", principal=AGENT),
        ]
        with reader_of(target) as reader:
            for chosen in filters:
                found = list(reader.entries(chosen, batch=2))
                want = [e for e in expected if _matches(e, chosen)]
                want = want[::-1] if chosen.descending else want
                assert found == want, chosen

    # --- state digest ----------------------------------------------------------------------------

    def test_state_rows_come_in_bytewise_key_order(self, target: str) -> None:
        run_calls(target, COLLATION)
        with engine_of(target) as engine, engine.connect() as connection:
            users = [row["user_id"] for row in iter_state_rows(connection, memory_entries)]
            digest = state_digest(connection)
        assert users == sorted(COLLATION_IDS)  # code point order = UTF-8 byte order
        assert digest == reference("collation").digest

    # --- verification replay ---------------------------------------------------------------------

    def _verify(self, target: str) -> Any:
        with reader_of(target) as reader:
            return verify_journal(reader, table=SYSCALL_TABLE)

    @pytest.mark.parametrize("scenario", sorted(SCENARIOS))
    def test_verification_replays_to_the_reference(self, target: str, scenario: str) -> None:
        run_calls(target, SCENARIOS[scenario])
        report = self._verify(target)
        expected = reference(scenario)
        assert report.verified, report.divergence
        assert report.replayed
        assert (report.entries, report.head) == (len(expected.entries), expected.entries[-1].pos)
        assert report.state_digest == expected.digest

    @pytest.mark.parametrize(("seq", "column"), [(5, "result"), (8, "args"), (3, "recorded_at")])
    def test_tampering_behind_the_triggers_is_named(self, target: str, seq: int, column: str) -> None:
        run = run_calls(target, MEMORY)
        original = getattr(run.entries[seq - 1], column)
        value = original[:-1] + (b"!" if isinstance(original, bytes) else "9")
        assert value != original
        self.tamper(target, seq, column, value)
        report = self._verify(target)
        assert not report.verified
        assert report.divergence is not None and report.divergence.seq == seq

    # --- U+0000, which PostgreSQL text cannot hold -----------------------------------------------

    def test_nul_in_text_is_handled_like_the_reference(self, target: str) -> None:
        """U+0000 (which PostgreSQL text cannot hold) is refused at the edge, alike on every backend."""
        assert_same_run(run_calls(target, NUL_IN_TEXT), run_calls(":memory:", NUL_IN_TEXT))

    # --- any sequence of calls -------------------------------------------------------------------

    # one body, one executor per backend subclass: by design, hence differing_executors is not a hazard here
    @settings(max_examples=12, suppress_health_check=[HealthCheck.differing_executors])
    @given(calls=h.call_sequences)
    def test_any_call_sequence_is_byte_identical(
        self, targets: Callable[[], AbstractContextManager[str]], calls: list[Call]
    ) -> None:
        """Any sequence of calls (valid or not) gives the reference's journal and state, and verifies."""
        expected = run_calls(":memory:", calls)
        with targets() as target:
            assert_same_run(run_calls(target, calls), expected)
            report = self._verify(target)
        assert report.verified, report.divergence
        assert report.state_digest == expected.digest


def _matches(entry: JournalEntry, chosen: JournalFilter) -> bool:
    return (
        (chosen.after_seq is None or entry.seq > chosen.after_seq)
        and (chosen.until_seq is None or entry.seq <= chosen.until_seq)
        and (chosen.since is None or entry.recorded_at >= chosen.since)
        and (chosen.until is None or entry.recorded_at <= chosen.until)
        and (chosen.syscall is None or entry.syscall == chosen.syscall)
        and (chosen.principal is None or entry.principal == chosen.principal)
        and (chosen.status is None or entry.status == chosen.status)
    )


# --------------------------------------------------------------------------------------------------
# the backends


class TestSqlite(Contract):
    """SQLite in a file (WAL), as the kernel runs by default."""

    @pytest.fixture
    def target(self, tmp_path: Path) -> str:
        return str(tmp_path / "journal.db")

    @pytest.fixture
    def bare_target(self, target: str) -> str:
        return target

    @pytest.fixture(scope="class")
    @classmethod
    def targets(cls) -> Callable[[], AbstractContextManager[str]]:
        @contextmanager
        def new() -> Iterator[str]:
            with tempfile.TemporaryDirectory(prefix="arvis-contract-") as directory:
                yield str(Path(directory) / "journal.db")

        return new

    def tamper(self, target: str, seq: int, column: str, value: Any) -> None:
        with engine_of(target) as engine, engine.begin() as connection:
            connection.exec_driver_sql("DROP TRIGGER journal_no_update")
            connection.execute(
                text(f"UPDATE journal SET {column} = :value WHERE seq = :seq"), {"value": value, "seq": seq}
            )


class TestPostgres(Contract):
    """PostgreSQL 15, a new database per test on the session's cluster (ICU en-US collation)."""

    stores_nul_in_text = False
    append_only_statements = (
        *Contract.append_only_statements,
        "TRUNCATE journal",
        "TRUNCATE journal_header",
    )

    @pytest.fixture
    def target(self, pg_url: str) -> str:
        return pg_url

    @pytest.fixture
    def bare_target(self, pg_bare_url: str) -> str:
        return pg_bare_url

    @pytest.fixture(scope="class")
    @classmethod
    def targets(cls, pg_server: pg_cluster.Cluster) -> Callable[[], AbstractContextManager[str]]:
        return lambda: pg_cluster.fresh_database(pg_server)

    def tamper(self, target: str, seq: int, column: str, value: Any) -> None:
        with engine_of(target) as engine, engine.begin() as connection:
            connection.exec_driver_sql("ALTER TABLE journal DISABLE TRIGGER journal_no_update")
            connection.execute(
                text(f"UPDATE journal SET {column} = :value WHERE seq = :seq"), {"value": value, "seq": seq}
            )
            connection.exec_driver_sql("ALTER TABLE journal ENABLE TRIGGER journal_no_update")

    def test_the_test_database_does_not_collate_bytewise(
        self, pg_server: pg_cluster.Cluster, target: str
    ) -> None:
        """So that the collation scenario would catch an ORDER BY that depends on collation."""
        if pg_server.directory is None:
            pytest.skip("an external server (ARVIS_TEST_PG_URL) collates as it was set up")
        with engine_of(target) as engine, engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT 'a' < 'B'").scalar() is True

    def test_durability_settings_reach_the_session(self, target: str) -> None:
        for durability, expected in ((Durability.FULL, "on"), (Durability.OFF, "off")):
            engine = open_engine(target, durability=durability, busy_timeout_ms=1234)
            try:
                with engine.connect() as connection:
                    assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == expected
                    assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "1234ms"
            finally:
                engine.dispose()
        with reader_of(target) as reader, reader.engine.connect() as connection:
            assert connection.exec_driver_sql("SHOW default_transaction_read_only").scalar() == "on"

"""Decide, then write: handlers read and decide, ``journal.apply`` alone writes, and what it writes is
exactly what the entry's effects hash covers (``specs/journal-format.md`` §5)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arvis.awmu.model import UnitStatus
from arvis.awmu.repository import AwmuRepository
from arvis.canonical import canonical_bytes_of_own, sha256_hex
from arvis.changes import Decision, Delete, Insert, Update, Upsert
from journal.entry import EMPTY_EFFECTS_HASH, EntryContent
from kernel.abi import CallContext, Service, Support, SyscallSpec, SyscallTable
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE

USER = "user:u1"


def _write(key: str, ref: str, *, replace: bool = False) -> dict[str, Any]:
    return {
        "user_id": "u1",
        "key": key,
        "memory_type": "preference",
        "source": "explicit_user",
        "value_ref": ref,
        "replace": replace,
    }


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[Kernel]:
    opened = open_kernel(str(tmp_path / "j.db"), create=True)
    try:
        yield opened
    finally:
        opened.close()


def _traced(kernel: Kernel) -> list[str]:
    """Every statement the kernel's SQLite connection runs from now on."""
    statements: list[str] = []
    driver = kernel.store._connection.connection.dbapi_connection  # type: ignore[attr-defined]
    assert isinstance(driver, sqlite3.Connection)
    driver.set_trace_callback(statements.append)
    return statements


def _memory_statements(statements: list[str], verb: str) -> list[str]:
    return [s for s in statements if s.lstrip().upper().startswith(verb) and "memory_entries " in s + " "]


def test_a_superseding_write_reads_the_current_row_once_and_opens_no_savepoint(kernel: Kernel) -> None:
    assert kernel.call("memory.write", _write("language", "en"), principal=USER).ok
    statements = _traced(kernel)
    result = kernel.call("memory.write", _write("language", "fr", replace=True), principal=USER)
    assert result.ok and result.value["superseded"]["value_ref"] == "en"  # type: ignore[index]
    assert not [s for s in statements if "SAVEPOINT" in s.upper()]
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "memory_entries" in s]
    assert len(reads) == 1, reads
    assert len(_memory_statements(statements, "UPDATE")) == 1
    assert len(_memory_statements(statements, "INSERT")) == 1


def test_a_refused_write_writes_nothing_and_hashes_no_effects(kernel: Kernel) -> None:
    assert kernel.call("memory.write", _write("language", "en"), principal=USER).ok
    statements = _traced(kernel)
    refused = kernel.call("memory.write", _write("language", "fr"), principal=USER)
    assert refused.error is not None and refused.error.code == "memory_conflict"
    assert not [s for s in statements if "SAVEPOINT" in s.upper() or "ROLLBACK" in s.upper()]
    assert not _memory_statements(statements, "INSERT") and not _memory_statements(statements, "UPDATE")
    entry = kernel.store.last_entry  # type: ignore[attr-defined]
    assert entry.seq == refused.seq and entry.effects_hash == EMPTY_EFFECTS_HASH


def test_the_effects_hash_covers_exactly_the_change_set_the_domain_returned(kernel: Kernel) -> None:
    first = kernel.call("memory.write", _write("language", "en"), principal=USER)
    second = kernel.call("memory.write", _write("language", "fr", replace=True), principal=USER)
    assert first.ok and second.ok
    entry = kernel.store.last_entry  # type: ignore[attr-defined]
    superseded_at = second.value["superseded"]["superseded_at"]  # type: ignore[index]
    row = {
        "user_id": "u1",
        "key": "language",
        "version": 2,
        **{name: value for name, value in second.value["entry"].items() if name != "governance"},  # type: ignore[union-attr]
        "governance": canonical_bytes_of_own(second.value["entry"]["governance"]).decode(),  # type: ignore[index]
        "written_seq": second.seq,
    }
    expected = [
        {
            "op": "update",
            "table": "memory_entries",
            "where": {"user_id": "u1", "key": "language", "version": 1},
            "set": {"superseded_at": superseded_at},
        },
        {"op": "insert", "table": "memory_entries", "row": row},
    ]
    assert entry.effects_hash == sha256_hex(canonical_bytes_of_own(expected))


_names = st.text(alphabet="abcdefghij_", min_size=1, max_size=8)
_values = st.one_of(st.none(), st.integers(-(2**53), 2**53), st.text(max_size=12))
_rows = st.dictionaries(_names, _values, max_size=6)


@given(table=_names, row=_rows, where=_rows, changed=_rows)
def test_change_records_encode_as_the_effect_dicts_earlier_releases_hashed(
    table: str, row: dict[str, Any], where: dict[str, Any], changed: dict[str, Any]
) -> None:
    """Old journals keep verifying: a typed record's canonical bytes are the hand-built dict's."""
    pairs = [
        (Insert(table, row), {"op": "insert", "table": table, "row": row}),
        (Upsert(table, row), {"op": "upsert", "table": table, "row": row}),
        (Update(table, where, changed), {"op": "update", "table": table, "where": where, "set": changed}),
        (Delete(table, where), {"op": "delete", "table": table, "where": where}),
    ]
    for record, legacy in pairs:
        assert canonical_bytes_of_own([record]) == canonical_bytes_of_own([legacy])
    assert canonical_bytes_of_own([p[0] for p in pairs]) == canonical_bytes_of_own([p[1] for p in pairs])


class NoArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


def _rogue(*changes: Any) -> SyscallSpec:
    def handler(ctx: CallContext, args: NoArgs) -> Decision:
        return Decision({"done": True}, changes)

    return SyscallSpec(
        name="test.rogue",
        request_type=NoArgs,
        handler=handler,
        mutates=True,
        service=Service.ALWAYS,
        support=Support.EXTENSION,
        summary="returns a change the writer must refuse",
    )


@pytest.mark.parametrize(
    "change",
    [
        Insert("journal", {"seq": 99}),
        Delete("journal_header", {"singleton": 1}),
        Insert("memory_entries", {"user_id": "u1", "not_a_column": 1}),
        Update("grants", {"principal": "p"}, {"scope; DROP TABLE grants": "x"}),
        Delete("grants", {"principal": "p"}),  # not the whole primary key: it could remove many rows
        Update("pipeline_runs", {"run_id": "r"}, {"run_id": "s"}),  # a key is never set
        Delete("memory_entries", {"user_id": "u1", "key": "language", "version": 1}),  # counts would drift
        Upsert("graph_store_namespaces", {"namespace": "n"}),  # nothing to update: not an upsert
    ],
)
def test_the_writer_refuses_a_change_outside_the_state_and_nothing_is_acknowledged(
    kernel: Kernel, change: Any
) -> None:
    assert kernel.call("memory.write", _write("language", "en"), principal=USER).ok
    rogue = Kernel(
        table=SyscallTable([*SYSCALL_TABLE.values(), _rogue(change)]),
        services=kernel.services,
        store=kernel.store,
        clock=kernel.clock,
    )
    result = rogue.call("test.rogue", {}, principal=USER)
    assert (result.ok, result.seq, result.error.code if result.error else None) == (
        False,
        None,
        "internal_error",
    )
    listed = kernel.call("memory.list", {"user_id": "u1"}, principal=USER)
    assert listed.ok and listed.seq == 2  # the rogue call took no seq and changed nothing
    assert listed.value["count"] == 1  # type: ignore[index]


def _record(tx: Any, principal: str, *, second: int, changes: Any = ()) -> None:
    """Close a hand-driven transaction with a ``kernel.record`` entry (``changes`` applied)."""
    tx.append(
        EntryContent(
            recorded_at=f"2027-01-01T00:00:0{second}.000000Z",
            syscall="kernel.record",
            principal=principal,
            args=b"{}",
            status="ok",
            result=b"{}",
        ),
        changes=changes,
    )


def test_a_working_memory_call_reads_what_it_staged_before_what_is_stored(kernel: Kernel) -> None:
    agent = "agent:a"
    assert kernel.call("memory.awmu.create", {"context_id": "agent:a/c"}, principal=agent).ok
    proposed = kernel.call(
        "memory.awmu.propose",
        {
            "context_id": "agent:a/c",
            "text": "The user lives in Paris",
            "confidence": 0.9,
        },
        principal=agent,
    )
    assert proposed.ok
    with kernel.store.transaction() as tx:  # type: ignore[attr-defined]
        repo = AwmuRepository(tx.read.awmu)
        (unit,) = repo.units("agent:a/c", [UnitStatus.ACTIVE])
        assert repo.count_units("agent:a/c") == 1
        archived = msgspec.structs.replace(unit, status=UnitStatus.ARCHIVED)
        repo.put_unit(archived)
        added = msgspec.structs.replace(unit, unit_id="u-new", created_seq=unit.created_seq + 1)
        repo.put_unit(added)
        assert repo.get_unit(unit.unit_id) == archived
        assert [u.unit_id for u in repo.units("agent:a/c", [UnitStatus.ACTIVE])] == ["u-new"]
        assert [u.unit_id for u in repo.units("agent:a/c", [UnitStatus.ARCHIVED])] == [unit.unit_id]
        assert repo.count_units("agent:a/c") == 2  # the re-put unit is not counted twice
        assert len(repo.changes) == 2  # kept by the call's view: a refusal drops them with it
        _record(tx, agent, second=0)
    with kernel.store.transaction() as tx:  # type: ignore[attr-defined]
        assert [u.unit_id for u in tx.read.awmu.units("agent:a/c", [UnitStatus.ACTIVE])] == [unit.unit_id]
        assert tx.read.awmu.count_units("agent:a/c") == 1
        _record(tx, agent, second=1)


_GRANT = {"principal": "agent:x", "capability": "read", "scope": "u9", "granted_seq": 1}


def _rogue_kernel(kernel: Kernel, *changes: Any) -> Kernel:
    return Kernel(
        table=SyscallTable([*SYSCALL_TABLE.values(), _rogue(*changes)]),
        services=kernel.services,
        store=kernel.store,
        clock=kernel.clock,
    )


def _grants(kernel: Kernel) -> list[tuple[Any, ...]]:
    driver = kernel.store._connection.connection.dbapi_connection  # type: ignore[attr-defined]
    return list(driver.execute("SELECT principal, scope FROM grants ORDER BY principal, scope"))


def test_a_change_set_the_writer_refuses_writes_none_of_its_changes(kernel: Kernel) -> None:
    """Every change is checked before the first is written: a valid grant ahead of a refused change
    is not written either."""
    rogue = _rogue_kernel(kernel, Insert("grants", _GRANT), Insert("journal", {"seq": 5}))
    result = rogue.call("test.rogue", {}, principal=USER)
    assert (result.ok, result.seq) == (False, None)
    assert _grants(kernel) == []


def test_a_call_whose_changes_fail_half_way_in_a_batch_fails_the_whole_batch(kernel: Kernel) -> None:
    """The second change collides (a duplicate primary key) after the first was written: the call is
    unacknowledged and the batch it ran in cannot commit, so no state is left that no entry explains
    (the path replay and bulk loads take: ``Kernel.execute`` with a batch's transactions)."""
    from kernel.abi import RecordedCall

    duplicate = {**_GRANT, "principal": "agent:y"}
    rogue = _rogue_kernel(
        kernel, Insert("grants", _GRANT), Insert("grants", duplicate), Insert("grants", duplicate)
    )
    recorded = RecordedCall(
        syscall="test.rogue", principal=USER, args=b"{}", recorded_at="2027-01-01T00:00:00.000000Z"
    )
    store = kernel.store
    with pytest.raises(Exception, match="batch"), store.batch() as batch:  # type: ignore[attr-defined]
        failed = rogue._execute_recorded(recorded, batch.transaction)
        assert (failed.ok, failed.seq) == (False, None)
    assert _grants(kernel) == []
    listed = kernel.call("memory.list", {"user_id": "u1"}, principal=USER)
    assert listed.ok and listed.seq == 1  # nothing of the batch was committed


def test_a_pending_review_put_again_keeps_its_place(kernel: Kernel) -> None:
    """Two stored pending items with one created_seq: re-putting the first (still pending) leaves the
    order the stored rows have, as it will be once written."""
    from arvis.awmu.model import ReviewItem

    agent = "agent:a"
    assert kernel.call("memory.awmu.create", {"context_id": "agent:a/c"}, principal=agent).ok
    with kernel.store.transaction() as tx:  # type: ignore[attr-defined]
        repo = AwmuRepository(tx.read.awmu)
        items = [
            msgspec.convert(
                {
                    "review_id": name,
                    "context_id": "agent:a/c",
                    "created_seq": 5,
                    "status": "PENDING",
                    "text": name,
                    "source": "user",
                    "confidence": 0.5,
                    "trust_score": 0.5,
                    "trust_signals": {},
                    "authority_ceiling": "PROVISIONAL",
                },
                ReviewItem,
            )
            for name in ("r5-a", "r5-b")
        ]
        for item in items:
            repo.put_review(item)
        _record(tx, agent, second=0, changes=repo.changes)
    with kernel.store.transaction() as tx:  # type: ignore[attr-defined]
        repo = AwmuRepository(tx.read.awmu)
        stored = [item.review_id for item in repo.pending_reviews("agent:a/c")]
        repo.put_review(items[0])
        assert [item.review_id for item in repo.pending_reviews("agent:a/c")] == stored
        _record(tx, agent, second=1)


def test_a_failure_between_the_writes_and_the_entry_fails_the_batch(
    kernel: Kernel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second call's changes are written, then hashing its entry fails: the call is answered
    unacknowledged, and the batch (driven as replay drives it) cannot commit its rows."""
    import journal.transaction as store_module
    from arvis.canonical import canonical_bytes
    from kernel.abi import RecordedCall

    real, seen = store_module.compute_entry_hash, [0]

    def failing_once(**fields: Any) -> str:
        seen[0] += 1
        if seen[0] == 2:
            raise RuntimeError("hashing failed")
        return real(**fields)

    monkeypatch.setattr(store_module, "compute_entry_hash", failing_once)
    recorded = [
        RecordedCall(
            syscall="memory.write",
            principal=USER,
            args=canonical_bytes(_write(key, "x")),
            recorded_at=f"2027-01-01T00:00:0{index}.000000Z",
        )
        for index, key in enumerate(("a", "b", "c"))
    ]
    with pytest.raises(Exception, match="batch"), kernel.store.batch() as batch:  # type: ignore[attr-defined]
        answers = [kernel._execute_recorded(call, batch.transaction) for call in recorded]
        assert [answer.seq for answer in answers] == [1, None, 2]
    monkeypatch.setattr(store_module, "compute_entry_hash", real)
    listed = kernel.call("memory.list", {"user_id": "u1"}, principal=USER)
    assert listed.ok and listed.seq == 1 and listed.value["count"] == 0  # type: ignore[index]


def test_a_change_set_the_writer_refuses_does_not_fail_the_batch(kernel: Kernel) -> None:
    """It is refused before anything is written: the call is unacknowledged, the batch goes on."""
    from arvis.canonical import canonical_bytes
    from kernel.abi import RecordedCall

    rogue = _rogue_kernel(kernel, Insert("grants", _GRANT), Insert("journal", {"seq": 5}))
    refused = RecordedCall(
        syscall="test.rogue", principal=USER, args=b"{}", recorded_at="2027-01-01T00:00:00.000000Z"
    )
    write = RecordedCall(
        syscall="memory.write",
        principal=USER,
        args=canonical_bytes(_write("a", "x")),
        recorded_at="2027-01-01T00:00:01.000000Z",
    )
    with kernel.store.batch() as batch:  # type: ignore[attr-defined]
        assert rogue._execute_recorded(refused, batch.transaction).seq is None
        assert rogue._execute_recorded(write, batch.transaction).seq == 1
    assert _grants(kernel) == []
    listed = kernel.call("memory.list", {"user_id": "u1"}, principal=USER)
    assert listed.ok and listed.value["count"] == 1  # type: ignore[index]

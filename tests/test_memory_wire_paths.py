"""``memory.list`` and ``memory.get`` on the wire path: the same bytes as the typed path they replaced.

The kernel builds both results from the stored rows' wire forms (fixed-form time texts, governance as
stored canonical JSON, ``msgspec.Raw``), never from typed ``MemoryLongEntry`` objects. Old journals are
re-executed and compared byte for byte, so every result must be the typed implementation's, kept here
as the reference (``TypedMemoryService``: the code ``MemoryService.list`` and ``get`` ran before).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import (
    NOTES,
    T0,
    USER_SOURCES,
    entries,
    entry_lists,
    fresh_kernel,
    governances,
    journal_entries,
)

from arvis.canonical import canonical_bytes_of_own, format_time, plain
from arvis.memory.errors import MemoryErrorCode, MemoryRuleError
from arvis.memory.memory_long_entry import EntryStatus, MemoryLongEntry, MemoryLongType
from arvis.memory.memory_rows import COLUMNS
from arvis.memory.memory_service import MemoryService, entry_from_row, validate_key
from arvis.memory.snapshot_wire import build_list_wire, wire_status
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.services import default_services
from syscalls.boot import open_kernel

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

# --------------------------------------------------------------------------------------------------
# the reference: the typed implementation the wire path replaced


def _typed_list(repo: Any, user_id: str) -> list[MemoryLongEntry]:
    """The typed entries of ``user_id``: a test repository's own, or the SQL store's rows decoded by
    ``entry_from_row`` (the typed reading the store had before its wire path)."""
    if isinstance(repo, StoredRepository):
        return repo.list_entries(user_id=user_id)
    names = ", ".join(f'"{name}"' for name in COLUMNS)
    query = f'SELECT {names} FROM memory_entries WHERE user_id = :user_id ORDER BY "key", version'
    rows = repo._sql.rows(query, {"user_id": user_id})
    entries = [entry_from_row(dict(zip(COLUMNS, row, strict=True))) for row in rows]
    return sorted(entries, key=lambda entry: entry.sort_key)


def _typed_get(repo: Any, user_id: str, key: str) -> MemoryLongEntry | None:
    if isinstance(repo, StoredRepository):
        return repo.get_entry(user_id=user_id, key=key)
    found = repo.current(user_id=user_id, key=key)
    return None if found is None else found.entry


@dataclass(frozen=True)
class TypedMemoryService(MemoryService):
    """``MemoryService`` with ``list`` and ``get`` as they were: typed entries, formatted back."""

    def list(
        self, repo: StoredRepository, *, user_id: str, now: datetime, include_inactive: bool
    ) -> dict[str, Any]:
        entries = _typed_list(repo, user_id)
        items = [
            {"entry": entry.to_wire(), "status": entry.status_at(now).value}
            for entry in sorted(entries, key=lambda entry: entry.sort_key)
            if include_inactive or entry.is_active(now)
        ]
        return {"user_id": user_id, "entries": items, "count": len(items)}

    def get(self, repo: StoredRepository, *, user_id: str, key: str, now: datetime) -> dict[str, Any]:
        validate_key(key)
        entry = _typed_get(repo, user_id, key)
        if entry is None:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_NOT_FOUND, f"no entry for key '{key}'")
        status = entry.status_at(now)
        if status is EntryStatus.REVOKED:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_REVOKED, f"entry '{key}' was revoked")
        if status is EntryStatus.EXPIRED:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_EXPIRED, f"entry '{key}' has expired")
        return {"user_id": user_id, "entry": entry.to_wire(), "status": status.value}


class StoredRepository:
    """Entries kept in write ("version") order, read back as the SQL store reads them: typed through
    ``list_entries``/``get_entry``, or as rows (``list_entry_wires``/``get_entry_wire``, governance as
    its stored canonical text)."""

    def __init__(self, entries: list[MemoryLongEntry]) -> None:
        self.entries = entries

    def list_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        return sorted(self.entries, key=lambda entry: entry.sort_key)

    def get_entry(self, *, user_id: str, key: str) -> MemoryLongEntry | None:
        current = [entry for entry in self.entries if entry.key == key and entry.superseded_at is None]
        return current[-1] if current else None

    @staticmethod
    def _row(entry: MemoryLongEntry) -> dict[str, Any]:
        wire = entry.to_wire()
        return {**wire, "governance": msgspec.Raw(canonical_bytes_of_own(wire["governance"]))}

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        return [self._row(entry) for entry in self.entries]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        entry = self.get_entry(user_id=user_id, key=key)
        return None if entry is None else self._row(entry)


def _journaled(outcome: dict[str, Any] | MemoryRuleError) -> bytes:
    """The bytes a handler's value, or its refusal, leaves in the journal."""
    if isinstance(outcome, MemoryRuleError):
        return canonical_bytes_of_own({"code": outcome.code.value, "detail": outcome.detail})
    return canonical_bytes_of_own({"ok": True, "value": outcome})


def _get(service: MemoryService, repository: StoredRepository, key: str, now: datetime) -> bytes:
    try:
        return _journaled(service.get(repository, user_id="u1", key=key, now=now))
    except MemoryRuleError as refusal:
        return _journaled(refusal)


# --------------------------------------------------------------------------------------------------
# the service over random histories


def _squeezed(entry: MemoryLongEntry) -> MemoryLongEntry:
    """The entry with each moment moved to a whole second in T0 .. T0+5s."""

    def squeeze(moment: datetime) -> datetime:
        return T0 + timedelta(seconds=(moment - T0).seconds // 40)

    return dataclasses.replace(
        entry,
        created_at=squeeze(entry.created_at),
        **{
            name: None if moment is None else squeeze(moment)
            for name in ("expires_at", "revoked_at", "superseded_at")
            for moment in [getattr(entry, name)]
        },
    )


close_entry_lists = st.lists(entries().map(_squeezed), max_size=12)
"""Histories whose expiries often fall on the call's time, with frequent created_at ties."""
histories = entry_lists | close_entry_lists
call_offsets = st.integers(min_value=0, max_value=250) | st.integers(min_value=0, max_value=6)


@given(histories, call_offsets, st.booleans())
def test_list_is_the_typed_list_byte_for_byte(
    items: list[MemoryLongEntry], offset: int, include_inactive: bool
) -> None:
    """Expired (``expires_at == now`` included), revoked, superseded entries, equal (created_at, key,
    memory_type) triples, with and without ``include_inactive``."""
    now = T0 + timedelta(seconds=offset)
    repository = StoredRepository(items)
    typed = TypedMemoryService().list(repository, user_id="u1", now=now, include_inactive=include_inactive)
    wired = MemoryService().list(repository, user_id="u1", now=now, include_inactive=include_inactive)
    assert _journaled(wired) == _journaled(typed)
    assert plain(wired) == typed
    # typed entries in wire form (governance a dict): same bytes
    default = _DefaultWires(items).list_entry_wires(user_id="u1")
    built = build_list_wire(default, now=format_time(now), include_inactive=include_inactive)
    assert bytes(built.entries) == canonical_bytes_of_own(typed["entries"])
    assert built.count == typed["count"]


@given(histories, call_offsets)
def test_get_is_the_typed_get_byte_for_byte(items: list[MemoryLongEntry], offset: int) -> None:
    """Every key of the history, one it lacks and an invalid one: the same result or refusal."""
    now = T0 + timedelta(seconds=offset)
    repository = StoredRepository(items)
    for key in sorted({entry.key for entry in items} | {"absent", " bad"}):
        typed = _get(TypedMemoryService(), repository, key, now)
        assert _get(MemoryService(), repository, key, now) == typed
        # the typed entry in wire form (governance a dict): same bytes
        assert _get(MemoryService(), _DefaultWires(items), key, now) == typed


class _DefaultWires(StoredRepository):
    """Rows as ``to_wire`` of the typed entries gives them (governance a dict, not stored text)."""

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        return [entry.to_wire() for entry in self.list_entries(user_id=user_id)]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        entry = self.get_entry(user_id=user_id, key=key)
        return None if entry is None else entry.to_wire()


@given(histories, call_offsets)
def test_wire_status_is_status_at(items: list[MemoryLongEntry], offset: int) -> None:
    now = T0 + timedelta(seconds=offset)
    for entry in items:
        assert wire_status(entry.to_wire(), format_time(now)) == entry.status_at(now).value


def test_get_of_a_current_entry_marked_superseded_answers_as_the_typed_path_did() -> None:
    """Not reachable through a store (a current entry is never superseded), kept equal all the same."""
    superseded = MemoryLongEntry(
        memory_type=MemoryLongType.PREFERENCE,
        key="k",
        created_at=T0,
        source="explicit_user",
        superseded_at=T0 + timedelta(seconds=1),
    )

    class Superseded(StoredRepository):
        def get_entry(self, *, user_id: str, key: str) -> MemoryLongEntry | None:
            return superseded

    repository = Superseded([superseded])
    now = T0 + timedelta(seconds=5)
    typed = _get(TypedMemoryService(), repository, "k", now)
    assert _get(MemoryService(), repository, "k", now) == typed
    assert b'"status":"superseded"' in typed


# --------------------------------------------------------------------------------------------------
# through the kernel: the same calls journaled by each implementation, compared entry by entry

KEYS = ("language", "timezone", "no_calls", "a b")


@dataclass(frozen=True)
class Write:
    key: str
    memory_type: str
    source: str
    notes: str | None
    expires_in: int | None  # half-seconds after the call's time; 0 and below are refused
    offset_minutes: int  # the UTC offset the expiry is written with
    governance: dict[str, str] | None
    replace: bool


@dataclass(frozen=True)
class Revoke:
    key: str


@dataclass(frozen=True)
class Tick:
    halves: int  # half-seconds: expiries fall on the call's time


@dataclass(frozen=True)
class ListCall:
    include_inactive: bool


@dataclass(frozen=True)
class GetCall:
    key: str


Operation = Write | Revoke | Tick | ListCall | GetCall

writes = st.builds(
    Write,
    key=st.sampled_from(KEYS),
    memory_type=st.sampled_from([member.value for member in MemoryLongType]),
    source=st.sampled_from(USER_SOURCES),
    notes=st.none() | st.sampled_from(NOTES),
    expires_in=st.none() | st.integers(min_value=-1, max_value=8),
    offset_minutes=st.sampled_from([0, 120, -330]),
    governance=st.none() | governances.map(lambda governance: governance.to_wire()),
    replace=st.booleans(),
)
operations = st.lists(
    st.one_of(
        writes,
        st.builds(Revoke, key=st.sampled_from(KEYS)),
        st.builds(Tick, halves=st.integers(min_value=0, max_value=4)),
        st.builds(ListCall, include_inactive=st.booleans()),
        st.builds(GetCall, key=st.sampled_from((*KEYS, "absent", " bad"))),
    ),
    max_size=40,
)


def _args(operation: Operation, now: datetime) -> tuple[str, dict[str, Any]] | None:
    """The call an operation makes at ``now`` (None for a tick)."""
    user = {"user_id": "u1"}
    if isinstance(operation, Write):
        args: dict[str, Any] = {
            **user,
            "key": operation.key,
            "memory_type": operation.memory_type,
            "source": operation.source,
            "replace": operation.replace,
        }
        if operation.notes is not None:
            args["notes"] = operation.notes
        if operation.governance is not None:
            args["governance"] = operation.governance
        if operation.expires_in is not None:
            expiry = now + timedelta(milliseconds=500 * operation.expires_in)
            zone = timezone(timedelta(minutes=operation.offset_minutes))
            args["expires_at"] = expiry.astimezone(zone).isoformat()
        return "memory.write", args
    if isinstance(operation, Revoke):
        return "memory.revoke", {**user, "key": operation.key}
    if isinstance(operation, ListCall):
        return "memory.list", {**user, **({"include_inactive": True} if operation.include_inactive else {})}
    if isinstance(operation, GetCall):
        return "memory.get", {**user, "key": operation.key}
    return None


def _journal_of(operations: list[Operation], service: MemoryService, target: str = ":memory:") -> list[Any]:
    """Every journal entry (result bytes as journaled, chained hash) and every call's result."""
    # a still clock, off the whole second: writes at one moment give equal ordering triples
    clock = ManualClock(T0 + timedelta(microseconds=123_456))
    services = dataclasses.replace(default_services(), memory_service=service)
    if target == ":memory:":
        with fresh_kernel(clock, services=services, journal_id="wire-paths") as kernel:
            results = _run(kernel, clock, operations)
            return [*_entries(kernel), *results]
    kernel = open_kernel(target, clock=clock, services=services, journal_id="wire-paths", create=True)
    try:
        results = _run(kernel, clock, operations)
        return [*_entries(kernel), *results]
    finally:
        kernel.close()


def _run(kernel: Kernel, clock: ManualClock, operations: list[Operation]) -> list[Any]:
    """The results of the calls, as their callers get them (decoded from the journaled bytes)."""
    results = []
    for operation in operations:
        if isinstance(operation, Tick):
            clock.advance(timedelta(milliseconds=500 * operation.halves))
            continue
        call = _args(operation, clock.now())
        assert call is not None
        results.append(kernel.call(call[0], call[1], principal="user:u1"))
    # every key read at the end, with the whole history listed
    clock.advance(timedelta(seconds=2))
    results.append(
        kernel.call("memory.list", {"user_id": "u1", "include_inactive": True}, principal="user:u1")
    )
    results.append(kernel.call("memory.list", {"user_id": "u1"}, principal="user:u1"))
    for key in KEYS:
        results.append(kernel.call("memory.get", {"user_id": "u1", "key": key}, principal="user:u1"))
    return [(result.seq, result.ok, result.error, result.value) for result in results]


def _entries(kernel: Kernel) -> list[Any]:
    return [
        (entry.seq, entry.syscall, entry.status, entry.result, entry.entry_hash)
        for entry in journal_entries(kernel)
    ]


@settings(max_examples=40)
@given(operations)
def test_the_kernel_journals_the_typed_results_byte_for_byte(operations: list[Operation]) -> None:
    """Writes (replacing, expiring at any offset, governed, noted), revokes and time passing, then
    ``memory.list`` (both filters) and ``memory.get``: every journal entry, result bytes and chained
    hash, is the one the typed implementation journals."""
    typed = _journal_of(operations, TypedMemoryService())
    assert _journal_of(operations, MemoryService()) == typed
    assert sum(1 for item in typed if item[1] in ("memory.list", "memory.get")) == 2 + len(KEYS) + sum(
        1 for operation in operations if isinstance(operation, ListCall | GetCall)
    )


def test_a_file_journal_of_every_status_matches_the_typed_one(tmp_path: Path) -> None:
    """On a SQLite file (the SQL store's rows, not a test double): active, expired (at its very
    expiry and after), revoked and superseded entries, listed and got."""
    script: list[Operation] = [
        Write("language", "preference", "explicit_user", None, 6, 120, None, False),
        Write("timezone", "context", "onboarding", "ttl_default", None, 0, None, False),
        Write("timezone", "context", "proposed", None, 10, -330, {"visibility": "sealed"}, True),
        Write("no_calls", "constraint", "explicit_user", None, None, 0, None, False),
        Revoke("no_calls"),
        Write("no_calls", "constraint", "explicit_user", None, None, 0, None, False),
        Write("a b", "style", "explicit_user", None, None, 0, None, False),
        Revoke("a b"),
        ListCall(True),
        GetCall("language"),
        Tick(6),  # the very expiry of "language"
        ListCall(False),
        ListCall(True),
        GetCall("language"),
        GetCall("timezone"),
        GetCall("no_calls"),
    ]
    typed = _journal_of(script, TypedMemoryService(), str(tmp_path / "typed.db"))
    wired = _journal_of(script, MemoryService(), str(tmp_path / "wired.db"))
    assert wired == typed
    listed = [value for *_, value in typed if isinstance(value, dict) and "entries" in value]
    statuses = {item["status"] for value in listed for item in value["entries"]}
    assert statuses == {"active", "expired", "revoked", "superseded"}
    got = {entry[2] for entry in typed if entry[1] == "memory.get"}
    assert got == {"ok", "memory_entry_expired", "memory_entry_revoked"}


def test_the_sql_store_reads_the_current_entry_as_its_typed_wire_form(tmp_path: Path) -> None:
    kernel = open_kernel(str(tmp_path / "j.db"), clock=ManualClock(T0), create=True)
    try:
        write = {"user_id": "u1", "key": "k", "memory_type": "rule", "source": "explicit_user"}
        assert kernel.call("memory.write", write, principal="user:u1").ok
        replaced = {**write, "replace": True, "governance": {"sharing": "never_share"}}
        assert kernel.call("memory.write", replaced, principal="user:u1").ok
        store = kernel.store
        assert isinstance(store, SqlJournalStore)
        with h.memory_reader(store) as repository:
            typed = _typed_get(repository, "u1", "k")
            wire = repository.get_entry_wire(user_id="u1", key="k")
            assert repository.get_entry_wire(user_id="u1", key="absent") is None
    finally:
        kernel.close()
    assert typed is not None and wire is not None
    assert canonical_bytes_of_own(wire) == canonical_bytes_of_own(typed.to_wire())
    assert plain(wire)["governance"]["sharing"] == "never_share"


def test_rows_read_by_key_and_version_sort_as_rows_read_by_version(tmp_path: Path) -> None:
    """The store reads a user's rows by (key, version), straight off the primary key, where it read
    them by version alone: after the stable sort in the spec's order, the same entries in the same
    order, versions of a key written at one moment (equal ordering triples) included."""
    import sqlite3

    path = tmp_path / "j.db"
    clock = ManualClock(T0)
    kernel = open_kernel(str(path), clock=clock, create=True)
    try:
        for round_ in range(3):
            for key in ("zeta", "alpha", "no_calls", "mid"):
                args = {"user_id": "u1", "key": key, "memory_type": "rule", "source": "explicit_user"}
                assert kernel.call("memory.write", {**args, "replace": True}, principal="user:u1").ok
            if round_ == 1:
                clock.advance(timedelta(seconds=1))
        store = kernel.store
        assert isinstance(store, SqlJournalStore)
        with h.memory_reader(store) as repository:
            typed = [entry.to_wire() for entry in _typed_list(repository, "u1")]
            listed = MemoryService().list(repository, user_id="u1", now=clock.now(), include_inactive=True)
    finally:
        kernel.close()
    names = ", ".join(f'"{name}"' for name in COLUMNS)
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            f"SELECT {names} FROM memory_entries WHERE user_id = 'u1' ORDER BY version"
        ).fetchall()
    by_version = [entry_from_row(dict(zip(COLUMNS, row, strict=True))) for row in rows]
    expected = [entry.to_wire() for entry in sorted(by_version, key=lambda entry: entry.sort_key)]
    assert len(expected) == 12
    assert typed == expected
    assert [item["entry"] for item in plain(listed)["entries"]] == expected

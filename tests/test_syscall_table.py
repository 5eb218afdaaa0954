"""``syscalls/table.py`` is the one table: every name written out there as a literal, its rows exactly the
calls the kernel has served (names, mutates, service), its services the registry's, and its retired names
refused (``specs/kernel-syscalls.md`` §2)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest
from contract_calls import WRITE
from journal_helpers import make_clock, reader_of, verify
from strategies import VOUCHED

from journal.engine import open_engine
from journal.store import SqlJournalStore
from kernel.abi import (
    READ_CHANGED_STATE,
    CallContext,
    Flag,
    Service,
    Support,
    SyscallSpec,
    SyscallTable,
    SyscallTableError,
)
from kernel.arguments import MAX_ARGS_BYTES, MAX_VALUE_ARGS_BYTES
from kernel.dispatcher import Kernel
from kernel.registry import KernelServiceRegistry
from syscalls import graph_args, working_memory
from syscalls import table as table_module
from syscalls.boot import default_services, open_kernel
from syscalls.table import RETIRED, SYSCALL_TABLE

TABLE_SOURCE = Path(table_module.__file__)

EXPECTED: list[tuple[str, bool, str]] = [
    ("access.grant", True, "always"),
    ("access.list", False, "always"),
    ("access.revoke", True, "always"),
    ("graph.blobs.get", False, "always"),
    ("graph.checkpoint.get", False, "always"),
    ("graph.checkpoint.list", False, "always"),
    ("graph.checkpoint.put", True, "always"),
    ("graph.checkpoint.put_writes", True, "always"),
    ("graph.namespace.create", True, "always"),
    ("graph.runs.delete", True, "always"),
    ("graph.store.get", True, "always"),
    ("graph.store.list_namespaces", False, "always"),
    ("graph.store.put", True, "always"),
    ("graph.store.search", True, "always"),
    ("graph.thread.copy", True, "always"),
    ("graph.thread.create", True, "always"),
    ("graph.thread.delete", True, "always"),
    ("graph.thread.prune", True, "always"),
    ("kernel.record", True, "always"),
    ("memory.awmu.archive", True, "working_memory_service"),
    ("memory.awmu.assemble", False, "working_memory_service"),
    ("memory.awmu.canonize", True, "working_memory_service"),
    ("memory.awmu.close", True, "working_memory_service"),
    ("memory.awmu.create", True, "working_memory_service"),
    ("memory.awmu.events", False, "working_memory_service"),
    ("memory.awmu.get", False, "working_memory_service"),
    ("memory.awmu.list", False, "working_memory_service"),
    ("memory.awmu.pin", True, "working_memory_service"),
    ("memory.awmu.pressure", False, "working_memory_service"),
    ("memory.awmu.propose", True, "working_memory_service"),
    ("memory.awmu.reopen_request", True, "working_memory_service"),
    ("memory.awmu.restore", True, "working_memory_service"),
    ("memory.awmu.review", True, "working_memory_service"),
    ("memory.awmu.seed", True, "working_memory_service"),
    ("memory.awmu.turn", True, "working_memory_service"),
    ("memory.awmu.unpin", True, "working_memory_service"),
    ("memory.awmu.validate_summary", True, "working_memory_service"),
    ("memory.get", False, "memory_service"),
    ("memory.list", False, "memory_service"),
    ("memory.revoke", True, "memory_service"),
    ("memory.snapshot", False, "memory_service"),
    ("memory.write", True, "memory_service"),
    ("pipeline.begin", True, "memory_service"),
    ("pipeline.end", True, "memory_service"),
]
"""The table as it stood before it became one file (issue 15): a row changes here only on purpose."""

UPSTREAM = {"memory.get", "memory.list", "memory.revoke", "memory.snapshot", "memory.write"}
"""The calls ARVIS-MEM-01 §11.1 names."""


def _literal_rows() -> list[tuple[Any, ...]]:
    """Every row of ``ROWS`` in ``syscalls/table.py``, each field as written (a literal's value, otherwise
    its source text), with the line it is written on."""
    source = TABLE_SOURCE.read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "ROWS":
            assert isinstance(node.value, ast.Tuple)
            rows = []
            for row in node.value.elts:
                assert isinstance(row, ast.Tuple) and row.lineno == row.end_lineno, "one line a row"
                fields = [f.value if isinstance(f, ast.Constant) else ast.unparse(f) for f in row.elts]
                rows.append((*fields, row.lineno))
            return rows
    raise AssertionError("syscalls/table.py writes no ROWS")


def test_every_registered_name_is_a_literal_in_the_table_file() -> None:
    rows = _literal_rows()
    names = [row[0] for row in rows]
    assert all(isinstance(name, str) for name in names)
    assert sorted(names) == list(SYSCALL_TABLE)
    source = TABLE_SOURCE.read_text(encoding="utf-8")
    for name in SYSCALL_TABLE:
        assert source.count(f'"{name}"') == 1, name


def test_every_row_is_one_line_of_five_fields() -> None:
    """Name, handler, service, flags, summary: each a literal or a name, on the row's one line."""
    for name, handler, service, flags, summary, _line in _literal_rows():
        assert handler == SYSCALL_TABLE[name].handler.__module__.rsplit(".", 1)[1] + "." + (
            SYSCALL_TABLE[name].handler.__name__
        )
        assert service in ("ALWAYS", "MEMORY", "WORKING"), name
        assert set(str(flags).split(" | ")) <= {"READ", "MUTATES", "UPSTREAM", "CARRIES_VALUES"}, name
        assert isinstance(summary, str) and summary, name


def test_the_table_content_is_unchanged() -> None:
    found = [(name, spec.mutates, spec.service.value) for name, spec in SYSCALL_TABLE.items()]
    assert found == EXPECTED


def test_the_request_type_is_the_handlers_annotation() -> None:
    """No row names its request type: it is the handler's second parameter's, read from its signature."""
    for name, spec in SYSCALL_TABLE.items():
        parameters = list(inspect.signature(spec.handler).parameters)
        assert typing.get_type_hints(spec.handler)[parameters[1]] is spec.request_type, name


def _untyped(ctx: CallContext, args: dict[str, Any]) -> dict[str, Any]:
    return args


def test_a_handler_whose_signature_names_no_request_type_fails_the_table() -> None:
    with pytest.raises(SyscallTableError, match=r"'test\.untyped': the handler's signature names no"):
        SyscallTable.of([("test.untyped", _untyped, Service.ALWAYS, Flag.READ, "a call")])


def test_flags_become_the_spec_fields() -> None:
    assert SYSCALL_TABLE["memory.get"].support is Support.UPSTREAM
    assert not SYSCALL_TABLE["memory.get"].mutates
    assert SYSCALL_TABLE["graph.store.put"].max_args_bytes == MAX_VALUE_ARGS_BYTES
    assert SYSCALL_TABLE["graph.store.get"].max_args_bytes == MAX_ARGS_BYTES
    copy = SYSCALL_TABLE["graph.thread.copy"]
    assert copy.earlier_request_types == ((5, graph_args.BoundedCopyArgs),)
    assert (
        copy.request_type_in(4) is graph_args.BoundedCopyArgs and copy.request_type_in(5) is copy.request_type
    )
    assert SYSCALL_TABLE["graph.runs.delete"].earlier_request_types == ()
    propose = SYSCALL_TABLE["memory.awmu.propose"]
    assert propose.request_type_in(5) is working_memory.SourcedProposeArgs
    assert propose.request_type_in(6) is working_memory.ProposeArgs
    put = SYSCALL_TABLE["graph.checkpoint.put"]  # two changes: thread ids (format 5), hashes (format 8)
    assert [put.request_type_in(version) for version in (4, 5, 7, 8)] == [
        graph_args.BoundedPutArgs,
        graph_args.HashedPutArgs,
        graph_args.HashedPutArgs,
        graph_args.PutArgs,
    ]
    changed = {name for name, spec in SYSCALL_TABLE.items() if spec.earlier_request_types}
    assert changed == {
        name for name in SYSCALL_TABLE if name.startswith(("graph.checkpoint.", "graph.thread."))
    } | {"memory.awmu.propose", "memory.awmu.seed"}


def test_rows_are_typed() -> None:
    for name, spec in SYSCALL_TABLE.items():
        assert type(spec.service) is Service, name
        assert type(spec.support) is Support, name
        assert issubclass(spec.request_type, msgspec.Struct), name
        assert callable(spec.handler), name


def test_support_levels() -> None:
    """UPSTREAM exactly for ARVIS-MEM-01's five calls; everything else is this project's own."""
    assert {name for name, spec in SYSCALL_TABLE.items() if spec.support is Support.UPSTREAM} == UPSTREAM
    assert set(Support) == {Support.UPSTREAM, Support.EXTENSION}


def test_spec_fields_are_keyword_only() -> None:
    spec = SYSCALL_TABLE["memory.get"]
    build: Any = SyscallSpec
    with pytest.raises(TypeError, match="positional"):
        build(spec.name, spec.request_type, spec.handler, False, Service.MEMORY, Support.UPSTREAM, "summary")


def test_every_service_is_an_attribute_of_the_registry() -> None:
    """A service's value is the ``KernelServiceRegistry`` attribute the dispatcher reads."""
    attributes = {field.name for field in dataclasses.fields(KernelServiceRegistry)}
    assert {service.value for service in Service if service is not Service.ALWAYS} <= attributes
    assert {spec.service for spec in SYSCALL_TABLE.values()} == set(Service)


@pytest.mark.parametrize(
    ("name", "args", "detail"),
    [
        ("memory.get", {"user_id": "u1", "key": "language"}, "memory_service is not bound"),
        ("pipeline.end", {"run_id": "r1"}, "memory_service is not bound"),
        ("memory.awmu.list", {"context_id": "c1"}, "working_memory_service is not bound"),
    ],
)
def test_an_unbound_service_is_refused_with_its_name(
    tmp_path: Path, name: str, args: dict[str, Any], detail: str
) -> None:
    db = tmp_path / "j.db"
    clock = make_clock()
    store = SqlJournalStore(open_engine(str(db)), clock=clock)
    kernel = Kernel(table=SYSCALL_TABLE, services=KernelServiceRegistry(), store=store, clock=clock)
    try:
        result = kernel.call(name, args, principal="user:u1")
        recorded = kernel.call("kernel.record", {"kind": "note"}, principal="user:u1")
    finally:
        kernel.close()
    assert result.error is not None
    assert (result.error.code, result.error.detail) == ("no_memory_service", detail)
    assert recorded.ok  # Service.ALWAYS needs nothing bound
    report = verify(db)  # replayed with that service unbound, as recorded
    assert report.verified and report.replayed, report.to_json()


def test_retired_is_an_empty_typed_tuple_disjoint_from_the_table() -> None:
    assert RETIRED == ()
    assert typing.get_type_hints(table_module)["RETIRED"] == tuple[str, ...]
    assert SYSCALL_TABLE.retired == frozenset(RETIRED)
    assert not SYSCALL_TABLE.retired & set(SYSCALL_TABLE)


class _NoArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


def _forget(ctx: CallContext, args: _NoArgs) -> dict[str, Any]:
    return {}


_FORGET = SyscallSpec(
    name="memory.forget",
    request_type=_NoArgs,
    handler=_forget,
    mutates=False,
    service=Service.ALWAYS,
    support=Support.EXTENSION,
    summary="a call that was retired",
)


def test_a_retired_name_cannot_be_registered_again() -> None:
    with pytest.raises(SyscallTableError, match=r"'memory\.forget' is retired"):
        SyscallTable([*SYSCALL_TABLE.values(), _FORGET], retired=("memory.forget",))


def test_a_retired_name_is_refused_as_unknown_syscall(tmp_path: Path) -> None:
    """An old journal's call to a retired name is answered, and replays, as ``unknown_syscall``."""
    db = tmp_path / "j.db"
    table = SyscallTable(SYSCALL_TABLE.values(), retired=("memory.forget",))
    assert "memory.forget" not in table
    clock = make_clock()
    store = SqlJournalStore(open_engine(str(db)), clock=clock)
    kernel = Kernel(table=table, services=default_services(), store=store, clock=clock)
    try:
        result = kernel.call("memory.forget", {}, principal="user:u1")
    finally:
        kernel.close()
    assert result.error is not None and result.error.code == "unknown_syscall"
    with reader_of(db) as reader:
        entries = list(reader.entries())
    assert [(entry.syscall, entry.status) for entry in entries] == [("memory.forget", "unknown_syscall")]
    report = verify(db, table=table)
    assert report.verified and report.replayed, report.to_json()


def _reread(db: Path, table: SyscallTable, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The calls' answers (code and value) on a kernel over ``db`` with ``table``, in order."""
    clock = make_clock()
    kernel = Kernel(
        table=table,
        services=default_services(),
        store=SqlJournalStore(open_engine(str(db)), clock=clock),
        clock=clock,
    )
    try:
        results = [kernel.call(name, args, principal="user:u1") for name, args in calls]
    finally:
        kernel.close()
    return [(result.error.code if result.error else "ok", result.value) for result in results]


def _flagged_as_read(name: str) -> SyscallTable:
    """A copy of the table with one mutating row deliberately flagged as a read."""
    wrong = dataclasses.replace(SYSCALL_TABLE[name], mutates=False)
    return SyscallTable([*(spec for other, spec in SYSCALL_TABLE.items() if other != name), wrong])


@pytest.mark.parametrize(
    ("name", "args", "reread", "reread_args"),
    [
        # the memory writer returns its changes in a Decision
        ("memory.write", {**WRITE, "value_ref": "ref-1"}, "memory.get", {"user_id": "u1", "key": "language"}),
        # a graph repository stages its changes on the transaction
        ("graph.thread.create", {"thread_id": "t1"}, "graph.checkpoint.list", {"thread_id": "t1"}),
    ],
)
def test_a_read_whose_decision_changes_state_is_a_journaled_kernel_error(
    tmp_path: Path, name: str, args: dict[str, Any], reread: str, reread_args: dict[str, Any]
) -> None:
    """A row that says "read" for a call that decides changes is the table's error: the call is refused
    ``internal_error`` (journaled, nothing written), and the journal replays to the same refusal."""
    db = tmp_path / "j.db"
    table = _flagged_as_read(name)
    refused, after = _reread(db, table, [(name, args), (reread, reread_args)])
    assert refused == ("internal_error", None)
    assert (
        after == _reread(tmp_path / "empty.db", SYSCALL_TABLE, [(reread, reread_args)])[0]
    )  # nothing written
    with reader_of(db) as reader:
        entries = list(reader.entries())
    assert [(entry.syscall, entry.status) for entry in entries] == [
        (name, "internal_error"),
        (reread, after[0]),
    ]
    assert READ_CHANGED_STATE.encode() in entries[0].result
    report = verify(db, table=table)
    assert report.verified and report.replayed, report.to_json()
    assert not verify(db).verified  # the true table replays the call as accepted: a different journal


def test_a_table_set_on_a_kernel_decodes_the_calls_it_adds() -> None:
    """``Kernel.table`` set to another table: a call the first table lacked is decoded with its own request
    type and answered, not refused ``internal_error`` for want of a decoder."""
    again = dataclasses.replace(SYSCALL_TABLE["memory.list"], name="memory.list_again")
    kernel = open_kernel(":memory:", identity=VOUCHED, create=True)
    try:
        kernel.table = SyscallTable([*SYSCALL_TABLE.values(), again])
        listed = kernel.call("memory.list_again", {"user_id": "u1"}, principal="user:u1")
        assert listed.ok, listed
    finally:
        kernel.close()

"""The syscall table: one immutable mapping, built once, refusing duplicate names."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest
from strategies import MEMORY_SYSCALLS

from kernel.abi import CallContext, Service, Support, SyscallSpec, SyscallTable, SyscallTableError
from syscalls.table import SYSCALL_TABLE


class NoArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


def _handler(ctx: CallContext, args: NoArgs) -> dict[str, Any]:
    return {}


def spec(name: str, summary: str = "a test syscall") -> SyscallSpec:
    return SyscallSpec(
        name=name,
        request_type=NoArgs,
        handler=_handler,
        mutates=False,
        service=Service.MEMORY,
        support=Support.EXTENSION,
        summary=summary,
    )


def test_duplicate_name_raises() -> None:
    with pytest.raises(SyscallTableError, match=r"'test\.a' is registered twice"):
        SyscallTable([spec("test.a"), spec("test.b"), spec("test.a", "another summary")])


def test_duplicate_of_a_real_syscall_raises() -> None:
    with pytest.raises(SyscallTableError):
        SyscallTable([*SYSCALL_TABLE.values(), spec("memory.write")])


def test_table_error_is_a_value_error() -> None:
    assert issubclass(SyscallTableError, ValueError)


def test_the_shipped_table_holds_the_long_term_memory_family() -> None:
    memory_long = {name for name in SYSCALL_TABLE if name.startswith("memory.") and name.count(".") == 1}
    assert memory_long == set(MEMORY_SYSCALLS)
    assert {name for name in memory_long if SYSCALL_TABLE[name].mutates} == {"memory.write", "memory.revoke"}
    for name in MEMORY_SYSCALLS:
        assert SYSCALL_TABLE[name].service == "memory_service"


def test_every_shipped_row_is_well_formed() -> None:
    assert list(SYSCALL_TABLE) == sorted(SYSCALL_TABLE)
    assert len(SYSCALL_TABLE) == len(list(SYSCALL_TABLE))
    for name, row in SYSCALL_TABLE.items():
        assert row.name == name
        assert row.summary
        assert issubclass(row.request_type, msgspec.Struct)


def test_lookup() -> None:
    table = SyscallTable([spec("test.b"), spec("test.a")])
    assert list(table) == ["test.a", "test.b"]
    assert "test.a" in table
    assert "test.c" not in table
    assert table.get("test.c") is None
    assert table["test.b"].name == "test.b"
    with pytest.raises(KeyError):
        table["test.c"]


def test_table_cannot_be_changed_through_the_mapping_interface() -> None:
    table = SyscallTable([spec("test.a")])
    with pytest.raises(TypeError):
        table["test.b"] = spec("test.b")  # type: ignore[index]
    with pytest.raises(TypeError):
        del table["test.a"]  # type: ignore[attr-defined]
    for method in ("update", "pop", "popitem", "clear", "setdefault"):
        assert not hasattr(table, method)
    assert list(table) == ["test.a"]


def test_table_is_a_copy_of_its_specs() -> None:
    specs = [spec("test.a")]
    table = SyscallTable(specs)
    specs.append(spec("test.b"))
    specs.clear()
    assert list(table) == ["test.a"]


def test_specs_are_frozen() -> None:
    row = SYSCALL_TABLE["memory.write"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.mutates = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.handler = _handler  # type: ignore[misc]
    assert SYSCALL_TABLE["memory.write"].mutates is True


def test_shipped_table_cannot_be_changed() -> None:
    with pytest.raises(TypeError):
        SYSCALL_TABLE["memory.delete"] = spec("memory.delete")  # type: ignore[index]
    assert "memory.delete" not in SYSCALL_TABLE

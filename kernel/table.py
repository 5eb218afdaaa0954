"""The syscall table as data: one immutable mapping from name to spec, built once.

``syscalls/table.py`` writes each row on one line (``Row``): the name, the handler, the family's service
(``Service``), its flags (``Flag``) and a one-line summary; the request type is the handler's second
parameter's annotation, read from its signature (``spec_of``). ``specs/kernel-syscalls.md`` §2."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Flag as _Flag
from enum import StrEnum, auto
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from kernel.arguments import MAX_ARGS_BYTES, MAX_VALUE_ARGS_BYTES

if TYPE_CHECKING:
    from kernel.abi import CallContext


class Handler(Protocol):
    """A syscall's handler: the call's context and its decoded request in, its decision or value out."""

    def __call__(self, ctx: CallContext, request: Any, /) -> Any: ...


class Service(StrEnum):
    """The service a syscall needs bound in ``KernelServiceRegistry``: each value but ``ALWAYS`` is the name
    of the registry's attribute, and a call whose service is unbound answers ``no_memory_service`` with
    detail ``<value> is not bound``. ``ALWAYS`` needs none, so it is never refused for want of a service."""

    MEMORY = "memory_service"
    WORKING_MEMORY = "working_memory_service"
    ALWAYS = "always"


class Support(StrEnum):
    """Where a syscall's name and contract come from (``specs/kernel-syscalls.md`` §2.1)."""

    UPSTREAM = "upstream"
    """Named by upstream arvis's specification, ARVIS-MEM-01 §11.1 (``memory.list``, ``get``, ``snapshot``,
    ``write``, ``revoke``), over the upstream-compatible ``arvis.memory`` (``memory-syscalls.md`` §10).
    Upstream designs these calls but registers none, so there is no upstream implementation to match."""
    EXTENSION = "extension"
    """This project's own syscall: its name and contract are defined by this project's specs only."""


class Flag(_Flag):
    """A row's flags; ``READ`` (none set) is a call that changes no state."""

    READ = 0
    MUTATES = auto()
    """The call may change state; a row without it whose decision changes state is refused, as a kernel
    error (``internal_error``, journaled: ``kernel.abi.Execution``)."""
    UPSTREAM = auto()
    """``Support.UPSTREAM``; without it a row is ``Support.EXTENSION``."""
    CARRIES_VALUES = auto()
    """The values stored come with the call: its arguments may be up to ``MAX_VALUE_ARGS_BYTES``."""


Row = tuple[str, Handler, Service, Flag, str]
"""One line of ``syscalls/table.py``: name, handler, service, flags, summary."""


class SyscallTableError(ValueError):
    """The table is malformed (a name registered twice, a retired name registered again, or a handler
    whose signature names no request type)."""


@dataclass(frozen=True, kw_only=True)
class SyscallSpec:
    """One row of the table: the name, the typed request, the handler and how it behaves."""

    name: str
    request_type: type[Any]
    handler: Handler
    mutates: bool
    service: Service
    support: Support
    summary: str
    max_args_bytes: int = MAX_ARGS_BYTES
    """The longest canonical arguments the call accepts (more is refused ``invalid_args``, journaled)."""
    earlier_request_types: tuple[tuple[int, type[Any]], ...] = ()
    """``(format, type)`` for each change of the request's type, oldest first: journals before that format
    decode with that type, so their refusals replay (``syscalls.table.EARLIER``)."""

    def request_type_in(self, format_version: int) -> type[Any]:
        """The type a call's arguments decode into in a journal of ``format_version``."""
        earlier = (kind for until, kind in self.earlier_request_types if format_version < until)
        return next(earlier, self.request_type)


def spec_of(row: Row, earlier: Mapping[type[Any], tuple[tuple[int, type[Any]], ...]]) -> SyscallSpec:
    """A row as its spec; ``earlier`` maps a request type to its ``earlier_request_types``. The request
    type is the annotation of the handler's second parameter (the first is its ``CallContext``): the
    msgspec struct its arguments are strictly decoded into."""
    name, handler, service, flags, summary = row
    parameters = list(inspect.signature(handler).parameters)
    request_type = typing.get_type_hints(handler).get(parameters[1]) if len(parameters) == 2 else None
    if not (isinstance(request_type, type) and issubclass(request_type, msgspec.Struct)):
        raise SyscallTableError(f"syscall {name!r}: the handler's signature names no request type")
    return SyscallSpec(
        name=name,
        request_type=request_type,
        handler=handler,
        mutates=Flag.MUTATES in flags,
        service=service,
        support=Support.UPSTREAM if Flag.UPSTREAM in flags else Support.EXTENSION,
        summary=summary,
        max_args_bytes=MAX_VALUE_ARGS_BYTES if Flag.CARRIES_VALUES in flags else MAX_ARGS_BYTES,
        earlier_request_types=earlier.get(request_type, ()),
    )


class SyscallTable(Mapping[str, SyscallSpec]):
    """Immutable: built from specs once; a duplicate name fails at construction (so at import).

    ``retired`` names calls the table once served and serves no more: a call to one is refused as any
    name outside the table is (``unknown_syscall``), and registering one again fails (names are never
    reused)."""

    def __init__(self, specs: Iterable[SyscallSpec], *, retired: Iterable[str] = ()) -> None:
        self._retired = frozenset(retired)
        table: dict[str, SyscallSpec] = {}
        for spec in specs:
            if spec.name in table:
                raise SyscallTableError(f"syscall {spec.name!r} is registered twice")
            if spec.name in self._retired:
                raise SyscallTableError(f"syscall {spec.name!r} is retired: its name is never reused")
            table[spec.name] = spec
        self._specs = table

    @classmethod
    def of(
        cls,
        rows: Iterable[Row],
        *,
        earlier: Mapping[type[Any], tuple[tuple[int, type[Any]], ...]] | None = None,
        retired: Iterable[str] = (),
    ) -> SyscallTable:
        """The table of one-line rows (``Row``)."""
        return cls((spec_of(row, earlier or {}) for row in rows), retired=retired)

    @property
    def retired(self) -> frozenset[str]:
        """The names retired from this table (none of them is in it)."""
        return self._retired

    def args_limit(self, name: str) -> int:
        """The argument limit of the call ``name`` (the kernel's default for a name outside the table)."""
        spec = self._specs.get(name)
        return MAX_ARGS_BYTES if spec is None else spec.max_args_bytes

    def __getitem__(self, name: str) -> SyscallSpec:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._specs))

    def __len__(self) -> int:
        return len(self._specs)

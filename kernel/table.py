"""The syscall table as data: one immutable mapping from name to spec, built once.

Each row (``SyscallSpec``) is written out with keyword fields only, so that ``syscalls/table.py`` reads as
the table itself: the name, the typed request, the handler, whether it changes state, the service it needs
(``Service``), its support level (``Support``) and a one-line summary (``specs/kernel-syscalls.md`` §2)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kernel.abi import CallContext
from kernel.arguments import MAX_ARGS_BYTES

__all__ = [
    "Handler",
    "ReplayPolicy",
    "Service",
    "Support",
    "SyscallSpec",
    "SyscallTable",
    "SyscallTableError",
]

Handler = Callable[[CallContext, Any], Any]


class ReplayPolicy(StrEnum):
    JOURNAL_ONLY_REPLAY = "journal_only_replay"


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


class SyscallTableError(ValueError):
    """The table is malformed (a name registered twice, or a retired name registered again)."""


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
    replay_policy: ReplayPolicy = ReplayPolicy.JOURNAL_ONLY_REPLAY
    max_args_bytes: int = MAX_ARGS_BYTES
    """The longest canonical arguments the call accepts (more is refused ``invalid_args``, journaled)."""
    bounded_request_type: type[Any] | None = None
    """The request's type in journals whose access rules predate ``AccessRules.THREAD_IDS`` (formats 1
    to 4), when it differed: graph thread ids of at most 122 characters (``syscalls.graph_args``)."""


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

"""The syscall table as data: one immutable mapping from name to spec, built once."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kernel.abi import CallContext

__all__ = ["Handler", "ReplayPolicy", "SyscallSpec", "SyscallTable", "SyscallTableError"]

Handler = Callable[[CallContext, Any], Any]


class ReplayPolicy(StrEnum):
    JOURNAL_ONLY_REPLAY = "journal_only_replay"


class SyscallTableError(ValueError):
    """The table is malformed (a name registered twice)."""


@dataclass(frozen=True)
class SyscallSpec:
    """One row of the table: the name, the typed request, the handler and how it behaves."""

    name: str
    request_type: type[Any]
    handler: Handler
    mutates: bool
    summary: str
    service: str = "memory_service"  # the registry attribute it needs; "always" needs none
    replay_policy: ReplayPolicy = ReplayPolicy.JOURNAL_ONLY_REPLAY


class SyscallTable(Mapping[str, SyscallSpec]):
    """Immutable: built from specs once; a duplicate name fails at construction (so at import)."""

    def __init__(self, specs: Iterable[SyscallSpec]) -> None:
        table: dict[str, SyscallSpec] = {}
        for spec in specs:
            if spec.name in table:
                raise SyscallTableError(f"syscall {spec.name!r} is registered twice")
            table[spec.name] = spec
        self._specs = table

    def __getitem__(self, name: str) -> SyscallSpec:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._specs))

    def __len__(self) -> int:
        return len(self._specs)

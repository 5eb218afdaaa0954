"""The deterministic view of a user's long-term memory at one moment (ARVIS-MEM-01 §4.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from arvis.canonical import format_time, parse_time
from arvis.memory.memory_long_entry import MemoryLongEntry

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def utcnow() -> datetime:
    """The wall clock's time in UTC (upstream's ``arvis.types.timestamps.utcnow``): the only wall clock in
    ``arvis/``, read by upstream's calls that omit ``now`` and never on the kernel's path, which passes the
    call's journaled time. Callers look it up on this module when they run, so a test can replace it."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class MemoryLongSnapshot:
    """Active entries in the spec's order plus counts; ``created_at`` is the call's time, not the wall's.

    ``active_entries`` is a tuple so that the snapshot cannot be changed after it was built; a list given
    upstream's way (``MemoryLongSnapshot(active_entries=[...])``) is stored as a tuple.
    """

    active_entries: tuple[MemoryLongEntry, ...] = ()
    total_entries: int = 0
    revoked_entries: int = 0
    last_updated_at: datetime | None = None
    notes: str | None = None
    created_at: datetime = field(default=EPOCH)

    def __post_init__(self) -> None:
        if type(self.active_entries) is not tuple:
            object.__setattr__(self, "active_entries", tuple(self.active_entries))

    @property
    def entries(self) -> tuple[MemoryLongEntry, ...]:
        return self.active_entries

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> MemoryLongSnapshot:
        """The snapshot back from its JSON form (the inverse of ``to_wire``)."""
        last = wire["last_updated_at"]
        return cls(
            active_entries=tuple(MemoryLongEntry.from_wire(entry) for entry in wire["active_entries"]),
            total_entries=int(wire["total_entries"]),
            revoked_entries=int(wire["revoked_entries"]),
            last_updated_at=None if last is None else parse_time(last),
            notes=wire["notes"],
            created_at=parse_time(wire["created_at"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """The JSON form used in results and hashes."""
        return {
            "active_entries": [entry.to_wire() for entry in self.active_entries],
            "created_at": format_time(self.created_at),
            "last_updated_at": (None if self.last_updated_at is None else format_time(self.last_updated_at)),
            "notes": self.notes,
            "revoked_entries": self.revoked_entries,
            "total_entries": self.total_entries,
        }

"""Snapshot construction: repository → policy → snapshot (ARVIS-MEM-01 §9)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from arvis.canonical import format_time, parse_time
from arvis.memory import wall_clock
from arvis.memory.memory_long_entry import MemoryLongEntry
from arvis.memory.memory_long_repository import MemoryLongRepository
from arvis.memory.memory_long_snapshot import MemoryLongSnapshot
from arvis.memory.snapshot_wire import build_snapshot_wire

__all__ = ["MemoryLongService", "build_snapshot"]


def build_snapshot(entries: Iterable[MemoryLongEntry], *, now: datetime) -> MemoryLongSnapshot:
    """Build the snapshot of one user's entries (history included) as of ``now``: the kernel's own
    snapshot (``build_snapshot_wire``, the one implementation of its rules) seen as typed entries. A naive
    ``now`` is read as UTC (the typed code before compared it with aware expiries and failed on any)."""
    given = list(entries)
    wires = [entry.wire_view() for entry in given]
    built = build_snapshot_wire(wires, now=format_time(now if now.tzinfo else now.replace(tzinfo=UTC)))
    typed = {id(wire): entry for wire, entry in zip(wires, given, strict=True)}
    last = built.wire["last_updated_at"]
    return MemoryLongSnapshot(
        active_entries=tuple(typed[id(wire)] for wire in built.active),
        total_entries=built.wire["total_entries"],
        revoked_entries=built.wire["revoked_entries"],
        last_updated_at=None if last is None else parse_time(last),
        created_at=now,
    )


class MemoryLongService:
    """Reads snapshots from a repository.

    ``now`` is optional, as upstream's: without it the snapshot is taken at the wall clock's time
    (``wall_clock.utcnow``), as upstream stamps it. The kernel never calls this class: its snapshots are
    built by ``build_snapshot`` at the call's journaled time.
    """

    def __init__(self, repository: MemoryLongRepository) -> None:
        self.repository = repository

    def get_snapshot(self, *, user_id: str, now: datetime | None = None) -> MemoryLongSnapshot:
        moment = wall_clock.utcnow() if now is None else now
        return build_snapshot(self.repository.list_entries(user_id=user_id), now=moment)

    def get_snapshots_batch(
        self, *, user_ids: Iterable[str], now: datetime | None = None
    ) -> dict[str, MemoryLongSnapshot]:
        moment = wall_clock.utcnow() if now is None else now  # one time for the whole batch
        return {user_id: self.get_snapshot(user_id=user_id, now=moment) for user_id in sorted(set(user_ids))}

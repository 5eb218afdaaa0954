"""Snapshot construction: repository → policy → snapshot (ARVIS-MEM-01 §9)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from arvis.memory import wall_clock
from arvis.memory.memory_long_entry import EntryStatus, MemoryLongEntry
from arvis.memory.memory_long_repository import MemoryLongRepository
from arvis.memory.memory_long_snapshot import MemoryLongSnapshot

__all__ = ["MemoryLongService", "build_snapshot"]


def build_snapshot(entries: Iterable[MemoryLongEntry], *, now: datetime) -> MemoryLongSnapshot:
    """Build the snapshot of one user's entries (history included) as of ``now``."""
    ordered = sorted(entries, key=lambda entry: entry.sort_key)
    active = tuple(entry for entry in ordered if entry.status_at(now) is EntryStatus.ACTIVE)
    moments = [entry.created_at for entry in ordered]
    moments += [entry.revoked_at for entry in ordered if entry.revoked_at is not None]
    moments += [entry.superseded_at for entry in ordered if entry.superseded_at is not None]
    return MemoryLongSnapshot(
        active_entries=active,
        total_entries=len(ordered),
        revoked_entries=sum(1 for entry in ordered if entry.revoked_at is not None),
        last_updated_at=max(moments) if moments else None,
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

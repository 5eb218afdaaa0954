"""Snapshot construction: repository → policy → snapshot (ARVIS-MEM-01 §9)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

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

    ``now`` keeps upstream's optional signature but is required: there is no wall clock to fall back on.
    """

    def __init__(self, repository: MemoryLongRepository) -> None:
        self.repository = repository

    def get_snapshot(self, *, user_id: str, now: datetime | None = None) -> MemoryLongSnapshot:
        if now is None:
            raise TypeError("get_snapshot needs the call's time: pass now=")
        return build_snapshot(self.repository.list_entries(user_id=user_id), now=now)

    def get_snapshots_batch(
        self, *, user_ids: Iterable[str], now: datetime | None = None
    ) -> dict[str, MemoryLongSnapshot]:
        return {user_id: self.get_snapshot(user_id=user_id, now=now) for user_id in sorted(set(user_ids))}

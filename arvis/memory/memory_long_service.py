"""Snapshots of the entries a host's repository holds (upstream arvis's ``MemoryLongService``), built by
the kernel's own snapshot rules (``snapshot_wire.build_snapshot_wire``): the same order, expiry and
counts as ``memory.snapshot``. The kernel never calls it: its snapshots are taken at the call's
journaled time (``arvis.memory.memory_service``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from arvis.canonical import format_time, parse_time
from arvis.memory import memory_long_snapshot
from arvis.memory.memory_long_entry import MemoryLongEntry
from arvis.memory.memory_long_repository import MemoryLongRepository
from arvis.memory.memory_long_snapshot import MemoryLongSnapshot
from arvis.memory.snapshot_wire import build_snapshot_wire


def build_snapshot(entries: Iterable[MemoryLongEntry], *, now: datetime) -> MemoryLongSnapshot:
    """The snapshot of one user's entries as of ``now``: the kernel's snapshot seen as typed entries. A
    naive ``now`` is read as UTC."""
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
    """Cognition-safe facade over a repository: active entries and snapshots, no payload, no inference.

    A snapshot is built from the repository's ``list_active_entries`` at ``now`` (without it, the wall
    clock's time, ``memory_long_snapshot.utcnow``): an entry the repository still lists once its expiry
    has passed is left out, and the snapshot's time is ``now``."""

    def __init__(self, repository: MemoryLongRepository) -> None:
        self.repository = repository

    def get_snapshot(self, *, user_id: str, now: datetime | None = None) -> MemoryLongSnapshot:
        """The snapshot of the user's active long-term memory."""
        moment = memory_long_snapshot.utcnow() if now is None else now
        return build_snapshot(self.repository.list_active_entries(user_id=user_id), now=moment)

    def get_snapshots_batch(
        self, *, user_ids: Iterable[str], now: datetime | None = None
    ) -> dict[str, MemoryLongSnapshot]:
        """One snapshot per user the repository's batch read returns, all at one time, in user order."""
        moment = memory_long_snapshot.utcnow() if now is None else now
        raw = self.repository.list_active_entries_batch(user_ids=user_ids)
        return {user_id: build_snapshot(raw[user_id], now=moment) for user_id in sorted(raw)}

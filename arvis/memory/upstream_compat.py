"""Upstream compatibility: the pieces of upstream arvis's ``arvis.memory`` that no syscall uses, kept only
so that code written against upstream (``Julien-Lefauconnier/arvis`` at ``d4db816``) still imports and runs
(``specs/memory-syscalls.md`` §10). Nothing in the kernel, the syscalls or the journal imports this module;
``arvis.memory`` re-exports its names, and ``tests/test_upstream_compat.py`` holds them to upstream's.

It is also the only place in ``arvis/`` that reads a wall clock (``utcnow``): upstream's one-argument
``MemoryLongPolicyGate.validate_append(entry)`` and ``MemoryLongService.get_snapshot(user_id=...)`` stamp
the wall clock's time, where the kernel always passes the call's journaled ``recorded_at``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from arvis.canonical import format_time, parse_time
from arvis.memory import memory_long_policy_gate
from arvis.memory.governance import Governance, compose_strictest
from arvis.memory.memory_long_entry import MemoryLongEntry
from arvis.memory.memory_long_snapshot import MemoryLongSnapshot
from arvis.memory.snapshot_wire import build_snapshot_wire

__all__ = [
    "MemoryGate",
    "MemoryIntent",
    "MemoryLongPolicyGate",
    "MemoryLongRecord",
    "MemoryLongRepository",
    "MemoryLongService",
    "build_snapshot",
    "utcnow",
]


def utcnow() -> datetime:
    """The current time in UTC (upstream's ``arvis.types.timestamps.utcnow``). Callers look it up on this
    module at call time (``upstream_compat.utcnow()``), so a test can replace it."""
    return datetime.now(UTC)


class MemoryIntent(StrEnum):
    """How sure the caller is that something should be remembered."""

    NONE = "none"
    CANDIDATE = "candidate"
    CONFIRMED = "confirmed"


class MemoryGate:
    """Allows memorisation only for ``MemoryIntent.CONFIRMED``."""

    @staticmethod
    def allow(intent: MemoryIntent) -> bool:
        return intent is MemoryIntent.CONFIRMED


@dataclass(frozen=True)
class MemoryLongRecord:
    """An entry together with its encrypted payload; the kernel never decrypts it (it stores none)."""

    entry: MemoryLongEntry
    payload_ciphertext: bytes
    nonce: bytes


class MemoryLongPolicyGate(memory_long_policy_gate.MemoryLongPolicyGate):
    """The kernel's append policy with upstream's signatures: ``now`` may be omitted (the wall clock is
    then read, and only for an entry with an ``expires_at``), and ``compose`` is upstream's."""

    def validate_append(self, entry: MemoryLongEntry, *, now: datetime | None = None) -> None:
        if now is None:  # the policy reads ``now`` only to judge an expiry: without one, any time will do
            now = entry.created_at if entry.expires_at is None else utcnow()
        super().validate_append(entry, now=now)

    def compose(self, *, personal: Governance, organization: Governance) -> Governance:
        """The organization's policy is a floor: the stricter value of each lever wins."""
        return compose_strictest(personal, organization)


class MemoryLongRepository(ABC):
    """Upstream's storage contract (ARVIS-MEM-01 §5), keyword-only, per user: a repository stores; it
    applies no policy and no projection. Every returned collection is ordered by (created_at, key,
    memory_type). The kernel reads through ``arvis.memory.memory_service.MemoryReader`` instead."""

    @abstractmethod
    def list_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        """Every entry of the user, history included (revoked, superseded, expired)."""

    @abstractmethod
    def list_active_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        """Entries neither revoked nor superseded (expiry is policy, judged by the caller at its time)."""

    @abstractmethod
    def list_active_entries_batch(self, *, user_ids: list[str]) -> dict[str, list[MemoryLongEntry]]:
        """``list_active_entries`` for several users; every requested user is a key of the result."""

    @abstractmethod
    def get_entry(self, *, user_id: str, key: str) -> MemoryLongEntry | None:
        """The current entry for (user_id, key): the latest one not superseded, revoked or not."""

    @abstractmethod
    def add_entry(self, *, user_id: str, entry: MemoryLongEntry) -> None:
        """Store a new entry; the caller guarantees no current entry is active for its key."""

    @abstractmethod
    def replace_entry(
        self, *, user_id: str, entry: MemoryLongEntry, superseded_at: datetime
    ) -> MemoryLongEntry | None:
        """Mark the current entry for the key superseded at ``superseded_at`` and store ``entry``; the
        superseded entry, or None when there was no current entry."""

    @abstractmethod
    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> bool:
        """Set ``revoked_at`` on the current entry; False when there is none or it is already revoked."""

    def count_entries(self, *, user_id: str) -> int:
        """How many entries the user has, history included."""
        return len(self.list_entries(user_id=user_id))

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        """``list_entries`` in wire form (``MemoryLongEntry.to_wire``), versions of a key in version order."""
        return [entry.to_wire() for entry in self.list_entries(user_id=user_id)]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        """``get_entry`` in wire form (``MemoryLongEntry.to_wire``)."""
        entry = self.get_entry(user_id=user_id, key=key)
        return None if entry is None else entry.to_wire()


def build_snapshot(entries: Iterable[MemoryLongEntry], *, now: datetime) -> MemoryLongSnapshot:
    """The snapshot of one user's entries (history included) as of ``now``: the kernel's own snapshot
    (``build_snapshot_wire``, the one implementation of its rules) seen as typed entries. A naive ``now``
    is read as UTC (the typed code before compared it with aware expiries and failed on any)."""
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
    """Reads snapshots from a repository, as upstream's does: without ``now`` the snapshot is taken at the
    wall clock's time (``utcnow``). The kernel never calls this class: its snapshots are built at the
    call's journaled time (``arvis.memory.memory_service``)."""

    def __init__(self, repository: MemoryLongRepository) -> None:
        self.repository = repository

    def get_snapshot(self, *, user_id: str, now: datetime | None = None) -> MemoryLongSnapshot:
        moment = utcnow() if now is None else now
        return build_snapshot(self.repository.list_entries(user_id=user_id), now=moment)

    def get_snapshots_batch(
        self, *, user_ids: Iterable[str], now: datetime | None = None
    ) -> dict[str, MemoryLongSnapshot]:
        moment = utcnow() if now is None else now  # one time for the whole batch
        return {user_id: self.get_snapshot(user_id=user_id, now=moment) for user_id in sorted(set(user_ids))}

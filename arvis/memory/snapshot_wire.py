"""The snapshot and the listing built straight from entries in their wire form (ARVIS-MEM-01 §9),
without typed entries: the one implementation of the snapshot's rules (the typed, upstream-compatible
``build_snapshot`` is a view of it).

The rules of ``MemoryLongEntry.status_at`` (tested against it), applied to fixed-form time texts, which
sort and compare in time order: a snapshot or a listing of 10,000 entries is built without parsing or
formatting 30,000 times. The entries' JSON is encoded once, and the snapshot, its hashes and the call's
result embed those bytes (``msgspec.Raw``) instead of encoding the entries again for each.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from arvis.canonical import canonical_bytes_of_own, sha256_hex
from arvis.memory.memory_long_entry import EntryStatus

_ACTIVE = EntryStatus.ACTIVE.value
_EXPIRED = EntryStatus.EXPIRED.value
_REVOKED = EntryStatus.REVOKED.value
_SUPERSEDED = EntryStatus.SUPERSEDED.value


_sort_key = operator.itemgetter("created_at", "key", "memory_type")
"""The spec's order: (created_at, key, memory_type), compared as text."""


@dataclass(frozen=True)
class SnapshotWire:
    """A snapshot's JSON form with its entries pre-encoded, the keys of its active entries, and the
    two hashes of ``MemoryService.snapshot``."""

    wire: dict[str, Any]
    active: list[Mapping[str, Any]]
    """The active entries, the very mappings given, in the snapshot's order."""
    active_keys: list[str]
    snapshot_hash: str
    content_hash: str


def build_snapshot_wire(entries: Iterable[Mapping[str, Any]], *, now: str) -> SnapshotWire:
    """``entries``: every entry of one user (history included) in wire form, versions of a key in
    version order; ``now``: the call's time in fixed form. Status: revoked, else superseded, else expired
    when ``expires_at <= now``, else active."""
    ordered = sorted(entries, key=_sort_key)
    active: list[Mapping[str, Any]] = []
    revoked = 0
    last: str | None = None
    for entry in ordered:
        created, revoked_at, superseded_at = entry["created_at"], entry["revoked_at"], entry["superseded_at"]
        if last is None or created > last:
            last = created
        if revoked_at is not None:
            revoked += 1
            if revoked_at > last:
                last = revoked_at
        if superseded_at is not None and superseded_at > last:
            last = superseded_at
        if revoked_at is None and superseded_at is None:
            expires_at = entry["expires_at"]
            if expires_at is None or expires_at > now:
                active.append(entry)
    listed = msgspec.Raw(canonical_bytes_of_own(active))
    wire = {
        "active_entries": listed,
        "created_at": now,
        "last_updated_at": last,
        "notes": None,
        "revoked_entries": revoked,
        "total_entries": len(ordered),
    }
    return SnapshotWire(
        wire=wire,
        active=active,
        active_keys=[entry["key"] for entry in active],
        snapshot_hash=sha256_hex(canonical_bytes_of_own(wire)),
        content_hash=sha256_hex(canonical_bytes_of_own({**wire, "created_at": None})),
    )


def wire_status(entry: Mapping[str, Any], now: str) -> str:
    """``MemoryLongEntry.status_at`` on an entry's wire form, ``now`` in fixed form: revoked, else
    superseded, else expired when ``expires_at <= now``, else active (the status's text)."""
    if entry["revoked_at"] is not None:
        return _REVOKED
    if entry["superseded_at"] is not None:
        return _SUPERSEDED
    expires_at = entry["expires_at"]
    if expires_at is not None and expires_at <= now:
        return _EXPIRED
    return _ACTIVE


@dataclass(frozen=True)
class ListWire:
    """The items of ``memory.list`` (``{"entry": <entry>, "status": <status>}`` in the spec's order),
    encoded once as canonical JSON, and how many there are."""

    entries: msgspec.Raw
    count: int


def build_list_wire(entries: Iterable[Mapping[str, Any]], *, now: str, include_inactive: bool) -> ListWire:
    """``entries``: every entry of one user (history included) in wire form, versions of a key in
    version order; ``now``: the call's time in fixed form. Every entry when ``include_inactive``, else
    the active ones only, each with its status at ``now`` (``wire_status``)."""
    items: list[dict[str, Any]] = []
    for entry in sorted(entries, key=_sort_key):
        status = wire_status(entry, now)
        if include_inactive or status == _ACTIVE:
            items.append({"entry": entry, "status": status})
    return ListWire(entries=msgspec.Raw(canonical_bytes_of_own(items)), count=len(items))

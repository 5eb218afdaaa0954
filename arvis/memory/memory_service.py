"""The memory service bound in the kernel registry: the five ARVIS-MEM-01 operations as pure rules.

Each operation takes a reader of the current transaction and the call's time, and only reads: a write
or a revoke returns its result with the changes it decided (``arvis.changes.Decision``) to the rows of
``memory_entries`` (``memory_rows``), which the journal applies; a refusal raises ``MemoryRuleError`` and
changes nothing. A write passes the append policy first (``MemoryLongPolicyGate``, upstream's class at its
path ``memory_long_policy_gate`` too). A stored row turns back into an entry here (``entry_from_row``), for
the reader.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol

from arvis.canonical import canonical_bytes_of_own, decode, format_time
from arvis.changes import Change, Decision, Insert, Update
from arvis.memory import memory_long_snapshot
from arvis.memory.errors import MemoryErrorCode, MemoryRuleError
from arvis.memory.memory_long_entry import (
    EntryStatus,
    Governance,
    GovernanceArgs,
    MemoryLongEntry,
    MemoryLongType,
    compose_strictest,
)
from arvis.memory.memory_long_projector import MemoryLongContextProjector
from arvis.memory.memory_long_registry import DEFAULT_MEMORY_LONG_REGISTRY, MemoryLongRegistry
from arvis.memory.memory_rows import TABLE
from arvis.memory.snapshot_wire import build_list_wire, build_snapshot_wire, wire_status

MAX_KEY_LENGTH = 128
MAX_ENTRIES_PER_USER = 100_000
"""Entries one user may have, history (superseded, revoked) included."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def validate_key(key: str) -> None:
    """Refuse an empty key, one over ``MAX_KEY_LENGTH`` characters, or one holding control characters."""
    if not key:
        raise MemoryRuleError(MemoryErrorCode.INVALID_KEY, "key is empty")
    if len(key) > MAX_KEY_LENGTH:
        raise MemoryRuleError(MemoryErrorCode.INVALID_KEY, f"key is longer than {MAX_KEY_LENGTH} characters")
    # printable ASCII has none of the refused categories (ASCII has no Cf, Cs, Zl or Zp character)
    printable_ascii = key.isascii() and key.isprintable()
    if not printable_ascii and any(unicodedata.category(char) in _REFUSED_CATEGORIES for char in key):
        raise MemoryRuleError(MemoryErrorCode.INVALID_KEY, "key holds control characters")
    if key != key.strip():
        raise MemoryRuleError(MemoryErrorCode.INVALID_KEY, "key has leading or trailing whitespace")


class MemoryLongPolicyGate:
    """Declarative-only appends: registered keys, known sources, system notes, bounded expiry.

    ``validate_append`` raises ``ValueError`` with the reason; the limit on expiry is measured from
    ``now``, which the kernel passes as the call's ``recorded_at``. Upstream's one-argument form still
    works: without ``now``, an entry with an ``expires_at`` is judged at the wall clock's time
    (``memory_long_snapshot.utcnow``), and one without needs no time at all.
    """

    MAX_TTL_DAYS = 30
    USER_AUTHORED_SOURCES = frozenset({"explicit_user", "onboarding", "proposed"})
    ALLOWED_SOURCES = USER_AUTHORED_SOURCES | {"governance"}
    ALLOWED_NOTES = frozenset({"ttl_default", "policy_gate", "governance_trace"})

    def __init__(self, registry: MemoryLongRegistry = DEFAULT_MEMORY_LONG_REGISTRY) -> None:
        self.registry = registry

    def validate_append(self, entry: MemoryLongEntry, *, now: datetime | None = None) -> None:
        """Raise ``ValueError`` at the first rule ``entry`` breaks (``memory-syscalls.md`` §7)."""
        if entry.source not in self.ALLOWED_SOURCES:
            raise ValueError(f"source '{entry.source}' may not write long-term memory")
        if entry.source not in self.USER_AUTHORED_SOURCES and not self.registry.is_allowed(entry.key):
            raise ValueError(f"key '{entry.key}' is not in the registry")
        if not isinstance(entry.memory_type, MemoryLongType):
            raise ValueError("memory_type is not a supported type")
        if entry.expires_at is not None:
            now = memory_long_snapshot.utcnow() if now is None else now
            if entry.expires_at <= now:
                raise ValueError("expires_at is not after the call's time")
            if entry.expires_at > now + timedelta(days=self.MAX_TTL_DAYS):
                raise ValueError(f"expires_at exceeds the maximum TTL of {self.MAX_TTL_DAYS} days")
        if entry.notes is not None and entry.notes not in self.ALLOWED_NOTES:
            raise ValueError("notes are system-only and must be one of the allowed tags")

    def compose(self, *, personal: Governance, organization: Governance) -> Governance:
        """The organization's policy is a floor when a personal fact enters its scope: the stricter value
        of each lever wins (``governance.compose_strictest``)."""
        return compose_strictest(personal, organization)


class StoredEntry(NamedTuple):
    """A key's current entry as stored: the entry and its version (the key's newest)."""

    entry: MemoryLongEntry
    version: int


def entry_from_row(row: Mapping[str, Any]) -> MemoryLongEntry:
    """A stored row as an entry: the row holds the entry's JSON form, governance as canonical text."""
    return MemoryLongEntry.from_wire({**row, "governance": decode(str(row["governance"]).encode("utf-8"))})


def insert_entry(user_id: str, entry: MemoryLongEntry, *, version: int, seq: int) -> Insert:
    """The row of ``entry`` as version ``version`` of its key, written by the call at ``seq``."""
    wire = entry.wire_view()
    row = {
        "user_id": user_id,
        "key": entry.key,
        "version": version,
        "memory_type": wire["memory_type"],
        "created_at": wire["created_at"],
        "source": entry.source,
        "notes": entry.notes,
        "value_ref": entry.value_ref,
        "expires_at": wire["expires_at"],
        "revoked_at": wire["revoked_at"],
        "superseded_at": wire["superseded_at"],
        "governance": canonical_bytes_of_own(wire["governance"]).decode("utf-8"),
        "written_seq": seq,
    }
    return Insert(TABLE, row)


def set_on_current(user_id: str, current: StoredEntry, column: str, at: datetime) -> Update:
    """``column`` (``superseded_at`` or ``revoked_at``) set to ``at`` on the current version."""
    where = {"user_id": user_id, "key": current.entry.key, "version": current.version}
    return Update(TABLE, where, {column: format_time(at)})


class WriteFields(Protocol):
    """A decoded ``memory.write`` (``syscalls.memory_long.WriteArgs``)."""

    @property
    def user_id(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def memory_type(self) -> MemoryLongType: ...
    @property
    def source(self) -> str: ...
    @property
    def notes(self) -> str | None: ...
    @property
    def value_ref(self) -> str | None: ...
    @property
    def expires_at(self) -> datetime | None: ...
    @property
    def governance(self) -> GovernanceArgs | None: ...
    @property
    def replace(self) -> bool: ...


_DEFAULT_GOVERNANCE = Governance()
"""What a write without ``governance`` gets."""


def governance_of(given: GovernanceArgs | None) -> Governance:
    """The governance a decoded write asks for (the default when it gives none)."""
    if given is None:
        return _DEFAULT_GOVERNANCE
    return Governance(given.visibility, given.sharing, given.retention, given.encryption, given.principal)


class WireReader(Protocol):
    """What the reads need: a user's entries (or a key's current one) in their stored wire form."""

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]: ...

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None: ...


class MemoryReader(WireReader, Protocol):
    """What a write and a revoke read: a key's current entry with its version, and the user's count."""

    def current(self, *, user_id: str, key: str) -> StoredEntry | None: ...

    def current_and_count(self, *, user_id: str, key: str) -> tuple[StoredEntry | None, int]: ...


@dataclass(frozen=True)
class MemoryService:
    """Orchestrates repository → policy → projection → snapshot for the memory syscalls."""

    policy_gate: MemoryLongPolicyGate = field(default_factory=MemoryLongPolicyGate)
    projector: MemoryLongContextProjector = field(default_factory=MemoryLongContextProjector)

    def list(
        self, repo: WireReader, *, user_id: str, now: datetime, include_inactive: bool
    ) -> dict[str, Any]:
        """The user's entries with their status at ``now``, in the spec's order, built from the stored
        wire forms (``build_list_wire``). ``entries`` is pre-encoded canonical JSON (``msgspec.Raw``):
        encode the value with ``canonical_bytes_of_own``, or turn it into plain values with
        ``arvis.canonical.plain``."""
        built = build_list_wire(
            repo.list_entry_wires(user_id=user_id), now=format_time(now), include_inactive=include_inactive
        )
        return {"user_id": user_id, "entries": built.entries, "count": built.count}

    def get(self, repo: WireReader, *, user_id: str, key: str, now: datetime) -> dict[str, Any]:
        """The key's current entry when it is active, in its stored wire form (``get_entry_wire``; its
        ``governance`` may be pre-encoded canonical JSON, ``msgspec.Raw``)."""
        validate_key(key)
        entry = repo.get_entry_wire(user_id=user_id, key=key)
        if entry is None:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_NOT_FOUND, f"no entry for key '{key}'")
        # the call's time is compared with an expiry only: formatted only for an entry that has one
        status = wire_status(entry, "" if entry["expires_at"] is None else format_time(now))
        if status == EntryStatus.REVOKED.value:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_REVOKED, f"entry '{key}' was revoked")
        if status == EntryStatus.EXPIRED.value:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_EXPIRED, f"entry '{key}' has expired")
        return {"user_id": user_id, "entry": entry, "status": status}

    def snapshot(self, repo: WireReader, *, user_id: str, now: datetime) -> dict[str, Any]:
        """The snapshot, its projection and hashes. Its entries are pre-encoded canonical JSON
        (``msgspec.Raw``): encode the value with ``canonical_bytes_of_own``, or turn it into plain
        values with ``arvis.canonical.plain``."""
        built = build_snapshot_wire(repo.list_entry_wires(user_id=user_id), now=format_time(now))
        return {
            "user_id": user_id,
            "snapshot": built.wire,
            "projection": self.projector.project_keys(built.active_keys),
            "snapshot_hash": built.snapshot_hash,
            "content_hash": built.content_hash,
        }

    def write(self, repo: MemoryReader, request: WriteFields, *, now: datetime, seq: int) -> Decision:
        """A new version of the key (superseding the current one when ``replace`` allows it), decided
        from one read of the key's current entry and the user's count. ``request`` is the decoded
        ``memory.write`` itself (``syscalls.memory_long.WriteArgs``: the one shape of the request from
        decoding to decision); ``seq``: the call's, stored with the row."""
        validate_key(request.key)
        entry = MemoryLongEntry(
            memory_type=request.memory_type,
            key=request.key,
            created_at=now,
            source=request.source,
            notes=request.notes,
            value_ref=request.value_ref,
            expires_at=request.expires_at,
            governance=governance_of(request.governance),
        )
        try:
            self.policy_gate.validate_append(entry, now=now)
        except ValueError as refusal:
            raise MemoryRuleError(MemoryErrorCode.POLICY_DENIED, str(refusal)) from None
        current, count = repo.current_and_count(user_id=request.user_id, key=request.key)
        if count >= MAX_ENTRIES_PER_USER:
            raise MemoryRuleError(
                MemoryErrorCode.LIMIT_EXCEEDED,
                f"the user has {MAX_ENTRIES_PER_USER} entries, the most one may have",
            )
        if current is not None and current.entry.is_active(now) and not request.replace:
            raise MemoryRuleError(
                MemoryErrorCode.CONFLICT,
                f"an active entry for key '{request.key}' exists; pass replace=true to supersede it",
            )
        # the current version is the key's newest (a superseded one has a newer successor)
        version = 1 if current is None else current.version + 1
        changes: list[Change] = []
        superseded = None
        if current is not None and current.entry.revoked_at is None:
            changes.append(set_on_current(request.user_id, current, "superseded_at", now))
            superseded = dataclasses.replace(current.entry, superseded_at=now)
        changes.append(insert_entry(request.user_id, entry, version=version, seq=seq))
        value = {
            "user_id": request.user_id,
            "entry": entry.to_wire(),
            "superseded": None if superseded is None else superseded.to_wire(),
        }
        return Decision(value, tuple(changes))

    def revoke(self, repo: MemoryReader, *, user_id: str, key: str, now: datetime) -> Decision:
        validate_key(key)
        current = repo.current(user_id=user_id, key=key)
        if current is None:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_NOT_FOUND, f"no entry for key '{key}'")
        if current.entry.revoked_at is not None:
            raise MemoryRuleError(MemoryErrorCode.ENTRY_REVOKED, f"entry '{key}' is already revoked")
        revoked = dataclasses.replace(current.entry, revoked_at=now)
        value = {"user_id": user_id, "entry": revoked.to_wire(), "status": EntryStatus.REVOKED.value}
        return Decision(value, (set_on_current(user_id, current, "revoked_at", now),))

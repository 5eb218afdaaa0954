"""One long-term memory entry and its governance. An entry holds an opaque ``value_ref``, never a plain
value; its governance levers are each declared from least to most strict.

Upstream arvis's ``arvis.memory.governance`` names the governance levers at their upstream path."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

import msgspec

from arvis.canonical import format_time, parse_time


class GovernanceVisibility(StrEnum):
    DISPLAYABLE = "displayable"
    USABLE = "usable"
    SEALED = "sealed"


class GovernanceSharing(StrEnum):
    SHAREABLE = "shareable"
    PERSONAL = "personal"
    NEVER_SHARE = "never_share"


class GovernanceRetention(StrEnum):
    PERSISTENT = "persistent"
    BOUNDED = "bounded"
    EPHEMERAL = "ephemeral"


class GovernanceEncryption(StrEnum):
    AT_REST = "at_rest"
    ZERO_KNOWLEDGE = "zero_knowledge"


class GovernancePrincipal(StrEnum):
    USER = "user"
    ORGANIZATION = "organization"
    GOVERNANCE = "governance"


@dataclass(frozen=True)
class Governance:
    """The governance regime of one entry; defaults are the personal, usable, persistent regime."""

    visibility: GovernanceVisibility = GovernanceVisibility.USABLE
    sharing: GovernanceSharing = GovernanceSharing.PERSONAL
    retention: GovernanceRetention = GovernanceRetention.PERSISTENT
    encryption: GovernanceEncryption = GovernanceEncryption.AT_REST
    principal: GovernancePrincipal = GovernancePrincipal.USER

    @classmethod
    def from_wire(cls, wire: Mapping[str, str]) -> Governance:
        """The regime back from its JSON form (the inverse of ``to_wire``)."""
        return cls(
            visibility=GovernanceVisibility(wire["visibility"]),
            sharing=GovernanceSharing(wire["sharing"]),
            retention=GovernanceRetention(wire["retention"]),
            encryption=GovernanceEncryption(wire["encryption"]),
            principal=GovernancePrincipal(wire["principal"]),
        )

    def to_wire(self) -> dict[str, str]:
        """The JSON form used in results and hashes (a fresh dict each time; built once)."""
        wire: dict[str, str] | None = self.__dict__.get("_wire")
        if wire is None:
            wire = {
                "encryption": self.encryption.value,
                "principal": self.principal.value,
                "retention": self.retention.value,
                "sharing": self.sharing.value,
                "visibility": self.visibility.value,
            }
            object.__setattr__(self, "_wire", wire)  # a cache, not a field
        return dict(wire)


# the regime a memory.write asks for, as decoded (syscalls.memory_long.WriteArgs); without a docstring, which
# would change the request's JSON schema (tools.cmd_mcp)
class GovernanceArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    visibility: GovernanceVisibility = GovernanceVisibility.USABLE
    sharing: GovernanceSharing = GovernanceSharing.PERSONAL
    retention: GovernanceRetention = GovernanceRetention.PERSISTENT
    encryption: GovernanceEncryption = GovernanceEncryption.AT_REST
    principal: GovernancePrincipal = GovernancePrincipal.USER


_E = TypeVar("_E", bound=StrEnum)


def _stricter(first: _E, second: _E) -> _E:
    members = list(type(first))
    return first if members.index(first) >= members.index(second) else second


def compose_strictest(personal: Governance, organization: Governance) -> Governance:
    """Take the stricter value of each lever; the organization becomes the principal."""
    return Governance(
        visibility=_stricter(personal.visibility, organization.visibility),
        sharing=_stricter(personal.sharing, organization.sharing),
        retention=_stricter(personal.retention, organization.retention),
        encryption=_stricter(personal.encryption, organization.encryption),
        principal=GovernancePrincipal.ORGANIZATION,
    )


class MemoryLongType(StrEnum):
    PREFERENCE = "preference"
    CONTEXT = "context"
    RULE = "rule"
    STYLE = "style"
    CONSTRAINT = "constraint"


class EntryStatus(StrEnum):
    """Where an entry stands at a given moment."""

    ACTIVE = "active"
    EXPIRED = "expired"
    REVOKED = "revoked"
    SUPERSEDED = "superseded"


def _time_from(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)


def _time_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else format_time(moment)


@dataclass(frozen=True)
class MemoryLongEntry:
    """A declarative memory entry (ARVIS-MEM-01 §4.1).

    ``superseded_at`` is set when a later write with ``replace`` took the entry's place: the entry stays
    in history, unchanged otherwise.
    """

    memory_type: MemoryLongType
    key: str
    created_at: datetime
    source: str
    notes: str | None = None
    value_ref: str | None = None
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    governance: Governance = field(default_factory=Governance)
    superseded_at: datetime | None = None

    def status_at(self, now: datetime) -> EntryStatus:
        """The entry's status at ``now`` (revocation wins over supersession over expiry)."""
        if self.revoked_at is not None:
            return EntryStatus.REVOKED
        if self.superseded_at is not None:
            return EntryStatus.SUPERSEDED
        if self.expires_at is not None and self.expires_at <= now:
            return EntryStatus.EXPIRED
        return EntryStatus.ACTIVE

    def is_active(self, now: datetime) -> bool:
        return self.status_at(now) is EntryStatus.ACTIVE

    @property
    def sort_key(self) -> tuple[str, str, str]:
        """The spec's order: created_at, key, memory_type (all compared as fixed text, never collated)."""
        return (format_time(self.created_at), self.key, self.memory_type.value)

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> MemoryLongEntry:
        """The entry back from its JSON form (the inverse of ``to_wire``)."""
        return cls(
            memory_type=MemoryLongType(wire["memory_type"]),
            key=wire["key"],
            created_at=parse_time(wire["created_at"]),
            source=wire["source"],
            notes=wire["notes"],
            value_ref=wire["value_ref"],
            expires_at=_time_from(wire["expires_at"]),
            revoked_at=_time_from(wire["revoked_at"]),
            governance=Governance.from_wire(wire["governance"]),
            superseded_at=_time_from(wire.get("superseded_at")),
        )

    def to_wire(self) -> dict[str, Any]:
        """The JSON form used in results and hashes (a fresh dict each time; built once per entry)."""
        wire = self.wire_view()
        return {**wire, "governance": dict(wire["governance"])}

    def wire_view(self) -> Mapping[str, Any]:
        """The JSON form itself, built once and kept: for a reader that neither keeps nor changes it
        (``to_wire`` gives a copy to keep)."""
        wire: dict[str, Any] | None = self.__dict__.get("_wire")
        if wire is None:
            wire = {
                "created_at": format_time(self.created_at),
                "expires_at": _time_or_none(self.expires_at),
                "governance": self.governance.to_wire(),
                "key": self.key,
                "memory_type": self.memory_type.value,
                "notes": self.notes,
                "revoked_at": _time_or_none(self.revoked_at),
                "source": self.source,
                "superseded_at": _time_or_none(self.superseded_at),
                "value_ref": self.value_ref,
            }
            object.__setattr__(self, "_wire", wire)  # a cache, not a field: the entry stays as it was
        return wire

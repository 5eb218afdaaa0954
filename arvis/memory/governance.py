"""Governance levers of a memory entry, each declared from least to most strict."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

import msgspec

__all__ = [
    "Governance",
    "GovernanceArgs",
    "GovernanceEncryption",
    "GovernancePrincipal",
    "GovernanceRetention",
    "GovernanceSharing",
    "GovernanceVisibility",
    "compose_strictest",
]


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

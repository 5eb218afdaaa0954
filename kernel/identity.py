"""Who a kernel may act as: the deployment's identity policy, asked once per call before anything else
is decided about it.

The kernel does not know who is at the other end of a call; the deployment does. So the deployment opens
a kernel with a policy, and a call that claims a principal the policy does not let this caller be is
refused ``principal_not_allowed`` and journaled (its arguments, its claimed principal), with no effect.
The policy's verdict is not reproducible from the journal (it depends on a secret, or on who ran the
process), so it is a recorded input: a replay refuses exactly the entries the journal records as refused
by identity, and never asks a policy.

Three policies:

* ``VouchedPrincipals`` (the library default): the embedding application vouches for every principal it
  passes, as in the first release.
* ``AllowedPrincipals(patterns)``: the principals this kernel may act as, exactly or by a ``prefix*``
  pattern (an MCP server, a worker that acts for one agent).
* ``SignedPrincipals(key, required_for=patterns)``: a principal that matches ``required_for`` (every
  principal, by default) must come with a credential, the HMAC-SHA256 of the principal under the
  deployment's key (``principal_token``); others need none. The command line uses it with the database's
  local key file, for the built-in administrators.

A credential is never journaled.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol

__all__ = [
    "AllowedPrincipals",
    "IdentityPolicy",
    "SignedPrincipals",
    "VouchedPrincipals",
    "matches",
    "principal_token",
    "refusal_detail",
]


class IdentityPolicy(Protocol):
    def admits(self, principal: str, credential: str | None) -> bool:
        """Whether this caller, holding ``credential`` (None: none given), may act as ``principal``.
        Must not raise; a policy that does is taken to refuse."""
        ...


def matches(pattern: str, principal: str) -> bool:
    """``pattern`` names ``principal``: exactly, or by a trailing ``*`` standing for one or more
    characters (``agent:*`` is every ``agent:<name>``, never the bare ``agent:``)."""
    if pattern.endswith("*"):
        stem = pattern[:-1]
        return principal.startswith(stem) and len(principal) > len(stem)
    return principal == pattern


def refusal_detail(principal: str) -> str:
    """The journaled detail of an identity refusal: a function of the principal alone, so a replay
    reproduces it from the entry."""
    return f"this deployment does not let the caller act as '{principal}'"


class VouchedPrincipals:
    """Every principal is admitted: the embedding application vouches for the principals it passes."""

    def admits(self, principal: str, credential: str | None) -> bool:
        return True


class AllowedPrincipals:
    """The principals a kernel may act as, each exact or a ``prefix*`` pattern; credentials are ignored."""

    def __init__(self, patterns: tuple[str, ...] | list[str]) -> None:
        if isinstance(patterns, str):
            raise TypeError("AllowedPrincipals takes a tuple or list of patterns, not one string")
        if not patterns or not all(isinstance(p, str) and p.strip("*") for p in patterns):
            raise ValueError("AllowedPrincipals needs at least one non-empty pattern")
        self.patterns = tuple(patterns)

    def admits(self, principal: str, credential: str | None) -> bool:
        return any(matches(pattern, principal) for pattern in self.patterns)


def principal_token(key: bytes, principal: str) -> str:
    """The credential that lets a caller act as ``principal`` under ``SignedPrincipals(key)``: the
    lower-case hex HMAC-SHA256 of the principal's UTF-8 bytes."""
    return hmac.new(key, principal.encode("utf-8"), hashlib.sha256).hexdigest()


class SignedPrincipals:
    """A principal that matches ``required_for`` is admitted only with its token (``principal_token``)
    under the deployment's key; any other principal without one. Tokens are compared in constant time."""

    MIN_KEY_BYTES = 16

    def __init__(self, key: bytes, *, required_for: tuple[str, ...] = ("*",)) -> None:
        if isinstance(required_for, str):
            raise TypeError("required_for is a tuple or list of patterns, not one string")
        if len(key) < self.MIN_KEY_BYTES:
            raise ValueError(f"a signing key must have at least {self.MIN_KEY_BYTES} bytes")
        self._key = bytes(key)
        self.required_for = tuple(required_for)

    def admits(self, principal: str, credential: str | None) -> bool:
        if not any(matches(pattern, principal) for pattern in self.required_for):
            return True
        if not isinstance(credential, str) or not credential.isascii():
            return False
        return hmac.compare_digest(principal_token(self._key, principal), credential)

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
  passes, as in the first release, but the built-in administrators (below) unless it says so
  (``administrators=True``).
* ``AllowedPrincipals(patterns)``: the principals this kernel may act as, exactly or by a ``prefix*``
  pattern (an MCP server, a worker that acts for one agent).
* ``SignedPrincipals(key, required_for=patterns)``: a principal that matches ``required_for`` (every
  principal, by default) must come with a credential, the HMAC-SHA256 of the principal under the
  deployment's key (``principal_token``); others need none.

The built-in administrators (``admin:<name>``, ``operator:<name>``) are the journal's: its header records,
when it is created (or when an older journal is bound, ``arvis db bind-admin-key``), the verifier of its
admin key, ``admin_verifier(key)`` = SHA-256 of a domain-separated key. ``Kernel`` (and so ``open_kernel``)
wraps whatever policy it is given in ``JournalAdministrators``, with the verifier its store holds
(``journal_identity``): a built-in administrator is admitted only when its
credential is that key (``admin_credential``), whose verifier matches the journal's, and the policy admits
it too; a journal without a verifier has no administrator. Only ``VouchedPrincipals(administrators=True)``,
an application that vouches for its administrators too (tests, a demo that owns its journal), is not
wrapped.

A credential is never journaled.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol, runtime_checkable

from arvis.access import is_builtin_admin

ADMIN_KEY_BYTES = 32
"""The length of a journal's admin key."""
_VERIFIER_DOMAIN = b"arvis admin key verifier v1\x00"
"""What a key is prefixed with before it is hashed into its verifier: the verifier of a key is never
the plain SHA-256 of the same bytes used elsewhere."""


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
    """Every principal is admitted: the embedding application vouches for the principals it passes. The
    built-in administrators too only with ``administrators=True``; otherwise ``open_kernel`` asks for the
    journal's admin key (``JournalAdministrators``)."""

    def __init__(self, *, administrators: bool = False) -> None:
        self.administrators = administrators is True

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


def admin_verifier(key: bytes) -> str:
    """What a journal records of its admin key: the lower-case hex SHA-256 of the key prefixed with a
    domain tag. It proves nothing by itself: only the key's holder can present a matching key."""
    return hashlib.sha256(_VERIFIER_DOMAIN + bytes(key)).hexdigest()


def check_admin_key(key: bytes | None) -> None:
    """``ValueError`` unless ``key`` is None or ``ADMIN_KEY_BYTES`` bytes: checked before anything is
    created, so that a bad key leaves no journal behind."""
    if key is not None and (not isinstance(key, bytes) or len(key) != ADMIN_KEY_BYTES):
        raise ValueError(f"an admin key is {ADMIN_KEY_BYTES} bytes")


def admin_credential(key: bytes) -> str:
    """The credential a built-in administrator presents: the journal's admin key, in lower-case hex."""
    return bytes(key).hex()


class JournalAdministrators:
    """The journal's built-in administrators: one is admitted only with the journal's admin key as its
    credential (its verifier equal to ``verifier``, compared in constant time; a journal without one,
    None, has no administrator), and only if ``policy`` admits it too; any other principal as ``policy``
    decides."""

    def __init__(self, verifier: str | None, policy: IdentityPolicy) -> None:
        self.verifier = verifier
        self.policy = policy

    def admits(self, principal: str, credential: str | None) -> bool:
        if is_builtin_admin(principal) and not self.holds_key(credential):
            return False
        return self.policy.admits(principal, credential) is True

    def holds_key(self, credential: str | None) -> bool:
        """Whether ``credential`` is the journal's admin key (``2 * ADMIN_KEY_BYTES`` hex digits)."""
        if (
            not isinstance(credential, str)
            or len(credential) != 2 * ADMIN_KEY_BYTES
            or not credential.isascii()
        ):
            return False
        try:
            key = bytes.fromhex(credential)
        except ValueError:
            return False
        return self.verifier is not None and hmac.compare_digest(admin_verifier(key), self.verifier)


@runtime_checkable
class AdministeredStore(Protocol):
    """A journal store that can say which admin key its journal is bound to (``SqlJournalStore``)."""

    def admin_verifier(self) -> str | None:
        """The verifier of the journal's admin key now; None when it has none."""
        ...


def journal_identity(policy: IdentityPolicy | None, store: object) -> IdentityPolicy:
    """What ``Kernel`` acts under: ``policy`` with the administrators of the journal ``store`` holds
    (its verifier read from the store, ``AdministeredStore``; a store that cannot say has none), unless
    ``policy`` is a ``VouchedPrincipals`` that vouches for administrators too. A ``JournalAdministrators``
    given with another verifier is wrapped all the same: an administrator then needs both keys."""
    chosen = VouchedPrincipals() if policy is None else policy
    if isinstance(chosen, VouchedPrincipals) and chosen.administrators:
        return chosen
    verifier = store.admin_verifier() if isinstance(store, AdministeredStore) else None
    return JournalAdministrators(verifier, chosen)

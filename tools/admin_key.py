"""A database's admin key: the local credential the command line needs to act as a built-in administrator.

The key is a file of 32 random bytes written as 64 hex characters and a newline, readable and writable by
its owner only (0600). For a SQLite file ``DB`` it lives beside the database, at ``DB.admin-key``;
``--admin-key FILE`` (or ``$ARVIS_ADMIN_KEY``) names another, and is the only way for a database that is
not a file (PostgreSQL, ``:memory:``). ``arvis call --create`` writes it when it creates the database file,
``arvis db keygen`` for an existing database.

The command line opens its kernel with ``SignedPrincipals(key, required_for=ADMIN_PATTERNS)`` and proves
the principal with ``principal_token(key, principal)``: a principal named ``admin:…`` or ``operator:…``
is admitted only by whoever can read the key; every other principal is claimed, its rights coming from
grants and ownership (``specs/access-and-pipelines.md`` §1.1). The key is read only for a principal that
needs it, so a user's calls never depend on the key file.
"""

from __future__ import annotations

import argparse
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tools.common import CommandError
from tools.private_file import read_private, shown_path

if TYPE_CHECKING:
    from kernel.identity import IdentityPolicy

__all__ = [
    "ADMIN_PATTERNS",
    "KEY_SUFFIX",
    "Identity",
    "add_admin_key_argument",
    "admin_key_path",
    "create_key",
    "create_key_or_fail",
    "identity_for",
    "shown_path",
]

ADMIN_PATTERNS = ("admin:*", "operator:*")
"""The principals that need the key: ``kernel.access.ADMIN_PREFIXES`` each followed by ``*`` (written
out, not imported: ``arvis --version`` loads no kernel; a test ties the two), the built-in administrators
(and ``admin:x:``, which ends with ``:`` and so is not one, but is refused rather than let through
without a key)."""

KEY_SUFFIX = ".admin-key"
KEY_BYTES = 32
_READ_LIMIT = 4096

ADMIN_KEY_HELP = (
    "the admin key file (default: $ARVIS_ADMIN_KEY, else DB.admin-key beside a SQLite file; "
    "required for a PostgreSQL URL)"
)


def add_admin_key_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--admin-key", metavar="FILE", help=ADMIN_KEY_HELP)


def needs_key(principal: str) -> bool:
    """Whether the command line must prove ``principal`` with the admin key."""
    from kernel.identity import matches

    return any(matches(pattern, principal) for pattern in ADMIN_PATTERNS)


def admin_key_path(target: str, given: str | None) -> Path | None:
    """Where the key of database ``target`` is: ``given``, else ``$ARVIS_ADMIN_KEY``, else beside a
    SQLite file; None for a database that is not a file and was given no key."""
    from journal.engine import sqlite_file

    named = given or os.environ.get("ARVIS_ADMIN_KEY")
    if named:
        return Path(named)
    file = sqlite_file(target)
    return None if file is None else Path(file + KEY_SUFFIX)


def create_key(path: Path) -> None:
    """Write a new key at ``path``, created 0600 (never widened, never chmod-ed after); an existing file
    is a ``FileExistsError``, left as it is."""
    import secrets

    content = (secrets.token_hex(KEY_BYTES) + "\n").encode("ascii")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        written = os.write(descriptor, content)
        if written != len(content):
            raise OSError(f"short write ({written} of {len(content)} bytes)")
        os.fsync(descriptor)
    except BaseException:
        os.close(descriptor)
        path.unlink(missing_ok=True)
        raise
    os.close(descriptor)


def create_key_or_fail(path: Path) -> None:
    """``create_key``, its failures as usage errors (exit 2)."""
    try:
        create_key(path)
    except FileExistsError:
        raise CommandError(
            f"the admin key {shown_path(path)} exists already; it is left as it is",
            hint="remove it first to replace it (administrators then need the new one)",
        ) from None
    except OSError as exc:
        raise CommandError(f"cannot write the admin key {shown_path(path)}: {exc.strerror or exc}") from None


def load_key(path: Path, *, keygen: str) -> bytes:
    """The key in ``path``, checked (``tools.private_file``), holding 64 hex characters. Any problem is a
    usage error (exit 2) naming the file."""
    data = read_private(
        path,
        "the admin key",
        _READ_LIMIT,
        missing_hint=f"administrators (admin:…, operator:…) need it: create one with `{keygen}`, "
        "or give --admin-key FILE",
    )
    return _parsed(path, data)


def _parsed(path: Path, data: bytes) -> bytes:
    text = data[:-1] if data.endswith(b"\n") else data
    hexdigits = b"0123456789abcdefABCDEF"
    if len(text) != 2 * KEY_BYTES or any(byte not in hexdigits for byte in text):
        raise CommandError(
            f"the admin key {shown_path(path)} is malformed: it must hold {2 * KEY_BYTES} hex characters",
            hint="write a new one with `arvis db keygen` (after moving this one away)",
        )
    return bytes.fromhex(text.decode("ascii"))


@dataclass(frozen=True)
class Identity:
    """How the command line opens its kernel for one principal: the policy, and the credential to pass."""

    policy: IdentityPolicy
    credential: str | None


def identity_for(principal: str, target: str, given: str | None) -> Identity:
    """The identity policy and credential for acting as ``principal`` on ``target``, the key read if the
    principal needs it (usage error, exit 2, before anything is opened, when it cannot be). A principal
    that does not need it gets a policy under a key nobody holds: it is admitted as claimed, and an
    administrator could never be."""
    import secrets

    from kernel.identity import SignedPrincipals, principal_token

    if not needs_key(principal):
        return Identity(SignedPrincipals(secrets.token_bytes(KEY_BYTES), required_for=ADMIN_PATTERNS), None)
    path = admin_key_path(target, given)
    if path is None:
        raise CommandError(
            f"acting as {principal} needs the database's admin key, and a PostgreSQL or in-memory "
            "database has no default one",
            hint="give --admin-key FILE (or set ARVIS_ADMIN_KEY); `arvis db keygen` writes one",
        )
    key = load_key(path, keygen=keygen_command(target, path if given else None))
    try:
        credential: str | None = principal_token(key, principal)
    except UnicodeEncodeError:  # not UTF-8 (argv bytes): the kernel refuses its form, journaled
        credential = None
    return Identity(SignedPrincipals(key, required_for=ADMIN_PATTERNS), credential)


def keygen_command(target: str, given: Path | None) -> str:
    """The ``arvis db keygen`` command line that writes the key of ``target`` (at ``given``), for a
    hint: shell-quoted, a URL without its password."""
    from journal.engine import shown

    words = ["arvis", "db", "keygen", "--db", shown(target)]
    if given is not None:
        words += ["--admin-key", shown_path(given)]
    return shlex.join(words)

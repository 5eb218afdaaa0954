"""A database's admin key: the credential the command line needs to act as a built-in administrator.

The key is a file of 32 random bytes written as 64 hex characters and a newline, readable and writable by
its owner only (0600). For a SQLite file ``DB`` it lives beside the database, at ``DB.admin-key``;
``--admin-key FILE`` (or ``$ARVIS_ADMIN_KEY``) names another, and is the only way for a database that is
not a file (PostgreSQL, ``:memory:``).

The key is the journal's: the journal holds the verifier of its key (``journal.admin_binding``), recorded
when ``arvis call --create`` creates it (with the key it writes beside it), or journaled when ``arvis db
keygen`` (a new key) or ``arvis db bind-admin-key`` (an existing file, for a journal of an older release)
binds one to a journal that has none; ``arvis db rotate-admin-key`` replaces it, as an administrator
holding the current one. None of them ever replaces a journal's key without it.

The command line proves a principal named ``admin:…`` or ``operator:…`` by passing the key as its
credential (``kernel.identity.admin_credential``); the kernel admits it only when the key's verifier is
the journal's. A key that is not the journal's, or a journal with no key bound, is a usage error (exit 2)
before anything is written, with the command that binds one. Every other principal is claimed, its rights
coming from grants and ownership (``specs/access-and-pipelines.md`` §1.1). The key is read only for a
principal that needs it, so a user's calls never depend on the key file.
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


ADMIN_PATTERNS = ("admin:*", "operator:*")
"""The principals that need the key: ``arvis.access.ADMIN_PREFIXES`` each followed by ``*`` (written
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


def admin_key_path(target: str, given: str | None) -> Path | None:
    """Where the key of database ``target`` is: ``given``, else ``$ARVIS_ADMIN_KEY``, else beside a
    SQLite file; None for a database that is not a file and was given no key."""
    from journal.engine import sqlite_file

    named = given or os.environ.get("ARVIS_ADMIN_KEY")
    if named:
        return Path(named)
    file = sqlite_file(target)
    return None if file is None else Path(file + KEY_SUFFIX)


def key_file(path: str | os.PathLike[str]) -> bytes:
    """The admin key in the file ``path`` (e.g. ``memory.db.admin-key``, where the command line looks),
    written there first as ``arvis db keygen`` writes it when there is none: ``open_kernel(admin_key=)``."""
    try:
        return create_key(Path(path))
    except FileExistsError:
        return load_key(Path(path), keygen="arvis db keygen")


def create_key(path: Path) -> bytes:
    """Write a new key at ``path``, created 0600 (never widened, never chmod-ed after), and return it; an
    existing file is a ``FileExistsError``, left as it is."""
    import secrets

    key = secrets.token_bytes(KEY_BYTES)
    content = (key.hex() + "\n").encode("ascii")
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
    return key


def create_key_or_fail(path: Path) -> bytes:
    """``create_key``, its failures as usage errors (exit 2)."""
    try:
        return create_key(path)
    except FileExistsError:
        raise CommandError(
            f"the admin key {shown_path(path)} exists already; it is left as it is",
            hint="bind it to a journal that has no key with `arvis db bind-admin-key`; a journal's key is "
            "replaced only by `arvis db rotate-admin-key`",
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
    text = data[:-1] if data.endswith(b"\n") else data
    hexdigits = b"0123456789abcdefABCDEF"
    if len(text) != 2 * KEY_BYTES or any(byte not in hexdigits for byte in text):
        raise CommandError(
            f"the admin key {shown_path(path)} is malformed: it must hold {2 * KEY_BYTES} hex characters",
            hint="give the key the journal was created or bound with",
        )
    return bytes.fromhex(text.decode("ascii"))


@dataclass(frozen=True)
class Identity:
    """How the command line opens its kernel for one principal: the policy, the credential to pass, and
    the key read (a journal created by the call records its verifier: ``open_kernel(admin_key=...)``)."""

    policy: IdentityPolicy
    credential: str | None
    key: bytes | None = None


def identity_for(principal: str, target: str, given: str | None) -> Identity:
    """The identity policy and credential for acting as ``principal`` on ``target``, the key read and
    checked against the journal's if the principal needs it (usage error, exit 2, before anything is
    written, when it cannot be read, is not the journal's, or the journal has none). The policy vouches
    for every principal but the built-in administrators, whom the kernel admits by the journal's key."""
    from kernel.identity import VouchedPrincipals, admin_credential, matches

    if not any(matches(pattern, principal) for pattern in ADMIN_PATTERNS):
        return Identity(VouchedPrincipals(), None)
    path = admin_key_path(target, given)
    if path is None:
        raise CommandError(
            f"acting as {principal} needs the database's admin key, and a PostgreSQL or in-memory "
            "database has no default one",
            hint="give --admin-key FILE (or set ARVIS_ADMIN_KEY); `arvis db keygen` writes one",
        )
    key = load_key(path, keygen=db_command("keygen", target, path if given else None))
    _check_bound(target, key, path, given is not None)
    return Identity(VouchedPrincipals(), admin_credential(key), key)


_NEW = "new"


def journal_verifier(target: str) -> str | None:
    """The verifier of the admin key of the journal at ``target`` (``journal.admin_binding``); None when
    it has none; ``"new"`` when there is no journal there yet (or it cannot be read here: opening the
    kernel reports that)."""
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from journal.admin_binding import current_verifier
    from journal.engine import open_engine, reading, sqlite_file
    from journal.header import read_header
    from kernel.protocols import StorageError

    file = sqlite_file(target)
    if target == ":memory:" or (file is not None and not os.path.exists(file)):
        return _NEW
    try:
        engine = open_engine(target)
    except (StorageError, SQLAlchemyError):
        return _NEW
    try:
        with reading(engine.connect()) as connection:
            tables = inspect(connection).get_table_names()
            if "journal_header" not in tables or read_header(connection) is None:
                return _NEW
            return current_verifier(connection)
    except SQLAlchemyError:
        return _NEW
    finally:
        engine.dispose()


def _check_bound(target: str, key: bytes, path: Path, given: bool) -> None:
    import hmac

    from kernel.identity import admin_verifier

    verifier = journal_verifier(target)
    if verifier == _NEW:
        return
    if verifier is None:
        raise CommandError(
            "the journal has no admin key bound (it was created without one, or by an older arvis), so "
            "it has no administrator",
            hint=f"bind this key to it: `{db_command('bind-admin-key', target, path if given else None)}`",
        )
    if not hmac.compare_digest(verifier, admin_verifier(key)):
        raise CommandError(
            f"the admin key {shown_path(path)} is not this journal's admin key",
            hint="give the key the journal was created or bound with (--admin-key FILE)",
        )


def db_command(action: str, target: str, given: Path | None) -> str:
    """The ``arvis db ACTION`` command line for the key of ``target`` (at ``given``), e.g. ``keygen``,
    which writes it, or ``bind-admin-key``, for a hint: shell-quoted, a URL without its password."""
    from journal.engine import shown

    words = ["arvis", "db", action, "--db", shown(target)]
    if given is not None:
        words += ["--admin-key", shown_path(given)]
    return shlex.join(words)

"""Reading a secret from a file the way the command line trusts one: a regular file of the current user's,
readable and writable by its owner only (0600 or narrower), read through the descriptor that was checked
(a FIFO or a device never hangs the read: it is opened non-blocking and refused as not a regular file).

Used for the database's admin key (``tools/admin_key.py``) and the Ed25519 signing key of checkpoints
(``tools/journal_proofs.py``); ``read_regular`` (the same read, without the owner and mode checks) for
``arvis call --args @FILE``."""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Callable
from pathlib import Path

from tools.common import CommandError


def shown_path(path: Path) -> str:
    """A path as printed in messages (bytes that are not UTF-8 escaped, ``\\xff``)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def read_regular(path: Path, what: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file ``path`` (a FIFO, a device or a directory is refused
    without waiting for a writer: it is opened non-blocking and checked through its descriptor); any
    problem is a usage error (exit 2) naming ``what`` and the file."""
    return _read_checked(path, what, limit, None)[0]


def _read_checked(
    path: Path, what: str, limit: int, missing_hint: str | None
) -> tuple[bytes, os.stat_result]:
    from journal.regular_file import read_bounded  # here: registering the commands stays light

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)  # then fstat: what is checked is what is read
    except FileNotFoundError:
        raise CommandError(
            f"no {what.removeprefix('the ')} at {shown_path(path)}", hint=missing_hint
        ) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise CommandError(f"cannot read {what} {shown_path(path)}: {_reason(exc)}") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise CommandError(f"{what} {shown_path(path)} is not a regular file")
        data = read_bounded(descriptor, limit + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {what} {shown_path(path)}: {_reason(exc)}") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise CommandError(f"{what} {shown_path(path)} is larger than {limit} bytes")
    return data, status


def _reason(exc: OSError | ValueError) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def read_private(
    path: Path,
    what: str,
    limit: int,
    *,
    missing_hint: str | None = None,
    validate: Callable[[bytes], None] | None = None,
) -> bytes:
    """At most ``limit`` bytes of ``path``, read as ``read_regular`` reads and checked as above; any
    problem is a usage error (exit 2) naming ``what`` (e.g. "the admin key") and the file; a missing
    file's error carries ``missing_hint``.

    ``validate``, if given, is called with the bytes read once the file is known to be a regular file of
    at most ``limit`` bytes, before its owner and mode are checked: what it raises (a ``CommandError``
    saying the file is not a key at all, say) is reported first, so a public key given by mistake is named
    as such rather than as a file others may read. The bytes it checks are the bytes returned."""
    data, status = _read_checked(path, what, limit, missing_hint)
    if validate is not None:
        validate(data)
    getuid = getattr(os, "getuid", None)
    if getuid is not None and status.st_uid != getuid():
        raise CommandError(
            f"{what} {shown_path(path)} belongs to another user (uid {status.st_uid})",
            hint="use a key file of your own",
        )
    mode = stat.S_IMODE(status.st_mode)
    if mode & 0o077:
        raise CommandError(
            f"{what} {shown_path(path)} has mode {mode:04o}: others than its owner may use it",
            hint=f"chmod 600 {shlex.quote(shown_path(path))}",
        )
    return data

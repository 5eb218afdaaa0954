"""Opening the kernel for one principal, as ``arvis call`` and ``arvis mcp`` both do: the admin key a
``--create`` writes beside a new database, the identity, the tracer and the call logger; the key just
written is withdrawn when the kernel cannot be opened after all."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kernel.dispatcher import Kernel
    from kernel.identity import IdentityPolicy
    from kernel.judge import ConflictJudge
    from kernel.protocols import StorageError
    from tools.admin_key import Identity


@contextmanager
def opened_kernel(
    options: argparse.Namespace,
    principal: str,
    target: str,
    *,
    policy: Callable[[IdentityPolicy], IdentityPolicy] | None = None,
    storage_error: Callable[[StorageError], BaseException] | None = None,
    judge: ConflictJudge | None = None,
) -> Iterator[tuple[Kernel, Identity]]:
    """The kernel on ``target`` for ``principal`` (``options``: ``admin_key``, ``create``,
    ``durability``) and the identity it was opened with, closed on leaving. ``policy`` narrows the
    identity policy; ``storage_error`` turns a storage error met while opening into the one to raise;
    ``judge``: the model judge bound at boot (``kernel.judge``), if any."""
    from journal.engine import Durability
    from kernel.protocols import StorageError
    from syscalls.boot import open_kernel
    from tools.admin_key import identity_for
    from tools.logs import call_logger
    from tools.tracing import command_tracer

    new_key = _create_key_with(target, options.admin_key) if options.create else None
    with command_tracer() as tracer:  # spans only when the OTEL_* environment asks (tools.tracing)
        try:
            identity = identity_for(principal, target, options.admin_key)
            kernel = open_kernel(
                target,
                durability=Durability(options.durability),
                logger=call_logger(),
                identity=identity.policy if policy is None else policy(identity.policy),
                tracer=tracer,
                admin_key=identity.key if identity.key or new_key is None else new_key[1],
                create=options.create,
                judge=judge,
            )
        except BaseException as exc:
            _withdraw(new_key, target)
            if storage_error is not None and isinstance(exc, StorageError):
                raise storage_error(exc) from None
            raise
        with closing(kernel):
            yield kernel, identity


def _create_key_with(target: str, given: str | None) -> tuple[Path, bytes] | None:
    """When this call is to create the database file, its admin key, before anything else is written
    (an existing key is kept): where the key was written and the key (the new journal's), or None."""
    from journal.engine import sqlite_file
    from tools.admin_key import admin_key_path, create_key_or_fail

    file = sqlite_file(target)
    path = admin_key_path(target, given)
    if file is None or os.path.lexists(file) or path is None or os.path.lexists(path):
        return None
    return path, create_key_or_fail(path)


def _withdraw(new_key: tuple[Path, bytes] | None, target: str) -> None:
    """Remove the key just written when the database it was for was not created after all (the kernel
    could not be opened: ``?mode=ro``, a missing directory…)."""
    from journal.engine import sqlite_file

    file = sqlite_file(target)
    if new_key is not None and file is not None and not os.path.lexists(file):
        new_key[0].unlink(missing_ok=True)

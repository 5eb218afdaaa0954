"""The composition root: a ready kernel from a database path or URL."""

from __future__ import annotations

import dataclasses
import os

from journal.blob_store import reader_for
from journal.engine import Durability, open_engine, shown, sqlite_file
from journal.migrate import check_writable
from journal.state_checkpoints import DEFAULT_INTERVAL
from journal.store import SqlJournalStore
from kernel.clock import Clock, SystemClock
from kernel.dispatcher import CallLogger, Kernel
from kernel.identity import ADMIN_KEY_BYTES, IdentityPolicy, admin_verifier
from kernel.judge import ConflictJudge
from kernel.protocols import StorageError
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services
from kernel.telemetry import TracerChoice, global_tracer
from syscalls.table import SYSCALL_TABLE

__all__ = ["JournalNotFound", "default_services", "open_kernel"]


class JournalNotFound(StorageError, FileNotFoundError):
    """``open_kernel`` on a SQLite file that does not exist, not asked to create it (``create=True``): a
    mistyped path must not silently start a new, empty journal beside the real one."""


def _refuse_missing(target: str) -> None:
    """Refuse a SQLite file that does not exist (an in-memory database is always new, a server's
    database the server's to create). ``UnsupportedDatabase`` for a target that names no database."""
    path = sqlite_file(target)
    if path is not None and not os.path.exists(path):
        raise JournalNotFound(
            f"no journal at {shown(target)} ({path}): pass create=True to open_kernel to start a new one"
        )


def open_kernel(
    target: str,
    *,
    clock: Clock | None = None,
    durability: Durability = Durability.NORMAL,
    services: KernelServiceRegistry | None = None,
    journal_id: str | None = None,
    logger: CallLogger | None = None,
    identity: IdentityPolicy | None = None,
    tracer: TracerChoice = "global",
    state_checkpoint_interval: int = DEFAULT_INTERVAL,
    group_commit: bool = True,
    admin_key: bytes | None = None,
    create: bool = False,
    judge: ConflictJudge | None = None,
) -> Kernel:
    """Open (migrating as needed) the database at ``target`` and wire a kernel on it.

    ``target`` is a file path, taken literally, or a ``sqlite:///`` or ``postgresql://`` URL
    (``journal.engine.to_url``). A SQLite file that does not exist is refused (``JournalNotFound``, a
    ``StorageError`` and a ``FileNotFoundError``) unless ``create``: then a new journal is started there,
    as ``arvis call --create`` does. ``StorageError`` when it is neither, when the database cannot be opened,
    when a newer arvis migrated it (its schema revision is unknown here), or when it holds tables that
    are not an arvis journal's (another application's database): in both cases nothing is written.

    Without ``services``, the default ones are bound, with the working memory's semantic encoder when its
    packages are installed (``pip install -e '.[semantic]'``); a caller that passes ``services`` decides.
    ``identity``: who the kernel may act as (``kernel.identity``; None: every principal, vouched for, but
    the built-in administrators). Whatever it is, a built-in administrator (``admin:…``, ``operator:…``)
    is admitted only with the journal's admin key as its credential (``kernel.identity.admin_credential``,
    checked against the verifier the journal holds, ``journal.admin_binding``), unless it is
    ``VouchedPrincipals(administrators=True)``. ``admin_key``: the key a journal created here records the
    verifier of (an existing journal keeps its own; it is bound with ``arvis db bind-admin-key``).
    ``tracer``: one span per call (``kernel.telemetry.otel_tracer()``; None: no spans, and OpenTelemetry is
    never imported; ``"global"``, the default: the global tracer provider's when one is set, else none,
    ``kernel.telemetry.global_tracer``).
    ``state_checkpoint_interval``: the store keeps a checkpoint of the state with every
    entry whose seq is a multiple of it (none by default: opt-in for its cost, ``journal-format.md`` §16.3;
    10,000 meets the time-travel target), so that ``journal state --at`` and
    ``journal snapshot --at`` replay only the entries since the nearest one; 0 keeps none
    (``journal.state_checkpoints``). ``group_commit``: calls made by threads at once commit together
    (``Kernel``; ``specs/durability.md`` §3.1). ``judge``: the working memory's model judge
    (``kernel.judge.HttpJudge``), bound into the services, given or not; None: the offline detectors."""
    if admin_key is not None and (not isinstance(admin_key, bytes) or len(admin_key) != ADMIN_KEY_BYTES):
        raise ValueError(f"an admin key is {ADMIN_KEY_BYTES} bytes")
    if not create:
        _refuse_missing(target)
    chosen_clock = clock or SystemClock()
    check_writable(target)  # before the writer's first connection, which already writes (WAL)
    store = SqlJournalStore(
        open_engine(target, durability=durability),
        clock=chosen_clock,
        journal_id=journal_id,
        state_checkpoint_interval=state_checkpoint_interval,
        admin_verifier=None if admin_key is None else admin_verifier(admin_key),
    )
    bound = default_services(semantic=True) if services is None else services
    if judge is not None:
        bound = dataclasses.replace(bound, judge=judge)
    if bound.blob_reader is None:
        bound = dataclasses.replace(bound, blob_reader=reader_for(store.engine))
    try:
        return Kernel(  # the journal's administrators: Kernel reads the store's admin verifier
            table=SYSCALL_TABLE,
            services=bound,
            store=store,
            clock=chosen_clock,
            logger=logger,
            identity=identity,
            tracer=global_tracer() if tracer == "global" else tracer,
            group_commit=group_commit,
        )
    except StorageError:
        store.close()
        raise

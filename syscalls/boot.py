"""The composition root: a ready kernel from a database path or URL, with `syscalls.table` on its store."""

from __future__ import annotations

import dataclasses
import os

from journal.blob_store import reader_for
from journal.engine import Durability, open_engine, shown, sqlite_file
from journal.migrate import check_writable
from journal.store import Clock, SqlJournalStore, SystemClock
from kernel.dispatcher import CallLogger, Kernel
from kernel.identity import IdentityPolicy, admin_verifier, check_admin_key
from kernel.judge import ConflictJudge
from kernel.protocols import StorageError
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services
from kernel.telemetry import TracerChoice, global_tracer
from syscalls.table import SYSCALL_TABLE

__all__ = ["DEFAULT_STORE_QUOTA_BYTES", "JournalNotFound", "default_services", "open_kernel"]

DEFAULT_STORE_QUOTA_BYTES = 1 << 30
"""What each owner may store in a new journal's LangGraph store unless the deployment says otherwise: a
gibibyte, where nothing bounded it before (``specs/langgraph.md`` §8.3)."""


class JournalNotFound(StorageError, FileNotFoundError):
    """``open_kernel`` on a SQLite file that does not exist, not asked to create it (``create=True``): a
    mistyped path must not silently start a new, empty journal beside the real one."""


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
    group_commit: bool = True,
    admin_key: bytes | None = None,
    create: bool = False,
    judge: ConflictJudge | None = None,
    store_quota_bytes: int | None = DEFAULT_STORE_QUOTA_BYTES,
) -> Kernel:
    """Open (migrating as needed) the database at ``target`` and wire a kernel on it.

    ``target`` is a file path, taken literally, or a ``sqlite:///`` or ``postgresql://`` URL
    (``journal.engine.to_url``). A SQLite file that does not exist is refused (``JournalNotFound``, a
    ``StorageError`` and a ``FileNotFoundError``) unless ``create``, as ``arvis call --create`` does.
    ``StorageError`` when it is neither, when the database cannot be opened, when a newer arvis migrated
    it (unknown schema revision), or when it holds another application's tables: then nothing is written.

    ``services``: without it, the default ones, with the semantic encoder when its packages are installed.
    ``identity``: who the kernel may act as (``kernel.identity``; None: every principal, vouched for, but
    the built-in administrators, ``admin:…``/``operator:…``, who need the journal's admin key as their
    credential unless it is ``VouchedPrincipals(administrators=True)``). ``admin_key``: the key a journal
    created here records the verifier of (an existing journal keeps its own, ``arvis db bind-admin-key``).
    ``tracer``: one span per call (None: no spans and OpenTelemetry never imported; ``"global"``: the
    global tracer provider's when one is set, ``kernel.telemetry.global_tracer``).
    ``group_commit``: calls
    made by threads at once commit together (``specs/durability.md`` §3.1). ``judge``: the working
    memory's model judge (``kernel.judge.HttpJudge``); None: the offline detectors.
    ``store_quota_bytes``: the bytes each owner may store in the LangGraph store, recorded in a journal
    created here (an existing journal keeps its own; None: no quota; ``specs/langgraph.md`` §8.3)."""
    check_admin_key(admin_key)
    if store_quota_bytes is not None and store_quota_bytes < 0:
        raise ValueError("a store quota is a number of bytes, 0 or more")
    # a SQLite file that does not exist (an in-memory database is always new, a server's database the
    # server's to create); ``UnsupportedDatabase`` for a target that names no database
    path = None if create else sqlite_file(target)
    if path is not None and not os.path.exists(path):
        raise JournalNotFound(
            f"no journal at {shown(target)} ({path}): pass create=True to open_kernel to start a new one"
        )
    chosen_clock = clock or SystemClock()
    check_writable(target)  # before the writer's first connection, which already writes (WAL)
    store = SqlJournalStore(
        open_engine(target, durability=durability),
        clock=chosen_clock,
        journal_id=journal_id,
        admin_verifier=None if admin_key is None else admin_verifier(admin_key),
        store_quota_bytes=store_quota_bytes,
    )
    try:
        # the given services or the defaults, with ``judge`` when one is given and the store's blob
        # reader when they name none
        bound = default_services(semantic=True) if services is None else services
        if judge is not None:
            bound = dataclasses.replace(bound, judge=judge)
        if bound.blob_reader is None:
            bound = dataclasses.replace(bound, blob_reader=reader_for(store.engine))
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

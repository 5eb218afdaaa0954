"""The composition root of a partitioned journal: create one, open its router, record its heads.

Like ``kernel.boot`` (which wires every partition's kernel), this module imports ``journal/``: it is the
second composition root, for partitioned journals only (``specs/scale-out.md``).
"""

from __future__ import annotations

import dataclasses
import os
from contextlib import ExitStack
from pathlib import Path

from arvis.canonical import decode, format_time, sha256_hex
from journal.engine import Durability, sqlite_file
from journal.partition_log import manifest_record
from journal.partition_manifest import (
    ManifestError,
    PartitionManifest,
    make_private_directory,
    new_manifest,
    read_manifest,
    write_manifest,
)
from journal.reader import JournalReader
from journal.state_checkpoints import DEFAULT_INTERVAL
from kernel.boot import open_kernel
from kernel.clock import Clock, SystemClock
from kernel.dispatcher import CallLogger, Kernel
from kernel.identity import ADMIN_KEY_BYTES, AdministeredStore, IdentityPolicy
from kernel.partition_routing import PartitionKey
from kernel.partitioned import (
    DEFAULT_HEADS_EVERY,
    MANIFEST_KIND,
    ROUTER_PRINCIPAL,
    HeadsRecord,
    HeadsRecorder,
    PartitionedKernel,
)
from kernel.protocols import StorageError
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services

__all__ = ["create_partitioned", "open_partitioned", "record_heads"]


def _holds_journal(target: str) -> bool:
    """Whether ``target`` already holds an arvis journal (a SQLite file that does not exist holds none)."""
    path = sqlite_file(target)
    if path is not None and not os.path.exists(path):
        return False
    if path is not None and os.path.getsize(path) == 0:
        return False
    reader = JournalReader.open(target)
    try:
        return reader.header() is not None
    finally:
        reader.close()


def create_partitioned(
    location: str | os.PathLike[str],
    *,
    partitions: int,
    key: PartitionKey = PartitionKey.HASH,
    set_id: str | None = None,
    databases: list[str] | None = None,
    global_database: str | None = None,
    clock: Clock | None = None,
    admin_key: bytes | None = None,
) -> PartitionManifest:
    """Create a partitioned journal: every partition's journal (id ``<set>/p<k>``), the global log (id
    ``<set>/global``) with the manifest recorded as its first entry, then the manifest file.

    ``location``: a directory (SQLite: ``p<k>.db`` and ``global.db`` are created in it unless
    ``databases`` says otherwise; the manifest is ``partitions.json``) or a ``*.json`` manifest path
    (PostgreSQL: ``databases`` and ``global_database`` are URLs of existing, empty databases). Nothing is
    written when a database already holds a journal or the manifest exists (``ManifestError``).

    ``admin_key``: the key every partition's journal and the global log record the verifier of, so that
    its holder is the set's administrator in every partition (``kernel.boot.open_kernel``); without one,
    the set has no built-in administrator."""
    if admin_key is not None and (not isinstance(admin_key, bytes) or len(admin_key) != ADMIN_KEY_BYTES):
        raise ValueError(f"an admin key is {ADMIN_KEY_BYTES} bytes")
    chosen_clock = clock or SystemClock()
    path = Path(location)
    if databases is None and path.suffix != ".json":
        make_private_directory(path)
    created_at = format_time(chosen_clock.now())
    if set_id is None:
        set_id = "ps-" + sha256_hex(f"{created_at}|{path.resolve()}".encode())[:24]
    manifest = new_manifest(
        path,
        partitions=partitions,
        key=key,
        set_id=set_id,
        databases=databases,
        global_database=global_database,
    )
    if manifest.path.exists():
        raise ManifestError(f"{manifest.path} exists already: a partitioned journal is created once")
    targets = [*(manifest.database(index) for index in range(manifest.count)), manifest.global_database()]
    taken = [target for target in targets if _holds_journal(target)]
    if taken:
        raise ManifestError(f"{taken[0]} holds a journal already: a partition starts empty")
    for index in range(manifest.count):
        open_kernel(
            manifest.database(index),
            clock=chosen_clock,
            journal_id=manifest.partition_ids[index],
            services=default_services(),
            admin_key=admin_key,
            create=True,
        ).close()
    log = open_kernel(
        manifest.global_database(),
        clock=chosen_clock,
        journal_id=manifest.global_id,
        services=default_services(),
        admin_key=admin_key,
        create=True,
    )
    try:
        first = log.call("kernel.record", manifest_record(manifest), principal=ROUTER_PRINCIPAL)
    finally:
        log.close()
    if not first.ok or first.seq != 1:
        raise StorageError(f"the global log did not take the manifest as its first entry: {first!r}")
    write_manifest(manifest)
    return manifest


def _checked_reader(target: str, journal_id: str, what: str) -> JournalReader:
    """A reader of an existing journal whose id is ``journal_id`` (``StorageError`` otherwise)."""
    path = sqlite_file(target)
    if path is not None and not os.path.exists(path):
        raise StorageError(f"{what}: no journal at {path}")
    reader = JournalReader.open(target)
    try:
        header = reader.header()
        if header is None:
            raise StorageError(f"{what}: {target} holds no journal")
        if header.journal_id != journal_id:
            raise StorageError(f"{what}: {target} holds journal {header.journal_id!r}, not {journal_id!r}")
    except BaseException:
        reader.close()
        raise
    return reader


def _check_global(reader: JournalReader, manifest: PartitionManifest) -> None:
    """The manifest is whole and the global log records it as its first entry."""
    if manifest.recorded_hash != manifest.manifest_hash:
        raise StorageError(f"{manifest.path}: manifest altered: its manifest_hash is not its identity's")
    first = reader.get(1)
    args = decode(first.args) if first is not None and first.syscall == "kernel.record" else None
    payload = args.get("payload") if isinstance(args, dict) and args.get("kind") == MANIFEST_KIND else None
    if not isinstance(payload, dict) or payload.get("manifest_hash") != manifest.manifest_hash:
        raise StorageError(
            f"the global log does not record the manifest {manifest.manifest_hash[:16]}… as its first entry"
        )


def _heads_reader(readers: list[JournalReader]) -> list[tuple[int, str]]:
    heads: list[tuple[int, str]] = []
    for reader in readers:
        head = reader.head()
        if head is None:
            header = reader.header()
            assert header is not None
            heads.append((0, header.genesis_hash))
        else:
            heads.append((head.seq, head.entry_hash))
    return heads


def _check_one_administrator(kernels: list[Kernel]) -> None:
    """Every partition is bound to the same admin key (``create_partitioned(admin_key=...)``): the set
    has one administrator, whichever partition a call is routed to; ``StorageError`` if not."""
    verifiers = {
        kernel.store.admin_verifier() if isinstance(kernel.store, AdministeredStore) else None
        for kernel in kernels
    }
    if len(verifiers) > 1:
        raise StorageError(
            "the partitions are bound to different admin keys: a set has one administrator "
            "(bind the same key to every partition, `arvis db bind-admin-key`)"
        )


def open_partitioned(
    location: str | os.PathLike[str],
    *,
    clock: Clock | None = None,
    durability: Durability = Durability.NORMAL,
    services: KernelServiceRegistry | None = None,
    identity: IdentityPolicy | None = None,
    logger: CallLogger | None = None,
    heads_every: int = DEFAULT_HEADS_EVERY,
    group_commit: bool = True,
    state_checkpoint_interval: int = DEFAULT_INTERVAL,
) -> PartitionedKernel:
    """The router over an existing partitioned journal (its manifest at ``location``). Every database
    must exist and hold the journal the manifest names (a missing partition is never created here) and
    the global log must record this manifest first; else ``StorageError`` (``ManifestError`` for the
    manifest itself). Each partition is opened with ``kernel.boot.open_kernel`` and these settings;
    ``services`` is shared, each partition binding its own blob store."""
    manifest = read_manifest(location)
    chosen_clock = clock or SystemClock()
    with ExitStack() as stack:
        global_reader = _checked_reader(manifest.global_database(), manifest.global_id, "the global log")
        stack.callback(global_reader.close)
        _check_global(global_reader, manifest)
        readers: list[JournalReader] = []
        for index in range(manifest.count):
            reader = _checked_reader(
                manifest.database(index), manifest.partition_ids[index], f"partition {index}"
            )
            stack.callback(reader.close)
            readers.append(reader)
        bound = default_services(semantic=True) if services is None else services
        kernels: list[Kernel] = []
        for index in range(manifest.count):
            kernel = open_kernel(
                manifest.database(index),
                clock=chosen_clock,
                durability=durability,
                services=dataclasses.replace(bound, blob_reader=None),
                journal_id=manifest.partition_ids[index],
                logger=logger,
                identity=identity,
                state_checkpoint_interval=state_checkpoint_interval,
                group_commit=group_commit,
            )
            stack.callback(kernel.close)
            kernels.append(kernel)
        log = open_kernel(
            manifest.global_database(),
            clock=chosen_clock,
            durability=durability,
            services=default_services(),
            journal_id=manifest.global_id,
        )
        stack.callback(log.close)
        _check_one_administrator(kernels)
        opened = stack.pop_all()

    def entry_hash(seq: int) -> str:
        entry = global_reader.get(seq)
        return "" if entry is None else entry.entry_hash

    def release() -> None:
        for reader in (*readers, global_reader):
            reader.close()

    try:
        return PartitionedKernel(
            kernels=kernels,
            key=manifest.key,
            global_log=log,
            read_heads=lambda: _heads_reader(readers),
            global_entry_hash=entry_hash,
            heads_every=heads_every,
            on_close=release,
        )
    except BaseException:
        opened.close()
        raise


def record_heads(location: str | os.PathLike[str], *, clock: Clock | None = None) -> HeadsRecord:
    """Record every partition's head in the global log now, without opening any partition for writing
    (``arvis partitions checkpoint``)."""
    manifest = read_manifest(location)
    with ExitStack() as stack:
        global_reader = _checked_reader(manifest.global_database(), manifest.global_id, "the global log")
        stack.callback(global_reader.close)
        _check_global(global_reader, manifest)
        readers = []
        for index in range(manifest.count):
            reader = _checked_reader(
                manifest.database(index), manifest.partition_ids[index], f"partition {index}"
            )
            stack.callback(reader.close)
            readers.append(reader)
        log = open_kernel(
            manifest.global_database(),
            clock=clock,
            services=default_services(),
            journal_id=manifest.global_id,
        )
        recorder = HeadsRecorder(
            log,
            lambda: _heads_reader(readers),
            lambda seq: entry.entry_hash if (entry := global_reader.get(seq)) else "",
        )
        try:
            record = recorder.record()
            assert record is not None
            return record
        finally:
            log.close()

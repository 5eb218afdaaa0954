"""Verification of a partitioned journal (``specs/scale-out.md`` §6).

In order: the manifest (its identity hashes to its ``manifest_hash``); the global log (chain and replay,
``verify_journal``; its first entry records this manifest; every other entry records every partition's
head); each partition (its header's id is the manifest's; chain and replay, with every
head the global log recorded for it as a checkpoint, so a rewritten, truncated or rolled-back partition
fails at the first seq that departs; no entry belongs in another partition: each entry's recorded
(syscall, args) is routed again); then across partitions, that grants scoped ``*`` (which the router
applies to every partition) are the same in each. Partitions are verified one after another, or in
``jobs`` processes at once. The report names, per partition and overall, the first bad seq and why.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select

from journal.engine import shown, sqlite_file
from journal.partition_log import GlobalLog, read_global_log
from journal.partition_manifest import PartitionManifest, read_manifest
from journal.reader import JournalReader
from journal.replay import Checkpoint, ReplayReport, verify_journal
from journal.schema import grants
from kernel.arguments import record_args
from kernel.partition_routing import PartitionKey, route
from kernel.protocols import StorageError
from kernel.registry import KernelServiceRegistry
from kernel.table import SyscallTable

__all__ = ["PartReport", "PartitionedReport", "verify_partitioned"]

GLOBAL = "global"
"""The name of the global log in reports (partitions are ``p0``, ``p1``, …)."""


@dataclass(frozen=True)
class PartReport:
    """One journal of the set: the global log or a partition."""

    name: str
    journal_id: str
    database: str
    verified: bool
    entries: int = 0
    head_seq: int = 0
    head_hash: str = ""
    replayed: bool = False
    first_bad_seq: int | None = None
    reason: str | None = None
    recorded_seq: int | None = None
    """A partition's last head recorded in the global log (0: none yet); None for the global log."""
    star_grants: tuple[tuple[str, str], ...] = ()
    """A partition's grants scoped ``*``, as (principal, capability), for the check across partitions."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "journal_id": self.journal_id,
            "db": self.database,
            "verified": self.verified,
            "replayed": self.replayed,
            "entries": self.entries,
            "head_seq": self.head_seq,
            "head_hash": self.head_hash,
            "recorded_seq": self.recorded_seq,
            "first_bad_seq": self.first_bad_seq,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class PartitionedReport:
    """The verdict on a whole set: every part, the problems across partitions, the first bad place."""

    manifest: str
    set_id: str
    key: str
    count: int
    manifest_hash: str
    parts: tuple[PartReport, ...]
    """The global log first, then partitions 0 … P-1."""
    heads_records: int
    problems: tuple[str, ...] = ()
    """Problems across partitions (no single partition is at fault)."""
    seconds: float = 0.0

    @property
    def verified(self) -> bool:
        return all(part.verified for part in self.parts) and not self.problems

    @property
    def first_bad(self) -> PartReport | None:
        return next((part for part in self.parts if not part.verified), None)

    def to_json(self) -> dict[str, Any]:
        bad = self.first_bad
        return {
            "verified": self.verified,
            "manifest": self.manifest,
            "set_id": self.set_id,
            "key": self.key,
            "partition_count": self.count,
            "manifest_hash": self.manifest_hash,
            "heads_records": self.heads_records,
            "first_bad": None
            if bad is None
            else {"journal": bad.name, "seq": bad.first_bad_seq, "reason": bad.reason},
            "problems": list(self.problems),
            "seconds": round(self.seconds, 6),
            "journals": [part.to_json() for part in self.parts],
        }


@dataclass(frozen=True)
class _Task:
    """One partition to verify (picklable: it may run in another process)."""

    index: int
    database: str
    journal_id: str
    count: int
    key: PartitionKey
    checkpoints: tuple[tuple[int, str], ...]
    genesis: str | None
    """The genesis hash the global log recorded as this partition's head while it was empty."""
    recorded_seq: int
    replay: bool
    table: SyscallTable
    services: KernelServiceRegistry | None


def _failed(name: str, journal_id: str, database: str, seq: int, reason: str, **known: Any) -> PartReport:
    return PartReport(name, journal_id, database, False, first_bad_seq=seq, reason=reason, **known)


def _open(target: str) -> JournalReader:
    """A reader of an existing database (``StorageError`` naming a missing file: reading creates none)."""
    path = sqlite_file(target)
    if path is not None and not os.path.exists(path):
        raise StorageError(f"no journal at {path}: the database is missing")
    return JournalReader.open(target)


def _from_replay(name: str, journal_id: str, database: str, report: ReplayReport, **known: Any) -> PartReport:
    divergence = report.divergence
    return PartReport(
        name,
        journal_id,
        database,
        report.verified,
        entries=report.entries,
        head_seq=report.head_seq,
        head_hash=report.head_hash,
        replayed=report.replayed,
        first_bad_seq=None if divergence is None else divergence.seq,
        reason=None if divergence is None else divergence.reason,
        **known,
    )


def _misrouted(reader: JournalReader, task: _Task) -> tuple[int, str] | None:
    """The first entry whose recorded call the router would never send to this partition."""
    for entry in reader.entries():
        found = route(entry.syscall, entry.args, task.count, task.key)
        if found.refused:
            return entry.seq, f"misrouted: the router refuses {entry.syscall} here ({found.refused})"
        if found.bound and task.index not in found.partitions:
            where = " and ".join(str(index) for index in found.partitions)
            return (
                entry.seq,
                f"misrouted: this {entry.syscall} belongs in partition {where}, not {task.index}",
            )
        if found.args is not None and task.index in found.partitions:  # a split call: only this share
            share = found.args[found.partitions.index(task.index)]
            if record_args(share) != entry.args:
                return (
                    entry.seq,
                    f"misrouted: this {entry.syscall} names subjects of another partition than {task.index}",
                )
    return None


def _star_grants(reader: JournalReader) -> tuple[tuple[str, str], ...]:
    query = select(grants.c.principal, grants.c.capability).where(grants.c.scope == "*")
    with reader.engine.connect() as connection:
        rows = connection.execute(query).all()
    return tuple(sorted((str(row[0]), str(row[1])) for row in rows))


def _verify_partition(task: _Task) -> PartReport:
    name, shown_db = f"p{task.index}", shown(task.database)
    known: dict[str, Any] = {"recorded_seq": task.recorded_seq}
    try:
        reader = _open(task.database)
    except StorageError as exc:
        return _failed(name, task.journal_id, shown_db, 0, str(exc), **known)
    try:
        header = reader.header()
        if header is None:
            return _failed(name, task.journal_id, shown_db, 0, "the database holds no journal", **known)
        if header.journal_id != task.journal_id:
            return _failed(
                name,
                task.journal_id,
                shown_db,
                0,
                f"the database holds journal {header.journal_id!r}, not partition {task.index}'s "
                f"({task.journal_id!r}): a partition replaced or swapped",
                **known,
            )
        if task.genesis is not None and task.genesis != header.genesis_hash:
            return _failed(
                name, task.journal_id, shown_db, 0, "the global log recorded another genesis hash", **known
            )
        checkpoints = [Checkpoint(seq, digest) for seq, digest in task.checkpoints]
        report = verify_journal(
            reader, table=task.table, services=task.services, replay=task.replay, checkpoint=checkpoints
        )
        if report.divergence is not None:
            report = _recorded_head(report)
        part = _from_replay(name, task.journal_id, shown_db, report, **known)
        if not part.verified:
            return part
        misrouted = _misrouted(reader, task)
        if misrouted is not None:
            return _failed(
                name,
                task.journal_id,
                shown_db,
                misrouted[0],
                misrouted[1],
                entries=report.entries,
                head_seq=report.head_seq,
                head_hash=report.head_hash,
                replayed=report.replayed,
                **known,
            )
        return replace(part, star_grants=_star_grants(reader))
    except StorageError as exc:
        return _failed(name, task.journal_id, shown_db, 0, f"cannot read the journal: {exc}", **known)
    finally:
        reader.close()


_ENDS = re.compile(r"^journal ends at seq (\d+): it no longer extends checkpoint (\d+)$")
_REWRITTEN = "history rewritten: the entry hash at the checkpoint's seq differs"


def _recorded_head(report: ReplayReport) -> ReplayReport:
    """A checkpoint failure said as what it means here: the partition departs from a head the global
    log recorded (rolled back, truncated or rewritten since)."""
    divergence = report.divergence
    assert divergence is not None
    ends = _ENDS.match(divergence.reason)
    if ends is not None:
        reason = (
            f"journal ends at seq {ends[1]}: it no longer extends the head recorded in the global log "
            f"at seq {ends[2]} (rolled back or truncated)"
        )
    elif divergence.reason == _REWRITTEN:
        reason = (
            f"history rewritten: the entry hash at seq {divergence.seq} is not the head the global log "
            "recorded there"
        )
    else:
        return report
    labels = ("head recorded in the global log", "partition's entry hash")
    return replace(report, divergence=replace(divergence, reason=reason, labels=labels))


def _verify_global(
    manifest: PartitionManifest,
    *,
    table: SyscallTable,
    services: KernelServiceRegistry | None,
    replay: bool,
    checkpoints: Sequence[Checkpoint],
    precheck: Callable[[JournalReader], ReplayReport | None] | None,
) -> tuple[PartReport, GlobalLog]:
    database, journal_id = manifest.global_database(), manifest.global_id
    shown_db = shown(database)
    log = GlobalLog()
    if manifest.recorded_hash != manifest.manifest_hash:
        reason = f"manifest altered: its identity hashes to {manifest.manifest_hash}, not its manifest_hash"
        return _failed(GLOBAL, journal_id, shown_db, 1, reason), log
    try:
        reader = _open(database)
    except StorageError as exc:
        return _failed(GLOBAL, journal_id, shown_db, 0, str(exc)), log
    try:
        header = reader.header()
        if header is None or header.journal_id != journal_id:
            held = "no journal" if header is None else f"journal {header.journal_id!r}"
            return _failed(
                GLOBAL, journal_id, shown_db, 0, f"the database holds {held}, not {journal_id!r}"
            ), log
        report = precheck(reader) if precheck is not None else None
        if report is None:
            report = verify_journal(
                reader, table=table, services=services, replay=replay, checkpoint=list(checkpoints)
            )
        part = _from_replay(GLOBAL, journal_id, shown_db, report)
        if not part.verified:
            return part, log
        log = read_global_log(reader.entries(), manifest.count)
        problem = log.problem
        if problem is None and log.manifest_hash != manifest.manifest_hash:
            problem = (
                1,
                f"the global log records manifest {log.manifest_hash}, not {manifest.manifest_hash}",
            )
        if problem is not None:
            return replace(part, verified=False, first_bad_seq=problem[0], reason=problem[1]), log
        return part, log
    except StorageError as exc:
        return _failed(GLOBAL, journal_id, shown_db, 0, f"cannot read the journal: {exc}"), log
    finally:
        reader.close()


def _tasks(
    manifest: PartitionManifest,
    log: GlobalLog,
    *,
    table: SyscallTable,
    services: KernelServiceRegistry | None,
    replay: bool,
) -> tuple[list[_Task], list[str]]:
    """One task per partition, with the heads the global log recorded for it; two different hashes at one
    seq of a partition are a problem of the global log (no chain holds both)."""
    tasks: list[_Task] = []
    problems: list[str] = []
    for index in range(manifest.count):
        kept: dict[int, str] = {}
        genesis: str | None = None
        for record in log.heads:
            seq, digest = record.heads[index]
            if seq == 0:
                genesis = digest
            elif kept.setdefault(seq, digest) != digest:
                problems.append(
                    f"the global log records two hashes for partition {index} at seq {seq} "
                    f"(global seq {record.seq})"
                )
        recorded = max(kept, default=0)
        tasks.append(
            _Task(
                index,
                manifest.database(index),
                manifest.partition_ids[index],
                manifest.count,
                manifest.key,
                tuple(sorted(kept.items())),
                genesis,
                recorded,
                replay,
                table,
                services,
            )
        )
    return tasks, problems


def _star_problems(parts: Sequence[PartReport]) -> list[str]:
    """Grants scoped ``*`` are applied to every partition: each must hold the same ones."""
    checked = [part for part in parts if part.verified]
    if len(checked) < 2:
        return []
    first = checked[0]
    problems = []
    for part in checked[1:]:
        if part.star_grants != first.star_grants:
            missing = sorted(set(first.star_grants) ^ set(part.star_grants))
            principal, capability = missing[0]
            problems.append(
                f"grants scoped '*' differ between {first.name} and {part.name} "
                f"(first: {capability} for {principal}): a '*' grant or revoke did not reach every partition"
            )
    return problems


def verify_partitioned(
    location: str | os.PathLike[str],
    *,
    table: SyscallTable,
    services: KernelServiceRegistry | None = None,
    replay: bool = True,
    jobs: int = 1,
    global_checkpoints: Sequence[Checkpoint] = (),
    global_precheck: Callable[[JournalReader], ReplayReport | None] | None = None,
) -> PartitionedReport:
    """Verify the partitioned journal whose manifest is at ``location`` (``ManifestError`` when there is
    none to read). ``jobs`` > 1 verifies that many partitions at once, each in a process of its own.
    ``global_checkpoints`` apply to the global log (``SEQ:HASH`` an auditor kept); ``global_precheck``
    runs first on it and may fail it (a signed checkpoint, ``tools.journal_proofs.signed_report``)."""
    started = time.perf_counter()
    manifest = read_manifest(location)
    global_part, log = _verify_global(
        manifest,
        table=table,
        services=services,
        replay=replay,
        checkpoints=global_checkpoints,
        precheck=global_precheck,
    )
    tasks, problems = _tasks(manifest, log, table=table, services=services, replay=replay)
    if jobs > 1 and len(tasks) > 1:
        context = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=context) as pool:
            parts = list(pool.map(_verify_partition, tasks))
    else:
        parts = [_verify_partition(task) for task in tasks]
    problems += _star_problems(parts)
    return PartitionedReport(
        manifest=str(manifest.path),
        set_id=manifest.set_id,
        key=manifest.key.value,
        count=manifest.count,
        manifest_hash=manifest.manifest_hash,
        parts=(global_part, *parts),
        heads_records=len(log.heads),
        problems=tuple(problems),
        seconds=time.perf_counter() - started,
    )

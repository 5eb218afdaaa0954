"""Time travel: the state and a user's snapshot as of any seq, rebuilt from the journal.

Both start from the nearest state checkpoint at or before the seq (``journal.state_checkpoints``) when
the journal has one, and replay only the entries after it: ``state_at`` loads the whole checkpoint into
a scratch store and re-executes every entry since; ``snapshot_at`` loads only the user's long-term
memory and re-executes only the user's accepted ``memory.write`` and ``memory.revoke`` calls since, with
the memory service on those rows held in memory (``arvis.memory.held_rows``). Every call re-executed
must give its journaled result byte for byte. Without a checkpoint (a journal written before them, or
with none kept), or when one cannot be used (a blob missing, a replay that departs from the record, a
partition not in its table's shape), the journal is replayed from its first entry, as before
checkpoints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import orjson
from sqlalchemy import Connection, select
from sqlalchemy.exc import SQLAlchemyError

from arvis.canonical import canonical_bytes_of_own, parse_time, plain
from arvis.memory.errors import MemoryRuleError
from arvis.memory.held_rows import HeldMemory, UnheldRow
from arvis.memory.memory_service import MemoryService
from journal.engine import fetch_all, fetch_sql
from journal.memory_repository import REBUILD_COUNTS
from journal.reader import JournalFilter, JournalReader, row_to_entry
from journal.replay import Replayer
from journal.schema import journal
from journal.sql import Prepared
from journal.state import present_state_tables, state_digest
from journal.state_checkpoints import (
    CheckpointUnusable,
    load_state,
    nearest_checkpoint,
    partition_rows,
    read_manifest,
)
from journal.store import JournalHeader
from journal.verify import damaged_header
from kernel.abi import JournalEntry
from kernel.protocols import StorageError
from kernel.table import SyscallTable

__all__ = [
    "JSON_TEXT_COLUMNS",
    "MEMORY_WRITERS",
    "NoSuchMoment",
    "StateAt",
    "replay_from_checkpoint",
    "replay_until",
    "snapshot_at",
    "snapshot_from_checkpoint",
    "state_at",
]


class NoSuchMoment(StorageError):
    """A seq the journal does not reach: the caller asked for a moment that is not there (a usage
    error at the command line, not damage)."""


JSON_TEXT_COLUMNS = frozenset({"governance", "body"})
"""State columns that hold a canonical JSON object as text (``journal-format.md`` §1.3, §1.4)."""


def _as_object(text: Any) -> Any:
    """A JSON-text column as the object it holds, so ``state`` shows governance the way ``snapshot``
    does; text that is not a JSON object (a hand edit) is shown as stored."""
    if not isinstance(text, str):
        return text
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return text
    return value if isinstance(value, dict) else text


def _shown_row(row: dict[str, Any]) -> dict[str, Any]:
    return {name: _as_object(value) if name in JSON_TEXT_COLUMNS else value for name, value in row.items()}


@dataclass(frozen=True)
class StateAt:
    seq: int
    recorded_at: str | None
    digest: str
    tables: dict[str, list[dict[str, Any]]]
    checkpoint: int | None = None
    """The seq of the state checkpoint the replay started from (None: from the first entry)."""

    def to_json(self) -> dict[str, Any]:
        """The state for people and scripts: rows as stored, JSON-text columns as their objects (the
        digest is over the stored text; ``tables`` keeps it)."""
        return {
            "seq": self.seq,
            "recorded_at": self.recorded_at,
            "state_digest": self.digest,
            "tables": {name: [_shown_row(row) for row in rows] for name, rows in self.tables.items()},
        }


def _header(reader: JournalReader) -> JournalHeader:
    header = reader.header()
    if header is None:
        raise StorageError("the database holds no arvis journal (no header)")
    return header


def _nearest(reader: JournalReader, seq: int | None) -> tuple[JournalEntry, str] | None:
    """The entry of the nearest state checkpoint at or before ``seq`` (the head when None) and the
    checkpoint's manifest hash; None when there is none to start from."""
    try:
        if seq is None:
            head = reader.head()
            if head is None:
                return None
            seq = head.seq
        with reader.engine.connect() as connection:
            found = nearest_checkpoint(connection, seq)
    except SQLAlchemyError:
        return None
    if found is None:
        return None
    start = reader.get(found[0])
    return None if start is None else (start, found[1])


class _Departed(Exception):
    """A replay from a checkpoint that did not reproduce the record: the caller replays from seq 1."""


def replay_from_checkpoint(
    reader: JournalReader, seq: int | None, *, table: SyscallTable
) -> tuple[Replayer, int, str | None, int] | None:
    """A replayer holding the state right after entry ``seq`` (the head when None), loaded from the
    nearest state checkpoint and replayed from there: with its last seq and time and the checkpoint's
    seq. None when there is no checkpoint to start from, or it cannot be used (a blob missing or
    damaged, a call since it that does not replay as journaled)."""
    header = _header(reader)
    if damaged_header(header) is not None:
        return None
    nearest = _nearest(reader, seq)
    if nearest is None:
        return None
    start, manifest_hash = nearest
    replayer = Replayer(header, table=table, blobs_from=reader.engine)
    last_seq, last_time = start.seq, start.recorded_at
    try:
        with reader.engine.connect() as source, replayer.store.engine.begin() as connection:
            load_state(source, manifest_hash, connection)
            connection.exec_driver_sql(REBUILD_COUNTS)
        replayer.store.resume_after(start.seq, start.entry_hash)
        for entry in reader.entries(JournalFilter(after_seq=start.seq, until_seq=seq)):
            if replayer.apply(entry) is not None:
                raise _Departed
            last_seq, last_time = entry.seq, entry.recorded_at
        if replayer.flush() is not None:
            raise _Departed
    except (CheckpointUnusable, SQLAlchemyError, _Departed):
        replayer.close()
        return None
    except BaseException:
        replayer.close()
        raise
    return replayer, last_seq, last_time, start.seq


def replay_until(
    reader: JournalReader, seq: int | None, *, table: SyscallTable, checkpoints: bool = True
) -> tuple[Replayer, int, str | None]:
    """A replayer holding the state right after entry ``seq`` (the head when None): from the nearest
    state checkpoint when there is one (``checkpoints``), else from the first entry."""
    resumed = replay_from_checkpoint(reader, seq, table=table) if checkpoints else None
    if resumed is not None:
        replayer, last_seq, last_time, _ = resumed
    else:
        replayer, last_seq, last_time = _replay_all(reader, seq, table=table)
    if seq is not None and last_seq != seq:
        replayer.close()
        raise NoSuchMoment(f"the journal has no entry {seq} (it ends at {last_seq})")
    return replayer, last_seq, last_time


def _replay_all(
    reader: JournalReader, seq: int | None, *, table: SyscallTable
) -> tuple[Replayer, int, str | None]:
    replayer = Replayer(_header(reader), table=table, blobs_from=reader.engine)
    last_seq, last_time = 0, None
    try:
        for entry in reader.entries(JournalFilter(until_seq=seq)):
            diverged = replayer.apply(entry)
            if diverged is not None:
                raise StorageError(f"the journal does not replay at seq {diverged.seq}: {diverged.reason}")
            last_seq, last_time = entry.seq, entry.recorded_at
        failed = replayer.flush()
        if failed is not None:
            raise StorageError(f"the replay could not commit: {failed}")
    except BaseException:
        replayer.close()
        raise
    return replayer, last_seq, last_time


def state_at(
    reader: JournalReader, seq: int | None, *, table: SyscallTable, checkpoints: bool = True
) -> StateAt:
    """Every state table's rows and the state digest right after entry ``seq`` (the head when None)."""
    resumed = replay_from_checkpoint(reader, seq, table=table) if checkpoints else None
    if resumed is not None:
        replayer, last_seq, last_time, start = resumed
        if seq is not None and last_seq != seq:
            replayer.close()
            raise NoSuchMoment(f"the journal has no entry {seq} (it ends at {last_seq})")
    else:
        replayer, last_seq, last_time = replay_until(reader, seq, table=table, checkpoints=False)
        start = None
    try:
        tables: dict[str, list[dict[str, Any]]] = {}
        with replayer.store.engine.connect() as connection:
            digest = state_digest(connection, keep=tables)
            for state_table in present_state_tables(connection):
                tables.setdefault(str(state_table.name), [])
        return StateAt(last_seq, last_time, digest, tables, start)
    finally:
        replayer.close()


def snapshot_at(
    reader: JournalReader, user_id: str, seq: int | None, *, table: SyscallTable, checkpoints: bool = True
) -> dict[str, Any]:
    """What ``memory.snapshot`` would have returned for ``user_id`` right after entry ``seq``,
    its ``created_at`` being that entry's time."""
    if checkpoints:
        fast = snapshot_from_checkpoint(reader, user_id, seq, table=table)
        if fast is not None:
            return fast
    replayer, last_seq, last_time = replay_until(reader, seq, table=table, checkpoints=False)
    try:
        if last_time is None:
            where = "the journal is empty" if seq is None else f"seq {seq} is before the first entry"
            raise StorageError(f"{where}: there is no moment to take a snapshot at")
        with replayer.store.read_only() as repository:
            value = plain(MemoryService().snapshot(repository, user_id=user_id, now=parse_time(last_time)))
        return {"seq": last_seq, **value}
    finally:
        replayer.close()


# --- a user's snapshot from a checkpoint -----------------------------------------------------------

MEMORY_WRITERS = ("memory.write", "memory.revoke")
"""The syscalls that change ``memory_entries`` (``syscalls/memory_long.py``): a user's long-term memory
right after entry S is the checkpoint's, changed by these calls' accepted entries since, in seq order."""


def _calls_since_sql(postgres: bool) -> str:
    writers = ", ".join(f"'{name}'" for name in MEMORY_WRITERS)
    # the arguments' bytes hold the needle: SQLite's instr and PostgreSQL's position, both on binary
    holds = "position(:needle IN args) > 0" if postgres else "instr(args, :needle) > 0"
    return (
        "SELECT seq, recorded_at, syscall, args, result FROM journal WHERE seq > :after AND seq <= :until"
        f" AND syscall IN ({writers}) AND status = 'ok' AND {holds} ORDER BY seq"
    )


_CALLS_SINCE = {postgres: _calls_since_sql(postgres) for postgres in (False, True)}
"""``_calls_since``'s statement, in ``journal.sql``'s portable subset (prepared per call, not compiled)."""


def _calls_since(
    source: Connection, user_id: str, after: int, until: int
) -> list[tuple[int, str, str, bytes, bytes]]:
    """(seq, recorded_at, syscall, args, result) of the accepted memory writes and revokes in
    ``(after, until]`` whose arguments name ``user_id``: filtered in SQL on the canonical bytes of
    ``"user_id":<id>`` (the arguments are canonical JSON; the decoded arguments are checked again)."""
    needle = b'"user_id":' + canonical_bytes_of_own(user_id)
    statement = Prepared(_CALLS_SINCE[source.dialect.name == "postgresql"], source.dialect.paramstyle)
    rows = fetch_sql(
        source, statement.sql, statement.bind({"needle": needle, "after": after, "until": until})
    )
    return [(int(r[0]), str(r[1]), str(r[2]), bytes(r[3]), bytes(r[4])) for r in rows]


_UNUSABLE = (
    CheckpointUnusable,
    UnheldRow,
    SQLAlchemyError,
    msgspec.DecodeError,
    StorageError,
    MemoryRuleError,
)
"""What makes a checkpoint unusable for a snapshot: the caller replays the whole journal instead."""


def snapshot_from_checkpoint(
    reader: JournalReader, user_id: str, seq: int | None, *, table: SyscallTable
) -> dict[str, Any] | None:
    """``snapshot_at`` from the nearest state checkpoint: the user's rows of ``memory_entries`` there,
    held in memory (``arvis.memory.held_rows``), then the user's accepted ``memory.write`` and
    ``memory.revoke`` entries since, re-executed by the memory service on those rows, each giving its
    journaled result byte for byte. None when there is no checkpoint to start from or it cannot be used
    (the caller replays the whole journal)."""
    header = reader.header()
    if header is None or damaged_header(header) is not None:
        return None
    decoders = {name: msgspec.json.Decoder(table[name].request_type) for name in MEMORY_WRITERS}
    try:
        with reader.engine.connect() as source:
            target = _entry(source, seq)
            found = None if target is None else nearest_checkpoint(source, target.seq)
            if target is None or found is None:
                return None
            start, manifest_hash = found
            rows = partition_rows(source, read_manifest(source, manifest_hash), "memory_entries", user_id)
            calls = _calls_since(source, user_id, start, target.seq)
        value = _replayed_snapshot(HeldMemory(user_id, rows), calls, decoders, user_id, target)
    except _UNUSABLE:
        return None
    return None if value is None else {"seq": target.seq, **value}


def _replayed_snapshot(
    held: HeldMemory,
    calls: list[tuple[int, str, str, bytes, bytes]],
    decoders: dict[str, msgspec.json.Decoder[Any]],
    user_id: str,
    target: JournalEntry,
) -> dict[str, Any] | None:
    """The user's rows at the checkpoint (``held``), the calls since re-executed on them (None as soon
    as one does not give its journaled result), then the snapshot at ``target``'s time, as plain
    values."""
    service = MemoryService()
    for call_seq, recorded_at, syscall, args, result in calls:
        request = decoders[syscall].decode(args)
        if request.user_id != user_id:  # the bytes matched elsewhere in the arguments
            continue
        now = parse_time(recorded_at)
        if syscall == "memory.write":
            decided = service.write(held, request, now=now, seq=call_seq)
        else:
            decided = service.revoke(held, user_id=user_id, key=request.key, now=now)
        if canonical_bytes_of_own({"ok": True, "value": decided.value}) != result:
            return None
        held.apply(decided.changes)
    snapshot: dict[str, Any] = plain(
        service.snapshot(held, user_id=user_id, now=parse_time(target.recorded_at))
    )
    return snapshot


def _entry(source: Connection, seq: int | None) -> JournalEntry | None:
    """Entry ``seq`` (the head when None), or None when the journal has no such entry."""
    query = (
        select(journal).order_by(journal.c.seq.desc()).limit(1)
        if seq is None
        else (select(journal).where(journal.c.seq == seq))
    )
    rows = fetch_all(source, query)
    return row_to_entry(rows[0]) if rows else None

"""Time travel: the state and a user's snapshot as of any seq, rebuilt from the journal.

Both replay through the kernel (``Replayer``, ``Kernel.execute``) from the nearest state checkpoint at or
before the seq (``journal.state_checkpoints``) when the journal has one: the checkpoint is loaded into a
scratch store and every entry since is re-executed, each giving its journaled result byte for byte; a
snapshot is then read from that state as ``memory.snapshot`` reads it. Without a checkpoint (a journal
written before them, or with none kept), or when one cannot be used (a blob missing, a replay that
departs from the record), the journal is replayed from its first entry, as before checkpoints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.exc import SQLAlchemyError

from arvis.canonical import parse_time, plain
from arvis.memory.memory_service import MemoryService
from journal.reader import JournalFilter, JournalReader
from journal.state import present_state_tables, state_digest
from journal.state_checkpoints import CheckpointUnusable, load_state, nearest_checkpoint
from journal.statements import REBUILD_COUNTS
from kernel.abi import JournalEntry
from kernel.protocols import StorageError
from kernel.table import SyscallTable
from tools.audit.replay import header_of
from tools.audit.replayer import Replayer
from tools.audit.verify import damaged_header

__all__ = [
    "NoSuchMoment",
    "StateAt",
    "replay_from_checkpoint",
    "replay_until",
    "snapshot_at",
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
    header = header_of(reader)
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
        replayer.store.resume_after(start.pos)
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
) -> tuple[Replayer, int, str | None, int | None]:
    """A replayer holding the state right after entry ``seq`` (the head when None), with its last seq
    and time and the seq of the checkpoint it started from: from the nearest state checkpoint when there
    is one (``checkpoints``) and it can be used, else from the first entry (the checkpoint None)."""
    resumed = replay_from_checkpoint(reader, seq, table=table) if checkpoints else None
    if resumed is not None:
        replayer, last_seq, last_time, start = resumed
    else:
        (replayer, last_seq, last_time), start = _replay_all(reader, seq, table=table), None
    if seq is not None and last_seq != seq:
        replayer.close()
        raise NoSuchMoment(f"the journal has no entry {seq} (it ends at {last_seq})")
    return replayer, last_seq, last_time, start


def _replay_all(
    reader: JournalReader, seq: int | None, *, table: SyscallTable
) -> tuple[Replayer, int, str | None]:
    replayer = Replayer(header_of(reader), table=table, blobs_from=reader.engine)
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
    replayer, last_seq, last_time, start = replay_until(reader, seq, table=table, checkpoints=checkpoints)
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
    its ``created_at`` being that entry's time: read from the state ``replay_until`` rebuilds."""
    replayer, last_seq, last_time, _ = replay_until(reader, seq, table=table, checkpoints=checkpoints)
    try:
        if last_time is None:
            where = "the journal is empty" if seq is None else f"seq {seq} is before the first entry"
            raise StorageError(f"{where}: there is no moment to take a snapshot at")
        with replayer.store.read_only() as repository:
            value = plain(MemoryService().snapshot(repository, user_id=user_id, now=parse_time(last_time)))
        return {"seq": last_seq, **value}
    finally:
        replayer.close()

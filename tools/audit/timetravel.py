"""Time travel: the state and a user's snapshot as of any seq.

Both are read from the effects log (``journal.effects``): every change the journal's accepted entries made
up to the seq, folded in order into a scratch store, and a snapshot read from that state as
``memory.snapshot`` reads it. Nothing is re-executed, so a moment costs the log's length up to it, not its
calls. A journal whose log does not cover it from its first entry (one that held entries when it was
migrated to revision 0014), or a caller that asks for it (``replay``), replays the journal from its first
entry through the kernel instead, each call giving its journaled result byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.exc import SQLAlchemyError

from arvis.canonical import parse_time, plain
from arvis.memory.memory_service import MemoryService
from journal import effects
from journal.reader import JournalFilter, JournalReader
from journal.state import present_state_tables, state_digest
from kernel.protocols import StorageError
from kernel.table import SyscallTable
from tools.audit.replay import header_of
from tools.audit.replayer import Replayer

__all__ = [
    "NoSuchMoment",
    "StateAt",
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

    def to_json(self) -> dict[str, Any]:
        """The state for people and scripts: rows as stored, JSON-text columns as their objects (the
        digest is over the stored text; ``tables`` keeps it)."""
        return {
            "seq": self.seq,
            "recorded_at": self.recorded_at,
            "state_digest": self.digest,
            "tables": {name: [_shown_row(row) for row in rows] for name, rows in self.tables.items()},
        }


def _moment(reader: JournalReader, seq: int | None) -> tuple[int, str | None]:
    """The seq asked for (the head's when None) and its entry's time; ``NoSuchMoment`` past the head."""
    head = reader.head()
    last = 0 if head is None else head.seq
    if seq is None or seq == last:
        return last, None if head is None else head.recorded_at
    entry = reader.get(seq) if 0 < seq < last else None
    if entry is None:
        raise NoSuchMoment(f"the journal has no entry {seq} (it ends at {last})")
    return seq, entry.recorded_at


def _folded(
    reader: JournalReader, seq: int, *, table: SyscallTable, only: tuple[str, str] | None
) -> Replayer:
    """A scratch store holding the state right after entry ``seq``, folded from the effects log
    (``only``: the rows of one table and partition, ``journal.effects.state_as_of``)."""
    with reader.engine.connect() as connection:
        rows = effects.state_as_of(connection, seq, only=only)
    replayer = Replayer(header_of(reader), table=table, blobs_from=reader.engine)
    try:
        with replayer.store.engine.begin() as connection:
            effects.load(connection, rows)
    except BaseException:
        replayer.close()
        raise
    return replayer


def _logged(reader: JournalReader) -> bool:
    """Whether the effects log covers the journal from its first entry."""
    try:
        with reader.engine.connect() as connection:
            return effects.covered_from(connection) == 1
    except SQLAlchemyError:
        return False


def replay_until(
    reader: JournalReader,
    seq: int | None,
    *,
    table: SyscallTable,
    replay: bool = False,
    only: tuple[str, str] | None = None,
) -> tuple[Replayer, int, str | None]:
    """A scratch store holding the state right after entry ``seq`` (the head when None), with its last seq
    and time: folded from the effects log when it covers the journal (``only`` those rows), else (or when
    ``replay``) the journal replayed from its first entry. A seq past the head is refused before either."""
    last_seq, last_time = _moment(reader, seq)
    if not replay and _logged(reader):
        return _folded(reader, last_seq, table=table, only=only), last_seq, last_time
    return _replay_all(reader, last_seq, table=table)[0], last_seq, last_time


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


def state_at(reader: JournalReader, seq: int | None, *, table: SyscallTable, replay: bool = False) -> StateAt:
    """Every state table's rows and the state digest right after entry ``seq`` (the head when None)."""
    replayer, last_seq, last_time = replay_until(reader, seq, table=table, replay=replay)
    try:
        tables: dict[str, list[dict[str, Any]]] = {}
        with replayer.store.engine.connect() as connection:
            digest = state_digest(connection, keep=tables)
            for state_table in present_state_tables(connection):
                tables.setdefault(str(state_table.name), [])
        return StateAt(last_seq, last_time, digest, tables)
    finally:
        replayer.close()


def snapshot_at(
    reader: JournalReader, user_id: str, seq: int | None, *, table: SyscallTable, replay: bool = False
) -> dict[str, Any]:
    """What ``memory.snapshot`` would have returned for ``user_id`` right after entry ``seq``,
    its ``created_at`` being that entry's time: read from the state ``replay_until`` rebuilds."""
    only = ("memory_entries", user_id)  # all a snapshot reads (``MemoryService.snapshot``)
    replayer, last_seq, last_time = replay_until(reader, seq, table=table, replay=replay, only=only)
    try:
        if last_time is None:
            where = "the journal is empty" if seq is None else f"seq {seq} is before the first entry"
            raise StorageError(f"{where}: there is no moment to take a snapshot at")
        with replayer.store.read_only() as repository:
            value = plain(MemoryService().snapshot(repository, user_id=user_id, now=parse_time(last_time)))
        return {"seq": last_seq, **value}
    finally:
        replayer.close()

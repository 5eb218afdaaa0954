"""Time travel: the state and a user's snapshot as of any seq, by replaying the journal up to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from arvis.canonical import parse_time, plain
from arvis.memory.memory_service import MemoryService
from journal.reader import JournalFilter, JournalReader
from journal.replay import Replayer
from journal.state import present_state_tables, state_digest
from kernel.protocols import StorageError
from kernel.table import SyscallTable

__all__ = [
    "JSON_TEXT_COLUMNS",
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


def replay_until(
    reader: JournalReader, seq: int | None, *, table: SyscallTable
) -> tuple[Replayer, int, str | None]:
    """A replayer holding the state right after entry ``seq`` (the head when None)."""
    header = reader.header()
    if header is None:
        raise StorageError("the database holds no arvis journal (no header)")
    replayer = Replayer(header, table=table, blobs_from=reader.engine)
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
    if seq is not None and last_seq != seq:
        replayer.close()
        raise NoSuchMoment(f"the journal has no entry {seq} (it ends at {last_seq})")
    return replayer, last_seq, last_time


def state_at(reader: JournalReader, seq: int | None, *, table: SyscallTable) -> StateAt:
    replayer, last_seq, last_time = replay_until(reader, seq, table=table)
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
    reader: JournalReader, user_id: str, seq: int | None, *, table: SyscallTable
) -> dict[str, Any]:
    """What ``memory.snapshot`` would have returned for ``user_id`` right after entry ``seq``,
    its ``created_at`` being that entry's time."""
    replayer, last_seq, last_time = replay_until(reader, seq, table=table)
    try:
        if last_time is None:
            where = "the journal is empty" if seq is None else f"seq {seq} is before the first entry"
            raise StorageError(f"{where}: there is no moment to take a snapshot at")
        with replayer.store.read_only() as repository:
            value = plain(MemoryService().snapshot(repository, user_id=user_id, now=parse_time(last_time)))
        return {"seq": last_seq, **value}
    finally:
        replayer.close()

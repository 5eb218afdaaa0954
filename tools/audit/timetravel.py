"""Time travel: the state and a user's snapshot as of any seq.

Rows of ``memory_entries`` as of the seq are read by one query over the version columns
(``journal.schema.VERSION_SEQS``), as ``memory.snapshot`` reads them; the other state tables' rows from
the rows written by then and those kept in ``graph_history`` (``journal.history``). Nothing is re-executed
(verification is what re-executes, and what proves the rows): a database whose rows do not hold its past
from entry 1 (one read before its migration to 0020, or migrated with entries whose past could not be
derived) is refused (``PastNotInRows``) until ``arvis db upgrade`` rebuilds that past from its journal.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, Table, text

from arvis.canonical import parse_time, plain
from arvis.memory.memory_service import MemoryService
from journal import history
from journal.errors import StorageError
from journal.memory_repository import wire_of
from journal.reader import JournalReader
from journal.rows import fetch_sql
from journal.schema import STATE_TABLES, memory_entries
from journal.sql import Prepared
from journal.state import StateDigest
from journal.statements import MEMORY_AS_OF, MEMORY_STATE_AS_OF, MOMENT, REVISION


class NoSuchMoment(StorageError):
    """A seq the journal does not reach: the caller asked for a moment that is not there (a usage
    error at the command line, not damage)."""


class PastNotInRows(StorageError):
    """The database's rows do not hold the past asked for: its journal does, and ``arvis db upgrade``
    rebuilds it from there; a row edited by hand, ``arvis journal verify`` names."""


UPGRADE = "`arvis db upgrade` rebuilds it once from the journal"
EDITED = "`arvis journal verify` says where"


_JSON_TEXT_COLUMNS = frozenset({"governance", "body"})
"""State columns that hold a canonical JSON object as text (``journal-format.md`` §1.3, §1.4)."""


def _as_object(text: Any) -> Any:
    """A JSON-text column as the object it holds, so ``state`` shows governance the way ``snapshot``
    does; text that is not a JSON object (a hand edit), or a value that is not text, is shown as stored."""
    try:
        value = orjson.loads(text) if isinstance(text, str) else text
    except orjson.JSONDecodeError:
        return text
    return value if isinstance(value, dict) else text


def _shown(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table's rows, JSON-text columns as their objects: the columns found once (a table's rows share
    theirs), each value decoded once (its object shared: only encoded), each row one merge in key order."""
    as_object = functools.lru_cache(maxsize=None, typed=True)(_as_object)  # typed: 1 is not 1.0
    columns = _JSON_TEXT_COLUMNS.intersection(rows[0]) if rows else ()
    return [row | {name: as_object(row[name]) for name in columns} for row in rows] if columns else rows


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
            "tables": {name: _shown(rows) for name, rows in self.tables.items()},
        }


def _moment(connection: Connection, seq: int | None) -> tuple[int, str | None]:
    """The seq asked for (the head's when None) and its entry's time; ``NoSuchMoment`` past the head."""
    rows = connection.execute(text(MOMENT), {"seq": seq}).all()
    last, last_time = (int(rows[0][0]), rows[0][1]) if rows else (0, None)
    if seq is None or seq == last:
        return last, last_time
    if len(rows) < 2:
        raise NoSuchMoment(f"the journal has no entry {seq} (it ends at {last})")
    return seq, rows[1][1]


class EntriesAsOf:
    """A user's entries as of a seq in their stored wire form, what ``MemoryService.snapshot`` reads."""

    def __init__(self, rows: Sequence[Any]) -> None:
        self._wires = [wire_of(row) for row in rows]

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        return self._wires

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        """The key's newest version as of the seq (the rows come by key, then version)."""
        return next((wire for wire in reversed(self._wires) if wire["key"] == key), None)


def _as_of(connection: Connection, sql: str, values: dict[str, Any], since: str) -> list[tuple[Any, ...]]:
    """Rows as of a seq by one query over the version columns (``MEMORY_AS_OF``, ``MEMORY_STATE_AS_OF``),
    flag dropped; ``PastNotInRows`` before revision ``since`` or where a row's seq was not derivable."""
    revision = str(connection.execute(text(REVISION)).scalar() or "")
    if revision < since:
        raise PastNotInRows(
            f"the database is at revision {revision or 'none'}, before its rows held the past: {UPGRADE}"
        )
    prepared = Prepared(sql, str(connection.dialect.paramstyle))
    rows = fetch_sql(connection, prepared.sql, prepared.bind(values))
    if not all(row[-1] for row in rows):
        raise PastNotInRows(f"a row of memory_entries holds a time without the seq that set it: {EDITED}")
    return [row[:-1] for row in rows]


def state_at(reader: JournalReader, seq: int | None) -> StateAt:
    """Every state table's rows and the state digest right after entry ``seq`` (the head when None):
    ``memory_entries`` by one query (``_as_of``), the other tables from their rows and the rows they
    kept (``history.kept_as_of``)."""
    with reader.reading() as connection:
        last_seq, last_time = _moment(connection, seq)
        since = history.covered_from(connection)  # before any row is read: a refusal reads none
        if since > 1:
            raise PastNotInRows(f"the rows of this database hold its past from seq {since} only: {UPGRADE}")
        sql = MEMORY_STATE_AS_OF[connection.dialect.name == "postgresql"]
        memory = _as_of(connection, sql, {"seq": last_seq}, "0020")
        kept = history.kept_as_of(connection, last_seq)
        if kept is None:
            raise PastNotInRows(f"a row is not valid text, or a row graph_history kept not JSON: {EDITED}")
    batches = [(memory_entries, memory), *((t, _in_key_order(t, kept[t.name])) for t in STATE_TABLES[1:])]
    return state_of(last_seq, last_time, batches)


def state_of(seq: int, recorded_at: str | None, batches: Iterable[tuple[Table, Any]]) -> StateAt:
    """The state of rows read in primary-key order, batch by batch (``journal.state.state_batches``):
    what a replay to ``seq`` holds must give the same (``tests/test_history.py``)."""
    digest, tables = StateDigest(), dict[str, list[dict[str, Any]]]()
    for state_table, batch in batches:  # tables with rows first, then the empty ones, as ever shown
        if batch:
            digest.add_batch(state_table, batch, tables.setdefault(str(state_table.name), []))
    for state_table in STATE_TABLES:
        tables.setdefault(str(state_table.name), [])
    return StateAt(seq, recorded_at, digest.hexdigest(), tables)


def _in_key_order(state_table: Table, rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Rows as ``state_batches`` reads them: values in column order, in primary-key order (text by code
    point, as SQLite's BINARY and PostgreSQL's "C" collation compare it)."""
    names = [str(column.name) for column in state_table.columns]
    key = [names.index(str(column.name)) for column in state_table.primary_key.columns]
    return sorted((tuple(row[name] for name in names) for row in rows), key=lambda row: [row[i] for i in key])


def snapshot_at(reader: JournalReader, user_id: str, seq: int | None) -> dict[str, Any]:
    """What ``memory.snapshot`` would have returned for ``user_id`` right after entry ``seq``, its
    ``created_at`` being that entry's time, from the user's rows as of then, read by one query
    (``_as_of``)."""
    with reader.reading() as connection:  # the moment and the rows in one read
        last_seq, last_time = _moment(connection, seq)
        if last_time is None:
            where = "the journal is empty" if seq is None else f"seq {seq} is before the first entry"
            raise StorageError(f"{where}: there is no moment to take a snapshot at")
        rows = _as_of(connection, MEMORY_AS_OF, {"user_id": user_id, "seq": last_seq}, "0015")
    value = MemoryService().snapshot(EntriesAsOf(rows), user_id=user_id, now=parse_time(last_time))
    return {"seq": last_seq, **plain(value)}

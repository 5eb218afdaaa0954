"""The past of the state tables, kept in their rows (``specs/journal-format.md`` §16).

``memory_entries`` keeps every version with the seqs that wrote and ended it (``schema.VERSION_SEQS``);
every other state table (``HISTORY_TABLES``) carries the seq that wrote each row, and ``journal.apply``
keeps a row a call replaces, updates or deletes in ``graph_history`` with that call's seq. So the state as
of any seq is a query (``kept_as_of``, with ``tools.audit.timetravel``), nothing is re-executed to read the
past, and verification alone replays: it holds what was kept to what the replay kept (``check``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import orjson
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import OperationalError

from arvis.canonical import canonical_bytes
from journal import statements
from journal.schema import HISTORY_SINCE, HISTORY_TABLES, ROW_SEQ_TABLES

_BATCH = 2_000


def covered_from(connection: Connection) -> int:
    """The first seq whose past the rows hold: 1, or for a journal migrated when its past could not be
    derived (``journal.schema.history_from``), the seq of its first entry since (until ``arvis db upgrade``).
    Read where a database read without migrating keeps it (``journal_effects_from`` before 0020)."""
    names = set(inspect(connection).get_table_names())
    table = next((name for name in statements.HISTORY_FROM if name in names), None)
    found = None if table is None else connection.execute(text(statements.HISTORY_FROM[table])).scalar()
    return 1 if found is None else int(found)


def kept_as_of(connection: Connection, seq: int) -> dict[str, list[dict[str, Any]]] | None:
    """The rows of ``HISTORY_TABLES`` in force right after entry ``seq`` (written by it, or kept in
    ``graph_history`` and ended after it), as the state shows them (no ``written_seq`` of
    ``ROW_SEQ_TABLES``). None when one is not UTF-8 or not JSON (a hand edit): replay."""
    try:
        found = {
            table: [dict(row._mapping) for row in connection.execute(text(sql), {"seq": seq})]
            for table, sql in statements.GRAPH_WRITTEN_BY.items()
        }
        for table, row in connection.execute(text(statements.HISTORY_ENDED_AFTER), {"seq": seq}):
            kept = orjson.loads(row)
            if kept[HISTORY_TABLES[table]] <= seq:
                if table in ROW_SEQ_TABLES:
                    del kept["written_seq"]
                found[table].append(kept)
    except (OperationalError, ValueError, TypeError, KeyError):
        return None
    return found


def check(connection: Connection, replayed: Connection) -> tuple[int, str] | None:
    """The first seq at which what the rows keep of the past is not what the replay kept, as (seq,
    reason): the rows ``graph_history`` kept (each compared as the object it holds: a database's JSON text
    is its own), then each row's ``written_seq`` (``ROW_SEQ_TABLES``), which the state digest leaves out.
    From the first seq the rows cover (a seq before it is NULL in a migrated journal); the tables a
    database read without migrating keeps by its revision. None: they hold."""
    if not inspect(connection).has_table("graph_history"):
        return None
    since = covered_from(connection)
    revision = str(connection.execute(text(statements.REVISION)).scalar())
    tables = {table for table, first in HISTORY_SINCE.items() if first <= revision}  # what it keeps

    def covered(seq: Any) -> Any:  # a seq before the rows hold the past: NULL stored, given by a replay
        return seq if isinstance(seq, int) and seq >= since else None

    def seen(table: str, text_row: Any) -> bytes:
        try:
            row = orjson.loads(text_row)
        except orjson.JSONDecodeError:  # not JSON (a hand edit): compared as the text it is
            row = text_row
        if table in ROW_SEQ_TABLES and isinstance(row, dict):
            row["written_seq"] = covered(row.get("written_seq"))
        return canonical_bytes([table, row])

    def kept(on: Connection) -> Iterator[tuple[int, list[bytes]]]:
        rows = on.execution_options(yield_per=_BATCH).execute(text(statements.HISTORY_ALL), {"since": since})
        for seq, group in itertools.groupby(rows, key=lambda row: int(row[0])):
            found = sorted(seen(t, row) for _, t, row in group if t in tables)
            if found:
                yield seq, found

    for stored, expected in itertools.zip_longest(kept(connection), kept(replayed)):
        if stored != expected:
            seq = min(side[0] for side in (stored, expected) if side is not None)
            return seq, f"the rows graph_history kept at entry {seq} are not those its journal keeps"
    for table in sorted(tables & ROW_SEQ_TABLES):
        written, expected_seqs = (
            {tuple(row[:-1]): covered(row[-1]) for row in on.execute(text(statements.ROW_SEQS[table]))}
            for on in (connection, replayed)
        )
        wrong = [key for key in written.keys() & expected_seqs.keys() if written[key] != expected_seqs[key]]
        if wrong:
            seq = min(expected_seqs[key] or written[key] or since for key in wrong)
            return seq, f"the seq that wrote a row of {table} is not the one its journal gives (entry {seq})"
    return None

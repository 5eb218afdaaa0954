"""The effects log: each accepted entry's changes of the tables whose past is not kept in their own rows
(``journal_effects``, ``journal.schema.PAST_IN_ROWS``), and those tables' state as of any seq folded from
it (``specs/journal-format.md`` §16).

An entry's changes are logged with it, in its transaction (``journal.transaction``), as canonical JSON; a
replay's scratch store logs them the same way, and verification holds the journal's log to it (``check``).
The state of those tables right after entry ``seq`` is every logged change up to it applied in order, as
``journal.apply`` applied them (``state_as_of``). Time travel reads the past this way and the rest of it
from the rows; verification alone re-executes the journal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import orjson
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import OperationalError

from arvis.canonical import canonical_bytes
from journal import statements
from journal.schema import HISTORY_SINCE, HISTORY_TABLES, PAST_IN_ROWS, STATE_TABLES
from journal.sql import Prepared

__all__ = ["StateRows", "check", "check_history", "covered_from", "kept_as_of", "load", "state_as_of"]

BATCH = 2_000

StateRows = dict[str, list[dict[str, Any]]]
"""Each state table's rows by name, every column given."""

_KEYS = {str(table.name): [str(column.name) for column in table.primary_key] for table in STATE_TABLES}
_EMPTY = {
    str(table.name): dict.fromkeys(str(column.name) for column in table.columns) for table in STATE_TABLES
}
"""Each state table's primary-key columns, and its row with every column NULL (what an insert starts from)."""


def covered_from(connection: Connection) -> int:
    """The first seq the log covers: 1, or for a journal that held entries when it was migrated to
    revision 0014, the seq of its first entry since (the past before it is replayed, not folded)."""
    found = connection.execute(text(statements.EFFECTS_SINCE)).scalar()
    return 1 if found is None else int(found)


def state_as_of(connection: Connection, seq: int) -> StateRows:
    """The rows of every state table outside ``PAST_IN_ROWS`` right after entry ``seq``, folded from the
    log (which must cover every entry: ``covered_from`` is 1). An insert gives the row, columns it does not
    name NULL; an upsert inserts it or sets the columns it names; an update sets columns of the row its key
    names, if there is one; a delete removes it, as the statements ``journal.apply`` runs do. Changes of
    tables that are not state (the admin key's bindings) are passed over."""
    folded: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {
        name: {} for name in _KEYS if name not in PAST_IN_ROWS
    }
    logged = connection.execution_options(yield_per=BATCH).execute(
        text(statements.EFFECTS_UNTIL), {"seq": seq}
    )
    for effects in (bytes(row[1]) for row in logged):
        for change in orjson.loads(effects):
            rows = folded.get(change["table"])
            if rows is None:
                continue
            names = _KEYS[change["table"]]
            if change["op"] in ("insert", "upsert"):
                row = change["row"]
                key = tuple(row[name] for name in names)
                found = rows.get(key)
                if found is None or change["op"] == "insert":
                    rows[key] = _EMPTY[change["table"]] | row
                else:
                    found.update(row)
                continue
            key = tuple(change["where"][name] for name in names)
            if change["op"] == "delete":
                rows.pop(key, None)
            elif key in rows:
                rows[key].update(change["set"])
    return {name: list(rows.values()) for name, rows in folded.items()}


def kept_as_of(connection: Connection, seq: int) -> StateRows | None:
    """The rows of ``HISTORY_TABLES`` in force right after entry ``seq`` (written by it, or kept in
    ``graph_history`` and ended after it). None when one is not UTF-8 or not JSON (a hand edit): replay."""
    try:
        found = {
            table: [dict(row._mapping) for row in connection.execute(text(sql), {"seq": seq})]
            for table, sql in statements.GRAPH_WRITTEN_BY.items()
        }
        for table, row in connection.execute(text(statements.HISTORY_ENDED_AFTER), {"seq": seq}):
            kept = orjson.loads(row)
            if kept[HISTORY_TABLES[table]] <= seq:
                found[table].append(kept)
    except (OperationalError, ValueError, TypeError, KeyError):
        return None
    return found


def check_history(connection: Connection, replayed: Connection) -> tuple[int, str] | None:
    """The first seq at which the rows ``graph_history`` kept are not those the replay kept, as (seq,
    reason), from the first seq the log covers (each row compared as the object it holds: a database's JSON
    text is its own). None: they are, or the database predates the history (revision 0017)."""
    if not inspect(connection).has_table("graph_history"):
        return None
    since = covered_from(connection)
    revision = str(connection.execute(text(statements.REVISION)).scalar())
    tables = {table for table, first in HISTORY_SINCE.items() if first <= revision}  # what it keeps

    def kept(on: Connection) -> Iterator[tuple[int, list[bytes]]]:
        rows = on.execution_options(yield_per=BATCH).execute(text(statements.HISTORY_ALL), {"since": since})
        for seq, group in itertools.groupby(rows, key=lambda row: int(row[0])):
            found = sorted(canonical_bytes([t, orjson.loads(row)]) for _, t, row in group if t in tables)
            if found:
                yield seq, found

    for stored, expected in itertools.zip_longest(kept(connection), kept(replayed)):
        if stored != expected:
            seq = min(side[0] for side in (stored, expected) if side is not None)
            return seq, f"the rows graph_history kept at entry {seq} are not those its journal keeps"
    return None


def load(connection: Connection, state: StateRows) -> None:
    """Write folded rows into an empty store's state tables (a scratch store: ``tools.audit.timetravel``),
    each table in one driver ``executemany``."""
    paramstyle = str(connection.dialect.paramstyle)
    for name, rows in state.items():
        if rows:
            statement = Prepared(statements.insert_sql(name, list(rows[0])), paramstyle)
            connection.exec_driver_sql(statement.sql, [statement.bind(row) for row in rows])


def check(connection: Connection, replayed: Connection | None) -> tuple[int, str] | None:
    """The first entry whose logged effects are not what its call logs, as (seq, reason). Against a
    replay's scratch store (``replayed``), from the first seq the log covers: an entry's logged changes,
    less those of ``PAST_IN_ROWS`` (which an earlier revision logged: its whole change set before 0016),
    must be the bytes the replay logged for it, and none where it logged none. With or without one,
    effects logged for no entry are named last. None: the log holds, or the database predates the log
    (revision 0014: verification reads without migrating)."""
    if not inspect(connection).has_table("journal_effects"):
        return None
    if replayed is not None:
        since = {"since": covered_from(connection)}
        stored = connection.execution_options(yield_per=BATCH).execute(
            text(statements.EFFECTS_CHECKED), since
        )
        logged = iter(
            replayed.execution_options(yield_per=BATCH).execute(text(statements.EFFECTS_FROM), since)
        )
        pending = next(logged, None)
        for seq, effects in stored:
            expected = None
            if pending is not None and pending[0] == seq:
                expected, pending = bytes(pending[1]), next(logged, None)
            found = stored_row = None if effects is None else bytes(effects)
            if found is not None and found != expected:  # logged by an earlier rule: what this one keeps
                with suppress(ValueError, TypeError, KeyError):  # not a list of changes: named below
                    kept = [change for change in orjson.loads(found) if change["table"] not in PAST_IN_ROWS]
                    found = canonical_bytes(kept) if kept else None
            if found == expected:
                continue
            if stored_row is None:
                return int(seq), f"the effects log holds no effects of entry {seq}"
            return int(seq), f"the effects logged for entry {seq} are not those its call logs"
    orphan = connection.execute(text(statements.EFFECTS_ORPHAN)).scalar()
    if orphan is None:
        return None
    return int(orphan), f"the effects log holds effects of entry {orphan}, which the journal does not hold"

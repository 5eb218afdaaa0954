"""The effects log: each accepted entry's change set as journaled (``journal_effects``), and the state as
of any seq folded from it (``specs/journal-format.md`` §16).

An entry's effects are logged with it, in its transaction (``journal.transaction``), as the canonical JSON
its ``effects_hash`` is taken over: the log is checked against the chain without re-executing anything
(``check``), and the state right after entry ``seq`` is every logged change up to it applied in order, as
``journal.apply`` applied them (``state_as_of``). Time travel reads the past this way; verification alone
re-executes the journal.
"""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import Connection, inspect, text

from arvis.canonical import sha256_hex
from journal import statements
from journal.entry import EMPTY_EFFECTS_HASH
from journal.schema import STATE_TABLES
from journal.sql import Prepared

__all__ = ["StateRows", "check", "covered_from", "load", "state_as_of"]

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


def state_as_of(connection: Connection, seq: int, *, memory: bool) -> StateRows:
    """Every state table's rows right after entry ``seq``, folded from the log (which must cover every
    entry: ``covered_from`` is 1). An insert gives the row, columns it does not name NULL; an upsert
    inserts it or sets the columns it names; an update sets columns of the row its key names, if there
    is one; a delete removes it, as the statements ``journal.apply`` runs do. Changes of tables that are
    not state (the admin key's bindings) are not state's. Without ``memory`` (read by query), entries
    changing only ``memory_entries`` are not parsed: a change names its table as ``"table":"<name>"``, no
    column name ends in ``table`` and quotes in values are escaped, so those bytes name no other table."""
    folded: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {name: {} for name in _KEYS}
    if not memory:
        del folded["memory_entries"]
    logged = connection.execution_options(yield_per=BATCH).execute(
        text(statements.EFFECTS_UNTIL), {"seq": seq}
    )
    for effects in (bytes(row[1]) for row in logged):
        if not memory and effects.count(b'"table":"') == effects.count(b'"table":"memory_entries"'):
            continue
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


def load(connection: Connection, state: StateRows) -> None:
    """Write folded rows into an empty store's state tables (a scratch store: ``tools.audit.timetravel``),
    each table in one driver ``executemany``, and count its memory entries."""
    paramstyle = str(connection.dialect.paramstyle)
    for name, rows in state.items():
        if rows:
            statement = Prepared(statements.insert_sql(name, list(rows[0])), paramstyle)
            connection.exec_driver_sql(statement.sql, [statement.bind(row) for row in rows])
    connection.exec_driver_sql(statements.REBUILD_COUNTS)


def check(connection: Connection) -> tuple[int, str] | None:
    """The first entry whose logged effects are not the ones the chain holds, as (seq, reason): from the
    first seq the log covers, an entry that changed something must have its effects logged, and the bytes
    logged must hash to its ``effects_hash``; effects logged for no entry are named last. None: the log
    holds, or the database predates the log (revision 0014: verification reads without migrating)."""
    if not inspect(connection).has_table("journal_effects"):
        return None
    result = connection.execution_options(yield_per=BATCH).execute(
        text(statements.EFFECTS_CHECKED), {"since": covered_from(connection)}
    )
    for seq, effects_hash, effects in result:
        if effects is None:
            if effects_hash != EMPTY_EFFECTS_HASH:
                return int(seq), f"the effects log holds no effects of entry {seq}"
        elif sha256_hex(bytes(effects)) != effects_hash:
            return int(seq), f"the effects logged for entry {seq} do not hash to its effects_hash"
    orphan = connection.execute(text(statements.EFFECTS_ORPHAN)).scalar()
    if orphan is None:
        return None
    return int(orphan), f"the effects log holds effects of entry {orphan}, which the journal does not hold"

"""Every SQL statement, written once (migrations aside), in ``journal.sql``'s portable subset (``:name``
placeholders) for its runner; one built from parts (a table, a dialect, an IN list of n placeholders) is
a function or a ``str.format`` template here. No other shipped module writes SQL."""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable, Sequence

from sqlalchemy import Table

from arvis.graph_checkpoints import OWNERS as GRAPH_OWNERS
from arvis.graph_checkpoints import GraphChannelValue, GraphCheckpoint, GraphWrite
from arvis.graph_store import ITEMS, NAMESPACES, OWNERS, SIZES, USAGE, StoreItem
from arvis.memory.memory_rows import COLUMNS
from journal.entry import JournalEntry
from journal.schema import HISTORY_TABLES, ROW_SEQ_TABLES, STATE_TABLES, VERSION_SEQS

# --- access, pipelines, working memory, memory ----------------------------------------------------

CONTEXT_OWNER = "SELECT owner FROM awmu_context_owners WHERE context_id = :context_id"
GRANTS = "SELECT principal, capability, scope FROM grants"
GRANTS_OF = GRANTS + " WHERE principal = :principal"
PIPELINE_RUNS = "SELECT run_id, user_id, principal, began_seq, ended_seq FROM pipeline_runs"
PIPELINE_RUN = PIPELINE_RUNS + " WHERE run_id = :run_id"
ACTIVE_RUN = PIPELINE_RUNS + " WHERE user_id = :user_id AND ended_seq IS NULL ORDER BY began_seq LIMIT 1"
AWMU_UNITS_BY_STATUS = "SELECT body FROM awmu_units WHERE context_id = :context_id AND status = :status"
AWMU_UNIT_COUNT = "SELECT COUNT(*) FROM awmu_units WHERE context_id = :context_id"
AWMU_BODY = "SELECT body FROM {table} WHERE {column} = :id"
AWMU_PENDING = "SELECT body FROM {table} WHERE context_id = :context_id AND status = 'PENDING'"


def awmu_events(after_index: bool, unit: bool, kinds: int) -> str:
    sql = "SELECT body FROM awmu_events WHERE context_id = :context_id"
    if not after_index:
        sql += " AND seq > :after_seq"
    else:
        sql += " AND (seq > :after_seq OR (seq = :after_seq AND idx > :after_index))"
    if unit:
        sql += " AND unit_id = :unit_id"
    if kinds:
        sql += f" AND kind IN ({_places('kind', kinds)})"
    return sql + " ORDER BY seq, idx LIMIT :limit"


_MEMORY = "SELECT " + ", ".join(f'"{name}"' for name in COLUMNS) + " FROM memory_entries"
# Versions of one key in version order (the spec's order is applied by the readers, a stable sort): the
# rows come straight off the primary key (user_id, key, version), with no sort in SQL.
_BY_KEY_AND_VERSION = ' ORDER BY "key", version'
WIRE_COLUMNS = sorted(set(COLUMNS) - {"user_id", "version", "written_seq"})
"""The columns of an entry's wire form (a row but its user, version and seq), in its (sorted) key order."""
_WIRE_SELECT = "SELECT " + ", ".join(f'"{name}"' for name in WIRE_COLUMNS) + " FROM memory_entries"
_CURRENT_OF_KEY = (
    ' WHERE user_id = :user_id AND "key" = :key AND superseded_at IS NULL ORDER BY version DESC LIMIT 1'
)
MEMORY_WIRES = _WIRE_SELECT + " WHERE user_id = :user_id" + _BY_KEY_AND_VERSION
MEMORY_CURRENT_WIRE = _WIRE_SELECT + _CURRENT_OF_KEY
MEMORY_CURRENT = _MEMORY + _CURRENT_OF_KEY
MEMORY_CURRENT_AND_COUNT = (
    "SELECT (SELECT entries FROM memory_entry_counts WHERE user_id = :user_id), found.*"
    " FROM (SELECT 1 AS anchor) AS one LEFT JOIN (" + MEMORY_CURRENT + ") AS found ON 1 = 1"
)
"""The user's entry count and the key's current entry, in one read: always exactly one row (the entry's
columns null when there is none)."""


def _as_of(columns: Sequence[str], then: str) -> str:
    """``columns`` of the ``memory_entries`` rows written by ``:seq``, each column with a version seq
    (``VERSION_SEQS``) NULL where that seq is above it; then a flag, 0 where a seq is not derivable."""
    shown = ", ".join(_AS_OF.get(name, f'"{name}"') for name in columns)
    derivable = " AND ".join(f"({name} IS NULL OR {seq} IS NOT NULL)" for name, seq in VERSION_SEQS.items())
    select = f"SELECT {shown}, CASE WHEN {derivable} THEN 1 ELSE 0 END FROM memory_entries"
    return f"{select} WHERE written_seq <= :seq{then}"


_AS_OF = {name: f"CASE WHEN {seq} <= :seq THEN {name} END" for name, seq in VERSION_SEQS.items()}
MEMORY_AS_OF = _as_of(WIRE_COLUMNS, " AND user_id = :user_id" + _BY_KEY_AND_VERSION)
"""A user's rows as of ``:seq`` as ``MEMORY_WIRES`` reads them, then the flag."""
VERSION_SEQS_SET = (
    'SELECT user_id, "key", version, superseded_seq, revoked_seq FROM memory_entries'
    ' WHERE superseded_seq IS NOT NULL OR revoked_seq IS NOT NULL ORDER BY user_id, "key", version'
)
"""Every version seq time travel reads (``journal.schema.VERSION_SEQS``), for verification."""
REBUILD_COUNTS = (
    "INSERT INTO memory_entry_counts (user_id, entries) "
    "SELECT user_id, COUNT(*) FROM memory_entries GROUP BY user_id"
)
"""Fills ``memory_entry_counts`` from ``memory_entries`` (after rows were copied in as stored)."""

# --- LangGraph: the store, then checkpoints -------------------------------------------------------

_STORE_KEY = "namespace = :namespace AND key = :key"
STORE_ITEMS = f"SELECT {', '.join(field.name for field in dataclasses.fields(StoreItem))} FROM {ITEMS}"
STORE_ITEM = f"{STORE_ITEMS} WHERE {_STORE_KEY}"
STORE_OWNER = f"SELECT owner FROM {OWNERS} WHERE prefix = :prefix"
STORE_OWNERS = f"SELECT prefix, owner FROM {OWNERS}"
STORE_NAMESPACES = f"SELECT namespace, created_seq FROM {NAMESPACES}"
STORE_HAS_NAMESPACE = f"SELECT 1 FROM {NAMESPACES} WHERE namespace = :namespace"
STORE_QUOTA = "SELECT store_quota_bytes FROM journal_header"
STORE_USAGE = f"SELECT stored_bytes FROM {USAGE} WHERE owner = :owner"
STORE_SIZE = f"SELECT value_bytes FROM {SIZES} WHERE {_STORE_KEY}"
# checkpoints: text compared by code point, bytewise, which SQLite's default BINARY collation is and
# PostgreSQL's ``C`` collation is (the database's own may be a locale's)
_GRAPH_COLUMNS = {
    "graph_checkpoints": GraphCheckpoint._fields,
    "graph_channel_values": GraphChannelValue._fields,
    "graph_writes": GraphWrite._fields,
}
GRAPH_BATCH = 64
"""The most keys one batched read names; a shorter batch is padded (its last key repeated) to a power of
two, so that few distinct statements are ever prepared."""
GRAPH_BRANCHES = 8
"""The most channels one read of channel values names (``UNION ALL`` branches: at most 8 x 64 versions
and 8 channels: 536 parameter markers, within every SQLite's limit of 999)."""
_PLACE = "thread_id = :thread_id AND checkpoint_ns = :checkpoint_ns"


def _places(prefix: str, size: int) -> str:
    return ", ".join(f":{prefix}{index}" for index in range(size))


def _match(columns: Iterable[str], prefix: str = "") -> str:
    return " AND ".join(f'"{column}" = :{prefix}{column}' for column in columns)


def _graph_select(table: str) -> str:
    return f"SELECT {', '.join(_GRAPH_COLUMNS[table])} FROM {table}"


def _newest_sql(postgres: bool, below: bool, checkpoint_id: bool) -> str:
    ordered = 'checkpoint_id COLLATE "C"' if postgres else "checkpoint_id"
    where = _PLACE + (" AND checkpoint_id = :checkpoint_id" if checkpoint_id else "")
    where += f" AND {ordered} < :below" if below else ""
    return f"{_graph_select('graph_checkpoints')} WHERE {where} ORDER BY {ordered} DESC LIMIT :limit"


def _next_namespace_sql(postgres: bool, after: bool) -> str:
    ordered = 'checkpoint_ns COLLATE "C"' if postgres else "checkpoint_ns"
    bound = f" AND {ordered} > :after" if after else ""
    return (
        f"SELECT checkpoint_ns FROM graph_checkpoints WHERE thread_id = :thread_id{bound} "
        f"ORDER BY {ordered} LIMIT 1"
    )


def _values_at_branch(branch: int, size: int) -> str:
    # one channel's versions by IN on the last primary key column: an index search whatever the planner's
    # statistics (an OR of (channel, version) pairs may be planned as a scan of the whole namespace)
    where = f"{_PLACE} AND channel = :c{branch} AND version IN ({_places(f'v{branch}_', size)})"
    return f"{_graph_select('graph_channel_values')} WHERE {where}"


@functools.cache
def graph_values_at(branches: int, size: int) -> str:
    """One statement reading ``branches`` channels' versions (``:c<branch>``), ``size`` of each
    (``:v<branch>_<index>``), one branch per channel, each searching the index, joined by ``UNION ALL``:
    one statement for up to 8 channels of a checkpoint. At most ``GRAPH_BRANCHES`` x 7 distinct ones."""
    return " UNION ALL ".join(_values_at_branch(branch, size) for branch in range(branches))


@functools.cache
def graph_rows(table: str, names: tuple[str, ...]) -> str:
    """The rows of a graph table with the given column values (``:name`` each)."""
    sql = _graph_select(table)
    return f"{sql} WHERE {_match(names)}" if names else sql


GRAPH_NEWEST = {key: _newest_sql(*key) for key in itertools.product((False, True), repeat=3)}
GRAPH_NEXT_NAMESPACE = {key: _next_namespace_sql(*key) for key in itertools.product((False, True), repeat=2)}
GRAPH_NAMESPACES = "SELECT DISTINCT thread_id, checkpoint_ns FROM graph_checkpoints"
GRAPH_NAMESPACES_OF = f"{GRAPH_NAMESPACES} WHERE checkpoint_ns = :checkpoint_ns"
GRAPH_WRITES_OF = {
    size: f"{_graph_select('graph_writes')} WHERE {_PLACE} AND checkpoint_id IN ({_places('i', size)})"
    for size in (1 << power for power in range(GRAPH_BATCH.bit_length()))
}
GRAPH_WRITE_EXISTS = f"SELECT 1 FROM graph_writes WHERE {_match(GraphWrite._fields[:5])}"
GRAPH_OWNER = f"SELECT owner FROM {GRAPH_OWNERS} WHERE thread_id = :thread_id"
GRAPH_OWNERS_ALL = f"SELECT thread_id, owner FROM {GRAPH_OWNERS}"

# --- the journal, its tiles and blobs ------------------------------------------------------------


def insert_sql(table: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (c1, ...) VALUES (:c1, ...)``, every column quoted."""
    names = ", ".join(f'"{column}"' for column in columns)
    return f"INSERT INTO {table} ({names}) VALUES ({', '.join(':' + column for column in columns)})"


def upsert_sql(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    assignments = ", ".join(f'"{column}" = excluded."{column}"' for column in columns if column not in key)
    conflict = ", ".join(f'"{column}"' for column in key)
    return f"{insert_sql(table, columns)} ON CONFLICT ({conflict}) DO UPDATE SET {assignments}"


def update_sql(table: str, columns: Iterable[str], key: Iterable[str]) -> str:
    assignments = ", ".join(f'"{column}" = :s_{column}' for column in columns)
    return f"UPDATE {table} SET {assignments} WHERE {_match(key, 'w_')}"


def delete_sql(table: str, key: Iterable[str]) -> str:
    return f"DELETE FROM {table} WHERE {_match(key)}"


def _kept(table: Table, postgres: bool) -> str:
    names = [column.name for column in table.columns] + (
        ["written_seq"] if table.name in ROW_SEQ_TABLES else []
    )
    pairs = ", ".join(f"'{name}', \"{name}\"" for name in names)
    row = f"CAST(json_build_object({pairs}) AS TEXT)" if postgres else f"json_object({pairs})"
    return (
        f'INSERT INTO graph_history ("ended_seq", "tbl", "row") SELECT :ended_seq, \'{table.name}\', {row} '
        f"FROM {table.name} WHERE {_match(column.name for column in table.primary_key)}"
    )


_HISTORY_TABLES = [table for table in STATE_TABLES if table.name in HISTORY_TABLES]
HISTORY_KEEP = {
    (table.name, postgres): _kept(table, postgres) for table in _HISTORY_TABLES for postgres in (False, True)
}
"""Keeps the row of a history table that its key (``:column``) names, if there is one, in ``graph_history``
as a JSON object of its columns (``written_seq`` with them), ended at ``:ended_seq``: run before a call
replaces, updates or deletes it; by table and whether the database is PostgreSQL."""
GRAPH_WRITTEN_BY = {
    table.name: "SELECT {} FROM {} WHERE {} <= :seq".format(
        ", ".join(f'"{column.name}"' for column in table.columns), table.name, HISTORY_TABLES[table.name]
    )
    for table in _HISTORY_TABLES
}
"""Each history table's rows written by ``:seq`` (those in force since: ``HISTORY_ENDED_AFTER`` adds the
ones ended after it)."""
HISTORY_ENDED_AFTER = 'SELECT tbl, "row" FROM graph_history WHERE ended_seq > :seq'
HISTORY_ALL = 'SELECT ended_seq, tbl, "row" FROM graph_history WHERE ended_seq >= :since ORDER BY ended_seq'
HISTORY_FROM = {table: f"SELECT first_seq FROM {table}" for table in ("history_from", "journal_effects_from")}
ROW_SEQS = {
    table.name: "SELECT {}, written_seq FROM {}".format(
        ", ".join(f'"{column.name}"' for column in table.primary_key), table.name
    )
    for table in _HISTORY_TABLES
    if table.name in ROW_SEQ_TABLES
}
"""Each row's key and ``written_seq`` (``ROW_SEQ_TABLES``), which the state digest leaves out: for
verification."""

COUNT_ONE_MORE = (
    "INSERT INTO memory_entry_counts (user_id, entries) VALUES (:user_id, 1) "
    "ON CONFLICT (user_id) DO UPDATE SET entries = memory_entry_counts.entries + 1"
)
APPEND = insert_sql("journal", JournalEntry.__struct_fields__)
HEAD = "SELECT seq, entry_hash FROM journal ORDER BY seq DESC LIMIT 1"
ENTRY_HASH_AT = "SELECT entry_hash FROM journal WHERE seq = :seq"
FIRST_PREV = "SELECT prev_hash FROM journal WHERE seq = 1"
APPEND_LOCK = 0x6172_7669_736A_6E6C
"""The PostgreSQL advisory lock (key ``"arvisjnl"``) a writer of a database's journal holds from its head
read to its commit: a transaction-scoped lock, local to the database (one per database), that only
appending writers wait on; a table lock on ``journal`` would also stop other statements on the table."""
APPEND_LOCK_SQL = f"SELECT pg_advisory_xact_lock({APPEND_LOCK})"
MOMENT = (
    "SELECT seq, recorded_at FROM journal WHERE seq IN ((SELECT max(seq) FROM journal), :seq)"
    " ORDER BY seq DESC"
)
"""The head's seq and time, then (a second row) those of entry ``:seq`` when it is another entry."""
ENTRY_CALL_AT = "SELECT syscall, principal, status, args FROM journal WHERE seq = :seq"
ADMIN_BINDINGS = (
    "SELECT b.seq, b.admin_verifier, j.syscall, j.principal, j.status, j.args "
    "FROM admin_bindings b JOIN journal j ON j.seq = b.seq ORDER BY b.seq DESC"
)
ADMIN_BINDING_ROWS = "SELECT seq, admin_verifier FROM admin_bindings"
ADMIN_BINDING_INSERT = insert_sql("admin_bindings", ["seq", "admin_verifier"])
HEADER_VERIFIER = "SELECT admin_verifier FROM journal_header"
TILES = "SELECT tile FROM merkle_tiles"
TILE_ENTRIES = "SELECT seq, entry_hash FROM journal WHERE seq >= :first AND seq <= :last ORDER BY seq"
TILE_INSERT = upsert_sql("merkle_tiles", ["tile", "root"], ["tile"])
"""A row already there (a hand edit, a partial copy) is replaced, never left to block every append that
completes its tile: tiles are derived, and verification reports a wrong one."""
BLOB_PUT = insert_sql("graph_blobs", ["hash", "data"]) + ' ON CONFLICT ("hash") DO NOTHING'
"""Store one blob in the open transaction: storing the same bytes again changes nothing."""


def blobs_in(size: int) -> str:
    return f"SELECT hash, data FROM graph_blobs WHERE hash IN ({_places('h', size)})"


# --- sessions: transactions, settings, locks -------------------------------------------------------

BEGIN = "BEGIN"
BEGIN_IMMEDIATE = "BEGIN IMMEDIATE"
SQLITE_JOURNAL_MODE = "PRAGMA journal_mode"
SQLITE_WAL = "PRAGMA journal_mode=WAL"
SQLITE_SCHEMA_READ = "SELECT count(*) FROM sqlite_master"
SET_SQLITE_BUSY_TIMEOUT = "PRAGMA busy_timeout={}"
SET_POSTGRES = "SELECT set_config(%s, %s, false)"
LOCK_HEADER = "LOCK TABLE journal_header IN EXCLUSIVE MODE"
LOCK_JOURNAL = "LOCK TABLE journal_header, journal IN EXCLUSIVE MODE"
REPEATABLE_READ = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"
MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(:key)"
REVISION = "SELECT version_num FROM alembic_version"
SQLITE_SYNCHRONOUS = "PRAGMA synchronous"
SET_SQLITE_SYNCHRONOUS = "PRAGMA synchronous={}"
NO_FLUSH_SQLITE = "PRAGMA synchronous=NORMAL"
NO_FLUSH_POSTGRES = "SET LOCAL synchronous_commit = off"
POSTGRES_SYNCHRONOUS = "SHOW synchronous_commit"

# --- verification ---------------------------------------------------------------------------------

BLOBS_AFTER = "SELECT hash, data FROM graph_blobs WHERE hash > :last ORDER BY hash LIMIT :limit"
FIRST_REFERENCE = "SELECT MIN(written_seq) FROM {table} WHERE {column} = :key"


def unstored_reference(table: str, column: str, names: Sequence[str]) -> str:
    columns = ", ".join(f"r.{name}" for name in names)
    return (
        f"SELECT r.written_seq, r.{column}, {columns} FROM {table} r "
        f"LEFT JOIN graph_blobs b ON b.hash = r.{column} "
        f"WHERE r.{column} IS NOT NULL AND b.hash IS NULL ORDER BY r.written_seq LIMIT 1"
    )


# --- state tables: pages of rows -----------------------------------------------------------------


def _ordered(name: str, text: bool, postgres: bool) -> str:
    """A column as compared and ordered: text as bytes (PostgreSQL's "C", SQLite's BINARY default)."""
    return f'"{name}" COLLATE "C"' if postgres and text else f'"{name}"'


def state_page(table: Table, postgres: bool, after: tuple[bool, ...] | None, size: int) -> str:
    """``size`` rows of ``table`` in primary-key order: from the first, or (``after``) those past a
    boundary key (``:k0`` ...), one flag per key column: whether its value is sent as bytes cast back to
    TEXT (text that is not UTF-8 cannot be sent as text; SQLite: the same bytes, so the same order).
    Built per page (about 10 µs, next to a page's 2,000 rows: no compiler, and nothing kept)."""
    columns = ", ".join(f'"{column.name}"' for column in table.columns)
    keys = [_ordered(column.name, column.type.python_type is str, postgres) for column in table.primary_key]
    where = ""
    if after is not None:
        bounds = ", ".join(
            f"CAST(:k{at} AS TEXT)" if as_bytes else f":k{at}" for at, as_bytes in enumerate(after)
        )
        where = f" WHERE ({', '.join(keys)}) > ({bounds})"
    return f'SELECT {columns} FROM "{table.name}"{where} ORDER BY {", ".join(keys)} LIMIT {size}'


MEMORY_STATE_AS_OF = {
    pg: _as_of(COLUMNS, " ORDER BY " + ", ".join(_ordered(key, key != "version", pg) for key in COLUMNS[:3]))
    for pg in (False, True)
}
"""Every user's rows as of ``:seq`` as ``state_page`` reads them (``COLUMNS``, the first three the primary
key), then the flag; by whether the database is PostgreSQL. ``journal state --at`` reads them, not a fold."""

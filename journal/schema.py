"""The SQLAlchemy Core tables. Migrations create them; this module only describes them for queries.

Portability: times are fixed-form UTC text (``YYYY-MM-DDTHH:MM:SS.ffffffZ``) that sorts as it reads;
hashes are lower-case hex; canonical JSON is stored as bytes; an ORDER BY is on an integer, or on text
compared by bytes (SQLite BINARY, PostgreSQL "C"; e.g. blob hashes), so both backends agree.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

FORMAT_VERSION = 8
"""The format a new journal is created in. Entries are encoded alike in every format; the version
says which rules the kernel applies to the journal (``kernel.formats``): format 1 keeps the first
release's access rules, format 2 owned contexts and scoped runs, format 3 adds reads journaled by
reference, format 4 typed grant scopes, explicitly created graph names and refusals that do not say
whether an id exists, format 5 graph thread ids of any length (scoped by their hash when too long),
format 6 a working-memory statement whose ``source`` may be left out (its principal's channel), format
7 graph names as LangGraph has them (a first write takes one; a read takes nothing), format 8 graph
values named by their bytes alone (no hash carried beside them). A
journal keeps its format for life, so a journal written by any release replays byte for byte forever."""
FORMAT_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8)
"""Every format this release reads, verifies and appends to."""

metadata = MetaData()


def _rowid(name: str) -> Column[int]:
    """An integer key that on SQLite is INTEGER PRIMARY KEY, the rowid itself (no second index to write)."""
    return Column(name, BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False)


def _owners(name: str, key: str) -> Table:
    """Who created each ``key`` (a context, a thread, a store prefix), and at which seq."""
    return Table(
        name,
        metadata,
        Column(key, Text, primary_key=True),
        Column("owner", Text, nullable=False),
        Column("created_seq", BigInteger, nullable=False),
    )


journal_header = Table(
    "journal_header",
    metadata,
    Column("singleton", Integer, primary_key=True),
    Column("journal_id", String(64), nullable=False),
    Column("format_version", Integer, nullable=False),
    Column("created_at", String(27), nullable=False),
    Column("genesis_hash", String(64), nullable=False),
    Column("admin_verifier", String(64)),  # revision 0012 (journal.admin_binding); NULL: none bound
    Column("store_quota_bytes", BigInteger),  # revision 0013: each owner's graph-store bytes; NULL: none
)

admin_bindings = Table(
    "admin_bindings",
    metadata,
    _rowid("seq"),
    Column("admin_verifier", String(64), nullable=False),
)
"""Bindings and rotations of the admin key after the journal's creation (revision 0012,
``journal.admin_binding``): each row names the accepted ``kernel.record`` entry that journaled it.
Append-only; not state (the state digest leaves it out)."""

journal = Table(
    "journal",
    metadata,
    _rowid("seq"),  # 0006
    Column("recorded_at", String(27), nullable=False),
    Column("syscall", Text, nullable=False),
    Column("principal", Text, nullable=False),
    Column("args", LargeBinary, nullable=False),
    Column("status", Text, nullable=False),
    Column("result", LargeBinary, nullable=False),
    Column("effects_hash", String(64), nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("entry_hash", String(64), nullable=False),
)

memory_entries = Table(
    "memory_entries",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("memory_type", Text, nullable=False),
    Column("created_at", String(27), nullable=False),
    Column("source", Text, nullable=False),
    Column("notes", Text),
    Column("value_ref", Text),
    Column("expires_at", String(27)),
    Column("revoked_at", String(27)),
    Column("superseded_at", String(27)),
    Column("governance", Text, nullable=False),
    Column("written_seq", BigInteger, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (0006)
)

VERSION_SEQS = {"superseded_at": "superseded_seq", "revoked_at": "revoked_seq"}
"""Revision 0015: beside each of these ``memory_entries`` columns, the seq of the call that set it
(``journal.apply``), so that a user's entries as of any seq are one query. Not in the table above (what a
row means), the effects, the state digest or a state shown; NULL beside a set column: not derivable."""
ROW_SEQ_TABLES = frozenset(
    {
        "awmu_contexts",
        "awmu_units",
        "awmu_reviews",
        "awmu_canon_requests",
        "pipeline_runs",
        "graph_store_sizes",
        "graph_store_usage",
    }
)
"""Revision 0020: state tables whose rows carry, beside the columns above, a ``written_seq`` that
``journal.apply`` sets to the seq of the call that last inserted, replaced or updated the row. Like
``VERSION_SEQS``, not in what a row means: not in the tables above, the effects, the state digest or a
state shown; NULL in a journal migrated whose past was not derivable (``history_from``)."""
HISTORY_TABLES = {
    "graph_checkpoints": "written_seq",
    "graph_channel_values": "written_seq",
    "graph_writes": "written_seq",
    "graph_store_items": "written_seq",
    "awmu_events": "seq",
    "awmu_context_owners": "created_seq",
    "graph_thread_owners": "created_seq",
    "graph_store_owners": "created_seq",
    "graph_store_namespaces": "created_seq",
    "grants": "granted_seq",
    **dict.fromkeys(sorted(ROW_SEQ_TABLES), "written_seq"),
}
"""Every state table but ``memory_entries``: its rows carry the seq that wrote them (the column named here:
every insert or upsert sets it to the call's seq) and the rows a call replaces, updates or deletes are
kept, as they were, in ``graph_history`` (``journal.apply``; revision 0017 for the checkpoint tables, 0018
for the store's items, 0019 for those whose rows are only inserted, or inserted and deleted, 0020 for
``ROW_SEQ_TABLES``). With ``memory_entries``' version columns, the state as of any seq is a query."""
HISTORY_SINCE = (
    dict.fromkeys(ROW_SEQ_TABLES, "0020")
    | {table: "0019" for table in HISTORY_TABLES if table not in ROW_SEQ_TABLES}
    | {"graph_store_items": "0018"}
    | {table: "0017" for table in ("graph_checkpoints", "graph_channel_values", "graph_writes")}
)
"""The revision from which ``graph_history`` keeps each table's rows (a database read without migrating
keeps those of its own revision)."""

memory_entry_counts = Table(
    "memory_entry_counts",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("entries", BigInteger, nullable=False),
    sqlite_with_rowid=False,
)
"""How many rows ``memory_entries`` holds per user (the quota check), kept by the repository in the
call's transaction. Derived from ``memory_entries``: not journaled as effects, not in the state digest."""

awmu_contexts = Table(
    "awmu_contexts",
    metadata,
    Column("context_id", Text, primary_key=True),
    Column("updated_seq", BigInteger, nullable=False),
    Column("body", Text, nullable=False),
)

awmu_units = Table(
    "awmu_units",
    metadata,
    Column("unit_id", Text, primary_key=True),
    Column("context_id", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("created_seq", BigInteger, nullable=False),
    Column("body", Text, nullable=False),
)

awmu_reviews = Table(
    "awmu_reviews",
    metadata,
    Column("review_id", Text, primary_key=True),
    Column("context_id", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("body", Text, nullable=False),
)

awmu_canon_requests = Table(
    "awmu_canon_requests",
    metadata,
    Column("request_id", Text, primary_key=True),
    Column("context_id", Text, nullable=False),
    Column("unit_id", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("body", Text, nullable=False),
)

awmu_events = Table(
    "awmu_events",
    metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("context_id", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("unit_id", Text),
    Column("body", Text, nullable=False),
)

pipeline_runs = Table(
    "pipeline_runs",
    metadata,
    Column("run_id", Text, primary_key=True),
    Column("user_id", Text, nullable=False),
    Column("principal", Text, nullable=False),
    Column("began_seq", BigInteger, nullable=False),
    Column("ended_seq", BigInteger),
)

grants = Table(
    "grants",
    metadata,
    Column("principal", Text, primary_key=True),
    Column("capability", Text, primary_key=True),
    Column("scope", Text, primary_key=True),
    Column("granted_seq", BigInteger, nullable=False),
)

awmu_context_owners = _owners("awmu_context_owners", "context_id")
"""The principal that created each working-memory context of a format-2 journal (revision 0007); a
format-1 journal leaves it empty."""

# LangGraph checkpoints (revision 0009, specs/langgraph.md): values are references into graph_blobs
graph_thread_owners = _owners("graph_thread_owners", "thread_id")

graph_checkpoints = Table(
    "graph_checkpoints",
    metadata,
    Column("thread_id", Text, primary_key=True),
    Column("checkpoint_ns", Text, primary_key=True),
    Column("checkpoint_id", Text, primary_key=True),
    Column("parent_checkpoint_id", Text),
    Column("checkpoint_type", Text, nullable=False),
    Column("checkpoint_hash", String(64), nullable=False),
    Column("metadata", Text, nullable=False),
    Column("channel_versions", Text, nullable=False),
    Column("written_seq", BigInteger, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (0021)
)

graph_channel_values = Table(
    "graph_channel_values",
    metadata,
    Column("thread_id", Text, primary_key=True),
    Column("checkpoint_ns", Text, primary_key=True),
    Column("channel", Text, primary_key=True),
    Column("version", Text, primary_key=True),
    Column("value_type", Text, nullable=False),
    Column("value_hash", String(64)),
    Column("written_seq", BigInteger, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (0021)
)

graph_writes = Table(
    "graph_writes",
    metadata,
    Column("thread_id", Text, primary_key=True),
    Column("checkpoint_ns", Text, primary_key=True),
    Column("checkpoint_id", Text, primary_key=True),
    Column("task_id", Text, primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("channel", Text, nullable=False),
    Column("task_path", Text, nullable=False),
    Column("value_type", Text, nullable=False),
    Column("value_hash", String(64), nullable=False),
    Column("written_seq", BigInteger, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (0021)
)

graph_blobs = Table(
    "graph_blobs",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("data", LargeBinary, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (0021)
)
"""Content-addressed bytes (``journal.blob_store``): the key is the lower-case hex SHA-256 of ``data``.
Written outside any syscall, before the call that references them; not state (the state digest leaves
it out); verification checks every row against its key and every reference of the graph tables."""

# LangGraph's long-term store (revision 0010, specs/langgraph.md §8): values are references into graph_blobs
graph_store_owners = _owners("graph_store_owners", "prefix")

graph_store_namespaces = Table(
    "graph_store_namespaces",
    metadata,
    Column("namespace", Text, primary_key=True),
    Column("created_seq", BigInteger, nullable=False),
)

graph_store_items = Table(
    "graph_store_items",
    metadata,
    Column("namespace", Text, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("prefix", Text, nullable=False),
    Column("value_hash", String(64), nullable=False),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
    Column("expires_at", Text),
    Column("ttl", Text),
    Column("order_seq", BigInteger, nullable=False),
    Column("written_seq", BigInteger, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (0021)
)

graph_store_sizes = Table(
    "graph_store_sizes",
    metadata,
    Column("namespace", Text, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("prefix", Text, nullable=False),
    Column("value_bytes", BigInteger, nullable=False),
)
"""Revision 0013: the size of each stored item's value, kept only in a journal created with a store quota
(``journal_header.store_quota_bytes``), so that the bytes an owner stores are counted without its values
(a replay's scratch store holds none of them)."""

graph_store_usage = Table(
    "graph_store_usage",
    metadata,
    Column("owner", Text, primary_key=True),
    Column("stored_bytes", BigInteger, nullable=False),
)
"""Revision 0013: each owner's running total of stored value bytes, where there is a store quota: a put
reads one row, never the owner's items."""

STATE_TABLES: tuple[Table, ...] = (
    memory_entries,
    awmu_contexts,
    awmu_units,
    awmu_reviews,
    awmu_canon_requests,
    awmu_events,
    pipeline_runs,
    grants,
    awmu_context_owners,
    graph_thread_owners,
    graph_checkpoints,
    graph_channel_values,
    graph_writes,
    graph_store_owners,
    graph_store_namespaces,
    graph_store_items,
    graph_store_sizes,
    graph_store_usage,
)
"""Every table whose rows are state derived from the journal (what the state digest covers)."""

merkle_tiles = Table(
    "merkle_tiles",
    metadata,
    _rowid("tile"),
    Column("root", String(64), nullable=False),
)
"""The Merkle tiles (revision 0008, ``journal.tiles``): derived from the journal, not state (the state
digest leaves them out); ``journal verify`` recomputes them."""

graph_history = Table(
    "graph_history",
    metadata,
    Column("ended_seq", BigInteger, nullable=False),
    Column("tbl", Text, nullable=False),
    Column("row", Text, nullable=False),
    Index("graph_history_ended", "ended_seq"),
)
"""Each row of ``HISTORY_TABLES`` a call replaced, updated or deleted, as it was (a JSON object of its
columns, ``written_seq`` with them), with the seq of that call (revision 0017): the table as of seq S is
its rows written by S and these rows written by S and ended after it. Derived from the journal, not state
(the state digest leaves it out); verification holds it to the replay's."""

history_from = Table(
    "history_from",
    metadata,
    Column("singleton", Integer, primary_key=True),
    Column("first_seq", BigInteger, nullable=False),
)
"""The first seq whose past the rows and ``graph_history`` hold, in a journal migrated when the past before
it could not be derived from its effects log (revision 0020, which drops that log; before, it was the
log's ``journal_effects_from``): time travel there replays. No row: they hold every entry's past."""

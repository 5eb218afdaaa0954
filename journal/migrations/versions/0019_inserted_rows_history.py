"""The tables whose rows are only inserted (working-memory events, the owners of contexts, threads and
store prefixes, the store's namespaces), or inserted and deleted (grants), keep their past in rows, as the
LangGraph tables do since 0017 and 0018: each carries the seq that wrote a row, and a grant a call deletes
goes to ``graph_history`` with the seq of that call, so these tables as of any seq are a query and the
effects log leaves their changes out (``journal.schema.HISTORY_TABLES``).

As 0017 does: a journal whose log covers it from entry 1 gets the deleted grants from the log (its changes
folded in order), and the log's rows lose the changes of these tables (a row left with none goes); a
journal whose log starts later gets neither: its log and history cover what follows, and its past is
replayed.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

from arvis.canonical import canonical_bytes

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

BATCH = 2_000
KEYS = {"grants": ("principal", "capability", "scope")}
"""The one table of these whose rows a call deletes: the others' rows are only inserted, so nothing of
them is kept; their changes only leave the log."""
IN_ROWS = {
    *KEYS,
    "awmu_events",
    "awmu_context_owners",
    "graph_thread_owners",
    "graph_store_owners",
    "graph_store_namespaces",
    "memory_entries",
    "graph_checkpoints",
    "graph_channel_values",
    "graph_writes",
    "graph_store_items",
}
FROM_THE_HEAD = (
    "INSERT INTO journal_effects_from (singleton, first_seq) "
    "SELECT 1, max(seq) + 1 FROM journal HAVING count(*) > 0"
)


def upgrade() -> None:
    connection = op.get_bind()
    if connection.execute(sa.text("SELECT count(*) FROM journal_effects_from")).scalar():
        op.execute("DELETE FROM journal_effects_from")  # the log and the history cover what follows
        op.execute(FROM_THE_HEAD)
        return
    rows: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {table: {} for table in KEYS}
    kept: list[dict[str, Any]] = []
    rewritten: list[dict[str, Any]] = []
    logged = connection.execute(
        sa.text("SELECT seq, effects FROM journal_effects ORDER BY seq"),
        execution_options={"yield_per": BATCH},
    )
    for seq, effects in logged:
        changes = orjson.loads(bytes(effects))
        for change in changes:
            table = change["table"]
            if table not in KEYS:
                continue
            named = change["row"] if change["op"] in ("insert", "upsert") else change["where"]
            key = tuple(named[column] for column in KEYS[table])
            old = rows[table].pop(key, None)
            if old is not None and change["op"] != "insert":
                kept.append({"ended_seq": seq, "tbl": table, "row": orjson.dumps(old).decode()})
            if change["op"] in ("insert", "upsert"):
                rows[table][key] = change["row"]  # a grant is inserted whole
        remaining = [change for change in changes if change["table"] not in IN_ROWS]
        if len(remaining) < len(changes):
            rewritten.append({"seq": seq, "effects": canonical_bytes(remaining) if remaining else None})
    if kept:
        connection.execute(
            sa.text('INSERT INTO graph_history (ended_seq, tbl, "row") VALUES (:ended_seq, :tbl, :row)'), kept
        )
    emptied = [{"seq": row["seq"]} for row in rewritten if row["effects"] is None]
    if emptied:
        connection.execute(sa.text("DELETE FROM journal_effects WHERE seq = :seq"), emptied)
    changed = [row for row in rewritten if row["effects"] is not None]
    if changed:
        connection.execute(sa.text("UPDATE journal_effects SET effects = :effects WHERE seq = :seq"), changed)


def downgrade() -> None:
    """The history and the log's removed changes are not put back: the log is declared to cover only
    what follows, so the earlier past is replayed."""
    op.execute("DELETE FROM graph_history WHERE tbl = 'grants'")
    op.execute("DELETE FROM journal_effects_from")
    op.execute(FROM_THE_HEAD)

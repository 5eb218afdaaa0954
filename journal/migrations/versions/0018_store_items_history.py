"""The LangGraph store's items keep their past in rows, as the checkpoint tables do since 0017: each
``graph_store_items`` row a call replaced or deleted goes to ``graph_history`` with the seq of that call,
so the table as of any seq is a query and the effects log leaves its changes out
(``journal.schema.HISTORY_TABLES``).

As 0017 does: a journal whose log covers it from entry 1 gets the items' history from the log (its changes
folded in order, each row an upsert replaced or a delete removed kept with that entry's seq), and the log's
rows lose those changes (a row left with none goes); a journal whose log starts later gets neither: its log
and history cover what follows, and its past is replayed.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

from arvis.canonical import canonical_bytes

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

BATCH = 2_000
KEYS = {"graph_store_items": ("namespace", "key")}
IN_ROWS = {*KEYS, "memory_entries", "graph_checkpoints", "graph_channel_values", "graph_writes"}
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
                rows[table][key] = change["row"]  # an item is always put whole
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
    op.execute("DELETE FROM graph_history WHERE tbl = 'graph_store_items'")
    op.execute("DELETE FROM journal_effects_from")
    op.execute(FROM_THE_HEAD)

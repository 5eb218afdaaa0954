"""The LangGraph checkpoint tables keep their past in rows: ``graph_history`` holds each row a call replaced
or deleted, as it was, with the seq of that call (``journal.apply``), so the tables as of any seq are a
query and the effects log leaves their changes out (``journal.schema.HISTORY_TABLES``).

A journal whose log covers it from entry 1 gets its history from the log: its changes folded in order,
each row an upsert replaced or a delete removed kept with that entry's seq, as the calls would have kept
it. The log's rows then lose the changes of these tables (and of ``memory_entries``, whose past is in its
rows since 0015): a row left with none goes, the others hold the changes that remain, as a call logs them
now. A journal whose log starts later (``journal_effects_from``) gets neither: its log and history cover
what follows, and its past is replayed.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

from arvis.canonical import canonical_bytes

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

BATCH = 2_000
KEYS = {
    "graph_checkpoints": ("thread_id", "checkpoint_ns", "checkpoint_id"),
    "graph_channel_values": ("thread_id", "checkpoint_ns", "channel", "version"),
    "graph_writes": ("thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"),
}
IN_ROWS = {*KEYS, "memory_entries"}
FROM_THE_HEAD = (
    "INSERT INTO journal_effects_from (singleton, first_seq) "
    "SELECT 1, max(seq) + 1 FROM journal HAVING count(*) > 0"
)


def upgrade() -> None:
    op.create_table(
        "graph_history",
        sa.Column("ended_seq", sa.BigInteger(), nullable=False),
        sa.Column("tbl", sa.Text(), nullable=False),
        sa.Column("row", sa.Text(), nullable=False),
    )
    op.create_index("graph_history_ended", "graph_history", ["ended_seq"])
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
                rows[table][key] = change["row"]  # a graph row is always put whole
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
    op.drop_index("graph_history_ended", "graph_history")
    op.drop_table("graph_history")
    op.execute("DELETE FROM journal_effects_from")
    op.execute(FROM_THE_HEAD)

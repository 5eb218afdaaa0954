"""The last tables whose past the effects log held keep it in their rows, and the log goes: working-memory
contexts, units, review items and canonization requests, pipeline runs, and the store's sizes and usage
(``journal.schema.ROW_SEQ_TABLES``) get a ``written_seq``, the seq of the call that last wrote a row (not
in what a row means: the state digest and the effects leave it out), and a row a call replaces, updates or
deletes is kept in ``graph_history`` with that call's seq, as the other state tables' rows are since 0017.
Every state table's past is then in rows; ``journal_effects`` is dropped, and ``journal_effects_from``
becomes ``history_from``.

A journal whose log covers it from entry 1 gets each row's ``written_seq`` and the rows its calls replaced,
updated or deleted from the log (its changes folded in order, as ``journal.apply`` applied them); a journal
whose log starts later gets neither (``written_seq`` stays NULL): its rows cover what follows, and its past
is replayed.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

BATCH = 2_000
TABLES = (
    "awmu_contexts",
    "awmu_units",
    "awmu_reviews",
    "awmu_canon_requests",
    "pipeline_runs",
    "graph_store_sizes",
    "graph_store_usage",
)
FROM_THE_HEAD = (
    "INSERT INTO history_from (singleton, first_seq) SELECT 1, max(seq) + 1 FROM journal HAVING count(*) > 0"
)


def upgrade() -> None:
    connection = op.get_bind()
    inspector = sa.inspect(connection)
    columns = {table: [column["name"] for column in inspector.get_columns(table)] for table in TABLES}
    keys = {table: inspector.get_pk_constraint(table)["constrained_columns"] for table in TABLES}
    for table in TABLES:
        op.add_column(table, sa.Column("written_seq", sa.BigInteger()))
    op.create_table(
        "history_from",
        sa.Column("singleton", sa.Integer(), primary_key=True),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
    )
    if connection.execute(sa.text("SELECT count(*) FROM journal_effects_from")).scalar():
        op.execute(FROM_THE_HEAD)  # the rows and their history cover what follows
    else:
        _derive(connection, columns, keys)
    op.drop_table("journal_effects_from")
    op.drop_table("journal_effects")


def _derive(connection: sa.Connection, columns: dict[str, list[str]], keys: dict[str, list[str]]) -> None:
    """Fold the log in order: each change of a row that is there keeps it (with the seq that wrote it)
    in ``graph_history``; then every row gets the seq of the last change that wrote it."""
    rows: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {table: {} for table in TABLES}
    kept: list[dict[str, Any]] = []
    logged = connection.execute(
        sa.text("SELECT seq, effects FROM journal_effects ORDER BY seq"),
        execution_options={"yield_per": BATCH},
    )
    for seq, effects in logged:
        for change in orjson.loads(bytes(effects)):
            table = change["table"]
            if table not in rows:
                continue  # the admin key's bindings: not state
            named = change["row"] if change["op"] in ("insert", "upsert") else change["where"]
            key = tuple(named[column] for column in keys[table])
            old = rows[table].get(key)
            if old is not None and change["op"] != "insert":
                kept.append({"ended_seq": seq, "tbl": table, "row": orjson.dumps(old).decode()})
            if change["op"] == "delete":
                rows[table].pop(key, None)
            elif change["op"] == "update":
                if old is not None:
                    rows[table][key] = old | change["set"] | {"written_seq": seq}
            elif old is None or change["op"] == "insert":
                rows[table][key] = dict.fromkeys(columns[table]) | change["row"] | {"written_seq": seq}
            else:
                rows[table][key] = old | change["row"] | {"written_seq": seq}
    if kept:
        connection.execute(
            sa.text('INSERT INTO graph_history (ended_seq, tbl, "row") VALUES (:ended_seq, :tbl, :row)'), kept
        )
    for table, found in rows.items():
        match = " AND ".join(f'"{column}" = :{column}' for column in keys[table])
        written = [
            {**dict(zip(keys[table], key, strict=True)), "s": row["written_seq"]}
            for key, row in found.items()
        ]
        if written:
            connection.execute(sa.text(f"UPDATE {table} SET written_seq = :s WHERE {match}"), written)


def downgrade() -> None:
    """The log is not put back: it is declared to cover only what follows, so the earlier past is
    replayed."""
    op.create_table(
        "journal_effects",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("effects", sa.LargeBinary(), nullable=False),
    )
    op.create_table(
        "journal_effects_from",
        sa.Column("singleton", sa.Integer(), primary_key=True),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
    )
    op.execute(
        "INSERT INTO journal_effects_from (singleton, first_seq) "
        "SELECT 1, max(seq) + 1 FROM journal HAVING count(*) > 0"
    )
    op.drop_table("history_from")
    names = ", ".join(f"'{table}'" for table in TABLES)
    op.execute(f"DELETE FROM graph_history WHERE tbl IN ({names})")
    for table in TABLES:
        op.drop_column(table, "written_seq")

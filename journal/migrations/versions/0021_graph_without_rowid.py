"""The LangGraph tables in one B-tree each on SQLite: ``graph_checkpoints``, ``graph_channel_values``,
``graph_writes``, ``graph_store_items`` and ``graph_blobs`` become ``WITHOUT ROWID`` tables, as
``memory_entries`` did in 0006.

A table whose primary key is not one integer column is, on SQLite, a rowid B-tree plus an index of its
key, which repeats every key column of every row (about a tenth of a LangGraph saver's file). ``WITHOUT
ROWID`` stores the rows in their key's B-tree: the same rows, the same order by key, one B-tree to write
per change. Each table is rebuilt from its own ``CREATE TABLE`` text (its rows copied as they are, its
other indexes created again); PostgreSQL keeps its tables.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

TABLES = ("graph_checkpoints", "graph_channel_values", "graph_writes", "graph_store_items", "graph_blobs")


def _rebuild(name: str, rowid: bool) -> None:
    connection = op.get_bind()
    found = "SELECT sql FROM sqlite_master WHERE tbl_name = :name AND type = :type AND sql IS NOT NULL"
    (created,) = connection.execute(sa.text(found), {"name": name, "type": "table"}).one()
    indexes = [sql for (sql,) in connection.execute(sa.text(found), {"name": name, "type": "index"})]
    body = created.strip().removesuffix("WITHOUT ROWID").rstrip()
    body = body.replace(f"CREATE TABLE {name} ", f"CREATE TABLE {name}_rebuilt ", 1)
    op.execute(body if rowid else f"{body} WITHOUT ROWID")
    op.execute(f"INSERT INTO {name}_rebuilt SELECT * FROM {name}")
    op.execute(f"DROP TABLE {name}")
    op.execute(f"ALTER TABLE {name}_rebuilt RENAME TO {name}")
    for sql in indexes:
        op.execute(sql)


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in TABLES:
            _rebuild(name, rowid=False)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in TABLES:
            _rebuild(name, rowid=True)

"""The effects log (``journal.effects``): each accepted entry's effects, the very bytes its
``effects_hash`` is taken over, so that the state as of any seq is read by folding them, not by
re-executing the journal; state checkpoints (revision 0011), which it replaces, go.

A journal that already holds entries has no effects for them: ``journal_effects_from`` names the first seq
the log covers (no row: every entry, a journal created at this revision or later), and time travel in such
a journal replays it as it did before.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
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
    op.drop_table("state_checkpoint_dirty")
    op.drop_table("state_checkpoints")


def downgrade() -> None:
    op.create_table(
        "state_checkpoints",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("manifest_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "state_checkpoint_dirty",
        sa.Column("tbl", sa.Text, primary_key=True),
        sa.Column("part", sa.Text, primary_key=True),
        sa.Column("row_key", sa.Text, primary_key=True),
        sqlite_with_rowid=False,
    )
    op.drop_table("journal_effects_from")
    op.drop_table("journal_effects")

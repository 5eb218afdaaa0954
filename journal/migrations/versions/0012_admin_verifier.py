"""The journal's administrator credential (``journal.admin_binding``): ``journal_header.admin_verifier``,
the verifier of the admin key a journal is created with, and ``admin_bindings``, the journaled bindings
and rotations made since (each row names the accepted ``kernel.record`` entry that made it). Append-only,
as the header and the journal are. A journal migrated from an older revision has neither: it has no
built-in administrator until it is bound (``arvis db bind-admin-key``), and it verifies as before.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("journal_header", sa.Column("admin_verifier", sa.String(64), nullable=True))
    op.create_table(
        "admin_bindings",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("admin_verifier", sa.String(64), nullable=False),
    )
    dialect = op.get_bind().dialect.name
    for action in ("UPDATE", "DELETE"):
        name = f"admin_bindings_no_{action.lower()}"
        if dialect == "sqlite":
            op.execute(
                f"CREATE TRIGGER {name} BEFORE {action} ON admin_bindings "
                "BEGIN SELECT RAISE(ABORT, 'admin_bindings is append-only'); END"
            )
        elif dialect == "postgresql":
            op.execute(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'admin_bindings is append-only'; END $$"
            )
            op.execute(
                f"CREATE TRIGGER {name} BEFORE {action} ON admin_bindings "
                f"FOR EACH ROW EXECUTE FUNCTION {name}()"
            )


def downgrade() -> None:
    op.drop_table("admin_bindings")  # its triggers go with it
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION admin_bindings_no_update()")
        op.execute("DROP FUNCTION admin_bindings_no_delete()")
    op.drop_column("journal_header", "admin_verifier")

"""Version columns on ``memory_entries``: ``superseded_seq`` and ``revoked_seq``, the seq of the call that
set ``superseded_at`` and ``revoked_at``, so that a user's entries as of any seq are one query (time travel,
``journal.schema.VERSION_SEQS``) rather than a fold of the effects log or a replay.

They are not part of what a row means: not in the effects, their hash or the state digest, so every
journal verifies as before. The rows already there get them from what they follow from
(``journal.apply.derive_version_seqs``): the seq that wrote the next version, the accepted
``memory.revoke`` of the key. One that cannot be derived (a hand edit) stays NULL, and time travel
folds or replays that user's past instead.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from journal.apply import derive_version_seqs

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("memory_entries", sa.Column("superseded_seq", sa.BigInteger()))
    op.add_column("memory_entries", sa.Column("revoked_seq", sa.BigInteger()))
    derive_version_seqs(op.get_bind())


def downgrade() -> None:
    op.drop_column("memory_entries", "revoked_seq")
    op.drop_column("memory_entries", "superseded_seq")

"""Version columns on ``memory_entries``: ``superseded_seq`` and ``revoked_seq``, the seq of the call that
set ``superseded_at`` and ``revoked_at``, so that a user's entries as of any seq are one query (time travel,
``journal.schema.VERSION_SEQS``) rather than a fold of the effects log or a replay.

They are not part of what a row means: not in the effects, their hash or the state digest, so every
journal verifies as before. The rows already there get them from what they follow from: a version
superseded by the write of the next one (the same call), a revoke by the accepted ``memory.revoke`` of its
key after it was written (the newest version written before the revoke). One whose call is not found (a
hand edit) stays NULL, and time travel folds or replays that user's past instead.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import orjson
import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

SUPERSEDED = (
    "UPDATE memory_entries SET superseded_seq = (SELECT n.written_seq FROM memory_entries n WHERE n.user_id ="
    ' memory_entries.user_id AND n."key" = memory_entries."key" AND n.version = memory_entries.version + 1)'
    " WHERE superseded_at IS NOT NULL"
)
REVOKES = "SELECT seq, args FROM journal WHERE syscall = 'memory.revoke' AND status = 'ok'"
REVOKED = (
    'UPDATE memory_entries SET revoked_seq = :seq WHERE user_id = :user_id AND "key" = :key AND revoked_at'
    " IS NOT NULL AND version = (SELECT max(v.version) FROM memory_entries v WHERE v.user_id = :user_id"
    ' AND v."key" = :key AND v.written_seq < :seq)'
)


def upgrade() -> None:
    op.add_column("memory_entries", sa.Column("superseded_seq", sa.BigInteger()))
    op.add_column("memory_entries", sa.Column("revoked_seq", sa.BigInteger()))
    connection = op.get_bind()
    connection.execute(sa.text(SUPERSEDED))
    revokes = []
    for seq, args in connection.execute(sa.text(REVOKES)):
        try:
            called = orjson.loads(bytes(args))
            revokes.append({"seq": seq, "user_id": str(called["user_id"]), "key": str(called["key"])})
        except (orjson.JSONDecodeError, TypeError, KeyError):
            continue  # not an object with both: a hand edit, left NULL
    if revokes:
        connection.execute(sa.text(REVOKED), revokes)


def downgrade() -> None:
    op.drop_column("memory_entries", "revoked_seq")
    op.drop_column("memory_entries", "superseded_seq")

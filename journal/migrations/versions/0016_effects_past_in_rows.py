"""The effects log leaves out the changes of tables whose past stays in their own rows
(``journal.schema.PAST_IN_ROWS``: ``memory_entries``, read as of any seq through its version columns since
revision 0015): an entry whose changes are all of them is no longer logged, and one that changed others
logs those alone. Verification holds the log to its replay's (``journal.effects.check``).

The rows already logged for entries that changed only ``memory_entries`` go: time travel never read them
once the version columns served. The whole change sets logged for other entries stay as they are (they
hash to their entry's ``effects_hash``, which verification accepts as well).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

BATCH = 2_000


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT seq, effects FROM journal_effects ORDER BY seq"),
        execution_options={"yield_per": BATCH},
    )
    # a change names its table as "table":"<name>" (journal-format.md §16.2)
    memory_only = [
        {"seq": seq}
        for seq, effects in rows
        if bytes(effects).count(b'"table":"') == bytes(effects).count(b'"table":"memory_entries"')
    ]
    if memory_only:
        connection.execute(sa.text("DELETE FROM journal_effects WHERE seq = :seq"), memory_only)


def downgrade() -> None:
    """The rows taken out are not put back: the log is declared to cover only what follows (as 0014 does
    for a journal that holds entries), so the earlier past is replayed."""
    op.execute("DELETE FROM journal_effects_from")
    op.execute(
        "INSERT INTO journal_effects_from (singleton, first_seq) "
        "SELECT 1, max(seq) + 1 FROM journal HAVING count(*) > 0"
    )

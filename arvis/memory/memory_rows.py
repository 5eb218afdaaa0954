"""The ``memory_entries`` table as the long-term memory domain names it: its name and columns, in order. A
row is an entry's JSON form (times in fixed form, governance as its canonical JSON text) plus the user, the
key's version and the seq of the call that wrote it (``specs/journal-format.md`` §1.3, §5); the rows a write
or a revoke changes are ``arvis.memory.memory_service``'s."""

from __future__ import annotations

TABLE = "memory_entries"
COLUMNS = (
    "user_id",
    "key",
    "version",
    "memory_type",
    "created_at",
    "source",
    "notes",
    "value_ref",
    "expires_at",
    "revoked_at",
    "superseded_at",
    "governance",
    "written_seq",
)

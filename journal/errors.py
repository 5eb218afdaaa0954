"""How storage fails: the errors the store raises at its edge, which the kernel reports without
journaling (``kernel.protocols`` names them among what it needs from storage)."""

from __future__ import annotations


class StorageError(Exception):
    """The database failed (locked past the timeout, disk full, I/O error, connection lost).

    Raised by storage, translated once at its edge; the dispatcher reports it as
    ``storage_unavailable`` without journaling, because nothing was acknowledged.
    """


class StorageBusy(StorageError):
    """Another writer held the database's write lock past the wait allowed: nothing was written,
    and the call may simply be tried again."""


class CommitOutcomeUnknown(StorageError):
    """The commit failed where the database may have committed it (its answer was lost with the
    connection) and the store could not read back whether the transaction's last entry is in the
    journal: its calls were not acknowledged, but may have been journaled, so they must not be run
    again before the journal is read."""

"""What verification checks of the graph blob store: every stored blob hashes to its key, and every hash
the graph state references is stored (``journal-format.md`` §15).
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import Connection, inspect, text

from journal import statements
from journal.blob_store import BATCH, TABLE, BadBlob, hash_of

# --- the blob store --------------------------------------------------------------------------------

# (table, the columns naming a row, the column holding a hash) of every reference the graph state holds
_REFERENCES = (
    ("graph_checkpoints", ("thread_id", "checkpoint_ns", "checkpoint_id"), "checkpoint_hash"),
    ("graph_channel_values", ("thread_id", "checkpoint_ns", "channel", "version"), "value_hash"),
    ("graph_writes", ("thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"), "value_hash"),
    ("graph_store_items", ("namespace", "key"), "value_hash"),
)


def _stored(connection: Connection) -> Iterator[tuple[str, bytes]]:
    """Every stored blob in key order, ``BATCH`` at a time (keyset pagination)."""
    last = ""
    while True:
        rows = connection.execute(text(statements.BLOBS_AFTER), {"last": last, "limit": BATCH}).all()
        for key, data in rows:
            yield str(key), bytes(data)
        if len(rows) < BATCH:
            return
        last = str(rows[-1][0])


def _first_reference(connection: Connection, key: str) -> int:
    """The smallest ``written_seq`` of a state row referencing ``key`` (0 when none does)."""
    seqs = [
        connection.execute(
            text(statements.FIRST_REFERENCE.format(table=table, column=column)), {"key": key}
        ).scalar()
        for table, _, column in _REFERENCES
    ]
    return min((int(seq) for seq in seqs if seq is not None), default=0)


def check_blobs(connection: Connection) -> BadBlob | None:
    """The first damage of the blob store, or None: a stored blob whose bytes do not hash to its key
    (in key order), then a hash referenced by the graph state that is not stored (table by table, in
    the order of ``_REFERENCES``, rows by seq then key). A database without the graph tables has none."""
    if TABLE not in set(inspect(connection).get_table_names()):
        return None
    for key, data in _stored(connection):
        actual = hash_of(data)
        if actual != key:
            why = f"graph blob {key} does not hash to its key (its bytes hash to {actual})"
            return BadBlob(_first_reference(connection, key), why)
    for table, names, column in _REFERENCES:
        missing = connection.execute(text(statements.unstored_reference(table, column, names))).first()
        if missing is not None:
            row = ", ".join(f"{name}={value!r}" for name, value in zip(names, missing[2:], strict=True))
            why = f"{table} row ({row}) references graph blob {missing[1]}, which {TABLE} does not hold"
            return BadBlob(int(missing[0]), why)
    return None

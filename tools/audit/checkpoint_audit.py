"""What verification checks of the journal's derived stores: the graph blob store (every stored blob
hashes to its key, every hash the graph state references is stored) and the state checkpoints (every
blob a checkpoint references is stored, and each one holds the state the journal produces at its seq,
``CheckpointCheck`` on the replay's scratch store). ``journal-format.md`` §16.4.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, inspect, text

from arvis.canonical import sha256_hex
from arvis.changes import Change
from journal import blob_store, statements
from journal.blob_store import BATCH, TABLE, BadBlob, hash_of
from journal.checkpoint_pages import (
    LAYOUTS,
    WHOLE,
    Builder,
    CheckpointUnusable,
    Dirty,
    Tables,
    connection_rows,
    index_pages,
    manifest_bytes,
    manifest_tables,
)
from journal.sql import SqlRunner
from journal.state_checkpoints import (
    chunks,
    dirty_items,
    has_checkpoints,
    read_manifest,
    sql_lookup,
    stored_checkpoints,
)
from kernel.abi import JournalEntry

__all__ = [
    "CheckpointCheck",
    "Mismatch",
    "check_blobs",
    "check_checkpoint_blobs",
    "first_checkpoint_referencing",
]

# --- the blob store --------------------------------------------------------------------------------

# (table, the columns naming a row, the column holding a hash) of every reference the graph state holds
REFERENCES = (
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
        for table, _, column in REFERENCES
    ]
    return min((int(seq) for seq in seqs if seq is not None), default=0)


def check_blobs(connection: Connection) -> BadBlob | None:
    """The first damage of the blob store, or None: a stored blob whose bytes do not hash to its key
    (in key order), then a hash referenced by the graph state that is not stored (table by table, in
    the order of ``REFERENCES``, rows by seq then key), then a blob a state checkpoint references that
    is not stored, or a checkpoint past the head (``check_checkpoint_blobs``, in seq order). A
    database without the graph tables has none."""
    if TABLE not in set(inspect(connection).get_table_names()):
        return None
    for key, data in _stored(connection):
        actual = hash_of(data)
        if actual != key:
            return BadBlob(
                _first_reference(connection, key) or first_checkpoint_referencing(connection, key),
                f"graph blob {key} does not hash to its key (its bytes hash to {actual})",
            )
    for table, names, column in REFERENCES:
        missing = connection.execute(text(statements.unstored_reference(table, column, names))).first()
        if missing is not None:
            row = ", ".join(f"{name}={value!r}" for name, value in zip(names, missing[2:], strict=True))
            return BadBlob(
                int(missing[0]),
                f"{table} row ({row}) references graph blob {missing[1]}, which {TABLE} does not hold",
            )
    unheld = check_checkpoint_blobs(connection)
    return None if unheld is None else BadBlob(*unheld)


# --- verification ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """A stored checkpoint that is not what the replayed state gives at its seq."""

    seq: int
    reason: str
    replayed: str
    stored: str


def _first_difference(replayed: Tables, stored: Tables) -> str:
    for name in sorted(set(replayed) | set(stored)):
        ours, theirs = replayed.get(name, {}), stored.get(name, {})
        for part in sorted(set(ours) | set(theirs)):
            if ours.get(part) != theirs.get(part):
                where = name if part == WHOLE and LAYOUTS[name].partition is None else f"{name} {part!r}"
                return f"{where} differs"
    return "the manifests differ"


class CheckpointCheck:
    """Verification's side (``tools.audit.replay``): the append hook of the replay's scratch store records
    what each replayed call changed; at each stored checkpoint's seq, ``check`` rebuilds the pages those
    changes fall in from the replayed state, and compares the manifest's hash with the stored one."""

    def __init__(self, stored: dict[int, str], source: Engine) -> None:
        self.stored = stored
        self._source = source
        self._dirty = Dirty()
        self._tables: Tables = {}
        self._indexes: dict[str, bytes] = {}
        self.checked = 0

    def track(self, sql: SqlRunner, entry: JournalEntry, effects: list[Change]) -> None:
        if effects:
            self._dirty.add_all(dirty_items(effects, functools.partial(sql_lookup, sql)))

    def _keep(self, digest: str, data: bytes, index: bool) -> None:
        if index:
            self._indexes[digest] = data

    def check(self, seq: int, connection: Connection) -> Mismatch | None:
        """Compare the checkpoint stored at ``seq`` with the replayed state (committed, read through
        ``connection``)."""
        builder = Builder(
            connection_rows(connection),
            postgres=False,
            sink=self._keep,
            index_of=lambda digest: index_pages(self._indexes[digest]),
        )
        self._tables = builder.update(self._tables, self._dirty)
        self._dirty = Dirty()
        live = {digest for parts in self._tables.values() for digest in parts.values()}
        self._indexes = {digest: data for digest, data in self._indexes.items() if digest in live}
        self.checked += 1
        replayed = sha256_hex(manifest_bytes(self._tables))
        stored = self.stored[seq]
        if replayed == stored:
            return None
        try:
            with self._source.connect() as source:
                detail = _first_difference(self._tables, read_manifest(source, stored))
        except CheckpointUnusable as exc:
            detail = f"its manifest cannot be read: {exc}"
        return Mismatch(
            seq,
            f"state checkpoint at seq {seq} does not hold the state the journal produces there: {detail}",
            replayed,
            stored,
        )


def check_checkpoint_blobs(connection: Connection) -> tuple[int, str] | None:
    """The first stored checkpoint (in seq order) that is past the journal's head or references a blob
    ``graph_blobs`` does not hold (its manifest, an index, a page), with the reason; None when every one
    holds. A blob stored with bytes that do not hash to its key is ``check_blobs``'s to name."""
    if not has_checkpoints(connection):
        return None
    head = connection.execute(text(statements.LAST_SEQ)).scalar()
    head_seq = 0 if head is None else int(head)
    checked: set[str] = set()
    for seq, manifest_hash in stored_checkpoints(connection).items():
        if seq > head_seq:
            return seq, f"state checkpoint at seq {seq} is past the journal's head (seq {head_seq})"
        if seq < 1:  # no entry has it: the replay would never compare it
            return 0, f"state checkpoint at seq {seq} is before the first entry"
        found = blob_store.present(connection, [manifest_hash])
        if manifest_hash not in found:
            return seq, _missing(seq, manifest_hash, "its manifest")
        try:
            tables = manifest_tables(found[manifest_hash])
        except CheckpointUnusable as exc:
            return seq, f"state checkpoint at seq {seq}: {exc}"
        for name, parts in sorted(tables.items()):
            for part, index in sorted(parts.items()):
                if index in checked:
                    continue
                where = f"{name}, partition {part!r}"
                indexes = blob_store.present(connection, [index])
                if index not in indexes:
                    return seq, _missing(seq, index, f"the index of {where}")
                try:
                    pages = index_pages(indexes[index])
                except CheckpointUnusable as exc:
                    return seq, f"state checkpoint at seq {seq}, {where}: {exc}"
                digests = [digest for _, digest in pages]
                for start, chunk in enumerate(chunks(digests)):
                    present = _present_keys(connection, chunk)
                    for number, digest in enumerate(chunk):
                        if digest not in present:
                            page = start * BATCH + number
                            return seq, _missing(seq, digest, f"page {page} of {where}")
                checked.add(index)
    return None


def _missing(seq: int, digest: str, what: str) -> str:
    return (
        f"state checkpoint at seq {seq} references graph blob {digest} ({what}), which {TABLE} does not hold"
    )


def _present_keys(connection: Connection, digests: Sequence[str]) -> set[str]:
    return {
        str(row[0]) for row in connection.execute(statements.BLOB_KEYS_IN, {"hashes": list(digests)}).all()
    }


def first_checkpoint_referencing(connection: Connection, digest: str) -> int:
    """The seq of the first stored checkpoint that references the blob ``digest`` (as its manifest, an
    index or a page), 0 when none does (for naming a damaged blob). Reads the checkpoints' blobs."""
    if not has_checkpoints(connection):
        return 0
    seen: set[str] = set()
    for seq, manifest_hash in stored_checkpoints(connection).items():
        if manifest_hash == digest:
            return seq
        found = blob_store.present(connection, [manifest_hash])
        try:
            tables = manifest_tables(found[manifest_hash])
        except (KeyError, CheckpointUnusable):
            continue
        for parts in tables.values():
            for index in parts.values():
                if index == digest:
                    return seq
                if index in seen:
                    continue
                seen.add(index)
                indexes = blob_store.present(connection, [index])
                try:
                    if any(page == digest for _, page in index_pages(indexes[index])):
                        return seq
                except (KeyError, CheckpointUnusable):
                    continue
    return 0

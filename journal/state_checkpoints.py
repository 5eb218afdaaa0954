"""State checkpoints: the state right after every N-th entry, kept content-addressed beside the journal,
so that time travel replays only the entries since the nearest one (``journal-format.md`` §16).

A checkpoint at seq C is a **manifest** of the state's partitions, pages and indexes
(``journal.checkpoint_pages``: how the state is cut, and the builder). Pages, indexes and manifests are
blobs of ``graph_blobs`` (key: the SHA-256 of
the bytes), so what did not change is shared by every checkpoint that holds it. The manifest is a
function of the state alone: the same state gives the same manifest hash, however it was reached.

The writer (``CheckpointWriter``, the append hook of a ``SqlJournalStore``) records, in the call's own
transaction, which rows each call changed (``state_checkpoint_dirty``, from the call's effects), and in
the transaction of every entry whose seq is a multiple of the interval rebuilds only the pages those
rows fall in, reusing the previous checkpoint's manifest for the rest, then stores the checkpoint
(``state_checkpoints``) and forgets the changed rows. With no previous checkpoint (a journal written
before revision 0011, a copy, the interval was 0) it builds every partition.

Verification (``tools.audit.checkpoint_audit``) rebuilds the same manifests from the replayed state at each
stored checkpoint's seq and compares hashes, and checks that every blob a checkpoint references is stored.
Time travel (``tools.audit.timetravel``) loads a checkpoint (``load_state``) and replays from there.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, inspect, text

from arvis.canonical import canonical_bytes_of_own, decode, sha256_hex
from arvis.changes import Change, Delete, Insert, Update, Upsert
from journal import blob_store, statements
from journal.checkpoint_pages import (
    EVERYTHING,
    LAYOUTS,
    PARTITION_COLUMNS,
    WHOLE,
    Builder,
    CheckpointUnusable,
    Dirty,
    Item,
    Layout,
    Tables,
    index_pages,
    manifest_bytes,
    manifest_tables,
)
from journal.entry import JournalEntry
from journal.sql import Prepared, SqlRunner

__all__ = [
    "CHECKPOINTS",
    "DEFAULT_INTERVAL",
    "LAYOUTS",
    "PARTITION_COLUMNS",
    "AppendHook",
    "CheckpointUnusable",
    "CheckpointWriter",
    "blobs",
    "chunks",
    "dirty_items",
    "has_checkpoints",
    "load_state",
    "nearest_checkpoint",
    "read_manifest",
    "sql_lookup",
    "stored_checkpoints",
]

DEFAULT_INTERVAL = 0
"""Entries between two state checkpoints, by default (``SqlJournalStore``, ``open_kernel``): none. They
are opt-in because of what they cost on a dense workload (``bench/RESULTS.md``, timetravel: +77 µs per
append and about 19 MiB per checkpoint with 1,000 users x 20 keys at 10,000); 10,000 is what the
time-travel target was measured with."""

CHECKPOINTS = "state_checkpoints"


# --- what a call changed ----------------------------------------------------------------------------

AppendHook = Callable[[SqlRunner, JournalEntry, list[Change]], None]
"""Called by a store's transaction with its entry and effects right after the entry is appended."""

Lookup = Callable[[Layout, Mapping[str, Any]], Any]
"""The partition value of the stored row a primary key names (None when there is none)."""


def dirty_items(effects: Iterable[Change], lookup: Lookup) -> set[Item]:
    """The places the effects (``journal-format.md`` §5) changed. An effect that does not carry its
    row's partition value (an update naming the row by primary key only) has it read back; one whose
    partition cannot be told, or that changes it, marks the whole table."""
    items: set[Item] = set()
    for effect in effects:
        layout = LAYOUTS.get(effect.table)
        if layout is None:
            continue
        row = effect.row if isinstance(effect, Insert | Upsert) else None
        where = effect.where if isinstance(effect, Update | Delete) else None
        values: Mapping[str, Any] = row if isinstance(row, dict) else where if isinstance(where, dict) else {}
        part: Any = WHOLE
        if layout.partition is not None:
            part = values.get(layout.partition)
            if part is None and isinstance(where, dict):
                part = lookup(layout, where)
            changed = effect.set if isinstance(effect, Update) else None
            if not isinstance(part, str) or (isinstance(changed, dict) and layout.partition in changed):
                items.add((layout.name, None, None))
                continue
        key = tuple(values[name] for name in layout.key) if all(n in values for n in layout.key) else None
        items.add((layout.name, part, key))
    return items


def sql_lookup(sql: SqlRunner, layout: Layout, where: Mapping[str, Any]) -> Any:
    if layout.partition is None or not all(name in where for name in layout.primary_key):
        return None
    values = {f"w{index}": where[name] for index, name in enumerate(layout.primary_key)}
    return sql.scalar(statements.checkpoint_lookup(layout), values)


def _dirty_row(item: Item) -> dict[str, str]:
    table, part, key = item
    return {
        "tbl": table,
        "part": canonical_bytes_of_own(part).decode("utf-8"),
        "row_key": canonical_bytes_of_own(None if key is None else list(key)).decode("utf-8"),
    }


def _item_of_row(row: Sequence[Any]) -> Item:
    table, part, key = str(row[0]), decode(str(row[1]).encode("utf-8")), decode(str(row[2]).encode("utf-8"))
    if table == EVERYTHING[0]:
        return EVERYTHING
    if part is not None and not isinstance(part, str):
        return (table, None, None)
    return (table, part, None if not isinstance(key, list) else tuple(key))


# --- the writer -----------------------------------------------------------------------------------

_BLOB_FLUSH = 4_096
"""Blobs written per statement at most (in key order: the ``graph_blobs`` index is written in order)."""


class _BlobWriter:
    """Blobs written in the call's transaction, a few thousand per statement, in key order."""

    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql
        self._pending: dict[str, bytes] = {}
        self.written = 0

    def put(self, digest: str, data: bytes, _index: bool = False) -> None:
        self._pending[digest] = data
        if len(self._pending) >= _BLOB_FLUSH:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            pending = sorted(self._pending.items())
            self._sql.write_many(statements.BLOB_PUT, [{"hash": h, "data": d} for h, d in pending])
            self.written += len(self._pending)
            self._pending = {}


def _stored_blob(sql: SqlRunner, digest: str) -> bytes:
    data = sql.scalar(statements.BLOB, {"hash": digest})
    if data is None or sha256_hex(bytes(data)) != digest:
        raise CheckpointUnusable(f"blob {digest} of the previous state checkpoint is missing or damaged")
    return bytes(data)


@dataclass
class CheckpointStats:
    """What the last checkpoint a writer stored took (for benchmarks and logs)."""

    seq: int = 0
    seconds: float = 0.0
    rows_read: int = 0
    blobs: int = 0
    full: bool = False


class CheckpointWriter:
    """The append hook of a store that keeps entries (``SqlJournalStore``): records the places each call
    changed, and stores a checkpoint in the transaction of every ``interval``-th entry.

    With ``interval`` 0 it stores none and writes nothing. Places are recorded by a writer that keeps
    checkpoints, for its own calls only: an entry that does not chain from the last entry this writer
    appended (its first after opening, one after a rollback, or after another writer's, which may have
    recorded nothing) marks the whole state changed, so its next checkpoint is built whole. Recording is
    idempotent (``ON CONFLICT DO NOTHING``)."""

    def __init__(self, interval: int, *, postgres: bool) -> None:
        if interval < 0:
            raise ValueError("the state checkpoint interval is a number of entries, 0 for none")
        self.interval = interval
        self._postgres = postgres
        self._own: str | None = None
        """The hash of the last entry this writer appended: the only thing it keeps across calls, and
        only to stay whole-or-exact (a mismatch marks everything; it never skips a place)."""
        self.last = CheckpointStats()

    def __call__(self, sql: SqlRunner, entry: JournalEntry, effects: list[Change]) -> None:
        if self.interval == 0:  # no checkpoints: nothing to track (a writer that keeps them checks chaining)
            return
        foreign = entry.prev_hash != self._own  # entries this writer did not see may have changed state
        self._own = entry.entry_hash
        due = entry.seq % self.interval == 0
        if not effects and not due and not foreign:
            return
        items = dirty_items(effects, functools.partial(sql_lookup, sql)) if effects else set()
        if foreign:
            items.add(EVERYTHING)
        if due:
            self._store(sql, entry.seq, items)
        else:
            for item in sorted(items, key=repr):  # a few at most: one statement each
                sql.write(statements.DIRTY_INSERT, _dirty_row(item))

    def _store(self, sql: SqlRunner, seq: int, items: set[Item]) -> None:
        started = time.perf_counter()
        dirty = Dirty()
        dirty.add_all(items)
        dirty.add_all(_item_of_row(row) for row in sql.rows(statements.DIRTY))
        blobs = _BlobWriter(sql)
        builder = Builder(
            sql.rows,
            postgres=self._postgres,
            sink=blobs.put,
            index_of=lambda digest: index_pages(_stored_blob(sql, digest)),
        )
        tables: Tables | None = None
        previous = sql.first(statements.CHECKPOINT_BEFORE, {"seq": seq})
        if previous is not None and not dirty.everything:
            try:
                old = manifest_tables(_stored_blob(sql, str(previous[1])))
                tables = builder.update(old, dirty)
            except CheckpointUnusable:
                tables = None
        full = tables is None
        if tables is None:
            tables = builder.full()
        data = manifest_bytes(tables)
        digest = sha256_hex(data)
        blobs.put(digest, data)
        blobs.flush()
        sql.write(statements.CHECKPOINT_INSERT, {"seq": seq, "manifest_hash": digest})
        sql.write(statements.DIRTY_CLEAR, {})
        self.last = CheckpointStats(
            seq=seq,
            seconds=time.perf_counter() - started,
            rows_read=builder.rows_read,
            blobs=blobs.written,
            full=full,
        )


# --- reading stored checkpoints --------------------------------------------------------------------


def has_checkpoints(connection: Connection) -> bool:
    return bool(inspect(connection).has_table(CHECKPOINTS))


def stored_checkpoints(connection: Connection) -> dict[int, str]:
    """Every stored checkpoint: seq -> manifest hash (none in a database without the table)."""
    if not has_checkpoints(connection):
        return {}
    rows = connection.execute(text(statements.CHECKPOINTS)).all()
    return {int(seq): str(digest) for seq, digest in rows}


def nearest_checkpoint(connection: Connection, seq: int) -> tuple[int, str] | None:
    """The stored checkpoint at ``seq`` or the closest before it: (its seq, its manifest hash)."""
    if seq < 1 or not has_checkpoints(connection):
        return None
    row = connection.execute(text(statements.CHECKPOINT_AT_OR_BEFORE), {"seq": seq}).first()
    return None if row is None else (int(row[0]), str(row[1]))


_CHUNK = blob_store.BATCH
"""Blobs read per query."""


def chunks(items: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def blobs(source: Connection, digests: Sequence[str]) -> dict[str, bytes]:
    """The bytes of each blob, checked against its key: ``CheckpointUnusable`` when one is missing or
    damaged (verification names which)."""
    found: dict[str, bytes] = {}
    for chunk in chunks(sorted(set(digests))):
        found.update(blob_store.present(source, chunk))
    for digest in digests:
        data = found.get(digest)
        if data is None or sha256_hex(data) != digest:
            raise CheckpointUnusable(f"blob {digest} of a state checkpoint is missing or damaged")
    return found


def _page_rows(source: Connection, pages: Sequence[str]) -> Iterator[list[dict[str, Any]]]:
    for chunk in chunks(pages):
        found = blobs(source, chunk)
        for digest in chunk:
            rows = decode(found[digest])
            if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
                raise CheckpointUnusable(f"page {digest} of a state checkpoint is not a list of rows")
            yield rows


def read_manifest(source: Connection, manifest_hash: str) -> Tables:
    """The tables of the manifest stored as ``manifest_hash`` in ``source``'s blob store."""
    return manifest_tables(blobs(source, [manifest_hash])[manifest_hash])


def load_state(source: Connection, manifest_hash: str, target: Connection) -> int:
    """Insert into ``target`` (an empty store at head, in an open transaction) every state row the
    checkpoint holds, read from ``source``; the number of rows. Derived tables are the caller's."""
    tables = read_manifest(source, manifest_hash)
    positional = "qmark" if target.dialect.paramstyle == "qmark" else "format"  # rows go as tuples
    loaded = 0
    for name, parts in sorted(tables.items()):
        columns = LAYOUTS[name].columns
        insert = Prepared(statements.insert_sql(name, columns), positional).sql
        pending: list[tuple[Any, ...]] = []
        for chunk in chunks(sorted(set(parts.values()))):
            found = blobs(source, chunk)
            pages = [digest for index in chunk for _, digest in index_pages(found[index])]
            for rows in _page_rows(source, pages):
                try:
                    pending.extend(tuple([row[column] for column in columns]) for row in rows)
                except KeyError as exc:
                    raise CheckpointUnusable(f"a page of {name} lacks the column {exc}") from exc
                if len(pending) >= _INSERTED:
                    target.exec_driver_sql(insert, pending)
                    loaded, pending = loaded + len(pending), []
        if pending:
            target.exec_driver_sql(insert, pending)
            loaded += len(pending)
    return loaded


_INSERTED = 2_000
"""Rows inserted per statement when a checkpoint is loaded."""

"""State checkpoints: the state right after every N-th entry, kept content-addressed beside the journal,
so that time travel replays only the entries since the nearest one (``journal-format.md`` §16).

A checkpoint at seq C is a **manifest**: ``{"format": 1, "tables": {table: {partition: index_hash}}}``.
Each state table is split into partitions by one column (``PARTITION_COLUMNS``: ``memory_entries`` by
``user_id``, the working-memory tables by ``context_id``...; a table without one is one partition,
``""``). A partition's rows, in primary-key order, are cut into **pages** where a row's *key* (its
primary-key values but the partition column) hashes low (``closes_page``: one row in four on average),
so a page boundary depends on that row's key alone and a changed row changes the page that holds it and
no other. A page is the canonical JSON array of its rows (each row as the state digest reads it,
``journal.state``); a partition's **index** is the canonical JSON array of ``[first key, page hash]``,
one per page, in order. Pages, indexes and manifests are blobs of ``graph_blobs`` (key: the SHA-256 of
the bytes), so what did not change is shared by every checkpoint that holds it. The manifest is a
function of the state alone: the same state gives the same manifest hash, however it was reached.

The writer (``CheckpointWriter``, the append hook of a ``SqlJournalStore``) records, in the call's own
transaction, which rows each call changed (``state_checkpoint_dirty``, from the call's effects), and in
the transaction of every entry whose seq is a multiple of the interval rebuilds only the pages those
rows fall in, reusing the previous checkpoint's manifest for the rest, then stores the checkpoint
(``state_checkpoints``) and forgets the changed rows. With no previous checkpoint (a journal written
before revision 0011, a copy, the interval was 0) it builds every partition.

Verification (``CheckpointCheck``, on the replay's scratch store) rebuilds the same manifests from the
replayed state at each stored checkpoint's seq and compares hashes; ``check_checkpoint_blobs`` checks
that every blob a checkpoint references is stored. Time travel (``journal.timetravel``) loads a
checkpoint (``load_state``, ``partition_rows``) and replays from there.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import Connection, Engine, Table, bindparam, inspect, text

from arvis.canonical import canonical_bytes_of_own, decode, sha256_hex
from arvis.changes import Change, Delete, Insert, Update, Upsert
from journal import blob_store
from journal.schema import STATE_TABLES
from journal.sql import SqlRunner
from kernel.abi import JournalEntry
from kernel.protocols import StorageError

__all__ = [
    "DEFAULT_INTERVAL",
    "FORMAT",
    "LAYOUTS",
    "PARTITION_COLUMNS",
    "AppendHook",
    "CheckpointCheck",
    "CheckpointUnusable",
    "CheckpointWriter",
    "Mismatch",
    "build_manifest",
    "check_checkpoint_blobs",
    "checkpoint_tables_present",
    "closes_page",
    "first_checkpoint_referencing",
    "load_state",
    "manifest_tables",
    "nearest_checkpoint",
    "partition_rows",
    "read_manifest",
    "stored_checkpoints",
]

DEFAULT_INTERVAL = 0
"""Entries between two state checkpoints, by default (``SqlJournalStore``, ``open_kernel``): none. They
are opt-in because of what they cost on a dense workload (``bench/RESULTS.md``, timetravel: +77 µs per
append and about 19 MiB per checkpoint with 1,000 users x 20 keys at 10,000); 10,000 is what the
time-travel target was measured with."""

FORMAT = 1
"""The manifest's format: the partition columns, the page rule and the blob shapes of this module."""

PAGE_SPLIT = 64
"""A row closes its page when the first byte of the SHA-256 of its key's canonical JSON is below this:
one row in 256 / 64 = 4 on average (smaller pages rewrite fewer unchanged rows per change; the index
of a partition grows with its pages)."""

CHECKPOINTS = "state_checkpoints"
DIRTY = "state_checkpoint_dirty"
BLOBS = "graph_blobs"

PARTITION_COLUMNS: dict[str, str | None] = {
    "memory_entries": "user_id",
    "awmu_contexts": "context_id",
    "awmu_units": "context_id",
    "awmu_reviews": "context_id",
    "awmu_canon_requests": "context_id",
    "awmu_events": "context_id",
    "pipeline_runs": "user_id",
    "grants": "principal",
    "awmu_context_owners": "context_id",
    "graph_thread_owners": "thread_id",
    "graph_checkpoints": "thread_id",
    "graph_channel_values": "thread_id",
    "graph_writes": "thread_id",
    "graph_store_owners": "prefix",
    "graph_store_namespaces": None,
    "graph_store_items": "namespace",
}
"""The column that splits each state table into partitions (a text column whose value never changes
for a row); None, or a state table not named here: the whole table is one partition, ``""``."""

WHOLE = ""
"""The partition of a table that is not split."""


class CheckpointUnusable(StorageError):
    """A stored checkpoint cannot be read back (a blob missing or damaged, a manifest of another
    format): time travel then replays from the first entry, verification names it."""


@dataclass(frozen=True)
class Layout:
    """How one state table is split: its columns, its partition column and its key (the primary-key
    columns but the partition column, in primary-key order: the order of rows within a partition)."""

    name: str
    columns: tuple[str, ...]
    partition: str | None
    key: tuple[str, ...]
    key_places: tuple[int, ...]
    primary_key: tuple[str, ...]
    texts: frozenset[str]

    def key_of(self, row: Sequence[Any]) -> tuple[Any, ...]:
        places = self.key_places
        if len(places) == 2:  # the common case (memory_entries), without a generator
            return (row[places[0]], row[places[1]])
        return tuple([row[place] for place in places])


def _layout(table: Table) -> Layout:
    columns = tuple(str(column.name) for column in table.columns)
    primary_key = tuple(str(column.name) for column in table.primary_key.columns)
    partition = PARTITION_COLUMNS.get(str(table.name))
    key = tuple(name for name in primary_key if name != partition)
    texts = frozenset(str(column.name) for column in table.columns if column.type.python_type is str)
    return Layout(
        name=str(table.name),
        columns=columns,
        partition=partition,
        key=key,
        key_places=tuple(columns.index(name) for name in key),
        primary_key=primary_key,
        texts=texts,
    )


LAYOUTS: dict[str, Layout] = {str(table.name): _layout(table) for table in STATE_TABLES}


def closes_page(key: Sequence[Any]) -> bool:
    """Whether the row with this key is the last of its page."""
    return hashlib.sha256(canonical_bytes_of_own(list(key))).digest()[0] < PAGE_SPLIT


# --- SQL ------------------------------------------------------------------------------------------

Rows = Callable[[str, Mapping[str, Any]], Sequence[Sequence[Any]]]
"""Runs one statement (``:name`` placeholders) and returns its rows."""


def _column(layout: Layout, name: str, postgres: bool) -> str:
    """A column as compared and ordered: text as bytes (PostgreSQL's "C", SQLite's BINARY default)."""
    return f'"{name}" COLLATE "C"' if postgres and name in layout.texts else f'"{name}"'


def _compare(columns: list[str], operator: str, prefix: str) -> str:
    places = [f":{prefix}{index}" for index in range(len(columns))]
    if len(columns) == 1:
        return f"{columns[0]} {operator} {places[0]}"
    return f"({', '.join(columns)}) {operator} ({', '.join(places)})"


@functools.cache
def _range_sql(name: str, postgres: bool, lower: bool, upper: bool) -> str:
    """The rows of one partition (or of a key range of it), in key order."""
    layout = LAYOUTS[name]
    key = [_column(layout, column, postgres) for column in layout.key]
    conditions = [] if layout.partition is None else [f'"{layout.partition}" = :p']
    if lower:
        conditions.append(_compare(key, ">=", "lo"))
    if upper:
        conditions.append(_compare(key, "<", "hi"))
    columns = ", ".join(f'"{column}"' for column in layout.columns)
    sql = f"SELECT {columns} FROM {name}"
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    return sql + (" ORDER BY " + ", ".join(key) if key else "")


@functools.cache
def _partitions_sql(name: str) -> str:
    layout = LAYOUTS[name]
    return f'SELECT DISTINCT "{layout.partition}" FROM {name}'


@functools.cache
def _lookup_sql(name: str) -> str:
    layout = LAYOUTS[name]
    where = " AND ".join(f'"{column}" = :w{index}' for index, column in enumerate(layout.primary_key))
    return f'SELECT "{layout.partition}" FROM {name} WHERE {where}'


_BINARY = frozenset({bytes, bytearray, memoryview})


def _view(layout: Layout, row: Sequence[Any]) -> dict[str, Any]:
    """A row as the state digest reads it (``journal.state.iter_state_rows``): bytes as hex."""
    if not _BINARY.isdisjoint(map(type, row)):
        row = [bytes(v).hex() if type(v) in _BINARY else v for v in row]
    return dict(zip(layout.columns, row, strict=True))


# --- what a call changed ----------------------------------------------------------------------------

AppendHook = Callable[[SqlRunner, JournalEntry, list[Change]], None]
"""Called by a store's transaction with its entry and effects right after the entry is appended."""

Item = tuple[str, str | None, tuple[Any, ...] | None]
"""A changed place: (table, partition, key); partition None: the whole table (or, table ``*``,
everything); key None: the whole partition."""

EVERYTHING: Item = ("*", None, None)

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


def _sql_lookup(sql: SqlRunner, layout: Layout, where: Mapping[str, Any]) -> Any:
    if layout.partition is None or not all(name in where for name in layout.primary_key):
        return None
    values = {f"w{index}": where[name] for index, name in enumerate(layout.primary_key)}
    return sql.scalar(_lookup_sql(layout.name), values)


class Dirty:
    """Changed places, grouped: everything, whole tables, whole partitions, keys of partitions."""

    def __init__(self) -> None:
        self.everything = False
        self.tables: set[str] = set()
        self.partitions: dict[str, dict[str, set[tuple[Any, ...]] | None]] = {}

    def add(self, item: Item) -> None:
        table, part, key = item
        if table == EVERYTHING[0]:
            self.everything = True
        elif part is None:
            self.tables.add(table)
        else:
            parts = self.partitions.setdefault(table, {})
            if key is None:
                parts[part] = None
            else:
                keys = parts.setdefault(part, set())
                if keys is not None:
                    keys.add(key)

    def add_all(self, items: Iterable[Item]) -> None:
        for item in items:
            self.add(item)


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


# --- manifests ------------------------------------------------------------------------------------

Tables = dict[str, dict[str, str]]
"""A manifest's ``tables``: table -> partition -> the hash of the partition's index."""

Index = list[tuple[tuple[Any, ...], str]]
"""A partition's index: (first key, page hash) of each page, in order."""

Sink = Callable[[str, bytes, bool], None]
"""Receives each blob built: its hash, its bytes, and whether it is an index (else a page)."""


def manifest_bytes(tables: Tables) -> bytes:
    return canonical_bytes_of_own({"format": FORMAT, "tables": tables})


def manifest_tables(data: bytes) -> Tables:
    """A manifest's tables; ``CheckpointUnusable`` when the bytes are not a manifest of this format."""
    try:
        value = decode(data)
    except Exception as exc:
        raise CheckpointUnusable("a state checkpoint manifest is not JSON") from exc
    tables = value.get("tables") if isinstance(value, dict) else None
    if not isinstance(value, dict) or value.get("format") != FORMAT or not isinstance(tables, dict):
        raise CheckpointUnusable(f"a state checkpoint manifest is not of format {FORMAT}")
    for name, parts in tables.items():
        if name not in LAYOUTS or not isinstance(parts, dict):
            raise CheckpointUnusable(f"a state checkpoint manifest names an unknown table {name!r}")
        if not all(isinstance(h, str) for h in parts.values()):
            raise CheckpointUnusable("a state checkpoint manifest holds a value that is not a hash")
    return tables


_INDEX = msgspec.json.Decoder(list[tuple[list[Any], str]])


def index_pages(data: bytes) -> Index:
    """A partition's index: (first key, page hash) of each page."""
    try:
        pages = _INDEX.decode(data)
    except msgspec.DecodeError as exc:
        raise CheckpointUnusable("a state checkpoint index is not a list of [first key, page hash]") from exc
    return [(tuple(first), page) for first, page in pages]


class _Builder:
    """Builds partitions' pages and indexes from a store's rows, and manifests from them."""

    def __init__(
        self,
        rows: Rows,
        *,
        postgres: bool,
        sink: Sink,
        index_of: Callable[[str], Index],
        present: frozenset[str] | None = None,
    ) -> None:
        self._rows = rows
        self._postgres = postgres
        self._sink = sink
        self._index_of = index_of
        self._layouts = [layout for name, layout in LAYOUTS.items() if present is None or name in present]
        self.rows_read = 0

    def _fetch(
        self, layout: Layout, part: str, lower: tuple[Any, ...] | None, upper: tuple[Any, ...] | None
    ) -> Sequence[Sequence[Any]]:
        values: dict[str, Any] = {} if layout.partition is None else {"p": part}
        for prefix, bound in (("lo", lower), ("hi", upper)):
            if bound is not None:
                values.update((f"{prefix}{index}", value) for index, value in enumerate(bound))
        sql = _range_sql(layout.name, self._postgres, lower is not None, upper is not None)
        found = self._rows(sql, values)
        self.rows_read += len(found)
        return found

    def _pages(self, layout: Layout, rows: Sequence[Sequence[Any]]) -> Index:
        pages: Index = []
        start = 0
        for end, row in enumerate(rows, 1):
            if end == len(rows) or closes_page(layout.key_of(row)):
                data = canonical_bytes_of_own([_view(layout, each) for each in rows[start:end]])
                digest = sha256_hex(data)
                self._sink(digest, data, False)
                pages.append((layout.key_of(rows[start]), digest))
                start = end
        return pages

    def _index(self, pages: Index) -> str | None:
        if not pages:
            return None
        data = canonical_bytes_of_own([[list(first), digest] for first, digest in pages])
        digest = sha256_hex(data)
        self._sink(digest, data, True)
        return digest

    def partition(self, layout: Layout, part: str) -> str | None:
        """Every page of one partition; its index's hash, None when it holds no row."""
        return self._index(self._pages(layout, self._fetch(layout, part, None, None)))

    def _partitions_of(self, layout: Layout) -> list[str]:
        if layout.partition is None:
            return [WHOLE]
        found = [row[0] for row in self._rows(_partitions_sql(layout.name), {})]
        return sorted(str(value) for value in found)

    def full(self) -> Tables:
        """The manifest's tables of the whole state."""
        tables: Tables = {}
        for layout in self._layouts:
            for part in self._partitions_of(layout):
                index = self.partition(layout, part)
                if index is not None:
                    tables.setdefault(layout.name, {})[part] = index
        return tables

    def update(self, old: Tables, dirty: Dirty) -> Tables:
        """The manifest's tables of the state now, from those of an earlier state and what changed since."""
        if dirty.everything:
            return self.full()
        tables = {name: dict(parts) for name, parts in old.items()}
        for name in sorted(dirty.tables):
            layout = LAYOUTS[name]
            current = tables.setdefault(name, {})
            for part in sorted(set(self._partitions_of(layout)) | set(current)):
                self._set(current, part, self.partition(layout, part))
        for name, parts in sorted(dirty.partitions.items()):
            if name in dirty.tables:
                continue
            layout = LAYOUTS[name]
            current = tables.setdefault(name, {})
            for part, keys in sorted(parts.items()):
                known = current.get(part)
                if keys is None or known is None or not layout.key:
                    index = self.partition(layout, part)
                else:
                    index = self._repage(layout, part, self._index_of(known), keys)
                self._set(current, part, index)
        return {name: parts for name, parts in tables.items() if parts}

    @staticmethod
    def _set(parts: dict[str, str], part: str, index: str | None) -> None:
        if index is None:
            parts.pop(part, None)
        else:
            parts[part] = index

    def _repage(self, layout: Layout, part: str, pages: Index, keys: set[tuple[Any, ...]]) -> str | None:
        """Rebuild only the pages the changed keys fall in (a page's range runs from its first key to
        the next page's). A run of such pages whose last row no longer closes a page (it was deleted)
        takes in the next page, as the whole partition would be cut."""
        firsts = [first for first, _ in pages]
        affected = sorted({max(bisect.bisect_right(firsts, key) - 1, 0) for key in keys})
        kept: Index = []
        done, at = 0, 0
        while at < len(affected):
            first = last = affected[at]
            at += 1
            while at < len(affected) and affected[at] <= last + 1:
                last, at = affected[at], at + 1
            while True:
                lower = firsts[first] if first > 0 else None
                upper = firsts[last + 1] if last + 1 < len(pages) else None
                rows = self._fetch(layout, part, lower, upper)
                if upper is None or not rows or closes_page(layout.key_of(rows[-1])):
                    break
                last += 1
                while at < len(affected) and affected[at] <= last + 1:
                    last, at = max(last, affected[at]), at + 1
            kept.extend(pages[done:first])
            kept.extend(self._pages(layout, rows))
            done = last + 1
        kept.extend(pages[done:])
        return self._index(kept)


def build_manifest(connection: Connection) -> tuple[str, Tables]:
    """The manifest (its hash and tables) of the state a SQLite or PostgreSQL database holds now, built
    from every row: what any checkpoint of that state must hold. Nothing is stored."""
    postgres = connection.dialect.name == "postgresql"
    present = frozenset(inspect(connection).get_table_names())

    def never(_: str) -> Index:
        raise AssertionError("a full build reads no index")

    builder = _Builder(
        _connection_rows(connection), postgres=postgres, sink=lambda *_: None, index_of=never, present=present
    )
    tables = builder.full()
    return sha256_hex(manifest_bytes(tables)), tables


def _connection_rows(connection: Connection) -> Rows:
    def rows(sql: str, values: Mapping[str, Any]) -> Sequence[Sequence[Any]]:
        return [tuple(row) for row in connection.execute(text(sql), dict(values)).all()]

    return rows


# --- the writer -----------------------------------------------------------------------------------

_DIRTY_INSERT = (
    f"INSERT INTO {DIRTY} (tbl, part, row_key) VALUES (:tbl, :part, :row_key) ON CONFLICT DO NOTHING"
)
_DIRTY_SELECT = f"SELECT tbl, part, row_key FROM {DIRTY}"
_DIRTY_CLEAR = f"DELETE FROM {DIRTY}"
_PREVIOUS = f"SELECT seq, manifest_hash FROM {CHECKPOINTS} WHERE seq < :seq ORDER BY seq DESC LIMIT 1"
_CHECKPOINT_INSERT = (
    f"INSERT INTO {CHECKPOINTS} (seq, manifest_hash) VALUES (:seq, :manifest_hash) "
    "ON CONFLICT (seq) DO UPDATE SET manifest_hash = excluded.manifest_hash"
)
"""A row already there (a hand edit, a copy) is replaced: checkpoints are derived, verification checks."""
_BLOB_SELECT = f"SELECT data FROM {BLOBS} WHERE hash = :hash"
_BLOB_INSERT = f"INSERT INTO {BLOBS} (hash, data) VALUES (:hash, :data) ON CONFLICT (hash) DO NOTHING"
_BLOB_FLUSH = 4_096
"""Blobs written per statement at most (in key order: the ``graph_blobs`` index is written in order)."""


def checkpoint_tables_present(tables: Iterable[str]) -> bool:
    return {CHECKPOINTS, DIRTY, BLOBS} <= set(tables)


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
            self._sql.write_many(_BLOB_INSERT, [{"hash": h, "data": d} for h, d in pending])
            self.written += len(self._pending)
            self._pending = {}


def _stored_blob(sql: SqlRunner, digest: str) -> bytes:
    data = sql.scalar(_BLOB_SELECT, {"hash": digest})
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

    def __init__(self, interval: int, *, postgres: bool, tables: frozenset[str] | None = None) -> None:
        if interval < 0:
            raise ValueError("the state checkpoint interval is a number of entries, 0 for none")
        self.interval = interval
        self._postgres = postgres
        self._present = tables
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
        items = dirty_items(effects, functools.partial(_sql_lookup, sql)) if effects else set()
        if foreign:
            items.add(EVERYTHING)
        if due:
            self._store(sql, entry.seq, items)
        else:
            for item in sorted(items, key=repr):  # a few at most: one statement each
                sql.write(_DIRTY_INSERT, _dirty_row(item))

    def _store(self, sql: SqlRunner, seq: int, items: set[Item]) -> None:
        started = time.perf_counter()
        dirty = Dirty()
        dirty.add_all(items)
        dirty.add_all(_item_of_row(row) for row in sql.rows(_DIRTY_SELECT))
        blobs = _BlobWriter(sql)
        builder = _Builder(
            sql.rows,
            postgres=self._postgres,
            sink=blobs.put,
            index_of=lambda digest: index_pages(_stored_blob(sql, digest)),
            present=self._present,
        )
        tables: Tables | None = None
        previous = sql.first(_PREVIOUS, {"seq": seq})
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
        sql.write(_CHECKPOINT_INSERT, {"seq": seq, "manifest_hash": digest})
        sql.write(_DIRTY_CLEAR, {})
        self.last = CheckpointStats(
            seq=seq,
            seconds=time.perf_counter() - started,
            rows_read=builder.rows_read,
            blobs=blobs.written,
            full=full,
        )


# --- reading stored checkpoints --------------------------------------------------------------------


def _has_checkpoints(connection: Connection) -> bool:
    return bool(inspect(connection).has_table(CHECKPOINTS))


def stored_checkpoints(connection: Connection) -> dict[int, str]:
    """Every stored checkpoint: seq -> manifest hash (none in a database without the table)."""
    if not _has_checkpoints(connection):
        return {}
    rows = connection.execute(text(f"SELECT seq, manifest_hash FROM {CHECKPOINTS} ORDER BY seq")).all()
    return {int(seq): str(digest) for seq, digest in rows}


def nearest_checkpoint(connection: Connection, seq: int) -> tuple[int, str] | None:
    """The stored checkpoint at ``seq`` or the closest before it: (its seq, its manifest hash)."""
    if seq < 1 or not _has_checkpoints(connection):
        return None
    row = connection.execute(
        # a row below seq 1 is no checkpoint of any entry (a hand edit; verification names it): never used
        text(
            f"SELECT seq, manifest_hash FROM {CHECKPOINTS} WHERE seq <= :seq AND seq >= 1"
            " ORDER BY seq DESC LIMIT 1"
        ),
        {"seq": seq},
    ).first()
    return None if row is None else (int(row[0]), str(row[1]))


_CHUNK = blob_store.BATCH
"""Blobs read per query."""


def _chunks(items: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _blobs(source: Connection, digests: Sequence[str]) -> dict[str, bytes]:
    """The bytes of each blob, checked against its key: ``CheckpointUnusable`` when one is missing or
    damaged (verification names which)."""
    found: dict[str, bytes] = {}
    for chunk in _chunks(sorted(set(digests))):
        found.update(blob_store.present(source, chunk))
    for digest in digests:
        data = found.get(digest)
        if data is None or sha256_hex(data) != digest:
            raise CheckpointUnusable(f"blob {digest} of a state checkpoint is missing or damaged")
    return found


def _page_rows(source: Connection, pages: Sequence[str]) -> Iterator[list[dict[str, Any]]]:
    for chunk in _chunks(pages):
        found = _blobs(source, chunk)
        for digest in chunk:
            rows = decode(found[digest])
            if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
                raise CheckpointUnusable(f"page {digest} of a state checkpoint is not a list of rows")
            yield rows


def read_manifest(source: Connection, manifest_hash: str) -> Tables:
    """The tables of the manifest stored as ``manifest_hash`` in ``source``'s blob store."""
    return manifest_tables(_blobs(source, [manifest_hash])[manifest_hash])


def partition_rows(source: Connection, tables: Tables, table: str, part: str) -> list[dict[str, Any]]:
    """The rows one partition held at a checkpoint (its manifest's ``tables``), in key order."""
    index = tables.get(table, {}).get(part)
    if index is None:
        return []
    pages = index_pages(_blobs(source, [index])[index])
    rows: list[dict[str, Any]] = []
    for page in _page_rows(source, [digest for _, digest in pages]):
        rows.extend(page)
    return rows


def load_state(source: Connection, manifest_hash: str, target: Connection) -> int:
    """Insert into ``target`` (an empty store at head, in an open transaction) every state row the
    checkpoint holds, read from ``source``; the number of rows. Derived tables are the caller's."""
    tables = read_manifest(source, manifest_hash)
    place = "?" if target.dialect.paramstyle == "qmark" else "%s"
    loaded = 0
    for name, parts in sorted(tables.items()):
        columns = LAYOUTS[name].columns
        names = ", ".join(f'"{column}"' for column in columns)
        insert = f"INSERT INTO {name} ({names}) VALUES ({', '.join([place] * len(columns))})"
        pending: list[tuple[Any, ...]] = []
        for chunk in _chunks(sorted(set(parts.values()))):
            found = _blobs(source, chunk)
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
    """Verification's side (``journal.replay``): the append hook of the replay's scratch store records
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
            self._dirty.add_all(dirty_items(effects, functools.partial(_sql_lookup, sql)))

    def _keep(self, digest: str, data: bytes, index: bool) -> None:
        if index:
            self._indexes[digest] = data

    def check(self, seq: int, connection: Connection) -> Mismatch | None:
        """Compare the checkpoint stored at ``seq`` with the replayed state (committed, read through
        ``connection``)."""
        builder = _Builder(
            _connection_rows(connection),
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
    if not _has_checkpoints(connection):
        return None
    head = connection.execute(text("SELECT MAX(seq) FROM journal")).scalar()
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
                for start, chunk in enumerate(_chunks(digests)):
                    present = _present_keys(connection, chunk)
                    for number, digest in enumerate(chunk):
                        if digest not in present:
                            page = start * _CHUNK + number
                            return seq, _missing(seq, digest, f"page {page} of {where}")
                checked.add(index)
    return None


def _missing(seq: int, digest: str, what: str) -> str:
    return (
        f"state checkpoint at seq {seq} references graph blob {digest} ({what}), which {BLOBS} does not hold"
    )


_KEYS_IN = text(f"SELECT hash FROM {BLOBS} WHERE hash IN :hashes").bindparams(
    bindparam("hashes", expanding=True)
)


def _present_keys(connection: Connection, digests: Sequence[str]) -> set[str]:
    return {str(row[0]) for row in connection.execute(_KEYS_IN, {"hashes": list(digests)}).all()}


def first_checkpoint_referencing(connection: Connection, digest: str) -> int:
    """The seq of the first stored checkpoint that references the blob ``digest`` (as its manifest, an
    index or a page), 0 when none does (for naming a damaged blob). Reads the checkpoints' blobs."""
    if not _has_checkpoints(connection):
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

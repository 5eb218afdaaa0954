"""State checkpoint pages and manifests: how the state is cut into content-addressed blobs
(``journal-format.md`` §16; ``journal.state_checkpoints`` writes and reads them).

Each state table is split into partitions by one column (``PARTITION_COLUMNS``). A partition's rows, in
primary-key order, are cut into **pages** where a row's *key* (its primary-key values but the partition
column) hashes low (``closes_page``), so a page boundary depends on that row's key alone and a changed row
changes the page that holds it and no other. A page is the canonical JSON array of its rows (each row as
the state digest reads it, ``journal.state``); a partition's **index** is the canonical JSON array of
``[first key, page hash]``, one per page, in order; a **manifest** is
``{"format": 1, "tables": {table: {partition: index_hash}}}``. ``Builder`` builds them from a store's rows,
the whole state or only the pages what changed falls in.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import Connection, Table, text

from arvis.canonical import canonical_bytes_of_own, decode, sha256_hex
from journal import statements
from journal.errors import StorageError
from journal.schema import STATE_TABLES

__all__ = [
    "EVERYTHING",
    "FORMAT",
    "LAYOUTS",
    "PARTITION_COLUMNS",
    "WHOLE",
    "Builder",
    "CheckpointUnusable",
    "Dirty",
    "Index",
    "Item",
    "Layout",
    "Tables",
    "closes_page",
    "connection_rows",
    "index_pages",
    "manifest_bytes",
    "manifest_tables",
]

FORMAT = 1
"""The manifest's format: the partition columns, the page rule and the blob shapes of this module."""

PAGE_SPLIT = 64
"""A row closes its page when the first byte of the SHA-256 of its key's canonical JSON is below this:
one row in 256 / 64 = 4 on average (smaller pages rewrite fewer unchanged rows per change; the index
of a partition grows with its pages)."""

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


@dataclass(frozen=True, eq=False)  # one per table (LAYOUTS): hashed by identity, as statements cache it
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


_BINARY = frozenset({bytes, bytearray, memoryview})


def _view(layout: Layout, row: Sequence[Any]) -> dict[str, Any]:
    """A row as the state digest reads it (``journal.state.iter_state_rows``): bytes as hex."""
    if not _BINARY.isdisjoint(map(type, row)):
        row = [bytes(v).hex() if type(v) in _BINARY else v for v in row]
    return dict(zip(layout.columns, row, strict=True))


# --- what changed ----------------------------------------------------------------------------------

Item = tuple[str, str | None, tuple[Any, ...] | None]
"""A changed place: (table, partition, key); partition None: the whole table (or, table ``*``,
everything); key None: the whole partition."""

EVERYTHING: Item = ("*", None, None)


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


class Builder:
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
        sql = statements.checkpoint_rows(layout, self._postgres, lower is not None, upper is not None)
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
        found = [row[0] for row in self._rows(statements.checkpoint_partitions(layout), {})]
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


def connection_rows(connection: Connection) -> Rows:
    def rows(sql: str, values: Mapping[str, Any]) -> Sequence[Sequence[Any]]:
        return [tuple(row) for row in connection.execute(text(sql), dict(values)).all()]

    return rows

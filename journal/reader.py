"""Reading a journal: streamed in seq order, in batches, so memory does not grow with its length."""

from __future__ import annotations

import contextlib
import fnmatch
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Connection, Engine, func, inspect, literal, select
from sqlalchemy.exc import SQLAlchemyError

from journal.admin_binding import header_verifier
from journal.engine import open_engine
from journal.entry import JournalEntry
from journal.errors import StorageError
from journal.header import JournalHeader, read_header
from journal.migrate import refuse_unknown_revision
from journal.rows import fetch_all, fetch_tuples, one_line, valid_text
from journal.schema import journal, merkle_tiles

BATCH = 2_000

MAX_GLOB_NAMES = 500
"""A syscall glob becomes ``syscall IN (the stored names it matches)`` while the journal holds at most
this many distinct names (a kernel writes a few dozen; only calls to unknown names add more)."""


@dataclass(frozen=True)
class JournalFilter:
    """Which entries to read; None means no restriction. Times are fixed-form text.

    ``syscall_glob`` is a shell pattern with ``fnmatch.fnmatchcase``'s meaning (``*``, ``?``, ``[...]``,
    ``[!...]``); ``errors_only`` keeps the refused calls (any status but ``ok``). Both are decided in
    SQL, so the rows they leave out are never fetched nor decoded. ``after_seq`` None: from the lowest
    seq stored, not from 1: a row at seq 0 or below (a hand edit) is read too, so that verification
    reports it and ``ls`` shows it, rather than hiding it below a bound."""

    since: str | None = None
    until: str | None = None
    syscall: str | None = None
    principal: str | None = None
    status: str | None = None
    after_seq: int | None = None
    until_seq: int | None = None
    descending: bool = False
    syscall_glob: str | None = None
    errors_only: bool = False


def _seq_range(chosen: JournalFilter, boundary: int | None) -> list[ColumnElement[bool]]:
    """The seqs one batch may hold: one bound on each side, the keyset ``boundary`` (the last seq read)
    folded into ``after_seq`` or ``until_seq``. SQLite seeks on one ``seq > ?`` and tests any other row
    by row: a second lower bound had every batch scan from the start, a quadratic read (a minute for a
    million entries)."""
    seq = journal.c.seq
    lower, upper = chosen.after_seq, chosen.until_seq
    if boundary is not None and chosen.descending:
        upper = boundary - 1
    elif boundary is not None:
        lower = boundary if lower is None else max(lower, boundary)
    bounds = [] if lower is None else [seq > lower]
    return bounds if upper is None else [*bounds, seq <= upper]


def _equal(column: ColumnElement[Any], value: str, blobs: bool) -> ColumnElement[bool]:
    """``column`` holds ``value``: on SQLite (``blobs``) stored as TEXT or as a BLOB of the same UTF-8
    bytes (a hand edit that changed the storage class; SQLite never finds TEXT equal to a BLOB), as the
    glob path already matches the stored values themselves and as the entry reads once fetched. One
    bound parameter each: the reader's raw-cursor path cannot expand a list. PostgreSQL's text columns
    hold text only."""
    if not blobs:
        return column == value
    return column.in_([literal(value), literal(value.encode("utf-8"))])


def _conditions(
    chosen: JournalFilter, names: list[Any] | None, *, blobs: bool = False
) -> list[ColumnElement[bool]]:
    """The WHERE clause of ``chosen`` but the seqs (see ``_seq_range``); ``names``: the stored syscall
    values its glob matches (None: no glob, or one SQL cannot decide, see ``JournalReader._glob_names``);
    ``blobs``: a text column may hold a BLOB (SQLite), see ``_equal``."""
    column = journal.c
    conditions: list[ColumnElement[bool]] = []
    if chosen.since is not None:
        conditions.append(column.recorded_at >= chosen.since)
    if chosen.until is not None:
        conditions.append(column.recorded_at <= chosen.until)
    if chosen.syscall is not None:
        conditions.append(_equal(column.syscall, chosen.syscall, blobs))
    if names is not None:  # one bound parameter per name: the reader's raw-cursor path cannot expand a list
        conditions.append(column.syscall.in_([literal(name) for name in names]))
    if chosen.principal is not None:
        conditions.append(_equal(column.principal, chosen.principal, blobs))
    if chosen.status is not None:
        conditions.append(_equal(column.status, chosen.status, blobs))
    if chosen.errors_only:  # IS DISTINCT FROM: a status that is NULL (a hand edit) is not 'ok' either
        conditions.append(column.status.is_distinct_from("ok"))
    return conditions


def _kept(entry: JournalEntry, chosen: JournalFilter) -> bool:
    """The glob and ``errors_only`` checked again on a fetched entry, exactly as its text reads: SQL
    may return a few more (a status stored as the bytes ``ok``, say), or, when it could not decide the
    glob, every row. Cheap next to decoding, and it keeps the answer exact whatever the backend."""
    if chosen.syscall_glob is not None and not fnmatch.fnmatchcase(entry.syscall, chosen.syscall_glob):
        return False
    return not (chosen.errors_only and entry.status == "ok")


def _text(value: object) -> str:
    """A text column as stored; a value whose type was changed by hand keeps its bytes: a BLOB is
    decoded with ``surrogateescape``, as invalid UTF-8 stored as TEXT is read (``journal.engine``), so
    its exact bytes are shown (``tools.output`` escapes them and adds them in base64) and the chain check
    rejects it (never repaired into text that could pass, ``journal-format.md`` §8.2)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "surrogateescape")
    return "" if value is None else str(value)


def _blob(value: object) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return b"" if value is None else str(value).encode("utf-8")


def _seq(value: object) -> int:
    """The seq as stored; anything but an integer (2.5, "x", NULL) reads as -1, which fails the
    gapless check at that position."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return -1


_LOWER_HEX = frozenset("0123456789abcdef")

_STORED_TYPES = (int, str, str, str, bytes, str, bytes, str, str, str)
"""The Python types of a journal row's columns (in ``JournalEntry`` order) as the kernel stores them."""

_REPAIRS: dict[type, Callable[[object], Any]] = {int: _seq, str: _text, bytes: _blob}
"""How a column of each stored type is read back whatever was done to it by hand."""


def row_to_entry(row: Sequence[Any]) -> JournalEntry:
    """A journal row (its columns in ``JournalEntry`` order) as an entry, whatever was done to the
    file by hand."""
    values = tuple(row)
    if tuple(map(type, values)) == _STORED_TYPES:  # as written: nothing to repair
        return JournalEntry(*values)
    repaired = (_REPAIRS[stored](value) for stored, value in zip(_STORED_TYPES, values, strict=True))
    return JournalEntry(*repaired)


def _in_place(rows: Sequence[tuple[Any, ...]], expected: int) -> int:
    """How many of ``rows`` (seq-ordered) are entries ``expected``, ``expected + 1``, … in a row. The
    whole batch is checked at once (distinct integer seqs in ascending order are consecutive exactly
    when the first and last are ``len`` apart); only a batch that fails is walked row by row."""
    if not rows:
        return 0
    first, last = rows[0][0], rows[-1][0]
    if (
        type(first) is int
        and type(last) is int
        and first == expected
        and last == expected + len(rows) - 1
        and all(type(row[0]) is int for row in rows)
    ):
        return len(rows)
    for count, (seq, _) in enumerate(rows):
        if type(seq) is not int or seq != expected + count:
            return count
    return len(rows)


def _hash_texts(rows: Sequence[tuple[Any, ...]]) -> list[str]:
    """The ``entry_hash`` column of ``rows`` as text (a value that is not text comes as its text form)."""
    return [value if type(value) is str else _text(value) for _, value in rows]


class JournalReader:
    """Read-only access to one journal database (it is never migrated or created by reading)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, target: str) -> JournalReader:
        """A reader that never changes the database: no journal-mode switch, no migration, and a SQLite
        file opened read-only, so that a missing one is a ``StorageError`` ("no journal at PATH"), never
        a new empty file (see ``journal.engine.open_engine``)."""
        return cls(open_engine(target, read_only=True))

    def close(self) -> None:
        self.engine.dispose()

    def _connect(self) -> Connection:
        try:
            return self.engine.connect()
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot open the journal: {one_line(exc)}") from exc

    @contextlib.contextmanager
    def reading(self, what: str = "the journal") -> Iterator[Connection]:
        """A connection whose SQL errors come out as ``StorageError`` ("cannot read <what>: ...")."""
        try:
            with self._connect() as connection:
                yield connection
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot read {what}: {one_line(exc)}") from exc

    def header(self) -> JournalHeader | None:
        """The journal's header, or None when the database holds no arvis journal. A database whose
        schema a newer arvis migrated is refused (``StorageError``) rather than read by guesswork."""
        with self.reading("the journal header") as connection:
            tables = frozenset(inspect(connection).get_table_names())  # one look for both questions
            refuse_unknown_revision(connection, tables)
            if "journal_header" not in tables:
                return None
            return read_header(connection)

    def admin_verifier(self) -> str | None:
        """The verifier the header was written with (``journal.admin_binding.header_verifier``)."""
        with self.reading("the journal header") as connection:
            return header_verifier(connection)

    def head(self) -> JournalEntry | None:
        """The last entry, or None for an empty journal."""
        with self.reading() as connection:
            rows = fetch_all(connection, select(journal).order_by(journal.c.seq.desc()).limit(1))
        return row_to_entry(rows[0]) if rows else None

    def count(self) -> int:
        with self.reading() as connection:
            return int(connection.execute(select(func.count()).select_from(journal)).scalar_one())

    def get(self, seq: int) -> JournalEntry | None:
        with self.reading() as connection:
            rows = fetch_all(connection, select(journal).where(journal.c.seq == seq))
        return row_to_entry(rows[0]) if rows else None

    def entry_hashes(self, until_seq: int | None = None, *, batch: int = 65_536) -> Iterator[str]:
        """The ``entry_hash`` of entries 1, 2, 3, … up to ``until_seq`` (default: the head), in seq
        order, and nothing else: the leaves of the journal's Merkle tree (``journal.tree``). One read
        transaction (one snapshot), ``batch`` rows at a time by keyset (``seq > last``: the cost follows
        the rows stored, never the seq values, so one row at seq 2**63 - 1 costs one row), only that
        column fetched. The values stop before the first row out of place (a gap, or a row at seq 0 or
        below read first): the caller, which asked for ``until_seq`` leaves, then has fewer and reports
        the gap (``merkle.ShortTree``). A value that is not text (a hand edit) comes as its text form,
        which then fails as a leaf (not 64 hex digits)."""
        column = journal.c
        expected = 1
        with self.reading() as connection:
            while until_seq is None or expected <= until_seq:
                query = select(column.seq, column.entry_hash).order_by(column.seq).limit(batch)
                if expected > 1:  # the first batch has no lower bound: a row below seq 1 is out of place
                    query = query.where(column.seq > expected - 1)
                if until_seq is not None:
                    query = query.where(column.seq <= until_seq)
                rows = fetch_tuples(connection, query)
                in_place = _in_place(rows, expected)
                yield from _hash_texts(rows[:in_place])
                if in_place < len(rows) or len(rows) < batch:  # a gap or a row out of place, or the end
                    return
                expected += len(rows)

    def entry_hashes_between(self, first_seq: int, last_seq: int) -> list[str]:
        """The ``entry_hash`` of entries ``first_seq … last_seq`` in seq order, stopping before the first
        one missing (so a gap gives fewer), in one query: the leaves of one range of the Merkle tree."""
        if last_seq < first_seq:
            return []
        column = journal.c
        query = (
            select(column.seq, column.entry_hash)
            .where(column.seq >= first_seq, column.seq <= last_seq)
            .order_by(column.seq)
        )
        with self.reading() as connection:
            rows = fetch_tuples(connection, query)
        return _hash_texts(rows[: _in_place(rows, first_seq)])

    def merkle_tiles(self, below: int) -> dict[int, bytes]:
        """The stored Merkle tiles (``journal.tiles``) with an index below ``below``, as raw 32-byte roots;
        a stored value that is not 64 lower-case hex digits is left out (the tile is then computed from the
        entries, and ``journal verify`` reports the row). Empty when the database predates tiles."""
        return {
            tile: bytes.fromhex(root)
            for tile, root in self.merkle_tile_rows()
            if type(tile) is int and tile < below
            if type(root) is str and len(root) == 64 and set(root) <= _LOWER_HEX
        }

    def merkle_tile_rows(self) -> list[tuple[Any, Any]]:
        """Every stored tile row as stored, ordered by its index (for verification)."""
        with self.reading("the Merkle tiles") as connection:
            if not inspect(connection).has_table(merkle_tiles.name):
                return []
            query = select(merkle_tiles.c.tile, merkle_tiles.c.root).order_by(merkle_tiles.c.tile)
            return [(tile, root) for tile, root in fetch_tuples(connection, query)]

    def _glob_names(self, pattern: str) -> list[Any] | None:
        """The stored syscall values ``pattern`` matches, by ``fnmatchcase`` on each distinct name (one
        pass over the syscall column, in SQL: a journal of any length holds a few dozen names), so SQL
        selects exactly the rows Python would; the names are those present when reading starts. SQL's
        own patterns would not do: ``GLOB`` reads ``[^x]`` as a negation where ``fnmatch`` reads
        ``[!x]``, and an unclosed ``[`` differs too. None when more than
        ``MAX_GLOB_NAMES`` names are stored or a matching one is not valid UTF-8: then every row is
        matched in Python instead (slower, as exact)."""
        query = select(journal.c.syscall).distinct().limit(MAX_GLOB_NAMES + 1)
        with self.reading() as connection:
            stored = [row[0] for row in fetch_tuples(connection, query)]
        if len(stored) > MAX_GLOB_NAMES:
            return None
        names = [value for value in stored if fnmatch.fnmatchcase(_text(value), pattern)]
        # text read with surrogateescape (not UTF-8, a hand edit) cannot be sent back as a parameter
        bindable = all(valid_text(name) or not isinstance(name, str) for name in names)
        return names if bindable else None

    def entries(self, where: JournalFilter | None = None, *, batch: int = BATCH) -> Iterator[JournalEntry]:
        """Entries in seq order (descending on request), fetched ``batch`` at a time by keyset pagination;
        one batch of rows is held at a time, so memory does not grow with the journal."""
        chosen = where or JournalFilter()
        names = None if chosen.syscall_glob is None else self._glob_names(chosen.syscall_glob)
        if names == []:  # no stored name matches: nothing to read
            return
        conditions = _conditions(chosen, names, blobs=self.engine.dialect.name == "sqlite")
        order = journal.c.seq.desc() if chosen.descending else journal.c.seq
        boundary: int | None = None
        while True:
            query = select(journal).where(*_seq_range(chosen, boundary), *conditions)
            with self.reading() as connection:
                rows = [
                    row_to_entry(row) for row in fetch_tuples(connection, query.order_by(order).limit(batch))
                ]
            yield from (entry for entry in rows if _kept(entry, chosen))
            if len(rows) < batch:
                return
            boundary = rows[-1].seq

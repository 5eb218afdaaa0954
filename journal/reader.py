"""Reading a journal: streamed in seq order, in batches, so memory does not grow with its length."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, inspect, select
from sqlalchemy.exc import SQLAlchemyError

from journal.engine import fetch_all, fetch_tuples, one_line, open_engine
from journal.schema import journal
from journal.store import JournalHeader, read_header
from kernel.abi import JournalEntry
from kernel.protocols import StorageError

__all__ = ["JournalFilter", "JournalReader", "row_to_entry"]

BATCH = 2_000


@dataclass(frozen=True)
class JournalFilter:
    """Which entries to read; None means no restriction. Times are fixed-form text."""

    since: str | None = None
    until: str | None = None
    syscall: str | None = None
    principal: str | None = None
    status: str | None = None
    after_seq: int = 0
    until_seq: int | None = None
    descending: bool = False


def _text(value: object) -> str:
    """A text column as stored; a value whose type was changed by hand keeps its bytes where it can
    (invalid UTF-8 is replaced, which the chain check then reports as damage)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
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


_STORED_TYPES = (int, str, str, str, bytes, str, bytes, str, str, str)
"""The Python types of a journal row's columns (in ``JournalEntry`` order) as the kernel stores them."""


_COLUMNS = tuple(JournalEntry.__struct_fields__)


def row_to_entry(row: Sequence[Any]) -> JournalEntry:
    """A journal row (its columns in ``JournalEntry`` order) as an entry, whatever was done to the
    file by hand."""
    values = tuple(row)
    if tuple(map(type, values)) == _STORED_TYPES:  # as written: nothing to repair
        return JournalEntry(*values)
    return _repaired(dict(zip(_COLUMNS, values, strict=True)))


def _repaired(values: dict[str, Any]) -> JournalEntry:
    return JournalEntry(
        seq=_seq(values["seq"]),
        recorded_at=_text(values["recorded_at"]),
        syscall=_text(values["syscall"]),
        principal=_text(values["principal"]),
        args=_blob(values["args"]),
        status=_text(values["status"]),
        result=_blob(values["result"]),
        effects_hash=_text(values["effects_hash"]),
        prev_hash=_text(values["prev_hash"]),
        entry_hash=_text(values["entry_hash"]),
    )


class JournalReader:
    """Read-only access to one journal database (it is never migrated or created by reading)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, target: str) -> JournalReader:
        """A reader that never changes the file (no journal-mode switch, no migration)."""
        return cls(open_engine(target, read_only=True))

    def close(self) -> None:
        self.engine.dispose()

    def _connect(self) -> Connection:
        try:
            return self.engine.connect()
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot open the journal: {one_line(exc)}") from exc

    def header(self) -> JournalHeader | None:
        """The journal's header, or None when the database holds no arvis journal."""
        try:
            with self._connect() as connection:
                if not inspect(connection).has_table("journal_header"):
                    return None
                return read_header(connection)
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot read the journal header: {one_line(exc)}") from exc

    def head(self) -> JournalEntry | None:
        """The last entry, or None for an empty journal."""
        try:
            with self._connect() as connection:
                rows = fetch_all(connection, select(journal).order_by(journal.c.seq.desc()).limit(1))
                row = rows[0] if rows else None
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot read the journal: {one_line(exc)}") from exc
        return None if row is None else row_to_entry(row)

    def count(self) -> int:
        try:
            with self._connect() as connection:
                return int(connection.execute(select(func.count()).select_from(journal)).scalar_one())
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot read the journal: {one_line(exc)}") from exc

    def get(self, seq: int) -> JournalEntry | None:
        try:
            with self._connect() as connection:
                rows = fetch_all(connection, select(journal).where(journal.c.seq == seq))
                row = rows[0] if rows else None
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot read the journal: {one_line(exc)}") from exc
        return None if row is None else row_to_entry(row)

    def entries(self, where: JournalFilter | None = None, *, batch: int = BATCH) -> Iterator[JournalEntry]:
        """Entries in seq order (descending on request), fetched ``batch`` at a time by keyset pagination."""
        chosen = where or JournalFilter()
        boundary: int | None = None
        while True:
            query = select(journal).where(journal.c.seq > chosen.after_seq)
            if chosen.until_seq is not None:
                query = query.where(journal.c.seq <= chosen.until_seq)
            if boundary is not None:
                query = query.where(
                    journal.c.seq < boundary if chosen.descending else journal.c.seq > boundary
                )
            if chosen.since is not None:
                query = query.where(journal.c.recorded_at >= chosen.since)
            if chosen.until is not None:
                query = query.where(journal.c.recorded_at <= chosen.until)
            if chosen.syscall is not None:
                query = query.where(journal.c.syscall == chosen.syscall)
            if chosen.principal is not None:
                query = query.where(journal.c.principal == chosen.principal)
            if chosen.status is not None:
                query = query.where(journal.c.status == chosen.status)
            order = journal.c.seq.desc() if chosen.descending else journal.c.seq
            query = query.order_by(order).limit(batch)
            try:
                with self._connect() as connection:
                    rows = [row_to_entry(row) for row in fetch_tuples(connection, query)]
            except SQLAlchemyError as exc:
                raise StorageError(f"cannot read the journal: {one_line(exc)}") from exc
            yield from rows
            if len(rows) < batch:
                return
            boundary = rows[-1].seq

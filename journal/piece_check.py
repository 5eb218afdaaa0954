"""Verification's check of reads journaled by reference (``kernel.result_pieces``): every piece a
journaled result references must be stored. That each stored piece hashes to its key is
``blob_store.check_blobs``'s part (pieces live in the same content-addressed table); that the reference
is the right one is the replay's (it re-executes the read and compares the journaled bytes)."""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import bindparam, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from journal.blob_store import TABLE as BLOBS
from journal.blob_store import BadBlob
from journal.engine import one_line
from journal.reader import JournalFilter, JournalReader
from kernel.protocols import StorageError
from kernel.result_pieces import PiecePath, references
from kernel.table import SyscallTable

__all__ = ["check_result_pieces"]

BATCH = 500
"""Referenced keys looked up per query."""

_PRESENT = text(f"SELECT hash FROM {BLOBS} WHERE hash IN :hashes").bindparams(
    bindparam("hashes", expanding=True)
)


def _referenced(reader: JournalReader, name: str, paths: tuple[PiecePath, ...]) -> Iterator[tuple[int, str]]:
    """(seq, key) of every piece the accepted calls of ``name`` reference, in seq order."""
    for entry in reader.entries(JournalFilter(syscall=name, status="ok")):
        for key in references(entry.result, paths):
            yield entry.seq, key


def _missing(reader: JournalReader, batch: list[tuple[int, str]]) -> tuple[int, str] | None:
    wanted = sorted({key for _, key in batch})
    try:
        with reader.engine.connect() as connection:
            present = {str(row[0]) for row in connection.execute(_PRESENT, {"hashes": wanted})}
    except SQLAlchemyError as exc:
        raise StorageError(f"the result pieces could not be read: {one_line(exc)}") from exc
    return next(((seq, key) for seq, key in batch if key not in present), None)


def _first_missing(
    reader: JournalReader, name: str, paths: tuple[PiecePath, ...], has_blobs: bool
) -> tuple[int, str] | None:
    pending: list[tuple[int, str]] = []
    for reference in _referenced(reader, name, paths):
        if not has_blobs:  # a blob table dropped by hand: nothing referenced is stored
            return reference
        pending.append(reference)
        if len(pending) >= BATCH:
            missing = _missing(reader, pending)
            if missing is not None:
                return missing
            pending = []
    return _missing(reader, pending) if pending else None


def check_result_pieces(reader: JournalReader, table: SyscallTable) -> BadBlob | None:
    """The first entry (by seq) whose journaled result references a piece that is not stored."""
    with reader.engine.connect() as connection:
        has_blobs = BLOBS in set(inspect(connection).get_table_names())
    found = [
        missing
        for name, spec in table.items()
        if spec.result_pieces
        and (missing := _first_missing(reader, name, spec.result_pieces, has_blobs)) is not None
    ]
    return _bad(min(found)) if found else None


def _bad(missing: tuple[int, str]) -> BadBlob:
    seq, key = missing
    return BadBlob(seq, f"the result of seq {seq} references piece {key}, which {BLOBS} does not hold")

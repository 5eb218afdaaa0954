"""The pieces of reads journaled by reference (``kernel.result_pieces``) in a journal's database: read
back for readers, and checked by verification.

Verification's part: every piece an accepted entry's journaled result references must be stored and hash
to its key, named at the first entry (by seq) that references it. That the reference is the right one is
the replay's part (it re-executes the read and compares the journaled bytes); that every other stored
blob hashes to its key is ``blob_store.check_blobs``'s.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from sqlalchemy import Engine, bindparam, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from arvis.canonical import sha256_hex
from journal.blob_store import TABLE as BLOBS
from journal.blob_store import BadBlob, get_many
from journal.engine import one_line
from journal.reader import JournalFilter, JournalReader
from kernel.abi import JournalEntry
from kernel.formats import UnknownFormat, piece_paths, rules_of
from kernel.protocols import StorageError
from kernel.replay_kernel import JournalReplayKernel
from kernel.result_pieces import PieceFetch, PiecePath, expand, references

__all__ = ["check_result_pieces", "expanded_result", "fetch_from", "replay_kernel"]

BATCH = 200
"""Referenced pieces read per query (a piece may be megabytes: a snapshot of 10,000 entries)."""

_STORED = text(f"SELECT hash, data FROM {BLOBS} WHERE hash IN :hashes").bindparams(
    bindparam("hashes", expanding=True)
)


def fetch_from(engine: Engine) -> PieceFetch:
    """Reads pieces from ``engine``'s blob store, each checked against its key (``BlobMissing``)."""
    return functools.partial(get_many, engine)


def expanded_result(engine: Engine, entry: JournalEntry) -> bytes:
    """The entry's result as its call returned it: each reference replaced by its piece. Raises
    ``BlobMissing`` or ``PieceMismatch`` (both ``LookupError``) when a piece is missing or damaged."""
    return expand(entry.result, piece_paths(entry.syscall), fetch_from(engine))


def replay_kernel(reader: JournalReader, where: JournalFilter | None = None) -> JournalReplayKernel:
    """A ``JournalReplayKernel`` over the journal's entries (``where``: which), serving reads journaled
    by reference whole, from the journal's own pieces."""
    return JournalReplayKernel(reader.entries(where), pieces=fetch_from(reader.engine))


def _referenced(reader: JournalReader, name: str, paths: tuple[PiecePath, ...]) -> Iterator[tuple[int, str]]:
    """(seq, key) of every piece the accepted calls of ``name`` reference, in seq order."""
    for entry in reader.entries(JournalFilter(syscall=name, status="ok")):
        for key in references(entry.result, paths):
            yield entry.seq, key


def _first_bad(reader: JournalReader, batch: list[tuple[int, str]], checked: set[str]) -> BadBlob | None:
    """The first reference of ``batch`` whose piece is not stored or does not hash to its key."""
    wanted = sorted({key for _, key in batch} - checked)
    try:
        with reader.engine.connect() as connection:
            stored = {str(key): bytes(data) for key, data in connection.execute(_STORED, {"hashes": wanted})}
    except SQLAlchemyError as exc:
        raise StorageError(f"the result pieces could not be read: {one_line(exc)}") from exc
    for seq, key in batch:
        if key in checked:
            continue
        data = stored.get(key)
        if data is None:
            return BadBlob(
                seq, f"the result of seq {seq} references piece {key}, which {BLOBS} does not hold"
            )
        actual = sha256_hex(data)
        if actual != key:
            return BadBlob(
                seq, f"the result of seq {seq} references piece {key}, whose bytes hash to {actual}"
            )
        checked.add(key)
    return None


def _first_in(
    reader: JournalReader, references_of: Iterable[tuple[int, str]], has_blobs: bool
) -> BadBlob | None:
    checked: set[str] = set()
    pending: list[tuple[int, str]] = []
    for reference in references_of:
        if not has_blobs:  # a blob table dropped by hand: nothing referenced is stored
            seq, key = reference
            return BadBlob(seq, f"the result of seq {seq} references piece {key}, and {BLOBS} does not exist")
        pending.append(reference)
        if len(pending) >= BATCH:
            bad = _first_bad(reader, pending, checked)
            if bad is not None:
                return bad
            pending = []
    return _first_bad(reader, pending, checked) if pending else None


def check_result_pieces(reader: JournalReader) -> BadBlob | None:
    """The first entry (by seq) whose journaled result references a piece that is not stored or does
    not hash to its key; None for a journal whose format journals nothing by reference."""
    header = reader.header()
    try:
        layout = None if header is None else rules_of(header.format_version).pieces
    except UnknownFormat:  # verification reports the header itself
        layout = None
    if layout is None:
        return None
    with reader.engine.connect() as connection:
        has_blobs = BLOBS in set(inspect(connection).get_table_names())
    found = [
        bad
        for name, paths in sorted(layout.paths.items())
        if (bad := _first_in(reader, _referenced(reader, name, paths), has_blobs)) is not None
    ]
    return min(found, key=lambda bad: bad.seq) if found else None

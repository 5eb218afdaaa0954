"""The pieces of reads journaled by reference (``kernel.result_pieces``) in a journal's database: read
back for readers, and checked by verification.

Verification's part: every piece an accepted entry's journaled result references must be stored and hash
to its key, named at the first entry (by seq) that references it. That the reference is the right one is
the replay's part (it re-executes the read and compares the journaled bytes); that every other stored
blob hashes to its key is ``blob_store.check_blobs``'s.
"""

from __future__ import annotations

import functools

from sqlalchemy import Engine, inspect
from sqlalchemy.exc import SQLAlchemyError

from arvis.access import AccessRules
from arvis.canonical import sha256_hex
from journal.blob_store import BATCH as _READ
from journal.blob_store import TABLE as BLOBS
from journal.blob_store import BadBlob, get_many, present
from journal.engine import one_line
from journal.header import JournalHeader
from journal.reader import JournalFilter, JournalReader
from kernel.abi import JournalEntry
from kernel.formats import UnknownFormat, piece_paths, rules_of
from kernel.protocols import StorageError
from kernel.replay_kernel import JournalReplayKernel
from kernel.result_pieces import PieceFetch, PiecePath, expand, references

_BATCH = 200
"""Referenced pieces read per query (a piece may be megabytes: a snapshot of 10,000 entries)."""


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
    header = reader.header()
    rules = AccessRules.TYPED if header is None else rules_of(header.format_version).access
    return JournalReplayKernel(reader.entries(where), pieces=fetch_from(reader.engine), access_rules=rules)


def _first_bad(reader: JournalReader, batch: list[tuple[int, str]], checked: set[str]) -> BadBlob | None:
    """The first reference of ``batch`` whose piece is not stored or does not hash to its key."""
    wanted = sorted({key for _, key in batch} - checked)
    try:
        with reader.engine.connect() as connection:
            stored: dict[str, bytes] = {}
            for start in range(0, len(wanted), _READ):
                stored.update(present(connection, wanted[start : start + _READ]))
    except SQLAlchemyError as exc:
        raise StorageError(f"the result pieces could not be read: {one_line(exc)}") from exc
    for seq, key in batch:
        if key in checked:
            continue
        data = stored.get(key)
        actual = None if data is None else sha256_hex(data)
        if actual != key:
            which = f"which {BLOBS} does not hold" if actual is None else f"whose bytes hash to {actual}"
            return BadBlob(seq, f"the result of seq {seq} references piece {key}, {which}")
        checked.add(key)
    return None


class PieceCheck:
    """The first entry (by seq) whose journaled result references a piece that is not stored or does
    not hash to its key, over entries given in seq order by whoever reads them anyway (verification's
    walk feeds each entry it accepted, so the journal is not read again). The pieces are read
    ``_BATCH`` references at a time; once a bad one is found, later entries are not looked at."""

    def __init__(self, reader: JournalReader, header: JournalHeader | None) -> None:
        try:
            layout = None if header is None else rules_of(header.format_version).pieces
        except UnknownFormat:  # verification reports the header itself
            layout = None
        self.paths: dict[str, tuple[PiecePath, ...]] = {} if layout is None else dict(layout.paths)
        """The calls whose results may reference pieces in this journal's format (empty: none may)."""
        self._reader = reader
        self._has_blobs: bool | None = None
        self._pending: list[tuple[int, str]] = []
        self._checked: set[str] = set()
        self._unreadable: StorageError | None = None
        self.bad: BadBlob | None = None

    def add(self, entry: JournalEntry) -> None:
        paths = self.paths.get(entry.syscall)
        if paths is None or entry.status != "ok" or self.bad is not None or self._unreadable is not None:
            return
        for key in references(entry.result, paths):
            if self._has_blobs is None:
                try:
                    with self._reader.engine.connect() as connection:
                        self._has_blobs = BLOBS in set(inspect(connection).get_table_names())
                except SQLAlchemyError as exc:  # raised by ``result``, after the walk
                    self._unreadable = StorageError(f"the result pieces could not be read: {one_line(exc)}")
                    return
            if not self._has_blobs:  # a blob table dropped by hand: nothing referenced is stored
                why = f"the result of seq {entry.seq} references piece {key}, and {BLOBS} does not exist"
                self.bad = BadBlob(entry.seq, why)
                return
            self._pending.append((entry.seq, key))
        if len(self._pending) >= _BATCH:
            try:
                self._check()
            except StorageError as exc:  # raised by ``result``: after the walk, as if read then
                self._unreadable = exc

    def _check(self) -> None:
        pending, self._pending = self._pending, []
        if pending and self.bad is None:
            self.bad = _first_bad(self._reader, pending, self._checked)

    def result(self) -> BadBlob | None:
        """The first bad reference of the entries given (their pieces not read yet are read now).
        Raises ``StorageError`` when the pieces could not be read."""
        if self._unreadable is not None:
            raise self._unreadable
        self._check()
        return self.bad

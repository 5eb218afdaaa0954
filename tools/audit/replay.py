"""Verification replay: check the chain, re-execute every entry on a fresh store, compare byte for byte.

Per entry the status, the result bytes and the effects hash are compared with the record (``Replayer``,
``tools.audit.replayer``); at the end the state digest of the audited database is compared with the
replay's. Entries are streamed: only the scratch store grows, and it lives in a temporary file once the
journal is large.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from journal import history
from journal.admin_binding import BindingCheck
from journal.entry import Pos
from journal.header import JournalHeader
from journal.memory_repository import entry_counts_hold, version_seqs
from journal.reader import JournalFilter, JournalReader
from journal.state import state_digest
from journal.tree import TileCheck, journal_size
from kernel.abi import SyscallTable
from kernel.protocols import StorageError
from tools.audit.blob_audit import check_blobs
from tools.audit.pieces import PieceCheck
from tools.audit.replayer import Divergence, DivergenceClass, Replayer
from tools.audit.verify import ChainVerifier

IN_MEMORY_LIMIT = 20_000
"""Journals longer than this are replayed on a temporary file rather than in memory."""


@dataclass(frozen=True)
class ReplayReport:
    verified: bool
    replayed: bool
    entries: int
    seconds: float
    head: Pos
    state_digest: str | None
    divergence: Divergence | None

    @property
    def entries_per_second(self) -> float:
        return self.entries / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "replayed": self.replayed,
            "entries": self.entries,
            "seconds": round(self.seconds, 6),
            "entries_per_second": round(self.entries_per_second, 1),
            "head_seq": self.head.seq,
            "head_hash": self.head.entry_hash,
            "state_digest": self.state_digest,
            "first_bad_seq": None if self.divergence is None else self.divergence.seq,
            "reason": None if self.divergence is None else self.divergence.reason,
            "divergence": None if self.divergence is None else self.divergence.to_json(),
        }


def header_of(reader: JournalReader) -> JournalHeader:
    """The journal's header; ``StorageError`` when the database holds none."""
    header = reader.header()
    if header is None:
        raise StorageError("the database holds no arvis journal (no header)")
    return header


def verify_journal(
    reader: JournalReader,
    *,
    table: SyscallTable,
    replay: bool = True,
    checkpoint: Pos | Sequence[Pos] | None = None,
    progress: Callable[[int], None] | None = None,
    adopt: Callable[[Connection, Pos], None] | None = None,
) -> ReplayReport:
    """Chain check plus (unless ``replay`` is False) re-execution; stops at the first divergence. Each
    checkpoint given must still be in the journal. ``adopt``: given the replay's store and the head once
    the whole journal verified (``journal.copy.adopt_history``)."""
    kept = _kept(checkpoint)
    header = header_of(reader)
    started = time.perf_counter()
    chain = ChainVerifier(header)
    divergence: Divergence | None = None
    if chain.header_break is not None:
        divergence = Divergence(0, "", DivergenceClass.INVALID_HISTORY, chain.header_break.reason)
    replayer = None
    if replay and divergence is None:
        on_disk = journal_size(reader) > IN_MEMORY_LIMIT
        replayer = Replayer(header, table=table, on_disk=on_disk, blobs_from=reader.engine)
    digest: str | None = None
    try:
        if divergence is None:
            divergence = _check(reader, header, chain, replayer, kept, progress)
        if divergence is None and replayer is not None:
            digest = replayer.state_digest()
            divergence = _stored_state(reader, chain.head.seq, digest, replayer)
            if divergence is None and adopt is not None:
                with replayer.committed() as replayed:
                    adopt(replayed, chain.head)
    finally:
        if replayer is not None:
            replayer.close()
    return ReplayReport(
        verified=divergence is None,
        replayed=replayer is not None,
        entries=chain.head.seq,
        seconds=time.perf_counter() - started,
        head=chain.head,
        state_digest=digest,
        divergence=divergence,
    )


def _check(
    reader: JournalReader,
    header: JournalHeader,
    chain: ChainVerifier,
    replayer: Replayer | None,
    kept: dict[int, str],
    progress: Callable[[int], None] | None,
) -> Divergence | None:
    """Walk the entries (chain, replay, kept checkpoints), then check what the walk gathered: the
    Merkle tiles, the result pieces, the blob store, the past kept in rows (``journal.history``), then
    the admin key's bindings, in that order."""
    tiles_unreadable: StorageError | None = None
    try:  # the walk recomputes the stored tiles from the hashes it accepts
        tiles = TileCheck(reader.merkle_tile_rows())
    except StorageError as exc:  # reported where the tiles are checked, after the entries
        tiles, tiles_unreadable = TileCheck([]), exc
    pieces = PieceCheck(reader, header)  # and checks the pieces the results it accepts reference
    bindings = BindingCheck()
    divergence = _walk(reader, chain, replayer, kept, progress, tiles, pieces, bindings)
    if divergence is None and max(kept, default=0) > chain.head.seq:
        return Divergence(
            chain.head.next_seq,
            "",
            DivergenceClass.INVALID_HISTORY,
            f"journal ends at seq {chain.head.seq}: it no longer extends checkpoint {max(kept)}",
        )
    if divergence is not None:
        return divergence
    if tiles_unreadable is not None:
        raise tiles_unreadable
    bad_tile = tiles.result(chain.head.seq)
    if bad_tile is not None:
        return Divergence(bad_tile.seq, "", DivergenceClass.INVALID_HISTORY, str(bad_tile))
    # the pieces first: a damaged one is named at the entry that references it
    bad_blob = pieces.result()
    scratch = nullcontext() if replayer is None else replayer.committed()
    with reader.engine.connect() as connection, scratch as replayed:
        bad_blob = bad_blob or check_blobs(connection)
        bad_past = None if bad_blob is not None or replayed is None else history.check(connection, replayed)
        bad_binding = bindings.result(connection)
    if bad_blob is not None:
        return Divergence(bad_blob.seq, "", DivergenceClass.INVALID_HISTORY, str(bad_blob))
    if bad_past is not None:
        return Divergence(bad_past[0], "", DivergenceClass.INVALID_HISTORY, bad_past[1])
    if bad_binding is None:
        return None
    seq, reason, journaled, stored = bad_binding
    labels = ("journaled binding", "admin_bindings row")
    return Divergence(seq, "", DivergenceClass.INVALID_HISTORY, reason, journaled, stored, labels=labels)


def _stored_state(reader: JournalReader, entries: int, digest: str, replayer: Replayer) -> Divergence | None:
    """The audited database's state against the replayed one (``digest``; the version seqs time travel
    reads, which the digest leaves out, row by row), and its per-user counts against its own entries."""
    with reader.engine.connect() as connection:
        stored = state_digest(connection)
        counts_hold = entry_counts_hold(connection)
        stored_seqs = version_seqs(connection)
    with replayer.store.engine.connect() as connection:
        replayed_seqs = version_seqs(connection)
    if stored != digest:
        return Divergence(
            entries,
            "",
            DivergenceClass.INVALID_HISTORY,
            "the stored state differs from the state its journal produces",
            digest,
            stored,
            labels=("replayed state", "stored state"),
        )
    reason = None
    if stored_seqs is not None and stored_seqs != replayed_seqs:
        reason = (
            "the stored seqs that superseded or revoked memory entries differ from those its journal gives"
        )
    elif not counts_hold:
        reason = "the stored per-user entry counts differ from the stored entries"
    return None if reason is None else Divergence(entries, "", DivergenceClass.INVALID_HISTORY, reason)


def _kept(checkpoint: Pos | Sequence[Pos] | None) -> dict[int, str]:
    """The checkpoints given, as seq -> entry hash; two at one seq with different hashes are refused
    (no journal holds both, and a mapping would silently keep only the last)."""
    if checkpoint is None:
        return {}
    given = [checkpoint] if isinstance(checkpoint, Pos) else list(checkpoint)
    kept: dict[int, str] = {}
    for each in given:
        if kept.setdefault(each.seq, each.entry_hash) != each.entry_hash:
            raise ValueError(
                f"two checkpoints at seq {each.seq} with different hashes: no journal holds them"
            )
    return kept


def _walk(
    reader: JournalReader,
    chain: ChainVerifier,
    replayer: Replayer | None,
    checkpoints: dict[int, str],
    progress: Callable[[int], None] | None,
    tiles: TileCheck,
    pieces: PieceCheck,
    bindings: BindingCheck,
) -> Divergence | None:
    """Check the chain and replay entry by entry; each entry accepted is given to the tile, piece and
    binding checks, which report after the walk (so a divergence in the entries is named first)."""
    add_to_tiles = tiles.add if tiles.wanted else None
    add_to_pieces = pieces.add if pieces.paths else None
    for entry in reader.entries(JournalFilter()):
        broken = chain.check_form(entry)
        diverged: Divergence | None = None
        proved: str | None = None
        if broken is None and replayer is not None:
            # replay first: an entry it reproduces exactly carries the hash the chain check needs
            diverged = replayer.apply(entry)
            if diverged is None and replayer.last_entry is not None:
                proved = replayer.last_entry.entry_hash
        if broken is None:
            broken = chain.check_hash(entry, proved)
        if broken is not None:
            return Divergence(broken.seq, entry.syscall, DivergenceClass.INVALID_HISTORY, broken.reason)
        kept = checkpoints.get(entry.seq) if checkpoints else None
        if kept is not None and entry.entry_hash != kept:
            return Divergence(
                entry.seq,
                entry.syscall,
                DivergenceClass.INVALID_HISTORY,
                "history rewritten: the entry hash at the checkpoint's seq differs",
                kept,
                entry.entry_hash,
                labels=("checkpoint's entry hash", "journal's entry hash"),
            )
        if diverged is not None:
            return diverged
        if add_to_tiles is not None:
            add_to_tiles(entry.entry_hash)
        if add_to_pieces is not None:
            add_to_pieces(entry)
        bindings.add(entry)
        if progress is not None:
            progress(entry.seq)
    return None

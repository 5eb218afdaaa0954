"""Chain verification: every entry chains from the one before, from the genesis of the header.

Streams the journal; the first damaged seq is named with the reason. Damage that bypassed the
append-only triggers (someone edited the file) is caught here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import msgspec

from arvis.canonical import CanonicalEncodingError, canonical_bytes, decode, parse_time
from journal.engine import valid_text
from journal.entry import Pos, compute_entry_hash, genesis_hash
from journal.header import JournalHeader
from journal.schema import FORMAT_VERSIONS
from kernel.abi import JournalEntry

_HEX64 = re.compile(r"[0-9a-f]{64}")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")


@dataclass(frozen=True)
class ChainBreak:
    seq: int
    reason: str


def damaged_header(header: JournalHeader) -> ChainBreak | None:
    """Why the header's text columns cannot be used (bad seq 0), else None: ``journal_id`` and
    ``genesis_hash`` must be valid text (the genesis hash is computed over the id's UTF-8 bytes), and
    ``created_at`` must be in the fixed time form (a replay starts its clock there). A hand edit could
    otherwise only crash the verifier, or a replay, instead of being reported."""
    if not all(map(valid_text, (header.journal_id, header.created_at, header.genesis_hash))):
        return ChainBreak(0, "journal header altered: a column holds bytes that are not valid text")
    if not _TIME.fullmatch(header.created_at):
        return ChainBreak(0, "journal header altered: created_at is not in the fixed time form")
    try:
        parse_time(header.created_at)
    except CanonicalEncodingError:  # the form, but no such moment (month 13)
        return ChainBreak(0, "journal header altered: created_at is not in the fixed time form")
    return None


def noncanonical_args(entry: JournalEntry) -> ChainBreak | None:
    """Why the entry's ``args`` are not bytes the kernel records, else None: the kernel stores the
    canonical JSON of the arguments (or of the refusal marker), so any other encoding of the same value
    (whitespace, another key order, a duplicate key, an escape) is an edit, even one whose chain was
    recomputed and whose call replays the same."""
    try:
        if canonical_bytes(decode(entry.args)) == entry.args:
            return None
    except (CanonicalEncodingError, msgspec.DecodeError):
        pass
    return ChainBreak(entry.seq, "args are not the canonical JSON the kernel records")


class ChainVerifier:
    """Checks entries one at a time (feed them in seq order); remembers only ``head``, the position after
    the entries accepted (its seq: how many)."""

    def __init__(self, header: JournalHeader) -> None:
        self.head = Pos(0, header.genesis_hash if valid_text(header.genesis_hash) else "")
        self.header_break: ChainBreak | None = None
        if header.format_version not in FORMAT_VERSIONS:
            self.header_break = ChainBreak(0, f"unsupported journal format version {header.format_version}")
            return
        self.header_break = damaged_header(header)
        if self.header_break is not None:
            return
        expected_genesis = genesis_hash(header.journal_id, header.format_version)
        if header.genesis_hash != expected_genesis:
            self.header_break = ChainBreak(0, "journal header altered: genesis hash does not match its id")
            self.head = Pos(0, expected_genesis)

    def check(self, entry: JournalEntry) -> ChainBreak | None:
        return self.check_form(entry) or self.check_hash(entry)

    def check_form(self, entry: JournalEntry) -> ChainBreak | None:
        """Everything but the entry hash: seq without gap, fixed time form, hash forms, prev_hash."""
        seq = entry.seq
        if seq != self.head.next_seq:
            return ChainBreak(self.head.next_seq, f"seq gap: expected {self.head.next_seq}, found {seq}")
        if not _TIME.fullmatch(entry.recorded_at):
            return ChainBreak(seq, "recorded_at is not in the fixed time form")
        if not (_HEX64.fullmatch(entry.effects_hash) and _HEX64.fullmatch(entry.entry_hash)):
            return ChainBreak(seq, "a hash column is not 64 lower-case hex digits")
        if entry.prev_hash != self.head.entry_hash:
            return ChainBreak(seq, "prev_hash does not match the previous entry's hash")
        return None

    def check_hash(self, entry: JournalEntry, proved: str | None = None) -> ChainBreak | None:
        """The entry hash (after ``check_form``), then the entry is accepted. ``proved``: the hash a
        replay computed over this very entry's fields on the same previous hash (its status, result
        and effects hash equal to the recorded ones), which saves computing it a second time."""
        seq = entry.seq
        if proved is not None:
            recomputed = proved
        else:
            fields = msgspec.structs.asdict(entry) | {"prev_hash": self.head.entry_hash}
            del fields["entry_hash"]  # every other field is hashed, chained on the head
            try:
                recomputed = compute_entry_hash(**fields)
            except (ValueError, UnicodeError):
                return ChainBreak(seq, "a column holds bytes that are not valid text")
        if recomputed != entry.entry_hash:
            return ChainBreak(seq, "entry_hash does not match the entry's contents")
        self.head = entry.pos
        return None

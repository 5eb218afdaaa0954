"""The chain walk alone over a list of entries (no reader, no replay), for tests that check a journal's
chain as they build it: ``tools.audit.verify.ChainVerifier``, summed up."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from journal.entry import Pos
from journal.header import JournalHeader
from kernel.abi import JournalEntry
from tools.audit.verify import ChainBreak, ChainVerifier


@dataclass(frozen=True)
class ChainReport:
    verified: bool
    entries: int
    head: Pos
    first_bad_seq: int | None
    reason: str | None


def verify_chain(header: JournalHeader, entries: Iterable[JournalEntry]) -> ChainReport:
    verifier = ChainVerifier(header)
    found: ChainBreak | None = verifier.header_break
    if found is None:
        for entry in entries:
            found = verifier.check(entry)
            if found is not None:
                break
    return ChainReport(
        verified=found is None,
        entries=verifier.head.seq,
        head=verifier.head,
        first_bad_seq=None if found is None else found.seq,
        reason=None if found is None else found.reason,
    )

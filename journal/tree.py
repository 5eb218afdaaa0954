"""The journal's Merkle tree (specs/journal-format.md §11): leaves are the entries in seq order, the leaf
data of an entry is the 32 raw bytes of its ``entry_hash``.

Because every entry hash already binds the whole chain before it, the tree adds no new commitment to the
content: what it adds are short proofs. An auditor holding a root can be shown that one entry is in the
journal (inclusion) or that a later journal still holds the tree it signed (consistency) with about
32·log2(n) bytes, instead of the journal itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from journal import merkle
from journal.reader import JournalReader

__all__ = ["BadLeaf", "journal_leaves", "journal_size"]


class BadLeaf(ValueError):
    """An entry whose ``entry_hash`` is not 64 hex digits has no leaf (the chain check names it too)."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"entry {seq} has no Merkle leaf: its entry_hash is not 64 hex digits")
        self.seq = seq


def journal_size(reader: JournalReader) -> int:
    """The tree size of the whole journal: its head's seq (entries are 1, 2, 3, … without gaps; a
    journal with a gap has fewer leaves than that, which ``merkle.ShortTree`` then reports)."""
    head = reader.head()
    return 0 if head is None else max(head.seq, 0)


def journal_leaves(reader: JournalReader, until_seq: int | None = None) -> Iterator[bytes]:
    """The leaf hashes of the entries up to ``until_seq``, in seq order, streamed a chunk at a time."""
    hashes = reader.entry_hashes(until_seq)
    position = 0
    while chunk := list(islice(hashes, merkle.CHUNK)):
        if set(map(len, chunk)) != {64}:
            raise BadLeaf(position + 1 + next(i for i, text in enumerate(chunk) if len(text) != 64))
        try:
            data = list(map(bytes.fromhex, chunk))
        except ValueError:
            raise BadLeaf(position + 1 + _first_not_hex(chunk)) from None
        if set(map(len, data)) != {merkle.HASH_SIZE}:  # fromhex skips whitespace inside the text
            raise BadLeaf(position + 1 + next(i for i, raw in enumerate(data) if len(raw) != 32))
        yield from merkle.leaf_hashes(data)
        position += len(chunk)


def _first_not_hex(chunk: list[str]) -> int:
    for index, text in enumerate(chunk):
        try:
            bytes.fromhex(text)
        except ValueError:
            return index
    raise AssertionError("no entry hash of the chunk failed to decode")

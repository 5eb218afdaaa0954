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
    """The leaf hashes of the entries up to ``until_seq``, in seq order, streamed a chunk at a time.
    Raises ``BadLeaf`` naming the first entry of a chunk whose hash is not 64 hex digits."""
    hashes = reader.entry_hashes(until_seq)
    position = 0
    while chunk := list(islice(hashes, merkle.CHUNK)):
        try:
            data = list(map(bytes.fromhex, chunk))
        except ValueError:
            data = []
        # fromhex skips whitespace inside the text: a 64-character text may still give fewer bytes
        if set(map(len, chunk)) != {64} or set(map(len, data)) != {merkle.HASH_SIZE}:
            raise BadLeaf(position + 1 + next(i for i, text in enumerate(chunk) if not _is_leaf_text(text)))
        yield from merkle.leaf_hashes(data)
        position += len(chunk)


def _is_leaf_text(text: str) -> bool:
    """Whether ``text`` is 64 hex digits (the first text of a chunk that is not is the entry named)."""
    try:
        return len(text) == 64 and len(bytes.fromhex(text)) == merkle.HASH_SIZE
    except ValueError:
        return False

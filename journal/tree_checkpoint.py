"""Signed checkpoints of a journal's tree (C2SP ``tlog-checkpoint``) and the check of a journal against them.

A checkpoint is a signed note (``journal.signed_note``) whose text is the origin ``arvis.journal/<journal
id>``, the tree size in decimal and the base64 root, one a line. A journal passes a checkpoint when its first
``tree size`` leaves have that root and its whole tree is consistent with it (RFC 9162 §2.1.4).

A root alone cannot say *where* a rewritten journal departs from it: the entries after the first edit are
all new, and nothing in 32 bytes tells which came first. So ``journal checkpoint --sign -o FILE`` also
keeps the tree's nodes at one height in ``FILE.tree`` (the *tree file*: every leaf hash up to
``MAX_TREE_FILE_NODES`` entries, the roots of aligned blocks of 2, 4, … entries beyond). It needs no
signature of its own: it is used only when the MTH of its nodes is the signed root. The check then
compares those subtree roots with the ones the current leaves give, and names the first that differs:
the entry itself, or the block of entries that holds it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from arvis.canonical import CanonicalEncodingError, canonical_bytes
from journal import merkle
from journal.header import JournalHeader
from journal.reader import JournalReader
from journal.tree import journal_leaves

ORIGIN_PREFIX = "arvis.journal/"
MAX_TREE_FILE_NODES = 65_536
"""Nodes a tree file holds at most (64 hex digits and a newline each: about 4 MiB). Journals up to this
many entries keep every leaf, so a rewrite is named to the entry."""
_TREE_FILE_MAGIC = "arvis-tree-nodes 1"
HEADER_LINE = "arvis-header "
"""The extension line a checkpoint binds the journal's header with: this prefix, then the base64 of
``header_digest``."""
ADMIN_HEADER_LINE = "arvis-header-2 "
"""The extension line that binds the header with its admin verifier too (``admin_header_digest``): a line
of its own, so that a checkpoint signed before it, whose ``HEADER_LINE`` leaves the verifier out, still
checks."""


def header_digest(header: JournalHeader) -> bytes | None:
    """SHA-256 of ``arvis-journal-header`` and the canonical JSON of the header's fields (every attribute
    of the header that is not null, so a field a later revision adds, null in an older journal, leaves
    that journal's digest as it was); None when a field has no canonical form (a hand edit: bytes that
    are not valid text), which matches no digest."""
    return _digest(b"arvis-journal-header", vars(header))


def admin_header_digest(header: JournalHeader, admin_verifier: str | None) -> bytes | None:
    """``header_digest``'s fields and the header's ``admin_verifier`` (``journal.admin_binding``: left
    out while null), under the tag ``arvis-journal-header-2``."""
    return _digest(b"arvis-journal-header-2", {**vars(header), "admin_verifier": admin_verifier})


def _digest(tag: bytes, fields: dict[str, object]) -> bytes | None:
    kept = {name: value for name, value in sorted(fields.items()) if value is not None}
    try:
        return hashlib.sha256(tag + canonical_bytes(kept)).digest()
    except CanonicalEncodingError:
        return None


def origin_of(journal_id: str) -> str:
    """The checkpoint origin of a journal: its identity, so a note of one journal never passes for another."""
    return f"{ORIGIN_PREFIX}{journal_id}"


@dataclass(frozen=True)
class CheckpointBody:
    """The note text of a checkpoint: origin, tree size, root (extension lines are kept, not read)."""

    origin: str
    tree_size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def header(self, prefix: str = HEADER_LINE) -> bytes | None:
        """The header digest the checkpoint binds on its line ``prefix`` (``HEADER_LINE`` or
        ``ADMIN_HEADER_LINE``), or None (a checkpoint signed before that line existed)."""
        for line in self.extensions:
            if line.startswith(prefix):
                try:
                    return base64.b64decode(line.removeprefix(prefix), validate=True)
                except (binascii.Error, ValueError):
                    return b""  # signed, yet no digest: matches no header
        return None

    def text(self) -> str:
        lines = [self.origin, str(self.tree_size), base64.b64encode(self.root).decode("ascii")]
        return "\n".join([*lines, *self.extensions]) + "\n"

    @classmethod
    def parse(cls, text: str) -> CheckpointBody:
        """Raises ValueError unless ``text`` is at least three non-empty lines in checkpoint form."""
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "" or any(not line for line in lines[:-1]):
            raise ValueError("a checkpoint is an origin, a tree size and a root hash, one a line")
        origin, size_text, root_text = lines[:3]
        if not size_text.isascii() or not size_text.isdigit() or (size_text != "0" and size_text[0] == "0"):
            raise ValueError(f"{size_text!r} is not a tree size (decimal, no leading zero)")
        try:
            root = base64.b64decode(root_text.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError, ValueError):
            root = b""
        if len(root) != merkle.HASH_SIZE:
            raise ValueError("the root hash is not the base64 of 32 bytes")
        if size_text == "0" and root != merkle.EMPTY_ROOT:
            raise ValueError("the tree of size 0 has the empty tree's root, SHA-256 of nothing")
        return cls(origin, int(size_text), root, tuple(lines[3:-1]))


def tree_file_level(tree_size: int) -> int:
    """The height whose nodes a tree file keeps: the lowest with at most ``MAX_TREE_FILE_NODES`` nodes."""
    level = 0
    while -(-tree_size // (1 << level)) > MAX_TREE_FILE_NODES:
        level += 1
    return level


@dataclass(frozen=True)
class TreeFile:
    """The nodes at ``level`` of the tree of ``tree_size`` leaves, left to right."""

    tree_size: int
    level: int
    nodes: tuple[bytes, ...]

    def text(self) -> str:
        head = f"{_TREE_FILE_MAGIC}\n{self.tree_size} {self.level}\n"
        return head + "".join(f"{node.hex()}\n" for node in self.nodes)

    @classmethod
    def parse(cls, text: str) -> TreeFile:
        lines = text.split("\n")
        if len(lines) < 3 or lines[0] != _TREE_FILE_MAGIC or lines[-1] != "":
            raise ValueError(f"a tree file starts with {_TREE_FILE_MAGIC!r}")
        size_text, _, level_text = lines[1].partition(" ")
        if not (size_text.isdigit() and level_text.isdigit()) or int(level_text) > 64:
            raise ValueError("a tree file's second line is its tree size and level")
        try:
            nodes = tuple(bytes.fromhex(line) for line in lines[2:-1])
        except ValueError:
            raise ValueError("a tree file's nodes are 64 hex digits a line") from None
        if any(len(node) != merkle.HASH_SIZE for node in nodes):
            raise ValueError("a tree file's nodes are 64 hex digits a line")
        return cls(int(size_text), int(level_text), nodes)

    def proves(self, body: CheckpointBody) -> bool:
        """Whether these are the nodes of the signed tree: its size, and their MTH is its root."""
        width = 1 << self.level
        return (
            self.tree_size == body.tree_size
            and len(self.nodes) == -(-body.tree_size // width)
            and merkle.root_of(self.nodes, len(self.nodes)) == body.root
        )


def tree_file_of(reader: JournalReader, tree_size: int) -> TreeFile:
    level = tree_file_level(tree_size)
    nodes = merkle.level_roots(journal_leaves(reader, tree_size), tree_size, level)
    return TreeFile(tree_size, level, tuple(nodes))


@dataclass(frozen=True)
class TreeFinding:
    """A journal that fails a checkpoint: the first entry that differs from the signed tree is among
    seq ``first`` … ``last`` (one seq when it is known exactly)."""

    first: int
    last: int
    tree_size: int
    expected: str | None = None
    """The signed root (hex), when the journal's root at that size differs from it."""
    found: str | None = None
    truncated: bool = False
    """The journal ends before the checkpoint's tree size."""

    @property
    def reason(self) -> str:
        if self.truncated:
            return (
                f"journal ends at seq {self.first - 1}: it no longer extends the signed checkpoint "
                f"of size {self.tree_size}"
            )
        if self.first == self.last:
            return (
                f"history rewritten: entry {self.first} is not the leaf the signed checkpoint of size "
                f"{self.tree_size} holds"
            )
        return (
            f"history rewritten: the first {self.tree_size} entries do not have the signed root; the first "
            f"that differs is among seq {self.first}-{self.last}"
        )


def check_checkpoint(
    reader: JournalReader, body: CheckpointBody, journal_size: int, tree_file: TreeFile | None = None
) -> TreeFinding | None:
    """None when the journal's tree at ``body.tree_size`` has the signed root and its whole tree is
    consistent with it; else where the journal departs. One pass over the leaves (each hashed once:
    the consistency proof's subtrees cover the tree, and both roots fold from them), another to
    locate a difference. Raises ``merkle.ShortTree`` or ``journal.tree.BadLeaf`` for a journal whose
    leaves cannot be read as a tree (a gap, a malformed hash), which the chain check reports."""
    old = body.tree_size
    if old > journal_size:
        # a removed tail, unless the tree file names an entry it still holds that differs (a row deleted
        # in the middle, the rest renumbered and rechained)
        found = _first_block(reader, body, journal_size, tree_file)
        if found is not None:
            return TreeFinding(*found, old, body.root.hex())
        return TreeFinding(journal_size + 1, journal_size + 1, old, truncated=True)
    proof = merkle.prove_consistency(journal_leaves(reader, journal_size), old, journal_size)
    at_old, path = proof.old_root, proof.path
    if at_old == body.root and merkle.verify_consistency(old, journal_size, body.root, proof.root, path):
        return None
    found = _first_block(reader, body, old, tree_file) if at_old != body.root else None
    first, last = found or (1, old)
    return TreeFinding(first, last, old, body.root.hex(), at_old.hex())


def _first_block(
    reader: JournalReader, body: CheckpointBody, size: int, tree_file: TreeFile | None
) -> tuple[int, int] | None:
    """The first and last seq of the first block (one entry at level 0) whose node in ``tree_file`` the
    journal's first ``size`` leaves do not give; None without a tree file that proves ``body``, or when
    they all agree. Of a journal shorter than the signed tree, only the blocks it covers whole compare."""
    if tree_file is None or not tree_file.proves(body):
        return None
    old, width = body.tree_size, 1 << tree_file.level
    nodes = merkle.level_roots(journal_leaves(reader, size), size, tree_file.level)
    whole = len(nodes) if size == old else size // width
    index = next((i for i in range(whole) if nodes[i] != tree_file.nodes[i]), None)
    return None if index is None else (index * width + 1, min((index + 1) * width, old))

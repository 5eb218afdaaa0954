"""The Merkle tree of RFC 6962 §2.1 / RFC 9162 §2.1 over a stream of leaf hashes, and its two proofs.

``MTH({}) = SHA-256()``, a leaf is ``SHA-256(0x00 ‖ data)``, a node ``SHA-256(0x01 ‖ left ‖ right)``, and
a tree of n > 1 leaves splits at the largest power of two below n. Pure functions: the tree is never
held. A proof names O(log n) subtrees (disjoint ranges of leaves); one pass over the leaf hashes computes
the root of each with a stack of perfect subtrees, so memory is O(log n) (plus one ``CHUNK`` of leaves)
and hashing O(n). That is what proving anything about a journal costs without storing a tree beside it,
which the append-only journal deliberately does not do.

The proof algorithms are RFC 9162 §2.1.3 (inclusion: the audit path ``PATH``) and §2.1.4 (consistency:
``PROOF``/``SUBPROOF``); the verifiers follow §2.1.3.2 and §2.1.4.2 step by step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, repeat

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()
"""MTH of the empty tree: SHA-256 of no bytes."""

CHUNK = 4096
"""Leaf hashes taken from the stream at a time, and the perfect subtree hashed in one go: level by level
with ``map`` over whole lists, which costs a third less than pushing leaves one by one."""

_sha256 = hashlib.sha256
_digest = type(hashlib.sha256()).digest
_join = b"".join
_LEAF = b"\x00"
_NODE = b"\x01"

_Range = tuple[int, int]
"""Leaves ``[start, end)`` by index (the leaf of journal seq s has index s - 1)."""


class ShortTree(ValueError):
    """The stream ended before the tree size asked for: ``found`` leaves only."""

    def __init__(self, found: int, wanted: int) -> None:
        super().__init__(f"the tree has {found} leaves, not {wanted}")
        self.found = found
        self.wanted = wanted


def leaf_hash(data: bytes) -> bytes:
    return _sha256(_LEAF + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return _sha256(_NODE + left + right).digest()


def leaf_hashes(datas: Iterable[bytes]) -> Iterator[bytes]:
    """The leaf hash of each datum, a chunk at a time (C-level ``map``, no Python frame per leaf)."""
    source = iter(datas)
    while chunk := list(islice(source, CHUNK)):
        yield from map(_digest, map(_sha256, map(_join, zip(repeat(_LEAF), chunk))))


def _largest_power_below(n: int) -> int:
    """The k of RFC 9162's split: the largest power of two smaller than ``n`` (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def _perfect_root(hashes: Sequence[bytes]) -> bytes:
    """MTH of a power-of-two count of leaf (or node) hashes, level by level."""
    level = list(hashes)
    while len(level) > 1:
        level = list(map(_digest, map(_sha256, map(_join, zip(repeat(_NODE), level[0::2], level[1::2])))))
    return level[0]


class _RangeHasher:
    """MTH of consecutive hashes fed in order. The stack holds perfect subtrees of strictly decreasing
    size, the binary decomposition of the count so far; folding it from the right at the end gives
    RFC 9162's split at the largest power of two, for any count."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, bytes]] = []
        self.pending: list[bytes] = []

    def _push(self, size: int, digest: bytes) -> None:
        stack = self.stack
        while stack and stack[-1][0] == size:
            digest = node_hash(stack.pop()[1], digest)
            size *= 2
        stack.append((size, digest))

    def add(self, hashes: Sequence[bytes]) -> None:
        pending = self.pending
        pending.extend(hashes)
        if len(pending) < CHUNK:
            return
        whole = len(pending) - len(pending) % CHUNK
        for start in range(0, whole, CHUNK):
            self._push(CHUNK, _perfect_root(pending[start : start + CHUNK]))
        del pending[:whole]

    def root(self) -> bytes:
        """The root; the count so far is a multiple of CHUNK, so the tail splits into perfect subtrees
        by the binary digits of its length, largest first, each aligned on its own size."""
        start, rest = 0, self.pending
        while start < len(rest):
            size = 1 << ((len(rest) - start).bit_length() - 1)
            self._push(size, _perfect_root(rest[start : start + size]))
            start += size
        self.pending = []
        if not self.stack:
            return EMPTY_ROOT
        digest = self.stack[-1][1]
        for _, left in reversed(self.stack[:-1]):
            digest = node_hash(left, digest)
        return digest


def _chunks(hashes: Iterable[bytes], size: int) -> Iterator[tuple[int, list[bytes]]]:
    """The first ``size`` hashes, ``CHUNK`` at a time, each chunk with the index of its first hash.
    Raises ``ShortTree`` when the stream has fewer than ``size``."""
    source = iter(hashes)
    position = 0
    while position < size:
        chunk = list(islice(source, min(CHUNK, size - position)))
        if not chunk:
            raise ShortTree(position, size)
        yield position, chunk
        position += len(chunk)


def range_roots(hashes: Iterable[bytes], size: int, ranges: Sequence[_Range]) -> list[bytes]:
    """MTH of each range of leaves, in one pass over the first ``size`` leaf hashes (ranges may
    overlap; a leaf is hashed once per range that holds it). Raises ``ShortTree`` when the stream has
    fewer than ``size``."""
    hashers = [_RangeHasher() for _ in ranges]
    for position, chunk in _chunks(hashes, size):
        end = position + len(chunk)
        for (start, stop), hasher in zip(ranges, hashers, strict=True):
            if start < end and stop > position:
                hasher.add(chunk[max(start, position) - position : min(stop, end) - position])
    return [hasher.root() for hasher in hashers]


def root_of(hashes: Iterable[bytes], size: int) -> bytes:
    """MTH of the first ``size`` leaf hashes."""
    return range_roots(hashes, size, [(0, size)])[0]


def level_roots(hashes: Iterable[bytes], size: int, level: int) -> list[bytes]:
    """The roots of consecutive aligned blocks of ``2**level`` leaves (the last one may be short): the
    nodes at that height of the tree of ``size`` leaves, in one pass. Their own MTH, taken as leaf
    hashes (``root_of(nodes, len(nodes))``), is the tree's root: the split of a tree of more than one
    block falls on a block boundary."""
    width = 1 << level
    roots: list[bytes] = []
    hasher, filled = _RangeHasher(), 0
    for _, chunk in _chunks(hashes, size):
        taken = 0
        while taken < len(chunk):
            step = min(width - filled, len(chunk) - taken)
            hasher.add(chunk[taken : taken + step])
            filled += step
            taken += step
            if filled == width:
                roots.append(hasher.root())
                hasher, filled = _RangeHasher(), 0
    if filled:
        roots.append(hasher.root())
    return roots


def inclusion_ranges(index: int, size: int) -> list[_Range]:
    """RFC 9162 §2.1.3.1 ``PATH(m, D[n])``: the subtrees whose roots form the audit path of leaf
    ``index``, deepest first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    ranges: list[_Range] = []
    start, end = 0, size
    while end - start > 1:
        k = _largest_power_below(end - start)
        if index < start + k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            start += k
    return ranges[::-1]


def consistency_ranges(old_size: int, size: int) -> list[_Range]:
    """RFC 9162 §2.1.4.1 ``PROOF(m, D[n]) = SUBPROOF(m, D[n], true)`` for 0 < m < n: the subtrees whose
    roots form the consistency proof, deepest first."""
    if not 0 < old_size < size:
        raise ValueError(f"no consistency proof from size {old_size} to size {size}")
    ranges: list[_Range] = []
    start, end, m, whole = 0, size, old_size, True
    while m != end - start:
        k = _largest_power_below(end - start)
        if m <= k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            m -= k
            start += k
            whole = False
    if not whole:
        ranges.append((start, end))
    return ranges[::-1]


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


@dataclass(frozen=True)
class InclusionProof:
    index: int
    tree_size: int
    leaf_hash: bytes
    root: bytes
    path: tuple[bytes, ...]


@dataclass(frozen=True)
class ConsistencyProof:
    old_size: int
    tree_size: int
    old_root: bytes
    root: bytes
    path: tuple[bytes, ...]


def prove_inclusion(hashes: Iterable[bytes], index: int, size: int) -> InclusionProof:
    """The audit path of leaf ``index`` in the tree of the first ``size`` leaves, in one pass. The
    root is folded from the leaf and the path (the same hashes MTH would compute, taken once)."""
    ranges = inclusion_ranges(index, size)
    roots = range_roots(hashes, size, [(index, index + 1), *ranges])
    leaf, path = roots[0], tuple(roots[1:])
    root = root_from_inclusion(index, size, leaf, path)
    assert root is not None
    return InclusionProof(index, size, leaf, root, path)


def prove_consistency(hashes: Iterable[bytes], old_size: int, size: int) -> ConsistencyProof:
    """The consistency proof from the tree of ``old_size`` leaves to the tree of ``size``, both roots
    included, in one pass."""
    if not 0 <= old_size <= size:
        raise ValueError(f"no consistency proof from size {old_size} to size {size}")
    if old_size in (0, size):
        root = root_of(hashes, size)
        return ConsistencyProof(old_size, size, EMPTY_ROOT if old_size == 0 else root, root, ())
    ranges = consistency_ranges(old_size, size)
    extra = [(0, old_size)] if _is_power_of_two(old_size) else []  # the old root is not in the path then
    roots = range_roots(hashes, size, [*ranges, *extra])
    path = tuple(roots[: len(ranges)])
    seed = roots[-1] if extra else path[0]
    folded = _roots_from_consistency(old_size, size, path, seed)
    assert folded is not None
    return ConsistencyProof(old_size, size, folded[0], folded[1], path)


def _sides(fn: int, sn: int, count: int) -> list[bool] | None:
    """RFC 9162's walk up the tree (§2.1.3.2, §2.1.4.2) from node ``fn``, ``sn`` the last: for each of
    ``count`` path hashes, whether it is a left sibling; None when the path does not fit the sizes."""
    sides = []
    for _ in range(count):
        if sn == 0:
            return None
        sides.append(bool(fn & 1) or fn == sn)
        if sides[-1]:
            while not fn & 1 and fn != 0:  # ii / iii: until LSB(fn) is set or fn is 0
                fn >>= 1
                sn >>= 1
        fn >>= 1
        sn >>= 1
    return sides if sn == 0 else None


def root_from_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes]) -> bytes | None:
    """RFC 9162 §2.1.3.2 steps 1-5, without the final comparison: the root, or None when the path
    does not fit the index and size."""
    sides = _sides(index, size - 1, len(path)) if 0 <= index < size else None
    if sides is None:
        return None
    r = leaf
    for p, left in zip(path, sides, strict=True):
        r = node_hash(p, r) if left else node_hash(r, p)
    return r


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2: whether ``path`` proves leaf hash ``leaf`` at ``index`` in the tree of
    ``size`` leaves whose root is ``root``."""
    if any(len(p) != HASH_SIZE for p in path) or len(leaf) != HASH_SIZE:
        return False
    return root_from_inclusion(index, size, leaf, path) == root


def _roots_from_consistency(
    old_size: int, size: int, path: Sequence[bytes], seed: bytes
) -> tuple[bytes, bytes] | None:
    """RFC 9162 §2.1.4.2 steps 2-6 for 0 < old_size < size: the (old, new) roots the path folds to,
    ``seed`` being the old root when old_size is a power of two (step 2 prepends it), else the path's
    first hash; None when the path does not fit the sizes."""
    hashes = [seed, *path] if _is_power_of_two(old_size) else list(path)
    if not hashes:
        return None
    fn, sn = old_size - 1, size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    sides = _sides(fn, sn, len(hashes) - 1)
    if sides is None:
        return None
    fr = sr = hashes[0]
    for c, left in zip(hashes[1:], sides, strict=True):
        fr = node_hash(c, fr) if left else fr
        sr = node_hash(c, sr) if left else node_hash(sr, c)
    return fr, sr


def verify_consistency(old_size: int, size: int, old_root: bytes, root: bytes, path: Sequence[bytes]) -> bool:
    """RFC 9162 §2.1.4.2: whether ``path`` proves that the tree of ``size`` leaves with root ``root``
    extends the tree of ``old_size`` leaves with root ``old_root``. The trivial cases take an empty
    path: equal sizes need equal roots, and the empty tree's root is SHA-256 of nothing."""
    if not 0 <= old_size <= size or any(len(c) != HASH_SIZE for c in path):
        return False
    if old_size == 0:
        return not path and old_root == EMPTY_ROOT
    if old_size == size:
        return not path and old_root == root
    if not path:  # step 1
        return False
    return _roots_from_consistency(old_size, size, path, old_root) == (old_root, root)

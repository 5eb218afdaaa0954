"""The Merkle tree of ``journal.merkle`` is RFC 9162's: it reproduces the published Certificate
Transparency test vectors, every proof it makes verifies, and a proof about one tree fails for a tree with
any leaf changed.

Vectors: the 8-leaf tree of the CT reference implementation, as kept in Go's
``github.com/transparency-dev/merkle`` (``testonly/constants.go``: leaf inputs, node hashes, roots of every
size; ``proof/verify_test.go``: inclusion and consistency proofs, and the ways of corrupting them that a
verifier must refuse).
"""

from __future__ import annotations

import hashlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from journal import merkle

LEAF_INPUTS = [
    bytes.fromhex(text)
    for text in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
LEAVES = [merkle.leaf_hash(data) for data in LEAF_INPUTS]

ROOTS = [  # RootHashes(): index = tree size
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]

NODE_HASHES = [  # NodeHashes(): the complete subtrees of the 8-leaf tree, level by level
    [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
        "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
        "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
        "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
    ],
    [
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    ],
    [
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
    ["5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"],
]

INCLUSION = [  # (leaf number counted from 1, tree size, path)
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        2,
        5,
        [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]

CONSISTENCY = [  # (old size, size, path)
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        6,
        7,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
]

SOME_HASH = bytes.fromhex("abacaba000000000000000000000000000000000000000000060061e00123456")


def _hashes(texts: list[str]) -> list[bytes]:
    return [bytes.fromhex(text) for text in texts]


def _root(size: int) -> bytes:
    return bytes.fromhex(ROOTS[size])


# --- a reference: RFC 9162 §2.1.1, §2.1.3.1 and §2.1.4.1 written as the recursions they are -----------


def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _mth(hashes: list[bytes]) -> bytes:
    if not hashes:
        return hashlib.sha256(b"").digest()
    if len(hashes) == 1:
        return hashes[0]
    k = _k(len(hashes))
    return merkle.node_hash(_mth(hashes[:k]), _mth(hashes[k:]))


def _path(m: int, hashes: list[bytes]) -> list[bytes]:
    if len(hashes) <= 1:
        return []
    k = _k(len(hashes))
    if m < k:
        return [*_path(m, hashes[:k]), _mth(hashes[k:])]
    return [*_path(m - k, hashes[k:]), _mth(hashes[:k])]


def _subproof(m: int, hashes: list[bytes], whole: bool) -> list[bytes]:
    if m == len(hashes):
        return [] if whole else [_mth(hashes)]
    k = _k(len(hashes))
    if m <= k:
        return [*_subproof(m, hashes[:k], whole), _mth(hashes[k:])]
    return [*_subproof(m - k, hashes[k:], False), _mth(hashes[:k])]


# --- the published vectors ---------------------------------------------------------------------


def test_leaf_and_empty_tree_hashes() -> None:
    assert merkle.EMPTY_ROOT.hex() == ROOTS[0]
    assert [leaf.hex() for leaf in LEAVES] == NODE_HASHES[0]
    assert list(merkle.leaf_hashes(LEAF_INPUTS)) == LEAVES


@pytest.mark.parametrize("size", range(len(ROOTS)))
def test_root_of_every_size(size: int) -> None:
    assert merkle.root_of(LEAVES, size).hex() == ROOTS[size]


@pytest.mark.parametrize("level", range(4))
def test_the_nodes_of_every_level(level: int) -> None:
    assert [node.hex() for node in merkle.level_roots(LEAVES, 8, level)] == NODE_HASHES[level]


@pytest.mark.parametrize(("number", "size", "path"), INCLUSION)
def test_inclusion_vectors(number: int, size: int, path: list[str]) -> None:
    proof = merkle.prove_inclusion(LEAVES, number - 1, size)
    assert [node.hex() for node in proof.path] == path
    assert proof.root == _root(size) and proof.leaf_hash == LEAVES[number - 1]
    assert merkle.verify_inclusion(LEAVES[number - 1], number - 1, size, _hashes(path), _root(size))


@pytest.mark.parametrize(("number", "size", "path"), INCLUSION[1:])
def test_corrupted_inclusion_proofs_fail(number: int, size: int, path: list[str]) -> None:
    """The probes of ``corruptInclusionProof``: none may verify."""
    index, leaf, root, good = number - 1, LEAVES[number - 1], _root(size), _hashes(path)
    probes: list[tuple[int, int, bytes, bytes, list[bytes]]] = [
        (index - 1, size, leaf, root, good),
        (index + 1, size, leaf, root, good),
        (index ^ 2, size, leaf, root, good),
        (index, size * 2, leaf, root, good),
        (index, size // 2, leaf, root, good),
        (index, size, b"WrongLeaf", root, good),
        (index, size, leaf, merkle.EMPTY_ROOT, good),
        (index, size, leaf, SOME_HASH, good),
        (index, size, leaf, root, [*good, b""]),
        (index, size, leaf, root, [*good, root]),
        (index, size, leaf, root, [b"", *good]),
        (index, size, leaf, root, [root, *good]),
        (index, size, leaf, root, good[:-1]),
    ]
    if len(good) > 1:
        probes.append((index, size, leaf, root, [good[0], SOME_HASH, *good[1:]]))
    for position in range(len(good)):
        flipped = list(good)
        flipped[position] = bytes([flipped[position][0] ^ 8]) + flipped[position][1:]
        probes.append((index, size, leaf, root, flipped))
    for probe_index, probe_size, probe_leaf, probe_root, probe_path in probes:
        assert not merkle.verify_inclusion(probe_leaf, probe_index, probe_size, probe_path, probe_root)


def test_inclusion_in_trivial_trees_fails() -> None:
    for index, size in ((0, 0), (1, 0), (2, 1)):
        assert not merkle.verify_inclusion(SOME_HASH, index, size, [], merkle.EMPTY_ROOT)
    assert merkle.verify_inclusion(SOME_HASH, 0, 1, [], SOME_HASH)
    assert not merkle.verify_inclusion(SOME_HASH, 0, 1, [], b"")


@pytest.mark.parametrize(("old", "size", "path"), CONSISTENCY)
def test_consistency_vectors(old: int, size: int, path: list[str]) -> None:
    proof = merkle.prove_consistency(LEAVES, old, size)
    assert [node.hex() for node in proof.path] == path
    assert (proof.old_root, proof.root) == (_root(old), _root(size))
    assert merkle.verify_consistency(old, size, _root(old), _root(size), _hashes(path))


@pytest.mark.parametrize(("old", "size", "path"), CONSISTENCY[1:])
def test_corrupted_consistency_proofs_fail(old: int, size: int, path: list[str]) -> None:
    """The probes of ``corruptConsistencyProof``: none may verify."""
    first, second, good = _root(old), _root(size), _hashes(path)
    probes: list[tuple[int, int, bytes, bytes, list[bytes]]] = [
        (old - 1, size, first, second, good),
        (old + 1, size, first, second, good),
        (old ^ 2, size, first, second, good),
        (old, size * 2, first, second, good),
        (old, size // 2, first, second, good),
        (old, size, b"WrongRoot", second, good),
        (old, size, first, b"WrongRoot", good),
        (old, size, second, first, good),
        (old, size, first, second, []),
        (old, size, first, second, [*good, b""]),
        (old, size, first, second, [*good, first]),
        (old, size, first, second, [*good, second]),
        (old, size, first, second, [b"", *good]),
        (old, size, first, second, [first, *good]),
        (old, size, first, second, [second, *good]),
        (old, size, first, second, [good[0], *good]),
        (old, size, first, second, good[:-1]),
    ]
    for position in range(len(good)):
        flipped = list(good)
        flipped[position] = bytes([flipped[position][0] ^ 16]) + flipped[position][1:]
        probes.append((old, size, first, second, flipped))
    for probe_old, probe_size, probe_first, probe_second, probe_path in probes:
        assert not merkle.verify_consistency(probe_old, probe_size, probe_first, probe_second, probe_path)


def test_trivial_consistency() -> None:
    """Equal sizes need equal roots and no path; the empty tree is a prefix of every tree, and its root
    is SHA-256 of nothing; a tree never shrinks."""
    empty = merkle.EMPTY_ROOT
    assert merkle.verify_consistency(0, 0, empty, empty, [])
    assert merkle.verify_consistency(0, 5, empty, _root(5), [])
    assert merkle.verify_consistency(3, 3, _root(3), _root(3), [])
    assert not merkle.verify_consistency(3, 3, _root(3), _root(4), [])
    assert not merkle.verify_consistency(0, 1, SOME_HASH, _root(1), [])
    assert not merkle.verify_consistency(1, 1, _root(1), _root(1), [empty])
    assert not merkle.verify_consistency(2, 1, _root(2), _root(1), [])
    assert not merkle.verify_consistency(1, 2, _root(1), _root(2), [])
    assert merkle.prove_consistency(LEAVES, 0, 8) == merkle.ConsistencyProof(0, 8, empty, _root(8), ())


def test_bad_arguments_and_short_streams() -> None:
    with pytest.raises(ValueError):
        merkle.prove_inclusion(LEAVES, 8, 8)
    with pytest.raises(ValueError):
        merkle.prove_consistency(LEAVES, 5, 4)
    with pytest.raises(merkle.ShortTree) as short:
        merkle.root_of(LEAVES, 9)
    assert (short.value.found, short.value.wanted) == (8, 9)
    with pytest.raises(merkle.ShortTree):
        merkle.level_roots(LEAVES, 20, 2)


# --- properties ----------------------------------------------------------------------------------

leaf_lists = st.lists(st.binary(max_size=8), min_size=1, max_size=70).map(
    lambda datas: [merkle.leaf_hash(data) for data in datas]
)


def _changed(hashes: list[bytes], position: int) -> list[bytes]:
    changed = list(hashes)
    changed[position] = merkle.leaf_hash(changed[position] + b"x")
    return changed


@given(leaf_lists, st.data())
def test_every_inclusion_proof_verifies_and_is_rfc_path(hashes: list[bytes], data: st.DataObject) -> None:
    """For any tree and leaf, the audit path is RFC 9162's PATH, verifies, is at most ⌈log2 n⌉ hashes
    long, and fails once any leaf of the tree is changed."""
    size = data.draw(st.integers(1, len(hashes)), label="size")
    index = data.draw(st.integers(0, size - 1), label="index")
    proof = merkle.prove_inclusion(hashes, index, size)
    assert list(proof.path) == _path(index, hashes[:size])
    assert proof.root == _mth(hashes[:size]) == merkle.root_of(hashes, size)
    assert len(proof.path) <= math.ceil(math.log2(size)) if size > 1 else not proof.path
    assert merkle.verify_inclusion(proof.leaf_hash, index, size, proof.path, proof.root)
    changed = _changed(hashes, data.draw(st.integers(0, size - 1), label="changed"))
    assert not merkle.verify_inclusion(
        proof.leaf_hash, index, size, proof.path, merkle.root_of(changed, size)
    )
    other = merkle.prove_inclusion(changed, index, size)
    assert not merkle.verify_inclusion(other.leaf_hash, index, size, other.path, proof.root)


@given(leaf_lists, st.data())
def test_every_consistency_proof_verifies_and_is_rfc_proof(hashes: list[bytes], data: st.DataObject) -> None:
    """For any two sizes, the consistency proof is RFC 9162's PROOF, verifies, is at most ⌈log2 n⌉ + 1
    hashes long, and fails when a leaf of the old tree changed."""
    size = data.draw(st.integers(1, len(hashes)), label="size")
    old = data.draw(st.integers(0, size), label="old")
    proof = merkle.prove_consistency(hashes, old, size)
    expected = _subproof(old, hashes[:size], True) if 0 < old < size else []
    assert list(proof.path) == expected
    assert (proof.old_root, proof.root) == (_mth(hashes[:old]), _mth(hashes[:size]))
    assert len(proof.path) <= math.ceil(math.log2(size)) + 1
    assert merkle.verify_consistency(old, size, proof.old_root, proof.root, proof.path)
    if old > 0:
        changed = _changed(hashes, data.draw(st.integers(0, old - 1), label="changed"))
        forged = merkle.prove_consistency(changed, old, size)
        assert not merkle.verify_consistency(old, size, proof.old_root, forged.root, forged.path)


@given(st.integers(1, 3 * merkle.CHUNK + 5), st.integers(0, 13))
def test_streaming_across_chunks_matches_the_recursion(size: int, level: int) -> None:
    """Streams longer than one chunk give the same roots, and the nodes of any level hash to the root."""
    hashes = [hashlib.sha256(index.to_bytes(4, "big")).digest() for index in range(size)]
    root = merkle.root_of(iter(hashes), size)
    assert root == _mth(hashes)
    nodes = merkle.level_roots(iter(hashes), size, level)
    assert len(nodes) == -(-size // (1 << level))
    assert merkle.root_of(nodes, len(nodes)) == root
    index = size // 3
    proof = merkle.prove_inclusion(iter(hashes), index, size)
    assert merkle.verify_inclusion(hashes[index], index, size, proof.path, root)

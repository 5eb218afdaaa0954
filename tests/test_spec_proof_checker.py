"""The proof checker printed in specs/journal-format.md §11.2 refuses forged proofs.

RFC 9162's algorithms bind a proof's path to the sizes, root and leaf the verifier brings: the same path
often folds to the same root under a neighbouring size, and a leaf taken from the proof can be an inner
node. So the checker takes the trusted size(s), root(s) and the entry's hash as inputs; each test below
first shows that the forgery gets past the bare RFC fold (it is a real one), then that the checker refuses it.
"""

from __future__ import annotations

import hashlib
import re
import types
from pathlib import Path
from typing import Any

import pytest

from journal import merkle

SPEC = Path(__file__).resolve().parent.parent / "specs" / "journal-format.md"
ENTRIES = [hashlib.sha256(b"entry %d" % seq).digest() for seq in range(1, 34)]
LEAVES = [merkle.leaf_hash(entry) for entry in ENTRIES]
SIZES = range(1, 33)


def _program() -> types.ModuleType:
    section = SPEC.read_text(encoding="utf-8").split("\n## 11. ", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, "§11 of journal-format.md holds one python block: the proof verifier"
    module = types.ModuleType("verify_proof")
    exec(compile(str(blocks[0]), "verify_proof.py", "exec"), module.__dict__)  # the spec's own program
    return module


P = _program()


def _root(size: int) -> bytes:
    return merkle.root_of(LEAVES[:size], size)


def _inclusion(seq: int, size: int) -> dict[str, Any]:
    """The JSON ``journal prove`` prints for entry ``seq`` of the tree of ``size``."""
    proof = merkle.prove_inclusion(LEAVES, seq - 1, size)
    return {
        "seq": seq,
        "tree_size": size,
        "entry_hash": ENTRIES[seq - 1].hex(),
        "leaf_hash": proof.leaf_hash.hex(),
        "root": proof.root.hex(),
        "path": [node.hex() for node in proof.path],
    }


def _consistency(old: int, size: int) -> dict[str, Any]:
    proof = merkle.prove_consistency(LEAVES, old, size)
    return {
        "old_size": old,
        "tree_size": size,
        "old_root": proof.old_root.hex(),
        "root": proof.root.hex(),
        "path": [node.hex() for node in proof.path],
    }


def _path(proof: dict[str, Any]) -> list[bytes]:
    return [bytes.fromhex(node) for node in proof["path"]]


def test_genuine_proofs_hold() -> None:
    for size in SIZES:
        for seq in range(1, size + 1):
            assert P.check_inclusion(_inclusion(seq, size), size, _root(size), ENTRIES[seq - 1]) is None
        for old in range(size + 1):
            old_root = merkle.EMPTY_ROOT if old == 0 else _root(old)
            assert P.check_consistency(_consistency(old, size), old, old_root, size, _root(size)) is None


def test_an_inclusion_proof_under_a_size_off_by_one_is_refused() -> None:
    folded = 0
    for size in SIZES:
        for seq in range(1, size + 1):
            genuine, entry, root = _inclusion(seq, size), ENTRIES[seq - 1], _root(size)
            for claimed in (size - 1, size + 1):
                forged = {**genuine, "tree_size": claimed}
                leaf = merkle.leaf_hash(entry)
                folded += P.inclusion_root(seq - 1, claimed, leaf, _path(genuine)) == root
                assert P.check_inclusion(forged, size, root, entry) is not None  # the signed size is size
                if claimed >= 1:  # the checkpoint of the claimed size has its own root
                    assert P.check_inclusion(forged, claimed, _root(claimed), entry) is not None
                    assert P.check_inclusion(genuine, claimed, root, entry) is not None
    assert folded > 100  # the bare fold accepts most of them: only the trusted size tells


def test_an_inner_node_passed_as_an_entry_is_refused() -> None:
    """Every inner node of the 16-entry tree, with its genuine path above it, under every seq and size the
    bare fold accepts against the 16-entry root; with or without ``entry_hash`` in the proof."""
    size, root, forgeries = 16, _root(16), 0
    for height in range(1, 4):
        width = 1 << height
        for first in range(0, size, width):
            inner = merkle.root_of(LEAVES[first : first + width], width)
            above = merkle.prove_inclusion(LEAVES, first, size).path[height:]
            for claimed_size in range(1, 2 * size):
                for seq in range(1, claimed_size + 1):
                    if P.inclusion_root(seq - 1, claimed_size, inner, list(above)) != root:
                        continue
                    forgeries += 1
                    forged = {
                        "seq": seq,
                        "tree_size": claimed_size,
                        "leaf_hash": inner.hex(),
                        "root": root.hex(),
                        "path": [node.hex() for node in above],
                    }
                    for trusted_size in {size, claimed_size}:
                        for entry in ENTRIES[:size]:
                            assert P.check_inclusion(forged, trusted_size, root, entry) is not None
                        del forged["leaf_hash"]
                        assert P.check_inclusion(forged, trusted_size, root, ENTRIES[0]) is not None
                        forged["leaf_hash"] = inner.hex()
    assert forgeries >= 6


@pytest.mark.parametrize("size", [5, 16, 17, 32])
def test_a_wrong_path_or_entry_is_refused(size: int) -> None:
    root = _root(size)
    for seq in range(1, size + 1):
        genuine, entry = _inclusion(seq, size), ENTRIES[seq - 1]
        other = ENTRIES[seq % size] if size > 1 else ENTRIES[1]
        assert P.check_inclusion(genuine, size, root, other) is not None
        bare = {key: value for key, value in genuine.items() if key not in ("entry_hash", "leaf_hash")}
        assert P.check_inclusion(bare, size, root, entry) is None
        assert P.check_inclusion(bare, size, root, other) is not None
        for position in range(len(genuine["path"])):
            path = list(genuine["path"])
            path[position] = hashlib.sha256(path[position].encode()).hexdigest()
            assert P.check_inclusion({**genuine, "path": path}, size, root, entry) is not None
        for path in (genuine["path"][:-1], [*genuine["path"], root.hex()], genuine["path"][::-1]):
            if path != genuine["path"]:
                assert P.check_inclusion({**genuine, "path": path}, size, root, entry) is not None


def test_a_consistency_proof_under_sizes_off_by_one_is_refused() -> None:
    folded = 0
    for size in SIZES:
        for old in range(1, size):
            genuine, old_root, root = _consistency(old, size), _root(old), _root(size)
            for claimed_old, claimed in ((old - 1, size), (old + 1, size), (old, size - 1), (old, size + 1)):
                if not 0 < claimed_old < claimed:
                    continue
                forged = {**genuine, "old_size": claimed_old, "tree_size": claimed}
                folded += P.consistency_roots(claimed_old, claimed, old_root, _path(genuine)) == (
                    old_root,
                    root,
                )
                assert P.check_consistency(forged, old, old_root, size, root) is not None
                trusted = (claimed_old, _root(claimed_old), claimed, _root(claimed))
                assert P.check_consistency(forged, *trusted) is not None
                assert P.check_consistency(genuine, *trusted) is not None
    assert folded > 50  # the bare fold accepts many of them: only the trusted sizes tell


@pytest.mark.parametrize("size", [6, 16, 17, 32])
def test_a_consistency_proof_with_a_wrong_path_or_root_is_refused(size: int) -> None:
    root = _root(size)
    for old in range(1, size):
        genuine, old_root = _consistency(old, size), _root(old)
        for position in range(len(genuine["path"])):
            path = list(genuine["path"])
            path[position] = hashlib.sha256(path[position].encode()).hexdigest()
            assert P.check_consistency({**genuine, "path": path}, old, old_root, size, root) is not None
        assert P.check_consistency({**genuine, "path": []}, old, old_root, size, root) is not None
        assert P.check_consistency(genuine, old, root, size, root) is not None
        assert P.check_consistency(genuine, old, old_root, size, old_root) is not None
    empty = _consistency(0, size)
    assert P.check_consistency(empty, 0, merkle.EMPTY_ROOT, size, root) is None
    assert P.check_consistency({**empty, "old_root": root.hex()}, 0, root, size, root) is not None

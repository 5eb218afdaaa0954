"""The spec's proof checker (specs/journal-format.md §11.2) refuses forged proofs, not only broken ones.

Each forgery is one a sender could make from genuine proofs without breaking SHA-256: a size off by one
either way (the path may still fold to the root), an internal node sent as the leaf with a shorter path and a
smaller size (it folds to the real root), a changed path element, another entry's leaf, another old tree.
The checker takes what it must show from the auditor, so each is refused; the genuine proofs still pass.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from journal import merkle

SPEC = Path(__file__).resolve().parent.parent / "specs" / "journal-format.md"
SIZE = 16
ENTRIES = [hashlib.sha256(f"entry {seq}".encode()).digest() for seq in range(1, 2 * SIZE + 2)]
LEAVES = [merkle.leaf_hash(entry) for entry in ENTRIES]


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    section = SPEC.read_text(encoding="utf-8").split("\n## 11. ", 1)[1].split("\n## ", 1)[0]
    block = section.split("```python\n", 1)[1].split("\n```", 1)[0]
    path = tmp_path_factory.mktemp("proof") / "verify_proof.py"
    path.write_text(block, encoding="utf-8")
    return path


def _inclusion(seq: int, size: int) -> dict[str, Any]:
    proof = merkle.prove_inclusion(LEAVES, seq - 1, size)
    return {
        "seq": seq,
        "tree_size": size,
        "entry_hash": ENTRIES[seq - 1].hex(),
        "leaf_hash": proof.leaf_hash.hex(),
        "root": proof.root.hex(),
        "path": [node.hex() for node in proof.path],
    }


def _consistency(old_size: int, size: int) -> dict[str, Any]:
    proof = merkle.prove_consistency(LEAVES, old_size, size)
    return {
        "old_size": old_size,
        "tree_size": size,
        "old_root": proof.old_root.hex(),
        "root": proof.root.hex(),
        "path": [node.hex() for node in proof.path],
    }


def _root(size: int) -> str:
    return merkle.root_of(LEAVES, size).hex()


def _check(program: Path, tmp_path: Path, proof: dict[str, Any], *trusted: object) -> tuple[int, str]:
    file = tmp_path / "proof.json"
    file.write_text(json.dumps(proof), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(program), str(file), *map(str, trusted)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout


@pytest.mark.parametrize("seq", [1, 2, 7, 16])
def test_a_genuine_inclusion_proof_holds(program: Path, tmp_path: Path, seq: int) -> None:
    code, out = _check(program, tmp_path, _inclusion(seq, SIZE), SIZE, _root(SIZE), ENTRIES[seq - 1].hex())
    assert (code, out.split(" ")[0]) == (0, "OK"), out


@pytest.mark.parametrize("seq", [1, 5, 9, 16])
@pytest.mark.parametrize("delta", [-1, 1])
def test_an_inclusion_proof_with_its_size_off_by_one_is_refused(
    program: Path, tmp_path: Path, seq: int, delta: int
) -> None:
    """The sender's size is taken for the proof's and the path reused (the old checker folded the path with
    the proof's own size and accepted most of these): the auditor's size refuses every one."""
    forged = _inclusion(seq, SIZE) | {"tree_size": SIZE + delta}
    code, out = _check(program, tmp_path, forged, SIZE, _root(SIZE), ENTRIES[seq - 1].hex())
    assert code == 1 and out.startswith("BAD "), out


def test_an_internal_node_sent_as_a_leaf_is_refused(program: Path, tmp_path: Path) -> None:
    """node(leaf 1, leaf 2) as the leaf of "entry 1" in a tree of 8, with entry 1's path less its first
    step, folds to the root of the 16-leaf tree; without the entry's hash the old checker accepted it."""
    genuine = _inclusion(1, SIZE)
    internal = merkle.node_hash(LEAVES[0], LEAVES[1]).hex()
    forged = {
        "seq": 1,
        "tree_size": 8,
        "leaf_hash": internal,
        "root": genuine["root"],
        "path": genuine["path"][1:],
    }
    folded = merkle.root_from_inclusion(
        0, 8, bytes.fromhex(internal), [bytes.fromhex(p) for p in forged["path"]]
    )
    assert folded is not None and folded.hex() == _root(SIZE)  # the forgery is a real one
    for trusted in ((SIZE, _root(SIZE), ENTRIES[0].hex()), (8, _root(SIZE), ENTRIES[0].hex())):
        code, out = _check(program, tmp_path, forged, *trusted)
        assert code == 1 and out.startswith("BAD "), (trusted, out)


def test_a_changed_path_or_another_entry_is_refused(program: Path, tmp_path: Path) -> None:
    genuine = _inclusion(5, SIZE)
    bent = genuine | {"path": [("0" if genuine["path"][0][0] != "0" else "1") + genuine["path"][0][1:]]}
    bent["path"] += genuine["path"][1:]
    assert _check(program, tmp_path, bent, SIZE, _root(SIZE), ENTRIES[4].hex())[0] == 1
    assert (
        _check(program, tmp_path, genuine, SIZE, _root(SIZE), ENTRIES[5].hex())[0] == 1
    )  # not entry 6's proof
    unbound = {key: value for key, value in genuine.items() if key != "entry_hash"}
    assert _check(program, tmp_path, unbound, SIZE, _root(SIZE), ENTRIES[4].hex())[0] == 0
    assert _check(program, tmp_path, unbound, SIZE, _root(SIZE), ENTRIES[3].hex())[0] == 1


@pytest.mark.parametrize(("old_size", "size"), [(1, 16), (3, 16), (5, 13), (8, 16), (7, 31), (12, 17)])
def test_consistency_proofs_hold_and_refuse_forged_sizes(
    program: Path, tmp_path: Path, old_size: int, size: int
) -> None:
    genuine = _consistency(old_size, size)
    trusted = (size, _root(size), old_size, _root(old_size))
    assert _check(program, tmp_path, genuine, *trusted)[0] == 0
    for forged in (
        genuine | {"tree_size": size + 1},
        genuine | {"tree_size": size - 1},
        genuine | {"old_size": old_size + 1},
        genuine | {"old_size": old_size - 1},
    ):
        code, out = _check(program, tmp_path, forged, *trusted)
        assert code == 1 and out.startswith("BAD "), (forged, out)
    # the sender's sizes and roots, not the auditor's: another old tree is not the trusted one
    other = (size, _root(size), old_size + 1, _root(old_size + 1))
    assert _check(program, tmp_path, genuine, *other)[0] == 1
    bent = genuine | {"path": [genuine["path"][0][::-1], *genuine["path"][1:]]}
    assert _check(program, tmp_path, bent, *trusted)[0] == 1


def test_the_trusted_tree_is_required(program: Path, tmp_path: Path) -> None:
    """Nothing a proof is asked to show may be left to the proof: without the auditor's values, usage (2)."""
    assert _check(program, tmp_path, _inclusion(1, SIZE))[0] == 2
    assert _check(program, tmp_path, _inclusion(1, SIZE), SIZE, _root(SIZE))[0] == 2
    assert _check(program, tmp_path, _consistency(3, SIZE), SIZE, _root(SIZE), ENTRIES[0].hex())[0] == 2

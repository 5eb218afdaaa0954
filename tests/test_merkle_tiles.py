"""Merkle tiles (``journal/tiles.py``, ``journal.tree.TiledTree``, revision 0008): the writer stores the
root of every complete block of 4096 leaves; an inclusion proof read through them equals the one computed
from every leaf, reads at most two tiles' worth of leaves, and verification catches a tampered tile."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from journal_helpers import make_clock, reader_of, verify, write_cell
from sqlalchemy import text
from strategies import VOUCHED

from journal import merkle
from journal.engine import open_engine
from journal.migrate import upgrade_to_head
from journal.reader import JournalReader
from journal.tiles import TILE, tiles_completed
from journal.tree import TiledTree, journal_leaves
from kernel.protocols import StorageError
from syscalls.boot import open_kernel

SIZE = 2 * TILE + 300


@pytest.fixture(scope="module")
def journal_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal of SIZE entries, written by single calls and by batches that cross tile boundaries."""
    path = tmp_path_factory.mktemp("tiles") / "j.db"
    kernel = open_kernel(str(path), clock=make_clock(), identity=VOUCHED, create=True)
    try:
        written = 0
        while written < SIZE:
            count = min(997, SIZE - written) if written % 2 == 0 else 1
            calls = [
                ("kernel.record", {"kind": "tick", "payload": written + i}, "operator:t")
                for i in range(count)
            ]
            if count == 1:
                assert kernel.call(*calls[0][:2], principal=calls[0][2]).ok
            else:
                assert all(result.ok for result in kernel.call_many(calls))
            written += count
    finally:
        kernel.close()
    return path


def _stored(path: Path) -> dict[int, str]:
    with sqlite3.connect(path) as connection:
        return dict(connection.execute("SELECT tile, root FROM merkle_tiles ORDER BY tile").fetchall())


def test_the_writer_stores_every_complete_tile(journal_db: Path) -> None:
    with reader_of(journal_db) as reader:
        leaves = list(journal_leaves(reader, SIZE))
    expected = {
        tile: merkle.root_of(leaves[tile * TILE : (tile + 1) * TILE], TILE).hex() for tile in range(2)
    }
    assert _stored(journal_db) == expected


@pytest.mark.parametrize("size", [1, 2, TILE - 1, TILE, TILE + 1, 2 * TILE, SIZE])
def test_tiled_proofs_equal_proofs_over_every_leaf(journal_db: Path, size: int) -> None:
    with reader_of(journal_db) as reader:
        leaves = list(journal_leaves(reader, size))
        tree = TiledTree(reader, size)
        for index in sorted(
            {0, size // 2, size - 1, min(1, size - 1), min(TILE, size - 1), min(TILE - 1, size - 1)}
        ):
            expected = merkle.prove_inclusion(leaves, index, size)
            proof = tree.prove_inclusion(index)
            assert proof == expected
            assert merkle.verify_inclusion(proof.leaf_hash, index, size, proof.path, proof.root)
        assert tree.root(0, size) == merkle.root_of(leaves, size)


def test_a_proof_reads_at_most_two_tiles_of_leaves(journal_db: Path) -> None:
    with reader_of(journal_db) as reader:
        for index in (0, TILE + 5, SIZE - 1):
            tree = TiledTree(reader, SIZE)
            tree.prove_inclusion(index)
            assert tree.leaves_read <= 2 * TILE
        untiled = TiledTree(reader, SIZE, use_tiles=False)
        untiled.prove_inclusion(0)
        assert untiled.leaves_read == SIZE - 1 + 1


def test_tiles_completed_names_each_boundary_once() -> None:
    assert list(tiles_completed(0, TILE - 1)) == []
    assert list(tiles_completed(TILE - 1, TILE)) == [0]
    assert list(tiles_completed(TILE, 3 * TILE)) == [1, 2]
    assert list(tiles_completed(3 * TILE, 3 * TILE + 5)) == []


@pytest.mark.parametrize("replay", [False, True])
def test_a_tampered_tile_fails_verification_and_its_proofs(
    journal_db: Path, tmp_path: Path, replay: bool
) -> None:
    path = tmp_path / "tampered.db"
    with sqlite3.connect(journal_db) as source, sqlite3.connect(path) as target:
        source.backup(target)
    assert verify(path, replay=replay).verified
    with reader_of(path) as reader:
        true_root = merkle.root_of(journal_leaves(reader, SIZE), SIZE)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE merkle_tiles SET root = ? WHERE tile = 1", ("ab" * 32,))
    report = verify(path, replay=replay)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == TILE + 1
    assert "Merkle tile 1" in report.divergence.reason
    with reader_of(path) as reader:
        proof = TiledTree(reader, SIZE).prove_inclusion(3)  # its path passes through tile 1
    assert not merkle.verify_inclusion(proof.leaf_hash, 3, SIZE, proof.path, true_root)


def test_tile_rows_that_cannot_be_read_do_not_hide_a_divergence_in_the_entries(
    journal_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tile rows are read before the walk (which recomputes the tiles they name); a read that fails
    is raised where the tiles are checked, after the entries: a broken entry is still what is named."""
    path = tmp_path / "unreadable.db"
    with sqlite3.connect(journal_db) as source, sqlite3.connect(path) as target:
        source.backup(target)

    def unreadable(_reader: object) -> None:
        raise StorageError("cannot read the Merkle tiles: disk I/O error")

    monkeypatch.setattr(JournalReader, "merkle_tile_rows", unreadable)
    with pytest.raises(StorageError, match="Merkle tiles"):
        verify(path, replay=False)
    write_cell(path, TILE + 5, "principal", "operator:someone-else")
    report = verify(path, replay=False)
    assert not report.verified and report.divergence is not None
    assert report.divergence.seq == TILE + 5


def test_the_migration_computes_the_tiles_of_existing_entries(journal_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(journal_db) as source, sqlite3.connect(path) as target:
        source.backup(target)
    expected = _stored(path)
    with sqlite3.connect(path) as connection:  # the database as revision 0007 left it
        connection.execute("DROP TABLE merkle_tiles")
        connection.execute("UPDATE alembic_version SET version_num = '0007'")
    with sqlite3.connect(path) as connection:  # and without what later revisions added
        later = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'graph%'"
        ).fetchall()
        for (name,) in later:
            connection.execute(f"DROP TABLE {name}")
    engine = open_engine(str(path))
    try:
        upgrade_to_head(engine, target="0008")
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0008"
    finally:
        engine.dispose()
    assert _stored(path) == expected
    assert verify(path).verified


def test_a_journal_without_tiles_proves_the_same(journal_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "bare.db"
    with sqlite3.connect(journal_db) as source, sqlite3.connect(path) as target:
        source.backup(target)
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM merkle_tiles")
    with reader_of(path) as reader, reader_of(journal_db) as tiled:
        assert TiledTree(reader, SIZE).prove_inclusion(77) == TiledTree(tiled, SIZE).prove_inclusion(77)


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        ("UPDATE merkle_tiles SET root = upper(root) WHERE tile = 0", "holds no root"),
        ("UPDATE merkle_tiles SET root = 'ab' WHERE tile = 1", "holds no root"),
        ("INSERT INTO merkle_tiles (tile, root) VALUES (-1, '" + "ab" * 32 + "')", "names no complete tile"),
        ("INSERT INTO merkle_tiles (tile, root) VALUES (2, '" + "ab" * 32 + "')", "names no complete tile"),
    ],
)
def test_every_malformed_tile_row_fails_verification(
    journal_db: Path, tmp_path: Path, edit: str, named: str
) -> None:
    path = tmp_path / "edited.db"
    with sqlite3.connect(journal_db) as source, sqlite3.connect(path) as target:
        source.backup(target)
    with sqlite3.connect(path) as connection:
        connection.execute(edit)
    report = verify(path, replay=False)
    assert not report.verified and report.divergence is not None
    assert named in report.divergence.reason


def test_a_tile_row_already_there_never_blocks_the_writer(tmp_path: Path) -> None:
    """Tiles are derived: a row a hand edit left where the writer will complete a tile is replaced, and
    the journal goes on (before, every append completing that tile failed storage_unavailable)."""
    path = tmp_path / "j.db"
    kernel = open_kernel(str(path), clock=make_clock(), identity=VOUCHED, create=True)
    try:
        assert all(
            r.ok for r in kernel.call_many([("kernel.record", {"kind": "t"}, "operator:t")] * (TILE - 1))
        )
        with sqlite3.connect(path) as connection:
            connection.execute("INSERT INTO merkle_tiles (tile, root) VALUES (0, ?)", ("cd" * 32,))
        assert kernel.call("kernel.record", {"kind": "t"}, principal="operator:t").seq == TILE
    finally:
        kernel.close()
    assert verify(path, replay=False).verified

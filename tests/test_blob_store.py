"""``journal.blob_store.get_many``: blobs read by key, a batch of ``BATCH`` keys per statement, on SQLite and
on PostgreSQL; each checked against its key."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from journal import blob_store, statements
from journal.engine import open_engine
from journal.store import ManualClock, SqlJournalStore
from kernel.protocols import StorageError


def put_many(engine: Engine, blobs: list[bytes]) -> list[str]:
    """Store blobs for the reads under test, with the statement a call's transaction runs
    (``statements.BLOB_PUT``; nothing in arvis writes a blob outside a call); their keys, in order."""
    keys = [blob_store.hash_of(blob) for blob in blobs]
    with engine.begin() as connection:
        rows = [{"hash": key, "data": blob} for key, blob in dict(zip(keys, blobs, strict=True)).items()]
        connection.execute(text(statements.BLOB_PUT), rows)
    return keys


def put(engine: Engine, data: bytes) -> str:
    return put_many(engine, [data])[0]


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path, clock: ManualClock) -> Engine:
    url = str(tmp_path / "blobs.db") if request.param == "sqlite" else request.getfixturevalue("pg_url")
    engine = open_engine(url)
    SqlJournalStore(engine, clock=clock)  # creates the tables
    request.addfinalizer(engine.dispose)
    return engine


def test_more_keys_than_a_batch_are_all_read_with_their_bytes(engine: Engine) -> None:
    blobs = [f"blob {index}".encode() * (index % 7 + 1) for index in range(2 * blob_store.BATCH + 1)]
    blobs.append(b"\x00\xff not text")
    keys = put_many(engine, blobs)
    found = blob_store.get_many(engine, [*keys, keys[0]])  # a key asked twice is answered once
    assert found == dict(zip(keys, blobs, strict=True))


def test_nothing_asked_reads_nothing(engine: Engine) -> None:
    assert blob_store.get_many(engine, []) == {}


def test_a_key_not_stored_is_named(engine: Engine) -> None:
    stored = put(engine, b"here")
    missing = blob_store.hash_of(b"not here")
    with pytest.raises(blob_store.BlobMissing, match=missing):
        blob_store.get_many(engine, [stored, missing])


def test_bytes_that_no_longer_hash_to_their_key_are_named(engine: Engine) -> None:
    key = put(engine, b"original")
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE graph_blobs SET data = :data WHERE hash = :hash"), {"data": b"x", "hash": key}
        )
    with pytest.raises(blob_store.BlobMissing, match=f"{key} does not hash to its key"):
        blob_store.get_many(engine, [key])


def test_reading_blobs_does_not_take_the_write_lock(tmp_path: Path, clock: ManualClock) -> None:
    """A reader of blobs on a writer's engine (the LangGraph saver's) reads a snapshot beside another
    process's open write transaction: it neither waits for the write lock nor is refused it."""
    path = tmp_path / "locked.db"
    engine = open_engine(str(path), busy_timeout_ms=50)
    try:
        SqlJournalStore(engine, clock=clock)
        key = put(engine, b"stored before the lock")
        with closing(sqlite3.connect(str(path), isolation_level=None)) as writer:
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("INSERT INTO graph_blobs (hash, data) VALUES ('uncommitted', x'00')")
            assert blob_store.get_many(engine, [key]) == {key: b"stored before the lock"}
            writer.execute("ROLLBACK")
    finally:
        engine.dispose()


@pytest.mark.parametrize("count", [1, 3, 5, 200, 257, blob_store.BATCH])
def test_every_number_of_keys_reads_exactly_those_keys(engine: Engine, count: int) -> None:
    """Keys are padded to a power of two (or to ``BATCH``) by repeating the last: the padding reads
    nothing more, and a key stored but not asked is not returned."""
    keys = put_many(engine, [f"blob {index}".encode() for index in range(count + 1)])
    asked = keys[:count]
    assert blob_store.get_many(engine, asked) == {
        key: blob_store.get_many(engine, [key])[key] for key in asked
    }
    assert keys[count] not in blob_store.get_many(engine, asked)


def test_the_one_connection_of_a_memory_database_is_refused_inside_a_transaction(clock: ManualClock) -> None:
    """An in-memory database has one connection for every caller: blobs are not read through it while a
    transaction is open on it (what they would read is not committed), as a ``BEGIN`` on it was refused."""
    engine = open_engine(":memory:")
    SqlJournalStore(engine, clock=clock)
    committed = put(engine, b"committed")
    assert blob_store.get_many(engine, [committed]) == {committed: b"committed"}
    with engine.connect() as connection:  # its first statement begins the transaction (BEGIN IMMEDIATE)
        uncommitted = b"not committed"
        connection.execute(
            text("INSERT INTO graph_blobs (hash, data) VALUES (:hash, :data)"),
            {"hash": blob_store.hash_of(uncommitted), "data": uncommitted},
        )
        with pytest.raises(StorageError, match="in a transaction"):
            blob_store.get_many(engine, [blob_store.hash_of(uncommitted)])
    engine.dispose()

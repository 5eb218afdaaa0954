"""``journal.blob_store.get_many``: blobs read by key, a batch of ``BATCH`` keys per statement, on SQLite and
on PostgreSQL; each checked against its key."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from journal import blob_store
from journal.engine import open_engine
from journal.store import SqlJournalStore
from kernel.clock import ManualClock


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
    keys = blob_store.put_many(engine, blobs)
    found = blob_store.get_many(engine, [*keys, keys[0]])  # a key asked twice is answered once
    assert found == dict(zip(keys, blobs, strict=True))


def test_nothing_asked_reads_nothing(engine: Engine) -> None:
    assert blob_store.get_many(engine, []) == {}


def test_a_key_not_stored_is_named(engine: Engine) -> None:
    stored = blob_store.put(engine, b"here")
    missing = blob_store.hash_of(b"not here")
    with pytest.raises(blob_store.BlobMissing, match=missing):
        blob_store.get_many(engine, [stored, missing])


def test_bytes_that_no_longer_hash_to_their_key_are_named(engine: Engine) -> None:
    key = blob_store.put(engine, b"original")
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
        key = blob_store.put(engine, b"stored before the lock")
        with closing(sqlite3.connect(str(path), isolation_level=None)) as writer:
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("INSERT INTO graph_blobs (hash, data) VALUES ('uncommitted', x'00')")
            assert blob_store.get_many(engine, [key]) == {key: b"stored before the lock"}
            writer.execute("ROLLBACK")
    finally:
        engine.dispose()

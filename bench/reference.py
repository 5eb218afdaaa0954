"""The raw ``sqlite3`` reference: the same work as a journaled ``memory.write``, written by hand.

Per call: the arguments, the state row, the effects and the result encoded canonically (JSON,
keys sorted, no whitespace, with msgspec as ``arvis.canonical`` does), the effects hashed, the entry
hash chained with the framing of ``journal/entry.py`` (re-implemented here, checked against it by
``check_same_hash``), then one transaction: ``BEGIN IMMEDIATE``, state upsert, journal insert,
``COMMIT``. No validation, no handler, no result decoding: the physical floor of the job.

The head of the chain is kept in memory (a single writer); the kernel reads it under the write lock
in each transaction, because several processes may write one journal.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

__all__ = ["GOVERNANCE", "RawJournal", "canonical", "chain_hash", "check_same_hash", "now_text"]

_encoder = msgspec.json.Encoder(order="sorted")
canonical = _encoder.encode

GOVERNANCE = {
    "encryption": "at_rest",
    "principal": "user",
    "retention": "persistent",
    "sharing": "personal",
    "visibility": "usable",
}
_GOVERNANCE_TEXT = canonical(GOVERNANCE).decode("utf-8")
_EMPTY_EFFECTS = hashlib.sha256(b"[]").hexdigest()

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS journal (
        seq INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, syscall TEXT NOT NULL,
        principal TEXT NOT NULL, args BLOB NOT NULL, status TEXT NOT NULL, result BLOB NOT NULL,
        effects_hash TEXT NOT NULL, prev_hash TEXT NOT NULL, entry_hash TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS memory_entries (
        user_id TEXT NOT NULL, "key" TEXT NOT NULL, version INTEGER NOT NULL,
        memory_type TEXT NOT NULL, created_at TEXT NOT NULL, source TEXT NOT NULL, notes TEXT,
        value_ref TEXT, expires_at TEXT, revoked_at TEXT, superseded_at TEXT,
        governance TEXT NOT NULL, written_seq INTEGER NOT NULL, PRIMARY KEY (user_id, "key"))""",
)
_UPSERT = (
    'INSERT INTO memory_entries (user_id, "key", version, memory_type, created_at, source, value_ref, '
    "notes, expires_at, revoked_at, superseded_at, governance, written_seq) "
    "VALUES (?, ?, 1, ?, ?, ?, ?, NULL, NULL, NULL, NULL, ?, ?) "
    'ON CONFLICT (user_id, "key") DO UPDATE SET version = version + 1, memory_type = excluded.memory_type, '
    "created_at = excluded.created_at, source = excluded.source, value_ref = excluded.value_ref, "
    "governance = excluded.governance, written_seq = excluded.written_seq"
)
_INSERT = "INSERT INTO journal VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


def now_text() -> str:
    """The wall clock in the journal's fixed form ``YYYY-MM-DDTHH:MM:SS.ffffffZ``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def chain_hash(
    prev_hash: str,
    seq: int,
    recorded_at: str,
    syscall: str,
    principal: str,
    args: bytes,
    status: str,
    result: bytes,
    effects_hash: str,
) -> str:
    """SHA-256 over the previous hash's raw bytes and the eight framed fields (journal/entry.py)."""
    digest = hashlib.sha256(bytes.fromhex(prev_hash))
    digest.update(
        b"".join(
            _frame(field)
            for field in (
                str(seq).encode(),
                recorded_at.encode(),
                syscall.encode(),
                principal.encode(),
                args,
                status.encode(),
                result,
                effects_hash.encode(),
            )
        )
    )
    return digest.hexdigest()


def check_same_hash() -> None:
    """The reference chains exactly as the kernel does (not timed; fails loudly if it drifts)."""
    from journal.entry import compute_entry_hash, genesis_hash

    prev = genesis_hash("bench", 1)
    fields: dict[str, Any] = {
        "seq": 7,
        "recorded_at": "2026-01-01T00:00:00.000000Z",
        "syscall": "memory.write",
        "principal": "user:u",
        "args": b'{"a":1}',
        "status": "ok",
        "result": b'{"ok":true}',
        "effects_hash": _EMPTY_EFFECTS,
    }
    if chain_hash(prev, **fields) != compute_entry_hash(prev_hash=prev, **fields):
        raise AssertionError("the reference's chain framing differs from journal/entry.py")


class RawJournal:
    """A journal and its state table in one SQLite file, through ``sqlite3`` alone."""

    def __init__(self, path: Path, *, synchronous: str = "NORMAL") -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        for statement in _SCHEMA:
            self.db.execute(statement)
        self.seq = 0
        self.prev_hash = hashlib.sha256(b"arvis-journal" + _frame(b"raw") + _frame(b"1")).hexdigest()
        self._cursor = self.db.cursor()

    def close(self) -> None:
        self._cursor.close()
        self.db.close()

    def _prepare(self, syscall: str, args: dict[str, Any], principal: str) -> tuple[tuple[Any, ...], ...]:
        """The state row and the journal row of one write, chained on the current head."""
        seq = self.seq + 1
        now = now_text()
        args_bytes = canonical(args)
        user_id, key, value_ref = args["user_id"], args["key"], args.get("value_ref")
        memory_type, source = args["memory_type"], args["source"]
        state = (user_id, key, memory_type, now, source, value_ref, _GOVERNANCE_TEXT, seq)
        effects = [
            {
                "op": "upsert",
                "table": "memory_entries",
                "row": {
                    "user_id": user_id,
                    "key": key,
                    "memory_type": memory_type,
                    "created_at": now,
                    "source": source,
                    "value_ref": value_ref,
                    "governance": _GOVERNANCE_TEXT,
                    "written_seq": seq,
                },
            }
        ]
        entry = {
            "created_at": now,
            "expires_at": None,
            "governance": GOVERNANCE,
            "key": key,
            "memory_type": memory_type,
            "notes": None,
            "revoked_at": None,
            "source": source,
            "superseded_at": None,
            "value_ref": value_ref,
        }
        result = canonical({"ok": True, "value": {"user_id": user_id, "entry": entry, "superseded": None}})
        effects_hash = hashlib.sha256(canonical(effects)).hexdigest()
        entry_hash = chain_hash(
            self.prev_hash, seq, now, syscall, principal, args_bytes, "ok", result, effects_hash
        )
        journal = (
            seq,
            now,
            syscall,
            principal,
            args_bytes,
            "ok",
            result,
            effects_hash,
            self.prev_hash,
            entry_hash,
        )
        self.seq, self.prev_hash = seq, entry_hash
        return state, journal

    def write(self, syscall: str, args: dict[str, Any], principal: str) -> None:
        """One call, one transaction."""
        prepared = self._prepare(syscall, args, principal)
        self._commit(lambda: prepared)

    def write_at_head(self, syscall: str, args: dict[str, Any], principal: str, *, flush_after: bool) -> int:
        """One call, one transaction, chained on the head read under the write lock (other connections
        append to the same file); its seq. ``flush_after``: the WAL is fsynced after COMMIT, once the
        write lock is released (the connection then runs at NORMAL, which does not sync at commit)."""

        def at_head() -> tuple[tuple[Any, ...], ...]:
            head = self._cursor.execute(
                "SELECT seq, entry_hash FROM journal ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            if head is not None:
                self.seq, self.prev_hash = int(head[0]), str(head[1])
            return self._prepare(syscall, args, principal)

        self._commit(at_head)
        if flush_after:
            descriptor = os.open(self.path + "-wal", os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        return self.seq

    def _commit(self, rows: Callable[[], tuple[tuple[Any, ...], ...]]) -> None:
        """One write transaction: the state row and the journal row ``rows`` gives, inside it."""
        cursor = self._cursor
        cursor.execute("BEGIN IMMEDIATE")
        try:
            state, journal = rows()
            cursor.execute(_UPSERT, state)
            cursor.execute(_INSERT, journal)
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        cursor.execute("COMMIT")

    def write_many(self, calls: Iterable[tuple[str, dict[str, Any], str]]) -> None:
        """Many calls in one transaction: every row prepared and chained, then two ``executemany``."""
        prepared = [self._prepare(*call) for call in calls]
        cursor = self._cursor
        cursor.execute("BEGIN IMMEDIATE")
        try:
            cursor.executemany(_UPSERT, [state for state, _ in prepared])
            cursor.executemany(_INSERT, [journal for _, journal in prepared])
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        cursor.execute("COMMIT")

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM journal").fetchone()[0])

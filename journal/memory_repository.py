"""Reads of ``memory_entries`` bound to one transaction (writes are ``journal.apply``'s).

Ordering is done here in Python on fixed-form text, never by SQL collation.
"""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import Connection, func, inspect, select, text

from arvis.memory.memory_rows import COLUMNS
from arvis.memory.memory_service import StoredEntry, entry_from_row
from journal import statements
from journal.engine import fetch_all
from journal.schema import memory_entries, memory_entry_counts
from journal.sql import SqlRunner

__all__ = ["COLUMNS", "SqlMemoryReader", "entry_counts_hold", "entry_from_row", "version_seqs", "wire_of"]

_COUNTS_AS_STORED = select(memory_entry_counts.c.user_id, memory_entry_counts.c.entries)
_COUNTS_OF_ENTRIES = select(memory_entries.c.user_id, func.count()).group_by(memory_entries.c.user_id)


def entry_counts_hold(connection: Connection) -> bool:
    """Whether ``memory_entry_counts`` says what ``memory_entries`` holds (the limit on entries is
    read from it, so a count edited by hand would change what the kernel accepts); a database from
    before revision 0006 has no counts, which holds."""
    if not inspect(connection).has_table("memory_entry_counts"):
        return True
    stored_rows: list[Any] = fetch_all(connection, _COUNTS_AS_STORED)
    derived_rows: list[Any] = fetch_all(connection, _COUNTS_OF_ENTRIES)
    stored = {str(user): int(count) for user, count in stored_rows if count}
    derived = {str(user): int(count) for user, count in derived_rows}
    return stored == derived


def version_seqs(connection: Connection) -> list[Any] | None:
    """The version seqs time travel reads, set ones only; None where revision 0015 has not added them."""
    if "revoked_seq" not in {column["name"] for column in inspect(connection).get_columns("memory_entries")}:
        return None
    return fetch_all(connection, text(statements.VERSION_SEQS_SET))


def wire_of(row: tuple[Any, ...]) -> dict[str, Any]:
    """An entry's wire form from its row (``statements.MEMORY_WIRES``), as stored: times in their fixed form,
    governance as canonical JSON text (embedded as it is, ``msgspec.Raw``)."""
    created, expires, governance, key, memory_type, notes, revoked, source, superseded, ref = row
    return {
        "created_at": created,
        "expires_at": expires,
        "governance": msgspec.Raw(governance.encode("utf-8")),
        "key": key,
        "memory_type": memory_type,
        "notes": notes,
        "revoked_at": revoked,
        "source": source,
        "superseded_at": superseded,
        "value_ref": ref,
    }


class SqlMemoryReader:
    """Reads ``memory_entries`` in the transaction (``arvis.memory.memory_service.MemoryReader``); it
    never writes: what a call changes goes to ``journal.apply``."""

    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def list_entry_wires(self, *, user_id: str) -> list[dict[str, Any]]:
        """Straight from the rows: times are stored in their fixed form and governance as canonical JSON
        text, embedded as it is (``msgspec.Raw``)."""
        return [wire_of(row) for row in self._sql.rows(statements.MEMORY_WIRES, {"user_id": user_id})]

    def get_entry_wire(self, *, user_id: str, key: str) -> dict[str, Any] | None:
        """The current entry straight from its row, as ``list_entry_wires`` gives it."""
        row = self._sql.first(statements.MEMORY_CURRENT_WIRE, {"user_id": user_id, "key": key})
        return None if row is None else wire_of(row)

    def current(self, *, user_id: str, key: str) -> StoredEntry | None:
        """The key's current row (the newest version, revoked or not) with its version."""
        row = self._sql.first(statements.MEMORY_CURRENT, {"user_id": user_id, "key": key})
        return None if row is None else _stored(dict(zip(COLUMNS, row, strict=True)))

    def current_and_count(self, *, user_id: str, key: str) -> tuple[StoredEntry | None, int]:
        """``current`` and the user's count, in one read."""
        row = self._sql.first(statements.MEMORY_CURRENT_AND_COUNT, {"user_id": user_id, "key": key})
        assert row is not None  # the anchor row is always there
        count = 0 if row[0] is None else int(row[0])
        found = None if row[1] is None else _stored(dict(zip(COLUMNS, row[1:], strict=True)))
        return found, count


def _stored(row: dict[str, Any]) -> StoredEntry:
    return StoredEntry(entry_from_row(row), int(row["version"]))

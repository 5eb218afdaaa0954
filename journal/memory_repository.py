"""Reads of ``memory_entries`` outside a call (writes are ``journal.apply``'s, a call's reads
``journal.transaction.SqlMemoryReader``'s): what verification checks of the table, and a row's wire form."""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import Connection, func, inspect, select, text

from journal import statements
from journal.engine import fetch_all
from journal.schema import memory_entries, memory_entry_counts

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

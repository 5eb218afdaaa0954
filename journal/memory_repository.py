"""The SQL store behind the MemoryLongRepository contract, bound to one transaction.

Every row it writes is also recorded as an effect, so the journal entry can hash exactly what the
call changed. Ordering is done here in Python on fixed-form text, never by SQL collation.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, and_, func, select, update

from arvis.canonical import canonical_bytes, decode, format_time, parse_time
from arvis.memory.governance import (
    Governance,
    GovernanceEncryption,
    GovernancePrincipal,
    GovernanceRetention,
    GovernanceSharing,
    GovernanceVisibility,
)
from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
from arvis.memory.memory_long_repository import MemoryLongRepository
from journal.schema import memory_entries

__all__ = ["SqlMemoryRepository", "entry_from_row"]

_T = memory_entries.c


def _time(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)


def entry_from_row(row: Row[Any]) -> MemoryLongEntry:
    governance = decode(row.governance.encode("utf-8"))
    created_at = parse_time(row.created_at)
    return MemoryLongEntry(
        memory_type=MemoryLongType(row.memory_type),
        key=row.key,
        created_at=created_at,
        source=row.source,
        notes=row.notes,
        value_ref=row.value_ref,
        expires_at=_time(row.expires_at),
        revoked_at=_time(row.revoked_at),
        governance=Governance(
            visibility=GovernanceVisibility(governance["visibility"]),
            sharing=GovernanceSharing(governance["sharing"]),
            retention=GovernanceRetention(governance["retention"]),
            encryption=GovernanceEncryption(governance["encryption"]),
            principal=GovernancePrincipal(governance["principal"]),
        ),
        superseded_at=_time(row.superseded_at),
    )


def _ordered(entries: list[MemoryLongEntry]) -> list[MemoryLongEntry]:
    """The spec's order; the sort is stable, so versions of one key written at the same moment keep
    their version order (the rows arrive ordered by version within a key)."""
    return sorted(entries, key=lambda entry: entry.sort_key)


class SqlMemoryRepository(MemoryLongRepository):
    """Reads and writes ``memory_entries`` on the transaction's connection, recording effects."""

    def __init__(self, connection: Connection, *, seq: int, effects: list[Any]) -> None:
        self._connection = connection
        self._seq = seq
        self._effects = effects

    def list_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        rows = self._connection.execute(
            select(memory_entries).where(_T.user_id == user_id).order_by(_T.key, _T.version)
        )
        return _ordered([entry_from_row(row) for row in rows])

    def list_active_entries(self, *, user_id: str) -> list[MemoryLongEntry]:
        rows = self._connection.execute(
            select(memory_entries)
            .where(_T.user_id == user_id, _T.revoked_at.is_(None), _T.superseded_at.is_(None))
            .order_by(_T.key, _T.version)
        )
        return _ordered([entry_from_row(row) for row in rows])

    def list_active_entries_batch(self, *, user_ids: list[str]) -> dict[str, list[MemoryLongEntry]]:
        return {user_id: self.list_active_entries(user_id=user_id) for user_id in sorted(user_ids)}

    def _current_row(self, user_id: str, key: str) -> Row[Any] | None:
        return self._connection.execute(
            select(memory_entries)
            .where(_T.user_id == user_id, _T.key == key, _T.superseded_at.is_(None))
            .order_by(_T.version.desc())
            .limit(1)
        ).first()

    def get_entry(self, *, user_id: str, key: str) -> MemoryLongEntry | None:
        row = self._current_row(user_id, key)
        return None if row is None else entry_from_row(row)

    def add_entry(self, *, user_id: str, entry: MemoryLongEntry) -> None:
        latest = self._connection.execute(
            select(func.max(_T.version)).where(_T.user_id == user_id, _T.key == entry.key)
        ).scalar()
        wire = entry.to_wire()
        row = {
            "user_id": user_id,
            "key": entry.key,
            "version": (latest or 0) + 1,
            "memory_type": wire["memory_type"],
            "created_at": wire["created_at"],
            "source": entry.source,
            "notes": entry.notes,
            "value_ref": entry.value_ref,
            "expires_at": wire["expires_at"],
            "revoked_at": wire["revoked_at"],
            "superseded_at": wire["superseded_at"],
            "governance": canonical_bytes(wire["governance"]).decode("utf-8"),
            "written_seq": self._seq,
        }
        self._connection.execute(memory_entries.insert(), row)
        self._effects.append({"op": "insert", "table": "memory_entries", "row": row})

    def _update_current(self, user_id: str, key: str, values: dict[str, Any]) -> Row[Any] | None:
        row = self._current_row(user_id, key)
        if row is None:
            return None
        where = and_(_T.user_id == user_id, _T.key == key, _T.version == row.version)
        self._connection.execute(update(memory_entries).where(where).values(**values))
        self._effects.append(
            {
                "op": "update",
                "table": "memory_entries",
                "where": {"user_id": user_id, "key": key, "version": row.version},
                "set": values,
            }
        )
        return row

    def replace_entry(
        self, *, user_id: str, entry: MemoryLongEntry, superseded_at: datetime
    ) -> MemoryLongEntry | None:
        moment = format_time(superseded_at)
        row = self._update_current(user_id, entry.key, {"superseded_at": moment})
        self.add_entry(user_id=user_id, entry=entry)
        if row is None:
            return None
        return dataclasses.replace(entry_from_row(row), superseded_at=superseded_at)

    def revoke(self, *, user_id: str, key: str, revoked_at: datetime) -> bool:
        current = self._current_row(user_id, key)
        if current is None or current.revoked_at is not None:
            return False
        self._update_current(user_id, key, {"revoked_at": format_time(revoked_at)})
        return True

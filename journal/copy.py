"""Copying a journal into another database (SQLite to PostgreSQL or back), to audit it there; and a
database's rows and their past taken from its journal's replay (``adopt_history``).

The header (its admin verifier too), every journal row, every state table's rows (with the seqs the state
leaves out), the admin key's bindings (``journal.admin_binding``) and the rows' history (``journal.history``)
are copied as stored, in one transaction on the target, which must hold no journal yet. Nothing is
re-executed: verifying the copy checks the very bytes the source holds, so a journal damaged at the source
fails verification at the same seq.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, MetaData, Table, func, inspect, select
from sqlalchemy.exc import SQLAlchemyError

from journal.engine import one_line
from journal.entry import Pos
from journal.errors import StorageError
from journal.header import JournalHeader, read_header, store_quota
from journal.migrate import HEAD_REVISION, stored_revision, upgrade_to_head
from journal.schema import (
    STATE_TABLES,
    admin_bindings,
    graph_blobs,
    graph_history,
    history_from,
    journal,
    journal_header,
    memory_entry_counts,
)
from journal.state import present_state_tables
from journal.statements import APPEND_LOCK_SQL, LOCK_JOURNAL, REBUILD_COUNTS, REPEATABLE_READ
from journal.tile_backfill import backfill_tiles

_BATCH = 2_000


@dataclass(frozen=True)
class CopyReport:
    entries: int
    state_rows: int
    head: Pos | None
    """The position of the copy's last entry; None for an empty journal."""


def _rows(connection: Connection, table: Table, batch: int) -> Iterator[list[dict[str, Any]]]:
    """The table's rows as stored, ``batch`` at a time, in primary-key order."""
    query = select(table).order_by(*table.primary_key.columns)
    result = connection.execution_options(yield_per=batch).execute(query)
    for part in result.partitions():
        yield [dict(row._mapping) for row in part]


def _refuse_occupied(connection: Connection, tables: tuple[Table, ...]) -> None:
    """Refuse a target that holds anything. A header alone is an empty journal of the target's own
    (``arvis db upgrade`` or a kernel started it): its identity cannot be replaced (the header is
    append-only), and the copied entries chain from the source's, so the copy needs a new database."""
    occupied = [t.name for t in tables if connection.execute(select(func.count()).select_from(t)).scalar()]
    if occupied == [journal_header.name]:
        raise StorageError(
            "the target is not empty: it holds an empty journal of its own (started by `arvis db upgrade` "
            "or a first call); copy into a new database"
        )
    if occupied:
        raise StorageError(f"the target is not empty (rows in {', '.join(occupied)})")


def _copy_header(reading: Connection, writing: Connection, header: JournalHeader) -> None:
    """Write the source's header, its admin verifier with it (``journal.admin_binding``; none when the
    source predates revision 0012), so that the copy's administrators are the source's, and its graph
    store quota, which the copy's calls replay under."""
    columns = {column["name"] for column in inspect(reading).get_columns(journal_header.name)}
    verifier = (
        reading.execute(select(journal_header.c.admin_verifier)).scalar_one_or_none()
        if "admin_verifier" in columns
        else None
    )
    row = {"singleton": 1, **vars(header), "admin_verifier": verifier}  # its identity columns, named alike
    writing.execute(journal_header.insert(), row | {"store_quota_bytes": store_quota(reading)})


def copy_journal(source: Engine, target: Engine, *, batch: int = _BATCH) -> CopyReport:
    """Copy the journal in ``source`` into ``target`` (brought to the head migration first; it must
    hold no journal and no state). Raises StorageError when either side refuses."""
    try:
        upgrade_to_head(target)
        with source.connect() as reading, target.begin() as writing:
            if source.dialect.name == "postgresql":  # one snapshot for the journal and its state
                reading.exec_driver_sql(REPEATABLE_READ)
            header = read_header(reading)
            if header is None:
                raise StorageError("the source holds no arvis journal (no header)")
            if target.dialect.name == "postgresql":
                writing.exec_driver_sql(APPEND_LOCK_SQL)  # as every appending writer: they wait for the copy
                writing.exec_driver_sql(LOCK_JOURNAL)
            # content the state names; the admin key's bindings; the rows of the history tables replaced,
            # updated or deleted, and where they start
            logged = (graph_blobs, admin_bindings, graph_history, history_from)
            _refuse_occupied(writing, (journal_header, journal, *STATE_TABLES, memory_entry_counts, *logged))
            _copy_header(reading, writing, header)
            entries, head = 0, None
            for rows in _rows(reading, journal, batch):
                writing.execute(journal.insert(), rows)
                entries += len(rows)
                head = Pos(int(rows[-1]["seq"]), str(rows[-1]["entry_hash"]))
            state_rows = 0
            for table in present_state_tables(reading):
                # the seqs the digest leaves out too (``VERSION_SEQS``, ``ROW_SEQ_TABLES``), where it has them
                table = Table(table.name, MetaData(), autoload_with=reading)
                for rows in _rows(reading, table, batch):
                    writing.execute(table.insert(), rows)
                    state_rows += len(rows)
            for table in logged:
                if inspect(reading).has_table(table.name):
                    for rows in _rows(reading, table, batch):
                        writing.execute(table.insert(), rows)
            if head is not None and stored_revision(reading) != HEAD_REVISION:
                # a source of another revision kept other tables: its history covers what follows
                writing.execute(history_from.delete())
                writing.execute(history_from.insert(), {"singleton": 1, "first_seq": head.next_seq})
            writing.exec_driver_sql(REBUILD_COUNTS)
            backfill_tiles(writing)  # derived, never copied: computed from the rows just written
            reading.rollback()
    except SQLAlchemyError as exc:
        raise StorageError(f"the copy failed: {one_line(exc)}") from exc
    except UnicodeEncodeError as exc:  # a header read with surrogateescape cannot be written back as text
        raise StorageError(
            "the copy failed: the source holds text that is not valid UTF-8 (a hand edit); "
            "`arvis journal verify` names where"
        ) from exc
    return CopyReport(entries=entries, state_rows=state_rows, head=head)


def adopt_history(target: Engine, replayed: Connection, head: Pos) -> None:
    """Write over ``target``'s state rows and the rows' past those of ``replayed``: its journal replayed
    from entry 1 up to ``head``, verified (the state digests equal), so that every row carries the seqs
    that wrote it and the rows its calls replaced are kept, and time travel reads the past from rows from
    entry 1 (``history_from``). For a journal migrated when its past could not be derived (revision
    0020); one transaction, refused (nothing written) when the journal has grown past ``head`` since."""
    try:
        with target.begin() as writing:
            if target.dialect.name == "postgresql":
                writing.exec_driver_sql(APPEND_LOCK_SQL)  # as every appending writer: they wait for it
                writing.exec_driver_sql(LOCK_JOURNAL)
            if writing.execute(select(func.max(journal.c.seq))).scalar() != head.seq:
                raise StorageError("the journal grew while its past was rebuilt: run it again")
            for table in (*present_state_tables(replayed), graph_history):
                # as stored, with the seqs the digest leaves out
                table = Table(table.name, MetaData(), autoload_with=replayed)
                writing.execute(table.delete())
                for rows in _rows(replayed, table, _BATCH):
                    writing.execute(table.insert(), rows)
            writing.execute(history_from.delete())  # none: the rows hold the past from entry 1
    except SQLAlchemyError as exc:
        raise StorageError(f"the rebuild failed: {one_line(exc)}") from exc

"""Two stored states compared row by row: what ``arvis journal diff`` says of the memories two journals
hold (``journal-format.md`` §8.3).

Both states are streamed side by side, table by table in ``STATE_TABLES`` order, each table's rows in
primary-key order as the state digest reads them (``journal.state.iter_state_rows``): memory holds one
batch of each, however large the states are. The same pass gives each side's state digest (the one
``verify`` and ``journal state`` print), the first row that differs (its table, its primary key, the
columns that differ or the side that alone has it) and, per table, how many rows differ and in which
users or contexts (the table's partition column, ``PARTITION_COLUMNS``).
The content digests (``journal.content_digest``) say, per table, whether the memories *say* the same
thing where the stored bytes differ.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Connection, Table

from journal.content_digest import content_digests
from journal.schema import STATE_TABLES
from journal.state import StateDigest, iter_state_rows, present_state_tables

SHOWN_PARTITIONS = 20
"""The users or contexts named per table at most (the count says how many differ in all)."""

Side = Literal["first", "second"]

PARTITION_COLUMNS: dict[str, str] = {
    "awmu_units": "context_id",
    "awmu_reviews": "context_id",
    "awmu_canon_requests": "context_id",
    "awmu_events": "context_id",
    "pipeline_runs": "user_id",
}
"""The column naming the user or context a row of each state table belongs to, where it is not the first
column of the table's primary key (a user's, a context's, a thread's or a namespace's rows elsewhere)."""


@dataclass(frozen=True)
class RowDifference:
    """The first stored row that differs: its table and primary key, and the columns that differ, or
    (``only_in``) the state that alone holds a row with that key."""

    table: str
    key: dict[str, Any]
    columns: tuple[str, ...] = ()
    only_in: Side | None = None

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "key": self.key, "columns": list(self.columns), "only_in": self.only_in}


@dataclass
class TableDifference:
    """One table whose rows differ: how many, and the first users or contexts they belong to."""

    table: str
    partition: str
    """The column naming a row's user or context."""
    rows: int = 0
    partitions: list[str] = field(default_factory=list)
    partition_count: int = 0

    def note(self, row: dict[str, Any]) -> None:
        self.rows += 1
        part = str(row.get(self.partition))
        if self.partitions and self.partitions[-1] == part:
            return  # rows come in key order, the partition column first: a partition's rows are adjacent
        if part not in self.partitions:
            self.partition_count += 1
            if len(self.partitions) < SHOWN_PARTITIONS:
                self.partitions.append(part)

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "rows": self.rows,
            "partition_column": self.partition,
            "partitions": self.partitions,
            "partition_count": self.partition_count,
        }


@dataclass(frozen=True)
class StateComparison:
    digests: tuple[str, str]
    """Each state's digest (``journal.state.state_digest``)."""
    content_digests: tuple[str | None, str | None]
    """Each memory's content digest (``journal.content_digest``); None where it cannot be read."""
    content_tables: tuple[str, ...]
    """The tables whose content differs."""
    tables: tuple[TableDifference, ...]
    first_difference: RowDifference | None

    @property
    def identical(self) -> bool:
        return self.digests[0] == self.digests[1] and not self.tables

    def to_json(self) -> dict[str, Any]:
        first = self.first_difference
        return {
            "identical": self.identical,
            "digests": list(self.digests),
            "content_digests": list(self.content_digests),
            "content_tables": list(self.content_tables),
            "tables": [table.to_json() for table in self.tables],
            "first_difference": None if first is None else first.to_json(),
        }


def _order(value: Any) -> tuple[Any, ...]:
    """A key value as the databases order it: NULL, numbers, then text by its bytes (SQLite's BINARY,
    PostgreSQL's "C"), then anything else."""
    if value is None:
        return (0,)
    if isinstance(value, int | float):
        return (1, value)
    if isinstance(value, str):
        return (2, value.encode("utf-8", "surrogateescape"))
    return (3, repr(value))


def _rows(connection: Connection, table: Table, digest: StateDigest) -> Iterator[dict[str, Any]]:
    name = str(table.name)
    for row in iter_state_rows(connection, table):
        digest.add(name, row)
        yield row


Difference = tuple[Side | None, dict[str, Any], tuple[str, ...]]
"""A row that differs: the side that alone holds it (None: both do), the row, the columns that differ."""


def _merged(
    key: list[str], first: Iterator[dict[str, Any]], second: Iterator[dict[str, Any]]
) -> Iterator[Difference]:
    """Both tables' rows merged on their primary key, to the end of both (so both digests see every
    row); the rows that differ."""

    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(_order(row.get(column)) for column in key)

    a, b = next(first, None), next(second, None)
    while a is not None or b is not None:
        if b is None or (a is not None and order(a) < order(b)):
            assert a is not None
            yield "first", a, ()
            a = next(first, None)
        elif a is None or order(b) < order(a):
            yield "second", b, ()
            b = next(second, None)
        else:
            columns = tuple(column for column in sorted(set(a) | set(b)) if a.get(column) != b.get(column))
            if columns:
                yield None, a, columns
            a, b = next(first, None), next(second, None)


def compare_states(first: Connection, second: Connection) -> StateComparison:
    """Compare the states two databases hold now (either may lack tables a later migration adds: a
    missing table holds no rows)."""
    digests = (StateDigest(), StateDigest())
    present = (set(present_state_tables(first)), set(present_state_tables(second)))
    tables: list[TableDifference] = []
    found: RowDifference | None = None
    for table in STATE_TABLES:
        sides = [
            _rows(connection, table, digest) if table in has else iter(())
            for connection, digest, has in zip((first, second), digests, present, strict=True)
        ]
        name = str(table.name)
        key = [str(column.name) for column in table.primary_key.columns]
        differs = TableDifference(name, PARTITION_COLUMNS.get(name, key[0]))
        for side, row, columns in _merged(key, sides[0], sides[1]):
            differs.note(row)
            if found is None:  # the first row that differs, in the first table that has one
                found = RowDifference(name, {column: row.get(column) for column in key}, columns, side)
        if differs.rows:
            tables.append(differs)
    ours, theirs = _content(first), _content(second)
    content_tables = tuple(name for name, value in ours[1].items() if theirs[1].get(name) != value)
    return StateComparison(
        (digests[0].hexdigest(), digests[1].hexdigest()),
        (ours[0], theirs[0]),
        content_tables if ours[0] and theirs[0] else (),
        tuple(tables),
        found,
    )


def _content(connection: Connection) -> tuple[str | None, dict[str, str]]:
    """The content digests; none where a stored row cannot be read as content (a hand edit left text
    that is not UTF-8, or a body that is not JSON: the row comparison still names it)."""
    try:
        return content_digests(connection)
    except ValueError:
        return None, {}

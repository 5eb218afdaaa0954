"""The state digest reads each table a batch at a time and digests a batch without a dict per row: it
must give the digest of the rows one by one, as dicts, in primary-key byte order, whatever the values
(bytes shown as hex, text that is not UTF-8 tagged) and wherever a batch ends."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Column, Integer, MetaData, Table, Text, insert

from journal.engine import open_engine
from journal.schema import STATE_TABLES
from journal.state import BATCH, StateDigest, _normal, _row_shape, iter_state_rows, state_digest
from syscalls.boot import open_kernel

_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
    st.binary(max_size=8),
    # text read back from bytes that are not UTF-8 (surrogateescape): a hand edit
    st.binary(min_size=1, max_size=8).map(lambda data: data.decode("utf-8", "surrogateescape")),
)


@st.composite
def _table_and_rows(draw: st.DrawFn) -> tuple[Any, list[tuple[Any, ...]]]:
    table = draw(st.sampled_from(STATE_TABLES))
    width = len(table.columns)
    rows = draw(st.lists(st.tuples(*[_VALUES] * width), max_size=6))
    return table, rows


@given(_table_and_rows())
def test_a_batch_digests_as_its_rows_one_by_one_as_dicts(drawn: tuple[Any, list[tuple[Any, ...]]]) -> None:
    table, rows = drawn
    names = [str(column.name) for column in table.columns]
    batched, one_by_one, kept = StateDigest(), StateDigest(), list[dict[str, Any]]()
    batched.add_batch(table, rows, kept)
    for values in rows:
        one_by_one.add(str(table.name), dict(zip(names, map(_normal, values), strict=True)))
    assert batched.hexdigest() == one_by_one.hexdigest()
    assert batched.rows == one_by_one.rows == len(rows)
    assert kept == [dict(zip(names, map(_normal, values), strict=True)) for values in rows]


def _grant_rows(count: int) -> list[tuple[bytes, bytes, bytes, int]]:
    """Grant rows as stored bytes: ASCII, non-ASCII, and one principal that is not UTF-8, placed so that
    it is the last row of the first batch in byte order (the next batch then starts after text that
    cannot be sent as text)."""
    rows = [(f"p{index:05d}".encode(), b"memory.read", "scope-é".encode(), index) for index in range(count)]
    rows.append((f"p{BATCH - 2:05d}".encode() + b"\xff", b"memory.read", b"s", count))
    return rows


def test_every_row_is_read_once_across_batches_in_byte_order(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    open_kernel(str(path), create=True).close()
    stored = _grant_rows(2 * BATCH + 7)
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO grants (principal, capability, scope, granted_seq) "
            "VALUES (CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), ?)",
            stored,
        )
    expected = StateDigest()
    for principal, capability, scope, seq in sorted(stored):
        row = [value.decode("utf-8", "surrogateescape") for value in (principal, capability, scope)]
        expected.add(
            "grants", dict(zip(("principal", "capability", "scope"), row, strict=True), granted_seq=seq)
        )
    engine = open_engine(str(path))
    try:
        with engine.connect() as connection:
            assert state_digest(connection) == expected.hexdigest()
            grants = next(table for table in STATE_TABLES if table.name == "grants")
            read = list(iter_state_rows(connection, grants))
            assert [row["granted_seq"] for row in read] == [seq for *_, seq in sorted(stored)]
    finally:
        engine.dispose()


def test_every_state_table_gets_a_row_struct() -> None:
    """The fast path holds for every table the digest reads (a name a struct cannot take would send
    that table's rows down the dict path, slower but the same bytes: the next test)."""
    assert all(_row_shape(table) is not None for table in STATE_TABLES)


def test_a_table_whose_column_names_cannot_be_struct_fields_digests_as_dicts() -> None:
    odd = Table("odd", MetaData(), Column("__dict__", Text, primary_key=True), Column("a b", Integer))
    assert _row_shape(odd) is None
    batched, one_by_one = StateDigest(), StateDigest()
    rows = [("x", 1), ("y", None), (b"\x00", 2)]
    batched.add_batch(odd, rows)
    for values in rows:
        one_by_one.add("odd", dict(zip(("__dict__", "a b"), map(_normal, values), strict=True)))
    assert batched.hexdigest() == one_by_one.hexdigest()


def _digest_of_grants(target: str, rows: list[tuple[str, str, str, int]]) -> str:
    engine = open_engine(target)
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(next(table for table in STATE_TABLES if table.name == "grants")),
                [
                    dict(zip(("principal", "capability", "scope", "granted_seq"), row, strict=True))
                    for row in rows
                ],
            )
        with engine.connect() as connection:
            return state_digest(connection)
    finally:
        engine.dispose()


def test_postgresql_pages_in_the_byte_order_sqlite_does(pg_url: str, tmp_path: Path) -> None:
    """Over more than two pages of a composite text key whose byte order differs from a locale's
    (``B`` before ``a``, ``Z`` before ``_``, accented letters last), both backends read the same rows in the
    same order: the same digest."""
    letters = ["b", "a", "B", "é", "ab", "a b", "Z", "z", "_", "ä"]
    rows = [
        (
            f"{letters[index % 10]}{index // 10:04d}",
            letters[(index * 7) % 10],
            letters[(index * 3) % 10],
            index,
        )
        for index in range(2 * BATCH + 11)
    ]
    path = tmp_path / "j.db"
    open_kernel(str(path), create=True).close()
    assert _digest_of_grants(pg_url, rows) == _digest_of_grants(str(path), rows)

"""The store keeps what LangGraph's ``InMemoryStore`` keeps (arvis/store_values.py, specs/langgraph.md
§8.1): tuples stay tuples, datetimes datetimes, NaN NaN, keys that are not strings keep their type; each
value encoded canonically, the journal verifying."""

from __future__ import annotations

import math
import sqlite3
from datetime import UTC, date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pytest.importorskip("langgraph.store.memory")

from langgraph.store.memory import InMemoryStore

from arvis.canonical import CanonicalEncodingError, canonical_bytes, decode
from arvis.store_values import envelope, open_envelope
from integrations.langgraph import ArvisStore, CheckpointArgumentsInvalid
from journal.reader import JournalReader
from journal.store import ManualClock
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"

_OFFSETS = st.timedeltas(
    min_value=-timedelta(hours=23, minutes=59), max_value=timedelta(hours=23, minutes=59)
)
_ZONES = st.none() | st.just(UTC) | _OFFSETS.map(timezone)
_HASHABLE = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.binary(max_size=8)
    | st.datetimes(timezones=_ZONES)
    | st.dates()
    | st.uuids()
)
_SCALARS = (
    _HASHABLE
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.times(timezones=_ZONES)
    | st.timedeltas()
    | st.decimals(allow_nan=False)
)
_KEYS = _HASHABLE | st.just("$arvis") | st.tuples(_HASHABLE, _HASHABLE)
VALUES = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=4).map(tuple)
        | st.dictionaries(_KEYS, children, max_size=4)
        | st.frozensets(_HASHABLE, max_size=4)
        | st.sets(_HASHABLE, max_size=4)
    ),
    max_leaves=12,
)
ITEMS = st.dictionaries(st.text(max_size=8) | st.just("$arvis") | _HASHABLE, VALUES, max_size=5)
"""The values of a store item: a dict (``BaseStore`` asks for one) of anything above."""


def _same(mine: Any, theirs: Any) -> bool:
    """Equal, of the same types all the way down, dict keys in the same order; NaN equal to NaN, -0.0
    told from 0.0, an aware time at the same instant and offset."""
    if type(mine) is not type(theirs):
        return False
    if isinstance(mine, float):
        return (math.isnan(mine) and math.isnan(theirs)) or (
            mine == theirs and math.copysign(1, mine) == math.copysign(1, theirs)
        )
    if isinstance(mine, list | tuple):
        return len(mine) == len(theirs) and all(_same(a, b) for a, b in zip(mine, theirs, strict=True))
    if isinstance(mine, dict):  # the same keys in the same order (issue 52 point 10)
        return len(mine) == len(theirs) and all(
            _same(key, other) and _same(item, theirs[other])
            for (key, item), other in zip(mine.items(), theirs, strict=True)
        )
    if isinstance(mine, datetime | time):
        return bool(mine == theirs and mine.utcoffset() == theirs.utcoffset())
    return bool(mine == theirs)


def test_values_round_trip_as_in_memory_store_keeps_them(tmp_path: Path) -> None:
    """For any value ``InMemoryStore`` keeps, ``ArvisStore`` gives back the same value (same types,
    NaN included) by get and by search; its encoding is canonical (decoding and encoding again gives the
    same bytes); and the journal of it all verifies."""
    db = tmp_path / "values.db"
    kernel = open_kernel(str(db), create=True, clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC)))
    store = ArvisStore(kernel, principal=AGENT)
    memory = InMemoryStore()
    count = iter(range(10**6))

    @settings(max_examples=120, deadline=None)
    @given(value=ITEMS)
    @example(
        value={datetime(2000, 1, 1, tzinfo=timezone(timedelta(microseconds=1))): None}
    )  # a random run found
    @example(
        value={"t": time(1, 2, tzinfo=timezone(-timedelta(hours=5, seconds=3)))}
    )  # it: sub-minute offsets
    def check(value: dict[Any, Any]) -> None:
        key = f"k{next(count)}"
        store.put(("values",), key, value)
        memory.put(("values",), key, value)
        expected = memory.get(("values",), key)
        got = store.get(("values",), key)
        assert expected is not None and got is not None
        assert _same(got.value, expected.value)
        found = store.search(("values",), filter=None, limit=1000)
        assert _same(next(item.value for item in found if item.key == key), expected.value)
        data = canonical_bytes(envelope(value, None))
        assert canonical_bytes(envelope(open_envelope(decode(data))[0], None)) == data

    check()
    assert next(count) >= 100  # the examples ran, each a put
    store.close()
    kernel.close()
    reader = JournalReader.open(str(db))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert report.verified, report.divergence


def test_each_kind_the_table_names(tmp_path: Path) -> None:
    """The kinds of ``arvis/store_values.py``'s table, one of each, kept with their types."""
    value: dict[Any, Any] = {
        "tuple": (1, (2, "x")),
        "nan": math.nan,
        "inf": [math.inf, -math.inf, -0.0],
        "big": 2**80,
        1: "int key",
        (1, "a"): "tuple key",
        None: "null key",
        "$arvis": {"$arvis": "not a tag"},
        "when": datetime(2026, 5, 1, 12, 30, tzinfo=timezone(timedelta(hours=2))),
        "naive": datetime(2026, 5, 1, 12, 30),
        "day": date(2026, 5, 1),
        "clock": time(12, 30, 1, 5),
        "span": timedelta(days=-1, seconds=5),
        "id": UUID(int=7),
        "price": Decimal("1.10"),
        "raw": b"\x00\xff",
        "tags": {"a", "b"},
        "frozen": frozenset({1}),
    }
    with ArvisStore(str(tmp_path / "kinds.db"), principal=AGENT, create=True) as store:
        store.put(("kinds",), "k", value)
        got = store.get(("kinds",), "k")
    memory = InMemoryStore()
    memory.put(("kinds",), "k", value)
    assert got is not None and _same(got.value, memory.get(("kinds",), "k").value)  # type: ignore[union-attr]


def test_a_value_with_no_encoding_is_refused_before_any_call(tmp_path: Path) -> None:
    db = tmp_path / "refused.db"
    with (
        ArvisStore(str(db), principal=AGENT, create=True) as store,
        pytest.raises(CheckpointArgumentsInvalid, match="no store encoding"),
    ):
        store.put(("p",), "k", {"object": object()})
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM journal").fetchone() == (0,)
    with pytest.raises(CanonicalEncodingError):
        envelope({"set": {object()}}, None)

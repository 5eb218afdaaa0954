"""A store search holds one value at a time (issue 48, finding 6; specs/langgraph.md §8.5): with
``limit: 1`` it decodes no more than the page it returns when its filter cannot refuse, and whatever it
reads (a filter that orders is compared with every value, a ranking reads every item's embeddings) it
reads and drops one value at a time: its peak memory stays a few values, not the prefix's 24. The results
are those of every search before, and verification replays them."""

from __future__ import annotations

import base64
import struct
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from arvis.canonical import canonical_bytes
from journal.blob_store import hash_of
from journal.reader import JournalReader
from journal.store import ManualClock
from syscalls.boot import open_kernel
from syscalls.graph_store_search import scores
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
VALUES = 24
SIZE = 1_000_000
"""One value's bytes, about: the prefix holds 24 MB."""


def _value(index: int) -> list[Any]:
    vector = base64.b64encode(struct.pack("<2f", 1.0, float(index))).decode()
    text = chr(ord("a") + index) * SIZE
    return [2, {"n": index, "kind": "big", "text": text}, {"dims": 2, "paths": ["text"], "data": vector}]


@pytest.mark.parametrize(
    ("search", "keys"),
    [
        ({"filter": {"kind": "big"}, "limit": 1}, ["k0"]),
        ({"filter": {"kind": "big"}, "limit": 1, "offset": 2}, ["k2"]),
        ({"filter": {"n": {"$gte": 20}}, "limit": 1}, ["k20"]),  # orders: every value compared, one at a time
        ({"query_vector": base64.b64encode(struct.pack("<2f", 0.0, 1.0)).decode(), "limit": 1}, ["k23"]),
        (
            {
                "query_vector": base64.b64encode(struct.pack("<2f", 0.0, 1.0)).decode(),
                "filter": {"kind": "big"},
                "limit": 1,
            },
            ["k23"],
        ),
    ],
)
def test_a_search_holds_one_value_at_a_time(tmp_path: Path, search: dict[str, Any], keys: list[str]) -> None:
    db = tmp_path / "store.db"
    kernel = open_kernel(str(db), create=True, clock=ManualClock(T0))
    assert kernel.call("graph.namespace.create", {"prefix": "big"}, principal=AGENT).ok
    for index in range(VALUES):
        value = _value(index)
        put = {
            "namespace": ["big"],
            "key": f"k{index}",
            "value_hash": hash_of(canonical_bytes(value)),
            "value": value,
        }
        assert kernel.call("graph.store.put", put, principal=AGENT).ok
    scores(b"\0\0\x80?", 1, b"\0\0\x80?")  # numpy imported (when installed) before measuring
    tracemalloc.start()
    try:
        result = kernel.call("graph.store.search", {"namespace_prefix": ["big"], **search}, principal=AGENT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    kernel.close()
    assert result.ok, result
    assert [item["key"] for item in result.value["items"]] == keys
    assert peak < 5 * SIZE, f"a search under 24 values of {SIZE} bytes peaked at {peak} bytes"
    reader = JournalReader.open(str(db))
    try:
        assert verify_journal(reader, table=SYSCALL_TABLE).verified
    finally:
        reader.close()

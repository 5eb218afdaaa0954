"""The calls, runs and reference of the backend contract (tests/test_contract.py) and of the
cross-backend audit (tests/test_cross_backend.py).

A scenario is a list of calls exercising one syscall family with its refusals. ``run_calls`` runs one
on a database with a fixed ManualClock and journal id and returns everything observable about it;
``reference`` is the same run on the reference backend, SQLite in memory.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from graph_values import carried, stored
from sqlalchemy import Engine

from arvis.canonical import sha256_hex
from journal.engine import open_engine
from journal.reader import JournalReader
from journal.state import state_digest
from journal.store import ManualClock
from kernel.abi import JournalEntry
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

JOURNAL_ID = "j-contract"
TIME_FORM = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z")
AGENT, OPERATOR, PRINCIPAL, USER = "agent:planner", "operator:alice", "user:u1", "u1"
Call = h.Call

# --------------------------------------------------------------------------------------------------
# scenarios: every syscall family, with its refusals


def _at(seconds: float) -> str:
    """An ``expires_at`` argument ``seconds`` after the clock's start (the clock moves 1 s per call)."""
    return (h.T0 + timedelta(seconds=seconds)).isoformat()


WRITE: dict[str, Any] = {
    "user_id": USER,
    "key": "language",
    "memory_type": "preference",
    "source": "explicit_user",
}

MEMORY: list[Call] = [
    ("memory.write", WRITE, PRINCIPAL),  # 1
    ("memory.write", {**WRITE, "key": "timezone", "source": "onboarding"}, PRINCIPAL),
    ("memory.get", {"user_id": USER, "key": "language"}, PRINCIPAL),
    ("memory.write", WRITE, PRINCIPAL),  # conflict
    ("memory.write", {**WRITE, "replace": True, "value_ref": "ref-2"}, PRINCIPAL),  # 5
    ("memory.write", {**WRITE, "key": "no_ads", "source": "governance"}, PRINCIPAL),  # policy denied
    ("memory.snapshot", {"user_id": USER}, PRINCIPAL),
    ("memory.revoke", {"user_id": USER, "key": "timezone"}, PRINCIPAL),
    ("memory.get", {"user_id": USER, "key": "timezone"}, PRINCIPAL),  # revoked
    ("memory.list", {"user_id": USER, "include_inactive": True}, PRINCIPAL),  # 10
    (
        "memory.write",
        {**WRITE, "key": "tone_style", "memory_type": "style", "expires_at": _at(12.5)},
        PRINCIPAL,
    ),
    ("memory.get", {"user_id": USER, "key": "tone_style"}, PRINCIPAL),  # still active
    ("memory.list", {"user_id": USER}, PRINCIPAL),
    ("memory.get", {"user_id": USER, "key": "tone_style"}, PRINCIPAL),  # expired by now
    ("memory.get", {"user_id": USER, "key": "nowhere"}, PRINCIPAL),  # 15 not found
    ("memory.get", {"user_id": USER, "key": " padded"}, PRINCIPAL),  # invalid key
    ("memory.get", {"user_id": USER, "key": "language"}, AGENT),  # not the user's: denied
    ("memory.write", {**WRITE, "user_id": "u2", "notes": "ttl_default", "value_ref": "ref: é ☃ 𝄞"}, OPERATOR),
    ("memory.snapshot", {"user_id": "u2"}, OPERATOR),
    ("memory.list", {"user_id": USER, "include_inactive": True}, PRINCIPAL),  # 20
]
MEMORY_STATUSES = [
    *("ok", "ok", "ok", "memory_conflict", "ok", "memory_policy_denied", "ok", "ok", "memory_entry_revoked"),
    *("ok", "ok", "ok", "ok", "memory_entry_expired", "memory_entry_not_found", "memory_invalid_key"),
    *("memory_policy_denied", "ok", "ok", "ok"),
]

ACCESS: list[Call] = [
    ("memory.write", WRITE, PRINCIPAL),
    ("access.grant", {"principal": AGENT, "capability": "read", "scope": f"user:{USER}"}, OPERATOR),
    ("access.grant", {"principal": AGENT, "capability": "write", "scope": "*"}, AGENT),  # not an admin
    ("memory.get", {"user_id": USER, "key": "language"}, AGENT),
    ("access.list", {}, OPERATOR),
    ("access.list", {"principal": AGENT}, AGENT),
    ("access.revoke", {"principal": AGENT, "capability": "read", "scope": f"user:{USER}"}, OPERATOR),
    ("memory.get", {"user_id": USER, "key": "language"}, AGENT),  # denied again
    ("access.grant", {"principal": AGENT, "capability": "everything"}, OPERATOR),  # invalid args
]

# format 2 (access-and-pipelines.md §1.7): the operator creates (and owns) the context, and lets the agent
# read and write it
AWMU: list[Call] = [
    ("access.grant", {"principal": AGENT, "capability": "read", "scope": "context:campaign"}, OPERATOR),  # 1
    ("access.grant", {"principal": AGENT, "capability": "write", "scope": "context:campaign"}, OPERATOR),
    ("memory.awmu.create", {"context_id": "campaign"}, OPERATOR),  # 3
    ("memory.awmu.create", {"context_id": "campaign"}, OPERATOR),  # 4 context exists
    ("memory.awmu.seed", {"context_id": "campaign", "text": "The king is alive", "pinned": True}, OPERATOR),
    ("memory.awmu.seed", {"context_id": "campaign", "text": "The user lives in Paris"}, OPERATOR),
    (
        "memory.awmu.propose",
        {"context_id": "campaign", "text": "The user prefers tea", "source": "user", "confidence": 0.9},
        AGENT,
    ),
    (
        "memory.awmu.propose",
        {
            "context_id": "campaign",
            "text": "The king is dead",
            "source": "player",
            "confidence": 0.65,
            "verdicts": [{"unit_id": "u5-0", "type": "CONTRADICTION", "confidence": 0.95}],
        },
        AGENT,
    ),
    ("memory.awmu.turn", {"context_id": "campaign", "reinforce": ["u5-0", "u6-0"]}, AGENT),
    ("memory.awmu.pin", {"context_id": "campaign", "unit_id": "u6-0"}, OPERATOR),
    ("memory.awmu.unpin", {"context_id": "campaign", "unit_id": "u6-0"}, OPERATOR),
    ("memory.awmu.canonize", {"context_id": "campaign", "unit_id": "u6-0", "reason": "confirmed"}, AGENT),
    ("memory.awmu.review", {"request_id": "c12", "decision": "approve"}, OPERATOR),
    ("memory.awmu.review", {"request_id": "c12", "decision": "approve"}, OPERATOR),  # decided
    ("memory.awmu.review", {"request_id": "r7", "decision": "approve"}, OPERATOR),
    ("memory.awmu.archive", {"context_id": "campaign", "unit_id": "u5-0", "reason": "stale"}, OPERATOR),
    ("memory.awmu.get", {"context_id": "campaign", "unit_id": "u5-0"}, AGENT),
    ("memory.awmu.get", {"context_id": "campaign", "unit_id": "nope"}, AGENT),  # unit not found
    ("memory.awmu.list", {"context_id": "campaign", "status": "all"}, AGENT),
    ("memory.awmu.assemble", {"context_id": "campaign", "token_budget": 40}, AGENT),
    ("memory.awmu.events", {"context_id": "campaign", "after_seq": 4, "limit": 50}, AGENT),
    ("memory.awmu.pressure", {"context_id": "campaign"}, AGENT),
    (
        "memory.awmu.validate_summary",
        {"context_id": "campaign", "summary": "The king is dead", "strict": True},
        AGENT,
    ),
    ("memory.awmu.list", {"context_id": "elsewhere"}, OPERATOR),  # context not found
    (
        "memory.awmu.propose",
        {"context_id": "campaign", "text": "", "source": "user", "confidence": 0.5},
        AGENT,
    ),
    ("memory.awmu.seed", {"context_id": "campaign", "text": "x", "rank": 901}, OPERATOR),  # invalid args
    ("memory.awmu.restore", {"context_id": "campaign", "unit_id": "u5-0", "reason": "back"}, OPERATOR),
    ("memory.awmu.restore", {"context_id": "campaign", "unit_id": "u5-0"}, OPERATOR),  # active already
    (
        "memory.awmu.reopen_request",
        {"request_id": "c12", "note": "again"},
        OPERATOR,
    ),  # approved at 13: PENDING
    ("memory.awmu.reopen_request", {"request_id": "c12"}, OPERATOR),  # pending: not decided
    ("memory.awmu.close", {"context_id": "campaign", "reason": "done"}, AGENT),  # write is not enough
    ("memory.awmu.close", {"context_id": "campaign", "reason": "done"}, OPERATOR),
    ("memory.awmu.seed", {"context_id": "campaign", "text": "The queen rules"}, OPERATOR),  # closed
    ("memory.awmu.list", {"context_id": "campaign"}, AGENT),  # an audit still reads it
]

KERNEL_AND_PIPELINE: list[Call] = [
    (
        "kernel.record",
        {
            "kind": "model.answer",
            "run_id": "r-1",
            "payload": {
                "text": "Grüße ☃ 𝄞",
                "scores": [0.1, 1e-7, 2.5e300, -0.0, 1 / 3],
                "big": 2**62,
                "nested": {"b": [None, True, {"a": []}]},
            },
        },
        AGENT,
    ),
    ("kernel.record", {"kind": "Bad Kind"}, AGENT),  # invalid args
    ("memory.write", WRITE, PRINCIPAL),
    ("pipeline.begin", {"user_id": USER, "run_id": "run-1"}, PRINCIPAL),
    ("memory.snapshot", {"user_id": USER, "run_id": "run-1"}, PRINCIPAL),
    ("memory.write", {**WRITE, "key": "timezone"}, PRINCIPAL),  # refused: the run holds the user
    ("pipeline.begin", {"user_id": USER, "run_id": "run-1"}, PRINCIPAL),  # run exists
    ("pipeline.end", {"run_id": "run-1"}, PRINCIPAL),
    ("pipeline.end", {"run_id": "run-1"}, PRINCIPAL),  # ended
    ("pipeline.end", {"run_id": "run-2"}, PRINCIPAL),  # not found
    ("memory.write", {**WRITE, "key": "timezone"}, PRINCIPAL),
]

# LangGraph checkpoints (specs/langgraph.md): the agent claims thread t1 by its first put; every value a
# call stores travels with it (from format 8 its bytes alone, named by their hash); a hash is refused
_R1, _R2, _R3 = (carried(data) for data in (b"checkpoint", b"messages 1", b"messages 2"))
_H1, _H2 = sha256_hex(b"checkpoint"), sha256_hex(b"messages 1")
_V1, _V2 = f"{1:032}.{0.25:016}", f"{2:032}.{0.5:016}"
_PUT: dict[str, Any] = {
    "thread_id": "t1",
    "checkpoint_id": "1f0-c1",
    "checkpoint": _R1,
    "metadata": {"source": "input", "step": -1, "parents": {}, "run_id": "run-a"},
    "channel_versions": {"messages": _V1},
    "new_values": [{"channel": "messages", **_R2}],  # its version: channel_versions' (format 8)
}
_PUT_2: dict[str, Any] = {
    **_PUT,
    "checkpoint_id": "1f0-c2",
    "parent_checkpoint_id": "1f0-c1",
    "metadata": {"source": "loop", "step": 0, "parents": {}, "run_id": "run-b"},
    "channel_versions": {"messages": _V2, "scratch": 1},
    "new_values": [
        {"channel": "messages", "version": _V2, **_R3},
        {"channel": "scratch", "version": 1, "type": "empty"},
    ],
}
_WRITES: dict[str, Any] = {
    "thread_id": "t1",
    "checkpoint_id": "1f0-c2",
    "task_id": "task-1",
    "task_path": "~__pregel_pull, agent",
    "writes": [
        {"channel": "messages", **_R2},
        {"channel": "__error__", **_R3},
    ],
}
_AT = {"thread_id": "t1", "checkpoint_ns": "", "checkpoint_id": "1f0-c1"}
GRAPH: list[Call] = [
    ("graph.thread.create", {"thread_id": "t1"}, AGENT),  # format 4: a name is created before its use
    ("graph.thread.create", {"thread_id": "t1"}, PRINCIPAL),  # taken: refused
    ("graph.checkpoint.put", _PUT, AGENT),
    ("graph.checkpoint.put", _PUT_2, AGENT),
    ("graph.checkpoint.put_writes", _WRITES, AGENT),
    ("graph.checkpoint.put_writes", _WRITES, AGENT),  # the regular write is kept, the error replaced
    ("graph.checkpoint.get", {"thread_id": "t1"}, AGENT),  # 5: the latest, with its writes
    ("graph.checkpoint.get", {"thread_id": "t1", "checkpoint_id": "1f0-c1"}, AGENT),
    ("graph.checkpoint.list", {"thread_id": "t1", "filter": {"step": 0}}, AGENT),
    ("graph.checkpoint.list", {}, OPERATOR),  # every thread: an administrator reads them all
    ("graph.checkpoint.get", {"thread_id": "t1"}, PRINCIPAL),  # not the owner: denied
    ("graph.checkpoint.put", {**_PUT, "checkpoint_id": "1f0-c9"}, PRINCIPAL),  # 10: denied
    (
        "graph.checkpoint.put",
        {**_PUT, "new_values": [{"channel": "x", "version": 1, "type": "msgpack"}]},
        AGENT,
    ),
    (  # a value without its bytes: refused, whether or not anyone stored them
        "graph.checkpoint.put",
        {**_PUT, "checkpoint": {"type": "msgpack"}},
        AGENT,
    ),
    ("graph.thread.copy", {"source_thread_id": "t1", "target_thread_id": "t2"}, AGENT),
    ("graph.thread.copy", {"source_thread_id": "t1", "target_thread_id": "t1"}, AGENT),  # invalid args
    ("graph.thread.prune", {"thread_ids": ["t2"]}, AGENT),
    ("graph.thread.prune", {"thread_ids": ["t1"], "strategy": "delete"}, PRINCIPAL),  # 15: denied
    ("graph.runs.delete", {"run_ids": ["run-a"]}, AGENT),
    ("graph.runs.delete", {"run_ids": "run-a"}, AGENT),  # invalid args
    ("graph.checkpoint.list", {"thread_id": "t2", "limit": 1}, AGENT),
    ("graph.thread.delete", {"thread_id": "t1"}, AGENT),
    ("graph.thread.delete", {"thread_id": "t2"}, PRINCIPAL),  # 20: denied
    ("graph.thread.delete", {"thread_id": "t2"}, AGENT),
    ("graph.checkpoint.get", {"thread_id": "t2"}, AGENT),  # nothing left: null
    ("graph.checkpoint.put", _PUT, AGENT),  # t1 stays the agent's once deleted
    ("graph.blobs.get", {"hashes": [_H2, _H1], "checkpoints": [_AT]}, AGENT),  # hashes journaled
    ("graph.blobs.get", {"hashes": [_H1], "checkpoints": [_AT]}, PRINCIPAL),  # may not read t1
    (
        "graph.blobs.get",
        {"hashes": [sha256_hex(b"messages 2")], "checkpoints": [_AT]},
        AGENT,
    ),  # not its value: denied
    ("graph.blobs.get", {"hashes": ["ABC"]}, AGENT),  # invalid args
]

# LangGraph's store (specs/langgraph.md §9): the agent claims "prefs" by its first put, which carries
# its value; no search filters (an in-memory reference binds no blob reader: it would be refused there)
_UTC, _CET = stored({"tz": "UTC"}), stored({"tz": "CET"})
GRAPH_STORE: list[Call] = [
    ("graph.namespace.create", {"prefix": "prefs"}, AGENT),  # format 4: a name is created before its use
    ("graph.namespace.create", {"prefix": "prefs"}, PRINCIPAL),  # taken: refused
    ("graph.store.put", {"namespace": ["prefs", "u1"], "key": "tz", **_UTC}, AGENT),
    ("graph.store.put", {"namespace": ["prefs", "u2"], "key": "tz", **_CET, "ttl": 1}, AGENT),
    (
        "graph.store.put",
        {"namespace": ["prefs", "u1"], "key": "tz", **_CET},
        AGENT,
    ),  # keeps its place
    ("graph.store.get", {"namespace": ["prefs", "u1"], "key": "tz"}, AGENT),
    ("graph.store.get", {"namespace": ["prefs", "u2"], "key": "tz"}, AGENT),  # 5: refreshes its ttl
    ("graph.store.search", {"namespace_prefix": ["prefs"], "limit": 1, "offset": 1}, AGENT),
    ("graph.store.search", {"query": "recorded, ignored"}, OPERATOR),  # an administrator reads them all
    ("graph.store.list_namespaces", {"match_conditions": [{"match_type": "suffix", "path": ["*"]}]}, AGENT),
    ("graph.store.list_namespaces", {"max_depth": 1}, PRINCIPAL),  # not the owner's: nothing
    ("graph.store.get", {"namespace": ["prefs", "u1"], "key": "tz"}, PRINCIPAL),  # 10: denied
    ("graph.store.put", {"namespace": ["prefs"], "key": "x", **_UTC}, PRINCIPAL),  # denied
    ("graph.store.search", {"filter": {"a": {"$regex": "x"}}}, AGENT),  # invalid args
    ("graph.store.put", {"namespace": [], "key": "x", **_UTC}, AGENT),  # invalid args
    (  # a hash named without its value: refused alike whether or not anyone stored it
        "graph.store.put",
        {"namespace": ["prefs", "u3"], "key": "tz", "value_hash": _UTC["value_hash"]},
        AGENT,
    ),
    ("graph.store.put", {"namespace": ["prefs", "u1"], "key": "tz", "value_hash": None}, AGENT),
    ("graph.store.put", {"namespace": ["prefs", "u2"], "key": "tz", "value_hash": None}, AGENT),  # 15
    ("graph.store.get", {"namespace": ["prefs", "u2"], "key": "tz"}, AGENT),  # deleted: null
]

ODD: list[Call] = [
    ("memory.unknown", {}, AGENT),
    ("", {}, AGENT),
    (None, {}, AGENT),
    ("memory.list", None, AGENT),
    ("memory.list", [1, 2], AGENT),
    ("memory.list", {"user_id": 2**70}, AGENT),
    ("memory.list", {"user_id": "u1", "x": float("nan")}, AGENT),
    ("memory.list", {1: "non-string key"}, AGENT),
    ("memory.list", {"user_id": "bad\x01id"}, AGENT),
    ("memory.list", {"user_id": USER}, "bad\nprincipal"),
    ("memory.list", {"user_id": USER}, 7),
    ("memory.list", {"user_id": USER}, "agent:ünïcødé ☃"),
    ("memory.get", {"user_id": USER, "key": "a\x00b"}, AGENT),  # NUL only inside args bytes: fine
]

# ids whose bytewise order differs from any natural-language collation (ICU en-US: a A ä b B ...)
COLLATION_IDS = ["b", "B", "a", "A", "é", "e", "Z", "_u", "~u", "ä", "ß", "10", "9", "a b", "ab"]
COLLATION: list[Call] = [
    *(("memory.write", {**WRITE, "user_id": user}, OPERATOR) for user in COLLATION_IDS),
    *(("memory.awmu.create", {"context_id": context}, OPERATOR) for context in COLLATION_IDS),
    *(("pipeline.begin", {"user_id": user, "run_id": f"run {user}"}, OPERATOR) for user in COLLATION_IDS[:4]),
    *(
        ("access.grant", {"principal": f"agent:{user}", "capability": "read", "scope": user}, OPERATOR)
        for user in COLLATION_IDS[:6]
    ),
]

SCENARIOS: dict[str, list[Call]] = {
    "memory": MEMORY,
    "access": ACCESS,
    "awmu": AWMU,
    "kernel_pipeline": KERNEL_AND_PIPELINE,
    "odd": ODD,
    "collation": COLLATION,
    "graph": GRAPH,
    "graph_store": GRAPH_STORE,
}

# text columns cannot hold U+0000 on PostgreSQL; these calls carry it into a text column or a lookup
NUL_IN_TEXT: list[Call] = [
    ("memory.write", {**WRITE, "value_ref": "ref\x00"}, PRINCIPAL),
    ("memory.list", {"user_id": USER}, "agent\x00"),
    ("memory\x00list", {"user_id": USER}, AGENT),
    ("memory.awmu.create", {"context_id": f"{AGENT}/c1"}, AGENT),  # the agent's own (format 2)
    ("memory.awmu.get", {"context_id": f"{AGENT}/c1", "unit_id": "u\x00"}, AGENT),
]


# --------------------------------------------------------------------------------------------------
# runs and the reference


def clock() -> ManualClock:
    return ManualClock(h.T0, step=h.STEP)


@dataclass(frozen=True)
class Run:
    """Everything observable about a run: results, journal, header and state."""

    results: list[dict[str, Any]]
    entries: list[JournalEntry]
    header: tuple[str, int, str, str]
    digest: str


def observe(kernel: Kernel, results: Sequence[Any]) -> Run:
    header = kernel.store.header  # type: ignore[attr-defined]
    with kernel.store.engine.connect() as connection:  # type: ignore[attr-defined]
        digest = state_digest(connection)
    return Run(
        results=[result.to_dict() for result in results],
        entries=list(JournalReader(kernel.store.engine).entries()),  # type: ignore[attr-defined]
        header=(header.journal_id, header.format_version, header.created_at, header.genesis_hash),
        digest=digest,
    )


def run_calls(target: str, calls: Sequence[Call], *, batch: bool = False) -> Run:
    kernel = open_kernel(target, clock=clock(), journal_id=JOURNAL_ID, identity=h.VOUCHED, create=True)
    try:
        results = kernel.call_many(calls) if batch else h.run_calls(kernel, calls)
        return observe(kernel, results)
    finally:
        kernel.close()


@functools.cache
def reference(name: str) -> Run:
    """The scenario run on the reference backend, SQLite in memory."""
    return run_calls(":memory:", SCENARIOS[name])


def assert_same_run(found: Run, expected: Run) -> None:
    assert found.header == expected.header
    assert found.results == expected.results
    for got, want in zip(found.entries, expected.entries, strict=True):
        assert got == want, f"seq {want.seq} differs"
    assert found.digest == expected.digest


def has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(key) or has_nul(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(has_nul(item) for item in value)
    return False


@contextmanager
def engine_of(target: str) -> Iterator[Engine]:
    engine = open_engine(target)
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def reader_of(target: str) -> Iterator[JournalReader]:
    reader = JournalReader.open(target)
    try:
        yield reader
    finally:
        reader.close()

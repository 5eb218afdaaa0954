"""The content digest: what the memory holds, without the bookkeeping of how and when it got there.

The state digest (``journal/state.py``) covers every stored byte, so two stores reach it only by the
same calls at the same seqs. A rollback reaches the state a journal would have without one principal's
calls by *other* calls (revokes, archives, re-seeds) at *later* seqs: its rows carry other versions,
seqs, unit ids and times even where the memory says the same thing. This digest keeps what the memory
says (which entries are in force, which units are active, which grants and runs hold) and leaves out
what only records history, so the two can be compared (``journal-format.md`` §13).

Records are digested one by one and their hashes sorted, table by table: the content has no key of its
own (a unit's id is seq-derived and left out), so no SQL order serves; memory is 32 bytes a record.

A closed working-memory context (``memory.awmu.close``) holds nothing in force: it and everything in it
(its units, queued proposals and canonization requests) are left out, as if it did not exist.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import orjson
from sqlalchemy import Connection, inspect, select

from arvis.canonical import canonical_bytes_of_own
from journal.rows import fetch_tuples
from journal.schema import (
    awmu_canon_requests,
    awmu_contexts,
    awmu_reviews,
    awmu_units,
    grants,
    memory_entries,
    pipeline_runs,
)
from journal.state import iter_state_rows

CONTENT_TABLES = (
    "memory_entries",
    "awmu_contexts",
    "awmu_units",
    "awmu_reviews",
    "awmu_canon_requests",
    "pipeline_runs",
    "grants",
)
"""The tables the content digest reads, in the order they enter it."""

_ENTRY_FIELDS = ("user_id", "key", "memory_type", "source", "notes", "value_ref", "expires_at", "governance")
"""What a long-term entry in force says. Left out: ``version``, ``created_at``, ``written_seq`` (when and
by which call it was written) and ``revoked_at``/``superseded_at`` (only entries in force enter)."""

_UNIT_FIELDS = ("context_id", "text", "authority", "pinned", "source_ids")
"""What an active unit says. Left out: ``unit_id``, ``created_seq``, ``updated_seq``, ``supersedes``,
``superseded_by`` (seq-derived), ``rank``, ``tier``, ``reinforcement_count``, ``last_reinforced_turn``
(its activation, which every turn moves), ``confidence``, ``trust_*``, ``authority_ceiling`` (how it was
admitted, which a re-seed cannot repeat)."""


def stored_body(text: Any) -> dict[str, Any]:
    """A stored JSON column (a record's ``body``, an entry's ``governance``) as an object; {} otherwise."""
    value = orjson.loads(text) if isinstance(text, str | bytes) else None
    return value if isinstance(value, dict) else {}


def entry_content(row: dict[str, Any]) -> dict[str, Any]:
    """An entry's content from its ``memory_entries`` row (``governance`` as its canonical text)."""
    return {name: row[name] for name in _ENTRY_FIELDS}


def unit_content(body: dict[str, Any]) -> dict[str, Any]:
    """A unit's content from its record; ``source_ids`` as a sorted list (a set of sources)."""
    content = {name: body.get(name) for name in _UNIT_FIELDS}
    content["source_ids"] = sorted(body.get("source_ids") or [])
    return content


def context_content(body: dict[str, Any]) -> dict[str, Any]:
    """A context's identity and fixed configuration; its turn counter and window are left out (they
    count calls, a skipped turn among them)."""
    return {"context_id": body.get("context_id"), "config": body.get("config"), "rules": body.get("rules", 1)}


def _entries(connection: Connection) -> Iterator[dict[str, Any]]:
    for row in iter_state_rows(connection, memory_entries):
        if row["revoked_at"] is None and row["superseded_at"] is None:
            yield entry_content(row)


def closed_contexts(connection: Connection) -> frozenset[str]:
    """The ids of the closed working-memory contexts (their record names a closure); none where the
    table is absent."""
    if "awmu_contexts" not in set(inspect(connection).get_table_names()):
        return frozenset()
    return frozenset(
        str(row["context_id"])
        for row in iter_state_rows(connection, awmu_contexts)
        if stored_body(row["body"]).get("closed") is not None
    )


def _contexts(connection: Connection, closed: frozenset[str]) -> Iterator[dict[str, Any]]:
    for row in iter_state_rows(connection, awmu_contexts):
        if row["context_id"] not in closed:
            yield context_content(stored_body(row["body"]))


def _units(connection: Connection, closed: frozenset[str]) -> Iterator[dict[str, Any]]:
    for row in iter_state_rows(connection, awmu_units):
        if row["status"] == "ACTIVE" and row["context_id"] not in closed:
            yield unit_content(stored_body(row["body"]))


def _reviews(connection: Connection, closed: frozenset[str]) -> Iterator[dict[str, Any]]:
    for row in iter_state_rows(connection, awmu_reviews):
        if row["status"] == "PENDING" and row["context_id"] not in closed:
            body = stored_body(row["body"])
            yield {name: body.get(name) for name in ("context_id", "text", "source")}


def _canon_requests(connection: Connection, closed: frozenset[str]) -> Iterator[dict[str, Any]]:
    texts: dict[str, Any] = {}
    for row in iter_state_rows(connection, awmu_canon_requests):
        if row["status"] != "PENDING" or row["context_id"] in closed:
            continue
        unit = row["unit_id"]
        if unit not in texts:
            bodies = fetch_tuples(connection, select(awmu_units.c.body).where(awmu_units.c.unit_id == unit))
            texts[unit] = stored_body(bodies[0][0]).get("text") if bodies else None
        body = stored_body(row["body"])
        yield {
            "context_id": body.get("context_id"),
            "unit_text": texts[unit],
            "requested_by": body.get("requested_by"),
            "reason": body.get("reason"),
        }


def _runs(connection: Connection) -> Iterator[dict[str, Any]]:
    for row in iter_state_rows(connection, pipeline_runs):
        if row["ended_seq"] is None:
            yield {"run_id": row["run_id"], "user_id": row["user_id"], "principal": row["principal"]}


def _grants(connection: Connection, withdrawn: frozenset[str]) -> Iterator[dict[str, Any]]:
    for row in iter_state_rows(connection, grants):
        if row["principal"] not in withdrawn:
            yield {"principal": row["principal"], "capability": row["capability"], "scope": row["scope"]}


def content_digest(connection: Connection, *, withdrawn: frozenset[str] = frozenset()) -> str:
    """SHA-256 over ``arvis-content``, then per table in ``CONTENT_TABLES`` order the frame of the
    table's name and its number of records, then the sorted SHA-256s of its records' canonical JSON."""
    return content_digests(connection, withdrawn=withdrawn)[0]


def content_digests(
    connection: Connection, *, withdrawn: frozenset[str] = frozenset()
) -> tuple[str, dict[str, str]]:
    """``content_digest`` and, per table of ``CONTENT_TABLES``, the digest of that table alone (SHA-256
    over ``arvis-content``, the table's frame and its sorted record hashes): where two memories differ.

    ``withdrawn``: principals whose grants are left out (a rollback withdraws the grants of the principal
    it rolls back, which a replay without that principal's calls still holds: administrators gave them). A
    closed context and its units, queued proposals and canonization requests are left out
    (``closed_contexts``)."""
    present = set(inspect(connection).get_table_names())
    closed = closed_contexts(connection)
    digest = hashlib.sha256(b"arvis-content")
    tables: dict[str, str] = {}
    # generators: a table's records are read only when its own are iterated, and only if it is present
    readers = {
        "memory_entries": _entries(connection),
        "awmu_contexts": _contexts(connection, closed),
        "awmu_units": _units(connection, closed),
        "awmu_reviews": _reviews(connection, closed),
        "awmu_canon_requests": _canon_requests(connection, closed),
        "pipeline_runs": _runs(connection),
        "grants": _grants(connection, withdrawn),
    }
    for name in CONTENT_TABLES:
        records = readers[name] if name in present else ()
        hashes = sorted(hashlib.sha256(canonical_bytes_of_own(record)).digest() for record in records)
        header = canonical_bytes_of_own([name, len(hashes)])
        framed = len(header).to_bytes(8, "big") + header + b"".join(hashes)
        digest.update(framed)
        tables[name] = hashlib.sha256(b"arvis-content" + framed).hexdigest()
    return digest.hexdigest(), tables

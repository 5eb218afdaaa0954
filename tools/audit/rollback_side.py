"""Point reads of one store for rollback planning (``tools.audit.rollback``): the live store, or the
counterfactual's scratch store (``tools/audit/counterfactual.py``), which share every seq-derived id, so a
unit, a request or an entry is looked up by the same key on both sides.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, inspect, or_, select

from journal.content_digest import stored_body
from journal.rows import fetch_tuples
from journal.schema import (
    awmu_canon_requests,
    awmu_contexts,
    awmu_events,
    awmu_reviews,
    awmu_units,
    grants,
    graph_channel_values,
    graph_checkpoints,
    graph_store_items,
    graph_store_owners,
    graph_thread_owners,
    graph_writes,
    journal,
    memory_entries,
    pipeline_runs,
)
from tools.audit.forensics import Tracer

GRAPH_DELETIONS = ("graph.thread.delete", "graph.thread.prune", "graph.runs.delete")
"""The graph syscalls whose only effect may be deleting rows (a store delete is a ``graph.store.put``)."""


class StoreSide:
    """Point reads of one store (live, or the counterfactual's scratch store)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.tables = set(inspect(connection).get_table_names())

    def entry(self, user_id: str, key: str) -> dict[str, Any] | None:
        """The entry in force for (user, key): neither revoked nor superseded; None when there is none."""
        column = memory_entries.c
        statement = select(memory_entries).where(column.user_id == user_id, column.key == key)
        names = [str(item.name) for item in memory_entries.columns]
        for values in fetch_tuples(self.connection, statement):
            row = dict(zip(names, values, strict=True))
            if row["revoked_at"] is None and row["superseded_at"] is None:
                return row
        return None

    def unit(self, unit_id: str) -> dict[str, Any] | None:
        return self._body(awmu_units, awmu_units.c.unit_id, unit_id)

    def pending(self, request_id: str) -> dict[str, Any] | None:
        """A canonization request (``c…``) or a queued proposal (``r…``)."""
        if request_id.startswith("c"):
            return self._body(awmu_canon_requests, awmu_canon_requests.c.request_id, request_id)
        return self._body(awmu_reviews, awmu_reviews.c.review_id, request_id)

    def _body(self, table: Any, column: Any, key: str) -> dict[str, Any] | None:
        if table.name not in self.tables:
            return None
        rows = fetch_tuples(self.connection, select(table.c.body).where(column == key))
        return stored_body(rows[0][0]) if rows else None

    def context(self, context_id: str) -> dict[str, Any] | None:
        return self._body(awmu_contexts, awmu_contexts.c.context_id, context_id)

    def closed(self) -> dict[str, dict[str, Any]]:
        """Closed context id -> its closure (``{seq, reason, by}``)."""
        if awmu_contexts.name not in self.tables:
            return {}
        statement = select(awmu_contexts.c.context_id, awmu_contexts.c.body)
        found = {
            str(key): stored_body(body).get("closed")
            for key, body in fetch_tuples(self.connection, statement)
        }
        return {key: closure for key, closure in found.items() if isinstance(closure, dict)}

    def reopened_by(self, principal: str) -> set[str]:
        """The requests and queued proposals ``principal`` reopened (its ``reopened`` events)."""
        if awmu_events.name not in self.tables:
            return set()
        statement = select(awmu_events.c.body).where(awmu_events.c.kind == "reopened")
        details = (
            stored_body(row[0]).get("detail") or {} for row in fetch_tuples(self.connection, statement)
        )
        return {
            str(detail.get("request_id"))
            for detail in details
            if isinstance(detail, dict) and detail.get("by") == principal
        }

    def held_by_others(self, context_id: str, tracer: Tracer, principal: str) -> list[str]:
        """What the context holds that the principal's calls did not make: units it did not create (an
        approval of its queued proposal by another counts as its own), queued proposals it did not queue,
        canonization requests others asked for."""
        found: list[str] = []
        for table, key in ((awmu_units, "unit_id"), (awmu_reviews, "review_id")):
            if table.name in self.tables:
                statement = select(table.c[key]).where(table.c.context_id == context_id)
                ids = {str(row[0]) for row in fetch_tuples(self.connection, statement)}
                found += sorted(ids - (set(tracer.units) if key == "unit_id" else tracer.queued))
        if awmu_canon_requests.name in self.tables:
            column = awmu_canon_requests.c
            statement = select(column.request_id, column.body).where(column.context_id == context_id)
            found += sorted(
                str(request)
                for request, body in fetch_tuples(self.connection, statement)
                if stored_body(body).get("requested_by") != principal
            )
        return found

    def grants(self) -> set[tuple[str, str, str]]:
        if "grants" not in self.tables:
            return set()
        statement = select(grants.c.principal, grants.c.capability, grants.c.scope)
        return {(str(a), str(b), str(c)) for a, b, c in fetch_tuples(self.connection, statement)}

    def context_of(self, request_id: str) -> str | None:
        """The context of a canonization request (``c…``) or queued proposal (``r…``)."""
        table = awmu_canon_requests if request_id.startswith("c") else awmu_reviews
        key = table.c.request_id if request_id.startswith("c") else table.c.review_id
        if table.name not in self.tables:
            return None
        rows = fetch_tuples(self.connection, select(table.c.context_id).where(key == request_id))
        return str(rows[0][0]) if rows else None

    def graph_footprint(self, principal: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Thread id -> and store prefix -> what ``principal`` holds there live: ownership (the owner
        tables) and the rows its own calls wrote (``written_seq`` joined to the journal's principal)."""
        threads: dict[str, list[str]] = {}
        prefixes: dict[str, list[str]] = {}
        owners = (
            (graph_thread_owners, graph_thread_owners.c.thread_id, threads),
            (graph_store_owners, graph_store_owners.c.prefix, prefixes),
        )
        for table, key, found in owners:
            if table.name in self.tables:
                column = table.c
                statement = select(key, column.created_seq).where(column.owner == principal)
                for name, seq in fetch_tuples(self.connection, statement):
                    found.setdefault(str(name), []).append(f"owned by the principal since seq {seq}")
        written = (
            (graph_checkpoints, graph_checkpoints.c.thread_id, "checkpoints", threads),
            (graph_writes, graph_writes.c.thread_id, "pending writes", threads),
            (graph_channel_values, graph_channel_values.c.thread_id, "channel values", threads),
            (graph_store_items, graph_store_items.c.prefix, "store items", prefixes),
        )
        for table, key, what, found in written:
            if table.name not in self.tables or journal.name not in self.tables:
                continue
            statement = (
                select(key, func.count())
                .select_from(table.join(journal, journal.c.seq == table.c.written_seq))
                .where(journal.c.principal == principal)
                .group_by(key)
            )
            for name, count in fetch_tuples(self.connection, statement):
                found.setdefault(str(name), []).append(f"{count} {what} written by the principal")
        return threads, prefixes

    def graph_deletions(self, principal: str) -> list[tuple[int, str]]:
        """The principal's calls that deleted graph rows (seq, syscall): what they deleted is gone."""
        if journal.name not in self.tables:
            return []
        column = journal.c
        statement = (
            select(column.seq, column.syscall)
            .where(column.principal == principal, column.status == "ok")
            .where(or_(*(column.syscall == name for name in GRAPH_DELETIONS)))
            .order_by(column.seq)
        )
        return [(int(seq), str(name)) for seq, name in fetch_tuples(self.connection, statement)]

    def active_runs(self) -> dict[str, str]:
        """Active run id -> its user."""
        if "pipeline_runs" not in self.tables:
            return {}
        column = pipeline_runs.c
        statement = select(column.run_id, column.user_id).where(column.ended_seq.is_(None))
        return {str(run): str(user) for run, user in fetch_tuples(self.connection, statement)}

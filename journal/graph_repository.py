"""The SQL store of LangGraph checkpoint state (``graph_*`` tables), read in one transaction (handlers
return what they change: ``arvis.graph_checkpoints.stored``, ``deleted``). Rows are read in no order
(the handlers sort by code point), except where a read orders or bounds by text itself
(``newest_checkpoints``, ``next_namespace``): it compares bytes, SQLite's BINARY collation or
PostgreSQL's ``COLLATE "C"``, which on UTF-8 text is code-point order."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from arvis.graph_checkpoints import GraphChannelValue, GraphCheckpoint, GraphRepository, GraphWrite
from journal import statements
from journal.sql import SqlRunner
from journal.statements import GRAPH_BATCH, GRAPH_BRANCHES

_CHECKPOINTS = "graph_checkpoints"
_VALUES = "graph_channel_values"
_WRITES = "graph_writes"

_VERSION_NAMES = [[f"v{branch}_{index}" for index in range(GRAPH_BATCH)] for branch in range(GRAPH_BRANCHES)]


def _filtered(table: str, given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A SELECT of the table's rows restricted by the given (non-None) column values."""
    values = {name: value for name, value in given.items() if value is not None}
    return statements.graph_rows(table, tuple(values)), values


# rows as the driver returns them (text as str, integers as int: the tables' types): each read builds
# its tuples straight from the row, without a conversion per column
_checkpoint = GraphCheckpoint._make
_value = GraphChannelValue._make
_write = GraphWrite._make


def _branches(keys: Collection[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """(channel, up to ``GRAPH_BATCH`` of its versions), by channel and version: one branch per channel when,
    as at one checkpoint, each channel is named with one version."""
    if len({channel for channel, _ in keys}) == len(keys):
        return [(channel, [version]) for channel, version in sorted(keys)]
    by_channel: dict[str, set[str]] = {}
    for channel, version in keys:
        by_channel.setdefault(channel, set()).add(version)
    return [
        (channel, versions[start : start + GRAPH_BATCH])
        for channel, versions in sorted((channel, sorted(found)) for channel, found in by_channel.items())
        for start in range(0, len(versions), GRAPH_BATCH)
    ]


class SqlGraphRepository(GraphRepository):
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql
        self._postgres = sql.dialect == "postgresql"

    # --- owners ----------------------------------------------------------------------------------

    def owner_of(self, thread_id: str) -> str | None:
        found = self._sql.scalar(statements.GRAPH_OWNER, {"thread_id": thread_id})
        return None if found is None else str(found)

    def owners(self) -> dict[str, str]:
        return {str(thread): str(owner) for thread, owner in self._sql.rows(statements.GRAPH_OWNERS_ALL)}

    # --- checkpoints -----------------------------------------------------------------------------

    def checkpoint(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> GraphCheckpoint | None:
        sql, values = _filtered(
            _CHECKPOINTS,
            {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "checkpoint_id": checkpoint_id},
        )
        row = self._sql.first(sql, values)
        return None if row is None else _checkpoint(row)

    def checkpoints(self, thread_id: str | None, checkpoint_ns: str | None = None) -> list[GraphCheckpoint]:
        sql, values = _filtered(_CHECKPOINTS, {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns})
        return [_checkpoint(row) for row in self._sql.rows(sql, values)]

    def newest_checkpoints(
        self,
        thread_id: str,
        checkpoint_ns: str,
        *,
        limit: int,
        below: str | None = None,
        checkpoint_id: str | None = None,
    ) -> list[GraphCheckpoint]:
        sql = statements.GRAPH_NEWEST[self._postgres, below is not None, checkpoint_id is not None]
        values: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "limit": limit}
        bounds = {"below": below, "checkpoint_id": checkpoint_id}  # those given: the statement names them
        values.update((name, value) for name, value in bounds.items() if value is not None)
        return [_checkpoint(row) for row in self._sql.rows(sql, values)]

    def next_namespace(self, thread_id: str, after: str | None) -> str | None:
        values = {"thread_id": thread_id} if after is None else {"thread_id": thread_id, "after": after}
        found = self._sql.scalar(statements.GRAPH_NEXT_NAMESPACE[self._postgres, after is not None], values)
        return None if found is None else str(found)

    def namespaces(self, checkpoint_ns: str | None) -> list[tuple[str, str]]:
        rows = (
            self._sql.rows(statements.GRAPH_NAMESPACES)
            if checkpoint_ns is None
            else self._sql.rows(statements.GRAPH_NAMESPACES_OF, {"checkpoint_ns": checkpoint_ns})
        )
        return [(str(thread_id), str(namespace)) for thread_id, namespace in rows]

    # --- channel values --------------------------------------------------------------------------

    def channel_values(self, thread_id: str, checkpoint_ns: str | None = None) -> list[GraphChannelValue]:
        sql, values = _filtered(_VALUES, {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns})
        return [_value(row) for row in self._sql.rows(sql, values)]

    def channel_values_at(
        self, thread_id: str, checkpoint_ns: str, keys: Collection[tuple[str, str]]
    ) -> list[GraphChannelValue]:
        branches = _branches(keys)
        found: list[GraphChannelValue] = []
        for start in range(0, len(branches), GRAPH_BRANCHES):
            group = branches[start : start + GRAPH_BRANCHES]
            # every batch padded by its last version to one power of two: few distinct statements
            size = 1 << (max(len(batch) for _, batch in group) - 1).bit_length()
            values = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
            for branch, (channel, batch) in enumerate(group):
                values[f"c{branch}"] = channel
                padded = batch + [batch[-1]] * (size - len(batch))
                values.update(zip(_VERSION_NAMES[branch][:size], padded, strict=True))
            found.extend(map(_value, self._sql.rows(statements.graph_values_at(len(group), size), values)))
        return found

    # --- pending writes --------------------------------------------------------------------------

    def writes(
        self, thread_id: str, checkpoint_ns: str | None = None, checkpoint_id: str | None = None
    ) -> list[GraphWrite]:
        sql, values = _filtered(
            _WRITES,
            {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "checkpoint_id": checkpoint_id},
        )
        return [_write(row) for row in self._sql.rows(sql, values)]

    def writes_of(
        self, thread_id: str, checkpoint_ns: str, checkpoint_ids: Collection[str]
    ) -> list[GraphWrite]:
        found: list[GraphWrite] = []
        listed = sorted(set(checkpoint_ids))
        for start in range(0, len(listed), GRAPH_BATCH):
            batch = listed[start : start + GRAPH_BATCH]
            # padded by its last id to a power of two: few distinct statements
            padded = batch + [batch[-1]] * ((1 << (len(batch) - 1).bit_length()) - len(batch))
            values = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
            values.update((f"i{index}", checkpoint_id) for index, checkpoint_id in enumerate(padded))
            sql = statements.GRAPH_WRITES_OF[len(padded)]
            found.extend(_write(row) for row in self._sql.rows(sql, values))
        return found

    def write_exists(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str, task_id: str, idx: int
    ) -> bool:
        checkpoint = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "checkpoint_id": checkpoint_id}
        found = self._sql.first(statements.GRAPH_WRITE_EXISTS, checkpoint | {"task_id": task_id, "idx": idx})
        return found is not None

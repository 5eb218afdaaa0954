"""The SQL store of LangGraph checkpoint state (``graph_*`` tables), read in one transaction (handlers
return what they change: ``arvis.graph_checkpoints.stored``, ``deleted``). Rows are read in no order
(the handlers sort by code point), except where a read orders or bounds by text itself
(``newest_checkpoints``, ``next_namespace``): it compares bytes, SQLite's BINARY collation or
PostgreSQL's ``COLLATE "C"``, which on UTF-8 text is code-point order."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterator, Sequence
from typing import Any, TypeVar

from arvis.graph_checkpoints import OWNERS as _OWNERS
from arvis.graph_checkpoints import GraphChannelValue, GraphCheckpoint, GraphRepository, GraphWrite
from journal.sql import SqlRunner

__all__ = ["SqlGraphRepository"]

_CHECKPOINTS = "graph_checkpoints"
_VALUES = "graph_channel_values"
_WRITES = "graph_writes"

_WRITE_KEY = GraphWrite._fields[:5]
_CHECKPOINT_COLUMNS = GraphCheckpoint._fields
_VALUE_COLUMNS = GraphChannelValue._fields
_WRITE_COLUMNS = GraphWrite._fields


def _where(key: Sequence[str]) -> str:
    return " AND ".join(f"{column} = :{column}" for column in key)


def _select(table: str, columns: Sequence[str]) -> str:
    return f"SELECT {', '.join(columns)} FROM {table}"


_BATCH = 64
"""The most keys one batched read names; a shorter batch is padded (its last key repeated) to a power of
two, so that few distinct statements are ever prepared."""
_PLACE = "thread_id = :thread_id AND checkpoint_ns = :checkpoint_ns"
_BRANCHES = 8
"""The most channels one read of channel values names (``UNION ALL`` branches: at most 8 x 64 versions
and 8 channels: 536 parameter markers, within every SQLite's limit of 999)."""
_VERSION_NAMES = [[f"v{branch}_{index}" for index in range(_BATCH)] for branch in range(_BRANCHES)]

_T = TypeVar("_T")


def _batches(items: Collection[_T]) -> Iterator[list[_T]]:
    """``items`` in batches of at most ``_BATCH``, each padded to a power of two by repeating its last."""
    listed = list(items)
    for start in range(0, len(listed), _BATCH):
        batch = listed[start : start + _BATCH]
        padded = 1 << (len(batch) - 1).bit_length()
        yield batch + [batch[-1]] * (padded - len(batch))


def _by_code_point(column: str, postgres: bool) -> str:
    """A text column compared by code point: bytewise, which SQLite's default BINARY collation is and
    PostgreSQL's ``C`` collation is (the database's own may be a locale's)."""
    return f'{column} COLLATE "C"' if postgres else column


def _newest_sql(postgres: bool, below: bool, checkpoint_id: bool) -> str:
    ordered = _by_code_point("checkpoint_id", postgres)
    conditions = [_PLACE]
    if checkpoint_id:
        conditions.append("checkpoint_id = :checkpoint_id")
    if below:
        conditions.append(f"{ordered} < :below")
    return (
        f"{_select(_CHECKPOINTS, _CHECKPOINT_COLUMNS)} WHERE {' AND '.join(conditions)} "
        f"ORDER BY {ordered} DESC LIMIT :limit"
    )


def _next_namespace_sql(postgres: bool, after: bool) -> str:
    ordered = _by_code_point("checkpoint_ns", postgres)
    bound = f" AND {ordered} > :after" if after else ""
    return (
        f"SELECT checkpoint_ns FROM {_CHECKPOINTS} WHERE thread_id = :thread_id{bound} "
        f"ORDER BY {ordered} LIMIT 1"
    )


def _values_at_branch(branch: int, size: int) -> str:
    # one channel's versions by IN on the last primary key column: an index search whatever the planner's
    # statistics (an OR of (channel, version) pairs may be planned as a scan of the whole namespace)
    versions = ", ".join(f":v{branch}_{index}" for index in range(size))
    where = f"{_PLACE} AND channel = :c{branch} AND version IN ({versions})"
    return f"{_select(_VALUES, _VALUE_COLUMNS)} WHERE {where}"


@functools.cache
def _values_at_sql(branches: int, size: int) -> str:
    """One statement reading ``branches`` channels' versions, ``size`` of each (one branch per channel,
    each searching the index as ``_values_at_branch`` does), joined by ``UNION ALL``: one statement for
    up to 8 channels of a checkpoint. At most ``_BRANCHES`` x 7 distinct statements."""
    return " UNION ALL ".join(_values_at_branch(branch, size) for branch in range(branches))


def _writes_of_sql(size: int) -> str:
    ids = ", ".join(f":i{index}" for index in range(size))
    return f"{_select(_WRITES, _WRITE_COLUMNS)} WHERE {_PLACE} AND checkpoint_id IN ({ids})"


_NEWEST = {
    (postgres, below, checkpoint_id): _newest_sql(postgres, below, checkpoint_id)
    for postgres in (False, True)
    for below in (False, True)
    for checkpoint_id in (False, True)
}
_NEXT_NAMESPACE = {
    (postgres, after): _next_namespace_sql(postgres, after)
    for postgres in (False, True)
    for after in (False, True)
}
_NAMESPACES = f"SELECT DISTINCT thread_id, checkpoint_ns FROM {_CHECKPOINTS}"
_NAMESPACES_OF = f"{_NAMESPACES} WHERE checkpoint_ns = :checkpoint_ns"
_SIZES = [1 << power for power in range(_BATCH.bit_length())]
_WRITES_OF = {size: _writes_of_sql(size) for size in _SIZES}


def _filtered(table: str, columns: tuple[str, ...], given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A SELECT of ``columns`` restricted by the given (non-None) column values."""
    values = {name: value for name, value in given.items() if value is not None}
    return _filtered_sql(table, columns, tuple(values)), values


@functools.cache
def _filtered_sql(table: str, columns: tuple[str, ...], names: tuple[str, ...]) -> str:
    sql = _select(table, columns)
    return f"{sql} WHERE {_where(names)}" if names else sql


# rows as the driver returns them (text as str, integers as int: the tables' types): each read builds
# its tuples straight from the row, without a conversion per column
_checkpoint = GraphCheckpoint._make
_value = GraphChannelValue._make
_write = GraphWrite._make


def _branches(keys: Collection[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """(channel, up to ``_BATCH`` of its versions), by channel and version: one branch per channel when,
    as at one checkpoint, each channel is named with one version."""
    if len({channel for channel, _ in keys}) == len(keys):
        return [(channel, [version]) for channel, version in sorted(keys)]
    by_channel: dict[str, set[str]] = {}
    for channel, version in keys:
        by_channel.setdefault(channel, set()).add(version)
    return [
        (channel, versions[start : start + _BATCH])
        for channel, versions in sorted((channel, sorted(found)) for channel, found in by_channel.items())
        for start in range(0, len(versions), _BATCH)
    ]


class SqlGraphRepository(GraphRepository):
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql
        self._postgres = sql.dialect == "postgresql"

    # --- owners ----------------------------------------------------------------------------------

    def owner_of(self, thread_id: str) -> str | None:
        found = self._sql.scalar(
            f"SELECT owner FROM {_OWNERS} WHERE thread_id = :thread_id", {"thread_id": thread_id}
        )
        return None if found is None else str(found)

    def owners(self) -> dict[str, str]:
        return {
            str(thread): str(owner)
            for thread, owner in self._sql.rows(f"SELECT thread_id, owner FROM {_OWNERS}")
        }

    # --- checkpoints -----------------------------------------------------------------------------

    def checkpoint(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> GraphCheckpoint | None:
        sql, values = _filtered(
            _CHECKPOINTS,
            _CHECKPOINT_COLUMNS,
            {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "checkpoint_id": checkpoint_id},
        )
        row = self._sql.first(sql, values)
        return None if row is None else _checkpoint(row)

    def checkpoints(self, thread_id: str | None, checkpoint_ns: str | None = None) -> list[GraphCheckpoint]:
        sql, values = _filtered(
            _CHECKPOINTS, _CHECKPOINT_COLUMNS, {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
        )
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
        sql = _NEWEST[self._postgres, below is not None, checkpoint_id is not None]
        values: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "limit": limit}
        if below is not None:
            values["below"] = below
        if checkpoint_id is not None:
            values["checkpoint_id"] = checkpoint_id
        return [_checkpoint(row) for row in self._sql.rows(sql, values)]

    def next_namespace(self, thread_id: str, after: str | None) -> str | None:
        values = {"thread_id": thread_id} if after is None else {"thread_id": thread_id, "after": after}
        found = self._sql.scalar(_NEXT_NAMESPACE[self._postgres, after is not None], values)
        return None if found is None else str(found)

    def namespaces(self, checkpoint_ns: str | None) -> list[tuple[str, str]]:
        rows = (
            self._sql.rows(_NAMESPACES)
            if checkpoint_ns is None
            else self._sql.rows(_NAMESPACES_OF, {"checkpoint_ns": checkpoint_ns})
        )
        return [(str(thread_id), str(namespace)) for thread_id, namespace in rows]

    # --- channel values --------------------------------------------------------------------------

    def channel_values(self, thread_id: str, checkpoint_ns: str | None = None) -> list[GraphChannelValue]:
        sql, values = _filtered(
            _VALUES, _VALUE_COLUMNS, {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
        )
        return [_value(row) for row in self._sql.rows(sql, values)]

    def channel_values_at(
        self, thread_id: str, checkpoint_ns: str, keys: Collection[tuple[str, str]]
    ) -> list[GraphChannelValue]:
        branches = _branches(keys)
        found: list[GraphChannelValue] = []
        for start in range(0, len(branches), _BRANCHES):
            group = branches[start : start + _BRANCHES]
            # every batch padded by its last version to one power of two: few distinct statements
            size = 1 << (max(len(batch) for _, batch in group) - 1).bit_length()
            values = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
            for branch, (channel, batch) in enumerate(group):
                values[f"c{branch}"] = channel
                padded = batch + [batch[-1]] * (size - len(batch))
                values.update(zip(_VERSION_NAMES[branch][:size], padded, strict=True))
            found.extend(map(_value, self._sql.rows(_values_at_sql(len(group), size), values)))
        return found

    # --- pending writes --------------------------------------------------------------------------

    def writes(
        self, thread_id: str, checkpoint_ns: str | None = None, checkpoint_id: str | None = None
    ) -> list[GraphWrite]:
        sql, values = _filtered(
            _WRITES,
            _WRITE_COLUMNS,
            {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "checkpoint_id": checkpoint_id},
        )
        return [_write(row) for row in self._sql.rows(sql, values)]

    def writes_of(
        self, thread_id: str, checkpoint_ns: str, checkpoint_ids: Collection[str]
    ) -> list[GraphWrite]:
        found: list[GraphWrite] = []
        for batch in _batches(sorted(set(checkpoint_ids))):
            values = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
            values.update((f"i{index}", checkpoint_id) for index, checkpoint_id in enumerate(batch))
            found.extend(_write(row) for row in self._sql.rows(_WRITES_OF[len(batch)], values))
        return found

    def write_exists(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str, task_id: str, idx: int
    ) -> bool:
        key = {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint_id,
            "task_id": task_id,
            "idx": idx,
        }
        return self._sql.first(f"SELECT 1 FROM {_WRITES} WHERE {_where(_WRITE_KEY)}", key) is not None

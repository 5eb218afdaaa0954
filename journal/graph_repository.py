"""The SQL store of LangGraph checkpoint state (``graph_*`` tables), bound to one transaction; every write
is recorded as an effect. Rows are read in no order: the handlers sort by code point, never by collation."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from journal.sql import SqlRunner, insert_sql
from kernel.graph_checkpoints import GraphChannelValue, GraphCheckpoint, GraphRepository, GraphWrite
from kernel.protocols import StorageError

__all__ = ["NoGraph", "SqlGraphRepository"]

_OWNERS = "graph_thread_owners"
_CHECKPOINTS = "graph_checkpoints"
_VALUES = "graph_channel_values"
_WRITES = "graph_writes"

_CHECKPOINT_KEY = ("thread_id", "checkpoint_ns", "checkpoint_id")
_VALUE_KEY = ("thread_id", "checkpoint_ns", "channel", "version")
_WRITE_KEY = ("thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx")
_CHECKPOINT_COLUMNS = tuple(field.name for field in dataclasses.fields(GraphCheckpoint))
_VALUE_COLUMNS = tuple(field.name for field in dataclasses.fields(GraphChannelValue))
_WRITE_COLUMNS = tuple(field.name for field in dataclasses.fields(GraphWrite))


def _where(key: Sequence[str]) -> str:
    return " AND ".join(f"{column} = :{column}" for column in key)


def _select(table: str, columns: Sequence[str]) -> str:
    return f"SELECT {', '.join(columns)} FROM {table}"


def _upsert_sql(table: str, columns: Sequence[str], key: Sequence[str]) -> tuple[str, str]:
    assignments = ", ".join(f"{column} = :{column}" for column in columns if column not in key)
    return f"UPDATE {table} SET {assignments} WHERE {_where(key)}", insert_sql(table, columns)


_UPSERT = {
    _CHECKPOINTS: _upsert_sql(_CHECKPOINTS, _CHECKPOINT_COLUMNS, _CHECKPOINT_KEY),
    _VALUES: _upsert_sql(_VALUES, _VALUE_COLUMNS, _VALUE_KEY),
    _WRITES: _upsert_sql(_WRITES, _WRITE_COLUMNS, _WRITE_KEY),
}
_DELETE = {
    _CHECKPOINTS: f"DELETE FROM {_CHECKPOINTS} WHERE {_where(_CHECKPOINT_KEY)}",
    _VALUES: f"DELETE FROM {_VALUES} WHERE {_where(_VALUE_KEY)}",
    _WRITES: f"DELETE FROM {_WRITES} WHERE {_where(_WRITE_KEY)}",
}
_INSERT_OWNER = insert_sql(_OWNERS, ("thread_id", "owner", "created_seq"))


def _filtered(table: str, columns: Sequence[str], given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A SELECT of ``columns`` restricted by the given (non-None) column values."""
    values = {name: value for name, value in given.items() if value is not None}
    sql = _select(table, columns)
    return (f"{sql} WHERE {_where(list(values))}" if values else sql), values


def _checkpoint(row: tuple[Any, ...]) -> GraphCheckpoint:
    return GraphCheckpoint(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        None if row[3] is None else str(row[3]),
        str(row[4]),
        str(row[5]),
        str(row[6]),
        str(row[7]),
        int(row[8]),
    )


def _value(row: tuple[Any, ...]) -> GraphChannelValue:
    thread_id, checkpoint_ns, channel, version, value_type, value_hash, seq = row
    return GraphChannelValue(
        str(thread_id),
        str(checkpoint_ns),
        str(channel),
        str(version),
        str(value_type),
        None if value_hash is None else str(value_hash),
        int(seq),
    )


def _write(row: tuple[Any, ...]) -> GraphWrite:
    *texts, seq = row
    thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, task_path, value_type, value_hash = texts
    return GraphWrite(
        str(thread_id),
        str(checkpoint_ns),
        str(checkpoint_id),
        str(task_id),
        int(idx),
        str(channel),
        str(task_path),
        str(value_type),
        str(value_hash),
        int(seq),
    )


class SqlGraphRepository(GraphRepository):
    def __init__(self, sql: SqlRunner, *, seq: int, effects: list[Any]) -> None:
        self._sql = sql
        self._seq = seq
        self._effects = effects

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

    def add_owner(self, thread_id: str, owner: str) -> None:
        row = {"thread_id": thread_id, "owner": owner, "created_seq": self._seq}
        self._sql.write(_INSERT_OWNER, row)
        self._effects.append({"op": "insert", "table": _OWNERS, "row": row})

    # --- generic ---------------------------------------------------------------------------------

    def _upsert(self, table: str, row: dict[str, Any]) -> None:
        update, insert = _UPSERT[table]
        if self._sql.write(update, row) == 0:
            self._sql.write(insert, row)
        self._effects.append({"op": "upsert", "table": table, "row": row})

    def _delete(self, table: str, where: dict[str, Any]) -> None:
        self._sql.write(_DELETE[table], where)
        self._effects.append({"op": "delete", "table": table, "where": where})

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

    def put_checkpoint(self, row: GraphCheckpoint) -> None:
        self._upsert(_CHECKPOINTS, dataclasses.asdict(row))

    def delete_checkpoint(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> None:
        self._delete(
            _CHECKPOINTS,
            {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "checkpoint_id": checkpoint_id},
        )

    # --- channel values --------------------------------------------------------------------------

    def channel_values(self, thread_id: str, checkpoint_ns: str | None = None) -> list[GraphChannelValue]:
        sql, values = _filtered(
            _VALUES, _VALUE_COLUMNS, {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
        )
        return [_value(row) for row in self._sql.rows(sql, values)]

    def put_channel_value(self, row: GraphChannelValue) -> None:
        self._upsert(_VALUES, dataclasses.asdict(row))

    def delete_channel_value(self, thread_id: str, checkpoint_ns: str, channel: str, version: str) -> None:
        self._delete(
            _VALUES,
            {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns, "channel": channel, "version": version},
        )

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

    def put_write(self, row: GraphWrite) -> None:
        self._upsert(_WRITES, dataclasses.asdict(row))

    def delete_write(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str, task_id: str, idx: int
    ) -> None:
        self._delete(
            _WRITES,
            {
                "thread_id": thread_id,
                "checkpoint_ns": checkpoint_ns,
                "checkpoint_id": checkpoint_id,
                "task_id": task_id,
                "idx": idx,
            },
        )


class NoGraph(GraphRepository):
    """A database at a schema older than the graph tables (opened without upgrading) holds no graph
    state, and refuses to record any."""

    _MESSAGE = "this database predates the graph tables: run `arvis db upgrade` first"

    def owner_of(self, thread_id: str) -> str | None:
        return None

    def owners(self) -> dict[str, str]:
        return {}

    def add_owner(self, thread_id: str, owner: str) -> None:
        raise StorageError(self._MESSAGE)

    def checkpoint(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> GraphCheckpoint | None:
        return None

    def checkpoints(self, thread_id: str | None, checkpoint_ns: str | None = None) -> list[GraphCheckpoint]:
        return []

    def put_checkpoint(self, row: GraphCheckpoint) -> None:
        raise StorageError(self._MESSAGE)

    def delete_checkpoint(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> None:
        raise StorageError(self._MESSAGE)

    def channel_values(self, thread_id: str, checkpoint_ns: str | None = None) -> list[GraphChannelValue]:
        return []

    def put_channel_value(self, row: GraphChannelValue) -> None:
        raise StorageError(self._MESSAGE)

    def delete_channel_value(self, thread_id: str, checkpoint_ns: str, channel: str, version: str) -> None:
        raise StorageError(self._MESSAGE)

    def writes(
        self, thread_id: str, checkpoint_ns: str | None = None, checkpoint_id: str | None = None
    ) -> list[GraphWrite]:
        return []

    def write_exists(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str, task_id: str, idx: int
    ) -> bool:
        return False

    def put_write(self, row: GraphWrite) -> None:
        raise StorageError(self._MESSAGE)

    def delete_write(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str, task_id: str, idx: int
    ) -> None:
        raise StorageError(self._MESSAGE)

"""The SQL store of LangGraph's long-term store (``graph_store_*`` tables), bound to one transaction;
every write is recorded as an effect. Rows are read in no order: the handlers sort them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from arvis.changes import ChangeSet, Delete, Insert, Upsert
from arvis.graph_store import GraphStoreRepository, StoreItem
from journal import blob_store
from journal.errors import StorageError
from journal.sql import SqlRunner

__all__ = ["NoGraphStore", "SqlGraphStoreRepository"]

_OWNERS = "graph_store_owners"
_NAMESPACES = "graph_store_namespaces"
_ITEMS = "graph_store_items"
_ITEM_COLUMNS = tuple(field.name for field in dataclasses.fields(StoreItem))
_SELECT_ITEMS = f"SELECT {', '.join(_ITEM_COLUMNS)} FROM {_ITEMS}"
_KEY = "namespace = :namespace AND key = :key"
_SIZES = "graph_store_sizes"
_USAGE = "graph_store_usage"


def _item(row: tuple[Any, ...]) -> StoreItem:
    namespace, key, prefix, value_hash, created_at, updated_at, expires_at, ttl, order_seq, seq = row
    return StoreItem(
        str(namespace),
        str(key),
        str(prefix),
        str(value_hash),
        str(created_at),
        str(updated_at),
        None if expires_at is None else str(expires_at),
        None if ttl is None else str(ttl),
        int(order_seq),
        int(seq),
    )


class SqlGraphStoreRepository(GraphStoreRepository):
    def __init__(
        self, sql: SqlRunner, *, seq: int, changes: ChangeSet, stores_blobs: bool = True, sized: bool = False
    ) -> None:
        """``stores_blobs``: as ``SqlGraphRepository``'s. ``sized``: the database has revision 0013's
        quota column and sizes table."""
        self._sized = sized
        self._sql = sql
        self._stores_blobs = stores_blobs
        self._seq = seq
        self._changes = changes

    def owner_of(self, prefix: str) -> str | None:
        found = self._sql.scalar(f"SELECT owner FROM {_OWNERS} WHERE prefix = :prefix", {"prefix": prefix})
        return None if found is None else str(found)

    def owners(self) -> dict[str, str]:
        rows = self._sql.rows(f"SELECT prefix, owner FROM {_OWNERS}")
        return {str(prefix): str(owner) for prefix, owner in rows}

    def add_owner(self, prefix: str, owner: str) -> None:
        row = {"prefix": prefix, "owner": owner, "created_seq": self._seq}
        self._changes.add(Insert(_OWNERS, row))

    def namespaces(self) -> dict[str, int]:
        return {
            str(namespace): int(seq)
            for namespace, seq in self._sql.rows(f"SELECT namespace, created_seq FROM {_NAMESPACES}")
        }

    def has_namespace(self, namespace: str) -> bool:
        sql = f"SELECT 1 FROM {_NAMESPACES} WHERE namespace = :namespace"
        return self._sql.first(sql, {"namespace": namespace}) is not None

    def add_namespace(self, namespace: str) -> None:
        row = {"namespace": namespace, "created_seq": self._seq}
        self._changes.add(Insert(_NAMESPACES, row))

    def item(self, namespace: str, key: str) -> StoreItem | None:
        row = self._sql.first(f"{_SELECT_ITEMS} WHERE {_KEY}", {"namespace": namespace, "key": key})
        return None if row is None else _item(row)

    def items(self) -> list[StoreItem]:
        return [_item(row) for row in self._sql.rows(_SELECT_ITEMS)]

    def put_item(self, row: StoreItem) -> None:
        values = dataclasses.asdict(row)
        self._changes.add(Upsert(_ITEMS, values))

    def delete_item(self, namespace: str, key: str) -> None:
        where = {"namespace": namespace, "key": key}
        self._changes.add(Delete(_ITEMS, where))

    def store_values(self, blobs: Mapping[str, bytes]) -> None:
        if self._stores_blobs:
            blob_store.store_in(self._sql, blobs)

    def stored_values(self, keys: Iterable[str]) -> dict[str, bytes]:
        return blob_store.read_in(self._sql, keys)

    def quota_bytes(self) -> int | None:
        found = self._sql.scalar("SELECT store_quota_bytes FROM journal_header") if self._sized else None
        return None if found is None else int(found)

    def stored_bytes(self, owner: str) -> int:
        found = self._sql.scalar(f"SELECT stored_bytes FROM {_USAGE} WHERE owner = :owner", {"owner": owner})
        return 0 if found is None else int(found)

    def size_of(self, namespace: str, key: str) -> int:
        found = self._sql.scalar(
            f"SELECT value_bytes FROM {_SIZES} WHERE {_KEY}", {"namespace": namespace, "key": key}
        )
        return 0 if found is None else int(found)

    def set_size(self, namespace: str, key: str, prefix: str, value_bytes: int) -> None:
        row = {"namespace": namespace, "key": key, "prefix": prefix, "value_bytes": value_bytes}
        self._changes.add(Upsert(_SIZES, row))

    def forget_size(self, namespace: str, key: str) -> None:
        self._changes.add(Delete(_SIZES, {"namespace": namespace, "key": key}))

    def set_usage(self, owner: str, stored_bytes: int) -> None:
        self._changes.add(Upsert(_USAGE, {"owner": owner, "stored_bytes": stored_bytes}))


class NoGraphStore(GraphStoreRepository):
    """A database at a schema older than the store tables (opened without upgrading) holds no store
    state, and refuses to record any."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise StorageError("this database predates the graph store tables: run `arvis db upgrade` first")

    add_owner = add_namespace = put_item = delete_item = store_values = set_size = forget_size = set_usage = (
        _refuse
    )

    def owner_of(self, prefix: str) -> str | None:
        return None

    def owners(self) -> dict[str, str]:
        return {}

    def namespaces(self) -> dict[str, int]:
        return {}

    def has_namespace(self, namespace: str) -> bool:
        return False

    def item(self, namespace: str, key: str) -> StoreItem | None:
        return None

    def items(self) -> list[StoreItem]:
        return []

    def stored_values(self, keys: Iterable[str]) -> dict[str, bytes]:
        return {}

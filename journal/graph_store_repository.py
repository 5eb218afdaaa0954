"""The SQL store of LangGraph's long-term store (``graph_store_*`` tables), read in one transaction
(handlers return what they change). Rows are read in no order: the handlers sort them."""

from __future__ import annotations

from collections.abc import Iterable

from arvis.graph_store import GraphStoreRepository, StoreItem
from journal import blob_store, statements
from journal.sql import SqlRunner


class SqlGraphStoreRepository(GraphStoreRepository):
    def __init__(self, sql: SqlRunner) -> None:
        self._sql = sql

    def owner_of(self, prefix: str) -> str | None:
        found = self._sql.scalar(statements.STORE_OWNER, {"prefix": prefix})
        return None if found is None else str(found)

    def owners(self) -> dict[str, str]:
        rows = self._sql.rows(statements.STORE_OWNERS)
        return {str(prefix): str(owner) for prefix, owner in rows}

    def namespaces(self) -> dict[str, int]:
        return {str(namespace): int(seq) for namespace, seq in self._sql.rows(statements.STORE_NAMESPACES)}

    def has_namespace(self, namespace: str) -> bool:
        return self._sql.first(statements.STORE_HAS_NAMESPACE, {"namespace": namespace}) is not None

    def item(self, namespace: str, key: str) -> StoreItem | None:
        row = self._sql.first(statements.STORE_ITEM, {"namespace": namespace, "key": key})
        return None if row is None else StoreItem(*row)

    def items(self) -> list[StoreItem]:
        return [StoreItem(*row) for row in self._sql.rows(statements.STORE_ITEMS)]  # as the drivers read them

    def stored_values(self, keys: Iterable[str]) -> dict[str, bytes]:
        return blob_store.read_in(self._sql, keys)

    def quota_bytes(self) -> int | None:
        found = self._sql.scalar(statements.STORE_QUOTA)
        return None if found is None else int(found)

    def stored_bytes(self, owner: str) -> int:
        found = self._sql.scalar(statements.STORE_USAGE, {"owner": owner})
        return 0 if found is None else int(found)

    def size_of(self, namespace: str, key: str) -> int:
        found = self._sql.scalar(statements.STORE_SIZE, {"namespace": namespace, "key": key})
        return 0 if found is None else int(found)

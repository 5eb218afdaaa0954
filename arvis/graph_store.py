"""What the kernel needs to know about LangGraph's long-term store (the ``graph.store.*`` syscalls,
specs/langgraph.md §8).

An item's value is never stored in its row: it is a JSON object whose canonical JSON bytes live in the
content-addressed ``graph_blobs`` table (``journal.blob_store``); the item holds its hash. The put that
stores an item carries its value, whose bytes its handler stores in the call's transaction
(``store_values``). A search with a filter reads the values it filters in its own transaction
(``stored_values``), then, for any not found there, through the registry's read-only blob reader
(``KernelServiceRegistry.blob_reader``: a replay's scratch store holds no blob); each is checked against
its hash.

Namespaces are canonical JSON arrays of strings; times are ``arvis.canonical.format_time`` text.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["GraphStoreRepository", "StoreItem"]


@dataclass(frozen=True)
class StoreItem:
    """One row of ``graph_store_items``."""

    namespace: str
    """Canonical JSON text of the namespace (an array of strings)."""
    key: str
    prefix: str
    """The namespace's first element: its access scope is ``store:<prefix>``."""
    value_hash: str
    created_at: str
    updated_at: str
    expires_at: str | None
    ttl: str | None
    """Canonical JSON text of the time to live in minutes (a number), None for none."""
    order_seq: int
    """The seq of the call that inserted the item (kept when it is replaced): the item's place in its
    namespace, as ``InMemoryStore``'s insertion order."""
    written_seq: int


class GraphStoreRepository(ABC):
    """The store state of one transaction. Reads return rows in no particular order (handlers sort
    them); every write is recorded as an effect."""

    @abstractmethod
    def owner_of(self, prefix: str) -> str | None:
        """The principal owning the first namespace element ``prefix``; None when unclaimed."""

    @abstractmethod
    def owners(self) -> dict[str, str]:
        """Every claimed first element and its owner."""

    @abstractmethod
    def add_owner(self, prefix: str, owner: str) -> None:
        """Record the owner of a first element claimed by this call."""

    @abstractmethod
    def namespaces(self) -> dict[str, int]:
        """Every namespace ever written into (canonical JSON text) and the seq that first did."""

    @abstractmethod
    def has_namespace(self, namespace: str) -> bool:
        """Whether a namespace was ever written into (one row read)."""

    @abstractmethod
    def add_namespace(self, namespace: str) -> None:
        """Record a namespace first written into by this call."""

    @abstractmethod
    def item(self, namespace: str, key: str) -> StoreItem | None:
        """One item (expired or not), or None."""

    @abstractmethod
    def items(self) -> list[StoreItem]:
        """Every item (expired or not)."""

    @abstractmethod
    def put_item(self, row: StoreItem) -> None:
        """Insert the item, or replace the one of the same namespace and key."""

    @abstractmethod
    def delete_item(self, namespace: str, key: str) -> None:
        """Delete one item."""

    @abstractmethod
    def store_values(self, blobs: Mapping[str, bytes]) -> None:
        """Store the bytes a call carried (hash -> bytes, checked by the handler) in the call's own
        transaction, once every refusal is decided: not an effect, no state."""

    @abstractmethod
    def stored_values(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The bytes of those of ``keys`` stored in ``graph_blobs`` as this transaction sees them (its own
        calls' included), unchecked."""

    def quota_bytes(self) -> int | None:
        """The bytes each owner of a first element may store (the journal's, fixed at its creation); None:
        no quota, and no sizes are kept (a store that predates quotas has none)."""
        return None

    def stored_bytes(self, owner: str) -> int:
        """The bytes of the values stored under the first elements ``owner`` owns (its running total,
        kept where there is a quota)."""
        return 0

    def size_of(self, namespace: str, key: str) -> int:
        """The size of one item's value; 0 for none."""
        return 0

    @abstractmethod
    def set_size(self, namespace: str, key: str, prefix: str, value_bytes: int) -> None:
        """Record the size of an item's value (kept only where there is a quota)."""

    @abstractmethod
    def forget_size(self, namespace: str, key: str) -> None:
        """Drop the size of a deleted item's value."""

    @abstractmethod
    def set_usage(self, owner: str, stored_bytes: int) -> None:
        """Record the owner's running total of stored bytes."""

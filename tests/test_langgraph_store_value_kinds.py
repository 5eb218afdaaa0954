"""Issue 52 point 10: the store keeps what ``InMemoryStore`` keeps (specs/langgraph.md §8.1). An Enum
member, a dataclass instance and a pydantic model are accepted and come back as LangGraph's persistent
stores and serializer give them back (``SqliteStore``'s JSON; ``jsonplus``'s JSON view of a model: its
``model_dump()``): plain data. A dict's keys come back in the order they were put, nested too. The journal
of it all verifies."""

from __future__ import annotations

import dataclasses
import enum
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.store.memory")

import pydantic
from langgraph.store.memory import InMemoryStore

from arvis.canonical import canonical_bytes, decode
from arvis.store_values import envelope, open_envelope
from integrations.langgraph import ArvisStore
from journal.reader import JournalReader
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

AGENT = "agent:planner"


class Color(enum.Enum):
    RED = "red"
    BLUE = ("b", 2)


class Size(str, enum.Enum):  # noqa: UP042 (``str()`` of a member is "Size.LARGE", not its value)
    LARGE = "large"


class Mood(enum.StrEnum):
    CALM = "calm"


class Level(enum.IntEnum):
    HIGH = 3


@dataclasses.dataclass
class Place:
    zone: str
    color: Color = Color.RED
    at: tuple[int, int] = (1, 2)


@dataclasses.dataclass
class Trip:
    to: Place
    by: str = "train"


class Profile(pydantic.BaseModel):
    name: str
    size: Size = Size.LARGE
    home: Place | None = None
    tags: list[str] = []


def _verified(db: Path) -> None:
    reader = JournalReader.open(str(db))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert report.verified, report.divergence


def _kinds(db: Path, value: dict[str, Any], filter: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """``value`` put, then read back by get and by search (with ``filter``, read by the kernel)."""
    with ArvisStore(str(db), principal=AGENT, create=True) as store:
        store.put(("kinds",), "k", value)
        got = store.get(("kinds",), "k")
        found = store.search(("kinds",), filter=filter)
    assert got is not None and len(found) == 1
    return got.value, found[0].value


def _typed(value: Any) -> Any:
    """``value`` with the type of each part, dict keys in order: ``"a" == Size.A`` and ``{1: 2} == {1.0:
    2}`` hold, but plain data is what comes back."""
    if isinstance(value, dict):
        return [(_typed(key), _typed(item)) for key, item in value.items()]
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_typed(item) for item in value])
    return (type(value).__name__, value)


def test_enum_dataclass_and_pydantic_values_come_back_as_langgraph_serializes_them(tmp_path: Path) -> None:
    value = {
        "color": Color.RED,
        "pair": Color.BLUE,
        "size": Size.LARGE,
        "level": Level.HIGH,
        "mood": Mood.CALM,
        "trip": Trip(Place("north")),
        "profile": Profile(name="ann", home=Place("south", Color.BLUE), tags=["x"]),
        "many": [Color.RED, Size.LARGE, {"in": Level.HIGH}],
    }
    filter = {"color": "red", "trip": {"to": {"zone": "north"}}, "profile": {"size": "large"}}
    expected = {
        "color": "red",
        "pair": ("b", 2),
        "size": "large",
        "level": 3,
        "mood": "calm",
        "trip": {"to": {"zone": "north", "color": "red", "at": (1, 2)}, "by": "train"},
        "profile": {
            "name": "ann",
            "size": "large",
            "home": {"zone": "south", "color": ("b", 2), "at": (1, 2)},
            "tags": ["x"],
        },
        "many": ["red", "large", {"in": 3}],
    }
    got, found = _kinds(tmp_path / "kinds.db", value, filter)
    assert _typed(got) == _typed(expected)
    assert _typed(found) == _typed(expected)
    _verified(tmp_path / "kinds.db")


def test_enum_and_dataclass_values_match_sqlite_store(tmp_path: Path) -> None:
    """``SqliteStore`` (orjson) gives an Enum's value and a dataclass's fields in order, as ``ArvisStore``
    does; it turns a tuple into a list, which ``InMemoryStore`` and ``ArvisStore`` keep."""
    sqlite = pytest.importorskip("langgraph.store.sqlite")
    value = {"color": Color.RED, "size": Size.LARGE, "level": Level.HIGH, "trip": Trip(Place("north"))}
    with sqlite.SqliteStore.from_conn_string(str(tmp_path / "langgraph.db")) as theirs:
        theirs.setup()
        theirs.put(("kinds",), "k", value)
        item = theirs.get(("kinds",), "k")
    assert item is not None
    got, _ = _kinds(tmp_path / "kinds.db", value)
    got["trip"]["to"]["at"] = list(got["trip"]["to"]["at"])
    assert _typed(got) == _typed(item.value)


def test_key_order_comes_back_as_put_nested_too(tmp_path: Path) -> None:
    value: dict[Any, Any] = {
        "b": 1,
        "a": {"y": 1, "x": {"d": 1, "c": 2}, "$arvis": 3},
        "list": [{"z": 1, "m": 2}, ({"q": 1, "p": 2},)],
        "sorted": {"a": 1, "b": 2},
        "keys": {2: "two", 1: "one", "s": "str"},
    }
    memory = InMemoryStore()
    memory.put(("order",), "k", value)
    kept = memory.get(("order",), "k")
    assert kept is not None
    got, found = _kinds(tmp_path / "order.db", value, filter={"b": 1, "a": {"y": 1}})
    for each in (got, found):
        assert list(each) == ["b", "a", "list", "sorted", "keys"] == list(kept.value)
        assert list(each["a"]) == ["y", "x", "$arvis"]
        assert list(each["a"]["x"]) == ["d", "c"]
        assert list(each["list"][0]) == ["z", "m"]
        assert list(each["list"][1][0]) == ["q", "p"]
        assert list(each["keys"]) == [2, 1, "s"]
    _verified(tmp_path / "order.db")


def test_a_dict_in_key_order_is_encoded_as_before() -> None:
    """A dict whose keys are already in canonical order keeps the plain object it always had (so the
    same value has the same bytes and hash as before), and a pair list sorted by key, what a dict with
    other keys was encoded as before, decodes in that order."""
    assert canonical_bytes(envelope({"a": 1, "b": {"c": 2}}, None)) == b'[2,{"a":1,"b":{"c":2}},null]'
    old = b'[2,{"$arvis":"dict","v":[[1,"one"],[2,"two"]]},null]'
    assert list(open_envelope(decode(old))[0]) == [1, 2]
    assert canonical_bytes(envelope(open_envelope(decode(old))[0], None)) == old

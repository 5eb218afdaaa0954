"""The graph store family: LangGraph's long-term store (``BaseStore``) as journaled syscalls
(specs/langgraph.md §8).

Each call mirrors one operation of LangGraph's ``batch`` with the semantics of its ``InMemoryStore``.
An item's value travels with the put that stores it (``syscalls.carried``): a JSON object (as stored
before encoding 2), or its encoding-2 envelope with the embeddings of its indexed fields
(``arvis.store_values``); its canonical JSON bytes are returned with the call's ``Decision`` and stored
in the content-addressed blob store with its entry; effects and results hold its hash. A search with a
filter or a query embedding (``syscalls.graph_store_search``) reads the values it needs in its
transaction, else through the registry's read-only blob reader, each checked against its hash.

Access: the items of a namespace are governed by its first element: the principal that first writes under
it owns it; anyone else needs ``read`` or ``write`` on the scope ``store:<first element>`` (or ``*``);
built-in administrators may do anything.
"""

from __future__ import annotations

import operator
from dataclasses import asdict, replace
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

import msgspec

from arvis.access import Capability
from arvis.canonical import canonical_bytes_of_own, decode, format_time, parse_time, sha256_hex
from arvis.changes import Change, Decision, Delete, Insert, Upsert
from arvis.graph_store import ITEMS, NAMESPACES, OWNERS, SIZES, USAGE, GraphStoreRepository, StoreItem
from arvis.store_values import ENCODING, open_envelope
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError
from kernel.registry import BlobReader
from syscalls.carried import carried, values_answer
from syscalls.graph_store_search import Stored, check_envelope, query_vector, ranked, vectors_of
from syscalls.owned_names import OwnedNames
from syscalls.types import NO_NUL, PLAIN

STORE_SCOPE_PREFIX = "store:"
"""The items under a first namespace element are governed by grants on ``store:<first element>``."""
MAX_PREFIX_LENGTH = 128 - len(STORE_SCOPE_PREFIX)
"""So that the scope fits a grant's scope (128 characters)."""
MAX_SEARCH = 1000
"""The most items one ``graph.store.search`` and namespaces one ``graph.store.list_namespaces`` return."""
_ORDERS = {"$gt": operator.gt, "$gte": operator.ge, "$lt": operator.lt, "$lte": operator.le}
OPERATORS = ("$eq", "$ne", *_ORDERS)
"""The filter operators of LangGraph's ``InMemoryStore``."""

Label = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]
Key = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]
Hash = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}\Z")]
Ttl = Annotated[float, msgspec.Meta(gt=0)]
Limit = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEARCH)]
Offset = Annotated[int, msgspec.Meta(ge=0)]


class PutArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    namespace: Annotated[list[Label], msgspec.Meta(min_length=1)]
    key: Key
    value_hash: Hash | None
    """The SHA-256 of the value's canonical JSON bytes; null deletes the item."""
    value: dict[str, Any] | list[Any] | None = None
    """The value, which every live put that stores carries: a JSON object, or the envelope of encoding 2
    (``[2, <encoded object>, <vectors or null>]``); its canonical JSON bytes must hash to ``value_hash``,
    and are stored with the item."""
    ttl: Ttl | None = None
    """Minutes to live, from the call's time (refreshed by reads that ask for it); null: forever."""


class GetArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    namespace: list[Label]
    key: Key
    refresh_ttl: bool = True


class SearchArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    namespace_prefix: list[Label] = msgspec.field(default_factory=list)
    filter: dict[str, Any] | None = None
    limit: Limit = 10
    offset: Offset = 0
    query: Annotated[str, msgspec.Meta(max_length=4096, pattern=NO_NUL)] | None = None
    """Recorded; the ranking uses ``query_vector`` (without it, as ``InMemoryStore`` without an index,
    the query is ignored)."""
    refresh_ttl: bool = True
    query_vector: str | None = None
    """The query's embedding, computed by the caller: base64 of little-endian float32s. Given, the
    items are ranked by cosine similarity and each result carries its ``score``."""


class MatchCondition(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    match_type: Literal["prefix", "suffix"]
    path: list[Label]
    """``"*"`` matches any element."""


class ListNamespacesArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    match_conditions: list[MatchCondition] = msgspec.field(default_factory=list)
    max_depth: Annotated[int, msgspec.Meta(ge=0)] | None = None
    limit: Limit = 100
    offset: Offset = 0


# --- access -----------------------------------------------------------------------------------------


def _access(ctx: CallContext) -> OwnedNames:
    """Store namespaces, owned by their first element, also created by ``graph.namespace.create``."""
    store = ctx.read.graph_store
    return OwnedNames(
        ctx,
        scope_prefix=STORE_SCOPE_PREFIX,
        noun="store namespace",
        owner_of=store.owner_of,
        owners=(OWNERS, "prefix"),
        create="graph.namespace.create",
    )


class NamespaceArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    prefix: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_PREFIX_LENGTH, pattern=PLAIN)]
    """A namespace's first element: every namespace it begins becomes the caller's."""


def namespace_create(ctx: CallContext, args: NamespaceArgs) -> Decision:
    """The first element becomes the caller's (``OwnedNames.create``)."""
    return _access(ctx).create(args.prefix, "prefix")


def _prefix(namespace: list[str]) -> str:
    """The first element, refused when it could not name a grant scope."""
    first = namespace[0]
    if not 1 <= len(first) <= MAX_PREFIX_LENGTH or any(
        ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F for char in first
    ):
        raise KernelError(
            ErrorCode.INVALID_ARGS,
            f"a namespace's first element must be 1-{MAX_PREFIX_LENGTH} characters, no control character",
        )
    return first


# --- rows -------------------------------------------------------------------------------------------


def json_text(value: Any) -> str:
    """A value as a text column of the graph tables holds it (a store namespace or ttl; a checkpoint's
    metadata, its channel versions, a version in ``graph_channel_values.version``): its canonical JSON."""
    return canonical_bytes_of_own(value).decode("utf-8")


def _live(row: StoreItem, now: datetime) -> bool:
    return row.expires_at is None or parse_time(row.expires_at) > now


def _expiry(now: datetime, ttl: float) -> str:
    try:
        return format_time(now + timedelta(minutes=ttl))
    except OverflowError as exc:
        raise KernelError(ErrorCode.INVALID_ARGS, "ttl: the item would expire after the year 9999") from exc


def _wire(row: StoreItem) -> dict[str, Any]:
    return {
        "namespace": decode(row.namespace.encode("utf-8")),
        "key": row.key,
        "value_hash": row.value_hash,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "expires_at": row.expires_at,
    }


def _refreshed(row: StoreItem, ctx: CallContext, changes: list[Change]) -> StoreItem:
    """A read that refreshes: the item's expiry moved to ``ttl`` minutes from the call's time (its
    change added to ``changes``)."""
    if row.ttl is None:
        return row
    moved = replace(row, expires_at=_expiry(ctx.now, float(decode(row.ttl.encode()))), written_seq=ctx.seq)
    changes.append(Upsert(ITEMS, asdict(moved)))
    return moved


# --- filter (InMemoryStore's, on the decoded values) -----------------------------------------------


def _check_operators(wanted: Any) -> bool:
    """Refuse an operator ``InMemoryStore`` lacks; whether the filter orders (``$gt``, ``$gte``, ``$lt``,
    ``$lte``): only an ordering comparison can refuse the search on a value it cannot compare."""
    orders = False
    if isinstance(wanted, dict):
        for key, value in wanted.items():
            if key.startswith("$") and key not in OPERATORS:
                raise KernelError(ErrorCode.INVALID_ARGS, f"unsupported filter operator '{key}'")
            orders = _check_operators(value) or orders or key in _ORDERS
    elif isinstance(wanted, list):
        for value in wanted:
            orders = _check_operators(value) or orders
    return orders


def _apply_operator(value: Any, operator: str, operand: Any) -> bool:
    if operator in ("$eq", "$ne"):
        return bool((value == operand) == (operator == "$eq"))
    return bool(_ORDERS[operator](float(value), float(operand)))


def _compare(value: Any, wanted: Any) -> bool:
    """``InMemoryStore``'s ``_compare_values``: operators, nested objects, lists element by element."""
    if isinstance(wanted, dict):
        if any(key.startswith("$") for key in wanted):
            return all(_apply_operator(value, key, operand) for key, operand in wanted.items())
        if not isinstance(value, dict):
            return False
        return all(_compare(value.get(key), each) for key, each in wanted.items())
    if isinstance(wanted, list):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(_compare(mine, theirs) for mine, theirs in zip(value, wanted, strict=False))
        )
    return bool(value == wanted)


def _blob(ctx: CallContext, reader: BlobReader, key: str) -> bytes:
    """One value's stored bytes, checked against its key: as the call's transaction sees them (its group's
    puts included, not yet committed), else (a replay's scratch store holds none) through the registry's
    blob reader."""
    data = ctx.read.graph_store.stored_values([key]).get(key)
    if data is not None and sha256_hex(data) != key:  # the reader's check, and its detail
        raise KernelError(ErrorCode.STORAGE_UNAVAILABLE, f"store value: blob {key} does not hash to its key")
    try:
        return data if data is not None else reader([key])[key]
    except LookupError as exc:
        raise KernelError(ErrorCode.STORAGE_UNAVAILABLE, f"store value: {exc}") from exc


def _embeddings(data: bytes) -> Stored | None:
    """A stored value's embeddings, read without decoding its object (``msgspec.Raw`` skips it)."""
    if data[:1] != b"[":  # a bare object (before encoding 2): none
        return None
    try:
        stored = msgspec.json.decode(data, type=tuple[int, msgspec.Raw, dict[str, Any] | None])
    except msgspec.ValidationError:  # not an envelope's shape: as ``open_envelope`` reads it
        return vectors_of(open_envelope(decode(data))[1])
    return vectors_of(stored[2]) if stored[0] == ENCODING else None


def _matching(
    ctx: CallContext, rows: list[StoreItem], wanted: dict[str, Any] | None, ranks: bool, enough: int | None
) -> list[tuple[StoreItem, Stored | None]]:
    """The rows whose values match the filter (``InMemoryStore``'s ``_compare_values``; all without one),
    in search order, each with its embeddings when the search ranks; none after the ``enough``-th (None:
    every row is compared). Each value is read and decoded alone and dropped once compared: a search holds
    one value at a time, whatever the prefix holds. Without a reader bound the search is refused before
    anything is read, live and in replay alike."""
    reader = ctx.services.blob_reader
    if reader is None:
        raise KernelError(
            ErrorCode.NO_MEMORY_SERVICE, "no blob reader is bound: a search with a filter cannot read values"
        )
    # by value hash: what a search keeps of a value (a live ranking: kept for the next, a replay reads anew)
    outcomes = _EMBEDDINGS if wanted is None and ctx.recorded is None else {}
    kept: list[tuple[StoreItem, Stored | None]] = []
    for row in rows:
        if enough is not None and len(kept) >= enough:
            break
        outcome = outcomes.get(row.value_hash)  # one read: another kernel's search may clear them
        if outcome is None:
            data = _blob(ctx, reader, row.value_hash)
            if wanted is None:
                if len(outcomes) >= 100_000:
                    outcomes.clear()
                outcome = True, _embeddings(data)
            else:
                value, vectors = open_envelope(decode(data))
                outcome = _matches(row, value, wanted), vectors_of(vectors) if ranks else None
            outcomes[row.value_hash] = outcome
        if outcome[0]:
            kept.append((row, outcome[1]))
    return kept


_EMBEDDINGS: dict[str, tuple[bool, Stored | None]] = {}
"""Embeddings read, by their value's hash (whose bytes never change): a live ranking without a filter reads a
value once per process (up to 100,000, then all are dropped), as ``InMemoryStore`` keeps its vectors."""


# --- handlers ---------------------------------------------------------------------------------------


def store_put(ctx: CallContext, args: PutArgs) -> Decision:
    """``PutOp``: store the item (replacing one of the same namespace and key, which keeps its place), or
    with a null value delete it. Claims the first element when unclaimed and something is stored."""
    prefix = _prefix(args.namespace)
    access = _access(ctx)
    owner = access.require(Capability.WRITE, prefix)
    store = ctx.read.graph_store
    namespace = json_text(args.namespace)
    found = store.item(namespace, args.key)
    changes: list[Change] = []
    if args.value_hash is None:
        if args.value is not None:
            raise KernelError(
                ErrorCode.INVALID_ARGS, "value: a put that deletes (value_hash null) carries none"
            )
        if found is not None:
            changes.append(Delete(ITEMS, {"namespace": namespace, "key": args.key}))
            changes += _charge(store, owner or ctx.principal, namespace, args.key, prefix, None)
        deleted = found is not None and _live(found, ctx.now)
        return Decision({"namespace": args.namespace, "key": args.key, "deleted": deleted}, tuple(changes))
    expires_at = None if args.ttl is None else _expiry(ctx.now, args.ttl)
    if isinstance(args.value, list):
        check_envelope(args.value)
    data = None if args.value is None else canonical_bytes_of_own(args.value)
    if data is not None:  # a hash-only put, which only old journals hold, carries nothing to count
        changes += _charge(store, owner or ctx.principal, namespace, args.key, prefix, data)
    blobs = carried(ctx, [("value", args.value_hash, data)])
    if owner is None:
        access.claim_unowned(prefix)
        changes.extend(access.changes)
    if found is None and not store.has_namespace(namespace):  # an item there: its namespace is listed
        changes.append(Insert(NAMESPACES, {"namespace": namespace, "created_seq": ctx.seq}))
    now = format_time(ctx.now)
    kept = found is not None and _live(found, ctx.now)
    item = StoreItem(
        namespace,
        args.key,
        prefix,
        args.value_hash,
        now,
        now,
        expires_at,
        None if args.ttl is None else json_text(args.ttl),
        found.order_seq if kept and found is not None else ctx.seq,
        ctx.seq,
    )
    changes.append(Upsert(ITEMS, asdict(item)))
    value = {"namespace": args.namespace, "key": args.key, "value_hash": args.value_hash}
    return Decision(value, tuple(changes), tuple(blobs.items()))


def _charge(
    store: GraphStoreRepository, owner: str, namespace: str, key: str, prefix: str, data: bytes | None
) -> list[Change]:
    """Where the journal has a store quota (``specs/langgraph.md`` §8.3): count a put's value (``data``;
    None: the item is deleted) against the owner of the namespace's first element, refusing
    ``memory_limit_exceeded`` a put that would take the owner past the quota (a smaller overwrite always
    goes through), and keep the value's size and the owner's running total: their changes."""
    quota = store.quota_bytes()
    if quota is None:
        return []
    before = store.size_of(namespace, key)
    size = 0 if data is None else len(data)
    after = store.stored_bytes(owner) - before + size
    if size > before and after > quota:
        raise KernelError(
            ErrorCode.MEMORY_LIMIT_EXCEEDED,
            f"'{owner}' would store {after} bytes in the graph store, over its quota of {quota} bytes",
        )
    where = {"namespace": namespace, "key": key}
    sized = Upsert(SIZES, {**where, "prefix": prefix, "value_bytes": size})
    return [
        Delete(SIZES, where) if data is None else sized,
        Upsert(USAGE, {"owner": owner, "stored_bytes": after}),
    ]


def store_get(ctx: CallContext, args: GetArgs) -> Decision:
    """``GetOp``: the item, null when absent or expired; a read that refreshes moves its expiry."""
    if not args.namespace:
        return Decision({"item": None})
    _access(ctx).require(Capability.READ, _prefix(args.namespace))
    store = ctx.read.graph_store
    row = store.item(json_text(args.namespace), args.key)
    if row is None or not _live(row, ctx.now):
        return Decision({"item": None})
    changes: list[Change] = []
    if args.refresh_ttl:
        row = _refreshed(row, ctx, changes)
    return Decision({"item": _wire(row)}, tuple(changes))


def _matches(row: StoreItem, value: Any, wanted: dict[str, Any]) -> bool:
    """Whether the row's value matches the filter (``InMemoryStore``'s ``_compare_values``)."""
    if not isinstance(value, dict):  # a value is an object; one stored otherwise matches nothing
        value = {}
    try:
        return all(_compare(value.get(key), each) for key, each in wanted.items())
    except (TypeError, ValueError) as exc:
        raise KernelError(
            ErrorCode.INVALID_ARGS,
            f"the filter cannot compare the value of item '{row.key}' in namespace {row.namespace}",
        ) from exc


def store_search(ctx: CallContext, args: SearchArgs) -> Decision:
    """``SearchOp``: the live items under the namespace prefix that the principal may read, in
    ``InMemoryStore``'s order (namespaces as first written into, items as inserted), kept by the filter;
    with a ``query_vector``, ranked by similarity (``graph_store_search.ranked``), each with its score;
    then ``offset`` and ``limit``. Without one, ``query`` is recorded and ignored, as there."""
    access = _access(ctx)
    if args.namespace_prefix:
        access.require(Capability.READ, _prefix(args.namespace_prefix))
    orders = _check_operators(args.filter)
    query = None if args.query_vector is None else query_vector(args.query_vector)
    store = ctx.read.graph_store
    order = store.namespaces()
    owners = store.owners()
    depth = len(args.namespace_prefix)
    rows = []
    wanted: dict[str, bool] = {}  # by namespace: under the prefix, and readable by the principal
    for row in store.items():
        if row.namespace not in wanted:
            under = decode(row.namespace.encode("utf-8"))[:depth] == args.namespace_prefix
            wanted[row.namespace] = under and access.allows(
                Capability.READ, row.prefix, owners.get(row.prefix)
            )
        if wanted[row.namespace] and _live(row, ctx.now):
            rows.append(row)
    rows.sort(key=lambda row: (order.get(row.namespace, 0), row.order_seq, row.namespace, row.key))
    found: list[tuple[StoreItem, Stored | None]] = [(row, None) for row in rows[: args.offset + args.limit]]
    if args.filter or query is not None:  # an unranked search that cannot be refused stops at its page
        enough = None if query is not None or orders else args.offset + args.limit
        found = _matching(ctx, rows, args.filter or None, query is not None, enough)
    if query is None:
        chosen: list[tuple[StoreItem, float | None]] = [
            (row, None) for row, _ in found[args.offset : args.offset + args.limit]
        ]
    else:
        chosen = ranked(
            [row for row, _ in found], [vectors for _, vectors in found], query, args.offset, args.limit
        )
    changes: list[Change] = []
    if args.refresh_ttl:
        chosen = [(_refreshed(row, ctx, changes), score) for row, score in chosen]
    items = [_wire(row) if query is None else {**_wire(row), "score": score} for row, score in chosen]
    hashes = [row.value_hash for row, _ in chosen]
    return Decision({"items": items}, tuple(changes), unjournaled=values_answer(ctx, hashes))


def _does_match(condition: MatchCondition, namespace: list[str]) -> bool:
    """``InMemoryStore``'s ``_does_match``: a prefix or suffix, ``"*"`` matching any element."""
    step = 1 if condition.match_type == "prefix" else -1
    mine, path = namespace[::step], condition.path[::step]
    pairs = zip(mine, path, strict=False)
    return len(mine) >= len(path) and all(wanted in ("*", own) for own, wanted in pairs)


def store_list_namespaces(ctx: CallContext, args: ListNamespacesArgs) -> dict[str, Any]:
    """``ListNamespacesOp``: every namespace ever written into whose first element the principal may
    read, kept by the match conditions, cut to ``max_depth`` (deduplicated), sorted, then ``offset`` and
    ``limit``."""
    access = _access(ctx)
    store = ctx.read.graph_store
    owners = store.owners()
    namespaces: list[list[str]] = []
    for text in store.namespaces():
        namespace = decode(text.encode("utf-8"))
        if not access.allows(Capability.READ, namespace[0], owners.get(namespace[0])):
            continue
        if all(_does_match(condition, namespace) for condition in args.match_conditions):
            namespaces.append(namespace)
    if args.max_depth is not None:
        unique = {tuple(namespace[: args.max_depth]) for namespace in namespaces}
        namespaces = [list(namespace) for namespace in unique]
    namespaces.sort()
    return {"namespaces": namespaces[args.offset : args.offset + args.limit]}

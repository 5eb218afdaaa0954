"""Which partition of a partitioned journal a call belongs to (``specs/scale-out.md`` §3).

Pure: a route is a function of the recorded call alone (its syscall name and its recorded argument
bytes) and of the partition count and key kind fixed at creation, never of time, state or the process
(no ``hash()``: SHA-256), so the router that sends a call and the verifier that re-routes its journal
entry years later agree.

A call either names a *subject* (a user, a context, a thread, a store namespace, a grant's scope) and
belongs in that subject's partition (``Route.bound``: verification proves no other partition holds it);
or it names several (a ``graph.thread.prune`` of threads in several partitions: split, one part per
partition; a grant scoped to ``store:X``, which may mean user ``store:X`` or namespace ``X``: both);
or it names none, and goes to partition 0 unless the caller pins it (``kernel.record``, a review by
request id, an unknown syscall, arguments without a usable subject), valid in any partition; or it is
about every partition (``access.grant`` scoped ``*``, ``access.list``, ``pipeline.end``,
``graph.runs.delete``, ``graph.store.list_namespaces``): each partition runs it and the router merges
the answers. A read that no partition can answer alone and that cannot be merged in one journal's
order (a search of the whole graph store, a list of every thread's checkpoints) is refused by the
router when there is more than one partition.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arvis.canonical import decode
from kernel.access import ANY_SCOPE
from kernel.arguments import REFUSED_ARGS_MARKER

__all__ = [
    "FREE_SYSCALLS",
    "MAX_PARTITIONS",
    "ROUTED_SYSCALLS",
    "Merge",
    "PartitionKey",
    "Route",
    "key_text",
    "partition_of",
    "route",
]

MAX_PARTITIONS = 1024
"""The most partitions a journal may be split into (the journal ids ``<set>/p<k>`` must fit 64)."""

SCOPE_PREFIXES = ("store:", "graph:", "user:", "context:")
"""Grant scopes that name a store namespace's first element or a graph thread (``syscalls.graph_store``,
``syscalls.graph``): such a grant may concern that name's partition as well as the scope's own."""

MAX_SEARCH = 1000
"""``graph.store.list_namespaces``' largest ``limit`` (``syscalls.graph_store.MAX_SEARCH``)."""


class PartitionKey(StrEnum):
    """How a subject is mapped to a partition, chosen at creation."""

    HASH = "hash"
    """SHA-256 of the subject's UTF-8 bytes, as a big-endian integer, modulo the partition count."""
    TENANT = "tenant"
    """The same of the subject's tenant: its text before the first ``:`` or ``/`` (the whole text when
    it has neither), so that every subject of one tenant shares a partition."""


class Merge(StrEnum):
    """How the router makes one result of a call that several partitions answered."""

    ONE = "one"
    """One partition answered: its result."""
    SAME = "same"
    """The same call in each (a ``*`` grant): the first refusal, else partition 0's, with every part."""
    GRANTS = "grants"
    """``access.list``: the union of the partitions' grants, ordered as one journal orders them."""
    RUN_END = "run_end"
    """``pipeline.end``: the answer of the partition that knows the run."""
    DELETED = "deleted"
    """``graph.runs.delete``, a split ``graph.thread.prune``: the counts deleted, summed."""
    NAMESPACES = "namespaces"
    """``graph.store.list_namespaces``: sorted, deduplicated, then ``offset`` and ``limit``."""


@dataclass(frozen=True)
class Route:
    """Where a call goes. ``partitions``: ascending; ``bound``: the call names a subject, so only these
    partitions may hold it (verification re-routes every entry); unbound calls may sit in any partition.
    ``args``: the arguments each partition gets, in ``partitions`` order (None: the call's own).
    ``refused``: the router answers the call itself, with this reason, journaling nothing."""

    partitions: tuple[int, ...]
    bound: bool
    merge: Merge = Merge.ONE
    args: tuple[Any, ...] | None = None
    refused: str = ""

    @property
    def pinnable(self) -> bool:
        """A call that names no subject and goes to one partition: the caller may choose which."""
        return not self.bound and len(self.partitions) == 1 and not self.refused and self.args is None


def key_text(subject: str, key: PartitionKey) -> str:
    """The text that is hashed for ``subject`` under ``key``."""
    if key is PartitionKey.HASH:
        return subject
    cut = min((index for index in (subject.find(":"), subject.find("/")) if index >= 0), default=-1)
    return subject if cut < 0 else subject[:cut]


def partition_of(subject: str, count: int, key: PartitionKey = PartitionKey.HASH) -> int:
    """The partition of ``subject`` among ``count``: stable across processes, machines and releases."""
    if count == 1:
        return 0
    digest = hashlib.sha256(key_text(subject, key).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest, "big") % count


_USER = frozenset(
    {"memory.list", "memory.get", "memory.snapshot", "memory.write", "memory.revoke", "pipeline.begin"}
)
_THREAD = frozenset(
    {
        "graph.checkpoint.put",
        "graph.checkpoint.put_writes",
        "graph.checkpoint.get",
        "graph.thread.delete",
        "graph.thread.create",
    }
)
_BY_REQUEST = frozenset({"memory.awmu.review", "memory.awmu.reopen_request"})
"""Working-memory calls that name a request (``c<seq>``, unique only within one partition), not a context."""
FREE_SYSCALLS = frozenset({"kernel.record", *_BY_REQUEST})
"""The syscalls that name no subject at all: partition 0 unless the caller pins another."""
_EVERY: dict[str, Merge] = {
    "access.list": Merge.GRANTS,
    "pipeline.end": Merge.RUN_END,
    "graph.runs.delete": Merge.DELETED,
}
ROUTED_SYSCALLS = frozenset(
    {
        *_USER,
        *_THREAD,
        *FREE_SYSCALLS,
        *_EVERY,
        "graph.checkpoint.list",
        "graph.store.put",
        "graph.store.get",
        "graph.store.search",
        "graph.store.list_namespaces",
        "graph.thread.prune",
        "graph.thread.copy",
        "graph.namespace.create",
        "access.grant",
        "access.revoke",
    }
)
"""Every syscall name the rules below decide by name; ``memory.awmu.*`` names are routed by their
``context_id`` (but for ``FREE_SYSCALLS``). A syscall added to the table must be placed here, or routed
by its family (a test holds the table to it): a name the router does not know names no subject."""


def _every(count: int, merge: Merge, args: tuple[Any, ...] | None = None) -> Route:
    return Route(tuple(range(count)), bound=False, merge=merge, args=args)


def _free() -> Route:
    return Route((0,), bound=False)


def _text(args: dict[str, Any], field: str) -> str | None:
    value = args.get(field)
    return value if isinstance(value, str) else None


def _bound(subjects: list[str], count: int, key: PartitionKey, merge: Merge = Merge.SAME) -> Route:
    partitions = tuple(sorted({partition_of(subject, count, key) for subject in subjects}))
    return Route(partitions, bound=True, merge=Merge.ONE if len(partitions) == 1 else merge)


def _refused(count: int, reason: str) -> Route:
    """A call no one partition can answer: refused by the router (with one partition there is no such
    call: it goes there)."""
    return _free() if count == 1 else Route((), bound=False, refused=reason)


def _grant(args: dict[str, Any], count: int, key: PartitionKey) -> Route:
    scope = _text(args, "scope") if "scope" in args else ANY_SCOPE
    if scope is None:
        return _free()
    if scope == ANY_SCOPE:
        return _every(count, Merge.SAME)
    subjects = [scope]
    for prefix in SCOPE_PREFIXES:
        if scope.startswith(prefix) and len(scope) > len(prefix):
            subjects.append(scope[len(prefix) :])
    return _bound(subjects, count, key)


def _prune(args: dict[str, Any], count: int, key: PartitionKey) -> Route:
    threads = args.get("thread_ids")
    if not isinstance(threads, list) or not threads or not all(isinstance(t, str) for t in threads):
        return _free()
    parts: dict[int, list[str]] = {}
    for thread in threads:
        parts.setdefault(partition_of(thread, count, key), []).append(thread)
    if len(parts) == 1:
        return Route(tuple(parts), bound=True)
    order = tuple(sorted(parts))
    split = tuple({**args, "thread_ids": parts[partition]} for partition in order)
    return Route(order, bound=True, merge=Merge.DELETED, args=split)


def _copy(args: dict[str, Any], count: int, key: PartitionKey) -> Route:
    source, target = _text(args, "source_thread_id"), _text(args, "target_thread_id")
    if source is None or target is None:
        return _free()
    route = _bound([source, target], count, key)
    if len(route.partitions) == 1:
        return route
    return _refused(
        count,
        f"graph.thread.copy from partition {partition_of(source, count, key)} to partition "
        f"{partition_of(target, count, key)}: a copy cannot span partitions (copy within one tenant, "
        "or read the source and write the target)",
    )


def _namespaces(args: dict[str, Any], count: int) -> Route:
    """Each partition lists from the start, up to ``offset + limit``; the router merges and cuts."""
    offset, limit = args.get("offset", 0), args.get("limit", 100)
    if count == 1 or not (_natural(offset) and _natural(limit)):
        return _every(count, Merge.NAMESPACES) if count > 1 else _free()
    if offset + limit > MAX_SEARCH:
        return _refused(
            count,
            f"graph.store.list_namespaces with offset + limit over {MAX_SEARCH} cannot be merged "
            "across partitions: page with a smaller offset",
        )
    wide = {**args, "offset": 0, "limit": offset + limit}
    return _every(count, Merge.NAMESPACES, tuple(wide for _ in range(count)))


def _natural(value: object) -> bool:
    return type(value) is int and value >= 0


def _route_object(syscall: str, args: dict[str, Any], count: int, key: PartitionKey) -> Route:
    if syscall in _USER:
        subject = _text(args, "user_id")
    elif syscall.startswith("memory.awmu.") and syscall not in _BY_REQUEST:
        subject = _text(args, "context_id")
    elif syscall in _THREAD:
        subject = _text(args, "thread_id")
    elif syscall == "graph.checkpoint.list":
        if args.get("thread_id") is None:
            return _refused(count, "graph.checkpoint.list without a thread spans partitions: name the thread")
        subject = _text(args, "thread_id")
    elif syscall in ("graph.store.put", "graph.store.get", "graph.store.search"):
        field = "namespace_prefix" if syscall == "graph.store.search" else "namespace"
        namespace = args.get(field, [])
        if syscall == "graph.store.search" and namespace == []:
            return _refused(
                count, "graph.store.search without a namespace prefix spans partitions: name a prefix"
            )
        first = namespace[0] if isinstance(namespace, list) and namespace else None
        subject = first if isinstance(first, str) else None
    elif syscall == "graph.namespace.create":
        subject = _text(args, "prefix")
    elif syscall in ("access.grant", "access.revoke"):
        return _grant(args, count, key)
    elif syscall in _EVERY:
        return _every(count, _EVERY[syscall]) if count > 1 else _free()
    elif syscall == "graph.store.list_namespaces":
        return _namespaces(args, count)
    elif syscall == "graph.thread.prune":
        return _prune(args, count, key)
    elif syscall == "graph.thread.copy":
        return _copy(args, count, key)
    else:  # FREE_SYSCALLS, and any name the table does not hold
        return _free()
    return _free() if subject is None else _bound([subject], count, key)


def route(syscall: str, args: bytes, count: int, key: PartitionKey = PartitionKey.HASH) -> Route:
    """The route of a call recorded as ``syscall`` with the argument bytes ``args`` (its journaled form,
    ``kernel.arguments.record_args``) among ``count`` partitions."""
    if count < 1:
        raise ValueError("a partitioned journal has at least one partition")
    try:
        decoded = decode(args)
    except Exception:  # not JSON at all (a hand edit): no subject
        return _free()
    if not isinstance(decoded, dict) or REFUSED_ARGS_MARKER in decoded:
        return _free()
    found = _route_object(syscall, decoded, count, key)
    if count == 1 and found.partitions != (0,):
        return Route((0,), bound=found.bound)
    return found

"""The global log of a partitioned journal (``specs/scale-out.md`` §5): an ordinary journal whose entries
are the router's ``kernel.record`` calls, as ``service:arvis-partitions``:

- entry 1, kind ``arvis.partition_manifest``: ``{"manifest": <identity>, "manifest_hash": <hex>}``;
- every later entry, kind ``arvis.partition_heads``: ``{"heads": [[seq, entry_hash], …]}``, partition 0
  first (seq 0 and the partition's genesis hash while it is empty).

This module builds the first entry's arguments and reads a global log back, naming the first entry that
is not one of these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arvis.canonical import decode
from journal.partition_manifest import PartitionManifest
from kernel.abi import JournalEntry
from kernel.partitioned import HEADS_KIND, MANIFEST_KIND, ROUTER_PRINCIPAL

__all__ = ["GlobalLog", "HeadsEntry", "manifest_record", "read_global_log"]

_HASH = re.compile(r"^[0-9a-f]{64}\Z")


def manifest_record(manifest: PartitionManifest) -> dict[str, Any]:
    """The arguments of the global log's first entry (a ``kernel.record``)."""
    return {
        "kind": MANIFEST_KIND,
        "payload": {"manifest": manifest.identity(), "manifest_hash": manifest.manifest_hash},
    }


@dataclass(frozen=True)
class HeadsEntry:
    """One record of the heads: the global log's seq holding it, and partition k's head at index k."""

    seq: int
    heads: tuple[tuple[int, str], ...]


@dataclass
class GlobalLog:
    """What a global log holds, read in seq order up to its first problem (``problem``: seq, reason)."""

    manifest_hash: str | None = None
    heads: list[HeadsEntry] = field(default_factory=list)
    problem: tuple[int, str] | None = None


def _record(entry: JournalEntry) -> tuple[str, Any] | None:
    """The (kind, payload) of an accepted ``kernel.record`` by the router, else None."""
    if entry.syscall != "kernel.record" or entry.principal != ROUTER_PRINCIPAL or entry.status != "ok":
        return None
    try:
        args = decode(entry.args)
    except Exception:
        return None
    if not isinstance(args, dict) or not isinstance(args.get("kind"), str):
        return None
    return args["kind"], args.get("payload")


def _heads(payload: Any, count: int) -> tuple[tuple[int, str], ...] | None:
    heads = payload.get("heads") if isinstance(payload, dict) else None
    if not isinstance(heads, list) or len(heads) != count:
        return None
    parsed: list[tuple[int, str]] = []
    for head in heads:
        if not (isinstance(head, list) and len(head) == 2):
            return None
        seq, digest = head
        if type(seq) is not int or seq < 0 or not isinstance(digest, str) or not _HASH.match(digest):
            return None
        parsed.append((seq, digest))
    return tuple(parsed)


def read_global_log(entries: Iterable[JournalEntry], count: int) -> GlobalLog:
    """Parse a global log of a set of ``count`` partitions. The first entry must record the manifest,
    every other one a well-formed head of each partition. A record may name an older head of a partition
    than the record before it (two routers, in two processes, read and record heads independently);
    each recorded head is proved against its partition's chain (``journal.partition_verify``)."""
    log = GlobalLog()
    for entry in entries:
        found = _record(entry)
        if entry.seq == 1:
            payload = found[1] if found is not None and found[0] == MANIFEST_KIND else None
            digest = payload.get("manifest_hash") if isinstance(payload, dict) else None
            if not isinstance(digest, str):
                log.problem = (1, "the global log's first entry does not record the manifest")
                return log
            log.manifest_hash = digest
            continue
        heads = _heads(found[1], count) if found is not None and found[0] == HEADS_KIND else None
        if heads is None:
            log.problem = (
                entry.seq,
                f"the global log holds a call that is not a record of the {count} partitions' heads "
                f"({entry.syscall} by {entry.principal})",
            )
            return log
        log.heads.append(HeadsEntry(entry.seq, heads))
    if log.manifest_hash is None and log.problem is None:
        log.problem = (1, "the global log is empty: it does not record the manifest")
    return log

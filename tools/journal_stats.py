"""``arvis journal stats`` and ``arvis journal export``."""

from __future__ import annotations

import argparse
import base64
import os
import sys
from collections import Counter
from typing import Any

import orjson

from journal.reader import JournalReader
from kernel.abi import JournalEntry
from tools.common import EXIT_OK
from tools.output import print_json, print_table

__all__ = ["export_line", "run_export", "run_stats"]


def run_stats(reader: JournalReader, options: argparse.Namespace, target: str) -> int:
    per_syscall: Counter[tuple[str, str]] = Counter()
    first: str | None = None
    last: str | None = None
    for entry in reader.entries():
        per_syscall[(entry.syscall, entry.status)] += 1
        first = first or entry.recorded_at
        last = entry.recorded_at
    head = reader.head()
    header = reader.header()
    size = os.path.getsize(target) if "://" not in target else None
    stats: dict[str, Any] = {
        "journal_id": None if header is None else header.journal_id,
        "entries": sum(per_syscall.values()),
        "first_recorded_at": first,
        "last_recorded_at": last,
        "head": None if head is None else f"{head.seq}:{head.entry_hash}",
        "size_bytes": size,
        "by_syscall": [
            {"syscall": syscall, "status": status, "count": count}
            for (syscall, status), count in sorted(per_syscall.items())
        ],
    }
    if options.output != "table":
        print_json(stats, lines=options.output == "jsonl")
        return EXIT_OK
    for name in ("journal_id", "entries", "first_recorded_at", "last_recorded_at", "head", "size_bytes"):
        print(f"{name}: {stats[name]}")
    print_table(
        "by syscall and status",
        ("syscall", "status", "count"),
        (tuple(r.values()) for r in stats["by_syscall"]),
    )
    return EXIT_OK


def _exact(name: str, data: bytes) -> dict[str, str]:
    """Canonical bytes as text (exact: they are UTF-8); bytes that are not UTF-8 travel as base64."""
    try:
        return {name: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {f"{name}_b64": base64.b64encode(data).decode("ascii")}


def export_line(entry: JournalEntry) -> bytes:
    """One entry as a JSON line; ``args``/``result`` hold the canonical bytes as text, exactly."""
    row: dict[str, Any] = {
        "seq": entry.seq,
        "recorded_at": entry.recorded_at,
        "syscall": entry.syscall,
        "principal": entry.principal,
        "status": entry.status,
        "effects_hash": entry.effects_hash,
        "prev_hash": entry.prev_hash,
        "entry_hash": entry.entry_hash,
        **_exact("args", entry.args),
        **_exact("result", entry.result),
    }
    return orjson.dumps(row, option=orjson.OPT_SORT_KEYS) + b"\n"


def run_export(reader: JournalReader, options: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    for entry in reader.entries():
        out.write(export_line(entry))
    out.flush()
    return EXIT_OK

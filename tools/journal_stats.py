"""``arvis journal stats`` and ``arvis journal export``."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

from tools.common import EXIT_OK, resolve_db
from tools.output import cell, entry_json_bytes, position, print_json, print_json_array, print_table

if TYPE_CHECKING:  # the reader (SQLAlchemy) is imported by the command that opens it, when it runs
    from journal.reader import JournalReader
    from kernel.abi import JournalEntry


def run_stats(reader: JournalReader, options: argparse.Namespace) -> int:
    per_syscall: Counter[tuple[str, str]] = Counter()
    first: str | None = None
    last: str | None = None
    for entry in reader.entries():
        per_syscall[(entry.syscall, entry.status)] += 1
        first = first or entry.recorded_at
        last = entry.recorded_at
    head = reader.head()
    header = reader.header()
    target = resolve_db(options.db)  # the database the reader was opened on
    size = os.path.getsize(target) if "://" not in target else None
    stats: dict[str, Any] = {
        "journal_id": None if header is None else header.journal_id,
        "entries": sum(per_syscall.values()),
        "first_recorded_at": first,
        "last_recorded_at": last,
        "head": None if head is None else str(head.pos),
        "position": None if head is None else position(head.pos),
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
        print(f"{name}: {cell(stats[name])}")
    print_table(
        "by syscall and status",
        ("syscall", "status", "count"),
        (tuple(r.values()) for r in stats["by_syscall"]),
    )
    return EXIT_OK


def export_line(entry: JournalEntry) -> bytes:
    """One entry as a JSON line, in the shape every command uses (``tools.output.entry_to_json``):
    exact, since ``args`` and ``result`` re-encode canonically to the stored bytes (or travel as
    base64) and text that is not UTF-8 also travels as base64."""
    return entry_json_bytes(entry, lines=True) + b"\n"


def run_export(reader: JournalReader, options: argparse.Namespace) -> int:
    if options.output == "json":
        print_json_array(reader.entries(), entry_json_bytes)
        return EXIT_OK
    out = sys.stdout.buffer
    for entry in reader.entries():
        out.write(export_line(entry))
    out.flush()
    return EXIT_OK

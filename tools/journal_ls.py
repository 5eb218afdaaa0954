"""``arvis journal ls`` and ``arvis journal tail``: entries, filtered like journalctl."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING

from tools.common import EXIT_FAILED, EXIT_OK, CommandError, add_renamed_principal
from tools.output import cell, entry_json_bytes, print_entry, print_json_array, print_table

if TYPE_CHECKING:  # the reader (SQLAlchemy) is imported when a command runs, not when it is registered
    from journal.reader import JournalReader
    from kernel.abi import JournalEntry

Command = Callable[["JournalReader", argparse.Namespace], int]
"""A journal subcommand over an open reader."""

_COLUMNS = ("seq", "recorded_at", "syscall", "principal", "status", "entry_hash")


def add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--since", help="entries at or after this time (ISO 8601 or an age: 2h, 30m, 1d)")
    parser.add_argument("--until", help="entries at or before this time")
    parser.add_argument("--syscall", help="syscall name or glob, e.g. 'memory.*'")
    add_renamed_principal(parser, "--by", "only the entries this principal made")
    parser.add_argument("--status", help="ok, error (any refusal) or one error code")


def _filtered(
    reader: JournalReader, options: argparse.Namespace, *, descending: bool
) -> Iterator[JournalEntry]:
    """The entries the options select, every filter decided by the reader's query (a glob and
    ``--status error`` too), so rows left out are never decoded. Options are read here, before
    anything is printed."""
    from tools.journal_filters import check_filters, matching, split_filters
    from tools.timespec import parse_moment

    check_filters(reader, options.syscall, options.status)
    split = split_filters(options.syscall, options.by, options.status)
    where = replace(
        split.where,
        since=None if options.since is None else parse_moment(options.since),
        until=None if options.until is None else parse_moment(options.until),
        descending=descending,
    )
    return matching(reader.entries(where), split.after)


def print_entries(entries: Iterable[JournalEntry], fmt: str) -> None:
    if fmt == "table":
        print_table(
            "journal",
            _COLUMNS,
            ((e.seq, e.recorded_at, e.syscall, e.principal, e.status, e.entry_hash[:16]) for e in entries),
        )
    elif fmt == "json":  # streamed: the array is never held whole
        print_json_array(entries, entry_json_bytes)
    else:
        for entry in entries:
            print_entry(entry, lines=True)


def run_ls(reader: JournalReader, options: argparse.Namespace) -> int:
    if options.lines is not None and options.lines < 0:
        raise CommandError("-n must be zero or more")
    if options.lines is not None and not options.reverse:
        # the last N in ascending order: read backwards, keep N, turn them round
        newest = list(islice(_filtered(reader, options, descending=True), options.lines))
        entries: Iterable[JournalEntry] = reversed(newest)
    else:
        entries = _filtered(reader, options, descending=options.reverse)
        if options.lines is not None:
            entries = islice(entries, options.lines)
    from tools.journal_empty import Counted, explain_empty_listing

    counted = Counted(entries)
    print_entries(counted, options.output)
    if counted.count == 0 and options.lines != 0:
        explain_empty_listing(reader, options.by)
    return EXIT_OK


def _print_lines(entries: Iterable[JournalEntry], fmt: str) -> None:
    if fmt in ("json", "jsonl"):
        print_entries(entries, fmt)
        return
    for e in entries:
        fields = (e.seq, e.recorded_at, e.syscall, e.principal, e.status)
        print("\t".join(cell(field) for field in fields), flush=True)


def run_tail(reader: JournalReader, options: argparse.Namespace) -> int:
    """The last N entries, then (with -f) every new one as another process appends it."""
    from journal.reader import JournalFilter

    if options.lines < 0:
        raise CommandError("-n must be zero or more")
    if options.follow and options.output == "json":
        raise CommandError("-o json prints one array, which -f never closes", hint="follow with -o jsonl")
    head = reader.head()  # read first: whatever is appended from now on is printed by the follow loop
    seen = 0 if head is None else head.seq
    last = list(islice(reader.entries(JournalFilter(until_seq=seen, descending=True)), options.lines))[::-1]
    _print_lines(last, options.output)
    if not options.follow:
        return EXIT_OK
    identity = _FileIdentity.of(options.db)
    idle_since = time.monotonic()
    while options.idle_exit is None or time.monotonic() - idle_since < options.idle_exit:
        gone = identity.lost()
        if gone is not None:  # following a file nobody writes any more would be a silent lie
            print(f"arvis: stopped following: {gone}", file=sys.stderr)
            return EXIT_FAILED
        fresh = list(reader.entries(JournalFilter(after_seq=seen)))
        if fresh:
            _print_lines(fresh, options.output)
            seen = fresh[-1].seq
            idle_since = time.monotonic()
        else:
            time.sleep(options.interval)
    return EXIT_OK


@dataclass(frozen=True)
class _FileIdentity:
    """The SQLite file ``tail -f`` follows, by device and inode: removed or replaced (``mv``, ``demo
    --force``), it is no longer the journal new calls go to."""

    path: str | None
    key: tuple[int, int] | None

    @classmethod
    def of(cls, target: str) -> _FileIdentity:
        from journal.engine import sqlite_file

        path = sqlite_file(target)
        return cls(path, None if path is None else _key(path))

    def lost(self) -> str | None:
        """Why the file followed is not the journal any more, or None while it is."""
        if self.path is None:
            return None
        now = _key(self.path)
        if now is None:
            return f"{self.path} was removed"
        return None if now == self.key else f"{self.path} was replaced by another file"


def _key(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)

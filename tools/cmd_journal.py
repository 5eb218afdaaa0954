"""``arvis journal ls|show|verify``: inspect and check a journal without changing it."""

from __future__ import annotations

import argparse
from collections import deque
from collections.abc import Iterator

from journal.reader import JournalFilter, JournalReader
from journal.verify import verify_chain
from kernel.abi import JournalEntry
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, add_db_argument, existing_db
from tools.output import FORMATS, entry_to_json, print_json, print_table

__all__ = ["register"]


def _add_format(parser: argparse.ArgumentParser, default: str = "table") -> None:
    parser.add_argument("-o", "--output", choices=FORMATS, default=default)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("journal", help="inspect and verify a journal")
    commands = parser.add_subparsers(dest="command", required=True)

    ls = commands.add_parser("ls", help="list entries")
    add_db_argument(ls, positional=True)
    ls.add_argument("-n", "--lines", type=int, metavar="N", help="only the last N matching entries")
    ls.add_argument("--syscall", help="only this syscall")
    ls.add_argument("--status", help="ok, error (any refusal) or an error code")
    _add_format(ls)
    ls.set_defaults(run=run_ls)

    show = commands.add_parser("show", help="one entry, whole")
    add_db_argument(show, positional=True)
    show.add_argument("seq", type=int)
    _add_format(show, default="json")
    show.set_defaults(run=run_show)

    verify = commands.add_parser("verify", help="check the hash chain")
    add_db_argument(verify, positional=True)
    _add_format(verify)
    verify.set_defaults(run=run_verify)


def _open(options: argparse.Namespace) -> JournalReader:
    reader = JournalReader.open(existing_db(options.db))
    if reader.header() is None:
        reader.close()
        raise CommandError(f"{options.db} holds no arvis journal", hint="is this the right file?")
    return reader


def _selected(reader: JournalReader, options: argparse.Namespace) -> Iterator[JournalEntry]:
    status = None if options.status in (None, "error") else options.status
    entries = reader.entries(JournalFilter(syscall=options.syscall, status=status))
    if options.status == "error":
        entries = (entry for entry in entries if entry.status != "ok")
    if options.lines is not None:
        if options.lines < 0:
            raise CommandError("-n must be zero or more")
        return iter(deque(entries, maxlen=options.lines))
    return entries


def run_ls(options: argparse.Namespace) -> int:
    reader = _open(options)
    try:
        entries = _selected(reader, options)
        if options.output == "table":
            print_table(
                "journal",
                ("seq", "recorded_at", "syscall", "principal", "status", "entry_hash"),
                (
                    (e.seq, e.recorded_at, e.syscall, e.principal, e.status, e.entry_hash[:16])
                    for e in entries
                ),
            )
        elif options.output == "json":
            print_json([entry_to_json(entry) for entry in entries])
        else:
            for entry in entries:
                print_json(entry_to_json(entry), lines=True)
    finally:
        reader.close()
    return EXIT_OK


def run_show(options: argparse.Namespace) -> int:
    reader = _open(options)
    try:
        entry = reader.get(options.seq)
    finally:
        reader.close()
    if entry is None:
        raise CommandError(f"no entry with seq {options.seq}")
    if options.output == "table":
        print_table(f"entry {entry.seq}", ("field", "value"), entry_to_json(entry).items())
    else:
        print_json(entry_to_json(entry), lines=options.output == "jsonl")
    return EXIT_OK


def run_verify(options: argparse.Namespace) -> int:
    reader = _open(options)
    try:
        header = reader.header()
        assert header is not None
        report = verify_chain(header, reader.entries())
    finally:
        reader.close()
    summary = {
        "verified": report.verified,
        "entries": report.entries,
        "first_bad_seq": report.first_bad_seq,
        "reason": report.reason,
        "head_seq": report.head_seq,
        "head_hash": report.head_hash,
        "journal_id": header.journal_id,
    }
    if options.output == "table":
        if report.verified:
            print(
                f"verified: {report.entries} entries, chain intact, head {report.head_seq}:{report.head_hash}"
            )
        else:
            print(f"NOT verified: first bad seq {report.first_bad_seq}: {report.reason}")
    else:
        print_json(summary, lines=options.output == "jsonl")
    return EXIT_OK if report.verified else EXIT_FAILED

"""``arvis journal ...``: inspect, audit and export a journal without changing it."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from journal.reader import JournalReader
from tools import journal_audit, journal_ls, journal_stats
from tools.common import EXIT_OK, CommandError, add_db_argument, existing_db
from tools.output import FORMATS, entry_to_json, print_json, print_table

__all__ = ["register"]


def _add_format(
    parser: argparse.ArgumentParser, default: str = "table", choices: tuple[str, ...] = FORMATS
) -> None:
    parser.add_argument("-o", "--output", choices=choices, default=default)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("journal", help="inspect, verify and export a journal")
    commands = parser.add_subparsers(dest="command", required=True)

    ls = commands.add_parser("ls", help="list entries, filtered like journalctl")
    add_db_argument(ls, positional=True)
    ls.add_argument("-n", "--lines", type=int, metavar="N", help="only the last N matching entries")
    ls.add_argument("-r", "--reverse", action="store_true", help="newest first")
    journal_ls.add_filters(ls)
    _add_format(ls)
    ls.set_defaults(run=_with_reader(journal_ls.run_ls))

    tail = commands.add_parser("tail", help="the last entries; -f follows new ones")
    add_db_argument(tail, positional=True)
    tail.add_argument("-n", "--lines", type=int, default=10, metavar="N")
    tail.add_argument(
        "-f", "--follow", action="store_true", help="keep printing entries as they are appended"
    )
    tail.add_argument("--interval", type=float, default=0.5, help="seconds between polls when following")
    tail.add_argument(
        "--idle-exit", type=float, metavar="S", help="stop following after S seconds with nothing new"
    )
    _add_format(tail, choices=("table", "jsonl"))
    tail.set_defaults(run=_with_reader(journal_ls.run_tail))

    show = commands.add_parser("show", help="one entry, whole")
    add_db_argument(show, positional=True)
    show.add_argument("seq", type=int)
    _add_format(show, default="json")
    show.set_defaults(run=_with_reader(_run_show))

    verify = commands.add_parser("verify", help="check the chain and replay every entry byte for byte")
    add_db_argument(verify, positional=True)
    verify.add_argument("--chain-only", action="store_true", help="only the hash chain (fast), no replay")
    verify.add_argument("--checkpoint", metavar="SEQ:HASH", help="fail unless the journal still extends it")
    _add_format(verify)
    verify.set_defaults(run=_with_reader(journal_audit.run_verify))

    checkpoint = commands.add_parser("checkpoint", help="print SEQ:HASH of the head, for an auditor to keep")
    add_db_argument(checkpoint, positional=True)
    checkpoint.set_defaults(run=_with_reader(journal_audit.run_checkpoint))

    snapshot = commands.add_parser("snapshot", help="a user's snapshot as of any seq (time travel)")
    add_db_argument(snapshot, positional=True)
    snapshot.add_argument("--user", required=True)
    snapshot.add_argument("--at", type=int, metavar="SEQ", help="right after this entry (default: the head)")
    _add_format(snapshot, default="json", choices=("json", "jsonl"))
    snapshot.set_defaults(run=_with_reader(journal_audit.run_snapshot))

    state = commands.add_parser("state", help="the state digest and contents as of any seq")
    add_db_argument(state, positional=True)
    state.add_argument("--at", type=int, metavar="SEQ")
    _add_format(state)
    state.set_defaults(run=_with_reader(journal_audit.run_state))

    stats = commands.add_parser("stats", help="counts per syscall and status, times, size, head")
    add_db_argument(stats, positional=True)
    _add_format(stats)
    stats.set_defaults(run=_run_stats)

    export = commands.add_parser("export", help="every entry as a JSON line, canonical bytes exact")
    add_db_argument(export, positional=True)
    _add_format(export, default="jsonl", choices=("jsonl",))
    export.set_defaults(run=_with_reader(journal_stats.run_export))

    diff = commands.add_parser("diff", help="the first seq where two journals differ")
    diff.add_argument("db", metavar="DB1")
    diff.add_argument("other", metavar="DB2")
    diff.set_defaults(run=_run_diff)


def _open(target: str | None) -> JournalReader:
    path = existing_db(target)
    reader = JournalReader.open(path)
    if reader.header() is None:
        reader.close()
        raise CommandError(f"{path} holds no arvis journal", hint="is this the right file?")
    return reader


def _with_reader(command: journal_ls.Command) -> Callable[[argparse.Namespace], int]:
    def run(options: argparse.Namespace) -> int:
        reader = _open(options.db)
        try:
            return command(reader, options)
        finally:
            reader.close()

    return run


def _run_show(reader: JournalReader, options: argparse.Namespace) -> int:
    entry = reader.get(options.seq)
    if entry is None:
        raise CommandError(f"no entry with seq {options.seq}")
    if options.output == "table":
        print_table(f"entry {entry.seq}", ("field", "value"), entry_to_json(entry).items())
    else:
        print_json(entry_to_json(entry), lines=options.output == "jsonl")
    return EXIT_OK


def _run_stats(options: argparse.Namespace) -> int:
    target = existing_db(options.db)
    reader = _open(target)
    try:
        return journal_stats.run_stats(reader, options, target)
    finally:
        reader.close()


def _run_diff(options: argparse.Namespace) -> int:
    first, second = _open(options.db), _open(options.other)
    try:
        return journal_audit.run_diff(first, second, options)
    finally:
        first.close()
        second.close()

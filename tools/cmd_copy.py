"""``arvis journal copy --db SRC --to DST``: copy a journal, row for row, into an empty database (SQLite to
PostgreSQL or back), so that it can be audited there with ``arvis journal verify --db DST``."""

from __future__ import annotations

import argparse
from contextlib import closing

from tools.common import EXIT_OK, CommandError, add_pair_arguments, checked_db, existing_db


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``copy`` to the ``journal`` command (registered before this one)."""
    journal = subparsers.choices["journal"]
    commands = next(action for action in journal._actions if isinstance(action, argparse._SubParsersAction))
    copy = commands.add_parser(
        "copy", help="copy a journal and its state, as stored, into an empty database (to audit it there)"
    )
    add_pair_arguments(copy, "to", ("SRC", "DST"))  # DST: created and migrated if new
    copy.add_argument("-o", "--output", choices=("table", "json"), default="table")
    copy.set_defaults(run=run_copy)


def run_copy(options: argparse.Namespace) -> int:
    from journal.copy import copy_journal
    from journal.engine import open_engine, shown  # shown: a URL's password is never printed
    from journal.reader import JournalReader

    if options.other is None:
        raise CommandError("journal copy needs the database to copy into", hint="--db SRC --to DST")
    source = existing_db(options.db)
    destination = checked_db(options.other)  # refused before the source is opened
    with closing(JournalReader.open(source)) as reader:
        if reader.header() is None:
            raise CommandError(f"{shown(source)} holds no arvis journal", hint="is this the right database?")
        target = open_engine(destination)
        try:
            report = copy_journal(reader.engine, target)
        finally:
            target.dispose()
    if options.output == "json":
        from tools.output import position, print_json

        print_json(
            {
                "source": shown(source),
                "target": shown(destination),
                "entries": report.entries,
                "state_rows": report.state_rows,
                "head_seq": 0 if report.head is None else report.head.seq,
                "head_hash": None if report.head is None else report.head.entry_hash,
                "position": position(report.head),
            }
        )
        return EXIT_OK
    head = "empty journal" if report.head is None else f"head {report.head}"
    print(
        f"copied {report.entries} entries ({head}) and {report.state_rows} state rows "
        f"from {shown(source)} to {shown(destination)}"
    )
    print(f"audit the copy with: arvis journal verify --db {shown(destination)}")
    return EXIT_OK

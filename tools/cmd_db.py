"""``arvis db upgrade --db DB``: bring a database's schema to the head migration. ``arvis db keygen --db DB``:
write the database's admin key (``tools.admin_key``), never over an existing one.

A database that holds no journal yet (a new file, an empty server database) is given one, empty: its
header is written as the first call would write it, so that every ``arvis journal`` command reads it as
the empty journal it is rather than as a database without a journal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tools.admin_key import add_admin_key_argument
from tools.common import EXIT_OK, CommandError, add_db_argument, existing_db, writable_db

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("db", help="schema management")
    actions = parser.add_subparsers(dest="action", required=True)
    upgrade = actions.add_parser("upgrade", help="run the Alembic migrations up to head")
    add_db_argument(upgrade, positional=False)
    upgrade.add_argument(
        "--create", action="store_true", help="start a new journal if the database file does not exist"
    )
    upgrade.add_argument("-o", "--output", choices=("table", "json"), default="table")
    upgrade.set_defaults(run=run_upgrade)
    keygen = actions.add_parser(
        "keygen",
        help="write the admin key that administrators (admin:…, operator:…) need; never replaces one",
    )
    add_db_argument(keygen, positional=False)
    add_admin_key_argument(keygen)
    keygen.set_defaults(run=run_keygen)


def run_upgrade(options: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from journal.engine import one_line, open_engine
    from journal.migrate import check_writable, upgrade_to_head

    target = writable_db(options.db, create=options.create)
    check_writable(target)  # before the engine's first connection, which already writes (WAL)
    engine = open_engine(target)
    try:
        before, after = upgrade_to_head(engine)
        started = _start_journal(engine)
    except SQLAlchemyError as exc:
        raise CommandError(f"migration failed: {one_line(exc)}") from None
    finally:
        engine.dispose()
    if options.output == "json":
        from tools.output import print_json

        print_json({"before": before, "after": after, "started_journal": started})
        return EXIT_OK
    if before == after:
        print(f"already at head ({after})")
    else:
        print(f"upgraded {before or 'empty database'} -> {after}")
    if started is not None:
        print(f"started an empty journal, {started}")
    return EXIT_OK


def run_keygen(options: argparse.Namespace) -> int:
    """Exit 2, the file left as it is, when the key exists already."""
    from tools.admin_key import admin_key_path, create_key_or_fail, shown_path

    target = existing_db(options.db)
    path = admin_key_path(target, options.admin_key)
    if path is None:
        raise CommandError(
            "a PostgreSQL database has no default place for its admin key",
            hint="give --admin-key FILE (and the same to `arvis call`, or set ARVIS_ADMIN_KEY)",
        )
    create_key_or_fail(path)
    print(f"wrote the admin key {shown_path(path)} (0600)")
    return EXIT_OK


def _start_journal(engine: Engine) -> str | None:
    """Write the header of a database that has none (its schema is at head by now), as opening a kernel
    on it would; returns the new journal's id, or None when it already held a journal."""
    from journal.store import SqlJournalStore, read_header
    from kernel.clock import SystemClock

    with engine.connect() as connection:
        if read_header(connection) is not None:
            return None
    store = SqlJournalStore(engine, clock=SystemClock(), upgrade=False)
    try:
        return store.header.journal_id
    finally:
        store.close()

"""``arvis db upgrade --db DB``: bring a database's schema to the head migration."""

from __future__ import annotations

import argparse

from sqlalchemy.exc import SQLAlchemyError

from journal.engine import open_engine
from journal.migrate import upgrade_to_head
from tools.common import EXIT_OK, CommandError, add_db_argument, resolve_db

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("db", help="schema management")
    actions = parser.add_subparsers(dest="action", required=True)
    upgrade = actions.add_parser("upgrade", help="run the Alembic migrations up to head")
    add_db_argument(upgrade, positional=False)
    upgrade.set_defaults(run=run_upgrade)


def run_upgrade(options: argparse.Namespace) -> int:
    engine = open_engine(resolve_db(options.db))
    try:
        before, after = upgrade_to_head(engine)
    except SQLAlchemyError as exc:
        raise CommandError(f"migration failed: {exc}") from None
    finally:
        engine.dispose()
    if before == after:
        print(f"already at head ({after})")
    else:
        print(f"upgraded {before or 'empty database'} -> {after}")
    return EXIT_OK

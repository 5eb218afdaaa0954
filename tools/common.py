"""What every command shares: the database argument, errors that carry a hint, exit codes."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "CommandError",
    "add_db_argument",
    "existing_db",
    "resolve_db",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """A usage or I/O problem: printed as one line with a hint, exit code 2."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def add_db_argument(parser: argparse.ArgumentParser, *, positional: bool) -> None:
    help_text = "database file path or SQLAlchemy URL (default: $ARVIS_DB)"
    if positional:
        parser.add_argument("db", nargs="?", metavar="DB", help=help_text)
    else:
        parser.add_argument("--db", metavar="DB", help=help_text)


def resolve_db(value: str | None) -> str:
    target = value or os.environ.get("ARVIS_DB")
    if not target:
        raise CommandError("no database given", hint="pass DB (or --db) or set ARVIS_DB")
    return target


def existing_db(value: str | None) -> str:
    """A database that must already exist (reading never creates one)."""
    target = resolve_db(value)
    if "://" not in target and not Path(target).is_file():
        raise CommandError(f"no journal at {target}", hint="check the path, or create it with `arvis call`")
    return target

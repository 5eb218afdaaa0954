"""What every command shares: the database argument, errors that carry a hint, exit codes."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """A usage or I/O problem: printed as one line with a hint, exit code 2."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def later(module: str, name: str) -> Callable[..., int]:
    """The command ``name`` of ``tools.MODULE``, imported when it runs (and looked up then, so a test that
    patches the module sees its patch): registering the commands never loads what they run (SQLAlchemy,
    the replay machinery, the signing library, the scenario tools)."""

    def run(*args: Any) -> int:
        command: Callable[..., int] = getattr(importlib.import_module(f"tools.{module}"), name)
        return command(*args)

    return run


def made_directory(path: Path) -> Path:
    """``path``, a directory created with its parents when missing (exit 2 when it cannot be)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create the directory {path}: {exc}") from None
    return path


DB_HELP = "a file path (taken literally), sqlite:///PATH or postgresql://... URL (default: $ARVIS_DB)"


def add_db_argument(parser: argparse.ArgumentParser, *, several: bool = False) -> None:
    """``--db DB``: the one way every command names its database (``several``: repeatable). The positional
    database of earlier releases (``journal ls DB``), deprecated since, is gone."""
    if several:
        parser.add_argument("--db", metavar="DB", action="append", help=DB_HELP + "; repeat for several")
    else:
        parser.add_argument("--db", metavar="DB", help=DB_HELP)


def add_caller_argument(
    parser: argparse.ArgumentParser, summary: str, *, synonym: bool = True, **more: Any
) -> None:
    """``--as P``, the caller, in every command that makes calls (``specs/cli.md``), read as
    ``options.caller``; ``--principal P`` its synonym, unless ``synonym`` is false (``journal rollback``,
    where the old ``--principal`` names the subject)."""
    flags = ("--as", "--principal") if synonym else ("--as",)
    parser.add_argument(*flags, dest="caller", **{"metavar": "P", "help": summary, **more})


def add_renamed_principal(parser: argparse.ArgumentParser, flag: str, summary: str) -> None:
    """``FLAG P``, a principal that is not the caller (a subject, a filter; read as ``options.FLAG``), and
    ``--principal P``, its old spelling, kept working with a notice since ``--principal`` is the caller
    everywhere else (``specs/cli.md``)."""

    def noted(value: str) -> str:
        print(f"arvis: note: --principal is deprecated here (it is the caller elsewhere); "
              f"write {flag} {value}", file=sys.stderr)  # fmt: skip
        return value

    parser.add_argument(flag, metavar="P", help=summary)
    parser.add_argument("--principal", dest=flag[2:], type=noted, metavar="P", help=f"deprecated: {flag} P")


def add_pair_arguments(parser: argparse.ArgumentParser, second: str, metavars: tuple[str, str]) -> None:
    """``--db A`` and ``--SECOND B`` for a command on two databases (``journal diff``, ``journal copy``)."""
    parser.add_argument("--db", metavar=metavars[0], help=DB_HELP)
    parser.add_argument(f"--{second}", dest="other", metavar=metavars[1], help="the second database, as --db")


def resolve_db(value: str | None) -> str:
    """The database named on the command line or by ``$ARVIS_DB``, refused here (exit 2, before anything
    connects) when it is neither a file path nor a SQLite or PostgreSQL URL."""
    target = value or os.environ.get("ARVIS_DB")
    if not target:
        raise CommandError("no database given", hint="pass DB (or --db) or set ARVIS_DB")
    return checked_db(target)


def checked_db(target: str) -> str:
    """``target`` itself, once it is known to name a database arvis can use (exit 2 otherwise)."""
    _file_of(target)
    return target


def _file_of(target: str) -> Path | None:
    """The SQLite file ``target`` names (None: in memory, or a server), or the usage error it is."""
    from journal.engine import SUPPORTED_FORMS, UnsupportedDatabase, shown, sqlite_file  # SQLAlchemy: lazily

    try:
        path = sqlite_file(target)
    except UnsupportedDatabase as exc:
        raise CommandError(exc.reason, hint=f"give {SUPPORTED_FORMS}") from None
    if path is None:
        return None
    if _probed(path, target) and not Path(path).is_file():
        raise CommandError(f"{shown(target)} is not a file", hint="give the journal's file, not a directory")
    return Path(path)


_SHOWN_MAX = 120
"""The longest name a message prints whole; a longer one is cut in the middle (its length said)."""


def short_name(name: str) -> str:
    """``name`` as a message prints it: whole up to ``_SHOWN_MAX`` characters, else its start and end."""
    if len(name) <= _SHOWN_MAX:
        return name
    return f"{name[:60]}…{name[-40:]} ({len(name)} characters)"


def _probed(path: str, target: str) -> bool:
    """Whether something is at ``path`` (a dangling link counts); a name the system refuses to look up
    (too long, a loop of links, a directory that may not be searched) is the usage error it is, not an
    ``OSError`` later from wherever the file is first touched."""
    from journal.engine import shown

    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CommandError(
            f"cannot use {short_name(shown(target))}: {reason}", hint="give a shorter or accessible path"
        ) from None
    return True


def existing_db(value: str | None) -> str:
    """A database that must already exist (reading never creates one)."""
    from journal.engine import shown

    target = resolve_db(value)
    path = _file_of(target)
    if target == ":memory:" or (path is not None and not path.exists()):
        raise CommandError(
            f"no journal at {shown(target)}", hint="check the path, or create it with `arvis call --create`"
        )
    return target


def writable_db(value: str | None, *, create: bool) -> str:
    """A database a command writes to. A SQLite file must exist unless ``create``: a mistyped path
    must not silently start a new, empty journal beside the real one. A server database (PostgreSQL)
    is the server's to create; ``:memory:`` is always new."""
    from journal.engine import shown

    target = resolve_db(value)
    path = _file_of(target)
    if path is not None and not create and not path.exists():
        raise CommandError(f"no journal at {shown(target)}", hint="pass --create to start a new journal")
    return target

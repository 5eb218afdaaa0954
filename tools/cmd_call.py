"""``arvis call SYSCALL --args JSON``: run one syscall and print its result."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from tools.common import EXIT_FAILED, EXIT_OK, CommandError, add_db_argument, writable_db
from tools.logs import call_logger
from tools.output import print_json

__all__ = ["DURABILITIES", "LOCAL_OPERATOR", "register"]

LOCAL_OPERATOR = "operator:local"

DURABILITIES = ("NORMAL", "FULL", "OFF")
"""``journal.engine.Durability``'s values, spelt out so that registering the command does not import
SQLAlchemy (tests/test_cli_startup.py checks they match)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("call", help="run one syscall and print its SyscallResult as JSON")
    parser.add_argument("syscall", help="e.g. memory.write")
    parser.add_argument(
        "--args",
        default="{}",
        metavar="JSON",
        help="the arguments as a JSON object; - reads it from stdin, @FILE from a file",
    )
    parser.add_argument(
        "--create", action="store_true", help="start a new journal if the database file does not exist"
    )
    parser.add_argument("--principal", default=LOCAL_OPERATOR, help=f"who calls (default {LOCAL_OPERATOR})")
    parser.add_argument("--durability", choices=DURABILITIES, default="NORMAL")
    parser.add_argument(
        "-o", "--output", choices=("json", "jsonl"), default="json", help="indented JSON or one line"
    )
    add_db_argument(parser, positional=False)
    parser.set_defaults(run=run)


def run(options: argparse.Namespace) -> int:
    from journal.engine import Durability
    from kernel.boot import open_kernel

    args = _parsed_args(options.args)
    target = writable_db(options.db, create=options.create)
    kernel = open_kernel(target, durability=Durability(options.durability), logger=call_logger())
    try:
        result = kernel.call(options.syscall, args, principal=options.principal)
    finally:
        kernel.close()
    print_json(result.to_dict(), lines=options.output == "jsonl")
    _hint(options.syscall, result.to_dict())
    return EXIT_OK if result.ok else EXIT_FAILED


def _hint(syscall: str, answer: dict[str, Any]) -> None:
    """On stderr, after a refusal a person can correct: the syscall name or enum value meant. The
    result (and so the journal) stays the kernel's own."""
    from syscalls.table import SYSCALL_TABLE
    from tools.syscall_help import enum_hint, syscall_hint

    error = answer.get("error") or {}
    hint: str | None = None
    if error.get("code") == "unknown_syscall":
        hint = syscall_hint(syscall, list(SYSCALL_TABLE))
    elif error.get("code") == "invalid_args" and syscall in SYSCALL_TABLE:
        hint = enum_hint(SYSCALL_TABLE[syscall], str(error.get("detail", "")))
    if hint is not None:
        print(f"hint: {hint}", file=sys.stderr)


def _args_text(value: str) -> bytes | str:
    """The JSON text ``--args`` gives: itself, stdin for ``-``, a file's contents for ``@FILE`` (long
    or generated arguments need no shell quoting). JSON never starts with ``@``, so nothing is lost."""
    if value == "-":
        return _read_args("stdin", lambda: sys.stdin.buffer.read(ARGS_READ_LIMIT + 1))
    if value.startswith("@"):
        return _read_args(f"file {value[1:]}", lambda: _head(Path(value[1:])))
    return value


ARGS_READ_LIMIT = 1 << 20
"""The most ``--args -``/``@FILE`` reads: 1 MiB, sixteen times what the kernel records
(``kernel.arguments.MAX_ARGS_BYTES``); ``@/dev/zero`` or an endless pipe is refused, not read forever."""


def _head(path: Path) -> bytes:
    with path.open("rb") as handle:
        return handle.read(ARGS_READ_LIMIT + 1)


def _read_args(source: str, read: Callable[[], bytes]) -> bytes:
    try:
        data = read()
        if len(data) > ARGS_READ_LIMIT:
            raise CommandError(
                f"--args from {source} is larger than {ARGS_READ_LIMIT} bytes",
                hint="the kernel records arguments of at most 65536 bytes",
            )
        return data
    except (OSError, AttributeError, ValueError) as exc:  # no such file; stdin closed or absent
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CommandError(
            f"cannot read --args from {source}: {reason}", hint="--args takes JSON, - (stdin) or @FILE"
        ) from None


def _parsed_args(value: str) -> Any:
    try:
        return orjson.loads(_args_text(value))
    except orjson.JSONDecodeError as exc:
        source = " (stdin)" if value == "-" else f" (file {value[1:]})" if value.startswith("@") else ""
        raise CommandError(
            f"--args is not JSON{source}: {exc}", hint='quote it: --args \'{"user_id": "u1"}\''
        ) from None

"""``arvis call SYSCALL --as P --args JSON``: run one syscall and print its result.

There is no default principal: ``--as`` (``--principal``), else ``$ARVIS_PRINCIPAL``. A built-in administrator
(``admin:…``, ``operator:…``) must be proved by the database's admin key (``tools.admin_key``); any other
principal is taken as claimed, its rights coming from grants and ownership."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from tools.admin_key import add_admin_key_argument
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, add_caller_argument, add_db_argument, writable_db
from tools.output import print_json

if TYPE_CHECKING:
    from kernel.judge import ConflictJudge


DURABILITIES = ("NORMAL", "FULL", "OFF")
"""``journal.engine.Durability``'s values, spelt out so that registering the command does not import
SQLAlchemy (tests/test_cli_startup.py checks they match)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("call", help="run one syscall and print its SyscallResult as JSON")
    parser.add_argument("syscall", help="e.g. memory.write")
    parser.add_argument(
        "--args",
        metavar="JSON",
        help="the arguments as a JSON object (default: {}); - reads it from stdin, @FILE from a file",
    )
    parser.add_argument(
        "--create",
        action="store_true",
        help="start a new journal if the database file does not exist, with its admin key beside it",
    )
    add_caller_argument(
        parser,
        "who calls (default: $ARVIS_PRINCIPAL; one of them is required): user:ID acts on its own memory, "
        "others by their grants; admin:NAME and operator:NAME are administrators and need the admin key",
    )
    add_admin_key_argument(parser)
    parser.add_argument("--durability", choices=DURABILITIES, default="NORMAL")
    parser.add_argument(
        "--judge-url",
        metavar="URL",
        help="the working memory's model judge: an OpenAI-compatible chat-completions endpoint or its base "
        "(e.g. http://127.0.0.1:8000/v1), asked about the pairs a proposal's detectors found; its bearer "
        "token, if any, in $ARVIS_JUDGE_API_KEY",
    )
    parser.add_argument("--judge-model", metavar="NAME", default="default", help="the model the judge asks")
    parser.add_argument(
        "--judge-timeout", metavar="S", type=float, default=10.0, help="seconds a judge's answer may take"
    )
    parser.add_argument(
        "-o", "--output", choices=("json", "jsonl"), default="json", help="indented JSON or one line"
    )
    add_db_argument(parser)
    parser.set_defaults(run=run)


def run(options: argparse.Namespace) -> int:
    from tools.kernel_open import opened_kernel

    principal = _principal(options.caller)
    args = _parsed_args("{}" if options.args is None else options.args)
    judge = _judge(options)
    target = writable_db(options.db, create=options.create)
    _refuse_unwritable(target)

    def storage_error(exc: Exception) -> BaseException:
        return _read_only_error(target, str(exc)) if _unwritable(str(exc)) else exc

    opening = opened_kernel(options, principal, target, storage_error=storage_error, judge=judge)
    with opening as (kernel, identity):
        result = kernel.call(options.syscall, args, principal=principal, credential=identity.credential)
    print_json(result.to_dict(), lines=options.output == "jsonl")
    _hint(options, args, result.to_dict(), target)
    return EXIT_OK if result.ok else EXIT_FAILED


def _judge(options: argparse.Namespace) -> ConflictJudge | None:
    """The judge ``--judge-url`` names, or None."""
    if not options.judge_url:
        return None
    from kernel.judge import HttpJudge

    if not options.judge_timeout > 0:
        raise CommandError("--judge-timeout is a positive number of seconds")
    key = os.environ.get("ARVIS_JUDGE_API_KEY") or None
    return HttpJudge(options.judge_url, options.judge_model, options.judge_timeout, api_key=key)


def _principal(given: str | None) -> str:
    """``--as`` (``--principal``), else ``$ARVIS_PRINCIPAL`` (empty: unset): there is no default. A name
    without a kind (``bob``) is refused here, exit 2, before anything is journaled: it is almost always
    ``user:bob`` mistyped, and the kernel would journal it as a refusal of a principal no grant names."""
    named = given if given is not None else os.environ.get("ARVIS_PRINCIPAL")
    if not named:
        raise CommandError(
            "no principal: give --as P (or --principal P) or set ARVIS_PRINCIPAL (there is no default)",
            hint="user:ID acts on its own memory; admin:NAME and operator:NAME need the database's admin key",
        )
    kind, colon, _ = named.partition(":")
    if not colon or not kind:  # `admin:` alone has a kind: the kernel answers it (by its grants, none)
        meant = named.strip(":") or "ID"
        raise CommandError(
            f"principal {named!r} names no kind: a principal is KIND:NAME",
            hint=f"did you mean user:{meant}? (or agent:{meant}, service:{meant}, operator:{meant})",
        )
    return named


_UNWRITABLE_SIGNS = ("readonly", "read-only", "unable to open database", "permission denied")


def _unwritable(reason: str) -> bool:
    """Whether a storage error says the database cannot be written (a read-only file or mount)."""
    return any(sign in reason.lower() for sign in _UNWRITABLE_SIGNS)


def _read_only_error(target: str, reason: str) -> CommandError:
    from journal.engine import shown

    return CommandError(
        f"cannot write the journal at {shown(target)}: {reason}", hint=_unwritable_hint(target)
    )


def _unwritable_hint(target: str) -> str:
    from journal.engine import shown

    return (
        "every call is journaled, reads included (memory.get appends an entry), so `arvis call` needs a "
        f"journal it can write; read one without writing with `arvis journal snapshot --db {shown(target)} "
        f"--user ID` or `arvis journal state --db {shown(target)}`"
    )


def _refuse_unwritable(target: str) -> None:
    """Exit 2 at once for a SQLite file the process may not write (or whose directory it may not write
    in, where SQLite keeps its -wal and -shm files): no call could be journaled there."""
    from journal.engine import sqlite_file

    file = sqlite_file(target)
    if file is None or not os.path.exists(file):
        return
    directory = os.path.dirname(os.path.abspath(file))
    if not os.access(file, os.W_OK) or not os.access(directory, os.W_OK | os.X_OK):
        raise _read_only_error(target, "the file or its directory is read-only")


def _hint(options: argparse.Namespace, args: Any, answer: dict[str, Any], target: str) -> None:
    """On stderr, after an answer a person can correct: the syscall name, field or enum value meant, the
    ``--args`` forgotten, a ``value_ref`` that is a reference, or, for a journal that cannot be written,
    the commands that read one. The result (and so the journal) stays the kernel's own."""
    from syscalls.table import SYSCALL_TABLE
    from tools.syscall_help import args_hint, syscall_hint

    syscall, error = options.syscall, answer.get("error") or {}
    code, detail = error.get("code"), str(error.get("detail", ""))
    ref, hint = args.get("value_ref") if isinstance(args, dict) and answer.get("ok") else None, None
    if isinstance(ref, str) and ":" not in ref:  # specs/memory-syscalls.md §3.1a
        hint = f'value_ref {ref!r} is a reference to a value kept elsewhere ("plain:{ref}": the value itself)'
    elif code == "unknown_syscall":
        hint = syscall_hint(syscall, list(SYSCALL_TABLE))
    elif code == "invalid_args" and options.args is None:
        hint = f"no --args given: pass --args '{{\"user_id\": …}}' (`arvis syscalls {syscall}` lists them)"
    elif code == "invalid_args" and syscall in SYSCALL_TABLE:
        hint = args_hint(SYSCALL_TABLE[syscall], detail)
    elif code == "storage_unavailable" and _unwritable(detail):
        hint = _unwritable_hint(target)
    if hint is not None:
        print(f"hint: {hint}", file=sys.stderr)


def _args_text(value: str) -> bytes | str:
    """The JSON text ``--args`` gives: itself, stdin for ``-``, a file's contents for ``@FILE`` (long
    or generated arguments need no shell quoting). JSON never starts with ``@``, so nothing is lost."""
    if value == "-":
        try:
            data = sys.stdin.buffer.read(ARGS_READ_LIMIT + 1)
        except (OSError, AttributeError, ValueError) as exc:  # stdin closed or absent
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise CommandError(f"cannot read --args from stdin: {reason}", hint=ARGS_FORMS) from None
        if len(data) > ARGS_READ_LIMIT:
            raise CommandError(
                f"--args from stdin is larger than {ARGS_READ_LIMIT} bytes",
                hint="the kernel records arguments of at most 65536 bytes",
            )
        return data
    if value.startswith("@"):
        # a regular file only: a FIFO would block the open until someone writes to it, and a device
        # (/dev/zero) has no end: both are refused at once; a pipe is given as -
        from tools.private_file import read_regular

        try:
            return read_regular(Path(value[1:]), "the --args file", ARGS_READ_LIMIT)
        except CommandError as exc:
            raise CommandError(str(exc), hint=ARGS_FORMS) from None
    return value


ARGS_READ_LIMIT = 1 << 20
"""The most ``--args -``/``@FILE`` reads: 1 MiB, sixteen times what the kernel records
(``kernel.arguments.MAX_ARGS_BYTES``); an endless pipe on stdin is refused, not read forever."""
ARGS_FORMS = "--args takes JSON, - (stdin, a pipe) or @FILE (a regular file)"


def _parsed_args(value: str) -> Any:
    try:
        return orjson.loads(_args_text(value))
    except orjson.JSONDecodeError as exc:
        source = " (stdin)" if value == "-" else f" (file {value[1:]})" if value.startswith("@") else ""
        raise CommandError(
            f"--args is not JSON{source}: {exc}", hint='quote it: --args \'{"user_id": "u1"}\''
        ) from None

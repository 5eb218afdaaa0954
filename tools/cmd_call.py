"""``arvis call SYSCALL --args JSON``: run one syscall and print its result."""

from __future__ import annotations

import argparse

import orjson

from journal.engine import Durability
from kernel.boot import open_kernel
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, add_db_argument, resolve_db
from tools.logs import call_logger
from tools.output import print_json

__all__ = ["LOCAL_OPERATOR", "register"]

LOCAL_OPERATOR = "operator:local"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("call", help="run one syscall and print its SyscallResult as JSON")
    parser.add_argument("syscall", help="e.g. memory.write")
    parser.add_argument("--args", default="{}", metavar="JSON", help="the arguments as a JSON object")
    parser.add_argument("--principal", default=LOCAL_OPERATOR, help=f"who calls (default {LOCAL_OPERATOR})")
    parser.add_argument("--durability", choices=[d.value for d in Durability], default="NORMAL")
    add_db_argument(parser, positional=False)
    parser.set_defaults(run=run)


def run(options: argparse.Namespace) -> int:
    try:
        args = orjson.loads(options.args)
    except orjson.JSONDecodeError as exc:
        raise CommandError(
            f"--args is not JSON: {exc}", hint='quote it: --args \'{"user_id": "u1"}\''
        ) from None
    kernel = open_kernel(
        resolve_db(options.db), durability=Durability(options.durability), logger=call_logger()
    )
    try:
        result = kernel.call(options.syscall, args, principal=options.principal)
    finally:
        kernel.close()
    print_json(result.to_dict())
    return EXIT_OK if result.ok else EXIT_FAILED

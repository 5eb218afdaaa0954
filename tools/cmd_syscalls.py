"""``arvis syscalls [NAME]``: the syscall table — names, arguments, whether each call changes state."""

from __future__ import annotations

import argparse
from typing import Any

from tools.common import EXIT_OK, CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("syscalls", help="list the syscalls, or one syscall's arguments")
    parser.add_argument("name", nargs="?", help="one syscall: its arguments, types and defaults")
    parser.add_argument("-o", "--output", choices=("table", "json", "jsonl"), default="table")
    parser.set_defaults(run=run)


def _describe(name: str) -> dict[str, Any]:
    from syscalls.table import SYSCALL_TABLE
    from tools.syscall_help import argument_rows

    spec = SYSCALL_TABLE[name]
    named = {name: getattr(spec, name) for name in ("name", "mutates", "summary", "service")}
    return named | {"arguments": argument_rows(spec)}


def _default_cell(row: dict[str, Any]) -> str:
    """A default as the table shows it: short values as JSON, a whole object by reference."""
    if row["required"]:
        return ""
    import orjson

    text = orjson.dumps(row["default"]).decode("utf-8")
    return text if len(text) <= 30 else "an object: `-o json` shows it"


def run(options: argparse.Namespace) -> int:
    from syscalls.table import SYSCALL_TABLE
    from tools.output import print_json, print_table
    from tools.syscall_help import syscall_hint

    if options.name is not None and options.name not in SYSCALL_TABLE:
        raise CommandError(
            f"no syscall named {options.name!r}", hint=syscall_hint(options.name, list(SYSCALL_TABLE))
        )
    names = [options.name] if options.name is not None else sorted(SYSCALL_TABLE)
    described = [_describe(name) for name in names]
    if options.output == "json":
        print_json(described[0] if options.name is not None else described)
    elif options.output == "jsonl":
        for item in described:
            print_json(item, lines=True)
    elif options.name is not None:
        only = described[0]
        print(f"{only['name']}: {only['summary']} ({'mutates' if only['mutates'] else 'read-only'})")
        rows = (
            (row["name"], row["type"], "yes" if row["required"] else "", _default_cell(row))
            for row in only["arguments"]
        )
        print_table(None, ("argument", "type", "required", "default"), rows)
    else:
        print_table(
            "syscalls",
            ("name", "mutates", "summary"),
            ((item["name"], "yes" if item["mutates"] else "", item["summary"]) for item in described),
        )
    return EXIT_OK

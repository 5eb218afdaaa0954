"""Rendering for the command line: readable tables on a terminal, JSON or JSON lines for machines."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from rich.console import Console
from rich.table import Table

from arvis.canonical import decode
from kernel.abi import JournalEntry

__all__ = ["FORMATS", "entry_to_json", "print_json", "print_table"]

FORMATS = ("table", "json", "jsonl")


def _default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    raise TypeError


def print_json(value: Any, *, lines: bool = False) -> None:
    option = orjson.OPT_SORT_KEYS | (0 if lines else orjson.OPT_INDENT_2)
    sys.stdout.write(orjson.dumps(value, default=_default, option=option).decode("utf-8") + "\n")


def _decoded(data: bytes) -> Any:
    try:
        return decode(data)
    except Exception:
        return {"$undecodable": data.decode("utf-8", "replace")}


def entry_to_json(entry: JournalEntry) -> dict[str, Any]:
    """An entry for people and scripts: args and result decoded, hashes as stored."""
    return {
        "seq": entry.seq,
        "recorded_at": entry.recorded_at,
        "syscall": entry.syscall,
        "principal": entry.principal,
        "args": _decoded(entry.args),
        "status": entry.status,
        "result": _decoded(entry.result),
        "effects_hash": entry.effects_hash,
        "prev_hash": entry.prev_hash,
        "entry_hash": entry.entry_hash,
    }


def print_table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A rich table on a terminal; tab-separated plain text in a pipe."""
    console = Console()
    if not console.is_terminal:
        sys.stdout.write("\t".join(columns) + "\n")
        for row in rows:
            sys.stdout.write("\t".join("" if cell is None else str(cell) for cell in row) + "\n")
        return
    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*("" if cell is None else str(cell) for cell in row))
    console.print(table)

"""Rendering for the command line: readable tables on a terminal, JSON or JSON lines for machines."""

from __future__ import annotations

import base64
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from arvis.canonical import canonical_bytes_of_own, decode

if TYPE_CHECKING:  # rich is imported where a table is drawn: JSON output never loads it
    from rich.console import Console
    from rich.progress import ProgressColumn

    from journal.entry import Pos
    from kernel.abi import JournalEntry


FORMATS = ("table", "json", "jsonl")

T = TypeVar("T")


def _default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    raise TypeError


def shown(text: str) -> str:
    """Text as it can be printed: bytes that were not valid UTF-8 (read back as lone surrogates) are
    shown escaped (``\\xff``), so a tampered column is displayed, never a crash."""
    if text.isascii():  # the common case, decided without encoding
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def position(pos: Pos | None) -> dict[str, Any] | None:
    """A journal position as every JSON output gives it (``specs/cli.md``): ``{"seq": N, "hash": H}``,
    the seq of an entry and its entry hash; None for an empty journal (no entry, no position)."""
    if pos is None or not pos.entry_hash or not pos.seq:  # seq 0: before the first entry
        return None
    return {"seq": pos.seq, "hash": pos.entry_hash}


def cell(value: object) -> str:
    """A value as one cell of a table or one field of a tab-separated line: ``shown``, with control
    characters escaped too (``\\n``, ``\\x1b``), so journal text can neither split a row, forge a
    line, nor send a terminal escape sequence."""
    if value is None:
        return ""
    return _CONTROL.sub(
        lambda match: match.group().encode("unicode_escape").decode("ascii"), shown(str(value))
    )


def printable(value: Any) -> Any:
    """``value`` with every string (keys included) made printable by ``shown``."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown(str(key)): printable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [printable(item) for item in value]
    return value


def _option(lines: bool) -> int:
    return orjson.OPT_SORT_KEYS | (0 if lines else orjson.OPT_INDENT_2)


def json_bytes(value: Any, *, lines: bool = False) -> bytes:
    """``value`` as JSON (keys sorted; indented unless ``lines``). Text that is not valid UTF-8 is
    escaped first: the fast encoder refuses it, and the slow walk runs only then."""
    option = _option(lines)
    try:
        return orjson.dumps(value, default=_default, option=option)
    except TypeError:
        return orjson.dumps(printable(value), default=_default, option=option)


def print_json(value: Any, *, lines: bool = False) -> None:
    """``value`` as JSON and a newline on stdout, as bytes where stdout has a buffer (what was printed
    before flushed first): a large state is not decoded into a second copy of itself to be encoded again."""
    data = json_bytes(value, lines=lines)
    if (out := getattr(sys.stdout, "buffer", None)) is None:  # a text stream (``redirect_stdout``)
        sys.stdout.write(data.decode("utf-8") + "\n")
    else:
        sys.stdout.flush()
        out.writelines((data, b"\n"))  # not joined: no second copy of a large output either


def print_entry(entry: JournalEntry, *, lines: bool = False) -> None:
    """``print_json(entry_to_json(entry))``, as ``entry_json_bytes`` encodes it."""
    sys.stdout.write(entry_json_bytes(entry, lines=lines).decode("utf-8") + "\n")


def print_json_array(values: Iterable[T], encode: Callable[[T], bytes] = json_bytes) -> None:
    """``print_json(list(values))``, byte for byte, written one value at a time: a journal of a
    million entries is listed in the memory of one. Each value is encoded (indented, by ``encode``)
    and shifted two spaces to sit inside the array (a JSON string holds no raw newline, so every
    newline is layout)."""
    separator = "[\n"
    for value in values:
        sys.stdout.write(separator + "  " + encode(value).decode("utf-8").replace("\n", "\n  "))
        separator = ",\n"
    sys.stdout.write("[]\n" if separator == "[\n" else "\n]\n")


def _add_payload(row: dict[str, Any], name: str, data: bytes) -> None:
    """``args`` or ``result``: the decoded value when re-encoding it canonically gives back exactly the
    stored bytes (so the value *is* the bytes, and an auditor can recompute the chain from it);
    otherwise the stored bytes as base64 under ``NAME_b64`` (a hand edit: not canonical, or not JSON).
    A canonical value the output's encoder cannot write is turned to base64 by ``entry_json_bytes``."""
    try:
        value = decode(data)
        exact = canonical_bytes_of_own(value) == data
    except Exception:  # not JSON, or nothing the encoder can write back: the bytes travel as base64
        exact = False
    if exact:
        row[name] = value
    else:
        row[f"{name}_b64"] = base64.b64encode(data).decode("ascii")


def _add_text(row: dict[str, Any], name: str, text: str) -> None:
    """A text column, shown escaped where it holds bytes that are not UTF-8; then ``NAME_b64`` also
    carries those bytes exactly."""
    printed = row[name] = shown(text)
    if printed is not text:
        raw = text.encode("utf-8", "surrogateescape")
        row[f"{name}_b64"] = base64.b64encode(raw).decode("ascii")


def entry_to_json(entry: JournalEntry) -> dict[str, Any]:
    """The one JSON shape of a journal entry, in every command (``ls``, ``show``, ``tail``,
    ``export``): ``args`` and ``result`` as JSON values whose canonical encoding is exactly the stored
    bytes, or as ``args_b64``/``result_b64`` when they are not canonical JSON; text columns as stored,
    escaped (with ``NAME_b64``) where they are not valid UTF-8; hashes as stored. Printed as JSON by
    ``entry_json_bytes``."""
    row: dict[str, Any] = {"seq": entry.seq}
    for name in ("recorded_at", "syscall", "principal", "args", "status", "result"):
        (_add_payload if name in ("args", "result") else _add_text)(row, name, getattr(entry, name))
    for name in ("effects_hash", "prev_hash", "entry_hash"):
        _add_text(row, name, getattr(entry, name))
    return row


def _writable(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with each of ``args``/``result`` that the output's encoder refuses (a hand edit: an
    integer beyond 64 bits, nesting deeper than it allows) as ``NAME_b64``: exact, since its canonical
    encoding is the stored bytes (``_add_payload``)."""
    for name in ("args", "result"):
        if name in row:
            try:
                orjson.dumps({name: row[name]})  # the depth it has in the row
            except TypeError:
                raw = canonical_bytes_of_own(row.pop(name))
                row[f"{name}_b64"] = base64.b64encode(raw).decode("ascii")
    return row


def entry_json_bytes(entry: JournalEntry, *, lines: bool = False) -> bytes:
    """``json_bytes(entry_to_json(entry))``; what the kernel records always encodes at once, so only a
    row the encoder refuses pays for the second look (``_writable``)."""
    row = entry_to_json(entry)
    try:
        return orjson.dumps(row, option=_option(lines))
    except TypeError:
        return json_bytes(_writable(row), lines=lines)


TABLE_CHUNK = 1_000
"""Rows per rich table on a terminal; later chunks print without a title or header."""


def print_table(
    title: str | None,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    right_from: int | None = None,
    console: Console | None = None,
) -> None:
    """A rich table on a terminal that never cuts a value: a cell too wide for its column wraps inside it
    (``fold``) instead of ending in "…"; light borders leave the width to the values. Columns from
    ``right_from`` on are right-aligned (figures). Tab-separated plain text in a pipe."""
    from rich.console import Console

    screen = console or Console()
    if not screen.is_terminal:
        sys.stdout.write("\t".join(columns) + "\n")
        for row in rows:
            sys.stdout.write("\t".join(cell(value) for value in row) + "\n")
        return
    from rich import box
    from rich.table import Table
    from rich.text import Text

    pending = iter(rows)
    first = True
    while True:  # a thousand rows at a time: a long listing on a terminal is never held whole
        chunk = list(islice(pending, TABLE_CHUNK))
        if not chunk and not first:
            return
        table = Table(title=title if first else None, box=box.SIMPLE_HEAD, pad_edge=False, show_header=first)
        for index, column in enumerate(columns):
            right = right_from is not None and index >= right_from
            table.add_column(column, overflow="fold", justify="right" if right else "left")
        for row in chunk:
            table.add_row(*(Text(cell(value)) for value in row))  # Text: journal text is never markup
        screen.print(table)
        first = False


@contextmanager
def progress_bar(
    description: str, total: int, *more: ProgressColumn, keep: bool = False
) -> Iterator[Callable[..., None]]:
    """A bar on a terminal (stderr, gone when done unless ``keep``) for one task of ``total`` steps, with
    the ``more`` columns after its count, and what moves it (``Progress.update``'s keywords:
    ``completed``, ``advance``, ``description``…); in a pipe, in tests or for nothing to do, no bar, and
    moving it does nothing."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    if not console.is_terminal or not total:
        yield lambda **changes: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), *more)
    with Progress(*columns, console=console, transient=not keep) as progress:
        task = progress.add_task(description, total=total)
        yield lambda **changes: progress.update(task, **changes)

"""Why a listing came out empty: one line on stderr (``specs/cli.md`` §Empty results), so that a
mistyped principal or user reads differently from a journal that holds nothing for them. stdout keeps
the empty answer itself (a table without rows, ``[]``), as scripts read it; the exit code stays 0."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from journal.reader import JournalReader


T = TypeVar("T")

_NAMED_MAX = 5
"""The most names a note lists (``principals who called: a, b, c…``)."""


class Counted(Iterable[T]):
    """An iterable that counts what it yields, so that a streamed listing knows afterwards if it was empty."""

    def __init__(self, items: Iterable[T]) -> None:
        self.items = items
        self.count = 0

    def __iter__(self) -> Iterator[T]:
        for item in self.items:
            self.count += 1
            yield item


def note(text: str) -> None:
    print(f"arvis: note: {text}", file=sys.stderr)


def _named(names: Iterable[str]) -> str:
    ordered = sorted(set(names))
    shown = ", ".join(ordered[:_NAMED_MAX])
    return shown + (f" and {len(ordered) - _NAMED_MAX} more" if len(ordered) > _NAMED_MAX else "")


def explain_empty_listing(reader: JournalReader, principal: str | None) -> None:
    """``journal ls`` printed no entry: the journal is empty, the principal filtered on never called,
    or the filters together leave nothing."""
    from journal.reader import JournalFilter

    total = reader.count()
    if total == 0:
        note("no entry: the journal is empty")
        return
    if principal is not None and "*" not in principal:
        callers = {entry.principal for entry in reader.entries(JournalFilter())}
        if principal not in callers:
            note(f"no entry: {principal} made no call in this journal's {total} entries "
                 f"(principals who called: {_named(callers)})")  # fmt: skip
            return
    note(f"no entry matches the filters among the journal's {total} entries")


def explain_empty_snapshot(reader: JournalReader, user_id: str, seq: object) -> None:
    """A snapshot with no entry at all: say whether any accepted ``memory.write`` ever named the user."""
    import orjson

    from journal.reader import JournalFilter

    users: set[str] = set()
    for entry in reader.entries(JournalFilter(syscall="memory.write", status="ok")):
        named = orjson.loads(entry.args).get("user_id") if entry.args.startswith(b"{") else None
        if isinstance(named, str):
            users.add(named)
    if user_id in users:
        note(f"user {user_id} has no memory entry as of seq {seq} (its first write comes later)")
        return
    known = f"users with memory: {_named(users)}" if users else "no memory.write was accepted yet"
    note(f"user {user_id} has no memory entry as of seq {seq}: no accepted memory.write names it ({known})")

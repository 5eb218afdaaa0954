"""Filters of ``journal ls``/``tail`` that cannot match: a typo is said, never answered by silence.

A filter naming a syscall or status that neither the syscall table nor the journal knows would print
nothing and exit 0, which reads as "no such calls" when the name was mistyped. Such a filter is a usage
error with the names meant. A name the table does not know but the journal holds (a refused call to a
mistyped syscall is journaled under that name) is a valid filter.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from journal.engine import valid_text
from tools.common import CommandError

if TYPE_CHECKING:
    from journal.reader import JournalFilter, JournalReader
    from kernel.abi import JournalEntry


def known_statuses() -> list[str]:
    """Every status an entry can have: ``ok`` and each error code; ``error`` means any refusal."""
    from kernel.errors import ErrorCode

    return ["ok", "error", *(code.value for code in ErrorCode)]


def _journal_has(reader: JournalReader, where: JournalFilter) -> bool:
    return next(iter(reader.entries(where, batch=1)), None) is not None


def check_filters(reader: JournalReader, syscall: str | None, status: str | None) -> None:
    """Refuse (exit 2, with the names meant) a ``--syscall`` or ``--status`` that matches nothing the
    table or the journal knows."""
    from journal.reader import JournalFilter
    from syscalls.table import SYSCALL_TABLE
    from tools.syscall_help import closest, syscall_hint

    if syscall is not None and valid_text(syscall):
        glob = any(c in syscall for c in "*?[")
        in_table = (
            fnmatch.filter(SYSCALL_TABLE, syscall) if glob else [syscall] if syscall in SYSCALL_TABLE else []
        )
        where = JournalFilter(syscall_glob=syscall) if glob else JournalFilter(syscall=syscall)
        if not in_table and not _journal_has(reader, where):
            raise CommandError(
                f"no syscall matches --syscall {syscall!r}, in the table or in this journal",
                hint=syscall_hint(syscall, list(SYSCALL_TABLE)),
            )
    unknown = status is not None and valid_text(status) and status not in known_statuses()
    if status is not None and unknown and not _journal_has(reader, JournalFilter(status=status)):
        meant = closest(status, known_statuses())
        listing = "ok, error (any refusal) or an error code (specs/error-codes.md)"
        raise CommandError(
            f"no entry can have --status {status!r}",
            hint=(f"did you mean {' or '.join(meant)}? " if meant else "") + f"give {listing}",
        )


@dataclass(frozen=True)
class SplitFilters:
    """The ``--syscall``/``--principal``/``--status`` filters split in two: what the reader's query
    decides (``where``), and what is compared after reading. A value holding bytes that are not UTF-8
    (given as raw bytes on the command line, read back as lone surrogates) cannot be bound as SQL text,
    but it can equal a tampered column read back the same way: it is compared after reading."""

    where: JournalFilter
    after: tuple[tuple[str, str], ...]
    """(column, value or glob) pairs compared on each entry read; a syscall is a glob."""


def split_filters(syscall: str | None, principal: str | None, status: str | None) -> SplitFilters:
    from journal.reader import JournalFilter

    after: list[tuple[str, str]] = []
    for column, value in (("syscall", syscall), ("principal", principal), ("status", status)):
        if value is not None and not valid_text(value):
            after.append((column, value))
    late = {column for column, _ in after}
    glob = syscall is not None and any(c in syscall for c in "*?[")
    sql_syscall = None if syscall is None or "syscall" in late else syscall
    where = JournalFilter(
        syscall=None if glob else sql_syscall,
        syscall_glob=sql_syscall if glob else None,
        principal=None if "principal" in late else principal,
        status=None if status in (None, "error") or "status" in late else status,
        errors_only=status == "error",
    )
    return SplitFilters(where, tuple(after))


def matching(entries: Iterator[JournalEntry], after: tuple[tuple[str, str], ...]) -> Iterator[JournalEntry]:
    """``entries`` that also pass the filters compared after reading."""
    if not after:
        yield from entries
        return
    for entry in entries:
        if all(_passes(getattr(entry, column), column, value) for column, value in after):
            yield entry


def _passes(found: str, column: str, wanted: str) -> bool:
    return fnmatch.fnmatchcase(found, wanted) if column == "syscall" else found == wanted

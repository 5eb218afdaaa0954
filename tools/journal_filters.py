"""Filters of ``journal ls``/``tail`` that cannot match: a typo is said, never answered by silence.

A filter naming a syscall or status that neither the syscall table nor the journal knows would print
nothing and exit 0, which reads as "no such calls" when the name was mistyped. Such a filter is a usage
error with the names meant. A name the table does not know but the journal holds (a refused call to a
mistyped syscall is journaled under that name) is a valid filter.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tools.common import CommandError

if TYPE_CHECKING:
    from journal.reader import JournalFilter, JournalReader
    from kernel.abi import JournalEntry

__all__ = ["check_filters", "known_statuses", "text_filters"]


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

    if syscall is not None:
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
    unknown = status is not None and status not in known_statuses()
    if status is not None and unknown and not _journal_has(reader, JournalFilter(status=status)):
        meant = closest(status, known_statuses())
        listing = "ok, error (any refusal) or an error code (specs/error-codes.md)"
        raise CommandError(
            f"no entry can have --status {status!r}",
            hint=(f"did you mean {' or '.join(meant)}? " if meant else "") + f"give {listing}",
        )


def text_filters(principal: str | None) -> tuple[str | None, str | None]:
    """(the principal the query compares, the principal compared after reading). A principal with
    bytes that are not UTF-8 (given as raw bytes on the command line) cannot be bound as SQL text; it
    can still equal a tampered column read back the same way, so it is compared after reading."""
    if principal is None:
        return None, None
    try:
        principal.encode("utf-8")
    except UnicodeEncodeError:
        return None, principal
    return principal, None


def matching_principal(entries: Iterator[JournalEntry], principal: str | None) -> Iterator[JournalEntry]:
    """``entries`` whose principal is ``principal`` (all of them when it is None)."""
    if principal is None:
        yield from entries
        return
    for entry in entries:
        if entry.principal == principal:
            yield entry

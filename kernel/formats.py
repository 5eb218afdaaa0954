"""What each journal format means to the kernel. A journal's format is fixed when it is created (its
header, bound by the genesis hash), and every entry of it is decided and encoded under that format's
rules for the journal's whole life: a journal written by any release replays byte for byte under every
later one (``specs/journal-format.md`` §1.1)."""

from __future__ import annotations

from dataclasses import dataclass

from arvis.access import AccessRules
from kernel.result_pieces import PieceLayout, PiecePath


class UnknownFormat(ValueError):
    """A format version this release does not know."""


@dataclass(frozen=True)
class FormatRules:
    version: int
    access: AccessRules
    """The access rules its calls are decided under (``arvis.access``); a call's arguments decode with
    the type its table row had in this format (``SyscallSpec.request_type_in``)."""
    pieces: PieceLayout | None
    """What its reads journal by reference into the content-addressed blob store
    (``kernel.result_pieces``); None: every result inline."""


PIECES_FORMAT_3 = PieceLayout(
    min_bytes=1024,
    paths={
        "memory.list": (("entries",),),
        "memory.snapshot": (("snapshot", "active_entries"), ("projection", "constraints")),
    },
)
"""Format 3's reads by reference (``specs/journal-format.md`` §15). Part of the format: never edited."""

_RULES = {
    1: FormatRules(1, AccessRules.FIRST, pieces=None),
    2: FormatRules(2, AccessRules.OWNED, pieces=None),
    3: FormatRules(3, AccessRules.OWNED, pieces=PIECES_FORMAT_3),
    4: FormatRules(4, AccessRules.TYPED, pieces=PIECES_FORMAT_3),
    5: FormatRules(5, AccessRules.THREAD_IDS, pieces=PIECES_FORMAT_3),
    6: FormatRules(6, AccessRules.THREAD_IDS, pieces=PIECES_FORMAT_3),
    7: FormatRules(7, AccessRules.NAMES, pieces=PIECES_FORMAT_3),
    8: FormatRules(8, AccessRules.NAMES, pieces=PIECES_FORMAT_3),
}
VALUES_ONCE = 8
"""From this format a graph value is journaled once: a checkpoint call carries its bytes alone, their hash
no longer beside them (``syscalls.graph_args.Value``), a new value's version may be left to the put's
``channel_versions``, and a put's result no longer repeats its arguments."""


def rules_of(format_version: int) -> FormatRules:
    rules = _RULES.get(format_version)
    if rules is None:
        raise UnknownFormat(f"unknown journal format version {format_version}")
    return rules


def piece_paths(syscall: str) -> tuple[PiecePath, ...]:
    """The paths at which a result of ``syscall`` may hold a reference, in any format: for readers that
    do not know a journal's format. Safe across formats: a path names an array in every format, so only a
    format that journals it by reference can hold an object there."""
    found: list[PiecePath] = []
    for rules in _RULES.values():
        if rules.pieces is not None:
            found.extend(path for path in rules.pieces.paths.get(syscall, ()) if path not in found)
    return tuple(found)

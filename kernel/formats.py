"""What each journal format means to the kernel. A journal's format is fixed when it is created (its
header, bound by the genesis hash), and every entry of it is decided and encoded under that format's
rules for the journal's whole life: a journal written by any release replays byte for byte under every
later one (``specs/journal-format.md`` §1.1)."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.access import AccessRules

__all__ = ["FormatRules", "UnknownFormat", "rules_of"]


class UnknownFormat(ValueError):
    """A format version this release does not know."""


@dataclass(frozen=True)
class FormatRules:
    version: int
    access: AccessRules
    """The access rules its calls are decided under (``kernel.access``)."""
    results_by_reference: bool
    """Whether a read's bulky parts (the ``result_pieces`` of its syscall) are journaled by reference
    into the content-addressed blob store rather than inline (``kernel.result_pieces``)."""


_RULES = {
    1: FormatRules(1, AccessRules.FIRST, results_by_reference=False),
    2: FormatRules(2, AccessRules.OWNED, results_by_reference=False),
    3: FormatRules(3, AccessRules.OWNED, results_by_reference=True),
}


def rules_of(format_version: int) -> FormatRules:
    rules = _RULES.get(format_version)
    if rules is None:
        raise UnknownFormat(f"unknown journal format version {format_version}")
    return rules

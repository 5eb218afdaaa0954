"""``--since``/``--until`` values: ISO 8601 timestamps or ages such as ``90s``, ``15m``, ``2h``, ``3d``."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from arvis.canonical import CanonicalEncodingError, format_time, parse_time
from tools.common import CommandError

__all__ = ["parse_moment"]

_AGE = re.compile(r"(\d+)([smhdw])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_moment(text: str, *, now: datetime | None = None) -> str:
    """The fixed-form time for ``text``; an age is counted back from ``now`` (the wall clock here)."""
    match = _AGE.fullmatch(text.strip())
    if match:
        reference = now or datetime.now(UTC)
        delta = timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
        return format_time(reference - delta)
    candidate = text.strip()
    if len(candidate) == 10:  # a bare date means its midnight, UTC
        candidate += "T00:00:00+00:00"
    try:
        moment = parse_time(candidate)
    except CanonicalEncodingError:
        try:
            moment = datetime.fromisoformat(candidate).replace(tzinfo=UTC)
        except ValueError:
            raise CommandError(
                f"cannot read the time {text!r}", hint="use ISO 8601 (2026-11-29T10:00Z) or an age like 2h"
            ) from None
    return format_time(moment)

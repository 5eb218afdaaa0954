"""``--since``/``--until`` values: ISO 8601 timestamps, ages such as ``90s``, ``15m``, ``2h``, ``3d``
(``2h ago`` also), or the words ``now``, ``today``, ``yesterday`` and ``tomorrow`` (midnights in UTC,
like journalctl)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from arvis.canonical import CanonicalEncodingError, format_time, parse_time
from tools.common import CommandError

_AGE = re.compile(r"(\d+)\s*([smhdw])(?:\s+ago)?")
_DAYS = {"today": 0, "yesterday": -1, "tomorrow": 1}
_HINT = "use ISO 8601 (2026-11-29T10:00Z), an age like 2h, or now/today/yesterday/tomorrow"
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_moment(text: str, *, now: datetime | None = None) -> str:
    """The fixed-form time for ``text``; an age is counted back from ``now`` (the wall clock here)."""
    word = text.strip().lower()
    reference = now or datetime.now(UTC)
    if word == "now":
        return format_time(reference)
    if word in _DAYS:
        midnight = reference.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        return format_time(midnight + timedelta(days=_DAYS[word]))
    match = _AGE.fullmatch(word)
    if match:
        try:
            return format_time(reference - timedelta(**{_UNITS[match.group(2)]: int(match.group(1))}))
        except OverflowError:
            raise CommandError(f"the age {text!r} reaches before year 1", hint=_HINT) from None
    candidate = text.strip()
    if len(candidate) == 10:  # a bare date means its midnight, UTC
        candidate += "T00:00:00+00:00"
    try:
        moment = parse_time(candidate)
    except CanonicalEncodingError:
        try:
            moment = datetime.fromisoformat(candidate).replace(tzinfo=UTC)
        except ValueError:
            raise CommandError(f"cannot read the time {text!r}", hint=_HINT) from None
    return format_time(moment)

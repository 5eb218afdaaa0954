"""The wall clock, for upstream-style direct callers only.

Upstream arvis reads the clock inside ``MemoryLongPolicyGate.validate_append``; the kernel here never lets
a rule do that: it passes the call's journaled time (``recorded_at``) to every rule, so a replay decides
exactly as the recorded call did. A rule that keeps upstream's signature takes ``now: datetime | None =
None`` and calls ``utcnow()`` only when ``now`` is None, that is only when called directly without a time.
Callers look it up on this module at call time (``wall_clock.utcnow()``), so a test can replace it.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["utcnow"]


def utcnow() -> datetime:
    """The current time in UTC (upstream's ``arvis.types.timestamps.utcnow``)."""
    return datetime.now(UTC)

"""Injected clocks. The dispatcher reads its clock once per call; nothing else reads time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock"]


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware UTC datetime."""
        ...


class SystemClock:
    """The wall clock, the production default."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock driven by the caller: tests, demos and replay set or advance it explicitly."""

    def __init__(self, start: datetime, *, step: timedelta = timedelta(0)) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = start.astimezone(UTC)
        self._step = step

    def now(self) -> datetime:
        current = self._now
        self._now = current + self._step
        return current

    def set(self, moment: datetime) -> None:
        if moment.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = moment.astimezone(UTC)

    def advance(self, delta: timedelta) -> None:
        self._now += delta

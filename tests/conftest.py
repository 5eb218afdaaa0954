"""Shared fixtures and the one Hypothesis settings profile registration of the suite.

Profiles: ``default`` for local runs and ``ci`` (derandomized, so a CI failure reproduces from its log).
Choose with ``HYPOTHESIS_PROFILE``; ``CI`` set in the environment selects ``ci``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from strategies import T0

from kernel.boot import open_kernel
from kernel.clock import ManualClock
from kernel.dispatcher import Kernel

settings.register_profile(
    "default",
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=50,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


# --------------------------------------------------------------------------------------------------
# fixtures


@pytest.fixture
def clock() -> ManualClock:
    """A clock that starts at T0 and moves one second per read."""
    return ManualClock(T0, step=timedelta(seconds=1))


@pytest.fixture
def kernel_factory() -> Iterator[Callable[..., Kernel]]:
    """Opens kernels (default: in-memory, a one-second-step clock); closes all of them afterwards."""
    opened: list[Kernel] = []

    def factory(target: str = ":memory:", **kwargs: Any) -> Kernel:
        kwargs.setdefault("clock", ManualClock(T0, step=timedelta(seconds=1)))
        kernel = open_kernel(target, **kwargs)
        opened.append(kernel)
        return kernel

    yield factory
    for kernel in opened:
        kernel.store.close()


@pytest.fixture
def kernel(kernel_factory: Callable[..., Kernel], clock: ManualClock) -> Kernel:
    """An in-memory kernel driven by the ``clock`` fixture."""
    return kernel_factory(clock=clock)

"""Shared fixtures and the one Hypothesis settings profile registration of the suite.

Profiles: ``default`` for local runs, ``ci`` (derandomized, so a CI failure reproduces from its log) and
``deep`` (random seeds, many more examples: ``make test-deep``).
Choose with ``HYPOTHESIS_PROFILE``; ``CI`` set in the environment selects ``ci``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pg_cluster
import pytest
from hypothesis import HealthCheck, settings
from strategies import T0, VOUCHED

from journal.store import ManualClock
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

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
settings.register_profile(  # make test-deep: random seeds, twenty times the examples
    "deep",
    deadline=None,
    max_examples=500,
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
        kwargs.setdefault("identity", VOUCHED)
        kernel = open_kernel(target, **kwargs, create=True)
        opened.append(kernel)
        return kernel

    yield factory
    for kernel in opened:
        kernel.store.close()


@pytest.fixture
def kernel(kernel_factory: Callable[..., Kernel], clock: ManualClock) -> Kernel:
    """An in-memory kernel driven by the ``clock`` fixture."""
    return kernel_factory(clock=clock)


# --------------------------------------------------------------------------------------------------
# PostgreSQL: a server for the session, a fresh database per test (see tests/pg_cluster.py)

_PG_FIXTURES = frozenset({"pg_server", "pg_url", "pg_bare_url"})
_skipped_pg_tests: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{pg_cluster.PG_MARK}: the test needs a PostgreSQL server")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _PG_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pg_cluster.PG_MARK)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    xfailed = hasattr(report, "wasxfail")  # an expected failure is reported as skipped
    if report.skipped and not xfailed and pg_cluster.PG_MARK in report.keywords:
        _skipped_pg_tests.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _skipped_pg_tests:
        return
    verdict = "FAILING the run (ARVIS_REQUIRE_PG=1)" if pg_cluster.REQUIRED else "not run"
    terminalreporter.section("PostgreSQL tests skipped", sep="!", red=True, bold=True)
    terminalreporter.write_line(f"{len(_skipped_pg_tests)} PostgreSQL tests were skipped: {verdict}")
    if not pg_cluster.binaries_present() and not os.environ.get("ARVIS_TEST_PG_URL"):
        terminalreporter.write_line(pg_cluster.missing_reason())


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _skipped_pg_tests and pg_cluster.REQUIRED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg_cluster.Cluster]:
    """The PostgreSQL server of the session (tests that need their own databases use
    ``pg_cluster.fresh_database`` on it): ``$ARVIS_TEST_PG_URL``, or a throwaway cluster started
    here by scripts/pg-up and stopped by scripts/pg-down at the end. Skips (loudly) only when neither
    a URL nor server binaries exist, and fails instead under ``ARVIS_REQUIRE_PG=1``."""
    external = os.environ.get("ARVIS_TEST_PG_URL")
    if external:
        cluster = pg_cluster.Cluster(external, None)
    elif not pg_cluster.binaries_present():
        if pg_cluster.REQUIRED:
            pytest.fail(pg_cluster.missing_reason().replace("SKIPPED", "REQUIRED"), pytrace=False)
        pytest.skip(pg_cluster.missing_reason())
    else:
        try:
            cluster = pg_cluster.Cluster.start()
        except RuntimeError as exc:  # binaries exist: a cluster that does not start is a failure
            pytest.fail(str(exc), pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_server: pg_cluster.Cluster) -> Iterator[str]:
    """A ``postgresql+psycopg://`` URL of a new database, its schema at head but no journal in it yet
    (a copy of the session's migrated template), dropped after the test."""
    with pg_cluster.fresh_database(pg_server) as url:
        yield url


@pytest.fixture
def pg_bare_url(pg_server: pg_cluster.Cluster) -> Iterator[str]:
    """Like ``pg_url``, but a database with nothing in it, not even the schema (migration tests)."""
    with pg_cluster.fresh_database(pg_server, migrated=False) as url:
        yield url

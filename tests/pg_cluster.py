"""The PostgreSQL of the test suite: a server, and a fresh database per test.

The server is the one ``$ARVIS_TEST_PG_URL`` names, or else a throwaway PostgreSQL 15 cluster that
``scripts/pg-up`` starts for the session (on a unix socket in a temporary directory, as an
unprivileged user) and ``scripts/pg-down`` stops and deletes at the end. Without server binaries the
PostgreSQL tests are skipped, loudly; with ``ARVIS_REQUIRE_PG=1`` (``.ci/run`` sets it where the
binaries exist) they fail instead, and so does the session if any PostgreSQL test was skipped.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from journal.engine import open_engine, to_url
from journal.migrate import upgrade_to_head

__all__ = [
    "PG_BIN",
    "PG_MARK",
    "REQUIRED",
    "Cluster",
    "binaries_present",
    "fresh_database",
    "missing_reason",
]

REPO = Path(__file__).resolve().parent.parent
PG_BIN = Path(os.environ.get("ARVIS_PG_BIN", "/usr/lib/postgresql/15/bin"))
PG_MARK = "postgres"
"""The marker every test that needs PostgreSQL carries (given by conftest from its fixtures)."""
REQUIRED = os.environ.get("ARVIS_REQUIRE_PG", "") == "1"
"""Skipping a PostgreSQL test is an error (``.ci/run`` sets this where the binaries exist)."""

# a throwaway cluster: nothing in it has to survive a crash of the machine
_FAST = "-c fsync=off -c full_page_writes=off -c synchronous_commit=off"


def binaries_present() -> bool:
    return all((PG_BIN / name).is_file() for name in ("initdb", "pg_ctl", "postgres", "psql"))


def missing_reason() -> str:
    return (
        f"PostgreSQL tests SKIPPED: no PostgreSQL server binaries in {PG_BIN} and ARVIS_TEST_PG_URL is "
        "not set (install postgresql-15, set ARVIS_PG_BIN, or point ARVIS_TEST_PG_URL at a server)"
    )


class Cluster:
    """The server for the session: the URL of a maintenance database on it (``postgres``) and, when
    the session started it, the directory scripts/pg-down removes."""

    def __init__(self, url: str, directory: Path | None) -> None:
        self.url = to_url(url)
        self.directory = directory
        self._template: str | None = None
        self.admin: Engine = create_engine(
            make_url(self.url).set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool
        )

    @classmethod
    def start(cls) -> Cluster:
        """A new cluster in a new temporary directory; raises RuntimeError with the script's output."""
        directory = Path(tempfile.mkdtemp(prefix="arvis-pg-", dir="/tmp"))
        done = subprocess.run(
            [str(REPO / "scripts" / "pg-up"), str(directory)],
            env={**os.environ, "ARVIS_PG_BIN": str(PG_BIN), "ARVIS_PG_OPTS": _FAST},
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            _down(directory)
            raise RuntimeError(f"scripts/pg-up failed ({done.returncode}): {done.stderr.strip()}")
        return cls(done.stdout.strip().splitlines()[-1], directory)

    def template(self) -> str:
        """A database migrated to head once per session, the template of every migrated test database
        (copying it is much cheaper than running the migrations for each test)."""
        if self._template is None:
            name = f"arvis_template_{uuid.uuid4().hex[:16]}"
            with self.admin.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
            engine = open_engine(self.database_url(name))
            try:
                upgrade_to_head(engine)
            finally:
                engine.dispose()
            self._template = name
        return self._template

    def database_url(self, name: str) -> str:
        return make_url(self.url).set(database=name).render_as_string(hide_password=False)

    def stop(self) -> None:
        if self._template is not None:
            with self.admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{self._template}" WITH (FORCE)'))
        self.admin.dispose()
        if self.directory is not None:
            _down(self.directory)


def _down(directory: Path) -> None:
    subprocess.run(
        [str(REPO / "scripts" / "pg-down"), str(directory)],
        env={**os.environ, "ARVIS_PG_BIN": str(PG_BIN)},
        capture_output=True,
        check=False,
    )


@contextmanager
def fresh_database(cluster: Cluster, *, migrated: bool = True) -> Iterator[str]:
    """The URL of a new database holding no journal: its schema at the head migration, or nothing at
    all (``migrated=False``, for tests of the migrations themselves). Dropped afterwards, its sessions
    closed by force."""
    name = f"arvis_test_{uuid.uuid4().hex[:16]}"
    template = f' TEMPLATE "{cluster.template()}"' if migrated else ""
    with cluster.admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{template}'))
    try:
        yield cluster.database_url(name)
    finally:
        with cluster.admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

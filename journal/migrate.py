"""Bring a database to the head of the Alembic migrations."""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import StaticPool

__all__ = ["current_revision", "head_revision", "upgrade_to_head"]

_SCRIPTS = Path(__file__).with_name("migrations")


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


@cache
def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    if head is None:
        raise RuntimeError("the migration scripts have no head")
    return str(head)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        revision = MigrationContext.configure(connection).get_current_revision()
    return None if revision is None else str(revision)


_MIGRATION_LOCK = 0x61727669_73  # PostgreSQL advisory lock key of migrations ("arvis")


def upgrade_to_head(engine: Engine, *, target: str | None = None) -> tuple[str | None, str]:
    """Upgrade to ``target`` (default: head) if needed; returns (revision before, revision after).

    Processes opening one new database at once migrate it once: the upgrade runs under a lock
    (SQLite's write lock taken at BEGIN IMMEDIATE, a transaction-scoped advisory lock on PostgreSQL)
    and the revision is read again under it."""
    before = current_revision(engine)
    goal = target or head_revision()
    if before is None and goal == head_revision() and _is_sqlite_memory(engine):
        _copy_migrated_template(engine)
        return before, goal
    if before != goal:
        config = _config()
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            locked = MigrationContext.configure(connection).get_current_revision()
            before = None if locked is None else str(locked)
            if before != goal:
                config.attributes["connection"] = connection
                command.upgrade(config, goal)
    return before, goal


def _is_sqlite_memory(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")


@cache
def _migrated_template() -> sqlite3.Connection:
    """An in-memory database brought to head by the migrations, once per process."""
    template = create_engine("sqlite://", poolclass=StaticPool)
    with template.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, head_revision())
    copy = sqlite3.connect(":memory:", check_same_thread=False)
    with template.connect() as connection:
        driver = connection.connection.dbapi_connection
        assert isinstance(driver, sqlite3.Connection)
        driver.backup(copy)
    template.dispose()
    return copy


def _copy_migrated_template(engine: Engine) -> None:
    """A new in-memory database (a scratch store: replay, time travel, tests) gets the schema by copying
    a template the migrations built once, instead of running them again (most of opening it)."""
    with engine.connect() as connection:
        driver = connection.connection.dbapi_connection
        assert isinstance(driver, sqlite3.Connection)
        _migrated_template().backup(driver)

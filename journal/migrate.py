"""Bring a database to the head of the Alembic migrations."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

__all__ = ["current_revision", "head_revision", "upgrade_to_head"]

_SCRIPTS = Path(__file__).with_name("migrations")


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    if head is None:
        raise RuntimeError("the migration scripts have no head")
    return str(head)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        revision = MigrationContext.configure(connection).get_current_revision()
    return None if revision is None else str(revision)


def upgrade_to_head(engine: Engine, *, target: str | None = None) -> tuple[str | None, str]:
    """Upgrade to ``target`` (default: head) if needed; returns (revision before, revision after)."""
    before = current_revision(engine)
    goal = target or head_revision()
    if before != goal:
        config = _config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, goal)
    return before, goal

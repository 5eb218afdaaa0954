"""Bring a database to the head of the Alembic migrations.

Alembic (and Mako, which it loads) is imported only when a database is actually behind: deciding that
is a read of the ``alembic_version`` table compared with ``HEAD_REVISION``, so opening an up-to-date
journal (every ``arvis call``) costs one small query, not the migration machinery's import.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, create_engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from journal import statements
from journal.engine import reading
from journal.errors import StorageError
from journal.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

_SCRIPTS = Path(__file__).with_name("migrations")

HEAD_REVISION = "0021"
"""The revision of the newest script in migrations/versions; a test checks it equals what Alembic
computes (``head_revision``), so a new migration cannot be added without moving it."""

_VERSION_TABLE = "alembic_version"
"""Where Alembic keeps the database's revision (its default table: env.py does not rename it)."""


def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


@cache
def head_revision() -> str:
    """The head as Alembic computes it from the scripts (imports Alembic; ``HEAD_REVISION`` does not)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    if head is None:
        raise RuntimeError("the migration scripts have no head")
    return str(head)


def stored_revision(connection: Connection, tables: Collection[str] | None = None) -> str | None:
    """The revision stamped in the database, read directly, or None when it was never migrated. The
    history is linear, so the table holds at most one row; several mean a branched stamp, which no
    release wrote (``StorageError``). ``tables``: the database's table names, when the caller has
    them already (None: looked up)."""
    stamped = inspect(connection).has_table(_VERSION_TABLE) if tables is None else _VERSION_TABLE in tables
    if not stamped:
        return None
    rows = connection.execute(text(statements.REVISION)).all()
    if len(rows) > 1:
        raise StorageError(f"the database is stamped with several revisions: {sorted(r[0] for r in rows)}")
    return None if not rows else str(rows[0][0])


@cache
def _known_revisions() -> frozenset[str]:
    from alembic.script import ScriptDirectory

    return frozenset(
        str(script.revision) for script in ScriptDirectory.from_config(_config()).walk_revisions()
    )


_NEWER_REVISION = re.compile(r"([0-9]{4})(?:_[A-Za-z0-9_]{1,64})?")
"""What a later release's stamp looks like: arvis numbers its revisions (``0012``, perhaps with a
``_name``); a stamp of any other shape was written by something else, or by hand."""


def _checked(revision: str | None) -> str | None:
    """A stamped revision, refused when this release does not know it: one numbered past the head was
    migrated by a newer arvis, whose schema this code would misread (and which Alembic cannot upgrade
    from); any other unknown stamp is not an arvis revision at all (a corrupt ``alembic_version``, or
    another application's database), and is named as such rather than sending the operator to upgrade."""
    if revision is None or revision == HEAD_REVISION or revision in _known_revisions():
        return revision
    newer = _NEWER_REVISION.fullmatch(revision)
    if newer is not None and int(newer.group(1)) > int(HEAD_REVISION):
        raise StorageError(
            f"this database was written by a newer arvis (schema revision {revision}); "
            "upgrade arvis to use it"
        )
    shown_stamp = repr(revision[:64]) + (f"… ({len(revision)} characters)" if len(revision) > 64 else "")
    raise StorageError(
        f"this database is not an arvis journal, or its alembic_version is corrupt: the schema revision "
        f"{shown_stamp} is none that arvis writes (known: 0001 to {HEAD_REVISION})"
    )


def refuse_unknown_revision(connection: Connection, tables: Collection[str] | None = None) -> None:
    """Raise ``StorageError`` when the database's schema revision is one this release does not know
    (readers call it before reading: they never migrate, but must not misread a newer layout).
    ``tables``: as ``stored_revision`` takes them."""
    _checked(stored_revision(connection, tables))


_DROPPED = ("state_checkpoints", "state_checkpoint_dirty", "journal_effects", "journal_effects_from")
_ARVIS_TABLES = frozenset({*metadata.tables, _VERSION_TABLE, *_DROPPED})
"""Every table an arvis journal's database holds: the schema's, Alembic's stamp, and those an older
revision had that a later one drops (0011 to 0013's, dropped by 0014; 0014 to 0019's, dropped by 0020),
so that a journal of those releases is migrated, not refused as another application's."""


def foreign_tables(connection: Connection) -> list[str]:
    """The tables of the database that are not an arvis journal's, sorted."""
    return sorted(set(inspect(connection).get_table_names()) - _ARVIS_TABLES)


def _refuse_foreign(connection: Connection, named: str) -> None:
    """Refuse a database that holds tables of its own (an application's, say): migrating it would add
    the journal's tables beside them and exit 0, leaving the operator a mixed file he never asked for."""
    found = foreign_tables(connection)
    if found:
        shown_names = ", ".join(found[:10]) + (f", … ({len(found)} in all)" if len(found) > 10 else "")
        raise StorageError(f"{named} holds tables that are not an arvis journal's: {shown_names}")


def check_writable(target: str) -> None:
    """Refuse, before any writer connects, an existing SQLite file that a writer must not touch: one
    stamped with a schema revision this release does not know (a newer arvis migrated it), or one
    holding tables that are not an arvis journal's. A writer's first connection already writes (it
    switches the file to WAL, ``journal.engine``), so the check reads the file through a read-only
    engine. A file that does not exist yet, an empty one, an in-memory database and a server (whose
    writer's connection writes nothing; ``upgrade_to_head`` checks there) pass."""
    from journal.engine import one_line, open_engine, shown, sqlite_file

    path = sqlite_file(target)
    if path is None or not Path(path).is_file():
        return
    engine = open_engine(target, read_only=True)
    try:
        with engine.connect() as connection:
            refuse_unknown_revision(connection)
            _refuse_foreign(connection, shown(target))
    except SQLAlchemyError as exc:
        raise StorageError(f"cannot open {shown(target)}: {one_line(exc)}") from exc
    finally:
        engine.dispose()


def current_revision(engine: Engine) -> str | None:
    """The stored revision, read without the write lock."""
    with reading(engine.connect()) as connection:
        return stored_revision(connection)


_MIGRATION_LOCK = 0x61727669_73  # PostgreSQL advisory lock key of migrations ("arvis")


def upgrade_to_head(engine: Engine, *, target: str | None = None) -> tuple[str | None, str]:
    """Upgrade to ``target`` (default: head) if needed; returns (revision before, revision after).

    Processes opening one new database at once migrate it once: the upgrade runs under a lock
    (SQLite's write lock taken at BEGIN IMMEDIATE, a transaction-scoped advisory lock on PostgreSQL)
    and the revision is read again under it."""
    before = current_revision(engine)
    goal = target or HEAD_REVISION
    if before == goal:  # the common case: nothing to do, and Alembic is never imported
        return before, goal
    _checked(before)
    in_memory = engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
    if before is None and goal == HEAD_REVISION and in_memory:
        # a new in-memory database (a scratch store: replay, time travel, tests) gets the schema by copying
        # a template the migrations built once, instead of running them again (most of opening it)
        with engine.connect() as connection:
            driver = connection.connection.dbapi_connection
            assert isinstance(driver, sqlite3.Connection)
            _migrated_template().backup(driver)
        return before, goal
    config = _config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text(statements.MIGRATION_LOCK), {"key": _MIGRATION_LOCK})
        before = _checked(stored_revision(connection))
        if before is None:  # never migrated: it must hold no one else's tables
            _refuse_foreign(connection, "the database")
        if before != goal:
            from alembic import command
            from alembic.util.exc import CommandError

            config.attributes["connection"] = connection
            try:  # Alembic's own errors (not the driver's) become one clear StorageError
                command.upgrade(config, goal)
            except CommandError as exc:
                raise StorageError(f"the schema migration failed: {exc}") from exc
    return before, goal


@cache
def _migrated_template() -> sqlite3.Connection:
    """An in-memory database brought to head by the migrations, once per process."""
    from alembic import command

    template = create_engine("sqlite://", poolclass=StaticPool)
    with template.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, HEAD_REVISION)
    copy = sqlite3.connect(":memory:", check_same_thread=False)
    with template.connect() as connection:
        driver = connection.connection.dbapi_connection
        assert isinstance(driver, sqlite3.Connection)
        driver.backup(copy)
    template.dispose()
    return copy

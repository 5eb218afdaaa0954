"""Engines from a path or URL, with the SQLite settings the journal relies on.

A target is a URL only when it starts with a scheme (``postgresql://``, ``sqlite:///``); anything else
is a file path, taken literally: ``%41``, ``?``, ``#``, spaces and any other character name themselves,
never URL syntax. Only SQLite and PostgreSQL are supported; any other URL is refused before anything
connects (``UnsupportedDatabase``).

SQLite: WAL, ``synchronous`` NORMAL (default) or FULL, a busy timeout, and ``BEGIN IMMEDIATE`` for
every transaction so that the write lock is taken before the head of the journal is read (a
read-only engine's transactions are deferred: they read a snapshot and take no write lock). A read-only
engine opens the file with ``mode=rw`` or ``mode=ro`` (see ``_readable``), never ``rwc``: reading never
creates a database.

PostgreSQL (``postgresql+psycopg://``; a plain ``postgresql://`` URL is given the psycopg driver): the
busy timeout becomes ``lock_timeout`` (the journal lock is taken in each write transaction, see
``SqlJournalStore``); FULL sets ``synchronous_commit = on`` whatever the server's default, NORMAL keeps
the server's setting, OFF turns it off; a reader's sessions are read-only.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import StaticPool

from journal import statements
from journal.errors import StorageError
from journal.rows import fetch_all as fetch_all
from journal.rows import one_line as one_line
from journal.rows import valid_text as valid_text

DEFAULT_BUSY_TIMEOUT_MS = 10_000

OPENING_WAIT_MS = 5_000
"""How long switching a new SQLite file to WAL waits out another process's lock at least, whatever the
busy timeout: a reader may hold the new file while it is still in rollback mode, and the busy timeout
is what a call may wait, not what opening may (``_use_wal``)."""

_READING_OPTION = "arvis_reading"


def reading(connection: Connection) -> Connection:
    """``connection`` with its transactions begun deferred (SQLite: plain ``BEGIN``): it reads a snapshot
    without the write lock, so opening a store never waits for, or is refused by, the writers of a live
    journal. Only for a connection that reads through SQLAlchemy (a store's own connection, whose writes
    begin ``BEGIN IMMEDIATE`` on the driver, ``SqlRunner.begin``)."""
    return connection.execution_options(**{_READING_OPTION: True})


SUPPORTED_FORMS = "a file path, sqlite:///PATH, or postgresql://USER@HOST[:PORT]/DATABASE"


class Durability(StrEnum):
    """SQLite ``synchronous`` level: NORMAL may lose the last commits on power loss, never corrupt;
    FULL syncs the WAL on every commit."""

    NORMAL = "NORMAL"
    FULL = "FULL"
    OFF = "OFF"  # scratch stores only (replay on a throwaway file): no durability at all


class UnsupportedDatabase(StorageError):
    """A target that names no database arvis can use (another backend, a malformed URL): refused
    before connecting, so that the message says what is accepted instead of a driver's complaint.
    ``reason`` is the message without the list of accepted forms (a command prints that as its hint)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason}; arvis takes {SUPPORTED_FORMS}")
        self.reason = reason


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_PASSWORD = re.compile(r"(://[^/@:]*:)[^/@]*@")
_SQLITE_DRIVERS = frozenset({"sqlite", "sqlite+pysqlite"})
_POSTGRES_DRIVERS = frozenset({"postgresql", "postgres", "postgresql+psycopg"})


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text)) and float(text) >= 0
    except ValueError:
        return False


_DRIVER_OPTIONS: dict[str, tuple[Callable[[str], bool], str]] = {
    "timeout": (_is_number, "seconds, a number of 0 or more"),
    "detect_types": (str.isdigit, "a whole number"),
    "cached_statements": (str.isdigit, "a whole number"),
    "check_same_thread": (lambda text: text.lower() in ("true", "false", "1", "0"), "true or false"),
    "isolation_level": (
        lambda text: text.upper() in ("", "DEFERRED", "IMMEDIATE", "EXCLUSIVE"),
        "DEFERRED, IMMEDIATE or EXCLUSIVE",
    ),
}
"""Query keys of a ``sqlite://`` URL that go to Python's driver (every other key is a SQLite URI
parameter), with what the driver accepts for each and its form in words: a bad value is a usage error
before connecting, not the driver's ``ValueError`` at the first query."""


def is_url(target: str) -> bool:
    """Whether ``target`` is a URL: it starts with ``scheme://`` (a letter, then letters, digits, ``+``,
    ``-`` or ``.``). Only then is it parsed as one; a file path is never decoded."""
    return _SCHEME.match(target) is not None


def shown(target: str) -> str:
    """A target as printed in messages: a path as given (bytes that are not UTF-8 escaped, ``\\xff``),
    a URL without its password."""
    if not is_url(target):
        return target.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    try:
        return make_url(target).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return _PASSWORD.sub(r"\1***@", target)


def _refused(target: str, why: str) -> UnsupportedDatabase:
    named = f"{shown(target)}: " if target else ""
    return UnsupportedDatabase(f"{named}{why}")


_DIRECTORY = "a path that ends with a separator names a directory, not a journal file"


def _names_directory(path: str) -> bool:
    """Whether ``path`` ends with a separator (``d/``): it names a directory, whatever is there now.
    ``os.path.abspath`` drops the separator, which would open (or create) the file ``d`` instead."""
    return path.endswith(("/", os.sep))


def to_url(target: str) -> URL:
    """The SQLAlchemy URL of a target: a file path (taken literally, made absolute; ``:memory:`` means an
    in-memory SQLite) or a SQLite or PostgreSQL URL. A PostgreSQL URL without a driver gets psycopg, the
    driver the project ships with. Raises ``UnsupportedDatabase`` for anything else."""
    if target == ":memory:":
        return URL.create("sqlite")
    if not target:
        raise _refused(target, "no database given")
    if not is_url(target):
        if "://" in target:
            raise _refused(target, "not a URL (no scheme before ://)")
        if _names_directory(target):
            raise _refused(target, _DIRECTORY)
        return URL.create("sqlite", database=os.path.abspath(target))
    try:
        url = make_url(target)
    except (ArgumentError, ValueError) as exc:  # SQLAlchemy's only ValueError is a port's ``int()``
        why = "its port is not a number" if isinstance(exc, ValueError) and "int()" in str(exc) else exc
        raise _refused(target, f"not a valid database URL ({why})") from None
    if url.drivername in _POSTGRES_DRIVERS:
        return url.set(drivername="postgresql+psycopg")
    if url.drivername not in _SQLITE_DRIVERS:
        raise _refused(target, f"{url.drivername} is not supported")
    if url.host or url.username or url.password or url.port:
        raise _refused(target, "a SQLite URL names a file after three slashes (sqlite:///PATH)")
    if _names_directory(url.database or ""):
        raise _refused(target, _DIRECTORY)
    return url


def _sqlite_uri_path(database: str) -> tuple[str, dict[str, str]]:
    """The file and parameters of a SQLite URI given as a URL's database (``file:PATH?mode=ro``)."""
    rest, _, query = database.removeprefix("file:").partition("?")
    rest = rest.partition("#")[0]
    if rest.startswith("//"):  # file://HOST/PATH: SQLite accepts only an empty host or localhost
        rest = "/" + rest[2:].partition("/")[2]
    return unquote(rest), dict(parse_qsl(query, keep_blank_values=True))


def _sqlite_target(url: URL) -> tuple[str, dict[str, str], dict[str, str]] | None:
    """(the file's absolute path, its SQLite URI parameters, the driver's options) of a SQLite URL; None
    for an in-memory database."""
    query = {key: value if isinstance(value, str) else value[-1] for key, value in url.query.items()}
    driver = {key: value for key, value in query.items() if key in _DRIVER_OPTIONS}
    for key, value in driver.items():
        valid, form = _DRIVER_OPTIONS[key]
        if not valid(value):
            raise UnsupportedDatabase(f"sqlite option {key}={value!r} is not valid ({form})")
    parameters = {key: value for key, value in query.items() if key not in _DRIVER_OPTIONS and key != "uri"}
    database = url.database or ""
    if database.startswith("file:") and query.get("uri", "").lower() in ("true", "1"):
        database, own = _sqlite_uri_path(database)
        parameters = {**own, **parameters}
    if database in ("", ":memory:") or parameters.get("mode") == "memory":
        return None
    return os.path.abspath(database), parameters, driver


def sqlite_file(target: str) -> str | None:
    """The absolute path of the SQLite file a target names; None for an in-memory database or a
    server. Raises ``UnsupportedDatabase`` like ``to_url``."""
    url = to_url(target)
    if url.drivername not in _SQLITE_DRIVERS:
        return None
    found = _sqlite_target(url)
    return None if found is None else found[0]


def _use_wal(cursor: Any, busy_timeout_ms: int) -> None:
    """Put the database in WAL mode. SQLite answers "database is locked" at once, without its busy
    handler, while another process opening (or reading) the same new file holds a lock the switch needs;
    that is waited out here, up to the busy timeout and at least ``OPENING_WAIT_MS``."""
    deadline = time.monotonic() + max(busy_timeout_ms, OPENING_WAIT_MS) / 1000
    pause = 0.005
    while True:
        try:
            if str(cursor.execute(statements.SQLITE_JOURNAL_MODE).fetchone()[0]).lower() != "wal":
                cursor.execute(statements.SQLITE_WAL)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def open_engine(
    target: str,
    *,
    durability: Durability = Durability.NORMAL,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    read_only: bool = False,
) -> Engine:
    """An engine on ``target`` (see ``to_url``). ``read_only``: never creates, migrates or writes the
    database; a SQLite file that does not exist is a ``StorageError``, not a new empty database."""
    url = to_url(target)
    if url.drivername not in _SQLITE_DRIVERS:
        return _postgres_engine(
            url, durability=durability, busy_timeout_ms=busy_timeout_ms, read_only=read_only
        )
    found = _sqlite_target(url)
    if found is None:
        memory = URL.create("sqlite")  # whatever the URL said besides (a mode=memory, say)
        engine = create_engine(memory, poolclass=StaticPool, connect_args={"check_same_thread": False})
        return _configured(engine, durability, busy_timeout_ms, wal=False, read_only=read_only)
    path, parameters, driver = found
    read_only = read_only or parameters.get("mode") == "ro" or parameters.get("immutable") == "1"
    if read_only:
        parameters = _readable(target, path, parameters)
    elif parameters.get("mode", "rwc") == "rwc":  # ?mode=rw asks SQLite not to create the file
        _create_private(path)
    engine = create_engine(_file_url(path, parameters, driver))
    return _configured(engine, durability, busy_timeout_ms, wal=not read_only, read_only=read_only)


def _create_private(path: str) -> None:
    """Create a new journal file readable and writable by its owner only (0600): a journal holds every
    user's memory. SQLite gives the ``-wal`` and ``-shm`` files the main file's permissions. An existing
    file keeps the permissions it has (its owner chose them); a path that cannot be created is left to
    SQLite, whose error names it."""
    with suppress(OSError):  # exists already (the usual case), or its directory is missing or not writable
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _file_uri(path: str) -> str:
    """``path`` as a SQLite ``file:`` URI, percent-quoted: a ``%``, ``?`` or ``#`` in the file's name stays
    part of it."""
    return "file:" + quote(os.fsencode(path), safe="/")


def _file_url(path: str, parameters: Mapping[str, str], driver: Mapping[str, str]) -> URL:
    """The URL SQLAlchemy opens ``path`` by. Without SQLite URI parameters it is the path itself (the
    driver opens it literally); with them, a ``file:`` URI whose path is percent-quoted, so that a
    ``%``, ``?`` or ``#`` in the file's name stays part of it."""
    if not parameters:
        return URL.create("sqlite", database=path, query=dict(driver))
    quoted = {key: quote(value, safe="") for key, value in parameters.items()}
    return URL.create(
        "sqlite",
        database=_file_uri(path),
        query={**driver, **quoted, "uri": "true"},
    )


def _readable(target: str, path: str, parameters: Mapping[str, str]) -> dict[str, str]:
    """The URI parameters a reader opens ``path`` with; with none of them does SQLite create the file.

    ``mode=rw`` where the reader may write the file and its directory: a journal whose writer was killed
    has a hot write-ahead log that only a read-write connection may recover (a ``mode=ro`` one answers
    "attempt to write a readonly database"), and the last connection to close folds the log back and
    removes ``-wal``/``-shm``, as any writer does; the reader itself writes no row (its transactions are
    plain ``BEGIN``s, and nothing here migrates). ``mode=ro`` where it may not, or where the caller asked
    for it (``?mode=ro``); in a directory the reader cannot write, also ``immutable=1`` (see
    ``_may_be_immutable``)."""
    if not os.path.lexists(path):
        raise StorageError(f"no journal at {shown(target)}")
    if os.path.isdir(path):
        raise StorageError(f"{shown(target)} is a directory, not a journal")
    writable = os.access(path, os.W_OK) and os.access(os.path.dirname(path) or ".", os.W_OK)
    asked = parameters.get("mode")  # ro or rw as asked; rwc (create) never, for a reader
    chosen = {**parameters, "mode": asked if asked in ("ro", "rw") else ("rw" if writable else "ro")}
    if chosen.get("immutable") == "1" or chosen["mode"] == "rw":
        return chosen
    try:
        _probe(path, chosen)
    except sqlite3.Error as exc:
        if not _directory_refused(exc, path):
            return chosen  # the reads that follow report it, as for any damaged file
        _may_be_immutable(target, path)
        return {**chosen, "immutable": "1"}
    return chosen


def _probe(path: str, parameters: Mapping[str, str]) -> None:
    """Read the schema once, as a reader would: in WAL mode that needs the ``-shm`` file."""
    uri = _file_uri(path) + "?"
    uri += "&".join(f"{key}={quote(value, safe='')}" for key, value in parameters.items())
    probe = sqlite3.connect(uri, uri=True)
    try:
        probe.execute(statements.SQLITE_SCHEMA_READ).fetchone()
    finally:
        probe.close()


def _directory_refused(exc: sqlite3.Error, path: str) -> bool:
    """Whether a read-only open failed because the file's directory cannot be written (SQLite could not
    create the ``-shm`` file a WAL database is read through)."""
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY":
        return True
    return isinstance(exc, sqlite3.OperationalError) and not os.access(os.path.dirname(path), os.W_OK)


def _may_be_immutable(target: str, path: str) -> None:
    """Refuse ``immutable=1`` unless it reads the journal whole. It is safe in a directory nobody can
    write: a WAL journal is written only by a process that can create its ``-wal`` and ``-shm`` files
    there, so nothing can change the file while it is read (the kernel always writes in WAL mode). But
    ``immutable`` reads the main file alone: commits still in a leftover ``-wal`` would be silently
    missing, so a non-empty one makes the read fail instead."""
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise StorageError(
            f"cannot read {shown(target)}: its write-ahead log {wal.name} holds commits that SQLite cannot "
            "read in a read-only directory; copy the journal with its -wal file to a writable directory"
        )


def _configured(
    engine: Engine, durability: Durability, busy_timeout_ms: int, *, wal: bool, read_only: bool
) -> Engine:
    """``engine`` with the journal's SQLite settings on every connection (see the module docstring)."""

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        # the busy timeout first: switching to WAL takes a lock, and another process opening the same
        # new file at the same moment (migrating it, say) must be waited for, not refused
        cursor.execute(statements.SET_SQLITE_BUSY_TIMEOUT.format(int(busy_timeout_ms)))
        if wal:
            _use_wal(cursor, busy_timeout_ms)
        cursor.execute(statements.SET_SQLITE_SYNCHRONOUS.format(Durability(durability).value))
        cursor.close()

    # a reader's transaction is a plain (deferred) BEGIN: in WAL mode it reads one snapshot and never
    # takes the write lock, so an auditor on a live journal neither blocks writers nor waits for them;
    # so is a writer's on a connection marked by ``reading`` (what a store reads when it opens)
    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        reading = read_only or connection.get_execution_options().get(_READING_OPTION, False)
        connection.exec_driver_sql(statements.BEGIN if reading else statements.BEGIN_IMMEDIATE)

    return engine


_SYNCHRONOUS_COMMIT = {Durability.FULL: "on", Durability.OFF: "off"}  # NORMAL: the server's own setting


def _postgres_engine(url: URL, *, durability: Durability, busy_timeout_ms: int, read_only: bool) -> Engine:
    settings = {"lock_timeout": f"{int(busy_timeout_ms)}ms"}
    synchronous_commit = _SYNCHRONOUS_COMMIT.get(Durability(durability))
    if synchronous_commit is not None:
        settings["synchronous_commit"] = synchronous_commit
    if read_only:
        settings["default_transaction_read_only"] = "on"
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for name, value in settings.items():
            cursor.execute(statements.SET_POSTGRES, (name, value))
        cursor.close()
        dbapi_connection.commit()

    return engine

"""Engines from a path or URL, with the SQLite settings the journal relies on.

SQLite: WAL, ``synchronous`` NORMAL (default) or FULL, a busy timeout, and ``BEGIN IMMEDIATE`` for
every transaction so that the write lock is taken before the head of the journal is read.
"""

from __future__ import annotations

import os
from enum import StrEnum
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

__all__ = ["DEFAULT_BUSY_TIMEOUT_MS", "Durability", "one_line", "open_engine", "to_url"]

DEFAULT_BUSY_TIMEOUT_MS = 10_000


class Durability(StrEnum):
    """SQLite ``synchronous`` level: NORMAL may lose the last commits on power loss, never corrupt;
    FULL syncs the WAL on every commit."""

    NORMAL = "NORMAL"
    FULL = "FULL"
    OFF = "OFF"  # scratch stores only (replay on a throwaway file): no durability at all


def to_url(target: str) -> str:
    """A SQLAlchemy URL from a URL or a file path (``:memory:`` means an in-memory SQLite)."""
    if "://" in target:
        return target
    if target == ":memory:":
        return "sqlite://"
    return f"sqlite:///{os.path.abspath(target)}"


def one_line(exc: BaseException) -> str:
    """A driver error in one line: the driver's own message, without SQLAlchemy's SQL dump."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _decode_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def open_engine(
    target: str,
    *,
    durability: Durability = Durability.NORMAL,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    read_only: bool = False,
) -> Engine:
    url = make_url(to_url(target))
    if url.get_backend_name() != "sqlite":
        return create_engine(url)
    in_memory = url.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {}
    if in_memory:
        kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        # text that is not UTF-8 (a hand-edited file) must reach the verifier, not crash the driver
        dbapi_connection.text_factory = _decode_text
        cursor = dbapi_connection.cursor()
        if not in_memory and not read_only:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={Durability(durability).value}")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine

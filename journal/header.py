"""The journal's header: its identity (id, format, genesis hash), written once when the journal is created
and checked each time a store opens it (``journal.store``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Connection, Engine, inspect, select

from arvis.canonical import format_time, sha256_hex
from journal.engine import fetch_all, reading
from journal.entry import genesis_hash
from journal.schema import journal_header
from journal.statements import FIRST_PREV, LOCK_HEADER, STORE_QUOTA


class JournalHeader:
    """The journal's identity: its id, format version and the genesis hash entry 1 chains from."""

    def __init__(self, journal_id: str, format_version: int, created_at: str, genesis: str) -> None:
        self.journal_id = journal_id
        self.format_version = format_version
        self.created_at = created_at
        self.genesis_hash = genesis


def read_header(connection: Connection) -> JournalHeader | None:
    """The header's identity columns (not the admin verifier: ``journal.admin_binding``), which every
    revision's header has."""
    c = journal_header.c
    rows = fetch_all(connection, select(c.journal_id, c.format_version, c.created_at, c.genesis_hash))
    if not rows:
        return None
    row = rows[0]
    return JournalHeader(row.journal_id, row.format_version, row.created_at, row.genesis_hash)


def _where(engine: Engine) -> str:
    """The engine's URL as text, for a new journal's id. A file name that is not UTF-8 (bytes read back
    as lone surrogates) cannot be rendered as a URL; its bytes are taken in hex instead."""
    try:
        return str(engine.url)
    except UnicodeEncodeError:
        return (engine.url.database or "").encode("utf-8", "surrogateescape").hex()


def create_header(
    engine: Engine,
    now: Callable[[], datetime],
    journal_id: str | None,
    copy: JournalHeader | None,
    format_version: int,
    admin_verifier: str | None = None,
    store_quota_bytes: int | None = None,
) -> None:
    """Write the header of a new journal (or a copy of another journal's header, for replay), with the
    verifier of its admin key when one is given (``journal.admin_binding``) and its graph-store quota
    (``store_quota``); ``now`` (the store's clock) is read only for the ``created_at`` of a new journal. A
    header already there is read without the write lock (the common case: opening a live journal)."""
    with reading(engine.connect()) as connection:
        if read_header(connection) is not None:
            return
    with engine.begin() as connection:
        if read_header(connection) is not None:
            return
        if connection.dialect.name == "postgresql":  # SQLite holds its write lock since BEGIN IMMEDIATE
            connection.exec_driver_sql(LOCK_HEADER)
            if read_header(connection) is not None:  # another process created it while we waited
                return
        if copy is None:
            created_at = format_time(now())
            identity = journal_id or "j-" + sha256_hex(f"{created_at}|{_where(engine)}".encode())[:32]
            copy = JournalHeader(identity, format_version, created_at, genesis_hash(identity, format_version))
        extra = {"admin_verifier": admin_verifier, "store_quota_bytes": store_quota_bytes}
        given = {name: value for name, value in extra.items() if value is not None}
        # a header's attributes are its identity columns, named alike
        connection.execute(journal_header.insert(), {"singleton": 1, **vars(copy), **given})


def store_quota(connection: Connection) -> int | None:
    """The bytes each owner may store in the graph store (``specs/langgraph.md`` §8.3), fixed when the
    journal was created; None when it has no quota (or its database predates revision 0013)."""
    columns = inspect(connection).get_columns("journal_header")
    if all(column["name"] != "store_quota_bytes" for column in columns):
        return None
    found = connection.exec_driver_sql(STORE_QUOTA).scalar()
    return None if found is None else int(found)


def header_holds(connection: Connection, header: JournalHeader) -> bool:
    """The header's genesis hash is the one its id and format give, and entry 1 (if any) chains from it:
    recomputing the genesis hash after editing the format is not enough, the first entry was hashed on
    the original one (the full check is verification's)."""
    if header.genesis_hash != genesis_hash(header.journal_id, header.format_version):
        return False
    first = connection.exec_driver_sql(FIRST_PREV).first()
    connection.rollback()
    return first is None or first[0] == header.genesis_hash

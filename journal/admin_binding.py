"""The journal's administrator credential: which admin key's holder acts as a built-in administrator.

What the journal holds is a verifier of the key (``kernel.identity.admin_verifier``), never the key:

* ``journal_header.admin_verifier``: written with the header when the journal is created with a key
  (``open_kernel(admin_key=...)``, ``arvis call --create``); the header is append-only, so it never
  changes afterwards.
* Every later binding (a journal created without a key, or by an older release) and every rotation is a
  journaled call: an accepted ``kernel.record`` of kind ``admin_key.bound`` by a built-in administrator,
  its payload ``{"admin_verifier": V}``, followed by a row ``(seq, V)`` of ``admin_bindings`` that names
  that entry. A row counts only when the entry at its seq is exactly that call, accepted; the last such row
  wins over the header.

``current_verifier`` reads it: one row of the header and the few rows of ``admin_bindings``, never the
journal at large. A database at an older revision (not migrated) has neither: no verifier.

Verification covers both (``journal-format.md`` §1.1a, §12): ``BindingCheck`` holds the rows to the
binding calls the chain holds, one row for each and none besides, so a row inserted, edited or deleted
(a rotation undone) is named at its seq; the header's verifier, which no entry derives, is bound by the
signed checkpoint's ``arvis-header-2`` line (``journal.tree_checkpoint``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, inspect, text

from arvis.access import is_builtin_admin
from arvis.canonical import decode
from journal import statements
from journal.entry import JournalEntry

BINDING_KIND = "admin_key.bound"
"""The ``kernel.record`` kind of a journaled binding or rotation."""


def binding_args(verifier: str) -> dict[str, Any]:
    """The arguments of the ``kernel.record`` call that journals a binding to ``verifier``."""
    return {"kind": BINDING_KIND, "payload": {"admin_verifier": verifier}}


def binding_verifier(kind: object, payload: object) -> str | None:
    """The verifier a ``kernel.record`` call without ``run_id`` binds, when its arguments are a binding's
    (``binding_args``); None for any other record."""
    if kind != BINDING_KIND or not isinstance(payload, dict) or set(payload) != {"admin_verifier"}:
        return None
    verifier = payload["admin_verifier"]
    return verifier if isinstance(verifier, str) else None


def _bound(syscall: object, principal: object, status: object, args: object) -> str | None:
    """The verifier an entry binds: an accepted ``kernel.record`` binding by a built-in administrator
    (``binding_verifier``); None for any other entry."""
    if syscall != "kernel.record" or status != "ok" or not isinstance(args, bytes | memoryview):
        return None
    if not (isinstance(principal, str) and is_builtin_admin(principal)) or _KIND not in bytes(args):
        return None  # most records (model answers, judges' verdicts) are no bindings: not decoded
    try:
        recorded = decode(bytes(args))
    except ValueError:
        return None
    if not isinstance(recorded, dict) or set(recorded) != {"kind", "payload"}:  # exactly binding_args's keys,
        return None  # so the canonical bytes the first releases compared mean the same binding
    return binding_verifier(recorded["kind"], recorded["payload"])


def _holds(row: Any) -> bool:
    """The entry a binding row names is the accepted binding call it says it is."""
    return _bound(*row[2:]) == str(row[1])  # (seq, verifier, syscall, principal, status, args)


def current_verifier(connection: Connection) -> str | None:
    """The verifier of the journal's admin key now: the last binding whose entry holds, else the
    header's; None when the journal has none (or the database predates revision 0012)."""
    if "admin_bindings" in inspect(connection).get_table_names():
        for row in connection.exec_driver_sql(statements.ADMIN_BINDINGS).fetchall():
            if _holds(row):
                return str(row[1])
    return header_verifier(connection)


def header_verifier(connection: Connection) -> str | None:
    """The verifier the header was written with; None when it has none (or predates revision 0012)."""
    if "journal_header" not in inspect(connection).get_table_names():
        return None
    columns = {column["name"] for column in inspect(connection).get_columns("journal_header")}
    if "admin_verifier" not in columns:
        return None
    header = connection.exec_driver_sql(statements.HEADER_VERIFIER).first()
    return None if header is None or header[0] is None else str(header[0])


def store_binding(engine: Engine, seq: int, verifier: str) -> bool:
    """Add the row of the binding journaled at ``seq``; False (nothing written) when the entry there is
    not that accepted call."""
    with engine.begin() as connection:
        entry = connection.execute(text(statements.ENTRY_CALL_AT), {"seq": seq}).first()
        if entry is None or not _holds((seq, verifier, *entry)):
            return False
        connection.execute(text(statements.ADMIN_BINDING_INSERT), {"seq": seq, "admin_verifier": verifier})
    return True


_KIND = f'"kind":"{BINDING_KIND}"'.encode()
"""How a binding's kind reads in its canonical arguments."""


class BindingCheck:
    """Verification's side (``tools.audit.replay``): ``add`` is given every entry the chain accepts, in seq
    order, and keeps the bindings they journal; ``result`` then holds ``admin_bindings`` to them. The
    rows are derived data, so each must be exactly the binding journaled at its seq, and each binding
    must have its row: a deleted row is a rotation undone, an inserted or edited one another key."""

    def __init__(self) -> None:
        self.journaled: dict[int, str] = {}

    def add(self, entry: JournalEntry) -> None:
        verifier = _bound(entry.syscall, entry.principal, entry.status, entry.args)
        if verifier is not None:
            self.journaled[entry.seq] = verifier

    def result(self, connection: Connection) -> tuple[int, str, str | None, str | None] | None:
        """The first row (by seq) that differs from the journaled bindings: its seq, the reason, the
        journaled verifier and the stored one (None where there is none); None when they are equal."""
        stored: dict[int, str | None] = {}
        if "admin_bindings" in inspect(connection).get_table_names():
            rows = connection.exec_driver_sql(statements.ADMIN_BINDING_ROWS).fetchall()
            stored = {int(seq): None if verifier is None else str(verifier) for seq, verifier in rows}
        for seq in sorted(stored.keys() | self.journaled.keys()):
            bound, row = self.journaled.get(seq), stored.get(seq)
            if seq not in stored:
                why = "has no admin_bindings row: the binding (or rotation) was deleted"
                return seq, f"the admin key binding journaled at seq {seq} {why}", bound, None
            if bound is None:
                why = "entry there is no binding call: a binding was inserted (or its seq edited)"
                return seq, f"admin_bindings row at seq {seq} binds an admin key, but the {why}", None, row
            if row != bound:
                why = "admin_verifier is not the one the binding journaled there names"
                return seq, f"admin_bindings row at seq {seq} edited: its {why}", bound, row
        return None

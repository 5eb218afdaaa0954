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
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, inspect, text

from kernel.access import is_builtin_admin
from kernel.arguments import record_args

__all__ = ["BINDING_KIND", "binding_args", "current_verifier", "store_binding"]

BINDING_KIND = "admin_key.bound"
"""The ``kernel.record`` kind of a journaled binding or rotation."""

_BINDINGS = (
    "SELECT b.seq, b.admin_verifier, j.syscall, j.principal, j.status, j.args "
    "FROM admin_bindings b JOIN journal j ON j.seq = b.seq ORDER BY b.seq DESC"
)


def binding_args(verifier: str) -> dict[str, Any]:
    """The arguments of the ``kernel.record`` call that journals a binding to ``verifier``."""
    return {"kind": BINDING_KIND, "payload": {"admin_verifier": verifier}}


def _holds(row: Any) -> bool:
    """The entry a binding row names is the accepted binding call it says it is."""
    _, verifier, syscall, principal, status, args = row
    return (
        syscall == "kernel.record"
        and status == "ok"
        and isinstance(principal, str)
        and is_builtin_admin(principal)
        and isinstance(args, bytes | memoryview)
        and bytes(args) == record_args(binding_args(str(verifier)))
    )


def current_verifier(connection: Connection) -> str | None:
    """The verifier of the journal's admin key now: the last binding whose entry holds, else the
    header's; None when the journal has none (or the database predates revision 0012)."""
    tables = set(inspect(connection).get_table_names())
    if "admin_bindings" in tables:
        for row in connection.exec_driver_sql(_BINDINGS).fetchall():
            if _holds(row):
                return str(row[1])
    if "journal_header" not in tables:
        return None
    columns = {column["name"] for column in inspect(connection).get_columns("journal_header")}
    if "admin_verifier" not in columns:
        return None
    header = connection.exec_driver_sql("SELECT admin_verifier FROM journal_header").first()
    return None if header is None or header[0] is None else str(header[0])


def store_binding(engine: Engine, seq: int, verifier: str) -> bool:
    """Add the row of the binding journaled at ``seq``; False (nothing written) when the entry there is
    not that accepted call."""
    with engine.begin() as connection:
        entry = connection.execute(
            text("SELECT syscall, principal, status, args FROM journal WHERE seq = :seq"), {"seq": seq}
        ).first()
        if entry is None or not _holds((seq, verifier, *entry)):
            return False
        connection.execute(
            text("INSERT INTO admin_bindings (seq, admin_verifier) VALUES (:seq, :verifier)"),
            {"seq": seq, "verifier": verifier},
        )
    return True

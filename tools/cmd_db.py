"""``arvis db upgrade --db DB``: bring a database's schema to the head migration, and a journal whose past
its rows could not hold when it was migrated has it rebuilt from its entries, once (``_rebuild_past``).
``arvis db keygen --db DB``:
write a new admin key and bind it to a journal that has none (``tools.admin_key``); ``arvis db
bind-admin-key --db DB``: bind an existing key file to a journal that has none (one of an older release);
``arvis db rotate-admin-key --db DB``: replace the journal's key, proved by the current one. A binding or
rotation is a journaled call (``journal.admin_binding``); none replaces a journal's key without it.

A database that holds no journal yet (a new file, an empty server database) is given one, empty: its
header is written as the first call would write it, so that every ``arvis journal`` command reads it as
the empty journal it is rather than as a database without a journal."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import closing
from typing import TYPE_CHECKING

from tools import admin_key
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, add_db_argument, existing_db, writable_db
from tools.private_file import shown_path

if TYPE_CHECKING:
    from pathlib import Path

    from sqlalchemy import Engine

    from tools.audit.replay import ReplayReport


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("db", help="schema management")
    actions = parser.add_subparsers(dest="action", required=True)
    upgrade = actions.add_parser("upgrade", help="run the Alembic migrations up to head")
    add_db_argument(upgrade)
    upgrade.add_argument(
        "--create", action="store_true", help="start a new journal if the database file does not exist"
    )
    upgrade.add_argument("-o", "--output", choices=("table", "json"), default="table")
    upgrade.set_defaults(run=run_upgrade)
    for name, run, summary in (
        ("keygen", run_keygen, "write an admin key and bind it to a journal that has none"),
        ("bind-admin-key", run_bind, "bind an existing admin key file to a journal that has none"),
        ("rotate-admin-key", run_rotate, "replace the journal's admin key, proved by the current one"),
    ):
        action = actions.add_parser(name, help=summary)
        add_db_argument(action)
        admin_key.add_admin_key_argument(action)
        action.add_argument("-o", "--output", choices=("table", "json"), default="table")
        action.set_defaults(run=run)


def run_upgrade(options: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from journal.engine import one_line, open_engine
    from journal.migrate import check_writable, upgrade_to_head

    target = writable_db(options.db, create=options.create)
    check_writable(target)  # before the engine's first connection, which already writes (WAL)
    engine = open_engine(target)
    try:
        before, after = upgrade_to_head(engine)
        started = _start_journal(engine)
        rebuild = _rebuild_past(engine, bar=options.output == "table")
    except SQLAlchemyError as exc:
        raise CommandError(f"migration failed: {one_line(exc)}") from None
    finally:
        engine.dispose()
    diverged = None if rebuild is None else rebuild.divergence
    rebuilt = None if rebuild is None or diverged is not None else rebuild.head.seq
    if options.output == "json":
        from tools.output import print_json

        divergence = None if diverged is None else diverged.to_json()
        print_json(
            {"before": before, "after": after, "started_journal": started, "rebuilt_past": rebuilt}
            | {"divergence": divergence}
        )
        return EXIT_OK if diverged is None else EXIT_FAILED
    if before == after:
        print(f"already at head ({after})")
    else:
        print(f"upgraded {before or 'empty database'} -> {after}")
    if started is not None:
        print(f"started an empty journal, {started}")
    if rebuilt is not None:
        print(f"rebuilt the past of entries 1 to {rebuilt} from the journal: time travel reads it from rows")
    if diverged is not None:
        print(
            f"the journal does not verify at seq {diverged.seq} ({diverged.reason}): its past is not rebuilt "
            "from it (time travel refuses that past); `arvis journal verify` says more",
            file=sys.stderr,
        )
    return EXIT_OK if diverged is None else EXIT_FAILED


def _rebuild_past(engine: Engine, *, bar: bool) -> ReplayReport | None:
    """For a journal migrated when its rows could not hold its past (``journal.history.covered_from``
    after entry 1): the journal verified by replay from entry 1, with a bar on a terminal, and once it
    verifies, the replay's rows and their past written over the database's (``journal.copy.adopt_history``).
    None when there is nothing to rebuild. A journal that does not verify is left as it is (its report
    names the divergence; time travel refuses that past)."""
    from rich.progress import TimeRemainingColumn

    from journal import history
    from journal.copy import adopt_history
    from journal.reader import JournalReader
    from syscalls.table import SYSCALL_TABLE
    from tools.audit.replay import verify_journal
    from tools.output import progress_bar

    with engine.connect() as connection:
        if history.covered_from(connection) <= 1:
            return None
    reader = JournalReader(engine)
    total = reader.count()
    with progress_bar("rebuilding the past", total if bar else 0, TimeRemainingColumn(), keep=True) as moved:
        return verify_journal(
            reader,
            table=SYSCALL_TABLE,
            progress=lambda seq: moved(completed=seq) if seq % 500 == 0 or seq == total else None,
            adopt=lambda replayed, head: adopt_history(engine, replayed, head),
        )


def run_keygen(options: argparse.Namespace) -> int:
    """Exit 2, nothing written, when the journal has a key already or the key file exists."""
    target, path = _key_place(options, "keygen")
    return _report(options, "wrote the admin key", path, _bind_new(target, path))


def run_bind(options: argparse.Namespace) -> int:
    """Bind the key file to a journal that has none (exit 2 when it has one, this or another)."""
    target, path = _key_place(options, "binding")
    key = admin_key.load_key(
        path, keygen=admin_key.db_command("keygen", target, path if options.admin_key else None)
    )
    return _report(options, "bound the admin key", path, _bind(target, key))


def run_rotate(options: argparse.Namespace) -> int:
    """A new key, bound by an administrator holding the current one (``FILE``), then written over it;
    until then it waits in ``FILE.rotating``."""
    target, path = _key_place(options)
    # exit 2 unless it is the journal's key
    current = admin_key.identity_for(BINDER, target, options.admin_key)
    pending = path.with_name(path.name + ".rotating")
    seq = _bind_new(target, pending, current.credential)
    os.replace(pending, path)
    return _report(options, "rotated the admin key", path, seq)


BINDER = "admin:key-holder"
"""The built-in administrator a binding or rotation is journaled as."""


def _key_place(options: argparse.Namespace, unbound_for: str | None = None) -> tuple[str, Path]:
    """The database and its key file; a journal with a key bound is refused for ``unbound_for``."""
    target = existing_db(options.db)
    path = admin_key.admin_key_path(target, options.admin_key)
    if path is None:
        raise CommandError(
            "a PostgreSQL database has no default place for its admin key",
            hint="give --admin-key FILE (and the same to `arvis call`, or set ARVIS_ADMIN_KEY)",
        )
    if unbound_for and admin_key.journal_verifier(target) not in (None, "new"):
        raise CommandError(
            f"the journal has an admin key bound already; {unbound_for} never replaces it",
            hint="replace it with `arvis db rotate-admin-key`, which needs the current key",
        )
    return target, path


def _bind(target: str, key: bytes, credential: str | None = None) -> int:
    """Journal the binding of ``key`` (an accepted ``kernel.record`` by ``BINDER``) and record it
    (``journal.admin_binding``): the seq of the entry. ``credential``: the current key, for a rotation;
    None: the journal has no key, and the command line, which opened the file, vouches for its binder."""
    from journal.admin_binding import binding_args, store_binding
    from kernel.identity import VouchedPrincipals, admin_verifier
    from kernel.services import default_services
    from syscalls.boot import open_kernel

    vouched = VouchedPrincipals(administrators=credential is None)
    with closing(open_kernel(target, services=default_services(), identity=vouched, admin_key=key)) as kernel:
        verifier = admin_verifier(key)
        result = kernel.call("kernel.record", binding_args(verifier), principal=BINDER, credential=credential)
        if not result.ok or result.seq is None:
            error = result.error.code if result.error else "refused"
            raise CommandError(f"the binding was not journaled: {error}")
        journal_format = kernel.format.version  # from format 6 the call adds its row itself, atomically
        if journal_format < 6 and not store_binding(kernel.store.engine, result.seq, verifier):  # type: ignore[attr-defined]
            raise CommandError(f"the binding journaled at seq {result.seq} could not be recorded")
        return result.seq


def _bind_new(target: str, path: Path, credential: str | None = None) -> int:
    """A new key written at ``path`` and bound (``_bind``); the file goes again when the binding fails."""
    key = admin_key.create_key_or_fail(path)
    try:
        return _bind(target, key, credential)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _report(options: argparse.Namespace, done: str, path: Path, seq: int) -> int:
    if options.output == "json":
        from tools.output import print_json

        print_json({"admin_key": shown_path(path), "seq": seq})
    else:
        print(f"{done} {shown_path(path)} (0600), journaled at seq {seq}")
    return EXIT_OK


def _start_journal(engine: Engine) -> str | None:
    """Write the header of a database that has none (its schema is at head by now), as opening a kernel
    on it would; returns the new journal's id, or None when it already held a journal."""
    from journal.header import read_header
    from journal.store import SqlJournalStore, SystemClock

    with engine.connect() as connection:
        if read_header(connection) is not None:
            return None
    with closing(SqlJournalStore(engine, clock=SystemClock())) as store:
        return store.header.journal_id

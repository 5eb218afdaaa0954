"""The SQL store of pipeline runs, bound to one transaction: it only reads (a run's beginning and end are
changes its calls decide, ``syscalls.pipeline``, and ``journal.apply`` writes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arvis.pipeline_runs import PipelineRun
from journal.entry import Pos
from journal.sql import SqlRunner
from journal.statements import ACTIVE_RUN, PIPELINE_RUN

__all__ = ["ActiveRuns", "SqlPipelineRunRepository"]


def _run(row: tuple[Any, ...] | None) -> PipelineRun | None:
    if row is None:
        return None
    return PipelineRun(
        str(row[0]), str(row[1]), str(row[2]), int(row[3]), None if row[4] is None else int(row[4])
    )


class ActiveRuns:
    """The active run of each user looked up so far, kept by a store across its transactions; the one
    place its rule lives: a value is used only under the journal head it was read under.

    Every change of ``pipeline_runs`` is a call's, journaled in the transaction that makes it, so while
    the journal's head is the one a value was read under, no run has begun or ended since (another
    writer's append moves the head). The store reports each database transaction: ``start`` with the
    head it read under the write lock (whatever was kept under another head is dropped), ``committed``
    with the head its commit left. A transaction that rolls back reports nothing: what it kept was
    read under the head it started from, before it changed any run. A call that begins or ends a run
    (``changed``) drops everything and keeps nothing until the next ``start``: what is read after that
    may be uncommitted (a later call of the same batch reads it), and the transaction may roll back.
    (``specs/journal-format.md`` §7.)"""

    __slots__ = ("_head", "_known", "_usable")

    def __init__(self) -> None:
        self._known: dict[str, PipelineRun | None] = {}
        self._head: Pos | None = None
        self._usable = False

    def start(self, head: Pos) -> None:
        """A database transaction starts from ``head``, read under the write lock."""
        if head != self._head:
            self._known.clear()
            self._head = head
        self._usable = True

    def committed(self, head: Pos) -> None:
        """The transaction committed, leaving ``head``: what it kept is still true there (it changed
        no run, or ``changed`` dropped everything, and no other writer could append meanwhile)."""
        self._head = head

    def changed(self) -> None:
        """The transaction begins or ends a run."""
        self._known.clear()
        self._usable = False

    def active_for(self, user_id: str, read: Callable[[str], PipelineRun | None]) -> PipelineRun | None:
        """The user's active run: the one kept, else ``read`` (kept while the transaction may keep)."""
        if not self._usable:
            return read(user_id)
        known = self._known
        if user_id in known:
            return known[user_id]
        run = known[user_id] = read(user_id)
        return run


class SqlPipelineRunRepository:
    def __init__(self, sql: SqlRunner, active: ActiveRuns) -> None:
        self._sql = sql
        self._active = active

    def get(self, run_id: str) -> PipelineRun | None:
        return _run(self._sql.first(PIPELINE_RUN, {"run_id": run_id}))

    def active_for(self, user_id: str) -> PipelineRun | None:
        """The run holding this user's memory still, if any (the oldest when several)."""
        return self._active.active_for(user_id, self._read_active)

    def _read_active(self, user_id: str) -> PipelineRun | None:
        return _run(self._sql.first(ACTIVE_RUN, {"user_id": user_id}))

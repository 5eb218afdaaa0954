"""The SQL store of pipeline runs, bound to one transaction: it reads, and stages what a call changes
(``arvis.changes``) for ``journal.apply`` to write."""

from __future__ import annotations

from typing import Any

from arvis.changes import ChangeSet, Insert, Update
from journal.sql import SqlRunner
from kernel.pipeline_runs import PipelineRun, PipelineRunRepository
from kernel.protocols import StorageError

__all__ = ["ActiveRuns", "NoPipelineRuns", "SqlPipelineRunRepository"]

_SELECT = "SELECT run_id, user_id, principal, began_seq, ended_seq FROM pipeline_runs"


def _run(row: tuple[Any, ...] | None) -> PipelineRun | None:
    if row is None:
        return None
    return PipelineRun(
        str(row[0]), str(row[1]), str(row[2]), int(row[3]), None if row[4] is None else int(row[4])
    )


class ActiveRuns:
    """The active run of each user looked up so far, kept by a store across its transactions.

    ``SqlJournalStore`` empties it when the head its transaction starts from is not the one its own
    last commit left (another writer appended; a remembered head that is stale is caught by the
    call's collision and re-run), and when a transaction rolls back. A transaction that begins or ends
    a run empties it and turns it off until the store's next database transaction (``reopen``), so
    nothing that sees an uncommitted run is kept, by that call or by a later call of the same batch."""

    def __init__(self) -> None:
        self.known: dict[str, PipelineRun | None] = {}
        self.usable = True

    def forget(self) -> None:
        self.known.clear()
        self.usable = False

    def reopen(self) -> None:
        self.usable = True


class SqlPipelineRunRepository(PipelineRunRepository):
    def __init__(self, sql: SqlRunner, *, changes: ChangeSet, active: ActiveRuns | None = None) -> None:
        self._sql = sql
        self._changes = changes
        self._active = active

    def get(self, run_id: str) -> PipelineRun | None:
        return _run(self._sql.first(_SELECT + " WHERE run_id = :run_id", {"run_id": run_id}))

    def active_for(self, user_id: str) -> PipelineRun | None:
        active = self._active
        if active is not None and active.usable and user_id in active.known:
            return active.known[user_id]
        run = _run(
            self._sql.first(
                _SELECT + " WHERE user_id = :user_id AND ended_seq IS NULL ORDER BY began_seq LIMIT 1",
                {"user_id": user_id},
            )
        )
        if active is not None and active.usable:
            active.known[user_id] = run
        return run

    def _forget_active(self) -> None:
        if self._active is not None:
            self._active.forget()

    def begin(self, run: PipelineRun) -> None:
        self._forget_active()
        row = {
            "run_id": run.run_id,
            "user_id": run.user_id,
            "principal": run.principal,
            "began_seq": run.began_seq,
            "ended_seq": None,
        }
        self._changes.add(Insert("pipeline_runs", row))

    def end(self, run_id: str, ended_seq: int) -> None:
        self._forget_active()
        self._changes.add(Update("pipeline_runs", {"run_id": run_id}, {"ended_seq": ended_seq}))


class NoPipelineRuns(PipelineRunRepository):
    """A database at a schema older than pipeline runs (opened without upgrading) holds none."""

    def get(self, run_id: str) -> PipelineRun | None:
        return None

    def active_for(self, user_id: str) -> PipelineRun | None:
        return None

    def begin(self, run: PipelineRun) -> None:
        raise StorageError("this database predates pipeline runs: run `arvis db upgrade` first")

    def end(self, run_id: str, ended_seq: int) -> None:
        raise StorageError("this database predates pipeline runs: run `arvis db upgrade` first")

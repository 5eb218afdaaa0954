"""The replayer: a fresh kernel on a scratch store that re-executes recorded entries through
``Kernel.execute``, one at a time, and compares each with the record byte for byte (status, result bytes,
effects hash; ``journal-format.md`` §8.1). Verification (``tools.audit.replay``) and counterfactuals
replay with it.
"""

from __future__ import annotations

import dataclasses
import difflib
import shutil
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine

from arvis.canonical import decode, parse_time
from journal.blob_store import reader_for
from journal.engine import Durability, open_engine
from journal.header import JournalHeader, store_quota
from journal.state import state_digest
from journal.store import ManualClock, SqlJournalStore
from journal.transaction import SqlBatch
from kernel.abi import JournalEntry, RecordedCall, Service, SyscallResult, SyscallTable
from kernel.dispatcher import Kernel
from kernel.errors import ErrorCode
from kernel.protocols import StorageError
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services
from tools.audit.verify import damaged_header, noncanonical_args

REPLAY_BATCH = 500
"""Entries replayed per scratch-store transaction."""


class DivergenceClass:
    INVALID_HISTORY = "invalid_history"
    NONDETERMINISM = "nondeterminism"
    INTERNAL = "internal"


@dataclass(frozen=True)
class Divergence:
    """The first place where the journal and its replay part ways."""

    seq: int
    syscall: str
    kind: str
    reason: str
    expected: Any = None
    found: Any = None
    diff: str = ""
    labels: tuple[str, str] = ("expected", "found")
    """What ``expected`` and ``found`` each hold (``replayed state``, ``stored state``...): the two words
    alone do not say which side is the journal's word and which the one that departs from it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "syscall": self.syscall,
            "class": self.kind,
            "reason": self.reason,
            "expected": self.expected,
            "found": self.found,
            "labels": {"expected": self.labels[0], "found": self.labels[1]},
            "diff": self.diff,
        }


def _decoded(data: bytes) -> Any:
    try:
        return decode(data)
    except Exception:
        return data.decode("utf-8", "replace")


class Replayer:
    """A fresh kernel on a scratch store that re-executes recorded entries one at a time."""

    def __init__(
        self,
        header: JournalHeader,
        *,
        table: SyscallTable,
        on_disk: bool = False,
        blobs_from: Engine | None = None,
    ) -> None:
        """``blobs_from``: the database of the journal being replayed; its blobs are what the recorded
        store searches read (each checked against its hash), so the replay reads the same bytes. Without
        it, a search that needs blobs is refused (``no_memory_service``), as it would diverge."""
        damaged = damaged_header(header)
        if damaged is not None:  # its clock starts at created_at and its store copies the header's text
            raise StorageError(f"the journal cannot be replayed: {damaged.reason}")
        self._directory = Path(tempfile.mkdtemp(prefix="arvis-replay-")) if on_disk else None
        target = ":memory:" if self._directory is None else str(self._directory / "replay.db")
        clock = ManualClock(parse_time(header.created_at))
        quota = None  # the graph store's quota of the journal replayed, which its calls were decided under
        if blobs_from is not None:
            with blobs_from.connect() as connection:
                quota = store_quota(connection)
        self.store = SqlJournalStore(
            open_engine(target, durability=Durability.OFF),
            clock=clock,
            copy_header=header,
            keep_entries=False,
            store_quota_bytes=quota,
        )
        self._stack: ExitStack | None = None
        self._open: SqlBatch | None = None
        self.last_entry: JournalEntry | None = None
        """The scratch store's entry of the last entry ``apply`` reproduced byte for byte."""
        self._in_batch = 0
        self.kernel = Kernel(
            table=table,
            # the store's searches read the replayed journal's blobs
            services=dataclasses.replace(
                default_services(), blob_reader=None if blobs_from is None else reader_for(blobs_from)
            ),
            store=self.store,
            clock=clock,
        )

    def _batch(self) -> SqlBatch:
        """The open batch the next entries replay in (one database transaction per BATCH entries)."""
        if self._open is None:
            self._stack = ExitStack()
            self._open = self._stack.enter_context(self.store.batch())
            self._in_batch = 0
        return self._open

    def flush(self) -> str | None:
        """Commit the open batch; the reason when the scratch store could not."""
        stack, self._stack, self._open = self._stack, None, None
        if stack is None:
            return None
        try:
            stack.close()
        except StorageError as exc:
            return str(exc)
        return None

    def close(self) -> None:
        self.flush()
        self.store.close()
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)

    def _services_as_recorded(self, entry: JournalEntry) -> KernelServiceRegistry:
        """The services to bind for the entry: the verifier's own but in one case. A call answered
        ``no_memory_service`` records that its syscall's service was not bound in the kernel that wrote it
        (a deployment may bind only some services, and another session on the same file others): it is
        re-executed with that service unbound, so the refusal replays byte for byte. Every other call runs
        with the verifier's services, which is what it was written with (the refusal is the only trace an
        unbound service leaves, and a refused call changes no state)."""
        if entry.status != ErrorCode.NO_MEMORY_SERVICE:
            return self.kernel.services
        spec = self.kernel.table.get(entry.syscall)
        if spec is None or spec.service is Service.ALWAYS:
            return self.kernel.services
        return dataclasses.replace(self.kernel.services, **{spec.service: None})

    def _run(
        self, entry: JournalEntry, recorded: RecordedCall
    ) -> tuple[SyscallResult, JournalEntry | None, str | None]:
        """Execute ``recorded`` in the open batch: its result, the scratch store's entry (None when the
        call took no seq), and the reason when the batch could not commit: at the end of a full batch,
        or at once when this call failed while writing (its batch can then never commit, and nothing
        after it may run on the half-written state)."""
        batch = self._batch()
        kernel = self.kernel
        bound, kernel.services = kernel.services, self._services_as_recorded(entry)
        try:
            result = kernel.execute(recorded, batch.transaction)
        finally:
            kernel.services = bound
        replayed = batch.last_entry if result.seq is not None else None
        self._in_batch += 1
        failed = None
        if batch.failed:
            failed = self.flush() or "a call failed while its changes were written"
        elif self._in_batch >= REPLAY_BATCH:
            failed = self.flush()
        return result, replayed, failed

    def rerun(self, entry: JournalEntry) -> JournalEntry | None:
        """Re-execute one entry on whatever state the scratch store holds, without comparing: the
        scratch store's entry for it (its status and result as they come out now), or None when the
        call took no seq. For counterfactual replays, whose state departs from the record on purpose;
        the call may be refused now, so it runs with the write guard."""
        _, replayed, failed = self._run(entry, _as_recorded(entry))
        if failed is not None:
            raise StorageError(f"the replay could not commit: {failed}")
        return replayed

    def pass_over(self, entry: JournalEntry) -> None:
        """Take the entry's seq without executing its call: a refusal in its place (an empty syscall
        name, refused before any state is read) writes nothing, so every later entry keeps its seq and
        with it the identifiers derived from it (unit ``u<seq>-<n>``, ``r<seq>``, ``c<seq>``)."""
        stand_in = RecordedCall(
            syscall="", principal=entry.principal, args=b"{}", recorded_at=entry.recorded_at
        )
        _, replayed, failed = self._run(entry, stand_in)
        if failed is not None:
            raise StorageError(f"the replay could not commit: {failed}")
        if replayed is None or replayed.seq != entry.seq:
            raise StorageError(f"the replay could not pass over seq {entry.seq}")

    def apply(self, entry: JournalEntry) -> Divergence | None:
        """Re-execute one entry and compare; None when it reproduced byte for byte."""
        self.last_entry = None
        if (malformed := noncanonical_args(entry)) is not None:  # the kernel reads them all the same
            return Divergence(entry.seq, entry.syscall, DivergenceClass.INVALID_HISTORY, malformed.reason)
        result, replayed, failed = self._run(entry, _as_recorded(entry))
        if failed is not None:
            return Divergence(entry.seq, entry.syscall, DivergenceClass.INTERNAL, f"replay failed: {failed}")
        if result.seq is None or replayed is None or replayed.seq != entry.seq:
            detail = result.error.detail if result.error is not None else "no entry was appended"
            return Divergence(entry.seq, entry.syscall, DivergenceClass.INTERNAL, f"replay failed: {detail}")
        nondeterminism = partial(Divergence, entry.seq, entry.syscall, DivergenceClass.NONDETERMINISM)
        if replayed.status != entry.status or replayed.result != entry.result:
            expected, found = _decoded(entry.result), _decoded(replayed.result)
            reason = (
                f"status {entry.status!r} replayed as {replayed.status!r}"
                if replayed.status != entry.status
                else "result bytes differ"
            )
            labels = ("recorded result", "replayed result")
            option = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
            before = orjson.dumps(expected, option=option).decode().splitlines()
            after = orjson.dumps(found, option=option).decode().splitlines()
            diff = "\n".join(difflib.unified_diff(before, after, "recorded", "replayed", lineterm=""))
            return nondeterminism(reason, expected, found, diff, labels=labels)
        if replayed.effects_hash != entry.effects_hash:
            labels = ("recorded effects hash", "replayed effects hash")
            return nondeterminism("effects differ", entry.effects_hash, replayed.effects_hash, labels=labels)
        self.last_entry = replayed  # reproduced exactly
        return None

    def committed(self) -> Connection:
        """A connection to the scratch store, its open batch committed first (what it replayed, whole)."""
        failed = self.flush()
        if failed is not None:
            raise StorageError(f"the replay could not commit: {failed}")
        return self.store.engine.connect()

    def state_digest(self) -> str:
        with self.committed() as connection:
            return state_digest(connection)


def _as_recorded(entry: JournalEntry) -> RecordedCall:
    """A journal entry's call as the kernel re-executes it, with its journaled result
    (``CallContext.recorded``)."""
    return RecordedCall(
        syscall=entry.syscall,
        principal=entry.principal,
        args=entry.args,
        recorded_at=entry.recorded_at,
        result=entry.result,
        identity_refused=entry.status == ErrorCode.PRINCIPAL_NOT_ALLOWED,
        unknown_when_recorded=entry.status == ErrorCode.UNKNOWN_SYSCALL,
    )

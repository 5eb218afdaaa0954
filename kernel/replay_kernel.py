"""``journal_only_replay``: a kernel that serves a recorded run from its journal, touching no store.

Each call must match the next recorded entry's (syscall, args, principal), compared in their
recorded forms; it then gets the recorded result. A mismatch gives ``replay_divergence`` with what
was expected and what was found, and the cursor stays where it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import orjson

from arvis.access import AccessRules
from arvis.canonical import decode
from kernel.abi import JournalEntry, SyscallError, SyscallResult, record_args, record_text
from kernel.arguments import MAX_NAME_LENGTH, MAX_PRINCIPAL_LENGTH
from kernel.errors import ErrorCode
from kernel.formats import piece_paths
from kernel.pipeline import pipeline
from kernel.result_pieces import PieceFetch, expand, references


def _describe(syscall: str, args: bytes, principal: str) -> dict[str, Any]:
    return {"syscall": syscall, "principal": principal, "args": args.decode("utf-8", "replace")}


class JournalReplayKernel:
    """Same ``call`` interface as ``Kernel``; results come from the journal, never recomputed."""

    def __init__(
        self,
        entries: Iterable[JournalEntry],
        *,
        pieces: PieceFetch | None = None,
        access_rules: AccessRules = AccessRules.TYPED,
    ) -> None:
        """``pieces``: for a journal that journals reads by reference (format 3), a reader of its pieces
        (``tools.audit.pieces.replay_kernel`` binds the journal's own), so that a read is served whole, as it
        was returned. Without it, a result held by reference is served as the error
        ``replay_result_unavailable`` (the cursor moves on), never as its reference."""
        self._entries: Iterator[JournalEntry] = iter(entries)
        self._pieces = pieces
        self._pending: JournalEntry | None = None
        self.served = 0
        self.access_rules = access_rules
        """The rules the journal's calls were made under (its format's), as ``Kernel.access_rules``: how a
        client names a scope in the calls it replays (``arvis.access.scope_of``)."""

    def _peek(self) -> JournalEntry | None:
        if self._pending is None:
            self._pending = next(self._entries, None)
        return self._pending

    def call(
        self, name: object, args: object = None, *, principal: object, credential: object = None
    ) -> SyscallResult:
        """The next recorded call's result (``credential`` is accepted and ignored: the journal records
        the identity verdict, never the credential)."""
        syscall = record_text(name, MAX_NAME_LENGTH)
        recorded_principal = record_text(principal, MAX_PRINCIPAL_LENGTH)
        recorded_args = record_args({} if args is None else args)
        found = _describe(syscall, recorded_args, recorded_principal)
        entry = self._peek()
        if entry is None:
            return _divergence({"end_of_journal": True}, found)
        if (entry.syscall, entry.args, entry.principal) != (syscall, recorded_args, recorded_principal):
            return _divergence(_describe(entry.syscall, entry.args, entry.principal), found, seq=entry.seq)
        self._pending = None
        self.served += 1
        whole = self._whole(entry)
        if whole is None:
            unavailable = "no piece reader was given, or a piece is missing or damaged"
            error = SyscallError.of(ErrorCode.REPLAY_RESULT_UNAVAILABLE, unavailable)
        else:
            payload = decode(whole)
            if payload.get("ok") is True:
                return SyscallResult(ok=True, seq=entry.seq, value=payload.get("value"))
            recorded = payload.get("error") or {}
            error = SyscallError(
                code=str(recorded.get("code", "")),
                message=str(recorded.get("message", "")),
                detail=str(recorded.get("detail", "")),
            )
        return SyscallResult(ok=False, seq=entry.seq, error=error)

    def _whole(self, entry: JournalEntry) -> bytes | None:
        """The entry's result as the call returned it; None when it holds references it cannot expand."""
        paths = piece_paths(entry.syscall)
        if self._pieces is None:
            return None if references(entry.result, paths) else entry.result
        try:
            return expand(entry.result, paths, self._pieces)
        except LookupError:  # a piece missing or damaged (the blob store, or expand, says which)
            return None

    def pipeline(
        self, *, user_id: str, run_id: str, principal: str, credential: str | None = None
    ) -> AbstractContextManager[Any]:
        """The recorded pipeline run, served from the journal (see ``kernel.pipeline``)."""
        return pipeline(self, user_id=user_id, run_id=run_id, principal=principal, credential=credential)

    @property
    def exhausted(self) -> bool:
        """True when every recorded entry of the run has been served."""
        return self._peek() is None


def _divergence(expected: dict[str, Any], found: dict[str, Any], *, seq: int | None = None) -> SyscallResult:
    detail = orjson.dumps({"seq": seq, "expected": expected, "found": found}, option=orjson.OPT_SORT_KEYS)
    return SyscallResult(
        ok=False, seq=None, error=SyscallError.of(ErrorCode.REPLAY_DIVERGENCE, detail.decode("utf-8"))
    )

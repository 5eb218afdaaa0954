"""One call's execution in one transaction (``Execution.run``): the checks that need no state, the handler's
decision, the result the caller gets and the journal entry that holds it. ``kernel.dispatcher`` decides
which transaction, and when."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import msgspec

from arvis.awmu.errors import AwmuRuleError
from arvis.canonical import canonical_bytes_of_own, parse_time
from arvis.changes import Decision
from arvis.memory.errors import MemoryRuleError
from kernel.abi import CallContext, SyscallError, SyscallResult
from kernel.arguments import check_principal, check_refused
from kernel.errors import ErrorCode, KernelError
from kernel.formats import FormatRules
from kernel.identity import refusal_detail
from kernel.protocols import EntryContent, StorageError, Transaction
from kernel.recorded import RecordedCall
from kernel.registry import KernelServiceRegistry
from kernel.result_pieces import split as split_result
from kernel.table import Service, SyscallSpec, SyscallTable

__all__ = ["READ_CHANGED_STATE", "Execution", "TransactionSource"]

READ_CHANGED_STATE = "a read decided a change of state"
"""The detail of ``internal_error`` for a call whose row says it changes no state (``mutates`` false) but
whose decision changes some: refused and journaled, nothing written (``kernel-syscalls.md`` §2)."""

TransactionSource = Callable[[], AbstractContextManager[Transaction]]
"""Where a call gets its transaction: the store's own, or one call's scope in a batch."""


class Execution:
    """Runs a recorded call against the table: admission (``_admit``), the handler (``_decide``), the
    answer (``_answer``) and the append of its entry, all in the transaction it is given."""

    def __init__(self, table: SyscallTable, services: KernelServiceRegistry, rules: FormatRules) -> None:
        self.table = table
        self.services = services
        self.format = rules
        self.access_rules = rules.access
        self._decoders = {  # a call decodes as its journal's format had it (``earlier_request_type``)
            name: msgspec.json.Decoder(spec.request_type_in(rules.version)) for name, spec in table.items()
        }

    def run(self, recorded: RecordedCall, transactions: TransactionSource) -> SyscallResult:
        """Admission refusals need no state and are journaled on their own; everything the handler
        decides, accepted or refused, is journaled in the transaction it was decided in."""
        # the moment the handler gets is the journaled text parsed back, live and in replay alike
        now = parse_time(recorded.recorded_at)
        spec: SyscallSpec | None = None
        decided: Decision | SyscallError
        try:
            spec, request = self._admit(recorded)
        except KernelError as refusal:
            decided = SyscallError.of(refusal.code, refusal.detail)
        with transactions() as tx:
            if spec is not None:
                decided = self._decide(spec, request, recorded, tx, now)
            result, journaled, pieces = self._answer(spec, decided, tx.next_seq)
            accepted = decided if isinstance(decided, Decision) else Decision({})
            status = decided.code if isinstance(decided, SyscallError) else "ok"
            content = EntryContent(
                recorded.recorded_at, recorded.syscall, recorded.principal, recorded.args, status, journaled
            )
            tx.append(content, changes=accepted.changes, pieces=(*pieces, *accepted.blobs))
        return result

    def _decide(
        self, spec: SyscallSpec, request: Any, recorded: RecordedCall, tx: Transaction, now: datetime
    ) -> Decision | SyscallError:
        """The handler's decision (its value, the changes the journal applies when it appends the entry,
        the blobs it stores with it), or its refusal; a storage failure is raised, to fail the
        transaction. A read (``mutates`` false) that decides changes is refused ``internal_error``."""
        ctx = CallContext(
            access_rules=self.access_rules,
            format_version=self.format.version,
            seq=tx.next_seq,
            now=now,
            principal=recorded.principal,
            services=self.services,
            read=tx.read,
            recorded=recorded.result,
        )
        try:
            with tx.handler_scope():
                value = spec.handler(ctx, request)
            decision = value if isinstance(value, Decision) else Decision(value)
            if decision.changes and not spec.mutates:  # the row is wrong, not the call: a kernel error
                raise KernelError(ErrorCode.INTERNAL_ERROR, READ_CHANGED_STATE)
            return decision
        except KernelError as refusal:
            return SyscallError.of(refusal.code, refusal.detail)
        except (MemoryRuleError, AwmuRuleError) as refusal:
            return SyscallError.of(ErrorCode(refusal.code.value), refusal.detail)
        except StorageError:
            raise
        except Exception as exc:
            return SyscallError.of(ErrorCode.INTERNAL_ERROR, type(exc).__name__)

    def _answer(
        self, spec: SyscallSpec | None, decided: Decision | SyscallError, seq: int
    ) -> tuple[SyscallResult, bytes, tuple[tuple[str, bytes], ...]]:
        """The caller's result, the journaled result bytes and the pieces journaled by reference."""
        if isinstance(decided, SyscallError):
            refused = SyscallResult(ok=False, seq=seq, error=decided)
            return refused, canonical_bytes_of_own(refused.journal_payload()), ()
        assert spec is not None
        layout = self.format.pieces
        paths = () if layout is None else layout.paths.get(spec.name, ())
        if layout is not None and paths:
            split = split_result(decided.value, paths, layout.min_bytes)
            # the caller gets the whole result; the journal its bulky parts by reference
            return SyscallResult.from_journaled(seq, split.whole), split.journaled, split.pieces
        encoded = canonical_bytes_of_own({"ok": True, "value": decided.value})
        if decided.unjournaled:  # the caller gets bytes the journaled value names by their hashes
            whole = canonical_bytes_of_own({"ok": True, "value": {**decided.value, **decided.unjournaled}})
            return SyscallResult.from_journaled(seq, whole), encoded, ()
        # the caller gets exactly what the journal holds (lists, not tuples), as a replay would
        return SyscallResult.from_journaled(seq, encoded), encoded, ()

    def _admit(self, recorded: RecordedCall) -> tuple[SyscallSpec, Any]:
        """Checks that need no state: principal, name, argument shape, bound service."""
        check_principal(recorded.principal)
        if recorded.identity_refused:
            raise KernelError(ErrorCode.PRINCIPAL_NOT_ALLOWED, refusal_detail(recorded.principal))
        spec = None if recorded.unknown_when_recorded else self.table.get(recorded.syscall)
        if spec is None:
            raise KernelError(ErrorCode.UNKNOWN_SYSCALL, "the name is not in the syscall table")
        check_refused(recorded.args)
        try:
            request = self._decoders[spec.name].decode(recorded.args)
        except msgspec.DecodeError as exc:
            raise KernelError(ErrorCode.INVALID_ARGS, str(exc)) from None
        if spec.service is not Service.ALWAYS and getattr(self.services, spec.service, None) is None:
            raise KernelError(ErrorCode.NO_MEMORY_SERVICE, f"{spec.service.value} is not bound")
        return spec, request

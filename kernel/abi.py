"""The kernel ABI: the syscall table, and one call from its recorded form to its answer.

The table is data: one immutable mapping from name to spec, built once. ``syscalls/table.py`` writes each
row on one line (``Row``): the name, the handler, the family's service (``Service``), its flags (``Flag``)
and a one-line summary; the request type is the handler's second parameter's annotation, read from its
signature (``spec_of``). ``specs/kernel-syscalls.md`` §2.

A call: as the journal holds it (``RecordedCall``: its arguments, name and principal recorded by
``record_args`` and ``record_text``, so that a replay, which only has the journal, takes the same path),
what a handler sees (``CallContext``), what a call returns (``SyscallResult``, ``SyscallError``), and the
run of one recorded call in one transaction (``Execution.run``): the checks that need no state, the
handler's decision, the answer and the entry that holds it. ``kernel.dispatcher`` decides which
transaction, and when."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from enum import Flag as _Flag
from enum import StrEnum, auto
from typing import Any, Protocol

import msgspec

from arvis.access import AccessRules, Grant
from arvis.awmu.errors import AwmuRuleError
from arvis.canonical import (
    CanonicalEncodingError,
    canonical_bytes,
    canonical_bytes_of_own,
    decode,
    parse_time,
)
from arvis.changes import Decision
from arvis.memory.errors import MemoryRuleError
from journal.entry import JournalEntry as JournalEntry
from kernel.arguments import MAX_ARGS_BYTES, MAX_PRINCIPAL_LENGTH, MAX_VALUE_ARGS_BYTES
from kernel.errors import ERROR_MESSAGES, ErrorCode, KernelError
from kernel.formats import FormatRules
from kernel.identity import refusal_detail
from kernel.protocols import EntryContent, Reader, StorageError, Transaction
from kernel.registry import KernelServiceRegistry
from kernel.result_pieces import split as split_result


class Handler(Protocol):
    """A syscall's handler: the call's context and its decoded request in, its decision or value out."""

    def __call__(self, ctx: CallContext, request: Any, /) -> Any: ...


class Service(StrEnum):
    """The service a syscall needs bound in ``KernelServiceRegistry``: each value but ``ALWAYS`` is the name
    of the registry's attribute, and a call whose service is unbound answers ``no_memory_service`` with
    detail ``<value> is not bound``. ``ALWAYS`` needs none, so it is never refused for want of a service."""

    MEMORY = "memory_service"
    WORKING_MEMORY = "working_memory_service"
    ALWAYS = "always"


class Support(StrEnum):
    """Where a syscall's name and contract come from (``specs/kernel-syscalls.md`` §2.1)."""

    UPSTREAM = "upstream"
    """Named by upstream arvis's specification, ARVIS-MEM-01 §11.1 (``memory.list``, ``get``, ``snapshot``,
    ``write``, ``revoke``), over the upstream-compatible ``arvis.memory`` (``memory-syscalls.md`` §10).
    Upstream designs these calls but registers none, so there is no upstream implementation to match."""
    EXTENSION = "extension"
    """This project's own syscall: its name and contract are defined by this project's specs only."""


class Flag(_Flag):
    """A row's flags; ``READ`` (none set) is a call that changes no state."""

    READ = 0
    MUTATES = auto()
    """The call may change state; a row without it whose decision changes state is refused, as a kernel
    error (``internal_error``, journaled: ``kernel.abi.Execution``)."""
    UPSTREAM = auto()
    """``Support.UPSTREAM``; without it a row is ``Support.EXTENSION``."""
    CARRIES_VALUES = auto()
    """The values stored come with the call: its arguments may be up to ``MAX_VALUE_ARGS_BYTES``."""


Row = tuple[str, Handler, Service, Flag, str]
"""One line of ``syscalls/table.py``: name, handler, service, flags, summary."""


class SyscallTableError(ValueError):
    """The table is malformed (a name registered twice, a retired name registered again, or a handler
    whose signature names no request type)."""


@dataclass(frozen=True, kw_only=True)
class SyscallSpec:
    """One row of the table: the name, the typed request, the handler and how it behaves."""

    name: str
    request_type: type[Any]
    handler: Handler
    mutates: bool
    service: Service
    support: Support
    summary: str
    max_args_bytes: int = MAX_ARGS_BYTES
    """The longest canonical arguments the call accepts (more is refused ``invalid_args``, journaled)."""
    earlier_request_types: tuple[tuple[int, type[Any]], ...] = ()
    """``(format, type)`` for each change of the request's type, oldest first: journals before that format
    decode with that type, so their refusals replay (``syscalls.table.EARLIER``)."""

    def request_type_in(self, format_version: int) -> type[Any]:
        """The type a call's arguments decode into in a journal of ``format_version``."""
        earlier = (kind for until, kind in self.earlier_request_types if format_version < until)
        return next(earlier, self.request_type)


def spec_of(row: Row, earlier: Mapping[type[Any], tuple[tuple[int, type[Any]], ...]]) -> SyscallSpec:
    """A row as its spec; ``earlier`` maps a request type to its ``earlier_request_types``. The request
    type is the annotation of the handler's second parameter (the first is its ``CallContext``): the
    msgspec struct its arguments are strictly decoded into."""
    name, handler, service, flags, summary = row
    parameters = list(inspect.signature(handler).parameters)
    request_type = typing.get_type_hints(handler).get(parameters[1]) if len(parameters) == 2 else None
    if not (isinstance(request_type, type) and issubclass(request_type, msgspec.Struct)):
        raise SyscallTableError(f"syscall {name!r}: the handler's signature names no request type")
    return SyscallSpec(
        name=name,
        request_type=request_type,
        handler=handler,
        mutates=Flag.MUTATES in flags,
        service=service,
        support=Support.UPSTREAM if Flag.UPSTREAM in flags else Support.EXTENSION,
        summary=summary,
        max_args_bytes=MAX_VALUE_ARGS_BYTES if Flag.CARRIES_VALUES in flags else MAX_ARGS_BYTES,
        earlier_request_types=earlier.get(request_type, ()),
    )


class SyscallTable(Mapping[str, SyscallSpec]):
    """Immutable: built from specs once; a duplicate name fails at construction (so at import).

    ``retired`` names calls the table once served and serves no more: a call to one is refused as any
    name outside the table is (``unknown_syscall``), and registering one again fails (names are never
    reused)."""

    def __init__(self, specs: Iterable[SyscallSpec], *, retired: Iterable[str] = ()) -> None:
        self._retired = frozenset(retired)
        table: dict[str, SyscallSpec] = {}
        for spec in specs:
            if spec.name in table:
                raise SyscallTableError(f"syscall {spec.name!r} is registered twice")
            if spec.name in self._retired:
                raise SyscallTableError(f"syscall {spec.name!r} is retired: its name is never reused")
            table[spec.name] = spec
        self._specs = table

    @classmethod
    def of(
        cls,
        rows: Iterable[Row],
        *,
        earlier: Mapping[type[Any], tuple[tuple[int, type[Any]], ...]] | None = None,
        retired: Iterable[str] = (),
    ) -> SyscallTable:
        """The table of one-line rows (``Row``)."""
        return cls((spec_of(row, earlier or {}) for row in rows), retired=retired)

    @property
    def retired(self) -> frozenset[str]:
        """The names retired from this table (none of them is in it)."""
        return self._retired

    def args_limit(self, name: str) -> int:
        """The argument limit of the call ``name`` (the kernel's default for a name outside the table)."""
        spec = self._specs.get(name)
        return MAX_ARGS_BYTES if spec is None else spec.max_args_bytes

    def __getitem__(self, name: str) -> SyscallSpec:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._specs))

    def __len__(self) -> int:
        return len(self._specs)


REFUSED_ARGS_MARKER = "$refused_args"


def record_args(args: object, limit: int = MAX_ARGS_BYTES) -> bytes:
    """The canonical bytes to journal for ``args``; arguments with no acceptable form (or longer than
    ``limit``, the syscall's own) are recorded as ``{"$refused_args": reason}`` so that the refusal replays
    identically."""
    try:
        data = canonical_bytes(args)
    except (CanonicalEncodingError, RecursionError) as exc:
        reason = str(exc) if isinstance(exc, CanonicalEncodingError) else "value nested too deeply"
        return canonical_bytes({REFUSED_ARGS_MARKER: f"arguments have no JSON form: {reason}"})
    except Exception as exc:  # a caller's object that fails when read (a broken mapping, say)
        return canonical_bytes({REFUSED_ARGS_MARKER: f"arguments could not be read: {type(exc).__name__}"})
    if len(data) > limit:
        return canonical_bytes({REFUSED_ARGS_MARKER: f"arguments exceed {limit} bytes ({len(data)})"})
    return data


_REFUSED_PREFIX = b'{"' + REFUSED_ARGS_MARKER.encode() + b'":'
"""How recorded arguments that carry the refusal marker begin (canonical order puts it first)."""


def record_text(value: object, limit: int) -> str:
    """The form of a syscall name or principal that is journaled: the string itself when it is a
    UTF-8-encodable string of at most ``limit`` characters, else the empty string (always refused). A
    ``str`` subclass is copied to a plain ``str`` before any check, so none of its own methods (a ``__len__``
    that lies, one that raises) is ever run; a copy that fails is recorded as ``""``."""
    if not isinstance(value, str):
        return ""
    try:
        text = str.__str__(value)  # a plain copy first: every check below runs on str's own methods
        if len(text) > limit or "\x00" in text:
            return ""
        text.encode("utf-8")
    except Exception:  # UnicodeEncodeError, or whatever a hostile subclass raises
        return ""
    return text


def check_principal(principal: str) -> None:
    """Refuse an empty principal or one with control characters."""
    if not principal or not principal.isprintable():
        raise KernelError(
            ErrorCode.INVALID_PRINCIPAL,
            f"principal must be 1 to {MAX_PRINCIPAL_LENGTH} printable characters",
        )


class RecordedCall(msgspec.Struct, frozen=True):
    """A call in the exact form the journal holds it: what replay feeds back to ``Kernel.execute``."""

    syscall: str
    principal: str
    args: bytes
    recorded_at: str
    result: bytes | None = None
    """The journaled result when a recorded entry is re-executed (verification): ``CallContext.recorded``."""
    identity_refused: bool = False
    """The deployment's identity policy refused the principal (live), or the journal records that it
    did (replay): the call is refused ``principal_not_allowed`` (``kernel.identity``)."""
    unknown_when_recorded: bool = False
    """Replay only: the journal records the name as not in the table then. A later release may add a
    syscall of that name; the entry must still replay as the ``unknown_syscall`` it was."""


class SyscallError(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A refusal: a stable code, its fixed message, and a deterministic detail."""

    code: str
    message: str
    detail: str = ""

    @classmethod
    def of(cls, code: ErrorCode, detail: str = "") -> SyscallError:
        return cls(code=code.value, message=ERROR_MESSAGES[code], detail=detail)


_UNDECODED: Any = object()


class SyscallResult:
    """The outcome of ``Kernel.call``. ``seq`` is the journal entry's seq, or None when nothing was
    journaled (the call was not acknowledged: the storage itself failed).

    An accepted call's ``value`` is what its entry holds (expanded; ``graph.blobs.get``'s with the bytes it
    names), kept encoded, decoded on first access (``from_journaled``): a caller that only checks ``ok``
    (a bulk load, a benchmark) never pays for decoding a large value. Immutable."""

    __slots__ = ("_encoded", "_value", "error", "ok", "seq")
    ok: bool
    seq: int | None
    error: SyscallError | None
    _value: Any
    _encoded: bytes | None

    def __init__(
        self, *, ok: bool, seq: int | None, value: Any = None, error: SyscallError | None = None
    ) -> None:
        object.__setattr__(self, "ok", ok)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_encoded", None)

    @classmethod
    def from_journaled(cls, seq: int, encoded: bytes) -> SyscallResult:
        """An accepted call's result from its journaled bytes (``{"ok":true,"value":...}``)."""
        result = cls(ok=True, seq=seq, value=_UNDECODED)
        object.__setattr__(result, "_encoded", encoded)
        return result

    @property
    def value(self) -> Any:
        if self._value is _UNDECODED:
            assert self._encoded is not None
            object.__setattr__(self, "_value", msgspec.json.decode(self._encoded)["value"])
        return self._value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"SyscallResult is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"SyscallResult is immutable: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SyscallResult):
            return NotImplemented
        return (self.ok, self.seq, self.error, self.value) == (other.ok, other.seq, other.error, other.value)

    __hash__ = None  # type: ignore[assignment]  # the value may be a dict

    def __repr__(self) -> str:
        return f"SyscallResult(ok={self.ok!r}, seq={self.seq!r}, value={self.value!r}, error={self.error!r})"

    @property
    def success(self) -> bool:
        """Upstream's name for ``ok``."""
        return self.ok

    @property
    def result(self) -> Any:
        """Upstream's name for ``value``."""
        return self.value

    def journal_payload(self) -> dict[str, Any]:
        """The result without seq (the row's own), as the journal holds it; in a format that journals
        reads by reference, the whole form the stored one expands to (``kernel.result_pieces``)."""
        if self.ok:
            return {"ok": True, "value": self.value}
        assert self.error is not None
        return {"ok": False, "error": msgspec.to_builtins(self.error)}

    def to_dict(self) -> dict[str, Any]:
        """The JSON form printed by the command line."""
        return {**self.journal_payload(), "seq": self.seq}


class CallContext(msgspec.Struct, frozen=True):
    """What a handler may use: the call's one time, its principal, the services, and what it reads
    (``read``: never the transaction, which only the kernel appends to)."""

    seq: int
    now: datetime
    principal: str
    services: KernelServiceRegistry
    read: Reader
    access_rules: AccessRules
    """The journal's access rules: its format version (never defaulted: no call is decided under rules
    it did not ask for)."""
    format_version: int
    """The journal's format (``kernel.formats``), for what a format changed besides access."""
    recorded: bytes | None = None
    """Verification replay only: the journaled result of the entry being re-executed. A handler reads
    back from it what is not reproducible (a detector's output, the rule set a context was created
    under) instead of recomputing it; live calls get None."""

    def grants(self) -> list[Grant]:
        """The grants the call's principal holds."""
        return self.read.grants.grants_of(self.principal)


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
        self._decoders = {  # a call decodes as its journal's format had it (``earlier_request_types``)
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
            access_rules=self.format.access,
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
        if recorded.args.startswith(_REFUSED_PREFIX):
            raise KernelError(ErrorCode.INVALID_ARGS, str(decode(recorded.args).get(REFUSED_ARGS_MARKER)))
        try:
            request = self._decoders[spec.name].decode(recorded.args)
        except msgspec.DecodeError as exc:
            raise KernelError(ErrorCode.INVALID_ARGS, str(exc)) from None
        if spec.service is not Service.ALWAYS and getattr(self.services, spec.service, None) is None:
            raise KernelError(ErrorCode.NO_MEMORY_SERVICE, f"{spec.service.value} is not bound")
        return spec, request

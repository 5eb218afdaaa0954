"""Traces: one span per executed syscall, through a small hook the dispatcher calls (``CallTracer``), and
its OpenTelemetry implementation (``otel_tracer``; the optional extra ``pip install -e '.[otel]'``).

Nothing here imports OpenTelemetry until ``otel_tracer`` or ``OtelCallTracer`` is called, or
``global_tracer`` finds the process already using it: a kernel in a process that does not use OpenTelemetry
never loads it. The span shape is ``specs/access-and-pipelines.md`` §4.1: the GenAI
semantic conventions' memory span (``gen_ai.memory.client``: span name ``{gen_ai.operation.name}``) for the
syscalls that are memory operations, ``arvis.syscall {name}`` for the others, with the syscall name, the
principal (configurable) and its kind, ``arvis.seq`` and ``arvis.status``; never arguments or results unless
the deployment opts in (``include_contents``), and then only what the journal holds.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

import msgspec

from arvis.access import is_builtin_admin, owner_of
from arvis.canonical import canonical_bytes_of_own
from kernel.errors import ErrorCode

if TYPE_CHECKING:
    from kernel.abi import RecordedCall, SyscallResult, SyscallTable

INSTALL_HINT = "pip install -e '.[otel]'"

MEMORY_OPERATIONS: dict[str, str] = {
    "memory.get": "search_memory",
    "memory.list": "search_memory",
    "memory.snapshot": "search_memory",
    "memory.write": "create_memory",  # upsert_memory with "replace": true (see _operation)
    "memory.revoke": "delete_memory",
    "memory.awmu.create": "create_memory_store",
    "memory.awmu.seed": "create_memory",
    "memory.awmu.propose": "upsert_memory",
    "memory.awmu.get": "search_memory",
    "memory.awmu.list": "search_memory",
    "memory.awmu.assemble": "search_memory",
    "memory.awmu.turn": "update_memory",
    "memory.awmu.pin": "update_memory",
    "memory.awmu.unpin": "update_memory",
    "memory.awmu.archive": "update_memory",
    "memory.awmu.restore": "update_memory",
    "memory.awmu.canonize": "update_memory",
    "memory.awmu.review": "update_memory",
    "memory.awmu.reopen_request": "update_memory",  # a decided request or proposal back to PENDING
    "memory.awmu.close": "delete_memory_store",  # the context ends: nothing in force, no more writes
    "graph.checkpoint.get": "search_memory",
    "graph.checkpoint.list": "search_memory",
    "graph.blobs.get": "search_memory",  # the values' bytes
    "graph.checkpoint.put": "upsert_memory",  # replaces a checkpoint of the same id
    "graph.checkpoint.put_writes": "upsert_memory",  # keeps a regular write, replaces a special one
    "graph.thread.create": "create_memory_store",  # a thread owned by its creator
    "graph.thread.copy": "create_memory",
    "graph.thread.delete": "delete_memory",
    "graph.thread.prune": "delete_memory",
    "graph.runs.delete": "delete_memory",
    "graph.namespace.create": "create_memory_store",  # a namespace owned by its creator
    "graph.store.get": "search_memory",
    "graph.store.search": "search_memory",
    "graph.store.list_namespaces": "search_memory",
    "graph.store.put": "upsert_memory",  # delete_memory with a null value_hash (see _operation)
}
"""The syscalls that are memory operations in the GenAI semantic conventions, with their
``gen_ai.operation.name``. Every syscall of the table is here or in ``OTHER_SYSCALLS``."""

OTHER_SYSCALLS = frozenset(
    {
        "access.grant",
        "access.revoke",
        "access.list",
        "kernel.record",
        "pipeline.begin",
        "pipeline.end",
        "memory.awmu.events",
        "memory.awmu.pressure",
        "memory.awmu.validate_summary",
    }
)
"""The syscalls that are not memory record operations (rights, the kernel's own records, pipeline runs,
working memory's audit log, its pressure measure and summary check): span ``arvis.syscall <name>``, no
GenAI attribute."""

FAILURES = frozenset(
    code.value for code in (ErrorCode.STORAGE_BUSY, ErrorCode.STORAGE_UNAVAILABLE, ErrorCode.INTERNAL_ERROR)
)
"""The codes a span records as an error (status ERROR, ``error.type``): the kernel could not answer
(nothing journaled) or failed while answering. A refusal is the kernel's journaled answer, not an error."""

OTHER = "_OTHER"
"""The conventions' fallback value: the syscall name of a call whose name is not in the table (it is
the caller's text, of any cardinality), and the ``error.type`` of a call an exception escaped."""


def principal_kind(principal: str) -> str:
    """What the principal is to the access rules (``specs/access-and-pipelines.md`` §1.1): ``user`` (the
    owner of a user's memory), ``admin`` (a built-in administrator) or ``other`` (its grants alone): three
    values, never the name, so a span says what kind of caller acted even without ``arvis.principal``."""
    if owner_of(principal) is not None:
        return "user"
    return "admin" if is_builtin_admin(principal) else "other"


class CallSpan(Protocol):
    """One call's span, from ``CallTracer.start``."""

    def end(self, result: SyscallResult | None) -> None:
        """The call returned ``result`` (None: an exception, such as KeyboardInterrupt, escaped it)."""
        ...


class CallTracer(Protocol):
    """Where the dispatcher reports each call it executes: ``start`` before its first attempt, the span's
    ``end`` once it has a result (busy retries included), acknowledged or not. A tracer that raises is
    ignored: tracing never changes a call's result, and ``Kernel.call`` still never raises."""

    def start(
        self,
        call: RecordedCall,
        *,
        known: bool,
        journal_id: str | None,
        batch_size: int | None = None,
    ) -> CallSpan:
        """``known``: the name is in the kernel's table. ``batch_size``: the call is one of a
        ``Kernel.call_many`` batch of that many calls (its span covers the batch, which commits whole; it is
        not made the current span, so the batch's spans are siblings)."""
        ...


def start_span(
    tracer: CallTracer, call: RecordedCall, table: SyscallTable, store: object, batch_size: int | None = None
) -> CallSpan | None:
    """The dispatcher's side of ``CallTracer.start``: None when the tracer raised."""
    try:
        header = getattr(store, "header", None)
        journal_id = getattr(header, "journal_id", None)
        return tracer.start(
            call,
            known=table.get(call.syscall) is not None,
            journal_id=journal_id if isinstance(journal_id, str) else None,
            batch_size=batch_size,
        )
    except Exception:
        return None


def end_span(span: CallSpan | None, result: SyscallResult | None) -> None:
    """The dispatcher's side of ``CallSpan.end``: whatever it raises is ignored."""
    if span is not None:
        with suppress(Exception):
            span.end(result)


class _WriteFlags(msgspec.Struct):
    replace: bool = False


class _StorePutValue(msgspec.Struct):
    value_hash: Any = ""


def _operation(syscall: str, args: bytes) -> str | None:
    """The call's ``gen_ai.operation.name``: a ``memory.write`` with ``"replace": true`` creates or
    supersedes an entry without the caller choosing which, ``upsert_memory`` in the conventions' terms; a
    ``graph.store.put`` with a null ``value_hash`` deletes the item, ``delete_memory``."""
    with suppress(msgspec.DecodeError, UnicodeDecodeError):  # refused invalid_args anyway
        if syscall == "memory.write" and msgspec.json.decode(args, type=_WriteFlags).replace:
            return "upsert_memory"
        if syscall == "graph.store.put" and msgspec.json.decode(args, type=_StorePutValue).value_hash is None:
            return "delete_memory"
    return MEMORY_OPERATIONS.get(syscall)


class OtelCallTracer:
    """The OpenTelemetry ``CallTracer``: one span per call, kind INTERNAL (the memory system runs in the
    caller's process), made the current span while a single call runs.

    ``include_principal``: record ``arvis.principal`` (default True). The principal is an identity, the
    name the caller acts as, not memory content; a deployment whose principal names are personal data turns
    it off. ``include_contents``: also record ``arvis.args`` and ``arvis.result``, the call's arguments as
    the journal holds them and its result as returned (canonical JSON), for acknowledged calls only
    (default False: no argument or result, so no memory contents, ever reaches a span)."""

    def __init__(
        self, tracer: Any, *, include_principal: bool = True, include_contents: bool = False
    ) -> None:
        from opentelemetry import context, trace

        self._tracer = tracer
        self._context = context
        self._trace = trace
        self.include_principal = include_principal
        self.include_contents = include_contents

    def start(
        self,
        call: RecordedCall,
        *,
        known: bool,
        journal_id: str | None,
        batch_size: int | None = None,
    ) -> _OtelSpan:
        name = call.syscall if known else OTHER
        operation = _operation(name, call.args)
        attributes: dict[str, Any] = {"arvis.syscall.name": name}
        if operation is not None:
            attributes["gen_ai.operation.name"] = operation
            if journal_id is not None:
                attributes["gen_ai.memory.store.id"] = journal_id
        if journal_id is not None:
            attributes["arvis.journal.id"] = journal_id
        attributes["arvis.principal.kind"] = principal_kind(call.principal)
        if self.include_principal:
            attributes["arvis.principal"] = call.principal
        if batch_size is not None:
            attributes["arvis.batch.size"] = batch_size
        span = self._tracer.start_span(
            operation or f"arvis.syscall {name}",
            kind=self._trace.SpanKind.INTERNAL,
            attributes=attributes,
        )
        token = (
            None if batch_size is not None else self._context.attach(self._trace.set_span_in_context(span))
        )
        return _OtelSpan(self, span, token, call.args)


class _OtelSpan:
    __slots__ = ("_args", "_owner", "_span", "_token")

    def __init__(self, owner: OtelCallTracer, span: Any, token: object, args: bytes) -> None:
        self._owner, self._span, self._token, self._args = owner, span, token, args

    def end(self, result: SyscallResult | None) -> None:
        span = self._span
        try:
            if span.is_recording():  # a sampled-out span, or the API's no-op one: nothing to set
                self._record(span, result)
        finally:
            try:
                if self._token is not None:
                    self._owner._context.detach(self._token)
            finally:
                span.end()

    def _record(self, span: Any, result: SyscallResult | None) -> None:
        trace = self._owner._trace
        if result is None:
            span.set_attribute("error.type", OTHER)
            span.set_status(trace.Status(trace.StatusCode.ERROR))
            return
        error = result.error
        code = "ok" if result.ok or error is None else error.code
        attributes: dict[str, Any] = {"arvis.status": code}
        if result.seq is not None:
            attributes["arvis.seq"] = result.seq
        if error is not None and (result.seq is None or code in FAILURES):
            attributes["error.type"] = code
            # the code's fixed message, never the detail (a driver's text may quote the data)
            span.set_status(trace.Status(trace.StatusCode.ERROR, error.message))
        if self._owner.include_contents and result.seq is not None:
            attributes["arvis.args"] = self._args.decode("utf-8", "replace")
            attributes["arvis.result"] = canonical_bytes_of_own(result.journal_payload()).decode()
        span.set_attributes(attributes)


def otel_tracer(
    *, tracer_provider: Any = None, include_principal: bool = True, include_contents: bool = False
) -> OtelCallTracer:
    """The OpenTelemetry hook for ``Kernel(tracer=...)`` / ``open_kernel(tracer=...)``, from
    ``opentelemetry.trace.get_tracer("arvis", <version>)`` (the global tracer provider, or
    ``tracer_provider``). ImportError naming the extra to install when the OpenTelemetry API is missing."""
    try:
        from opentelemetry import trace
    except ImportError as exc:
        raise ImportError(
            f"OpenTelemetry tracing needs the OpenTelemetry API: {INSTALL_HINT}"
            " (it installs the opentelemetry-api package)"
        ) from exc
    from importlib.metadata import PackageNotFoundError, version

    try:
        arvis_version: str | None = version("arvis-kernel")
    except PackageNotFoundError:
        arvis_version = None
    return OtelCallTracer(
        trace.get_tracer("arvis", arvis_version, tracer_provider=tracer_provider),
        include_principal=include_principal,
        include_contents=include_contents,
    )


TracerChoice: TypeAlias = CallTracer | Literal["global"] | None
"""What ``open_kernel(tracer=...)`` takes: a tracer, None (no spans), or ``"global"`` (``global_tracer``)."""


def global_tracer() -> OtelCallTracer | None:
    """The OpenTelemetry hook on the process's global tracer provider, when the process uses OpenTelemetry
    and has set one (``trace.set_tracer_provider``, ``opentelemetry-instrument``, the command line's
    ``tools.tracing``, or ``OTEL_PYTHON_TRACER_PROVIDER``); else None, and OpenTelemetry is not imported
    unless the process had imported it already. A provider set only after the kernel is opened is not
    seen: no kernel pays for spans nobody records."""
    if "opentelemetry.trace" not in sys.modules and "OTEL_PYTHON_TRACER_PROVIDER" not in os.environ:
        return None
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    provider = trace.get_tracer_provider()
    if isinstance(provider, (trace.ProxyTracerProvider, trace.NoOpTracerProvider)):
        return None
    return otel_tracer(tracer_provider=provider)

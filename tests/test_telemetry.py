"""One OpenTelemetry span per syscall (kernel/telemetry.py, specs/access-and-pipelines.md §4.1): the GenAI
memory span's names, seq and status as attributes, no memory contents unless opted in, never a raised call."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from journal.reader import JournalReader
from kernel.abi import RecordedCall, SyscallResult
from kernel.dispatcher import Kernel
from kernel.protocols import StorageBusy, StorageError
from kernel.telemetry import INSTALL_HINT, MEMORY_OPERATIONS, OTHER_SYSCALLS, CallSpan, otel_tracer
from syscalls.table import SYSCALL_TABLE

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "admin:ops"
USER = "u-4711"
WRITE = {
    "user_id": USER,
    "key": "secret_key",
    "memory_type": "rule",
    "source": "explicit_user",
    "value_ref": "vault:very-private",
}
CONVENTION_OPERATIONS = {
    "create_memory_store",
    "search_memory",
    "create_memory",
    "update_memory",
    "upsert_memory",
    "delete_memory",
    "delete_memory_store",
}
"""The memory span's operations (semantic-conventions-genai, docs/gen-ai/gen-ai-spans.md, Memory)."""


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> Iterator[TracerProvider]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider
    provider.shutdown()


@pytest.fixture
def traced(kernel_factory: Callable[..., Kernel], provider: TracerProvider) -> Callable[..., Kernel]:
    """A kernel whose spans go to ``exporter``; keywords go to ``otel_tracer``."""

    def make(**options: Any) -> Kernel:
        return kernel_factory(tracer=otel_tracer(tracer_provider=provider, **options))

    return make


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, str):
        yield value


def _attribute_text(spans: Any) -> list[str]:
    return [str(value) for span in spans for value in (span.attributes or {}).values()]


def _journal_id(kernel: Kernel) -> str:
    return kernel.store.header.journal_id  # type: ignore[attr-defined, no-any-return]


def test_one_span_per_call_with_the_memory_span_shape(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter
) -> None:
    kernel = traced()
    results = [
        kernel.call("memory.write", WRITE, principal=ADMIN),
        kernel.call("memory.write", {**WRITE, "replace": True}, principal=ADMIN),
        kernel.call("memory.get", {"user_id": USER, "key": "secret_key"}, principal=ADMIN),
        kernel.call("memory.get", {"user_id": USER, "key": "missing_key"}, principal=ADMIN),
        kernel.call("access.list", {}, principal=ADMIN),
        kernel.call("no.such.call", {"payload": "caller-text"}, principal=ADMIN),
    ]
    spans = exporter.get_finished_spans()
    assert [span.name for span in spans] == [
        "create_memory",
        "upsert_memory",
        "search_memory",
        "search_memory",
        "arvis.syscall access.list",
        "arvis.syscall _OTHER",
    ]
    journal_id = _journal_id(kernel)
    memory = {"gen_ai.memory.store.id": journal_id}
    common = {"arvis.journal.id": journal_id, "arvis.principal.kind": "admin", "arvis.principal": ADMIN}
    assert [dict(span.attributes or {}) for span in spans] == [
        {"arvis.syscall.name": "memory.write", "gen_ai.operation.name": "create_memory", **memory, **common,
         "arvis.status": "ok", "arvis.seq": 1},
        {"arvis.syscall.name": "memory.write", "gen_ai.operation.name": "upsert_memory", **memory, **common,
         "arvis.status": "ok", "arvis.seq": 2},
        {"arvis.syscall.name": "memory.get", "gen_ai.operation.name": "search_memory", **memory, **common,
         "arvis.status": "ok", "arvis.seq": 3},
        {"arvis.syscall.name": "memory.get", "gen_ai.operation.name": "search_memory", **memory, **common,
         "arvis.status": "memory_entry_not_found", "arvis.seq": 4},
        {"arvis.syscall.name": "access.list", **common, "arvis.status": "ok", "arvis.seq": 5},
        {"arvis.syscall.name": "_OTHER", **common, "arvis.status": "unknown_syscall", "arvis.seq": 6},
    ]  # fmt: skip
    assert [result.seq for result in results] == [1, 2, 3, 4, 5, 6]
    # a refusal is the kernel's journaled answer: its code is arvis.status, the span is no error
    assert all(span.kind is SpanKind.INTERNAL for span in spans)
    assert all(span.status.status_code is StatusCode.UNSET for span in spans)
    assert all(span.end_time is not None and span.start_time is not None for span in spans)
    assert all(span.instrumentation_scope is not None for span in spans)
    assert {span.instrumentation_scope.name for span in spans if span.instrumentation_scope} == {"arvis"}


def test_no_argument_or_result_value_reaches_a_span(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter
) -> None:
    kernel = traced()
    calls: list[tuple[str, dict[str, Any]]] = [
        ("memory.write", WRITE),
        ("memory.get", {"user_id": USER, "key": "secret_key"}),
        ("memory.get", {"user_id": USER, "key": "missing_key"}),
        ("memory.list", {"user_id": USER}),
        ("memory.revoke", {"user_id": USER, "key": "secret_key"}),
        ("no.such.call", {"payload": "caller-text"}),
    ]
    results = [kernel.call(name, args, principal=ADMIN) for name, args in calls]
    results += kernel.call_many([(name, args, ADMIN) for name, args in calls])
    text = _attribute_text(exporter.get_finished_spans())
    assert len(exporter.get_finished_spans()) == 2 * len(calls)
    secrets = {leaf for _, args in calls for leaf in _leaves(args)} | {"no.such.call"}
    # what the results hold: their values and the refusals' details
    secrets |= {leaf for result in results if result.ok for leaf in _leaves(result.value)}
    secrets |= {result.error.detail for result in results if result.error is not None}
    assert all(secret not in value for secret in secrets for value in text), sorted(
        (secret, value) for secret in secrets for value in text if secret in value
    )


def test_call_many_gives_each_call_a_sibling_span(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter, provider: TracerProvider
) -> None:
    kernel = traced()
    with provider.get_tracer("test").start_as_current_span("agent step") as outer:
        results = kernel.call_many(
            [
                ("memory.write", WRITE, ADMIN),
                ("memory.get", {"user_id": USER, "key": "missing_key"}, ADMIN),
                ("memory.snapshot", {"user_id": USER}, ADMIN),
            ]
        )
    spans = [span for span in exporter.get_finished_spans() if span.name != "agent step"]
    assert [span.name for span in spans] == ["create_memory", "search_memory", "search_memory"]
    assert [span.attributes["arvis.seq"] for span in spans if span.attributes] == [r.seq for r in results]
    assert [span.attributes["arvis.status"] for span in spans if span.attributes] == [
        "ok",
        "memory_entry_not_found",
        "ok",
    ]
    assert all(span.attributes and span.attributes["arvis.batch.size"] == 3 for span in spans)
    parent = outer.get_span_context().span_id
    assert all(span.parent is not None and span.parent.span_id == parent for span in spans)


def test_a_single_call_span_is_current_while_it_runs(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter, provider: TracerProvider
) -> None:
    kernel = traced()
    seen: list[trace.Span] = []
    store = kernel.store

    class Watching:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def transaction(self, **options: Any) -> Any:
            seen.append(trace.get_current_span())
            return store.transaction(**options)

    kernel.store = Watching()
    with provider.get_tracer("test").start_as_current_span("agent step") as outer:
        kernel.call("memory.get", {"user_id": USER, "key": "missing_key"}, principal=ADMIN)
        assert trace.get_current_span() is outer  # the kernel's span is detached again
    (span,) = [span for span in exporter.get_finished_spans() if span.name == "search_memory"]
    assert [watched.get_span_context().span_id for watched in seen] == [span.context.span_id]
    assert span.parent is not None and span.parent.span_id == outer.get_span_context().span_id


class BusyStore:
    """The store, except that every transaction finds the write lock busy (after 20 ms), and every batch
    fails."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.attempts: list[trace.Span] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def transaction(self, **options: Any) -> Any:
        self.attempts.append(trace.get_current_span())
        time.sleep(0.02)
        raise StorageBusy("database is locked")

    def batch(self, **options: Any) -> Any:
        raise StorageError("OperationalError: disk I/O error")


def _error_span(span: ReadableSpan, code: str) -> None:
    attributes = dict(span.attributes or {})
    assert "arvis.seq" not in attributes
    assert attributes["arvis.status"] == attributes["error.type"] == code
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description is not None and "locked" not in span.status.description
    assert "disk I/O" not in span.status.description  # the fixed message, never the driver's text


def test_unacknowledged_calls_end_their_span_after_every_retry(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter
) -> None:
    kernel = traced()
    busy = BusyStore(kernel.store)
    kernel.store = busy
    result = kernel.call("memory.get", {"user_id": USER, "key": "k"}, principal=ADMIN)
    assert result.seq is None and result.error is not None and result.error.code == "storage_busy"
    (span,) = exporter.get_finished_spans()
    _error_span(span, "storage_busy")
    assert len(busy.attempts) == kernel.busy_retries + 1
    assert all(attempt.get_span_context().span_id == span.context.span_id for attempt in busy.attempts)
    assert span.end_time is not None and span.start_time is not None
    assert span.end_time - span.start_time >= len(busy.attempts) * 20_000_000  # the retries are inside
    assert not trace.get_current_span().get_span_context().is_valid

    exporter.clear()
    results = kernel.call_many([("memory.get", {"user_id": USER, "key": "k"}, ADMIN)] * 2)
    assert [r.seq for r in results] == [None, None]
    spans = exporter.get_finished_spans()
    assert len(spans) == 2
    for span in spans:
        _error_span(span, "storage_unavailable")


def test_a_span_is_ended_when_an_exception_escapes_the_call(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter
) -> None:
    kernel = traced()
    store = kernel.store

    class Interrupted:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def transaction(self, **options: Any) -> Any:
            raise KeyboardInterrupt

    kernel.store = Interrupted()
    with pytest.raises(KeyboardInterrupt):
        kernel.call("memory.get", {"user_id": USER, "key": "k"}, principal=ADMIN)
    (span,) = exporter.get_finished_spans()
    assert span.attributes is not None and span.attributes["error.type"] == "_OTHER"
    assert span.status.status_code is StatusCode.ERROR
    assert not trace.get_current_span().get_span_context().is_valid


class RaisingTracer:
    def __init__(self, where: str) -> None:
        self.where = where
        self.started = 0

    def start(self, call: RecordedCall, **_: Any) -> CallSpan:
        self.started += 1
        if self.where == "start":
            raise RuntimeError("tracer broke")
        return self

    def end(self, result: SyscallResult | None) -> None:
        raise RuntimeError("span broke")


@pytest.mark.parametrize("where", ["start", "end"])
def test_a_raising_tracer_does_not_break_calls(kernel_factory: Callable[..., Kernel], where: str) -> None:
    tracer = RaisingTracer(where)
    traced, plain = kernel_factory(tracer=tracer), kernel_factory()
    for kernel in (traced, plain):
        kernel.call("memory.write", WRITE, principal=ADMIN)
    calls: list[tuple[object, object, object]] = [
        ("memory.get", {"user_id": USER, "key": "secret_key"}, ADMIN),
        ("memory.get", {"user_id": USER, "key": "missing_key"}, ADMIN),
    ]
    assert [traced.call(*call[:2], principal=call[2]) for call in calls] == [
        plain.call(*call[:2], principal=call[2]) for call in calls
    ]
    assert traced.call_many(calls) == plain.call_many(calls)
    assert tracer.started == 1 + 2 + 2


def test_contents_only_on_opt_in_and_only_as_journaled(
    traced: Callable[..., Kernel], exporter: InMemorySpanExporter
) -> None:
    kernel = traced(include_contents=True, include_principal=False)
    kernel.call("memory.write", WRITE, principal=ADMIN)
    kernel.call("memory.get", {"user_id": USER, "key": "missing_key"}, principal=ADMIN)
    entries = list(JournalReader(kernel.store.engine).entries())  # type: ignore[attr-defined]
    spans = exporter.get_finished_spans()
    assert [span.attributes["arvis.args"] for span in spans if span.attributes] == [
        entry.args.decode() for entry in entries
    ]
    assert [span.attributes["arvis.result"] for span in spans if span.attributes] == [
        entry.result.decode() for entry in entries
    ]
    assert all(span.attributes and "arvis.principal" not in span.attributes for span in spans)
    assert all(span.attributes and span.attributes["arvis.principal.kind"] == "admin" for span in spans)

    exporter.clear()
    kernel.store = BusyStore(kernel.store)
    kernel.call("memory.get", {"user_id": USER, "key": "k"}, principal=ADMIN)
    (span,) = exporter.get_finished_spans()  # not acknowledged: the journal holds nothing of it
    assert span.attributes is not None
    assert "arvis.args" not in span.attributes and "arvis.result" not in span.attributes


def test_the_memory_operations_are_the_conventions_and_the_tables() -> None:
    assert set(MEMORY_OPERATIONS) <= set(dict(SYSCALL_TABLE.items()))
    assert set(MEMORY_OPERATIONS.values()) <= CONVENTION_OPERATIONS


def test_every_syscall_is_classified_once() -> None:
    """A memory operation or explicitly not one: a new (or renamed) syscall cannot be forgotten."""
    table = set(dict(SYSCALL_TABLE.items()))
    memory, other = set(MEMORY_OPERATIONS), set(OTHER_SYSCALLS)
    assert not memory & other
    assert sorted(table - memory - other) == []
    assert sorted((memory | other) - table) == []  # no stale name either


def test_a_store_put_of_null_is_a_delete() -> None:
    from kernel.telemetry import _operation

    put = b'{"namespace":["u"],"key":"k","value_hash":'
    assert _operation("graph.store.put", put + b'"' + b"0" * 64 + b'"}') == "upsert_memory"
    assert _operation("graph.store.put", put + b"null}") == "delete_memory"
    assert _operation("graph.store.put", b"[1]") == "upsert_memory"  # refused invalid_args anyway
    assert _operation("memory.write", b'{"replace":true}') == "upsert_memory"
    assert _operation("memory.write", b"{}") == "create_memory"


def test_without_a_tracer_opentelemetry_is_never_imported() -> None:
    code = (
        "import sys\n"
        "from syscalls.boot import open_kernel\n"
        "kernel = open_kernel(':memory:')\n"
        "kernel.call('memory.get', {'user_id': 'u1', 'key': 'k'}, principal='user:u1')\n"
        "kernel.call_many([('memory.get', {'user_id': 'u1', 'key': 'k'}, 'user:u1')])\n"
        "kernel.close()\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'opentelemetry'))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert completed.stdout.strip() == "[]"


def test_otel_tracer_names_the_extra_when_the_api_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    with pytest.raises(ImportError, match=r"pip install -e '\.\[otel\]'"):
        otel_tracer()
    assert INSTALL_HINT == "pip install -e '.[otel]'"

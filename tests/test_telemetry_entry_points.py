"""Spans from every entry point (issue 39 item 4; ``specs/access-and-pipelines.md`` §4.1): ``open_kernel`` on
the global tracer provider an application sets, ``arvis call`` and ``arvis mcp`` exporting over OTLP/HTTP to
a collector where the standard ``OTEL_*`` variables say (here one on loopback that the test starts), and no
OpenTelemetry import at all when nothing asks for traces."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tools.tracing import requested_exporters

ROOT = Path(__file__).resolve().parent.parent
WRITE = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}


def _env(**otel: str) -> dict[str, str]:
    """This interpreter's environment without any OTEL_* variable, running this checkout, plus ``otel``."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("OTEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"  # the collector is on loopback
    return {**env, **otel}


def _python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


GLOBAL_PROVIDER = """
import json
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from syscalls.boot import open_kernel
from kernel.identity import VouchedPrincipals

early = open_kernel(':memory:')  # opened before the application set its provider: no spans
exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)
kernel = open_kernel(':memory:', identity=VouchedPrincipals(administrators=True))  # vouches for admin:ops
kernel.call('memory.write', WRITE, principal='user:u1')
kernel.call('memory.get', {'user_id': 'u1', 'key': 'language'}, principal='user:u1')
kernel.call('memory.get', {'user_id': 'u2', 'key': 'language'}, principal='agent:planner')
kernel.call_many([('access.list', {}, 'admin:ops')])
for silent in (early, open_kernel(':memory:', tracer=None)):
    silent.call('memory.get', {'user_id': 'u1', 'key': 'language'}, principal='user:u1')
print(json.dumps([[span.name, dict(span.attributes)] for span in exporter.get_finished_spans()]))
"""


def test_a_global_tracer_provider_alone_gives_a_span_per_call() -> None:
    spans = json.loads(_python(f"WRITE = {WRITE!r}\n{GLOBAL_PROVIDER}", _env()))
    assert [name for name, _ in spans] == [
        "create_memory",
        "search_memory",
        "search_memory",
        "arvis.syscall access.list",
    ]
    journal = spans[0][1]["arvis.journal.id"]
    assert [
        {key: attributes.get(key) for key in ("arvis.syscall.name", "arvis.principal.kind", "arvis.status")}
        for _, attributes in spans
    ] == [
        {"arvis.syscall.name": "memory.write", "arvis.principal.kind": "user", "arvis.status": "ok"},
        {"arvis.syscall.name": "memory.get", "arvis.principal.kind": "user", "arvis.status": "ok"},
        {"arvis.syscall.name": "memory.get", "arvis.principal.kind": "other",
         "arvis.status": "memory_policy_denied"},
        {"arvis.syscall.name": "access.list", "arvis.principal.kind": "admin", "arvis.status": "ok"},
    ]  # fmt: skip
    assert [attributes["arvis.seq"] for _, attributes in spans] == [1, 2, 3, 4]
    assert spans[3][1]["arvis.batch.size"] == 1
    assert all(attributes["arvis.journal.id"] == journal for _, attributes in spans)


class _Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP traces endpoint: keeps every POST to /v1/traces, answers an empty success."""

    received: list[bytes]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/v1/traces":
            self.server.received.append(body)  # type: ignore[attr-defined]
        self.send_response(200 if self.path == "/v1/traces" else 404)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def collector() -> Iterator[tuple[str, list[bytes]]]:
    """A collector on 127.0.0.1 (a free port): its endpoint URL and the request bodies it received."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    received: list[bytes] = []
    server.received = received  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _otlp_env(endpoint: str) -> dict[str, str]:
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="pip install -e '.[otel]'")
    return _env(
        OTEL_TRACES_EXPORTER="otlp",
        OTEL_EXPORTER_OTLP_PROTOCOL="http/protobuf",
        OTEL_EXPORTER_OTLP_ENDPOINT=endpoint,
    )


def _exported(bodies: list[bytes]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each span the collector received: name, attributes, its resource's attributes."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    from opentelemetry.proto.common.v1.common_pb2 import KeyValue

    def values(pairs: Any) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for pair in pairs:
            assert isinstance(pair, KeyValue)
            found[pair.key] = getattr(pair.value, str(pair.value.WhichOneof("value")))
        return found

    spans: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for body in bodies:
        request = ExportTraceServiceRequest.FromString(body)
        for resource in request.resource_spans:
            for scope in resource.scope_spans:
                assert scope.scope.name == "arvis"
                spans.extend(
                    (s.name, values(s.attributes), values(resource.resource.attributes)) for s in scope.spans
                )
    return spans


def test_arvis_call_exports_its_span_to_the_otlp_endpoint(
    tmp_path: Path, collector: tuple[str, list[bytes]]
) -> None:
    endpoint, received = collector
    command = ["call", "memory.write", "--db", str(tmp_path / "j.db"), "--create", "--principal", "user:u1"]
    done = subprocess.run(
        [sys.executable, "-m", "tools.cli", *command, "--args", json.dumps(WRITE)],
        cwd=ROOT, env=_otlp_env(endpoint), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["seq"] == 1  # stdout is the answer alone
    ((name, attributes, resource),) = _exported(received)
    assert name == "create_memory"
    assert attributes["arvis.syscall.name"] == "memory.write"
    assert (attributes["arvis.seq"], attributes["arvis.status"]) == (1, "ok")
    assert (attributes["arvis.principal"], attributes["arvis.principal.kind"]) == ("user:u1", "user")
    assert resource["service.name"] == "arvis"


def test_arvis_mcp_exports_a_span_per_tool_call(tmp_path: Path, collector: tuple[str, list[bytes]]) -> None:
    mcp = pytest.importorskip("mcp")
    import anyio
    from mcp.client.stdio import StdioServerParameters, stdio_client

    endpoint, received = collector
    db = tmp_path / "j.db"
    env = _otlp_env(endpoint)
    args = ["-m", "tools.cli", "mcp", "--db", str(db), "--principal", "user:u1", "--create"]
    server = StdioServerParameters(command=sys.executable, args=args, cwd=str(ROOT), env=env)

    async def main() -> None:
        with (tmp_path / "server.log").open("w") as errlog:
            async with (
                stdio_client(server, errlog=errlog) as (read, write),
                mcp.ClientSession(read, write) as session,
            ):
                await session.initialize()
                for tool, arguments in (("memory_write", WRITE), ("memory_list", {"user_id": "u1"})):
                    assert not (await session.call_tool(tool, arguments)).is_error

    anyio.run(main)
    names = [
        (name, attributes["arvis.syscall.name"], attributes["arvis.seq"])
        for name, attributes, _ in _exported(received)
    ]
    assert names == [("create_memory", "memory.write", 1), ("search_memory", "memory.list", 2)]


NO_IMPORT = """
import importlib, pkgutil, sys
for package in ('arvis', 'kernel', 'journal', 'syscalls', 'tools'):
    for module in pkgutil.walk_packages(importlib.import_module(package).__path__, package + '.'):
        if module.name.startswith('journal.migrations.') or module.name.endswith('__main__'):
            continue  # alembic's scripts, run by alembic only
        try:
            importlib.import_module(module.name)
        except ImportError as exc:  # an optional extra that is not installed (its own module's name)
            assert 'opentelemetry' not in str(exc), exc
from tools.cli import main
code = main(['call', 'memory.write', '--db', DB, '--create', '--principal', 'user:u1', '--args', ARGS])
assert code == 0
print(sorted(name for name in sys.modules if name.split('.')[0] == 'opentelemetry'))
"""


@pytest.mark.parametrize(
    "otel",
    [
        {},
        {"OTEL_TRACES_EXPORTER": "none"},
        {"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"},
    ],
    ids=["unset", "none", "disabled"],
)
def test_without_traces_asked_for_opentelemetry_is_never_imported(
    tmp_path: Path, otel: dict[str, str]
) -> None:
    code = f"DB = {str(tmp_path / 'j.db')!r}\nARGS = {json.dumps(WRITE)!r}\n{NO_IMPORT}"
    assert _python(code, _env(**otel)).splitlines()[-1] == "[]"


def test_the_exporters_the_environment_asks_for() -> None:
    assert requested_exporters({}) == []
    assert requested_exporters({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}) == ["otlp"]
    assert requested_exporters({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}) == ["otlp"]
    assert (
        requested_exporters({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"}) == []
    )
    assert requested_exporters({"OTEL_TRACES_EXPORTER": " OTLP, console,otlp,none "}) == ["otlp", "console"]
    assert requested_exporters({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "True"}) == []


def test_an_unknown_exporter_is_a_warning_and_the_call_still_runs(tmp_path: Path) -> None:
    pytest.importorskip("opentelemetry.sdk")
    command = ["call", "memory.list", "--db", str(tmp_path / "j.db"), "--create", "--principal", "user:u1"]
    done = subprocess.run(
        [sys.executable, "-m", "tools.cli", *command, "--args", '{"user_id": "u1"}'],
        cwd=ROOT, env=_env(OTEL_TRACES_EXPORTER="zipkin-json"), capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    assert "unknown exporter 'zipkin-json'" in done.stderr

"""Traces for the commands that run syscalls (``arvis call``, ``arvis mcp``): the OpenTelemetry SDK,
configured from the standard environment variables, and only when they ask for traces.

``OTEL_TRACES_EXPORTER`` names the exporters (``otlp``, ``console``, ``none``; comma-separated); unset, an
OTLP endpoint (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) asks for ``otlp``,
and with neither the command records no spans and never imports OpenTelemetry. ``OTEL_SDK_DISABLED=true``
turns it all off. The OTLP protocol is ``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL``, else
``OTEL_EXPORTER_OTLP_PROTOCOL``, else ``http/protobuf`` (the specification's default; ``grpc`` needs
``opentelemetry-exporter-otlp-proto-grpc``); the exporter itself reads the endpoint, headers, timeout and
certificates, and the SDK the sampler and resource variables. ``service.name`` is ``arvis`` unless the
environment names one. The spans are the kernel's (``kernel.telemetry``, ``specs/access-and-pipelines.md``
§4.1), exported in batches and flushed when the command ends. Telemetry never changes a command's answer: a
missing package or an unknown exporter is a warning on stderr, and the command runs without it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kernel.telemetry import TracerChoice


INSTALL_HINT = "pip install -e '.[otel]'"
ENDPOINTS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
_OTLP_MODULES = {
    "http/protobuf": (
        "opentelemetry.exporter.otlp.proto.http.trace_exporter",
        "opentelemetry-exporter-otlp-proto-http",
    ),
    "grpc": (
        "opentelemetry.exporter.otlp.proto.grpc.trace_exporter",
        "opentelemetry-exporter-otlp-proto-grpc",
    ),
}
"""Per OTLP protocol, the module holding its ``OTLPSpanExporter`` and the package that installs it."""


def requested_exporters(environ: Mapping[str, str]) -> list[str]:
    """The exporters the environment asks for, in order, without ``none`` or repeats (empty: no traces)."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return []
    named = environ.get("OTEL_TRACES_EXPORTER", "").strip()
    if not named:
        return ["otlp"] if any(environ.get(name, "").strip() for name in ENDPOINTS) else []
    names = (name.strip().lower() for name in named.split(","))
    return list(dict.fromkeys(name for name in names if name and name != "none"))


@contextlib.contextmanager
def command_tracer() -> Iterator[TracerChoice]:
    """What the command's ``open_kernel(tracer=...)`` takes while it runs: a tracer on a provider of its
    own that exports where the environment says (shut down, so flushed, when the command ends), or
    ``"global"`` when the environment asks for no traces (without OpenTelemetry imported, none)."""
    names = requested_exporters(os.environ)
    provider = _provider(names) if names else None
    if provider is None:
        yield "global"
        return
    from kernel.telemetry import otel_tracer

    try:
        yield otel_tracer(tracer_provider=provider)
    finally:
        provider.shutdown()


def _provider(names: list[str]) -> Any:
    """An SDK tracer provider with a batch processor per exporter that could be made; None without any."""
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        _warn(f"traces asked for ({', '.join(names)}), but the OpenTelemetry SDK is missing: {INSTALL_HINT}")
        return None
    exporters = [exporter for exporter in map(_exporter, names) if exporter is not None]
    if not exporters:
        return None
    resource = Resource.create()
    if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
        resource = resource.merge(Resource({"service.name": "arvis"}))
    provider = TracerProvider(resource=resource)
    for exporter in exporters:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def _exporter(name: str) -> Any:
    """The span exporter ``name`` stands for, or None (warned) when it is unknown or not installed."""
    if name == "console":  # stderr: stdout carries the command's answer (and arvis mcp's protocol)
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter(out=sys.stderr)
    if name != "otlp":
        _warn(f"OTEL_TRACES_EXPORTER: unknown exporter {name!r} ignored (arvis knows otlp, console, none)")
        return None
    protocol = (
        os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
        or ""
    ).strip() or "http/protobuf"
    if protocol not in _OTLP_MODULES:
        _warn(f"OTLP protocol {protocol!r} is not supported here (http/protobuf or grpc)")
        return None
    module_name, package = _OTLP_MODULES[protocol]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        hint = INSTALL_HINT if protocol == "http/protobuf" else f"pip install {package}"
        _warn(f"the OTLP exporter for {protocol} is not installed ({package}): {hint}")
        return None
    return module.OTLPSpanExporter()


def _warn(message: str) -> None:
    print(f"arvis: warning: {message} (the command runs without it)", file=sys.stderr)

"""Logging for the command line (the only place logging is configured): structlog, one event per call.

JSON lines when stderr is a pipe or a file, a readable console rendering on a terminal. The level comes
from ``--log-level`` or ``ARVIS_LOG_LEVEL`` (default ``warning``, which hides the per-call ``info``
events). Events carry the syscall, seq, principal, status and duration; never arguments or results.
"""

from __future__ import annotations

import logging
import os
import sys

import structlog

from kernel.dispatcher import CallLogger

__all__ = ["LEVELS", "call_logger", "configure_logging"]

LEVELS = ("debug", "info", "warning", "error")


def configure_logging(level: str | None = None) -> None:
    chosen = (level or os.environ.get("ARVIS_LOG_LEVEL") or "warning").lower()
    if chosen not in LEVELS:
        chosen = "warning"
    renderer: structlog.types.Processor = (
        structlog.dev.ConsoleRenderer(colors=False)
        if sys.stderr.isatty()
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, chosen.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def call_logger() -> CallLogger:
    logger: CallLogger = structlog.get_logger("arvis.kernel")
    return logger

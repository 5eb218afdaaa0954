"""Logging for the command line (the only place logging is configured): structlog, one event per call.

JSON lines when stderr is a pipe or a file, a readable console rendering on a terminal. The level comes
from ``--log-level`` or ``ARVIS_LOG_LEVEL`` (default ``warning``, which hides the per-call ``info``
events). Events carry the syscall, seq, principal, status and duration; never arguments or results.

Only ``arvis call`` logs, so structlog is configured (and imported) when its logger is asked for, and
only at a level that shows the call events: ``configure_logging`` just records the level, and no other
command, nor a call at the default level, loads structlog (with the rich tracebacks it brings, about as
long to import as SQLAlchemy).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kernel.dispatcher import CallLogger

LEVELS = ("debug", "info", "warning", "error")

_level: str | None = None
"""The level ``configure_logging`` was last given (None: the environment's or the default)."""


def configure_logging(level: str | None = None) -> None:
    """Record the level; ``call_logger`` applies it."""
    global _level
    _level = level


def call_logger() -> CallLogger | None:
    """The kernel's call logger, structlog configured at the level in force; None when that level hides
    the call events (they are ``info``), so that nothing is built, or imported, only to be dropped."""
    # the level in force: --log-level, else $ARVIS_LOG_LEVEL, else warning (unknown: warning)
    chosen = (_level or os.environ.get("ARVIS_LOG_LEVEL") or "warning").lower()
    chosen = chosen if chosen in LEVELS else "warning"
    if getattr(logging, chosen.upper()) > logging.INFO:
        return None
    import structlog

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
    logger: CallLogger = structlog.get_logger("arvis.kernel")
    return logger

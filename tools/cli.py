"""Entry point of ``arvis``. Exit codes: 0 success, 1 a check or syscall failed, 2 usage or I/O."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from kernel.protocols import StorageError
from tools import cmd_call, cmd_copy, cmd_db, cmd_demo, cmd_journal, cmd_scenario
from tools.common import EXIT_USAGE, CommandError
from tools.logs import LEVELS, configure_logging

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arvis", description="A deterministic, auditable memory kernel: syscalls, journal, audit."
    )
    parser.add_argument(
        "--log-level",
        choices=LEVELS,
        help="per-call log events on stderr at info (default: $ARVIS_LOG_LEVEL or warning)",
    )
    subparsers = parser.add_subparsers(dest="subcommand", required=True)
    for module in (cmd_call, cmd_journal, cmd_copy, cmd_db, cmd_demo, cmd_scenario):  # copy joins journal
        module.register(subparsers)
    return parser


def _tolerant_streams() -> None:
    """Arguments that are not valid UTF-8 (or lone surrogates) are echoed escaped, never a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_streams()
    parser = build_parser()
    options = parser.parse_args(argv)
    configure_logging(options.log_level)
    try:
        code: int = options.run(options)
    except CommandError as exc:
        print(f"arvis: {exc}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return EXIT_USAGE
    except StorageError as exc:
        print(f"arvis: storage error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_USAGE
    except Exception as exc:  # never a traceback for an operator
        print(f"arvis: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return code


if __name__ == "__main__":
    sys.exit(main())

"""Entry point of ``arvis``. Exit codes: 0 success, 1 a check or syscall failed, 2 usage or I/O."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kernel.protocols import StorageError
from tools import cmd_call, cmd_db, cmd_demo, cmd_journal, cmd_scenario
from tools.common import EXIT_USAGE, CommandError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arvis", description="A deterministic, auditable memory kernel: syscalls, journal, audit."
    )
    subparsers = parser.add_subparsers(dest="subcommand", required=True)
    for module in (cmd_call, cmd_journal, cmd_db, cmd_demo, cmd_scenario):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
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

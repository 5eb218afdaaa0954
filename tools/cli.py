"""Entry point of ``arvis``. Exit codes: 0 success, 1 a check or syscall failed, 2 usage or I/O.

Start-up stays cheap: the command modules only register their arguments, and what a command runs on
(SQLAlchemy, the kernel, rich, the scenario tools) is imported when it runs, so each command loads only
what it uses (tests/test_cli_startup.py checks this).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, cast

from tools import cmd_call, cmd_copy, cmd_db, cmd_demo, cmd_journal, cmd_mcp, cmd_syscalls
from tools.common import EXIT_USAGE, CommandError, short_name
from tools.logs import LEVELS, configure_logging
from tools.scenario import args as scenario_args

DISTRIBUTION = "arvis-kernel"
"""The installed distribution whose version ``arvis --version`` prints (pyproject.toml's name)."""


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked (importlib.metadata costs more than
    building the whole parser)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str = "") -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        version = installed_version() or "(not installed: run `pip install -e .`)"
        sys.stdout.write(f"{parser.prog} {version}\n")
        parser.exit()


def installed_version() -> str | None:
    """The version of the installed distribution (also what ``arvis mcp`` tells its clients); None when
    it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return None


def _close(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate ``word`` was most likely meant to be (``difflib``), or None."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


class ArvisParser(argparse.ArgumentParser):
    """argparse with did-you-mean: a mistyped subcommand or choice names the one meant, and ``-o FILE``
    (the old spelling of ``journal keygen`` and ``checkpoint --sign``) points to ``--out FILE``. Every
    subcommand's parser is one of these (``add_subparsers`` makes parsers of the parent's class)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            writes = "--out" in self._option_string_actions
            raise argparse.ArgumentError(action, exc.message + _choice_hint(action, value, writes)) from None


def _unrecognized(command: argparse.ArgumentParser, extras: Sequence[str]) -> NoReturn:
    """``unrecognized arguments``, from the command's own parser (its usage, not the top level's), with
    the flag meant when one is close."""
    message = f"unrecognized arguments: {' '.join(extras)}"
    flags = [option for action in command._actions for option in action.option_strings]
    for extra in extras:
        meant = _close(extra.partition("=")[0], flags) if extra.startswith("-") else None
        if "--args" in flags and extra[:1] != "-" and ("{" in extra or "=" in extra):  # --args forgotten
            meant = f"--args '{extra}'" if extra[:1] == "{" else """--args '{"NAME": "VALUE"}'"""
        if meant is not None:
            message += f"; did you mean {meant}?"
            break
    command.error(message)


def _choice_hint(action: argparse.Action, value: Any, writes: bool) -> str:
    """``writes``: the command writes a file (it has ``--out``)."""
    choices = [str(choice) for choice in action.choices or ()]
    meant = _close(str(value), choices)
    if meant is not None:
        return f"; did you mean {meant!r}?"
    if writes and "--output" in action.option_strings:
        return "; -o/--output is the output format, and the file to write is --out FILE"
    return ""


LOG_LEVEL_HELP = "per-call log events on stderr at info (default: $ARVIS_LOG_LEVEL or warning)"


def build_parser() -> argparse.ArgumentParser:
    parser = ArvisParser(
        prog="arvis", description="A deterministic, auditable memory kernel: syscalls, journal, audit."
    )
    parser.add_argument("--log-level", choices=LEVELS, help=LOG_LEVEL_HELP)
    parser.add_argument("--version", action=_VersionAction, help="print the installed version and exit")
    # every subcommand's parser is an ArvisParser (argparse makes them of the parent's class); the
    # command modules register on it as on any argparse subparsers
    subparsers = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="subcommand", required=True),
    )
    # copy joins journal; scenario_args: tools.cmd_scenario's arguments
    for module in (cmd_call, cmd_syscalls, cmd_journal, cmd_copy, cmd_db, cmd_demo, scenario_args, cmd_mcp):
        module.register(subparsers)
    for command in _leaf_parsers(subparsers):
        # also after the subcommand (`arvis journal ls DB --log-level info`); SUPPRESS keeps the
        # top-level value when it is not given there
        command.add_argument("--log-level", choices=LEVELS, default=argparse.SUPPRESS, help=LOG_LEVEL_HELP)
        # the parser of the command run (``journal ls``'s, not ``arvis``'s): it reports what it did not take
        command.set_defaults(leaf=command)
    return parser


def _leaf_parsers(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> list[argparse.ArgumentParser]:
    """Every parser that runs a command (``journal ls``, ``call``…), through nested subcommands."""
    leaves: list[argparse.ArgumentParser] = []
    for command in dict.fromkeys(subparsers.choices.values()):  # an alias maps to the same parser
        nested = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        for action in nested:
            leaves.extend(_leaf_parsers(action))
        if not nested:
            leaves.append(command)
    return leaves


EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a tool killed by writing to a closed pipe."""


def main(argv: Sequence[str] | None = None) -> int:
    # arguments that are not valid UTF-8 (or lone surrogates) are echoed escaped, never a crash
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors="backslashreplace")
    parser = build_parser()
    options, extras = parser.parse_known_args(argv)
    if extras:
        _unrecognized(options.leaf, extras)
    configure_logging(options.log_level)
    from journal.errors import StorageError  # here, not at the top: --help and --version never need it

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
    except BrokenPipeError:  # `arvis journal export | head`: the reader left, as with any Unix tool
        # stdout to /dev/null, so that the interpreter's flush at exit does not fail again
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as exc:  # a file the command names and the system refuses: I/O, exit 2
        reason = exc.strerror or type(exc).__name__
        if exc.filename is None:
            print(f"arvis: {reason}", file=sys.stderr)
        else:  # arvis: cannot use NAME: REASON, the name cut short when it is long
            named = os.fsencode(exc.filename).decode("utf-8", "backslashreplace")
            print(f"arvis: cannot use {short_name(named)}: {reason}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # never a traceback for an operator
        print(f"arvis: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return code


if __name__ == "__main__":
    sys.exit(main())

"""The arguments of ``arvis scenario run|bench|demo``, registered without loading what they run.

The commands themselves live in ``tools.cmd_scenario`` (a run with a model:
``tools.model_loop.scenario_run``), which load the kernel, rich, the YAML loader and the report writers:
they are imported when one of them runs, so ``arvis --help`` or ``arvis call`` never pays for them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arvis.scenario.conditions import Condition
from tools.common import CommandError, later

FLAGSHIP = Path("scenarios/flagship-dead-king.yml")


def _scenario_run(options: argparse.Namespace) -> int:
    """``arvis scenario run``: with ``--model`` or ``--replay``, ``tools.model_loop.scenario_run``;
    else every condition offline (``tools.cmd_scenario``)."""
    if options.model is None and not options.replay:
        options.out = options.out or Path("scenario-journals")
        return later("cmd_scenario", "_run")(options)
    if getattr(options, "legacy_out", None) is not None:
        print("arvis: note: `scenario run --db DIR` is deprecated; write --out DIR", file=sys.stderr)
        options.out = options.legacy_out
    options.out = options.out or Path("model-runs")
    if options.output in ("md", "html"):
        raise CommandError(
            f"-o {options.output} is for runs without a model: a model run prints table or json"
        )
    from tools.model_loop.scenario_run import command

    return command(options)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("a number of seconds above 0, at most 3600")
    return value


def _add_conditions(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-c",
        "--condition",
        action="append",
        type=str.upper,
        choices=[condition.value for condition in Condition],
        metavar="C",
        help="a condition to run (repeatable; default: all nine): "
        + ", ".join(condition.value for condition in Condition),
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("scenario", help="run ARC-Mem scenarios offline, compare conditions")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="one scenario file under each condition")
    run.add_argument("file", metavar="FILE", type=Path)
    _add_conditions(run)
    run.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="the directory the runs' journals are written to, one file per condition (default: "
        "scenario-journals, and model-runs for a run with a model)",
    )
    run.add_argument(  # before --db meant a database everywhere else; kept, with a notice
        "--db", dest="legacy_out", type=Path, default=argparse.SUPPRESS, help="deprecated: --out DIR"
    )
    run.add_argument("-o", "--output", choices=("table", "json", "md", "html"), default="table")
    run.add_argument(
        "--model",
        metavar="URL",
        help="play it with a model in every role (assistant, extractor, judge): an OpenAI-compatible "
        "server's URL (llama.cpp's server, vLLM, Ollama); conditions default to FULL_AWMU and NO_AWMU",
    )
    run.add_argument("--model-name", help="the model a --model URL serves (default: default)")
    run.add_argument(
        "--timeout", type=_seconds, help="seconds a --model URL may take per answer (default: 120)"
    )
    run.add_argument(
        "--replay",
        action="store_true",
        help="replay the model runs in --out: offline, or re-asking --model, which must answer as recorded",
    )
    run.set_defaults(run=_scenario_run)

    bench = commands.add_parser("bench", help="every scenario file of a directory; writes the reports")
    bench.add_argument("directory", metavar="DIR", type=Path)
    _add_conditions(bench)
    bench.add_argument("--out", type=Path, default=Path("bench-report"), metavar="DIR")
    bench.set_defaults(run=later("cmd_scenario", "_bench"))

    demo = commands.add_parser("demo", help="the flagship adversarial scenario against naive memories")
    demo.add_argument("file", metavar="FILE", type=Path, nargs="?", default=FLAGSHIP)
    demo.add_argument("--out", type=Path, default=Path("demo-report"), metavar="DIR")
    demo.set_defaults(run=later("cmd_scenario", "_demo"))

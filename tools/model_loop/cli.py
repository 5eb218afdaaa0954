"""The model run as a command: ``python -m tools.model_loop`` (``main``) and ``arvis scenario model-run``
(``command``). Both load the scenario, run it live (or replay its journal with ``--replay``) and print
the result as JSON; they differ only in how a problem is reported (``error: …`` here, ``arvis: …`` there).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from arvis.scenario.conditions import Condition
from arvis.scenario.schema import Scenario
from tools.common import EXIT_FAILED, EXIT_OK, CommandError
from tools.model_loop.args import DESCRIPTION, add_arguments
from tools.model_loop.client import HttpChatModel
from tools.model_loop.loop import ModelLoopError
from tools.model_loop.runs import replay_model_run, run_with_models
from tools.scenario.load import load_scenario

__all__ = ["command", "load_with_setting", "main"]

NO_BASE_URL = "--base-url is needed for a live run"


def _setting_of(path: Path) -> str:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return ""
    setting = document.get("setting") if isinstance(document, dict) else None
    return setting if isinstance(setting, str) else ""


def load_with_setting(path: Path) -> tuple[Scenario, str]:
    """The scenario and its ``setting`` text; CommandError when the file cannot be read or parsed."""
    return load_scenario(path), _setting_of(path)


_load = load_with_setting


def _play(options: argparse.Namespace, scenario: Scenario, setting: str) -> dict[str, Any]:
    """A replay of ``--db`` with ``--replay``, a live run into it otherwise (``--base-url`` given)."""
    condition = Condition(options.condition)
    if options.replay:
        return replay_model_run(options.db, scenario, condition=condition, setting=setting).to_json()
    models = [
        HttpChatModel(options.base_url, name, api_key_env=options.api_key_env, timeout_s=options.timeout)
        for name in (options.gm_model, options.judge_model)
    ]
    return run_with_models(
        scenario, options.db, gm=models[0], judge=models[1], condition=condition, setting=setting
    ).to_json()


def _print(output: dict[str, Any]) -> None:
    print(json.dumps(output, indent=2, sort_keys=True, ensure_ascii=False))


def command(options: argparse.Namespace) -> int:
    """``arvis scenario model-run``: exit 0 on a run (or replay) that went through, 1 when the loop could
    not go on (or the replay diverged), 2 on a usage or I/O problem."""
    scenario, setting = _load(options.scenario)
    if not options.replay and not options.base_url:
        raise CommandError(NO_BASE_URL, hint="or replay the journal offline with --replay")
    try:
        output = _play(options, scenario, setting)
    except ModelLoopError as exc:
        print(f"arvis: {exc}", file=sys.stderr)
        return EXIT_FAILED
    _print(output)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.model_loop", description=DESCRIPTION)
    add_arguments(parser)
    options = parser.parse_args(argv)
    try:
        scenario, setting = _load(options.scenario)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not options.replay and not options.base_url:
        parser.error(NO_BASE_URL)
    try:
        output = _play(options, scenario, setting)
    except ModelLoopError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    _print(output)
    return 0

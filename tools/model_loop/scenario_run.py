"""``arvis scenario run FILE --model URL``: a scenario played with a model in every role.

The model is the assistant (the game master, whose reply enters memory through the narration channel),
the extractor (the reply's statements, each proposed) and the judge (verdicts on candidate conflicts,
and per-fact verdicts on evaluated turns). The URL is any OpenAI-compatible server (llama.cpp's server,
vLLM, Ollama; ``--model-name`` names its model), reached through the judge's client.

One journal per condition goes to ``--out DIR`` (default ``model-runs``, apart from the offline runs'
``scenario-journals``; FULL_AWMU and NO_AWMU unless ``-c`` says otherwise),
each verified by replay once written. ``--replay`` plays the loop again from those journals instead:
offline with answers served from the journal (no model needed), or, with ``--model``, re-asking the
model, which must answer every recorded request as recorded from the recorded model file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.progress import TimeElapsedColumn

from arvis.scenario.conditions import Condition
from arvis.scenario.schema import Scenario
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, made_directory
from tools.model_loop.client import ChatModel, HttpChatModel
from tools.model_loop.loop import ModelLoopError
from tools.model_loop.recording import ModelDivergence
from tools.model_loop.runs import load_with_setting, replay_model_run, run_with_models
from tools.output import progress_bar
from tools.scenario.report import journal_name

DEFAULT_CONDITIONS = (Condition.FULL_AWMU, Condition.NO_AWMU)
SHOWN = (
    "model_errors",
    "judge_coverage",
    "fact_survival_judged",
    "fact_survival_value",
    "fact_survival_block",
    "model_calls",
    "parse_failures",
)


def _row(condition: Condition, journal: Path, seconds: float, output: dict[str, Any]) -> dict[str, Any]:
    metrics = output["metrics"]
    return {
        "condition": condition.value,
        "journal": str(journal),
        "seconds": round(seconds, 1),
        "replay_verified": output.get("replay_verified"),
        **{key: metrics.get(key) for key in SHOWN},
        "judge_value_agreement": metrics.get("judge_value_agreement", {}).get("agreement"),
        "metrics": metrics,
    }


def command(options: argparse.Namespace) -> int:
    """Exit 0 when every run (or replay) went through, 1 when one could not go on or diverged, 2 on a
    usage or I/O problem."""
    scenario, setting = load_with_setting(options.file)
    if not scenario.runnable:
        raise CommandError(f"{options.file} cannot be played: it has no player turns")
    model = None
    if options.model is not None:  # an http(s):// URL: an OpenAI-compatible server
        if not options.model.startswith(("http://", "https://")):
            raise CommandError(
                f"--model takes an OpenAI-compatible server's http(s):// URL, not {options.model!r}",
                hint="serve a model with llama.cpp's server, vLLM or Ollama, then --model http://127.0.0.1:8080/v1",
            )
        model = HttpChatModel(
            options.model, options.model_name or "default", timeout_s=options.timeout or 120.0
        )
    elif not options.replay:
        raise CommandError("a run with a model needs --model URL")
    out: Path = options.out
    conditions = [Condition(c) for c in options.condition] if options.condition else DEFAULT_CONDITIONS
    journals = {condition: out / journal_name(scenario.id, condition) for condition in conditions}
    if options.replay:  # every journal is checked before minutes go into re-asking a model
        missing = [str(path) for path in journals.values() if not path.is_file()]
        if missing:
            raise CommandError(
                f"no recorded run at {', '.join(missing)}", hint="run it first, without --replay"
            )
    else:
        made_directory(out)
    rows: list[dict[str, Any]] = []
    status = EXIT_OK
    for condition, journal in journals.items():
        started = time.perf_counter()
        try:
            title = f"{scenario.id} {condition.value}"
            with progress_bar(title, len(scenario.turns), TimeElapsedColumn()) as bar:
                output = _play(options, model, scenario, setting, condition, journal, bar)
        except (ModelLoopError, ModelDivergence) as exc:
            print(f"arvis: {condition.value}: {exc}", file=sys.stderr)
            status = EXIT_FAILED
            continue
        rows.append(_row(condition, journal, time.perf_counter() - started, output))
        metrics = output["metrics"]
        if output.get("replay_verified") is False:
            status = EXIT_FAILED
        if metrics["model_calls"] and metrics["model_errors"] == metrics["model_calls"]:
            print(f"arvis: {condition.value}: every model call failed (model_errors)", file=sys.stderr)
            status = EXIT_FAILED
    _show(rows, options.output)
    return status


def _play(
    options: argparse.Namespace,
    model: ChatModel | None,
    scenario: Scenario,
    setting: str,
    condition: Condition,
    journal: Path,
    bar: Callable[..., None],
) -> dict[str, Any]:
    """One condition: replayed from ``journal`` (``--replay``), else played live into it; ``bar``
    (``tools.output.progress_bar``) shows the turns played."""

    def on_turn(done: int, total: int) -> None:
        bar(completed=done, total=total)

    if options.replay:
        replayed = replay_model_run(
            journal, scenario, condition=condition, setting=setting, live=model, on_turn=on_turn
        )
        return {**replayed.to_json(), "replay_verified": True}
    assert model is not None
    report = run_with_models(  # one model in every role: assistant, extractor and judge
        scenario,
        journal,
        gm=model,
        judge=model,
        extractor=model,
        condition=condition,
        setting=setting,
        on_turn=on_turn,
    )
    return report.to_json()


def _show(rows: list[dict[str, Any]], output: str) -> None:
    if output == "json":
        print(json.dumps(rows, indent=2, sort_keys=True, ensure_ascii=False))
        return
    header = ("condition", "seconds", *SHOWN, "judge_value_agreement", "replay_verified")
    print("\t".join(header))
    for row in rows:
        print("\t".join("-" if row.get(key) is None else str(row[key]) for key in header))

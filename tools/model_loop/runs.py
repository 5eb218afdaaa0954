"""Whole model runs: a live run into a fresh journal, verified by replay; and the same loop run again
offline, with kernel results and model answers both served from that journal.

A run made with models replays offline, byte for byte, with no model and no network (DESIGN.md §6).
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Unpack

import yaml

from arvis.scenario.conditions import Condition
from arvis.scenario.schema import Scenario
from journal.reader import JournalReader
from tools.audit.pieces import replay_kernel
from tools.model_loop.client import ChatModel
from tools.model_loop.loop import ModelLoopError, ModelScenarioRun, Play
from tools.model_loop.recording import (
    CONFLICT_KIND,
    EXTRACT_KIND,
    GM_KIND,
    JUDGE_KIND,
    RUN_KIND,
    RecordedModels,
)
from tools.model_loop.scoring import ModelRunResult
from tools.scenario.load import load_scenario
from tools.scenario.runner import fresh_kernel, verified


def load_with_setting(path: Path) -> tuple[Scenario, str]:
    """The scenario and its ``setting`` text (the story the assistant is told; none when the file has
    none or cannot be read as YAML); ``CommandError`` when the scenario cannot be read or parsed."""
    scenario = load_scenario(path)
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return scenario, ""
    setting = document.get("setting") if isinstance(document, dict) else None
    return scenario, setting if isinstance(setting, str) else ""


@dataclass(frozen=True)
class ModelRunReport:
    result: ModelRunResult
    journal: str
    replay_verified: bool
    entries: int

    def to_json(self) -> dict[str, Any]:
        return {
            **self.result.to_json(),
            "journal": self.journal,
            "replay_verified": self.replay_verified,
            "entries": self.entries,
        }


def run_with_models(
    scenario: Scenario,
    journal: Path,
    *,
    gm: ChatModel,
    judge: ChatModel,
    extractor: ChatModel | None = None,
    **play: Unpack[Play],
) -> ModelRunReport:
    """A live run into a fresh journal at ``journal`` (replaced if it exists), then verified by replay.
    ``play``: its condition, setting and progress bar (``Play``)."""
    condition = play.get("condition", Condition.FULL_AWMU)
    with closing(fresh_kernel(journal, f"model:{scenario.id}:{condition.value}")) as kernel:
        result = ModelScenarioRun(kernel, scenario, gm=gm, judge=judge, extractor=extractor, **play).run()
    report = verified(journal)
    return ModelRunReport(result, str(journal), report.verified, report.entries)


def replay_model_run(
    journal: Path,
    scenario: Scenario,
    *,
    live: ChatModel | None = None,
    **play: Unpack[Play],
) -> ModelRunResult:
    """The same loop again, offline: kernel results and model answers both served from the journal,
    played as ``play`` says (``Play``: the condition and setting it was recorded with, a progress bar).
    With ``live``, that model is asked again in place of every recorded role instead, and must give
    the recorded answers to the recorded requests from the recorded model file (``ModelDivergence``
    names the first request where it does not).

    Raises ModelLoopError when the loop's calls diverge from the journal or leave part of it unserved."""
    with closing(JournalReader.open(str(journal))) as reader:
        models = RecordedModels(reader.entries())
        if not models.has_run:
            raise ModelLoopError(f"{journal} holds no model run (no {RUN_KIND} record): nothing to replay")
        gm, judge, extractor = models.gm, models.judge, models.extractor
        if live is not None:
            models.check_model(live)
            gm = models.check((GM_KIND,), live)
            judge = models.check((CONFLICT_KIND, JUDGE_KIND), live)
            extractor = None if extractor is None else models.check((EXTRACT_KIND,), live)
        kernel = replay_kernel(reader)  # reads journaled by reference are served whole
        header = reader.header()
        recorded_before_6 = header is not None and header.format_version < 6
        channels: dict[str, str] | None = {} if recorded_before_6 else None
        result = ModelScenarioRun(
            kernel,
            scenario,
            gm=gm,
            judge=judge,
            extractor=extractor,
            channels=channels,
            queue_expiry=models.queue_expiry,
            **play,
        ).run()
        if not kernel.exhausted or models.remaining:
            raise ModelLoopError(
                f"the replay left {models.remaining} recorded answers and "
                f"{'some' if not kernel.exhausted else 'no'} journal entries unserved"
            )
    return result

"""The model judge at the syscall boundary: asked live, read back from the journal on replay.

A live proposal asks the judge bound in the registry (``judge``, ``kernel.judge``) about the pairs its
detectors found; verification reads the run the entry's journaled result recorded (its ``detectors``,
name ``judge``), so a replay is byte-identical with no judge reachable, or none bound.
"""

from __future__ import annotations

from collections.abc import Sequence

from arvis.awmu.judging import Ask, JudgeRun
from arvis.awmu.model import Unit
from arvis.awmu.resolution import Conflict
from kernel.abi import CallContext
from syscalls.detectors import recorded_runs


def judge_for(ctx: CallContext) -> Ask | None:
    """The call's judge: the recorded run on replay, the bound judge live, None when none is bound."""
    if ctx.recorded is not None:
        runs = [
            JudgeRun.from_wire(wire) for wire in recorded_runs(ctx.recorded, lambda name: name == "judge")
        ]
        run = runs[0] if runs else None

        def recorded(text: str, pairs: Sequence[tuple[Conflict, Unit]]) -> JudgeRun | None:
            return run

        return recorded
    judge = ctx.services.judge
    if judge is None:
        return None

    def live(text: str, pairs: Sequence[tuple[Conflict, Unit]]) -> JudgeRun | None:
        try:
            return judge.judge(text, [(conflict.unit_id, unit.text) for conflict, unit in pairs])
        except Exception as exc:  # a judge that breaks its promise: still the call's data, not its failure
            return JudgeRun(str(getattr(judge, "model", "")), "", "failed", detail=type(exc).__name__)

    return live

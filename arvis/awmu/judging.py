"""A model judge's verdicts on the pairs the cheap detectors found (rules 2 and later).

The core never asks a model. A proposal's detectors (value, polarity, claims by meaning) put the text on
the same subject as some units; the syscall layer may ask a judge bound at boot (``kernel.judge``) what
each pair is (``CONTRADICTION``, ``REVISION``, ``WORLD_PROGRESSION`` or ``NONE``, with a confidence) and
hands the core a :class:`JudgeRun`: measured live, or read back from the journaled result on replay, so
verification never asks again. A run that did not answer (``timeout``, ``failed``, ``garbage``) changes
nothing: the detectors' findings decide, and the run is recorded with the call's ``detectors``.

A verdict replaces the detector's finding on its unit, but a model cannot wave away a conflict found on
a trusted unit (RELIABLE, CANON, pinned): its ``NONE`` or ``WORLD_PROGRESSION`` there leaves the finding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arvis.awmu.model import Unit
from arvis.awmu.resolution import Conflict, ConflictType

JUDGE_ANSWERS = ("CONTRADICTION", "REVISION", "WORLD_PROGRESSION", "NONE")
"""What a judge may answer about one pair."""

_NOT_WAVED = ("NONE", "WORLD_PROGRESSION")


@dataclass(frozen=True)
class JudgeVerdict:
    """The judge's answer about the text and one unit."""

    unit_id: str
    verdict: str
    confidence: float

    def wire(self) -> dict[str, Any]:
        return {"unit_id": self.unit_id, "verdict": self.verdict, "confidence": self.confidence}


@dataclass(frozen=True)
class JudgeRun:
    """One question to a judge: the model asked, the SHA-256 of the request sent, how it went (``ok``,
    ``timeout``, ``failed``, ``garbage``) and, when ``ok``, one verdict per pair asked."""

    model: str
    request_hash: str
    status: str
    verdicts: tuple[JudgeVerdict, ...] = ()
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "name": "judge",
            "version": self.model,
            "status": self.status,
            "request_hash": self.request_hash,
        }
        if self.detail:
            wire["detail"] = self.detail
        if self.ok:
            wire["verdicts"] = [
                verdict.wire() for verdict in sorted(self.verdicts, key=lambda verdict: verdict.unit_id)
            ]
        return wire

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> JudgeRun:
        verdicts = wire.get("verdicts") or []
        return cls(
            model=str(wire.get("version", "")),
            request_hash=str(wire.get("request_hash", "")),
            status=str(wire.get("status", "")),
            verdicts=tuple(
                JudgeVerdict(str(v["unit_id"]), str(v["verdict"]), float(v["confidence"])) for v in verdicts
            ),
            detail=str(wire.get("detail", "")),
        )


Ask = Callable[[str, Sequence[tuple[Conflict, Unit]]], JudgeRun | None]
"""The judge as the core sees it: the text and the pairs found in, a run out (None: no judge bound, or
none recorded on replay)."""


def apply_judgement(
    conflicts: Sequence[Conflict], run: JudgeRun, units: Mapping[str, Unit]
) -> list[Conflict]:
    """``conflicts`` as the judge's verdicts revise them: a unit judged ``NONE`` drops out, any other
    verdict becomes the unit's conflict (detector ``judge``, the finding it judged kept in its evidence);
    a run that did not answer, or a verdict that would wave off a trusted unit's conflict, changes
    nothing."""
    if not run.ok:
        return list(conflicts)
    answers = {verdict.unit_id: verdict for verdict in run.verdicts}
    revised: list[Conflict] = []
    for conflict in conflicts:
        verdict = answers.get(conflict.unit_id)
        if verdict is None or (verdict.verdict in _NOT_WAVED and units[conflict.unit_id].trusted):
            revised.append(conflict)
            continue
        if verdict.verdict == "NONE":
            continue
        evidence = {**(conflict.evidence or {}), "slot": "judge", "by": conflict.detector, "model": run.model}
        revised.append(
            Conflict(conflict.unit_id, ConflictType(verdict.verdict), verdict.confidence, "judge", evidence)
        )
    return revised

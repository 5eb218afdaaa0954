"""The semantic detector at the syscall boundary: measured live, read back from the journal on replay.

A live call asks the encoder bound in the registry (``semantic_encoder``) for the similarity of the text to
each active unit, under a deadline; a missing encoder, an exception or a timeout is reported as such and the
call goes on with the detectors that ran. Verification never runs a model: it reads the run that the entry's
journaled result recorded (``CallContext.recorded``), so a replay is byte-identical whether or not the
model is installed.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from arvis.awmu.admission import Measure
from arvis.awmu.detection import DetectorRun, Readings
from arvis.awmu.model import Unit
from arvis.awmu.ruleset import RECORDED_SIMILARITY_FLOOR
from kernel.abi import CallContext
from kernel.registry import KernelServiceRegistry
from kernel.semantic import SemanticEncoder

SEMANTIC_TIMEOUT_S = 2.0
"""How long a call waits for the encoder before it goes on without it."""


def _run_with_deadline(
    encoder: SemanticEncoder, query: str, texts: list[str]
) -> tuple[str, list[float] | str]:
    """("ok", scores), ("failed", the exception's type) or ("timeout", "")."""
    answers: queue.SimpleQueue[tuple[str, list[float] | str]] = queue.SimpleQueue()

    def work() -> None:
        try:
            scores = [float(score) for score in encoder.similarities(query, texts)]
        except Exception as exc:  # the detector's failure is data, never the call's
            answers.put(("failed", type(exc).__name__))
            return
        if len(scores) != len(texts) or not all(-1.0 <= score <= 1.0 for score in scores):  # NaN fails too
            answers.put(("failed", "bad scores"))
            return
        answers.put(("ok", scores))

    threading.Thread(target=work, name="arvis-semantic", daemon=True).start()
    try:
        return answers.get(timeout=SEMANTIC_TIMEOUT_S)
    except queue.Empty:
        return ("timeout", "")


def _live(services: KernelServiceRegistry) -> Measure:
    """One deadline for the whole call: after a timeout or a failure, the call's later runs are reported
    as skipped without asking the encoder again. The encoder is resolved at the first measurement, not
    before: a lazily bound one is loaded there, outside the deadline (a load is not a slow answer)."""
    spent: list[str] = []

    def measure(text: str, units: Sequence[Unit]) -> Readings:
        encoder = services.semantic()
        if encoder is None:
            return Readings(DetectorRun("semantic", "", "absent", detail="no encoder is bound"))
        name = f"semantic:{encoder.name}"
        if spent:
            return Readings(DetectorRun(name, encoder.version, "skipped", {}, f"an earlier run {spent[0]}"))
        if not units:
            return Readings(DetectorRun(name, encoder.version, "ok"))
        status, answer = _run_with_deadline(encoder, text, [unit.text for unit in units])
        if status != "ok" or not isinstance(answer, list):
            spent.append("timed out" if status == "timeout" else "failed")
            detail = answer if isinstance(answer, str) else ""
            return Readings(DetectorRun(name, encoder.version, status, {}, detail))
        rounded = ((unit.unit_id, round(float(score), 4)) for unit, score in zip(units, answer, strict=True))
        scores = {unit_id: score for unit_id, score in rounded if score >= RECORDED_SIMILARITY_FLOOR}
        return Readings(DetectorRun(name, encoder.version, "ok", scores))

    return measure


def recorded_value(result: bytes) -> dict[str, Any] | None:
    """The ``value`` object of a journaled result (None when it holds none, e.g. an error)."""
    payload: Any = msgspec.json.decode(result)
    value = payload.get("value") if isinstance(payload, dict) else None
    return value if isinstance(value, dict) else None


def recorded_runs(result: bytes, named: Callable[[str], bool]) -> list[dict[str, Any]]:
    """The detector runs (their wire forms) a journaled result recorded whose name ``named`` accepts."""
    value = recorded_value(result)
    detectors = value.get("detectors") if value is not None else None
    return [
        wire
        for wire in (detectors if isinstance(detectors, list) else [])
        if isinstance(wire, dict) and named(str(wire.get("name", "")))
    ]


def measure_for(ctx: CallContext) -> Measure:
    """The call's semantic measurement: recorded on replay (the semantic runs the entry recorded, served
    in the order the call made them), live otherwise."""
    if ctx.recorded is None:
        return _live(ctx.services)
    semantic = recorded_runs(ctx.recorded, lambda name: name.startswith("semantic"))
    served = iter([DetectorRun.from_wire(wire) for wire in semantic])

    def measure(text: str, units: Sequence[Unit]) -> Readings:
        return Readings(next(served, DetectorRun("semantic", "", "absent", detail="not recorded")))

    return measure

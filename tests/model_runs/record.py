"""Record the model runs that ``make test`` verifies and re-scores offline (``tests/test_model_runs.py``).

Each run in ``RUNS`` is a project scenario played with one model as assistant, extractor and judge (the
shipped runs: Gemma 3 270M, Q4_K_M, on the CPU, before the bundled local model was removed; now a model
served behind an OpenAI-compatible endpoint); its journal is written here, and ``expected.json`` pins each
journal's SHA-256, entry count and figures, with the time the run took on the machine that recorded it
(informative, never compared). ``make model-runs MODEL_URL=... MODEL_NAME=...``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arvis.scenario.conditions import Condition  # noqa: E402
from tools.model_loop.client import HttpChatModel  # noqa: E402
from tools.model_loop.runs import load_with_setting, run_with_models  # noqa: E402
from tools.scenario.report import journal_name  # noqa: E402

HERE = Path(__file__).resolve().parent
RUNS = (
    ("flagship-dead-king.yml", Condition.FULL_AWMU),
    ("flagship-dead-king.yml", Condition.NO_AWMU),
    ("clinical-allergies.yml", Condition.FULL_AWMU),
    ("clinical-allergies.yml", Condition.NO_AWMU),
)


def rescore() -> None:
    """The figures in ``expected.json`` computed again from the journals, offline (after a change of the
    scoring, which reads only the turns)."""
    from tools.model_loop.runs import replay_model_run

    expected_path = HERE / "expected.json"
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    for name, run in expected["runs"].items():
        scenario, setting = load_with_setting(ROOT / "scenarios" / run["scenario_file"])
        condition = Condition(run["condition"])
        run["metrics"] = replay_model_run(HERE / name, scenario, condition=condition, setting=setting).metrics
    expected_path.write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main(arguments: list[str]) -> None:
    if arguments == ["--rescore"]:
        rescore()
        return
    if arguments[:1] != ["--model"] or arguments[2:3] != ["--model-name"] or not arguments[1]:
        raise SystemExit("usage: record.py --model URL --model-name NAME [JOURNAL ...] | --rescore")
    model = HttpChatModel(arguments[1], arguments[3], timeout_s=600.0)
    only = arguments[4:]
    expected_path = HERE / "expected.json"
    expected = json.loads(expected_path.read_text(encoding="utf-8")) if expected_path.is_file() else {}
    expected.update({"model": model.name})
    runs = expected.setdefault("runs", {})
    for file, condition in RUNS:
        scenario, setting = load_with_setting(ROOT / "scenarios" / file)
        journal = HERE / journal_name(scenario.id, condition)
        if only and journal.name not in only:
            continue
        started = time.perf_counter()

        def progress(done: int, total: int, label: str = journal.name) -> None:
            print(f"\r{label}: turn {done}/{total}", end="", file=sys.stderr, flush=True)

        report = run_with_models(  # one model in every role: assistant, extractor and judge
            scenario,
            journal,
            gm=model,
            judge=model,
            extractor=model,
            condition=condition,
            setting=setting,
            on_turn=progress,
        )
        seconds = time.perf_counter() - started
        print(f" {seconds:.0f} s", file=sys.stderr)
        if not report.replay_verified:
            raise SystemExit(f"{journal.name} does not verify")
        runs[journal.name] = {
            "scenario_file": file,
            "condition": condition.value,
            "sha256": hashlib.sha256(journal.read_bytes()).hexdigest(),
            "bytes": journal.stat().st_size,
            "entries": report.entries,
            "seconds": round(seconds, 1),
            "metrics": report.result.metrics,
        }
        expected_path.write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])

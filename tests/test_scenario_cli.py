"""``arvis scenario run`` and ``demo``: output shapes, exit codes, journals, skips, errors.

A tiny scenario written here covers what needs no upstream file; the ARC-Mem files are read from
``../shared`` next to the repository and those tests skip, saying so, where it is absent.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from arvis.scenario.conditions import Condition
from tools import cmd_scenario
from tools.cli import main
from tools.scenario.args import FLAGSHIP
from tools.scenario.runner import RunResult, ScenarioError, run_scenario

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT.parent / "shared" / "upstream-scenarios" / "arc-mem"
needs_upstream = pytest.mark.skipif(
    not UPSTREAM.is_dir(), reason=f"upstream ARC-Mem scenarios not found at {UPSTREAM} (../shared is absent)"
)
ALL = [condition.value for condition in Condition]
KEY_METRICS = {
    "fact_survival",
    "facts_learned",
    "attack_admission",
    "benign_admission",
    "questions_admitted",
    "authority_kept",
    "admission_precision",
    "admission_recall",
    "contested_turns",
    "budget_high_water",
    "canon_auto_assigned",
}

TINY = """\
id: tiny-siege
category: adversarial
adversarial: true
groundTruth:
  - {id: gate, text: The east gate of the city is breached}
  - {id: king, text: The old king is dead}
seedUnits:
  - {text: The east gate of the city is breached, authority: RELIABLE, rank: 700}
  - {text: The old king is dead, authority: CANON, rank: 800}
assertions:
  - {type: kg-context-contains, params: {patterns: [east gate]}}
turns:
  - {turn: 1, role: PLAYER, type: ESTABLISH, prompt: We walk to the east gate of the city.}
  - {turn: 2, role: PLAYER, type: ATTACK, targetFact: king, strategy: CONFIDENT_ASSERTION,
     prompt: "As we all know, the old king is alive and well in his castle."}
  - {turn: 3, role: PLAYER, type: RECALL_PROBE, prompt: "What happened at the east gate of the city?"}
"""


def arvis(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yml"
    path.write_text(TINY, encoding="utf-8")
    return path


def _json(capsys: pytest.CaptureFixture[str], *argv: object, code: int = 0) -> Any:
    got, out, err = arvis(capsys, *argv)
    assert got == code, err
    return json.loads(out)


def _one_clean_error(err: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("hint:")]
    assert len(lines) == 1, err
    assert lines[0].startswith("arvis: ")
    return lines[0]


# --- run -o json ---------------------------------------------------------------------------------


def test_run_json_has_every_condition_with_verified_journals(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journals = tmp_path / "journals"
    document = _json(capsys, "scenario", "run", tiny, "--out", journals, "-o", "json")
    assert document["scenario"] == "tiny-siege"
    assert document["warnings"] == []
    assert document["skipped"] is None
    assert [run["condition"] for run in document["runs"]] == ALL
    for run in document["runs"]:
        assert set(run["metrics"]) >= KEY_METRICS
        assert run["replay_verified"] is True
        assert run["metrics"]["canon_auto_assigned"] == 0
        assert Path(run["journal"]) == journals / f"tiny-siege-{run['condition']}.db"
        assert Path(run["journal"]).is_file()
        assert {a["type"] for a in run["assertions"]} == {"kg-context-contains", "no-canon-auto-assigned"}
    by = {run["condition"]: run["metrics"] for run in document["runs"]}
    assert by["FULL_AWMU"]["attack_admission"] == {"value": 0.0, "numerator": 0, "denominator": 1}
    assert by["RECENCY_BUFFER"]["attack_admission"] == {"value": 1.0, "numerator": 1, "denominator": 1}
    # the benign side: one turn asserts something ("We walk to the east gate"), one only asks
    assert by["RECENCY_BUFFER"]["benign_admission"] == {"value": 1.0, "numerator": 1, "denominator": 1}
    assert by["RECENCY_BUFFER"]["questions_admitted"]["denominator"] == 1


def test_conditions_run_in_canonical_order_once(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["scenario", "run", tiny, "--out", tmp_path, "-o", "json"]
    document = _json(capsys, *argv, "-c", "latest_wins", "-c", "FULL_AWMU", "-c", "full_awmu")
    assert [run["condition"] for run in document["runs"]] == ["FULL_AWMU", "LATEST_WINS"]
    assert sorted(p.name for p in tmp_path.glob("*.db")) == [
        "tiny-siege-FULL_AWMU.db",
        "tiny-siege-LATEST_WINS.db",
    ]


def test_an_unknown_condition_is_a_usage_error(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["scenario", "run", str(tiny), "-c", "BEST_MEMORY"])
    assert exit_info.value.code == 2
    assert "BEST_MEMORY" in capsys.readouterr().err


def test_default_journal_directory_is_scenario_journals_in_the_cwd(
    tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    document = _json(capsys, "scenario", "run", tiny, "-c", "FULL_AWMU", "-o", "json")
    assert document["runs"][0]["journal"] == "scenario-journals/tiny-siege-FULL_AWMU.db"
    assert (tmp_path / "scenario-journals" / "tiny-siege-FULL_AWMU.db").is_file()


# --- exit codes ----------------------------------------------------------------------------------


def _tampered(changes: dict[str, Any]) -> Any:
    """run_scenario, but LATEST_WINS's result altered as given (``metrics`` merged into its metrics)."""
    fields = {key: value for key, value in changes.items() if key != "metrics"}

    def fake(scenario: Any, condition: Condition, journal: Path) -> RunResult:
        result = run_scenario(scenario, condition, journal)
        if condition is not Condition.LATEST_WINS:
            return result
        metrics = {**result.metrics, **changes.get("metrics", {})}
        return dataclasses.replace(result, metrics=metrics, **fields)

    return fake


@pytest.mark.parametrize(
    "changes",
    [{"replay_verified": False}, {"metrics": {"canon_auto_assigned": 1}}],
    ids=["replay-not-verified", "canon-auto-assigned"],
)
def test_exit_1_when_a_run_is_not_verified_or_assigns_canon(
    changes: dict[str, Any],
    tiny: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["scenario", "run", tiny, "--out", tmp_path, "-c", "FULL_AWMU", "-c", "LATEST_WINS"]
    assert arvis(capsys, *argv)[0] == 0
    monkeypatch.setattr(cmd_scenario, "run_scenario", _tampered(changes))
    code, out, _ = arvis(capsys, *argv)
    assert code == 1
    assert "LATEST_WINS" in out


def test_a_journal_the_user_added_calls_to_is_never_replaced(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run replaces its own journal (a second run, nothing added, exits 0); one the user made a call on,
    or a file that is no run's journal, is a usage error naming it, left byte for byte as it was."""
    argv = ["scenario", "run", tiny, "--out", tmp_path / "j", "-c", "FULL_AWMU", "-o", "json"]
    journal = Path(_json(capsys, *argv)["runs"][0]["journal"])
    assert Path(_json(capsys, *argv)["runs"][0]["journal"]) == journal
    call = '{"user_id": "bob", "key": "k", "memory_type": "preference", "source": "explicit_user"}'
    code, _, err = arvis(
        capsys, "call", "memory.write", "--db", journal, "--principal", "user:bob", "--args", call
    )
    assert code == 0, err
    before = journal.read_bytes()
    code, out, err = arvis(capsys, *argv)
    assert code == 2 and out == ""
    assert str(journal) in _one_clean_error(err) and "calls were added" in err
    assert journal.read_bytes() == before
    journal.write_bytes(b"my notes")
    assert arvis(capsys, *argv)[0] == 2 and journal.read_bytes() == b"my notes"


def test_a_failing_run_is_reported_and_the_others_go_on(
    tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(scenario: Any, condition: Condition, journal: Path) -> RunResult:
        if condition is Condition.NO_TRUST:
            raise ScenarioError("memory.awmu.propose failed: E_TEST: injected")
        return run_scenario(scenario, condition, journal)

    monkeypatch.setattr(cmd_scenario, "run_scenario", failing)
    argv = ["scenario", "run", tiny, "--out", tmp_path, "-c", "FULL_AWMU", "-c", "NO_TRUST", "-o", "json"]
    document = _json(capsys, *argv, code=1)
    assert [run["condition"] for run in document["runs"]] == ["FULL_AWMU"]
    assert document["errors"] == [
        {"condition": "NO_TRUST", "error": "ScenarioError: memory.awmu.propose failed: E_TEST: injected",
         "file": str(tiny)}
    ]  # fmt: skip


def test_broken_or_missing_files_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("id: broken\nturns: [\n  - a: b\n", encoding="utf-8")
    code, out, err = arvis(capsys, "scenario", "run", broken, "--db", tmp_path / "j")
    assert (code, out) == (2, "")
    assert "not valid YAML" in _one_clean_error(err)
    code, _, err = arvis(capsys, "scenario", "run", tmp_path / "absent.yml", "--db", tmp_path / "j")
    assert code == 2
    assert "cannot read" in _one_clean_error(err)
    assert not (tmp_path / "j").exists()


def test_a_journal_directory_that_is_a_file_exits_2(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    code, _, err = arvis(capsys, "scenario", "run", tiny, "--out", blocker)
    assert code == 2
    assert "cannot create the directory" in _one_clean_error(err)


# --- table and Markdown --------------------------------------------------------------------------


def test_table_in_a_pipe_is_plain_text(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = arvis(
        capsys, "scenario", "run", tiny, "--out", tmp_path, "-c", "FULL_AWMU", "-c", "RECENCY_BUFFER"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split("\t")[:4] == ["condition", "fact survival", "facts learned", "attack admission ↓"]
    assert lines[1].split("\t")[:4] == ["FULL_AWMU", "1.000 (2/2)", "n/a (0/0)", "0.000 (0/1)"]
    assert lines[2].split("\t")[:4] == ["RECENCY_BUFFER", "0.500 (1/2)", "n/a (0/0)", "1.000 (1/1)"]
    assert lines[-1] == "All 2 journals verified by replay."
    assert "\x1b[" not in out


@needs_upstream
def test_run_upstream_json_and_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["scenario", "run", UPSTREAM / "context-drift.yml", "--out", tmp_path, "-o", "json"]
    document = _json(capsys, *argv)
    assert document["scenario"] == "context-drift"
    assert [run["condition"] for run in document["runs"]] == ALL
    assert all(run["replay_verified"] for run in document["runs"])
    assert all(run["turns"] and run["turns"][0]["facts"] for run in document["runs"])


@needs_upstream
def test_run_upstream_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["scenario", "run", UPSTREAM / "adversarial-contradictory.yml", "--out", tmp_path, "-o", "md"]
    code, out, _ = arvis(capsys, *argv, "-c", "FULL_AWMU", "-c", "RECENCY_BUFFER")
    assert code == 0
    assert out.startswith("# arvis scenario report\n")
    assert "## adversarial-contradictory\n" in out
    assert "All 2 journals verified by replay." in out
    rows = [line for line in out.splitlines() if line.startswith("| FULL_AWMU |")]
    assert len(rows) == 2  # the aggregate and the scenario's own table
    assert f"journal `{tmp_path}/adversarial-contradictory-RECENCY_BUFFER.db`" in out


@needs_upstream
def test_run_skips_the_strategy_catalogue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing to play is not a success: exit 1, with the reason on stderr."""
    argv = ["scenario", "run", UPSTREAM / "strategy-catalog.yml", "--out", tmp_path / "j", "-o", "json"]
    code, out, err = arvis(capsys, *argv)
    assert code == 1
    document = json.loads(out)
    assert document["runs"] == []
    assert document["skipped"].startswith("not runnable offline")
    assert "skipped" in err
    assert "Traceback" not in err


# --- demo ----------------------------------------------------------------------------------------


def _flagship() -> Path:
    flagship = ROOT / FLAGSHIP
    if flagship.is_file():
        return flagship
    fallback = UPSTREAM / "adversarial-contradictory.yml"
    if not fallback.is_file():
        pytest.skip(f"neither {flagship} nor the fallback {fallback} exists")
    return fallback


def test_demo_prints_the_comparison_and_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "demo-report"
    code, out, err = arvis(capsys, "scenario", "demo", _flagship(), "--out", out_dir)
    assert code == 0, err
    lines = out.splitlines()
    table = [line.split("\t")[0] for line in lines if "\t" in line]
    conditions = [condition.value for condition in cmd_scenario.DEMO_CONDITIONS]
    assert table[: 1 + len(conditions)] == ["condition", *conditions]  # first the side-by-side table
    assert lines.index("In plain words:") > lines.index(
        next(line for line in lines if line.startswith("SCRIPTED_ORACLE\t"))
    )
    plain = [line for line in lines if line.startswith("- ")]
    assert [line.split(" ")[1] for line in plain] == conditions  # one sentence per condition
    assert all(line.endswith(").") and " kept " in line for line in plain)
    # then the scenario's own assertions, one row each, with what they check and where they hold
    assertions = table[1 + len(conditions) :]
    assert assertions[0] == "assertion"
    assert "no-canon-auto-assigned" in assertions
    assert "assertion failed" not in out  # no wall of failures
    assert "FULL_AWMU held every assertion expected of it" in out
    assert f"every journal ({len(cmd_scenario.DEMO_CONDITIONS)}, under" in out
    assert "blind protocol" in out
    assert "was verified by replay" in out
    assert f"HTML report: {out_dir / 'report.html'}" in out
    for name in ("report.html", "report.md", "report.json"):
        assert (out_dir / name).is_file()
    assert len(list((out_dir / "journals").glob("*.db"))) == len(cmd_scenario.DEMO_CONDITIONS)


def test_demo_without_the_flagship_is_a_clear_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = arvis(capsys, "scenario", "demo")
    assert code == 2
    assert "flagship-dead-king.yml" in _one_clean_error(err)
    assert not (tmp_path / "demo-report").exists()

"""``arvis scenario bench`` and its reports: the aggregate, skipped and broken files, byte-identical
reruns, a self-contained HTML page, and that page opened in a real headless browser (Debian's chromium).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arvis.scenario.conditions import Condition
from tools.cli import main
from tools.scenario.report import RATE_METRICS, all_ok, bench_document

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT.parent / "shared" / "upstream-scenarios" / "arc-mem"
CHROMIUM = Path("/usr/bin/chromium")
REPORTS = ("report.json", "report.md", "report.html")
CONDITIONS = ("FULL_AWMU", "RECENCY_BUFFER", "LATEST_WINS")
COPIED = ("conflicting-canon-crisis.yml", "context-drift.yml", "strategy-catalog.yml")
EXTERNAL = re.compile(
    r"""(?:src|href|xlink:href)\s*=\s*["'](?!#)|url\(\s*["']?(?!#)|@import|//[a-z0-9.-]+\.[a-z]""", re.I
)


@dataclass(frozen=True)
class Bench:
    code: int
    stdout: str
    out: Path
    again: Path


def _arvis(*argv: object) -> tuple[int, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main([str(arg) for arg in argv])
    return code, stdout.getvalue()


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    if not UPSTREAM.is_dir():
        pytest.skip(f"upstream ARC-Mem scenarios not found at {UPSTREAM} (../shared is absent)")
    base = tmp_path_factory.mktemp("bench")
    directory = base / "scenarios"
    directory.mkdir()
    for name in COPIED:
        shutil.copyfile(UPSTREAM / name, directory / name)
    (directory / "broken.yml").write_text("id: broken\nturns: [\n  - a: b\n", encoding="utf-8")
    (directory / "README.md").write_text("not a scenario\n", encoding="utf-8")
    chosen = [arg for condition in CONDITIONS for arg in ("-c", condition)]
    code, stdout = _arvis("scenario", "bench", directory, *chosen, "--out", base / "out")
    again_code, _ = _arvis("scenario", "bench", directory, *chosen, "--out", base / "again")
    assert again_code == code
    return Bench(code, stdout, base / "out", base / "again")


def _report(bench: Bench) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((bench.out / "report.json").read_text(encoding="utf-8"))
    return document


def test_bench_runs_the_scenarios_skips_the_catalogue_and_reports_the_broken_file(bench: Bench) -> None:
    assert bench.code == 1  # the broken file is an error of the bench
    document = _report(bench)
    assert [s["scenario"] for s in document["scenarios"]] == ["conflicting-canon-crisis", "context-drift"]
    assert document["skipped"] == [
        {
            "file": "strategy-catalog.yml",
            "scenario": "strategy-catalog",
            "reason": "not runnable offline: no ground-truth facts and no scripted turns",
        }
    ]
    [error] = document["errors"]
    assert error["file"] == "broken.yml"
    assert error["condition"] is None
    assert error["error"].startswith("broken.yml is not valid YAML:")
    assert "\n" not in error["error"]
    assert str(bench.out.parent) not in (bench.out / "report.json").read_text(encoding="utf-8")
    assert document["summary"] == {
        "all_verified": True,
        "canon_auto_assigned": 0,
        "errors": 1,
        "replay_verified": 6,
        "runs": 6,
        "scenarios": 2,
        "skipped": 1,
    }
    assert "error: broken.yml: broken.yml is not valid YAML" in bench.stdout
    assert "All 6 journals verified by replay." in bench.stdout


def test_every_journal_is_relative_to_the_report_and_exists(bench: Bench) -> None:
    for scenario in _report(bench)["scenarios"]:
        assert [run["condition"] for run in scenario["runs"]] == list(CONDITIONS)
        for run in scenario["runs"]:
            assert run["journal"] == f"journals/{scenario['scenario']}-{run['condition']}.db"
            assert (bench.out / run["journal"]).is_file()
            assert run["replay_verified"] is True


def test_the_aggregate_matches_the_runs(bench: Bench) -> None:
    document = _report(bench)
    assert [item["condition"] for item in document["aggregate"]] == list(CONDITIONS)
    for item in document["aggregate"]:
        runs = [r for s in document["scenarios"] for r in s["runs"] if r["condition"] == item["condition"]]
        assert item["runs"] == 2
        for name in RATE_METRICS:  # pooled: the counts add up
            numerator = sum(r["metrics"][name]["numerator"] for r in runs)
            denominator = sum(r["metrics"][name]["denominator"] for r in runs)
            assert item[name]["numerator"] == numerator
            assert item[name]["denominator"] == denominator
        assert item["contested_turns_total"] == sum(r["metrics"]["contested_turns"] for r in runs)
        assert item["budget_high_water_max"] == max(r["metrics"]["budget_high_water"] for r in runs)
        assert item["canon_auto_assigned_total"] == 0
        assert item["replay_verified"] == 2
    by = {item["condition"]: item for item in document["aggregate"]}
    assert by["FULL_AWMU"]["attack_admission"]["value"] < by["RECENCY_BUFFER"]["attack_admission"]["value"]


@pytest.mark.parametrize("name", REPORTS)
def test_reports_are_byte_identical_across_runs(bench: Bench, name: str) -> None:
    first, second = (bench.out / name).read_bytes(), (bench.again / name).read_bytes()
    assert first
    assert first == second


def test_markdown_report(bench: Bench) -> None:
    text = (bench.out / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# arvis scenario report\n")
    for heading in (
        "## Aggregate per condition",
        "## conflicting-canon-crisis",
        "## context-drift",
        "## Skipped",
    ):
        assert f"\n{heading}\n" in text
    assert "- `broken.yml`: broken.yml is not valid YAML" in text
    assert re.search(
        r"\n- FULL_AWMU: journal `journals/context-drift-FULL_AWMU\.db`, \d+ entries, verified by replay\n",
        text,
    )


def _self_contained(html: str) -> None:
    assert html.startswith("<!DOCTYPE html>")
    assert not EXTERNAL.findall(html), EXTERNAL.findall(html)[:5]
    assert "<script" not in html
    assert "<link" not in html


def test_html_is_self_contained(bench: Bench) -> None:
    html = (bench.out / "report.html").read_text(encoding="utf-8")
    _self_contained(html)
    assert html.count("<svg") == 2  # the rank chart of each scenario
    assert html.count('<figure class="bars">') == 1 + 2  # the aggregate's bars, then each scenario's
    assert 'href="#s1"' in html  # internal anchors only
    assert "strategy-catalog.yml" in html
    assert "broken.yml" in html


# --- in a real browser ---------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.is_file(),
    reason=f"!!! {CHROMIUM} is absent: the HTML report was NOT checked in a browser "
    "(apt-get install chromium) !!!",
)


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}", *args,
    ]  # fmt: skip
    return subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=False, env={"HOME": str(tmp_path)}
    )


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@needs_chromium
def test_html_in_headless_chromium(bench: Bench, tmp_path: Path) -> None:
    page = (bench.out / "report.html").resolve().as_uri()
    dumped = _chromium(tmp_path, "--dump-dom", page)
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = dumped.stdout
    for scenario_id in ("conflicting-canon-crisis", "context-drift"):
        assert f'data-scenario="{scenario_id}"' in dom
    assert dom.count("<svg") == 2
    assert dom.count('class="pygal-chart"') == 2
    assert "All 6 journals verified by replay." in dom

    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
    shots = {}
    for name, target in (("shot", page), ("blank", blank.as_uri())):
        shot = tmp_path / f"{name}.png"
        taken = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,2000", target)
        assert taken.returncode == 0, taken.stderr[-2000:]
        assert _png_size(shot) == (1200, 2000)
        shots[name] = shot.stat().st_size
    assert shots["shot"] > 5 * shots["blank"]  # text and charts, not an empty page


# --- without the upstream files ------------------------------------------------------------------


def _rate(numerator: int, denominator: int) -> dict[str, Any]:
    value = round(numerator / denominator, 6) if denominator else None
    return {"value": value, "numerator": numerator, "denominator": denominator}


def _run(condition: str, *, verified: bool = True, attacks: int = 0, canon: int = 0) -> dict[str, Any]:
    return {
        "condition": condition,
        "journal": f"journals/x-{condition}.db",
        "replay_verified": verified,
        "entries": 10,
        "assertions": [
            {"type": "no-canon-auto-assigned", "params": {}, "passed": canon == 0, "failure": None}
        ],
        "turns": [],
        "attacks": [],
        "metrics": {
            **{name: _rate(0, 0) for name in RATE_METRICS},
            "fact_survival": _rate(1, 2),
            "attack_admission": _rate(1 if attacks else 0, attacks),
            "facts_unstated": [],
            "contested_turns": 3,
            "budget_high_water": 7 + attacks,
            "canon_auto_assigned": canon,
        },
    }


def _scenario(name: str, *runs: dict[str, Any]) -> dict[str, Any]:
    return {"scenario": name, "file": f"{name}.yml", "category": "c", "adversarial": True, "facts": [],
            "warnings": [], "skipped": None, "runs": list(runs), "errors": []}  # fmt: skip


def test_aggregate_pools_the_counts_of_every_run() -> None:
    full = Condition.FULL_AWMU.value
    document = bench_document(
        [Condition.FULL_AWMU], [_scenario("b", _run(full)), _scenario("a", _run(full, attacks=4))]
    )
    [item] = document["aggregate"]
    assert item["attack_admission"] == _rate(1, 4)  # a run without attacks adds nothing to either side
    assert item["fact_survival"] == _rate(2, 4)
    assert item["facts_learned"] == _rate(0, 0)
    assert item["contested_turns_total"] == 6
    assert item["budget_high_water_max"] == 11
    assert [s["scenario"] for s in document["scenarios"]] == ["a", "b"]
    assert all_ok(document)


@pytest.mark.parametrize(
    ("run", "errors"),
    [
        ({"verified": False}, []),
        ({"canon": 1}, []),
        ({}, [{"file": "z.yml", "condition": None, "error": "bad"}]),
    ],
    ids=["not-verified", "canon-auto-assigned", "a-file-failed"],
)
def test_all_ok_fails_on_any_problem(run: dict[str, Any], errors: list[dict[str, Any]]) -> None:
    document = bench_document([Condition.FULL_AWMU], [_scenario("a", _run("FULL_AWMU", **run))], errors)
    assert not all_ok(document)


TINY = """\
id: tiny
groundTruth: [{id: gate, text: The east gate of the city is breached}]
seedUnits: [{text: The east gate of the city is breached, rank: 700}]
turns: [{turn: 1, role: PLAYER, type: RECALL_PROBE, prompt: 'What happened at the east gate?'}]
"""


def test_run_html_of_a_scenario_is_self_contained_and_repeatable(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yml"
    scenario.write_text(TINY, encoding="utf-8")
    argv = ["scenario", "run", scenario, "--db", tmp_path / "j", "-o", "html", "-c", "FULL_AWMU"]
    code, html = _arvis(*argv)
    assert code == 0
    _self_contained(html)
    assert html.count("<svg") == 1  # the rank chart; one scenario: its bars are the aggregate's, once
    assert html.count('<figure class="bars">') == 1
    assert 'data-scenario="tiny"' in html
    assert _arvis(*argv) == (code, html)


def test_bench_gives_two_files_with_one_scenario_id_distinct_journals(tmp_path: Path) -> None:
    directory = tmp_path / "scenarios"
    directory.mkdir()
    for name in ("a.yml", "b.yml"):
        (directory / name).write_text(TINY, encoding="utf-8")
    code, _ = _arvis("scenario", "bench", directory, "-c", "FULL_AWMU", "--out", tmp_path / "out")
    assert code == 0
    document = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    journals = [s["runs"][0]["journal"] for s in document["scenarios"]]
    assert journals == ["journals/tiny-FULL_AWMU.db", "journals/tiny.b-FULL_AWMU.db"]
    assert all((tmp_path / "out" / journal).is_file() for journal in journals)


def test_bench_into_a_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "out").write_text("a file", encoding="utf-8")
    assert main(["scenario", "bench", str(tmp_path / "scenarios"), "--out", str(tmp_path / "out")]) == 2
    assert "cannot create the directory" in capsys.readouterr().err
    assert main(["scenario", "bench", str(tmp_path / "absent"), "--out", str(tmp_path / "o2")]) == 2
    assert "is not a directory" in capsys.readouterr().err

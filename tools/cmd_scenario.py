"""``arvis scenario run|bench|demo``: ARC-Mem scenario files through the kernel, offline and deterministic,
one replay-verified journal per (scenario, condition), reported as a table, JSON, Markdown or HTML.
Their arguments are registered by ``tools.scenario.args``, which imports this module only when one runs.
``arvis scenario run --model URL``, a run with a model in the loop, is ``tools.model_loop.scenario_run``.

Exit codes: 0 when every run's journal verified by replay, no unit became CANON without review and no file
or run failed; 1 otherwise; 2 on a usage or I/O problem (a scenario file that cannot be read or parsed by
``run``, an output directory that cannot be written).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from arvis.scenario.conditions import Condition
from arvis.scenario.expectations import CONDITION_SUMMARY
from arvis.scenario.schema import Scenario
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, made_directory
from tools.output import print_json, print_table, progress_bar
from tools.scenario.load import iter_scenario_files, load_scenario
from tools.scenario.report import (
    AGGREGATE_COLUMNS,
    ASSERTION_COLUMNS,
    RUN_COLUMNS,
    aggregate_row,
    all_ok,
    assertion_row,
    assertions_cell,
    assertions_pooled,
    bench_document,
    error_document,
    expectation_verdict,
    headline,
    journal_name,
    run_row,
    scenario_document,
    skip_reason,
    to_json_bytes,
    to_markdown,
    verdict,
)
from tools.scenario.runner import RunResult, run_scenario

DEMO_CONDITIONS = tuple(Condition)  # the kernel, its ablations, the naive memories and the declared oracle
REPORTS = ("report.md", "report.json", "report.html")


def _conditions(chosen: Sequence[str] | None) -> list[Condition]:
    """The chosen conditions in their canonical order, each once."""
    wanted = set(chosen or [condition.value for condition in Condition])
    return [condition for condition in Condition if condition.value in wanted]


def _play(
    label: str,
    scenario: Scenario,
    conditions: Sequence[Condition],
    journals: Path,
    *,
    base: Path | None = None,
    tick: Callable[..., None] = lambda **_: None,
    stem: str | None = None,
) -> dict[str, Any]:
    """Every condition on one scenario; a run that fails is recorded, the others go on."""
    results: list[RunResult] = []
    errors: list[dict[str, Any]] = []
    if scenario.runnable:
        for condition in conditions:
            tick(description=f"{scenario.id} {condition.value}")
            journal = journals / journal_name(stem or scenario.id, condition)
            try:
                results.append(run_scenario(scenario, condition, journal))
            except CommandError:  # a journal it may not replace: exit 2, the file left as it is
                raise
            except Exception as exc:  # reported, never a crash of the whole bench
                errors.append(error_document(label, f"{type(exc).__name__}: {exc}", condition.value))
            tick(advance=1)
    return scenario_document(label, scenario, results, errors=errors, base=base)


def _play_all(
    files: list[tuple[str, Scenario]], conditions: Sequence[Condition], journals: Path, base: Path
) -> list[dict[str, Any]]:
    """Every file; two files with the same scenario id get distinct journals (the second one's file name
    is added to its journals' names)."""
    runs = sum(len(conditions) for _, scenario in files if scenario.runnable)
    seen: set[str] = set()
    documents = []
    with progress_bar("scenarios", runs) as tick:
        for label, scenario in files:
            stem = scenario.id if scenario.id not in seen else f"{scenario.id}.{Path(label).stem}"
            seen.add(scenario.id)
            documents.append(_play(label, scenario, conditions, journals, base=base, tick=tick, stem=stem))
    return documents


def to_html(document: dict[str, Any]) -> str:
    """The HTML report; pygal and Jinja2 load only when one is asked for."""
    from tools.scenario.report_html import to_html as render

    return render(document)


def _write_reports(out: Path, document: dict[str, Any]) -> None:
    contents = {
        "report.md": to_markdown(document).encode("utf-8"),
        "report.json": to_json_bytes(document),
        "report.html": to_html(document).encode("utf-8"),
    }
    try:
        for name in REPORTS:
            (out / name).write_bytes(contents[name])
    except OSError as exc:
        raise CommandError(f"cannot write the reports under {out}: {exc}") from None


def _print_assertions(scenario: dict[str, Any]) -> None:
    """The scenario's own assertions across the runs, then each run that failed."""
    if scenario["assertion_summary"]:
        ran = [run["condition"] for run in scenario["runs"]]
        rows = [assertion_row(row, ran) for row in scenario["assertion_summary"]]
        title = f"{scenario['scenario']}: the scenario's own assertions, on the final state"
        print_table(title, ASSERTION_COLUMNS, rows)
        said = expectation_verdict(scenario)
        if said:
            print(said)
    for error in scenario["errors"]:
        print(f"{error['condition']}: run failed: {error['error']}")


def _load(path: Path) -> Scenario:
    """load_scenario, its error on one line (a YAML error spans several)."""
    try:
        return load_scenario(path)
    except CommandError as exc:
        raise CommandError(" ".join(str(exc).split()), exc.hint) from None


def _run(options: argparse.Namespace) -> int:
    scenario = _load(options.file)
    conditions = _conditions(options.condition)
    if getattr(options, "legacy_out", None) is not None:
        print("arvis: note: `scenario run --db DIR` is deprecated; write --out DIR", file=sys.stderr)
        options.out = options.legacy_out
    journals = made_directory(options.out) if scenario.runnable else options.out
    single = _play(str(options.file), scenario, conditions, journals)
    document = bench_document(conditions, [single])
    if not scenario.runnable:
        print(f"arvis: skipped {options.file}: {single['skipped']}", file=sys.stderr)
    if options.output == "json":
        print_json(single)
    elif options.output == "md":
        sys.stdout.write(to_markdown(document))
    elif options.output == "html":
        sys.stdout.write(to_html(document))
    else:
        for played in document["scenarios"]:
            runs = [run_row(run) for run in played["runs"]]
            print_table(f"scenario {scenario.id}", RUN_COLUMNS, runs, right_from=1)
            _print_assertions(played)
        for skipped in document["skipped"]:
            print(f"skipped {skipped['file']}: {skipped['reason']}")
        print(verdict(document))
    # a scenario that cannot run fails: nothing was played, so nothing was shown to hold
    return EXIT_OK if scenario.runnable and all_ok(document) else EXIT_FAILED


def _bench(options: argparse.Namespace) -> int:
    out: Path = options.out
    loaded: list[tuple[str, Scenario]] = []
    errors: list[dict[str, Any]] = []
    for path in iter_scenario_files(options.directory):
        try:
            loaded.append((path.name, load_scenario(path)))
        except CommandError as exc:
            errors.append(error_document(path.name, str(exc).replace(str(path), path.name)))
    conditions = _conditions(options.condition)
    journals = made_directory(out / "journals")
    document = bench_document(conditions, _play_all(loaded, conditions, journals, out), errors)
    _write_reports(out, document)
    print_table(
        f"{options.directory}: aggregate per condition",
        AGGREGATE_COLUMNS,
        [aggregate_row(item) for item in document["aggregate"]],
        right_from=1,  # figures right-aligned
    )
    print(headline(document))
    for error in document["errors"]:
        where = f"{error['file']} {error['condition']}" if error["condition"] else error["file"]
        print(f"error: {where}: {error['error']}")
    print(verdict(document))
    print("reports: " + ", ".join(str(out / name) for name in REPORTS))
    return EXIT_OK if all_ok(document) else EXIT_FAILED


def _of(figure: dict[str, Any]) -> str:
    return f"{figure['numerator']} of {figure['denominator']}"


def in_plain_words(run: dict[str, Any]) -> str:
    """One sentence: what the condition is and what it did with the scenario."""
    m, condition = run["metrics"], run["condition"]
    learned = "had no new fact to learn"
    if m["facts_learned"]["denominator"]:
        learned = f"learned {_of(m['facts_learned'])} facts told during play"
    return (
        f"{condition} ({CONDITION_SUMMARY[Condition(condition)]}) kept {_of(m['fact_survival'])} seeded facts"
        f" in the block at every evaluated turn, {learned}, and let in {_of(m['attack_admission'])} attacks"
        f" and {_of(m['benign_admission'])} true statements"
        f" (raw count: {_of(m['attack_admission_raw'])} and {_of(m['benign_admission_raw'])})."
    )


DEMO_COLUMNS = (
    "condition", "seeded facts kept", "facts learned", "attacks let in ↓", "true statements let in",
    "questions turned into units ↓", "authority kept", "assertions held", "replay",
)  # fmt: skip


def _counts(figure: dict[str, Any]) -> str:
    return f"{figure['numerator']}/{figure['denominator']}" if figure["denominator"] else "n/a"


def demo_row(run: dict[str, Any]) -> tuple[str, ...]:
    """The demo's side-by-side table: counts, the raw ones beside the corrected (every figure and rate is
    in the reports)."""
    m = run["metrics"]
    return (
        run["condition"],
        _counts(m["fact_survival"]),
        _counts(m["facts_learned"]),
        f"{_counts(m['attack_admission'])} (raw {_counts(m['attack_admission_raw'])})",
        f"{_counts(m['benign_admission'])} (raw {_counts(m['benign_admission_raw'])})",
        _counts(m["questions_admitted"]),
        _counts(m["authority_kept"]),
        assertions_cell(assertions_pooled([run])),
        "verified" if run["replay_verified"] else "NOT VERIFIED",
    )


def _demo(options: argparse.Namespace) -> int:
    path: Path = options.file
    if not path.is_file():
        raise CommandError(f"no scenario at {path}", hint="run from the repository root, or pass FILE")
    scenario = _load(path)
    if not scenario.runnable:
        raise CommandError(f"{path} cannot run offline: {skip_reason(scenario)}")
    out: Path = options.out
    journals = made_directory(out / "journals")
    document = bench_document(
        DEMO_CONDITIONS, _play_all([(path.name, scenario)], DEMO_CONDITIONS, journals, out)
    )
    _write_reports(out, document)
    [played] = document["scenarios"]
    print(
        f"scenario {scenario.id}: {len(scenario.facts)} ground-truth facts, {len(scenario.turns)} turns, "
        "played under the blind protocol: the memory saw the seeds and each turn's text, never the answer key"
    )
    print_table(
        f"{scenario.id}: the memory kernel against naive memories",
        DEMO_COLUMNS,
        [demo_row(run) for run in played["runs"]],
        right_from=1,
    )
    print("\nIn plain words:")
    for run in played["runs"]:
        print(f"- {in_plain_words(run)}")
    print()
    _print_assertions(played)
    summary = document["summary"]
    if summary["errors"]:
        print(f"FAILED: {summary['errors']} run(s) failed (above); {verdict(document)}")
    elif summary["all_verified"]:
        print(f"every journal ({summary['runs']}, under {journals}) was verified by replay, byte for byte")
    else:
        print(f"NOT VERIFIED: {verdict(document)}")
    print(f"HTML report: {out / 'report.html'} (also report.md and report.json)")
    return EXIT_OK if all_ok(document) else EXIT_FAILED

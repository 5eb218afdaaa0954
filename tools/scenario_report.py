"""Scenario reports as data: one document per scenario file, the bench document with its aggregate per
condition, and its JSON and Markdown renderings. Pure functions: the same runs give the same bytes (keys
sorted, no timestamps or timings, journal paths relative to the report's directory).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from arvis.scenario.conditions import Condition
from arvis.scenario.schema import Scenario
from tools.scenario_runner import RunResult

__all__ = [
    "all_ok",
    "bench_document",
    "error_document",
    "journal_name",
    "scenario_document",
    "skip_reason",
    "to_json_bytes",
    "to_markdown",
]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def journal_name(scenario_id: str, condition: Condition) -> str:
    """``<scenario-id>-<CONDITION>.db``, the id made safe for a file name."""
    return f"{_UNSAFE.sub('_', scenario_id).strip('.') or 'scenario'}-{condition.value}.db"


def skip_reason(scenario: Scenario) -> str:
    missing = [
        what
        for what, have in (("ground-truth facts", scenario.facts), ("scripted turns", scenario.turns))
        if not have
    ]
    reason = "not runnable offline: no " + " and no ".join(missing)
    model = [warning for warning in scenario.warnings if "needs a model" in warning]
    return f"{reason} ({'; '.join(model)})" if model else reason


def _run_json(result: RunResult, base: Path | None) -> dict[str, Any]:
    document = result.to_json()
    if base is not None:
        journal = Path(result.journal)
        try:
            document["journal"] = journal.relative_to(base).as_posix()
        except ValueError:
            document["journal"] = journal.as_posix()
    return document


def scenario_document(
    file: str,
    scenario: Scenario,
    results: Sequence[RunResult],
    *,
    errors: Sequence[dict[str, Any]] = (),
    base: Path | None = None,
) -> dict[str, Any]:
    """What ``scenario run -o json`` prints, and one element of the bench's ``scenarios``."""
    return {
        "scenario": scenario.id,
        "file": file,
        "category": scenario.category,
        "adversarial": scenario.adversarial,
        "facts": [{"id": fact.id, "text": fact.text} for fact in scenario.facts],
        "warnings": list(scenario.warnings),
        "skipped": None if scenario.runnable else skip_reason(scenario),
        "runs": [_run_json(result, base) for result in results],
        "errors": list(errors),
    }


def error_document(file: str, error: str, condition: str | None = None) -> dict[str, Any]:
    """A file that could not be loaded (condition None) or a run that failed; the message on one line."""
    return {"file": file, "condition": condition, "error": " ".join(error.split())}


def _mean(values: Iterable[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return round(sum(present) / len(present), 6) if present else None


def _aggregate(condition: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    metrics = [run["metrics"] for run in runs]
    attacked = [m for m in metrics if m["attacks"]]
    return {
        "condition": condition,
        "runs": len(runs),
        "fact_survival_mean": _mean(m["fact_survival"] for m in metrics),
        "attack_admission_mean": _mean(m["attack_admission"] for m in attacked),
        "scenarios_with_attacks": len(attacked),
        "attacks": sum(m["attacks"] for m in metrics),
        "attacks_admitted": sum(m["attacks_admitted"] for m in metrics),
        "contested_turns_total": sum(m["contested_turns"] for m in metrics),
        "budget_high_water_max": max((m["budget_high_water"] for m in metrics), default=0),
        "canon_auto_assigned_total": sum(m["canon_auto_assigned"] for m in metrics),
        "replay_verified": sum(1 for run in runs if run["replay_verified"]),
        "assertions_failed": sum(1 for run in runs for a in run["assertions"] if not a["passed"]),
    }


def bench_document(
    conditions: Sequence[Condition],
    documents: Sequence[dict[str, Any]],
    errors: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The report of a directory: scenarios that ran, files skipped, files that failed, the aggregate."""
    ran = sorted((d for d in documents if d["skipped"] is None), key=lambda d: (d["file"], d["scenario"]))
    skipped = sorted(
        (
            {"file": d["file"], "scenario": d["scenario"], "reason": d["skipped"]}
            for d in documents
            if d["skipped"]
        ),
        key=lambda d: d["file"],
    )
    runs = [run for d in ran for run in d["runs"]]
    failed = [*sorted(errors, key=lambda e: e["file"]), *(e for d in ran for e in d["errors"])]
    aggregate = [
        _aggregate(condition.value, [run for run in runs if run["condition"] == condition.value])
        for condition in conditions
    ]
    return {
        "conditions": [condition.value for condition in conditions],
        "aggregate": aggregate,
        "scenarios": ran,
        "skipped": skipped,
        "errors": failed,
        "summary": {
            "scenarios": len(ran),
            "skipped": len(skipped),
            "errors": len(failed),
            "runs": len(runs),
            "replay_verified": sum(1 for run in runs if run["replay_verified"]),
            "canon_auto_assigned": sum(run["metrics"]["canon_auto_assigned"] for run in runs),
            "all_verified": all(run["replay_verified"] for run in runs),
        },
    }


def all_ok(document: dict[str, Any]) -> bool:
    """Exit 0 only when every run replayed verified, nothing was CANON without review and nothing failed."""
    summary = document["summary"]
    return bool(summary["all_verified"]) and summary["canon_auto_assigned"] == 0 and summary["errors"] == 0


def to_json_bytes(document: dict[str, Any]) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return [*lines, ""]


RUN_COLUMNS = (
    "condition", "fact survival", "attack admission", "attacks admitted", "contested turns",
    "budget high water", "canon auto", "assertions", "replay",
)  # fmt: skip


def run_row(run: dict[str, Any]) -> tuple[str, ...]:
    """One condition's key metrics, as the run table, the Markdown and the HTML show them."""
    m = run["metrics"]
    passed = sum(1 for assertion in run["assertions"] if assertion["passed"])
    return (
        run["condition"],
        number(m["fact_survival"]),
        number(m["attack_admission"]),
        f"{m['attacks_admitted']}/{m['attacks']}",
        str(m["contested_turns"]),
        str(m["budget_high_water"]),
        str(m["canon_auto_assigned"]),
        f"{passed}/{len(run['assertions'])}",
        "verified" if run["replay_verified"] else "NOT VERIFIED",
    )


AGGREGATE_COLUMNS = (
    "condition", "runs", "mean fact survival", "mean attack admission", "contested turns",
    "max budget high water", "canon auto", "replay verified", "assertions failed",
)  # fmt: skip


def aggregate_row(item: dict[str, Any]) -> tuple[str, ...]:
    return (
        item["condition"],
        str(item["runs"]),
        number(item["fact_survival_mean"]),
        f"{number(item['attack_admission_mean'])} ({item['scenarios_with_attacks']} attacked)",
        str(item["contested_turns_total"]),
        str(item["budget_high_water_max"]),
        str(item["canon_auto_assigned_total"]),
        f"{item['replay_verified']}/{item['runs']}",
        str(item["assertions_failed"]),
    )


def failures(run: dict[str, Any]) -> list[str]:
    return [f"{a['type']}: {a['failure']}" for a in run["assertions"] if not a["passed"]]


def verdict(document: dict[str, Any]) -> str:
    summary = document["summary"]
    if summary["runs"] == 0:
        return "No run, no journal to verify."
    if summary["runs"] == 1:
        return (
            "The journal verified by replay."
            if summary["all_verified"]
            else "The journal NOT verified by replay."
        )
    if summary["all_verified"]:
        return f"All {summary['runs']} journals verified by replay."
    return f"Only {summary['replay_verified']} of {summary['runs']} journals verified by replay."


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def headline(document: dict[str, Any]) -> str:
    summary = document["summary"]
    scenarios, conditions = (
        _count(summary["scenarios"], "scenario"),
        _count(len(document["conditions"]), "condition"),
    )
    errors = _count(summary["errors"], "error")
    return f"{scenarios} run under {conditions}, {summary['skipped']} skipped, {errors}."


def to_markdown(document: dict[str, Any]) -> str:
    summary = document["summary"]
    lines = [
        "# arvis scenario report",
        "",
        f"{headline(document)} {verdict(document)} "
        f"CANON assigned without review: {summary['canon_auto_assigned']}.",
        "",
        "## Aggregate per condition",
        "",
        *_table(AGGREGATE_COLUMNS, (aggregate_row(item) for item in document["aggregate"])),
    ]
    for scenario in document["scenarios"]:
        lines += [
            f"## {scenario['scenario']}",
            "",
            f"File `{scenario['file']}`, category {scenario['category']}.",
        ]
        lines += ["", *_table(RUN_COLUMNS, (run_row(run) for run in scenario["runs"]))]
        for run in scenario["runs"]:
            lines += [f"- {run['condition']}: assertion failed: {text}" for text in failures(run)]
            replay = "verified by replay" if run["replay_verified"] else "NOT verified by replay"
            lines.append(
                f"- {run['condition']}: journal `{run['journal']}`, {run['entries']} entries, {replay}"
            )
        lines += [f"- warning: {warning}" for warning in scenario["warnings"]]
        lines += [f"- {e['condition']}: run failed: {e['error']}" for e in scenario["errors"]]
        lines.append("")
    if document["skipped"]:
        lines += [
            "## Skipped",
            "",
            *(f"- `{s['file']}` ({s['scenario']}): {s['reason']}" for s in document["skipped"]),
        ]
        lines.append("")
    file_errors = [e for e in document["errors"] if e["condition"] is None]
    if file_errors:
        lines += ["## Errors", "", *(f"- `{e['file']}`: {e['error']}" for e in file_errors), ""]
    return "\n".join(lines)

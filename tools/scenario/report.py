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
from arvis.scenario.expectations import checks, not_expected
from arvis.scenario.outcome import rate
from arvis.scenario.schema import Scenario
from tools.scenario.runner import RunResult

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
        "assertion_summary": assertion_summary([result.to_json() for result in results]),
        "errors": list(errors),
    }


def assertion_summary(runs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per assertion of the scenario (every run checks the same ones, in the same order): what it
    checks, the conditions expected to hold it and why the others are not, where it held, and why not."""
    rows = []
    for position, first in enumerate(runs[0]["assertions"] if runs else []):
        row: dict[str, Any] = {
            "type": first["type"],
            "params": first["params"],
            "checks": checks(first["type"], first["params"]),
            "expected": [],
            "not_expected": {},
            "held": [],
            "failed": {},
        }
        for run in runs:
            assertion, condition = run["assertions"][position], run["condition"]
            reason = not_expected(condition, assertion["type"])
            if reason is None:
                row["expected"].append(condition)
            else:
                row["not_expected"][condition] = reason
            if assertion["passed"]:
                row["held"].append(condition)
            else:
                row["failed"][condition] = assertion["failure"]
        row["unexpected_failures"] = [c for c in row["failed"] if c in row["expected"]]
        rows.append(row)
    return rows


def error_document(file: str, error: str, condition: str | None = None) -> dict[str, Any]:
    """A file that could not be loaded (condition None) or a run that failed; the message on one line."""
    return {"file": file, "condition": condition, "error": " ".join(error.split())}


# the two-sided figures, each {value, numerator, denominator}; higher is better except where marked ↓
# (the raw figures, read as before probes and requests were told apart, beside the corrected ones)
RATE_METRICS = (
    "fact_survival", "facts_learned", "attack_admission", "attack_admission_raw", "benign_admission",
    "benign_admission_raw", "questions_admitted", "authority_kept", "admission_precision",
    "admission_recall", "stale_facts",
)  # fmt: skip


def _pooled(metrics: Sequence[dict[str, Any]], name: str) -> dict[str, Any]:
    """A figure over many runs: the sum of the numerators over the sum of the denominators."""
    return rate(sum(m[name]["numerator"] for m in metrics), sum(m[name]["denominator"] for m in metrics))


def _aggregate(condition: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    metrics = [run["metrics"] for run in runs]
    return {
        "condition": condition,
        "runs": len(runs),
        **{name: _pooled(metrics, name) for name in RATE_METRICS},
        "facts_unstated": sum(len(m["facts_unstated"]) for m in metrics),
        "contested_turns_total": sum(m["contested_turns"] for m in metrics),
        "budget_high_water_max": max((m["budget_high_water"] for m in metrics), default=0),
        "canon_auto_assigned_total": sum(m["canon_auto_assigned"] for m in metrics),
        "replay_verified": sum(1 for run in runs if run["replay_verified"]),
        **assertions_pooled(runs),
    }


def assertions_pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """How many of the runs' assertions held, of all of them and of those expected to hold."""
    held = total = expected_held = expected = 0
    for run in runs:
        for assertion in run["assertions"]:
            total += 1
            held += assertion["passed"]
            if not_expected(run["condition"], assertion["type"]) is None:
                expected += 1
                expected_held += assertion["passed"]
    return {
        "assertions_held": rate(held, total),
        "assertions_held_where_expected": rate(expected_held, expected),
    }


def bench_document(
    conditions: Sequence[Condition],
    documents: Sequence[dict[str, Any]],
    errors: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The report of a directory: scenarios that ran, files skipped, files that failed, the aggregate."""
    ran = sorted((d for d in documents if d["skipped"] is None), key=lambda d: (d["file"], d["scenario"]))
    skipped = [
        {"file": d["file"], "scenario": d["scenario"], "reason": d["skipped"]}
        for d in sorted(documents, key=lambda d: d["file"])
        if d["skipped"]
    ]
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


def fraction(figure: dict[str, Any]) -> str:
    """``0.857 (6/7)``: a rate with the counts behind it."""
    return f"{number(figure['value'])} ({figure['numerator']}/{figure['denominator']})"


def _table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += [
        "| " + " | ".join(str(cell).replace("|", "\\|").replace("\n", " ") for cell in row) + " |"
        for row in rows
    ]
    return [*lines, ""]


METRIC_COLUMNS = (
    "fact survival", "facts learned", "attack admission ↓", "attack admission, raw ↓", "benign admission",
    "benign admission, raw", "questions admitted ↓", "authority kept", "precision", "recall",
    "stale facts ↓",
)  # fmt: skip
RUN_COLUMNS = (
    "condition", *METRIC_COLUMNS, "contested turns", "budget high water", "canon auto", "assertions held",
    "replay",
)  # fmt: skip


def run_row(run: dict[str, Any]) -> tuple[str, ...]:
    """One condition's key metrics, as the run table, the Markdown and the HTML show them."""
    m = run["metrics"]
    return (
        run["condition"],
        *(fraction(m[name]) for name in RATE_METRICS),
        str(m["contested_turns"]),
        str(m["budget_high_water"]),
        str(m["canon_auto_assigned"]),
        assertions_cell(assertions_pooled([run])),
        "verified" if run["replay_verified"] else "NOT VERIFIED",
    )


AGGREGATE_COLUMNS = (
    "condition", "runs", *METRIC_COLUMNS, "contested turns", "max budget high water", "canon auto",
    "replay verified", "assertions held",
)  # fmt: skip


def assertions_cell(pooled: dict[str, Any]) -> str:
    """``6/7 (6/6 expected)``: held of all, and of those expected to hold."""
    held, expected = pooled["assertions_held"], pooled["assertions_held_where_expected"]
    return (
        f"{held['numerator']}/{held['denominator']} "
        f"({expected['numerator']}/{expected['denominator']} expected)"
    )


def aggregate_row(item: dict[str, Any]) -> tuple[str, ...]:
    return (
        item["condition"],
        str(item["runs"]),
        *(fraction(item[name]) for name in RATE_METRICS),
        str(item["contested_turns_total"]),
        str(item["budget_high_water_max"]),
        str(item["canon_auto_assigned_total"]),
        f"{item['replay_verified']}/{item['runs']}",
        assertions_cell(item),
    )


ASSERTION_COLUMNS = ("assertion", "what it checks", "expected under", "held under", "where not, and why")


def _which(chosen: Sequence[str], every: Sequence[str]) -> str:
    """``all 9``, ``none``, ``all but A, B`` or ``A, B``: a set of conditions, the shorter way."""
    if len(chosen) == len(every):
        return f"all {len(every)}"
    if not chosen:
        return "none"
    missing = [condition for condition in every if condition not in chosen]
    return f"all but {', '.join(missing)}" if len(missing) < len(chosen) else ", ".join(chosen)


def assertion_row(row: dict[str, Any], conditions: Sequence[str]) -> tuple[str, ...]:
    """One assertion of the scenario across the conditions, as the demo, Markdown and HTML show it."""
    why = [
        f"{condition}, where it is expected to hold: {failure}"
        for condition, failure in row["failed"].items()
        if condition not in row["not_expected"]
    ]
    reasons: dict[str, list[str]] = {}
    for condition in row["failed"]:
        if condition in row["not_expected"]:
            reasons.setdefault(row["not_expected"][condition], []).append(condition)
    why += [f"{', '.join(chosen)}: not expected ({reason})" for reason, chosen in reasons.items()]
    return (
        row["type"],
        row["checks"],
        _which(row["expected"], conditions),
        _which(row["held"], conditions),
        "; ".join(why) or "-",
    )


def expectation_verdict(scenario: dict[str, Any], condition: str = "FULL_AWMU") -> str | None:
    """Whether ``condition`` held every assertion expected of it; None when it did not run."""
    rows = [row for row in scenario["assertion_summary"] if condition in row["expected"]]
    if not any(condition in row["held"] or condition in row["failed"] for row in rows):
        return None
    missed = [row for row in rows if condition in row["failed"]]
    if not missed:
        return f"{condition} held every assertion expected of it ({len(rows)} of {len(rows)})."
    listed = "; ".join(f"{row['type']}: {row['failed'][condition]}" for row in missed)
    return f"{condition} did not hold {len(missed)} of the {len(rows)} assertions expected of it: {listed}."


def verdict(document: dict[str, Any]) -> str:
    summary = document["summary"]
    if summary["runs"] == 0:
        return "No run, no journal to verify."
    if summary["runs"] == 1:
        return f"The journal {'verified' if summary['all_verified'] else 'NOT verified'} by replay."
    if summary["all_verified"]:
        return f"All {summary['runs']} journals verified by replay."
    return f"Only {summary['replay_verified']} of {summary['runs']} journals verified by replay."


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def headline(document: dict[str, Any]) -> str:
    summary = document["summary"]
    scenarios = _count(summary["scenarios"], "scenario")
    conditions = _count(len(document["conditions"]), "condition")
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
        "Blind protocol: the memory saw seeds and each turn's text on its channel, never a label. Figures "
        "are pooled over the runs (numerator/denominator); ↓ marks the ones where lower is better. "
        "SCRIPTED_ORACLE is a declared stand-in that reads the answer key, not a blind figure.",
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
        if scenario["assertion_summary"]:
            ran = [run["condition"] for run in scenario["runs"]]
            lines += [
                "The scenario's own assertions, checked on the final state of every run:",
                "",
                *_table(
                    ASSERTION_COLUMNS, (assertion_row(row, ran) for row in scenario["assertion_summary"])
                ),
            ]
            said = expectation_verdict(scenario)
            lines += [said, ""] if said else []
        for run in scenario["runs"]:
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
            "",
        ]
    file_errors = [e for e in document["errors"] if e["condition"] is None]
    if file_errors:
        lines += ["## Errors", "", *(f"- `{e['file']}`: {e['error']}" for e in file_errors), ""]
    return "\n".join(lines)

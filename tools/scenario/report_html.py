"""The self-contained HTML report, readable from phone width up: tables scroll inside their own box, the
figures are drawn as HTML bars with each value in its own column, the rank over the turns is an inline
SVG line chart (pygal, no script, no external link), all in a Jinja2 template shipped with the package.
Deterministic: chart ids come from the scenario's position, pygal's dated comment and its script are
stripped.
"""

from __future__ import annotations

import re
import sys
from importlib import resources
from typing import Any

from jinja2 import Environment, StrictUndefined
from markupsafe import Markup

from tools.scenario.report import (
    AGGREGATE_COLUMNS,
    ASSERTION_COLUMNS,
    RUN_COLUMNS,
    aggregate_row,
    assertion_row,
    expectation_verdict,
    fraction,
    headline,
    run_row,
    verdict,
)


def _import_pygal() -> Any:
    """pygal, without the legacy import hook it appends for its map plugins (find_module, no find_spec):
    every later import that reaches that hook warns (ImportWarning, an error under -W error). No map here."""
    import pygal

    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, pygal.PluginImportFixer)]
    return pygal


pygal = _import_pygal()

TEMPLATE = "report_template.html.j2"
# marker radius per authority: the higher the authority, the bigger the dot
AUTHORITY_MARKER = {"PROVISIONAL": 1.5, "UNRELIABLE": 2.5, "RELIABLE": 3.5, "CANON": 5.0}
_STYLE = pygal.style.Style(
    background="white",
    plot_background="white",
    foreground="#222",
    foreground_strong="#111",
    foreground_subtle="#666",
    font_family="DejaVu Sans, Liberation Sans, Arial, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=13,
    title_font_size=15,
    value_label_font_size=13,
    colors=("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"),
)
_STRIP = (
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<script\b.*?</script>", re.S),
    re.compile(r'\s+xmlns(?::\w+)?="[^"]*"'),
)


LANE = 12  # rank units between two series that would be drawn on each other at a turn


def _lane(rank: int, drawn: list[int]) -> int:
    """``rank`` moved toward the middle by the first multiple of LANE that keeps it at least LANE from each
    point ``drawn`` at its turn: a fact at another's rank is drawn beside it, not under it."""
    height = rank
    while any(abs(height - other) < LANE for other in drawn):
        height += -LANE if rank > 500 else LANE
    return height


def rank_chart(index: int, scenario: dict[str, Any]) -> tuple[str, Markup | None] | None:
    """Per fact, the rank of the best unit stating it over the turns; the dot shows its authority. Drawn
    600 wide with no text under 13 px (the page never shrinks it below 11 px). The legend names each fact
    and the authorities it went through (the facts' texts are listed above the chart). None without a run;
    no chart (None) when no unit ever stated a fact."""
    chosen = [run for run in scenario["runs"] if run["condition"] == "FULL_AWMU"] or scenario["runs"][:1]
    if not chosen:
        return None
    run = chosen[0]
    if not any(trace for turn in run["turns"] for trace in turn["facts"].values()):
        return run["condition"], None
    chart = pygal.Line(
        js=[], disable_xml_declaration=True, style=_STYLE, x_title="turn", y_title="rank",
        width=600, height=300 + 20 * len(scenario["facts"]), range=(100, 900), print_labels=True,
        y_labels=[100, 300, 500, 700, 900], legend_at_bottom=True, legend_at_bottom_columns=1,
        truncate_legend=60, truncate_label=-1, show_minor_x_labels=False, x_labels_major_every=5,
        margin_right=90,  # room for an authority label printed at the last turn
    )  # fmt: skip
    chart.uuid = f"s{index}-rank"  # pygal ids a chart with a random uuid: pin it so the bytes repeat
    chart.x_labels = [str(turn["turn"]) for turn in run["turns"]]
    drawn: list[list[int]] = [[] for _ in run["turns"]]  # the heights drawn at each turn
    for fact in scenario["facts"]:
        values: list[Any] = []
        path: list[str] = []  # the authorities the fact's best unit went through, repeats collapsed
        for turn, at in zip(run["turns"], drawn, strict=True):
            trace = turn["facts"].get(fact["id"])
            if trace is None:
                values.append(None)
                continue
            at.append(height := _lane(trace["rank"], at))
            authority = trace["authority"]
            point: dict[str, Any] = {"value": height, "node": {"r": AUTHORITY_MARKER[authority]}}
            if path and authority != path[-1]:
                point["label"] = authority  # printed where the authority changes
            if not path or authority != path[-1]:
                path.append(authority)
            if not trace["in_block"]:
                point["style"] = "fill: white; stroke-width: 2"
            values.append(point)
        chart.add(f"{fact['id']} [{' > '.join(path) or 'never stated'}]", values)
    svg: str = chart.render(is_unicode=True)
    for pattern in _STRIP:
        svg = pattern.sub("", svg)
    return run["condition"], Markup(svg)  # pygal's own SVG: it escapes every label


CHART_METRICS = (
    ("fact_survival", "fact survival", "higher is better", "no seeded fact to keep"),
    ("facts_learned", "facts learned", "higher is better", "no fact to learn during play"),
    ("benign_admission", "benign admission", "higher is better", "no true statement to admit"),
    ("attack_admission", "attack admission", "lower is better", "no attack"),
)


def bar_chart(items: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The two-sided figures side by side, one panel per figure, one bar per condition, drawn by the
    template in HTML: each value is printed in its own column beside its bar, never on it. A panel where
    no condition had anything to count says so, and draws no bar."""
    panels = []
    for name, title, direction, empty in CHART_METRICS:
        rows = [
            {
                "condition": condition,
                "width": None if figures[name]["value"] is None else round(100 * figures[name]["value"], 1),
                "label": fraction(figures[name]),
            }
            for condition, figures in items
        ]
        counted = any(row["width"] is not None for row in rows)
        panels.append(
            {"title": title, "direction": direction, "rows": rows if counted else [], "empty": empty}
        )
    return panels


def _scenario_view(index: int, scenario: dict[str, Any], *, with_bars: bool) -> dict[str, Any]:
    rank = rank_chart(index, scenario)
    ran = [run["condition"] for run in scenario["runs"]]
    return {
        "anchor": f"s{index}",
        "data": scenario,
        "rows": [run_row(run) for run in scenario["runs"]],
        "assertion_rows": [assertion_row(row, ran) for row in scenario.get("assertion_summary", [])],
        "expectation": expectation_verdict(scenario) if scenario.get("assertion_summary") else None,
        "rank_condition": None if rank is None else rank[0],
        "rank_chart": None if rank is None else rank[1],
        "bars": bar_chart([(run["condition"], run["metrics"]) for run in scenario["runs"]])
        if with_bars
        else None,
    }


def to_html(document: dict[str, Any]) -> str:
    source = resources.files("tools.scenario").joinpath(TEMPLATE).read_text(encoding="utf-8")
    environment = Environment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    several = len(document["scenarios"]) > 1  # one scenario: its own bars are the aggregate's
    return environment.from_string(source).render(
        document=document,
        verdict=verdict(document),
        headline=headline(document),
        run_columns=RUN_COLUMNS,
        aggregate_columns=AGGREGATE_COLUMNS,
        aggregate_rows=[aggregate_row(item) for item in document["aggregate"]],
        aggregate_bars=bar_chart([(item["condition"], item) for item in document["aggregate"]]),
        several=several,
        assertion_columns=ASSERTION_COLUMNS,
        scenarios=[
            _scenario_view(index, s, with_bars=several)
            for index, s in enumerate(document["scenarios"], start=1)
        ],
        authorities=list(AUTHORITY_MARKER),
        lane=LANE,
    )

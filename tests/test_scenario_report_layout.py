"""The HTML report laid out by a real browser (Debian's chromium, headless), at 1280 px and at a phone's
390 px: the boxes of what it drew are measured, not looked at. No label overlaps a bar, no value label
overlaps another, nothing sticks out of the page (a table wider than the page scrolls inside its own box),
every chart says what it shows, a panel with nothing to count draws no bar, and a one-scenario report has
no duplicate chart. The rank chart's text is at least 11 px at either width (a chart wider than the page
scrolls inside its own box), and every series of it can be seen: two facts at the same rank over the same
turns are both drawn where the browser shows them, neither under the other.

The report itself has no script; a copy of it gets one measuring script, whose result the browser writes
into the DOM it dumps. `.ci/run` installs chromium; where it is absent the test skips, saying so, except
under ``ARVIS_REQUIRE_CHROMIUM=1`` (set by `.ci/run` once it is installed), where that is a failure.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGSHIP = ROOT / "scenarios" / "flagship-dead-king.yml"
LEARNING = ROOT / "scenarios" / "user-facts-learning.yml"
LATE_CHANGE = ROOT / "scenarios" / "paraphrase-attacks.yml"  # an authority label printed at the last turn
# two CANON facts seeded at the same rank that no turn mentions: the same rank at every turn
TWINS = """\
id: twins
groundTruth:
  - {id: north, text: The north gate of the city is sealed}
  - {id: south, text: The south gate of the city is sealed}
seedUnits:
  - {text: The north gate of the city is sealed, authority: CANON, rank: 900}
  - {text: The south gate of the city is sealed, authority: CANON, rank: 900}
turns: [{turn: 1, prompt: The market opens at dawn}, {turn: 2, prompt: The baker sells rye bread}, {turn: 3}]
"""
SMALLEST_TEXT = 11  # px, as the browser draws it
WIDTHS = (1280, 390)

if not Path(CHROMIUM).is_file():
    if os.environ.get("ARVIS_REQUIRE_CHROMIUM") == "1":
        raise RuntimeError(f"ARVIS_REQUIRE_CHROMIUM=1 but {CHROMIUM} is absent")
    pytest.skip(
        f"{CHROMIUM} is absent: the HTML report's layout was NOT checked in a browser "
        "(apt-get install chromium; .ci/run does)",
        allow_module_level=True,
    )

# measures the laid-out page and writes what it found into <pre id="layout-report">
MEASURE = """
<pre id="layout-report"></pre>
<script>
(function () {
  const box = (e) => e.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const width = document.documentElement.getBoundingClientRect().width;
  const found = { width: width, overlaps: [], piled: [], sticking_out: [], tables: [], figures: [],
                  panels: [], charts: [] };
  // HTML bars, and any SVG bar chart's bars (pygal draws each as a rect in a g.bar) with its texts
  const bars = [...document.querySelectorAll('.bar, svg .bar rect')].filter((b) => box(b).width > 0);
  const labels = [...document.querySelectorAll('.bar-value, .bar-name, .panel h4, figcaption, svg text')]
    .filter((label) => label.textContent.trim() !== '');
  for (const label of labels) {
    for (const bar of bars) {
      if (meets(box(label), box(bar))) { found.overlaps.push(label.textContent.trim()); }
    }
  }
  const values = [...document.querySelectorAll('.bar-value, svg text.value')];
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      if (meets(box(values[i]), box(values[j]))) {
        found.piled.push(values[i].textContent + ' / ' + values[j].textContent);
      }
    }
  }
  for (const element of document.body.querySelectorAll('*')) {
    const scroller = element.closest('.table-wrap, .chart-wrap');
    if (scroller && scroller !== element) { continue; }
    if (element.closest('#layout-report')) { continue; }
    const r = box(element);
    if (r.width > 0 && r.right > width + 0.5) {
      found.sticking_out.push(element.tagName + '.' + (element.getAttribute('class') || '') + ' right '
        + Math.round(r.right) + ' ' + element.textContent.trim().slice(0, 40));
    }
  }
  for (const table of document.querySelectorAll('table')) {
    const wrap = table.parentElement;
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX);
    found.tables.push({ cls: table.className, fits: box(table).right <= box(wrap).right + 0.5,
                        scrolls: scrolls && wrap.classList.contains('table-wrap') });
  }
  for (const figure of document.querySelectorAll('figure')) {
    const caption = figure.querySelector('figcaption');
    found.figures.push({ cls: figure.className, caption: caption ? caption.textContent.trim() : '' });
  }
  for (const panel of document.querySelectorAll('.panel')) {
    found.panels.push({ title: panel.querySelector('h4').textContent.trim(),
                        bars: panel.querySelectorAll('.bar-track').length,
                        empty: panel.textContent.includes('nothing to count') });
  }
  // each rank chart: its smallest text as drawn (font size times the SVG's scale), whether it fits its box
  // or scrolls inside it, and the series that no point of the page shows (each one's line and dots sampled)
  // (pygal draws a series in several groups, each of class serie-<n>: its line, its dots, its labels)
  const shows = (name, element, x, y) => {
    const at = () => new DOMPoint(x, y).matrixTransform(element.getScreenCTM());
    let p = at();
    if (p.y < 0 || p.y >= innerHeight) { scrollBy(0, p.y - innerHeight / 2); p = at(); }
    const hit = document.elementFromPoint(p.x, p.y);
    return hit !== null && hit.closest('.series') !== null && hit.closest('.series').classList.contains(name);
  };
  for (const figure of document.querySelectorAll('figure.chart')) {
    const svg = figure.querySelector('svg');
    const wrap = svg.parentElement;
    const sizes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '').map((t) => {
      const m = t.getScreenCTM();
      return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    });
    const fits = box(svg).right <= box(wrap).right + 0.5;
    const hidden = [];
    for (let n = 0; fits && svg.querySelector('.serie-' + n); n++) {
      const name = 'serie-' + n;
      const samples = [...svg.querySelectorAll('.' + name + ' circle')]
        .map((c) => [c, c.cx.baseVal.value, c.cy.baseVal.value]);
      for (const line of svg.querySelectorAll('.' + name + ' path')) {
        for (let at = 0; at <= line.getTotalLength(); at += 2) {
          const p = line.getPointAtLength(at);
          samples.push([line, p.x, p.y]);
        }
      }
      if (!samples.some(([e, x, y]) => shows(name, e, x, y))) { hidden.push(svg.id + ' ' + name); }
    }
    found.charts.push({ smallest: Math.min(...sizes), fits: fits, hidden: hidden,
                        scrolls: ['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX) });
  }
  document.getElementById('layout-report').textContent = JSON.stringify(found);
})();
</script>
"""


def _arvis(*argv: object) -> tuple[int, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main([str(arg) for arg in argv])
    return code, stdout.getvalue()


def _measure(page: Path, width: int, tmp_path: Path) -> dict[str, Any]:
    """The report at ``width`` px (the html element held to it: headless windows are at least 500 px)."""
    source = page.read_text(encoding="utf-8")
    pinned = f"<style>html {{ width: {width}px; }}</style>"
    probe = tmp_path / f"{page.stem}-{width}.html"
    probe.write_text(source.replace("</head>", pinned + "</head>").replace("</body>", MEASURE + "</body>"))
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'chromium-profile'}", f"--window-size={max(width, 500)},1000",
        "--dump-dom", probe.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=False, env={"HOME": str(tmp_path)}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    match = re.search(r'<pre id="layout-report">(.*?)</pre>', done.stdout, re.S)
    assert match and match.group(1), "the measuring script did not run"
    found: dict[str, Any] = json.loads(html.unescape(match.group(1)))
    return found


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A one-scenario report (zeros, n/a and a figure with nothing to count) and a three-scenario bench."""
    base = tmp_path_factory.mktemp("layout")
    conditions = [arg for c in ("FULL_AWMU", "NO_AWMU", "RECENCY_BUFFER") for arg in ("-c", c)]
    code, page = _arvis("scenario", "run", FLAGSHIP, "-o", "html", *conditions, "--out", base / "j")
    assert code == 0
    single = base / "single.html"
    single.write_text(page, encoding="utf-8")
    directory = base / "scenarios"
    directory.mkdir()
    for source in (FLAGSHIP, LEARNING, LATE_CHANGE):
        shutil.copyfile(source, directory / source.name)
    code, _ = _arvis("scenario", "bench", directory, *conditions, "--out", base / "bench")
    assert code == 0
    twins = base / "twins.yml"
    twins.write_text(TWINS, encoding="utf-8")
    code, page = _arvis("scenario", "run", twins, "-o", "html", "-c", "FULL_AWMU", "--out", base / "t")
    assert code == 0
    (base / "twins.html").write_text(page, encoding="utf-8")
    return {"single": single, "bench": base / "bench" / "report.html", "twins": base / "twins.html"}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["single", "bench"])
def test_no_label_overlaps_a_bar_and_nothing_sticks_out(
    reports: dict[str, Path], name: str, width: int, tmp_path: Path
) -> None:
    found = _measure(reports[name], width, tmp_path)
    assert found["width"] == width
    assert found["overlaps"] == []
    assert found["piled"] == []
    assert found["sticking_out"] == []
    assert found["tables"], "the report has tables"
    for table in found["tables"]:  # a table fits its box, or scrolls inside it
        assert table["fits"] or table["scrolls"], table
    for figure in found["figures"]:
        assert len(figure["caption"]) > 40, figure  # each chart says what it shows
    assert found["panels"]
    for panel in found["panels"]:  # a figure nobody had anything to count draws no bar
        assert (panel["bars"] == 0) == panel["empty"], panel


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["single", "bench", "twins"])
def test_the_rank_chart_is_readable_and_shows_every_series(
    reports: dict[str, Path], name: str, width: int, tmp_path: Path
) -> None:
    found = _measure(reports[name], width, tmp_path)
    assert found["sticking_out"] == []
    assert found["charts"], "the report has a rank chart"
    for chart in found["charts"]:
        assert chart["smallest"] >= SMALLEST_TEXT, chart  # not shrunk to a phone's width
        assert chart["fits"] or chart["scrolls"], chart  # wider than the page: it scrolls in its own box
        if width == 1280:
            assert chart["fits"], chart
            assert chart["hidden"] == [], chart  # a series at another's rank is drawn beside it


def test_a_one_scenario_report_has_no_duplicate_chart(reports: dict[str, Path], tmp_path: Path) -> None:
    single = _measure(reports["single"], 1280, tmp_path)
    assert [figure["cls"] for figure in single["figures"]] == ["bars", "chart"]  # the bars once, the ranks
    learned = [panel for panel in single["panels"] if panel["title"].startswith("facts learned")]
    assert learned and learned[0]["empty"]  # the flagship has no fact to learn: no bar, said so
    bench = _measure(reports["bench"], 1280, tmp_path)
    assert [figure["cls"] for figure in bench["figures"]] == ["bars", *["chart", "bars"] * 3]

"""The HTML report in a real browser: headless Chromium (Debian's) driven by Playwright.

Each page is opened from ``file://``; the test records every request and every
console message, and holds what the page shows (the tooltip of a hovered point,
the confusion matrix at a typed or slid threshold, the sorted per-label table)
against the evaluator's own answers computed in Python
(``confusion_at_threshold``, ``precision_at_threshold``, ...). One screenshot
per kind goes to ``$SCORED_PR_ARTIFACTS`` (default: pytest's temporary
directory). Render time is measured in ``benchmarks/bench_html.py``, not here.

Locally the tests skip, saying why, without ``/usr/bin/chromium`` or the
``playwright`` package; under CI (``CI`` set) they fail instead, since
``.ci/run`` installs both.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import scored_pr
from cli_env import CMD, clean_env

CHROMIUM = os.environ.get("SCORED_PR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _unavailable() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright; no browser download needed)"
    return None


@pytest.fixture(scope="module")
def browser() -> Any:
    why = _unavailable()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("SCORED_PR_ARTIFACTS")
    path = Path(where) if where else tmp_path_factory.mktemp("html-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


class Page:
    """A report opened from file://, with its requests and console messages recorded."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 1000})
        self.requests: list[str] = []
        self.problems: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_selector("body[data-ready='1']", timeout=10_000)

    def check_clean(self) -> None:
        assert self.problems == []
        assert self.requests == [self.url]  # the file itself, nothing else: no network of any kind

    def value(self, selector: str) -> float:
        return float(self.page.get_attribute(selector, "data-value"))

    def confusion(self) -> tuple[float, float, float, float]:
        return tuple(self.value(f"#cm-{k}") for k in ("tp", "fp", "tn", "fn"))  # type: ignore[return-value]

    def type_threshold(self, t: float) -> None:
        self.page.fill("#th-value", repr(t))

    def hover_point(self, chart: str, x: float, y: float) -> dict[str, str]:
        px, py = self.page.evaluate(f"scoredPr.charts[{chart!r}].toPixel({x!r}, {y!r})")
        box = self.page.locator(f"#chart-{chart} canvas").bounding_box()
        self.page.mouse.move(box["x"] + px, box["y"] + py)
        tip = self.page.locator(f"#tip-{chart}")
        tip.wait_for(state="visible")
        cells = tip.locator("td").all()
        return {c.get_attribute("data-k"): c.inner_text() for c in cells}

    def data(self) -> dict[str, Any]:
        return self.page.evaluate("scoredPr.data")

    def shot(self, path: Path) -> None:
        self.page.screenshot(path=str(path), full_page=True)


def open_page(browser: Any, document: str, path: Path) -> Page:
    path.write_text(document, encoding="utf-8")
    return Page(browser, path)


def cases(n: int = 3000, seed: int = 0, rounding: int | None = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(y * 1.2, 1.0)
    return y, (np.round(s, rounding) if rounding is not None else s)


def numbers_equal(shown: str, expected: float) -> bool:
    """A number the page printed (6 significant digits, or NaN) against Python's."""
    if math.isnan(expected):
        return shown == "NaN"
    return math.isclose(float(shown), expected, rel_tol=1e-5, abs_tol=1e-12)


def every_kind() -> dict[str, Any]:
    y, s = cases()
    out: dict[str, Any] = {}
    for name, ev in (("exact", scored_pr.ScoredPrecisionRecallEvaluation()),
                     ("windowed", scored_pr.WindowedEvaluation(size=2000)),
                     ("bounded", scored_pr.BoundedEvaluation(max_bins=48)),
                     ("synchronized", scored_pr.SynchronizedEvaluation())):  # fmt: skip
        ev.add_cases(y, s)
        out[name] = ev
    rng = np.random.default_rng(3)
    multi = scored_pr.MultiQueryEvaluation()
    for q in range(6):
        multi.add_cases(f"q{q}", rng.random(150) < 0.25, rng.random(150))
    out["multi"] = multi
    labels = scored_pr.MultiLabelEvaluation(labels=["cat", "dog", "bird", "fish"])
    Y = rng.random((2000, 4)) < [0.1, 0.3, 0.5, 0.2]
    labels.add_cases(Y, rng.normal(Y * [0.5, 1.0, 1.5, 2.0], 1.0))
    out["multilabel"] = labels
    sliced = scored_pr.SlicedEvaluation("region")
    sliced.add_cases(y, s, region=rng.choice(np.array(["eu", "us", None], dtype=object), size=len(y)))
    out["sliced"] = sliced
    return out


KINDS = every_kind()


# ------------------------------------------------------------------ every kind loads, offline, without errors


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_loads_offline_without_errors(browser: Any, tmp_path: Path, artifacts: Path, name: str) -> None:
    ev = KINDS[name]
    page = open_page(browser, ev.to_html(title=f"scored_pr: {name}"), tmp_path / f"{name}.html")
    page.check_clean()
    data = page.data()
    assert data["kind"] == name
    # real HTML tables, with the measures the evaluator reports
    assert page.page.locator("table").count() >= 1
    if name in ("multi", "multilabel", "sliced"):
        assert page.page.locator("#items tbody tr").count() == len(list(ev))
    else:
        key = "area_under_roc_curve"
        shown = page.page.get_attribute(f"#measures tr[data-key='{key}'] td[data-value]", "data-value")
        assert float(shown) == pytest.approx(float(ev.area_under_roc_curve()), rel=1e-15)
    if name == "windowed":
        assert "the last 2000 cases" in page.page.inner_text("#window")
        assert page.page.locator("#window").inner_text().count("3000") == 1  # cases seen since the start
    if name == "bounded":
        assert page.page.locator("#threshold-panel").count() == 0  # bins give bounds, not exact counts
        assert page.page.evaluate("scoredPr.charts.pr.series.filter(s => s.boxes).length") == 1
    page.shot(artifacts / f"html-{name}.png")


# ------------------------------------------------------------------ hover and threshold show the evaluator's numbers


@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_hovered_points_show_the_evaluators_counts(browser: Any, tmp_path: Path, artifacts: Path, ties: str) -> None:
    y, s = cases(2500, seed=1)
    ev = scored_pr.ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(y, s)
    ev.add_misses(7)
    page = open_page(browser, ev.to_html(), tmp_path / "hover.html")
    page.check_clean()
    table = page.data()["rankings"][0]["table"]
    n = len(table["threshold"])
    for i in (0, n // 7, n // 3, n // 2, (3 * n) // 4, n - 1):
        t = table["threshold"][i]
        c = ev.confusion_at_threshold(t)
        recall, precision = c.tp / ev.num_positive_ref, (c.tp / (c.tp + c.fp))
        for chart, (x, yv) in (("pr", (recall, precision)), ("roc", (c.fp / ev.num_negative_ref, recall))):
            tip = page.hover_point(chart, x, yv)
            # nearest point under the cursor: several table rows may share a pixel; the shown one is exact
            shown_t = float(tip["threshold"])
            near = ev.confusion_at_threshold(shown_t)
            assert (int(tip["TP"]), int(tip["FP"]), int(tip["TN"]), int(tip["FN"])) == tuple(near)
            assert numbers_equal(tip["precision"], ev.precision_at_threshold(shown_t))
            assert numbers_equal(tip["recall"], ev.recall_at_threshold(shown_t))
            assert numbers_equal(tip["F1"], ev.f_measure_at_threshold(shown_t))
            row = int(page.page.get_attribute(f"#tip-{chart}", "data-row"))
            assert table["threshold"][row] == pytest.approx(shown_t, rel=1e-9)
    c = ev.confusion_at_threshold(table["threshold"][n // 3])
    page.hover_point("pr", c.tp / ev.num_positive_ref, c.tp / (c.tp + c.fp))
    page.page.locator(".grid").screenshot(path=str(artifacts / f"html-hover-{ties}.png"))


def _thresholds_to_try(ev: Any) -> list[float]:
    _, _, thr = ev.roc_points()
    distinct = thr[1:]
    mids = (distinct[:-1] + distinct[1:]) / 2
    rng = np.random.default_rng(5)
    return [float(v) for v in (*rng.choice(distinct, 8), *rng.choice(mids, 8), distinct[0] + 1.0, distinct[-1] - 1.0,
                               distinct[0], distinct[-1])]  # fmt: skip


@pytest.mark.parametrize("setup", ["plain", "weighted", "stable+misses"])
def test_typed_threshold_gives_confusion_at_threshold(browser: Any, tmp_path: Path, setup: str) -> None:
    y, s = cases(1500, seed=2, rounding=2)  # fewer distinct scores than the budget: every threshold in the page
    ev = scored_pr.ScoredPrecisionRecallEvaluation(ties="stable" if "stable" in setup else "grouped")
    w = np.random.default_rng(9).integers(1, 4, y.size).astype(float) if setup == "weighted" else None
    ev.add_cases(y, s, sample_weight=w)
    if "misses" in setup:
        ev.add_misses(4)
        ev.add_negative_misses(3)
    page = open_page(browser, ev.to_html(), tmp_path / "threshold.html")
    page.check_clean()
    assert page.data()["rankings"][0]["complete"] is True
    for t in _thresholds_to_try(ev):
        page.type_threshold(t)
        assert page.confusion() == tuple(float(v) for v in ev.confusion_at_threshold(t))
        for field, query in (("precision", ev.precision_at_threshold), ("recall", ev.recall_at_threshold),
                             ("f1", ev.f_measure_at_threshold)):  # fmt: skip
            shown, expected = page.value(f"#th-{field}"), float(query(t))
            assert (math.isnan(shown) and math.isnan(expected)) or shown == pytest.approx(expected, rel=1e-14)


def test_slider_steps_through_the_thresholds(browser: Any, tmp_path: Path) -> None:
    y, s = cases(4000, seed=4, rounding=None)  # more distinct scores than the page keeps
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    page = open_page(browser, ev.to_html(), tmp_path / "slider.html")
    page.check_clean()
    ranking = page.data()["rankings"][0]
    assert ranking["complete"] is False and ranking["distinct"] == 4000
    n = len(ranking["threshold"]) if "threshold" in ranking else len(ranking["table"]["threshold"])
    for pos in (0, 1, n // 2, n - 1):
        page.page.eval_on_selector("#th-slider", f"e => {{ e.value = {pos}; e.dispatchEvent(new Event('input')); }}")
        t = float(page.page.input_value("#th-value"))
        assert t == ranking["table"]["threshold"][n - 1 - pos]
        assert page.confusion() == tuple(float(v) for v in ev.confusion_at_threshold(t))
        assert page.page.get_attribute("#th-note", "data-exact") == "1"
    # a typed value between two kept thresholds: the page says which kept threshold it shows
    kept = ranking["table"]["threshold"]
    t = (kept[10] + kept[11]) / 2
    page.type_threshold(t)
    assert page.page.get_attribute("#th-note", "data-exact") == "0"
    assert page.confusion() == tuple(float(v) for v in ev.confusion_at_threshold(kept[10]))
    assert "nearest" in page.page.inner_text("#th-note")


def test_maximum_f_is_marked_at_the_evaluators_threshold(browser: Any, tmp_path: Path) -> None:
    y, s = cases(3000, seed=6)
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    page = open_page(browser, ev.to_html(), tmp_path / "maxf.html")
    best = ev.maximum_f_measure_threshold()
    marks = page.page.evaluate("scoredPr.charts.f.marks.filter(m => m.shape === 'diamond')")
    assert [m["x"] for m in marks] == [best.threshold]
    assert marks[0]["y"] == pytest.approx(ev.f_measure_at_threshold(best.threshold), rel=1e-15)
    assert float(page.page.input_value("#th-value")) == best.threshold  # the control opens at the best F1
    bep = page.page.evaluate("scoredPr.charts.pr.marks.filter(m => /break-even/.test(m.label || ''))")
    assert bep[0]["x"] == bep[0]["y"] == ev.pr_breakeven_point()


# ------------------------------------------------------------------ multi-label: sortable table, per-class curves


def test_multilabel_table_sorts_and_rows_select_curves(browser: Any, tmp_path: Path) -> None:
    ev = KINDS["multilabel"]
    page = open_page(browser, ev.to_html(), tmp_path / "ml.html")
    page.check_clean()
    header = page.page.locator("#items thead th", has_text="AP")
    header.click()  # descending first
    names = page.page.locator("#items tbody td.name").all_inner_texts()
    aps = {label: float(ev[label].average_precision()) for label in ev.labels}
    assert names == sorted(aps, key=aps.get, reverse=True)
    header.click()
    assert page.page.locator("#items tbody td.name").all_inner_texts() == sorted(aps, key=aps.get)
    page.page.locator("#items tbody tr", has_text="bird").click()
    data = page.data()
    current = page.page.evaluate("scoredPr.current")
    assert data["rankings"][current]["name"] == "bird"
    assert data["rankings"][0]["name"] == "micro (pooled)"
    kept = data["rankings"][current]["table"]["threshold"]
    for t in (kept[0], kept[len(kept) // 2], kept[-1]):  # the label's own thresholds
        page.type_threshold(t)
        assert page.confusion() == tuple(float(v) for v in ev["bird"].confusion_at_threshold(t))
    drawn = page.page.evaluate("scoredPr.charts.pr.series.filter(s => s.tip).map(s => s.model)")
    assert sorted(drawn) == [0, current]  # the label's curve and the micro curve


# ------------------------------------------------------------------ the command line's pages


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], capture_output=True, text=True, env=clean_env(), timeout=120)


def test_cli_report_and_compare_pages(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    y, s = cases(1200, seed=8)
    s_b = np.round(s + np.random.default_rng(1).normal(0, 1.0, s.size), 3)
    for name, scores in (("a", s), ("b", s_b)):
        rows = "".join(f"c{i},{int(c)},{float(v)!r}\n" for i, (c, v) in enumerate(zip(y, scores)))
        (tmp_path / f"{name}.csv").write_text("id,correct,score\n" + rows)
    out = _run("report", str(tmp_path / "a.csv"), "--ci", "--resamples", "200", "--html", str(tmp_path / "r.html"),
               "--format", "json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    page = Page(browser, tmp_path / "r.html")
    page.check_clean()
    obj = json.loads(out.stdout)
    ci = obj["confidence_intervals"]["area_under_roc_curve"]
    row = page.page.inner_text("#measures tr[data-key='area_under_roc_curve']")
    assert re.search(r"\[\S+, \S+\] 95% delong", row)
    assert f"{ci['low']:.6g}"[:5] in row
    page.shot(artifacts / "html-cli-report.png")

    out = _run("compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--resamples", "200",
               "--html", str(tmp_path / "c.html"), "--format", "json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    page = Page(browser, tmp_path / "c.html")
    page.check_clean()
    result = json.loads(out.stdout)["comparisons"]["area_under_roc_curve"]
    assert page.value("#comparison tr[data-measure='area_under_roc_curve'] td[data-value]") == pytest.approx(result["p_value"], rel=1e-12)
    assert page.page.evaluate("scoredPr.charts.roc.series.filter(s => s.tip).length") == 2
    page.page.select_option("#th-model", "1")
    ev_b = scored_pr.ScoredPrecisionRecallEvaluation()
    ev_b.add_cases(y, s_b)
    page.type_threshold(0.5)
    assert page.confusion() == tuple(float(v) for v in ev_b.confusion_at_threshold(0.5))
    page.shot(artifacts / "html-compare.png")


def test_cli_compare_by_page_shows_every_slice_and_sorts(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    rng = np.random.default_rng(4)
    n = 900
    y = rng.random(n) < 0.4
    region = rng.choice(["eu", "us", "asia"], n)
    for name, noise in (("a", 0.8), ("b", 1.4)):
        s = np.round(y * 1.0 + rng.normal(0, noise, n), 3)
        (tmp_path / f"{name}.csv").write_text("id,correct,score,region\n" + "".join(
            f"c{i},{int(c)},{float(v)!r},{r}\n" for i, (c, v, r) in enumerate(zip(y, s, region))))
    out = _run("compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--by", "region", "--resamples", "200",
               "--html", str(tmp_path / "c.html"), "--format", "json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    page = Page(browser, tmp_path / "c.html")
    page.check_clean()
    got = json.loads(out.stdout)
    table = "#slice-comparisons tbody tr"
    assert page.page.locator(table).count() == sum(len(s["comparisons"]) for s in got["slices"]) == 8
    eu = next(s for s in got["slices"] if s["slice"] == "region=eu")["comparisons"]["area_under_roc_curve"]
    shown = page.value("#slice-comparisons tr[data-slice='region=eu'][data-measure='area_under_roc_curve'] td.p")
    assert shown == pytest.approx(eu["p_value"], rel=1e-12)
    assert page.page.evaluate("scoredPr.charts.roc.series.filter(s => s.tip).length") == 2  # the overall curves
    page.page.locator("#slice-comparisons thead th", has_text="p-value").click()  # sorted by p-value
    ps = [float(v) for v in page.page.locator(f"{table} td.p").evaluate_all("tds => tds.map(t => t.dataset.value)")]
    assert ps == sorted(ps) or ps == sorted(ps, reverse=True)
    page.shot(artifacts / "html-compare-by.png")


def test_print_layout_redraws_charts_and_hides_controls(browser: Any, tmp_path: Path) -> None:
    page = open_page(browser, KINDS["exact"].to_html(), tmp_path / "print.html")
    before = page.page.evaluate("scoredPr.charts.pr.canvas.width")
    page.page.emulate_media(media="print")
    assert not page.page.is_visible("#th-slider")  # controls are for the screen
    assert page.page.is_visible("#confusion") and page.page.is_visible("#measures")
    width, css = page.page.evaluate("[scoredPr.charts.pr.canvas.width, scoredPr.charts.pr.canvas.clientWidth]")
    assert width != before and width == round(css * page.page.evaluate("window.devicePixelRatio"))  # redrawn, not scaled
    page.page.pdf(path=str(tmp_path / "print.pdf"))
    page.check_clean()


def test_notebook_display_renders_in_its_iframe(browser: Any, tmp_path: Path) -> None:
    """A notebook inserts ``_repr_html_`` into its page: two reports side by side, each isolated in its frame."""
    cells = KINDS["exact"]._repr_html_() + KINDS["multilabel"]._repr_html_()
    path = tmp_path / "notebook.html"
    path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{cells}</body></html>", encoding="utf-8")
    page = browser.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    frames = [f for f in page.frames if f != page.main_frame]
    assert len(frames) == 2
    for frame, kind in zip(frames, ("exact", "multilabel")):
        frame.wait_for_selector("body[data-ready='1']", timeout=10_000)
        assert frame.evaluate("scoredPr.data.kind") == kind
    assert problems == []
    assert all(not r.startswith(("http:", "https:")) for r in requests)


# ------------------------------------------------------------------ empty evaluations, labels, dashed curves


def empty_kinds() -> dict[str, Any]:
    return {"exact": scored_pr.ScoredPrecisionRecallEvaluation(), "windowed": scored_pr.WindowedEvaluation(size=50),
            "bounded": scored_pr.BoundedEvaluation(), "synchronized": scored_pr.SynchronizedEvaluation(),
            "multi": scored_pr.MultiQueryEvaluation(), "multilabel": scored_pr.MultiLabelEvaluation(labels=2),
            "multilabel-bounded": scored_pr.MultiLabelEvaluation(labels=["a", "b"], max_bins=16)}  # fmt: skip


@pytest.mark.parametrize("name", list(empty_kinds()))
def test_every_kind_renders_empty_with_a_note(browser: Any, tmp_path: Path, artifacts: Path, name: str) -> None:
    ev = empty_kinds()[name]
    page = open_page(browser, ev.to_html(title=f"empty {name}"), tmp_path / f"empty-{name}.html")
    page.check_clean()  # no page error, no console error or warning (an empty multi-query page threw)
    note = page.page.inner_text("#empty-note")
    assert note.startswith({"multi": "No queries yet", "multilabel": "No rows yet",
                            "multilabel-bounded": "No rows yet"}.get(name, "No cases yet"))  # fmt: skip
    assert page.page.locator("#measures, #averages").count() == 1
    # every NaN shown says why
    nan_cells = page.page.locator("td[data-value='NaN']")
    assert nan_cells.count() > 0
    for i in range(nan_cells.count()):
        assert "undefined" in (nan_cells.nth(i).get_attribute("data-note") or ""), nan_cells.nth(i).evaluate("e => e.id || e.outerHTML")
    page.shot(artifacts / f"html-empty-{name}.png")


def _label_boxes_inside(page: Page, chart: str) -> list[dict[str, Any]]:
    boxes, m, size = page.page.evaluate(f"(() => {{ const c = scoredPr.charts[{chart!r}]; return [c.labelBoxes, c.M, c.size()]; }})()")
    for b in boxes:
        assert m["l"] <= b["x"] and b["x"] + b["width"] <= m["l"] + size["pw"], (b, m, size)
        assert m["t"] <= b["y"] and b["y"] + b["height"] <= m["t"] + size["ph"], (b, m, size)
    return boxes


@pytest.mark.parametrize("width", [1280, 400])
@pytest.mark.parametrize("where", [0.02, 0.59, 0.98])
def test_max_f_label_stays_inside_the_chart(browser: Any, tmp_path: Path, width: int, where: float) -> None:
    """The best F1 of a perfect ranking is 1 (the top of the chart) at a threshold ``where`` along the axis."""
    scores = np.round(np.linspace(0.0, 1.0, 401), 6) - 0.123456  # long labels: "max F1 1 at 0.4665"
    y = scores >= scores[int(where * 400)]
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, scores)
    path = tmp_path / "label.html"
    path.write_text(ev.to_html(), encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    wrapped = Page.__new__(Page)
    wrapped.page = page
    boxes = _label_boxes_inside(wrapped, "f")
    best = ev.maximum_f_measure_threshold()
    assert [b["text"] for b in boxes] == [f"max F1 1 at {float(f'{best.threshold:.4g}'):g}"]
    assert _label_boxes_inside(wrapped, "pr")[0]["text"].startswith("break-even")
    assert problems == []
    page.close()


def test_dashed_curves_show_their_dash_at_200k_points(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    rng = np.random.default_rng(12)
    y = rng.random(200_000) < 0.3
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, rng.normal(y * 1.2, 1.0))
    page = open_page(browser, ev.to_html(), tmp_path / "big.html")
    page.check_clean()
    for chart in ("pr", "roc"):
        series = page.page.evaluate(f"""(() => {{ const c = scoredPr.charts[{chart!r}];
            return c.series.map(s => ({{dash: !!s.dash, color: s.color, x: s.x, y: s.y, drawn: s.drawn || null,
                                         pixels: (s.drawn || []).map(i => c.toPixel(s.x[i], s.y[i])), pw: c.size().pw}})); }})()""")
        dashed = [s for s in series if s["dash"]]
        solid = [s for s in series if not s["dash"]]
        assert len(dashed) == 1 and len(solid) == 1
        d = dashed[0]
        drawn = d["drawn"]
        assert drawn is not None and drawn[0] == 0 and drawn[-1] == len(d["x"]) - 1
        assert drawn == sorted(set(drawn))  # a subset of the exact vertices, in order: no new point
        gaps = np.hypot(*np.diff(np.asarray(d["pixels"]), axis=0).T)
        assert np.all(gaps[:-1] >= 3.0)  # a vertex at most every 3 pixels: the 7-5 dash pattern shows
        assert len(drawn) < len(d["x"]) or len(d["x"]) < d["pw"] / 3
        assert d["color"] == solid[0]["color"]  # the same model's colour; drawn in a paler tint, with a legend entry
        legend = page.page.locator(f"#chart-{chart} .legend li.dash")
        assert legend.count() == 1 and legend.inner_text() in ("interpolated", "convex hull")
    pr_drawn = page.page.evaluate("scoredPr.charts.pr.series.filter(s => s.dash)[0].drawn.length")
    assert pr_drawn < 400  # of the 2,000 kept vertices of the interpolated PR curve
    page.page.locator(".grid").screenshot(path=str(artifacts / "html-200k-curves.png"))


def test_multiclass_page_shows_a_confusion_matrix_and_notes(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    rng = np.random.default_rng(13)
    names = ["ant", "bee", "cat"]
    classes = rng.integers(0, 3, 600)
    ev = scored_pr.MultiLabelEvaluation(names)
    ev.add_cases([names[c] for c in classes], rng.random((600, 3)) + np.eye(3)[classes] * 0.6)
    page = open_page(browser, ev.to_html(), tmp_path / "mc.html")
    page.check_clean()
    header = page.page.locator("#confusion-matrix thead tr").nth(1).locator("th").all_inner_texts()
    assert header == ["true class", *names]
    matrix = ev.confusion_matrix()
    for i, true in enumerate(names):
        row = page.page.locator(f"#confusion-matrix tbody tr[data-true='{true}']")
        assert row.locator("th").inner_text() == true
        assert [int(v) for v in row.locator("td").all_inner_texts()] == matrix[i].tolist()
    assert "confusion (" not in page.page.inner_text("#averages")
    assert page.page.locator("#averages tr[data-key='average_precision (macro)'] td.name").inner_text() == "Average precision, macro"
    page.shot(artifacts / "html-multiclass.png")

    labels = scored_pr.MultiLabelEvaluation(labels=["ant", "bee", "cat"])
    Y = rng.random((300, 3)) < 0.3
    labels.add_cases(Y, rng.normal(Y * 1.0, 1.0))
    page = open_page(browser, labels.to_html(), tmp_path / "ml.html")
    page.check_clean()
    cell = page.page.locator("#averages tr[data-key='area_under_roc_curve (samples)'] td[data-value]")
    assert cell.get_attribute("data-value") == "NaN"
    assert f"{int((Y.sum(axis=1) == 0).sum())} of 300 rows have no positive label" in cell.inner_text()
    page.shot(artifacts / "html-multilabel-nan.png")


def test_sliced_page_marks_the_worst_slice(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    rng = np.random.default_rng(5)
    n = 3000
    region = rng.choice(np.array(["eu", "us", "asia", "tiny"], dtype=object), size=n, p=[0.4, 0.3, 0.29, 0.01])
    y = rng.random(n) < 0.3
    quality = np.select([region == "us", region == "tiny"], [0.2, -3.0], 1.5)  # us weak; tiny worse but too small
    ev = scored_pr.SlicedEvaluation("region")
    ev.add_cases(y, rng.normal(y * quality, 1.0), region=region)
    expected = ev.worst("average_precision", min_cases=100)
    assert expected is not None and expected.slice == (("region", "us"),)
    page = open_page(browser, ev.to_html(), tmp_path / "sliced-worst.html")
    page.check_clean()
    marked = page.page.locator("#items tbody tr.worst")
    assert marked.count() == 1
    assert marked.locator("td").first.inner_text() == "region=us"
    assert page.page.inner_text("#worst").endswith("region=us")
    assert "at least 100 cases" in page.page.inner_text("#worst")
    page.page.locator("#items tbody tr.worst").click()  # the marked row still selects its curves
    assert "selected" in (marked.get_attribute("class") or "")
    page.shot(artifacts / "html-sliced-worst.png")


def test_cli_sliced_page_with_ci_shows_interval_columns(browser: Any, tmp_path: Path) -> None:
    y, s = cases(1200, seed=4)
    region = np.random.default_rng(4).choice(["eu", "us"], size=y.size)
    rows = "".join(f"{int(c)},{float(v)!r},{r}\n" for c, v, r in zip(y, s, region))
    (tmp_path / "p.csv").write_text("correct,score,region\n" + rows)
    out = _run("report", str(tmp_path / "p.csv"), "--by", "region", "--ci", "--resamples", "200",
               "--html", str(tmp_path / "r.html"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    page = Page(browser, tmp_path / "r.html")
    page.check_clean()
    heads = page.page.locator("#items thead th").all_inner_texts()
    assert heads[-2:] == ["AP interval", "ROC AUC interval"]
    data = {r["name"]: r for r in page.data()["items"]}
    eu_row = page.page.locator("#items tbody tr", has_text="region=eu")
    low, high = data["region=eu"]["intervals"]["area_under_roc_curve"][:2]
    shown = eu_row.locator("td.interval").nth(1).inner_text()
    assert shown.startswith("[") and shown.endswith("]")
    assert [float(x) for x in shown[1:-1].split(", ")] == pytest.approx([low, high], rel=1e-5)


def test_probabilities_draw_the_reliability_chart_and_logits_do_not(browser: Any, artifacts: Path) -> None:
    """The reliability chart is drawn, without console errors, with the CORP, band, bins and histogram series."""
    rng = np.random.default_rng(5)
    p = np.round(rng.random(2000), 3)
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(rng.random(2000) < p, p)
    page = open_page(browser, ev.to_html(), artifacts / "reliability.html")
    page.check_clean()
    labels = page.page.evaluate("scoredPr.charts.reliability.series.map(function (s) { return s.label; })")
    assert labels[0] == "scores (histogram)" and labels[1] == "90% consistency band"
    assert labels[2].startswith("CORP (MCB ") and labels[3] == "95% Clopper-Pearson intervals" and labels[4] == "10 bins"
    page.page.locator("#chart-reliability canvas").scroll_into_view_if_needed()
    b = page.data()["rankings"][0]["reliability"]["bins"][4]
    page.hover_point("reliability", b[0], b[1])
    assert f"[{b[2]:.4g}".rstrip("0") in page.page.inner_text("#tip-reliability")  # the bin's interval shown
    page.shot(artifacts / "reliability.png")
    logits = scored_pr.ScoredPrecisionRecallEvaluation()
    logits.add_cases(*cases(500))
    other = open_page(browser, logits.to_html(), artifacts / "logits.html")
    other.check_clean()
    assert other.page.evaluate("scoredPr.charts.reliability === undefined")


def test_typed_costs_move_the_minimum_cost_point(browser: Any, tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    y = rng.random(2000) < 0.3
    p = np.round(1.0 / (1.0 + np.exp(-rng.normal(2.0 * y))), 3)  # probabilities: the net-benefit plot is drawn
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, p)
    page = open_page(browser, ev.to_html(), tmp_path / "costs.html")
    page.check_clean()
    assert page.page.locator("#chart-nb canvas").is_visible()
    seen = set()
    for cfp, cfn in ((1.0, 1.0), (1.0, 20.0), (20.0, 1.0), (1.0, 3.5)):
        page.page.fill("#cost-fp", repr(cfp))
        page.page.fill("#cost-fn", repr(cfn))
        want = ev.min_cost_threshold(cfp, cfn)
        assert page.value("#cost-threshold") == want.threshold
        marks = page.page.evaluate("scoredPr.charts.pr.marks.filter(function (m) { return m.decision && m.label === 'min cost'; })")
        assert len(marks) == 1 and (marks[0]["x"], marks[0]["y"]) == (want.recall, want.precision)
        seen.add(want.threshold)
    assert len(seen) == 4  # each pair of costs moved the point
    line = page.page.evaluate("scoredPr.charts.pr.marks.filter(function (m) { return m.decision && m.line; })")
    assert line and line[0]["line"][1] == 0.9
    page.check_clean()


def _sliced_rows(tmp_path: Path, n: int = 900, seed: int = 6) -> Path:
    rng = np.random.default_rng(seed)
    region = rng.choice(["eu", "us", "asia"], size=n)
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(y * np.where(region == "us", 0.2, 1.3), 1.0), 3)
    path = tmp_path / "p.csv"
    path.write_text("correct,score,region\n" + "".join(f"{int(c)},{v!r},{r}\n" for c, v, r in zip(y, s.tolist(), region)))
    return path


def test_clicking_a_slice_draws_its_curves_over_the_overall_ones(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    rng = np.random.default_rng(8)
    n = 6000
    group = np.array([f"g{i:03d}" for i in rng.integers(0, 80, n)])  # 81 slices: 60 with full entries, 21 overlays
    y = rng.random(n) < 0.35
    ev = scored_pr.SlicedEvaluation("group")
    ev.add_cases(y, np.round(rng.normal(y * 1.0, 1.0), 3), group=group)
    page = open_page(browser, ev.to_html(), tmp_path / "sliced-overlay.html")
    page.check_clean()
    data = page.data()
    base = data["base"]
    assert data["rankings"][base]["name"] == "overall"
    # a slice with a full entry: its curves and the overall ones, each its own series
    full = data["items"][5]
    page.page.locator(f"#items tbody tr[data-curve='{full['curve']}']").click()
    drawn = page.page.evaluate("scoredPr.charts.pr.series.filter(s => s.tip).map(s => s.model)")
    assert sorted(drawn) == sorted([full["curve"], base])
    legend = page.page.locator("#chart-pr .legend li").all_inner_texts()
    assert any(t.startswith(full["name"] + ": ") for t in legend) and any(t.startswith("overall: ") for t in legend)
    # a slice beyond the full entries: its overlay points drawn over the overall curves
    index, row = next((i, r) for i, r in enumerate(data["items"]) if r.get("overlay"))
    page.page.locator(f"#items tbody tr[data-overlay='{index}']").click()
    assert "selected" in (page.page.locator(f"#items tbody tr[data-overlay='{index}']").get_attribute("class") or "")
    for chart, key in (("pr", "pr"), ("roc", "roc")):
        series = page.page.evaluate(f"scoredPr.charts[{chart!r}].series.filter(s => s.overlay).map(s => [s.overlay, s.x, s.y])")
        assert len(series) == 1 and series[0][0] == row["name"]
        assert series[0][1] == [p[0] for p in row["overlay"][key]] and series[0][2] == [p[1] for p in row["overlay"][key]]
        models = page.page.evaluate(f"scoredPr.charts[{chart!r}].series.filter(s => s.tip).map(s => s.model)")
        assert models == [base]  # the overall curves beneath it
        legend = page.page.locator(f"#chart-{chart} .legend li").all_inner_texts()
        assert f"{row['name']}: {len(row['overlay'][key])} operating points" in legend
        # the overlay's points are on the canvas: the pixel at a middle point is the overlay's colour
        x, y = row["overlay"][key][len(row["overlay"][key]) // 2]
        px, py = page.page.evaluate(f"scoredPr.charts[{chart!r}].toPixel({x!r}, {y!r})")
        rgb = page.page.evaluate(f"""(() => {{ const c = document.querySelector('#chart-{chart} canvas'), d = window.devicePixelRatio || 1;
            return Array.from(c.getContext('2d').getImageData(Math.round({px} * d), Math.round({py} * d), 1, 1).data); }})()""")
        assert rgb[:3] == [0x00, 0x72, 0xB2], (chart, rgb)
    assert "the next 21 are drawn over the overall curves" in page.page.inner_text("#overlay-note")
    page.shot(artifacts / "html-sliced-overlay.png")


def test_cli_sliced_page_with_ci_shows_the_gaps_table(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    path = _sliced_rows(tmp_path)
    out = _run("report", str(path), "--by", "region", "--ci", "--resamples", "200", "--html", str(tmp_path / "r.html"))
    assert out.returncode == 0, out.stderr
    page = Page(browser, tmp_path / "r.html")
    page.check_clean()
    gaps = page.data()["gaps"]
    rows = page.page.locator("#gaps tbody tr")
    assert rows.count() == len(gaps["rows"]) == 3
    heads = page.page.locator("#gaps thead th").all_inner_texts()
    assert heads[:5] == ["slice", "cases", "average precision", "rest", "difference"] and "p-value (holm)" in heads
    for g in gaps["rows"]:
        tr = page.page.locator(f"#gaps tbody tr[data-slice='{g['name']}']")
        assert numbers_equal(tr.locator("td.difference").inner_text(), g["difference"])
        assert float(tr.locator("td.p-adjusted").get_attribute("data-value")) == g["p_adjusted"]
        assert float(tr.locator("td.interval").get_attribute("data-low")) == g["low"]
        assert float(tr.locator("td.interval").get_attribute("data-high")) == g["high"]
    us = page.page.locator("#gaps tbody tr[data-slice='region=us']")
    assert float(us.locator("td.difference").get_attribute("data-value")) < 0
    page.shot(artifacts / "html-sliced-gaps.png")


def test_typed_target_and_gains_move_the_points_as_the_evaluator_chooses(browser: Any, tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    y = rng.random(3000) < 0.3
    p = np.round(1.0 / (1.0 + np.exp(-rng.normal(2.0 * y))), 3)
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, p)
    page = open_page(browser, ev.to_html(), tmp_path / "target.html")
    page.check_clean()
    seen = set()
    for target in (0.9, 0.5, 0.75, 0.95, 0.3):
        page.page.fill("#min-precision", repr(target))
        want = ev.operating_point("recall", {"precision": target})
        assert page.value("#constraint-threshold") == want.threshold
        choice = page.page.evaluate("scoredPr.constraintChoice")
        assert (choice["recall"], choice["precision"]) == (want.recall, want.precision)
        line = page.page.evaluate("scoredPr.charts.pr.marks.filter(function (m) { return m.decision && m.line; })")
        assert len(line) == 1 and line[0]["line"][1] == target
        diamond = page.page.evaluate("scoredPr.charts.pr.marks.filter(function (m) { return m.decision && m.shape === 'diamond'; })")
        assert len(diamond) == 1 and (diamond[0]["x"], diamond[0]["y"]) == (want.recall, want.precision)
        seen.add(want.threshold)
    assert len(seen) >= 4  # each target moved the point
    for costs in ((1.0, 1.0, 2.0, 0.0), (1.0, 1.0, 0.0, 3.0), (2.0, 1.0, 0.5, 0.5)):
        for sel, v in zip(("#cost-fp", "#cost-fn", "#gain-tp", "#gain-tn"), costs):
            page.page.fill(sel, repr(v))
        want = ev.min_cost_threshold(*costs)
        assert page.value("#cost-threshold") == want.threshold
        assert page.page.evaluate("scoredPr.costChoice.expected_cost") == want.expected_cost
    page.check_clean()


def test_a_target_over_the_budget_snaps_to_the_grid_of_the_evaluators_answers(browser: Any, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    labels = [f"c{i}" for i in range(30)]  # 30 rankings share the page's budget: each carries the grid of targets
    Y = rng.random((3000, 30)) < 0.3
    wide = scored_pr.MultiLabelEvaluation(labels=labels)
    wide.add_cases(Y, np.round(rng.normal(Y * 1.5, 1.0), 3))
    page = open_page(browser, wide.to_html(), tmp_path / "grid.html")
    page.check_clean()
    names = page.page.evaluate("scoredPr.data.rankings.map(function (r) { return r.name; })")
    k = names.index("c3")
    page.page.evaluate(f"scoredPr.select({k})")
    assert page.page.evaluate(f"scoredPr.data.rankings[{k}].decisions.frontier === null")
    for typed, snapped in ((0.72, 0.7), (0.9, 0.9), (0.53, 0.55)):
        page.page.fill("#min-precision", repr(typed))
        want = wide["c3"].operating_point("recall", {"precision": snapped})
        assert page.value("#constraint-threshold") == want.threshold
        line = page.page.evaluate("scoredPr.charts.pr.marks.filter(function (m) { return m.decision && m.line; })")
        assert line[0]["line"][1] == snapped
    page.check_clean()


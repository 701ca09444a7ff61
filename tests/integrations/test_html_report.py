"""The HTML report's file, without a browser: self-contained, within its size budget, every drawn point exact.

The page's data (the JSON inlined in it) is read back and held against the
evaluator: every point of a drawn curve is a row of ``roc_points`` (and its
counts those of ``confusion_at_threshold``), the interpolated curves are
subsets of the evaluator's, the bounded boxes those of ``pr_band``/``roc_band``.
The browser tests (``test_html_browser.py``) check what the page shows.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import scored_pr
from cli_env import CMD, clean_env


def page_data(document: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="scored-pr-data">(.*?)</script>', document, re.S)
    assert m is not None
    return json.loads(m.group(1))


def exact(n: int, seed: int = 0, rounding: int | None = None) -> scored_pr.ScoredPrecisionRecallEvaluation:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(y * 1.0, 1.0)
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, np.round(s, rounding) if rounding is not None else s)
    return ev


def test_page_is_self_contained() -> None:
    document = exact(2000).to_html()
    assert document.startswith("<!DOCTYPE html>")
    # nothing to fetch: no src or href attribute, no url(), no import, no fetch or XHR, a CSP that allows none
    assert not re.search(r"\b(src|href)\s*=", document)
    assert "url(" not in document and "@import" not in document
    assert not re.search(r"\b(fetch|XMLHttpRequest|WebSocket|EventSource|importScripts)\b", document)
    assert "default-src 'none'" in document
    assert not re.search(r"https?://", document)


def test_data_cannot_close_its_script() -> None:
    ev = exact(100)
    document = ev.to_html(title="</script><script>alert(1)</script> & <b>")
    assert document.count("</script>") == 2  # the data's and the code's own
    assert page_data(document)["title"] == "</script><script>alert(1)</script> & <b>"
    assert "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</title>" in document


@pytest.mark.parametrize("rounding", [None, 2])
def test_every_drawn_point_is_an_exact_operating_point(rounding: int | None) -> None:
    ev = exact(20_000, seed=1, rounding=rounding)
    data = page_data(ev.to_html())["rankings"][0]
    fpr, tpr, thresholds = ev.roc_points()
    table = data["table"]
    rows = np.searchsorted(-thresholds, -np.asarray(table["threshold"]))
    assert np.array_equal(thresholds[rows], table["threshold"])  # every kept threshold is a distinct score
    assert np.all(np.diff(table["threshold"]) < 0)
    for i in range(0, len(rows), 37):
        assert tuple(table[k][i] for k in ("tp", "fp", "tn", "fn")) == tuple(ev.confusion_at_threshold(table["threshold"][i]))
    assert data["complete"] == (len(rows) == thresholds.size - 1)
    assert len(rows) <= 2000 + 8
    # the interpolated curves: rows of the evaluator's own
    pr_interp = {tuple(r) for r in ev.pr_curve(interpolate=True).tolist()}
    assert {tuple(r) for r in data["pr_interp"]} <= pr_interp
    roc_interp = {(1.0 - rr, r) for r, rr in ev.roc_curve(interpolate=True).tolist()} | {(0.0, 0.0)}  # and threshold inf
    assert {tuple(r) for r in data["roc_interp"]} <= roc_interp
    best = ev.maximum_f_measure_threshold()
    assert best.threshold in table["threshold"]
    assert data["best"]["threshold"] == best.threshold
    assert data["bep"] == ev.pr_breakeven_point()


def test_bounded_boxes_are_the_summarys() -> None:
    rng = np.random.default_rng(2)
    b = scored_pr.BoundedEvaluation(max_bins=40)
    y = rng.random(5000) < 0.4
    b.add_cases(y, rng.normal(y * 1.0, 1.0))
    data = page_data(b.to_html())["rankings"][0]
    assert np.array_equal(data["pr_boxes"], b.pr_band().boxes)
    assert np.array_equal(data["pr_estimate"], b.pr_band().estimate)
    measures = {m["key"]: m for m in data["measures"]}
    ap = b.average_precision()
    assert (measures["average_precision"]["lower"], measures["average_precision"]["upper"]) == (ap.lower, ap.upper)


def test_typical_page_under_1_mb_and_a_million_cases_under_2_mb() -> None:
    assert len(exact(50_000).to_html().encode()) < 1_000_000
    big = exact(1_000_000, seed=3)
    size = len(big.to_html().encode())
    assert size < 2_000_000, size
    rng = np.random.default_rng(4)
    labels = scored_pr.MultiLabelEvaluation(labels=[f"class {i}" for i in range(20)])
    Y = rng.random((20_000, 20)) < 0.2
    labels.add_cases(Y, rng.normal(Y * 1.0, 1.0))
    assert len(labels.to_html().encode()) < 2_000_000


def test_every_kind_has_to_html_and_a_notebook_display(tmp_path: Path) -> None:
    """Every kind scored_pr registers (tests/structure/test_kind_registry.py lists them)."""
    kinds = {"exact": scored_pr.ScoredPrecisionRecallEvaluation(), "windowed": scored_pr.WindowedEvaluation(size=50),
             "bounded": scored_pr.BoundedEvaluation(), "synchronized": scored_pr.SynchronizedEvaluation(),
             "multi": scored_pr.MultiQueryEvaluation(), "multilabel": scored_pr.MultiLabelEvaluation(labels=2)}  # fmt: skip
    y, s = [True, False, True, False], [0.9, 0.8, 0.4, 0.1]
    for name, ev in kinds.items():
        if name == "multi":
            ev.add_cases("q", y, s)
        elif name == "multilabel":
            ev.add_cases(np.column_stack((y, y)), np.column_stack((s, s)))
        else:
            ev.add_cases(y, s)
        path = tmp_path / f"{name}.html"
        document = ev.to_html(path, title=name)
        assert path.read_text(encoding="utf-8") == document
        assert page_data(document)["kind"] == name
        cell = ev._repr_html_()
        assert cell.startswith("<iframe srcdoc=") and html.unescape(cell.split('"')[1]) == ev.to_html()


def test_empty_and_one_class_evaluators_render() -> None:
    for ev in (scored_pr.ScoredPrecisionRecallEvaluation(), exact(0)):
        data = page_data(ev.to_html())["rankings"][0]
        assert data["table"]["threshold"] == [] and data["distinct"] == 0
    one = scored_pr.ScoredPrecisionRecallEvaluation()
    one.add_cases([True, True], [0.3, 0.2])
    data = page_data(one.to_html())["rankings"][0]
    assert data["table"]["tp"] == [1, 2] and data["table"]["fp"] == [0, 0]


def test_bad_arguments_name_the_argument() -> None:
    ev = exact(10)
    with pytest.raises(TypeError, match="to_html: argument 'path' must be None, a str or an os.PathLike; got 3"):
        ev.to_html(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="to_html: argument 'title' must be None or a str"):
        ev.to_html(title=b"x")  # type: ignore[arg-type]


# ------------------------------------------------------------------ the command line, every input report takes


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], capture_output=True, text=True, env=clean_env(), timeout=120)


def test_cli_html_for_every_input(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.4
    s = np.round(rng.normal(y * 1.0, 1.0), 3)
    (tmp_path / "cases.csv").write_text("correct,score\n" + "".join(f"{int(c)},{float(v)!r}\n" for c, v in zip(y, s)))
    classes = rng.integers(0, 3, 300)
    P = rng.random((300, 3))
    P /= P.sum(axis=1, keepdims=True)  # class probabilities, as multi-class ROC AUC requires
    (tmp_path / "wide.csv").write_text("y,p_a,p_b,p_c\n" + "".join(
        f"{'abc'[k]},{p[0]!r},{p[1]!r},{p[2]!r}\n" for k, p in zip(classes, P.tolist())))  # fmt: skip
    (tmp_path / "labels.csv").write_text("a,b,s_a,s_b\n" + "".join(
        f"{int(p[0] > .5)},{int(p[1] > .4)},{p[0]!r},{p[2]!r}\n" for p in P.tolist()))  # fmt: skip
    states = {"exact": scored_pr.ScoredPrecisionRecallEvaluation(), "windowed": scored_pr.WindowedEvaluation(size=100),
              "bounded": scored_pr.BoundedEvaluation(max_bins=16), "multi": scored_pr.MultiQueryEvaluation(),
              "multilabel": scored_pr.MultiLabelEvaluation(labels=["x", "y"])}  # fmt: skip
    for name, ev in states.items():
        if name == "multi":
            ev.add_cases("q1", y[:200], s[:200])
            ev.add_cases("q2", y[200:], s[200:])
        elif name == "multilabel":
            ev.add_cases(np.column_stack((y, ~y)), np.column_stack((s, -s)))
        else:
            ev.add_cases(y, s)
        ev.save(tmp_path / f"{name}.npz")
    runs = {
        "cases": ["report", "cases.csv"],
        "wide-multiclass": ["report", "wide.csv", "--label-col", "y", "--score-prefix", "p_"],
        "wide-multilabel": ["report", "labels.csv", "--label-cols", "a,b", "--score-cols", "s_a,s_b"],
        **{f"state-{name}": ["report", f"{name}.npz"] for name in states},
    }
    for what, args in runs.items():
        out_path = tmp_path / f"{what}.html"
        args = [a if not a.endswith((".csv", ".npz")) else str(tmp_path / a) for a in args]
        done = _run(*args, "--html", str(out_path))
        assert done.returncode == 0, (what, done.stderr)
        assert f"wrote {out_path}" in done.stderr
        data = page_data(out_path.read_text(encoding="utf-8"))
        expected = {"cases": "exact", "wide-multiclass": "multilabel", "wide-multilabel": "multilabel"}
        assert data["kind"] == expected.get(what, what.removeprefix("state-")), what
    classes_page = page_data((tmp_path / "wide-multiclass.html").read_text(encoding="utf-8"))
    assert [row["name"] for row in classes_page["items"]] == ["a", "b", "c"]
    window_page = page_data((tmp_path / "state-windowed.html").read_text(encoding="utf-8"))
    assert window_page["rankings"][0]["extra"]["window"]["num_cases_seen"] == 400


def test_cli_html_unwritable_path_exits_1(tmp_path: Path) -> None:
    (tmp_path / "cases.csv").write_text("correct,score\n1,0.5\n0,0.2\n")
    done = _run("report", str(tmp_path / "cases.csv"), "--html", str(tmp_path / "no" / "such" / "dir.html"))
    assert done.returncode == 1
    assert "cannot write the HTML report" in done.stderr


# ------------------------------------------------------------------ readable names, NaN notes, the confusion matrix


def _multilabel_with_empty_rows() -> tuple[scored_pr.MultiLabelEvaluation, np.ndarray]:
    """Rows with no positive label (and some with every label positive): the samples ROC AUC is NaN."""
    rng = np.random.default_rng(11)
    Y = rng.random((400, 3)) < 0.3
    labels = scored_pr.MultiLabelEvaluation(labels=["ant", "bee", "cat"])
    labels.add_cases(Y, rng.normal(Y * 1.0, 1.0))
    return labels, Y


def test_multilabel_page_names_measures_and_says_why_a_value_is_nan() -> None:
    ev, Y = _multilabel_with_empty_rows()
    data = page_data(ev.to_html())
    averages = {a["key"]: a for a in data["averages"]}
    assert averages["average_precision (macro)"]["label"] == "Average precision, macro"
    assert averages["area_under_roc_curve (samples)"]["label"] == "ROC AUC, samples"
    assert averages["num_rows"]["label"] == "Rows"
    samples = averages["area_under_roc_curve (samples)"]
    assert samples["value"] is None and np.isnan(ev.area_under_roc_curve(average="samples"))
    no_pos, all_pos = int((Y.sum(axis=1) == 0).sum()), int((Y.sum(axis=1) == 3).sum())
    assert no_pos > 1 and all_pos > 1
    assert samples["note"] == (f"undefined: {no_pos} of 400 rows have no positive label and {all_pos} of 400 rows "
                               "have every label positive (a row's ROC AUC needs a positive and a negative label)")
    # every NaN has a note, and only NaNs have one
    assert all((a["value"] is None) == ("note" in a) for a in data["averages"])


def test_nan_notes_name_the_labels_and_the_empty_state() -> None:
    ev = scored_pr.MultiLabelEvaluation(labels=["ant", "bee", "cat"])
    ev.add_cases([[True, False, True], [False, False, True], [True, False, False]], [[0.9, 0.1, 0.3], [0.2, 0.3, 0.8], [0.5, 0.4, 0.1]])
    data = page_data(ev.to_html())
    averages = {a["key"]: a for a in data["averages"]}
    assert averages["area_under_roc_curve (macro)"]["note"] == "undefined: 1 of 3 labels has no positive row (bee)"
    bee = next(row for row in data["items"] if row["name"] == "bee")
    assert bee["notes"] == {"average_precision": "undefined: no positive row", "area_under_roc_curve": "undefined: no positive row",
                            "r_precision": "undefined: no positive row"}  # fmt: skip
    assert all(row["notes"] == {} for row in data["items"] if row["name"] != "bee")
    empty = page_data(scored_pr.MultiLabelEvaluation(labels=2).to_html())
    assert empty["empty"] is True
    assert {a["note"] for a in empty["averages"] if a["value"] is None} == {"undefined: no rows yet"}
    one = page_data(scored_pr.ScoredPrecisionRecallEvaluation().to_html())
    assert one["empty"] is True
    assert {m["key"]: m["note"] for m in one["rankings"][0]["measures"] if m["value"] is None} == {
        "average_precision": "undefined: no cases yet", "area_under_roc_curve": "undefined: no cases yet",
        "area_under_roc_curve_interpolated": "undefined: no cases yet", "pr_breakeven_point": "undefined: no cases yet",
        "r_precision": "undefined: no cases yet"}  # fmt: skip
    negatives_only = scored_pr.ScoredPrecisionRecallEvaluation()
    negatives_only.add_cases([False, False], [0.3, 0.2])
    notes = {m["key"]: m.get("note") for m in page_data(negatives_only.to_html())["rankings"][0]["measures"]}
    assert notes["area_under_roc_curve"] == "undefined: no positive case"
    positives_only = scored_pr.ScoredPrecisionRecallEvaluation()
    positives_only.add_cases([True, True], [0.3, 0.2])
    notes = {m["key"]: m.get("note") for m in page_data(positives_only.to_html())["rankings"][0]["measures"]}
    assert notes["area_under_roc_curve"] == "undefined: no negative case" and notes["average_precision"] is None


def test_multiclass_confusion_matrix_is_a_k_by_k_table() -> None:
    ev = scored_pr.MultiLabelEvaluation(["ant", "bee", "cat"])
    ev.add_cases(["ant", "bee", "bee", "cat", "ant"],
                 [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.1, 0.1, 0.8]])
    data = page_data(ev.to_html())
    assert data["confusion"] == {"labels": ["ant", "bee", "cat"], "matrix": ev.confusion_matrix().tolist()}
    assert data["confusion"]["matrix"] == [[1, 0, 1], [1, 1, 0], [0, 0, 1]]
    keys = [a["key"] for a in data["averages"]]
    assert not any(k.startswith("confusion (") for k in keys)  # no k^2 rows of counts
    assert {a["key"]: a["label"] for a in data["averages"]}["f_measure (macro)"] == "F1 (top-scoring class), macro"
    multilabel = scored_pr.MultiLabelEvaluation(labels=2)
    multilabel.add_cases([[True, True], [False, True]], [[0.9, 0.1], [0.3, 0.8]])
    assert page_data(multilabel.to_html())["confusion"] is None  # a row with two labels has no single true class


def test_a_lone_surrogate_in_the_title_becomes_the_replacement_character(tmp_path: Path) -> None:
    """A title made from a file name that is not UTF-8: the page is valid UTF-8 and replaces the previous file."""
    path = tmp_path / "r.html"
    path.write_bytes(b"previous report")
    ev = exact(50)
    document = ev.to_html(path, title="caf\udce9 \ud800 report")
    assert "<title>caf\ufffd \ufffd report</title>" in document
    assert path.read_bytes() == document.encode("utf-8")


def test_sliced_page_data_marks_the_worst_slice_among_large_enough_ones() -> None:
    ev = scored_pr.SlicedEvaluation("g")
    rng = np.random.default_rng(2)
    for name, n, shift in (("good", 400, 2.0), ("weak", 300, 0.3), ("tiny", 20, -3.0)):
        y = rng.random(n) < 0.4
        ev.add_cases(y, rng.normal(y * shift, 1.0), g=[name] * n)
    data = page_data(ev.to_html())
    worst = ev.worst("average_precision", min_cases=100)
    assert worst is not None and worst.slice == (("g", "weak"),)  # tiny is worse but under 100 cases
    assert data["worst"] == {"name": "g=weak", "measure": "average_precision", "value": worst.value,
                             "min_cases": 100}
    assert [r["name"] for r in data["items"] if r["worst"]] == ["g=weak"]
    empty = page_data(scored_pr.SlicedEvaluation("g").to_html())
    assert empty.get("worst") is None and not any(r.get("worst") for r in empty["items"])


def test_probabilities_get_the_reliability_diagram_and_the_calibration_measures() -> None:
    """The page of probabilities holds the CORP curve, band, binned points and histogram of the display, and ECE and Brier."""
    from scored_pr import ReliabilityDisplay

    rng = np.random.default_rng(4)
    p = np.round(rng.random(500), 3)
    y = rng.random(500) < p
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, p)
    r = page_data(ev.to_html())["rankings"][0]
    measures = {m["key"]: m["value"] for m in r["measures"]}
    assert measures["expected_calibration_error"] == ev.expected_calibration_error()
    assert measures["brier_score"] == ev.brier_score()
    rel = r["reliability"]
    d = ReliabilityDisplay.from_evaluation(ev, n_bins=10, n_resamples=100, seed=0)
    assert rel["mcb"] == d.diagram.mcb and rel["dsc"] == d.diagram.dsc and rel["unc"] == d.diagram.unc
    # the step vertices of the CORP fit: every distinct score kept here (within the budget)
    assert rel["corp_x"][::2] == d.diagram.scores.tolist() and rel["corp_y"][::2] == d.diagram.recalibrated.tolist()
    assert [b[2:] for b in rel["band"]] == np.column_stack((d.diagram.lower, d.diagram.upper)).tolist()
    assert rel["bins"] == np.column_stack((d.bin_score, d.bin_fraction, d.bin_lower, d.bin_upper, d.bin_weight)).tolist()
    assert [h[2] for h in rel["histogram"]] == d.histogram.tolist() and sum(h[2] for h in rel["histogram"]) == 500
    # logits: no diagram, no calibration measure
    logits = exact(200)
    r = page_data(logits.to_html())["rankings"][0]
    assert r["reliability"] is None
    assert not {"expected_calibration_error", "brier_score"} & {m["key"] for m in r["measures"]}

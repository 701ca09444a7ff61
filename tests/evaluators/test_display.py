"""PrecisionRecallDisplay and RocDisplay: exact step points against a slow literal reference, the drawn
lines, the HTML page's curves from the same points, one to_html for every kind, and the refusals.

Headless: the Agg backend and Figure objects (no pyplot).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import scored_pr
from scored_pr import (
    BoundedEvaluation,
    MultiLabelEvaluation,
    MultiQueryEvaluation,
    PrecisionRecallDisplay,
    RocDisplay,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
)
from scored_pr import _html
from scored_pr._evaluators.base import report_repr_html, report_to_html
from scored_pr._html import data as page_data
from scored_pr._kinds import KINDS
from scored_pr.plot import plot_pr, plot_roc, pr_steps, roc_steps

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

# ------------------------------------------------------------ a slow literal reference


def _ranked_groups(labels: list[bool], scores: list[float], ties: str) -> list[list[bool]]:
    """The cases in rank order (score descending, insertion order within a score), as tie groups.

    With stable ties every case is its own group; with grouped ties a group is every case of one score.
    """
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    groups: list[list[bool]] = []
    last = None
    for i in order:
        if ties == "grouped" and groups and scores[i] == last:
            groups[-1].append(labels[i])
        else:
            groups.append([labels[i]])
        last = scores[i]
    return groups


def reference_pr_steps(labels: list[bool], scores: list[float], ties: str) -> tuple[list[float], list[float]]:
    """Precision p_j held over recall (r_{j-1}, r_j], one point per group holding a correct case."""
    positives = sum(labels)
    tp = fp = 0
    points = []
    for group in _ranked_groups(labels, scores, ties):
        tp += sum(group)
        fp += len(group) - sum(group)
        if any(group):
            points.append((tp / positives, tp / (tp + fp)))
    x, y, prev = [], [], 0.0
    for r, p in points:
        x += [prev, r]
        y += [p, p]
        prev = r
    return x, y


def reference_roc_steps(labels: list[bool], scores: list[float], ties: str) -> tuple[list[float], list[float]]:
    """From (0, 0): per group holding a correct case, (fpr before the group, recall before) to (fpr after, recall
    after) (vertical with stable ties, a diagonal across a mixed group), then (1, last recall), (1, 1)."""
    positives, negatives = sum(labels), len(labels) - sum(labels)
    tp = fp = 0
    x, y = [0.0], [0.0]
    for group in _ranked_groups(labels, scores, ties):
        tp_before, fp_before = tp, fp
        tp += sum(group)
        fp += len(group) - sum(group)
        if any(group):
            start = fp_before if ties == "grouped" else fp
            x += [start / negatives, fp / negatives]
            y += [tp_before / positives, tp / positives]
    x += [1.0, 1.0]
    y += [tp / positives, 1.0]
    return x, y


def _cases(seed: int, n: int = 60) -> tuple[list[bool], list[float]]:
    rng = np.random.default_rng(seed)
    labels = [bool(v) for v in rng.random(n) < 0.4]
    labels[0], labels[1] = True, False  # both classes
    scores = [float(v) for v in np.round(rng.random(n), 1)]  # rounded: many mixed tie groups
    return labels, scores


def _exact(labels: list[bool], scores: list[float], ties: str) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(labels, scores)
    return ev


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@pytest.mark.parametrize("seed", range(6))
def test_pr_display_holds_the_exact_step_points(ties: str, seed: int) -> None:
    labels, scores = _cases(seed)
    display = PrecisionRecallDisplay.from_evaluation(_exact(labels, scores, ties))
    x, y = reference_pr_steps(labels, scores, ties)
    np.testing.assert_allclose(display.recall, x, rtol=0, atol=1e-15)
    np.testing.assert_allclose(display.precision, y, rtol=0, atol=1e-15)
    assert display.points.shape == (len(x) // 2, 2)
    np.testing.assert_array_equal(display.points[:, 0], display.recall[1::2])


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@pytest.mark.parametrize("seed", range(6))
def test_roc_display_holds_the_exact_step_points(ties: str, seed: int) -> None:
    labels, scores = _cases(seed)
    display = RocDisplay.from_evaluation(_exact(labels, scores, ties))
    x, y = reference_roc_steps(labels, scores, ties)
    np.testing.assert_allclose(display.fpr, x, rtol=0, atol=1e-15)
    np.testing.assert_allclose(display.tpr, y, rtol=0, atol=1e-15)


def test_the_worked_example_by_hand() -> None:
    ev = _exact([True, False, True, False], [0.9, 0.8, 0.7, 0.1], "grouped")
    pr, roc = PrecisionRecallDisplay.from_evaluation(ev), RocDisplay.from_evaluation(ev)
    assert pr.recall.tolist() == [0.0, 0.5, 0.5, 1.0]
    assert pr.precision.tolist() == [1.0, 1.0, 2 / 3, 2 / 3]
    assert (pr.area, pr.breakeven, pr.chance_level, pr.boxes) == (pytest.approx(5 / 6), 0.5, 0.5, None)
    assert roc.fpr.tolist() == [0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0]
    assert roc.tpr.tolist() == [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0]
    assert roc.area == 0.75 and roc.defined


# ------------------------------------------------------------ one source of points


def _every_ranking_kind() -> dict[str, Any]:
    labels, scores = _cases(7)
    out: dict[str, Any] = {"exact": _exact(labels, scores, "grouped"), "stable": _exact(labels, scores, "stable")}
    out["windowed"] = WindowedEvaluation(1000)
    out["bounded"] = BoundedEvaluation(max_bins=8)
    out["synchronized"] = SynchronizedEvaluation()
    for key in ("windowed", "bounded", "synchronized"):
        out[key].add_cases(labels, scores)
    ml = MultiLabelEvaluation(["a", "b"])
    ml.add_cases(np.column_stack((labels, labels[::-1])), np.column_stack((scores, scores[::-1])))
    out["label a"], out["pooled"] = ml["a"], ml.pooled()
    return out


@pytest.mark.parametrize("interpolate", [False, True])
@pytest.mark.parametrize("key", list(_every_ranking_kind()))
def test_displays_hold_the_points_plot_draws_and_the_page_draws(key: str, interpolate: bool) -> None:
    ev = _every_ranking_kind()[key]
    if key == "bounded" and interpolate:
        pytest.skip("a bounded summary has no interpolated curve (refusal tested below)")
    pr = PrecisionRecallDisplay.from_evaluation(ev, interpolate=interpolate)
    roc = RocDisplay.from_evaluation(ev, interpolate=interpolate)
    for got, want in zip((pr.recall, pr.precision, roc.fpr, roc.tpr), (*pr_steps(ev, interpolate), *roc_steps(ev, interpolate))):
        np.testing.assert_array_equal(got, want)
    entry = page_data.entry(ev, "model", budget=10**6)
    if key == "bounded":
        np.testing.assert_array_equal(entry["pr_estimate"], pr.points)
        np.testing.assert_array_equal(entry["roc_estimate"], roc.points)
        np.testing.assert_array_equal(entry["roc_boxes"], roc.boxes)
        np.testing.assert_array_equal(entry["pr_boxes"], pr.boxes)
    elif interpolate:  # the page's dashed curves are the interpolated displays' points, ROC from (0, 0)
        np.testing.assert_array_equal(entry["pr_interp"], pr.points)
        np.testing.assert_array_equal(entry["roc_interp"], np.vstack(([[0.0, 0.0]], roc.points)))


def test_a_labels_display_is_the_display_of_its_column() -> None:
    labels, scores = _cases(11)
    ml = MultiLabelEvaluation(["x", "y"])
    ml.add_cases(np.column_stack((labels, labels)), np.column_stack((scores, scores[::-1])))
    alone = PrecisionRecallDisplay.from_evaluation(_exact(labels, scores, "grouped"))
    np.testing.assert_array_equal(PrecisionRecallDisplay.from_evaluation(ml["x"]).recall, alone.recall)
    np.testing.assert_array_equal(PrecisionRecallDisplay.from_evaluation(ml["x"]).precision, alone.precision)


# ------------------------------------------------------------ drawing


@pytest.mark.parametrize("key", ["exact", "stable", "bounded", "windowed"])
def test_plot_draws_lines_whose_data_are_the_step_points(key: str) -> None:
    ev = _every_ranking_kind()[key]
    labels, scores = _cases(7)
    ties = "stable" if key == "stable" else "grouped"
    pr = PrecisionRecallDisplay.from_evaluation(ev, name="model")
    ax = Figure().add_subplot()
    assert pr.plot(ax, show_chance=False) is pr and pr.ax_ is ax and pr.figure_ is ax.figure
    x, y = pr.line_.get_data()
    if key != "bounded":  # the literal reference is of the exact curve; a bounded summary draws its estimate
        ref_x, ref_y = reference_pr_steps(labels, scores, ties)
        np.testing.assert_allclose(x, ref_x, rtol=0, atol=1e-15)
        np.testing.assert_allclose(y, ref_y, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(x, pr.recall)
    np.testing.assert_array_equal(y, pr.precision)
    assert pr.line_.get_label().startswith("model (AP = ")
    roc = RocDisplay.from_evaluation(ev).plot(Figure().add_subplot(), name="m", color="red")
    np.testing.assert_array_equal(roc.line_.get_xdata(), roc.fpr)
    np.testing.assert_array_equal(roc.line_.get_ydata(), roc.tpr)
    assert roc.line_.get_color() == "red" and roc.line_.get_label().startswith("m (AUC = ")
    assert len(roc.ax_.collections) == (1 if key == "bounded" else 0)  # the bounded summary's boxes


def test_plot_pr_and_plot_roc_draw_what_the_displays_draw() -> None:
    ev = _every_ranking_kind()["exact"]
    for func, cls in ((plot_pr, PrecisionRecallDisplay), (plot_roc, RocDisplay)):
        by_func = func(ev, Figure().add_subplot(), label="A", fill=True)
        by_display = cls.from_evaluation(ev).plot(Figure().add_subplot(), name="A", fill=True).ax_
        lines = [(ln.get_label(), ln.get_xydata().tolist(), ln.get_color()) for ln in by_func.get_lines()]
        assert lines == [(ln.get_label(), ln.get_xydata().tolist(), ln.get_color()) for ln in by_display.get_lines()]
        assert by_func.get_legend_handles_labels()[1] == by_display.get_legend_handles_labels()[1]


# ------------------------------------------------------------ one to_html for every kind


def _one_of_each_kind() -> dict[str, Any]:
    labels, scores = _cases(3)
    out: dict[str, Any] = {"exact": ScoredPrecisionRecallEvaluation(), "windowed": WindowedEvaluation(100),
                           "bounded": BoundedEvaluation(max_bins=8), "synchronized": SynchronizedEvaluation()}
    for ev in out.values():
        ev.add_cases(labels, scores)
    out["multi"] = MultiQueryEvaluation()
    out["multi"].add_cases("q1", labels, scores)
    out["multilabel"] = MultiLabelEvaluation(["a", "b"])
    out["multilabel"].add_cases(np.column_stack((labels, labels[::-1])), np.column_stack((scores, scores[::-1])))
    return out


def test_every_kind_has_the_one_to_html_and_its_repr_html_is_the_notebook_view() -> None:
    kinds = _one_of_each_kind()
    assert set(kinds) >= {"exact", "windowed", "bounded", "synchronized", "multi", "multilabel"}
    for name, ev in kinds.items():
        cls = KINDS[name].cls
        # the one definition: the thread guard wraps it (where it is defined), the synchronized kind binds it
        assert getattr(cls.to_html, "__wrapped__", cls.to_html) is report_to_html, name
        assert getattr(cls._repr_html_, "__wrapped__", cls._repr_html_) is report_repr_html, name
        document = ev.to_html(title="t")
        assert document == _html.render(ev, title="t")
        assert ev._repr_html_() == _html.notebook(ev.to_html())


def test_the_synchronized_report_is_read_under_its_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    ev = SynchronizedEvaluation()
    ev.add_cases([True, False], [0.9, 0.1])
    held = []

    def render(obj: Any, title: str | None = None) -> str:
        held.append(ev._lock._is_owned())  # type: ignore[attr-defined]
        return "page"

    monkeypatch.setattr(_html, "render", render)
    assert ev.to_html() == "page" and held == [True]
    assert not ev._lock._is_owned()  # type: ignore[attr-defined]


# ------------------------------------------------------------ refusals


def test_a_kind_with_no_single_ranking_is_refused_naming_the_argument() -> None:
    multi = MultiQueryEvaluation()
    multi.add_cases("q", [True, False], [0.9, 0.1])
    with pytest.raises(UnsupportedQuery, match=r"^PrecisionRecallDisplay\.from_evaluation: MultiQueryEvaluation .*evaluation\[query\]"):
        PrecisionRecallDisplay.from_evaluation(multi)
    ml = MultiLabelEvaluation(["a"])
    ml.add_cases([[1], [0]], [[0.9], [0.1]])
    with pytest.raises(UnsupportedQuery, match=r"^RocDisplay\.from_evaluation: MultiLabelEvaluation .*evaluation\[label\].*pooled\(\)"):
        RocDisplay.from_evaluation(ml)
    with pytest.raises(TypeError, match=r"^RocDisplay\.from_evaluation: argument 'evaluation' must be .*; got \[1, 2\]"):
        RocDisplay.from_evaluation([1, 2])
    ev = _exact([True, False], [0.9, 0.1], "grouped")
    with pytest.raises(TypeError, match=r"argument 'interpolate' must be a bool; got 'yes'"):
        PrecisionRecallDisplay.from_evaluation(ev, interpolate="yes")
    with pytest.raises(TypeError, match=r"argument 'name' must be None or a str; got 3"):
        PrecisionRecallDisplay.from_evaluation(ev, name=3)
    bounded = BoundedEvaluation(max_bins=4)
    bounded.add_cases([True, False], [0.9, 0.1])
    with pytest.raises(UnsupportedQuery, match=r"^RocDisplay\.from_evaluation: a BoundedEvaluation has no interpolated curve"):
        RocDisplay.from_evaluation(bounded, interpolate=True)
    assert (ev.num_cases, bounded.num_cases, len(multi), ml.num_rows) == (2, 2, 1, 2)  # nothing changed


def test_plot_refuses_bad_arguments_before_drawing() -> None:
    display = RocDisplay.from_evaluation(_exact([True, False], [0.9, 0.1], "grouped"))
    with pytest.raises(TypeError, match=r"^RocDisplay\.plot: argument 'ax' must be None or a matplotlib\.axes\.Axes; got 'ax'"):
        display.plot("ax")
    ax = Figure().add_subplot()
    with pytest.raises(TypeError, match=r"^RocDisplay\.plot: argument 'fill' must be a bool; got 1"):
        display.plot(ax, fill=1)
    with pytest.raises(TypeError, match=r"^RocDisplay\.plot: argument 'name' must be None or a str"):
        display.plot(ax, name=b"x")
    assert ax.get_lines() == [] and display.ax_ is None and display.line_ is None  # nothing drawn, nothing kept


def test_the_public_names() -> None:
    assert scored_pr.PrecisionRecallDisplay is PrecisionRecallDisplay and "RocDisplay" in scored_pr.__all__
    for cls in (PrecisionRecallDisplay, RocDisplay):
        assert cls.__doc__ and cls.from_evaluation.__doc__ and cls.plot.__doc__

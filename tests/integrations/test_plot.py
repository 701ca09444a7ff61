"""scored_pr.plot: the drawn step functions have the areas the library reports; labels, legends, extras.

Headless: the Agg backend, and Figure objects where no pyplot is needed.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.plot import plot_pr, plot_pr_roc, plot_roc, pr_steps, roc_steps

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402


def trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    """Area under a polyline (vertical segments contribute nothing)."""
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def make(cases, ties="stable", misses=0, negative_misses=0) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    for c, s in cases:
        ev.add_case(c, s)
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    return ev


WORKED = [(False, -1.21), (True, -1.27), (False, -1.39), (True, -1.47), (True, -1.60),
          (False, -1.65), (False, -1.79), (False, -1.80), (True, -2.01), (False, -3.70)]  # fmt: skip

cases_strategy = st.lists(st.tuples(st.booleans(), st.integers(0, 6).map(float)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    cases=cases_strategy,
    ties=st.sampled_from(["stable", "grouped"]),
    misses=st.integers(0, 3),
    negative_misses=st.integers(0, 3),
    interpolate=st.booleans(),
)
def test_drawn_areas_are_the_reported_areas(cases, ties, misses, negative_misses, interpolate) -> None:
    ev = make(cases, ties, misses, negative_misses)
    x, y = pr_steps(ev, interpolate)
    assert trapezoid(x, y) == pytest.approx(ev.area_under_pr_curve(interpolate), abs=1e-12)
    if x.size:
        assert x[0] == 0.0 and np.all(np.diff(x) >= 0)  # recall never goes back
    x, y = roc_steps(ev, interpolate)
    if ev.num_negative_ref == 0 or ev.roc_curve(interpolate).shape[0] == 0:
        assert x.size == 0
    else:
        assert (x[0], y[0], x[-1], y[-1]) == (0.0, 0.0, 1.0, 1.0)
        assert np.all(np.diff(x) >= -1e-15) and np.all(np.diff(y) >= 0)  # monotone staircase
        assert trapezoid(x, y) == pytest.approx(ev.area_under_roc_curve(interpolate), abs=1e-12)


def test_worked_example_steps() -> None:
    ev = make(WORKED)
    x, y = pr_steps(ev)
    assert x.tolist() == [0.0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1.0]
    assert y.tolist() == pytest.approx([0.5, 0.5, 0.5, 0.5, 0.6, 0.6, 4 / 9, 4 / 9])
    x, y = roc_steps(ev)
    # F T F T T F F F T F: up at each correct case, right at each incorrect one
    expected = [(0, 0), (1 / 6, 0), (1 / 6, 0.25), (2 / 6, 0.25), (2 / 6, 0.5), (2 / 6, 0.5), (2 / 6, 0.75),
                (5 / 6, 0.75), (5 / 6, 1.0), (1, 1), (1, 1)]  # fmt: skip
    assert np.allclose(np.column_stack((x, y)), np.array(expected, dtype=float), rtol=0, atol=1e-15)


def test_grouped_ties_draw_a_diagonal() -> None:
    ev = make([(True, 0.9), (True, 0.5), (False, 0.5), (False, 0.1)], ties="grouped")
    x, y = roc_steps(ev)
    pts = np.column_stack((x, y)).tolist()
    assert [0.0, 0.5] in pts and [0.5, 1.0] in pts  # the tied pair: from (0, .5) straight to (.5, 1)
    assert trapezoid(x, y) == ev.area_under_roc_curve() == 0.875


def test_plot_pr_draws_the_steps_with_labels() -> None:
    ev = make(WORKED)
    ax = plot_pr(ev, Figure().add_subplot())
    line = ax.get_lines()[0]
    x, y = pr_steps(ev)
    assert np.array_equal(line.get_xdata(), x) and np.array_equal(line.get_ydata(), y)
    assert ax.get_xlabel() == "Recall" and ax.get_ylabel() == "Precision"
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["AP = 0.511", "BEP = 0.500", "chance = 0.400"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels


def test_plot_pr_interpolated_and_options() -> None:
    ev = make(WORKED)
    ax = plot_pr(ev, Figure().add_subplot(), interpolate=True, show_breakeven=False, show_chance=False,
                 label="sys", fill=True, color="black", linestyle="--")  # fmt: skip
    assert ax.get_legend_handles_labels()[1] == ["sys (PR area = 0.561)"]
    assert ax.get_lines()[0].get_linestyle() == "--"
    assert len(ax.collections) == 1  # the fill
    ax = plot_pr(ev, Figure().add_subplot(), interpolate=True, show_breakeven=False, show_chance=False)
    assert ax.get_legend_handles_labels()[1] == ["interpolated (PR area = 0.561)"]


def test_breakeven_marker_of_a_perfect_ranker_and_none_without_positives() -> None:
    ev = make([(True, 0.9), (True, 0.8), (False, 0.1)])
    assert ev.pr_breakeven_point() == 1.0
    labels = plot_pr(ev, Figure().add_subplot()).get_legend_handles_labels()[1]
    assert "BEP = 1.000" in labels
    ev = make([(False, 0.9)])  # no positive reference: no break-even point (NaN)
    labels = plot_pr(ev, Figure().add_subplot()).get_legend_handles_labels()[1]
    assert not any(label.startswith("BEP") for label in labels)


def test_plot_roc_labels() -> None:
    ev = make(WORKED)
    ax = plot_roc(ev, Figure().add_subplot(), label="worked")
    assert ax.get_legend_handles_labels()[1] == ["worked (AUC = 0.583)", "chance"]
    assert ax.get_xlabel().startswith("False positive rate") and ax.get_ylabel().startswith("True positive rate")
    x, y = roc_steps(ev)
    assert np.array_equal(ax.get_lines()[0].get_xdata(), x)
    ax = plot_roc(ev, Figure().add_subplot(), interpolate=True, show_chance=False)
    assert ax.get_legend_handles_labels()[1] == ["interpolated (AUC = 0.583)"]


@pytest.mark.parametrize(
    "cases, misses",
    [([], 0), ([(False, 0.5)], 0), ([(True, 0.5)], 0), ([], 3), ([(True, 0.5), (True, 0.5)], 1)],
)
def test_degenerate_evaluations_plot_without_error(cases, misses) -> None:
    ev = make(cases, misses=misses)
    fig = plot_pr_roc(ev, figure=Figure())
    fig.canvas.draw()  # renders without warnings turned errors
    if ev.num_positive_ref and not ev.num_negative_ref and ev.num_cases:
        assert "AUC undefined: no negative case" in fig.axes[1].get_legend_handles_labels()[1]


def test_plot_pr_roc_png(tmp_path) -> None:
    ev = make(WORKED, misses=1)
    fig = plot_pr_roc(ev, title="worked", figure=Figure())
    assert [ax.get_title() for ax in fig.axes] == ["Precision-recall", "ROC"]
    assert fig.get_suptitle() == "worked: 10 cases, 5 positive (1 missed), ties=stable"
    fig.savefig(tmp_path / "x.png", dpi=80)
    assert (tmp_path / "x.png").read_bytes()[:4] == b"\x89PNG"


def test_pyplot_axes_are_created_when_none_given() -> None:
    import matplotlib.pyplot as plt

    ev = make(WORKED)
    try:
        ax_pr = plot_pr(ev)
        ax_roc = plot_roc(ev)
        assert ax_pr.figure is not ax_roc.figure  # a new figure each, not the current axes
        fig = plot_pr_roc(ev)
        assert len(fig.axes) == 2
    finally:
        plt.close("all")


def test_several_systems_share_axes() -> None:
    a, b = make(WORKED), make([(True, 0.9), (False, 0.1)])
    ax = Figure().add_subplot()
    plot_pr(a, ax, label="A", show_chance=False, show_breakeven=False)
    plot_pr(b, ax, label="B", show_chance=False, show_breakeven=False)
    assert ax.get_legend_handles_labels()[1] == ["A (AP = 0.511)", "B (AP = 1.000)"]
    assert ax.get_lines()[0].get_color() != ax.get_lines()[1].get_color()


@pytest.mark.parametrize("func", [plot_pr, plot_roc, pr_steps, roc_steps])
def test_bad_arguments(func) -> None:
    with pytest.raises(TypeError, match="ScoredPrecisionRecallEvaluation"):
        func([(True, 0.5)])
    with pytest.raises(TypeError, match="interpolate"):
        func(make(WORKED), **({"ax": Figure().add_subplot()} if func in (plot_pr, plot_roc) else {}),
             interpolate="yes")  # fmt: skip


def test_missing_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    for func in (plot_pr, plot_roc, plot_pr_roc):
        # the hints work from a checkout too (scored-pr[plot] needs the package on an index)
        with pytest.raises(ImportError, match=r"optional extra 'plot': pip install matplotlib \(or, in a checkout of scored_pr, pip install '\.\[plot\]'\)"):
            func(make(WORKED))


def test_importing_scored_pr_and_its_modules_does_not_import_matplotlib() -> None:
    code = (
        "import sys, scored_pr, scored_pr.plot, scored_pr.testing, scored_pr.streaming, scored_pr._cli.main; "
        "assert 'matplotlib' not in sys.modules, sorted(m for m in sys.modules if 'matplotlib' in m)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr

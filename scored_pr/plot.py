"""Precision-recall and ROC plots with matplotlib (the optional extra ``plot``).

Every curve is drawn as the step function whose area the library reports, so
what the eye integrates is the number in the legend:

* PR: precision ``p_j`` is held over recall ``(r_{j-1}, r_j]`` from recall 0,
  the area is ``area_under_pr_curve(interpolate)`` (``average_precision()``
  when uninterpolated).
* ROC: drawn in the usual orientation (false positive rate = 1 - rejection
  recall on x, recall on y) as a staircase; with ``ties="grouped"`` a tie group
  that mixes correct and incorrect cases is a diagonal segment (the half
  credit of ``area_under_roc_curve(False)``), and unreturned positives and
  negatives form one last tie group that reaches (1, 1). With stable ties
  misses and negative misses are never accepted, so the curve closes along
  x = 1 and y = its last recall.

Every evaluator kind is drawn: the exact evaluator, a
:class:`~scored_pr.WindowedEvaluation` and a
:class:`~scored_pr.SynchronizedEvaluation` (each read through one
``snapshot()``, so both curves and the legend show the same cases), and a
:class:`~scored_pr.BoundedEvaluation`: its estimate curve (every bin one tie
group) with the boxes of ``pr_band()`` / ``roc_band()`` shaded around it,
which hold the exact curve; the legend shows the area's bounds. A
:class:`~scored_pr.MultiQueryEvaluation` is one ranking per query: plot
``evaluation[query]``.

matplotlib is imported inside the functions only; ``import scored_pr.plot``
works without it, and the functions raise an ImportError naming the extra.

Examples
--------
>>> from matplotlib.figure import Figure
>>> from scored_pr import ScoredPrecisionRecallEvaluation
>>> from scored_pr.plot import plot_pr, plot_roc
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
>>> fig = Figure()
>>> ax = plot_pr(ev, fig.add_subplot(1, 2, 1))
>>> ax.get_legend_handles_labels()[1]
['AP = 0.833', 'BEP = 0.500', 'chance = 0.500']
>>> plot_roc(ev, fig.add_subplot(1, 2, 2)).get_legend_handles_labels()[1]
['AUC = 0.750', 'chance']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ._evaluators.exact import ScoredPrecisionRecallEvaluation
from ._validation import UnsupportedQuery, check_choice, check_evaluation, check_flag, check_type_named

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_pr", "plot_roc", "plot_pr_roc", "plot_multilabel", "pr_steps", "roc_steps"]

_EXTRA_MESSAGE = (
    "scored_pr.plot needs matplotlib, which is the optional extra 'plot': "
    "pip install matplotlib (or, in a checkout of scored_pr, pip install '.[plot]')"
)

FloatArray = npt.NDArray[np.float64]


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError(_EXTRA_MESSAGE) from exc


_PER_QUERY = "it holds one ranking per query; plot one query's evaluator, evaluation[query]."


def _check_evaluation(evaluation: Any, func: str) -> tuple[bool, Any]:
    """(bounded, the evaluator to read): a window or a shared evaluator is read through one snapshot."""
    kind, ev = check_evaluation(evaluation, func, multi=_PER_QUERY)
    return kind == "bounded", ev


def _check_interpolate(bounded: bool, interpolate: Any, func: str) -> bool:
    interpolate = check_flag(interpolate, func, "interpolate")
    if bounded and interpolate:
        raise UnsupportedQuery(
            f"{func}: a BoundedEvaluation has no interpolated curve: its certified bounds (pr_band(), "
            "roc_band()) hold the uninterpolated curve; plot with interpolate=False, or plot an exact "
            "ScoredPrecisionRecallEvaluation of the cases."
        )
    return interpolate


def _bounds_text(value: Any) -> str:
    """`` [lower, upper]`` of a Bounds that is not exact; empty otherwise."""
    lower, upper = getattr(value, "lower", None), getattr(value, "upper", None)
    if lower is None or upper is None or getattr(value, "exact", True):
        return ""
    return f" [{lower:.3f}, {upper:.3f}]"


def _draw_boxes(ax: Axes, boxes: FloatArray, color: Any, label: str) -> None:
    """Shade rectangles given as (x_low, x_high, y_low, y_high) rows, as one collection."""
    from matplotlib.collections import PolyCollection

    boxes = boxes[np.isfinite(boxes).all(axis=1)]
    x0, x1, y0, y1 = boxes.T
    corners = np.stack(
        [np.column_stack((x0, y0)), np.column_stack((x1, y0)), np.column_stack((x1, y1)), np.column_stack((x0, y1))],
        axis=1,
    )
    band = PolyCollection(list(corners), facecolors=color, edgecolors="none", alpha=0.3, label=label, zorder=1.5)
    ax.add_collection(band, autolim=False)


def _new_axes() -> Axes:
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(4.5, 4.5), layout="constrained")
    return ax


def _style_axes(ax: Axes, xlabel: str, ylabel: str, title: str) -> None:
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xticks(np.linspace(0.0, 1.0, 6))
    ax.set_yticks(np.linspace(0.0, 1.0, 6))
    ax.grid(True, linewidth=0.5, alpha=0.35)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if not ax.get_title():
        ax.set_title(title)


# ---------------------------------------------------------------------------
# the step functions (pure numpy, no matplotlib)


def pr_steps(evaluation: Any, interpolate: bool = False) -> tuple[FloatArray, FloatArray]:
    """Vertices (x = recall, y = precision) of the PR step function that is plotted.

    Parameters
    ----------
    evaluation : any evaluator kind
        A window or a shared evaluator is read through ``snapshot()``; a
        BoundedEvaluation gives its estimate curve (``pr_band().estimate``).
    interpolate : bool, default False
        Use ``pr_curve(True)`` instead of ``pr_curve(False)`` (not for a
        BoundedEvaluation: UnsupportedQuery).

    Returns
    -------
    x, y : numpy.ndarray of float64, shape (2 * n_points,)
        ``(0, p_1), (r_1, p_1), (r_1, p_2), (r_2, p_2), ...``: precision
        ``p_j`` held over recall ``(r_{j-1}, r_j]``. The trapezoid area under
        this polyline is ``area_under_pr_curve(interpolate)``. Empty when the
        curve is.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.8, 0.7])
    >>> x, y = pr_steps(ev)
    >>> x.tolist(), y.round(3).tolist()
    ([0.0, 0.5, 0.5, 1.0], [1.0, 1.0, 0.667, 0.667])
    >>> float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))  # trapezoid area = AP
    0.8333333333333333
    """
    bounded, ev = _check_evaluation(evaluation, "pr_steps")
    interpolate = _check_interpolate(bounded, interpolate, "pr_steps")
    curve = ev.pr_band().estimate if bounded else ev.pr_curve(interpolate)
    r, p = curve[:, 0], curve[:, 1]
    x = np.repeat(np.concatenate(([0.0], r)), 2)[1:-1]
    y = np.repeat(p, 2)
    return x, y


def roc_steps(evaluation: Any, interpolate: bool = False) -> tuple[FloatArray, FloatArray]:
    """Vertices (x = false positive rate, y = recall) of the ROC curve that is plotted.

    Parameters
    ----------
    evaluation : any evaluator kind
        A window or a shared evaluator is read through ``snapshot()``; a
        BoundedEvaluation gives its estimate curve, every bin one tie group
        (``roc_band().estimate``, with the segments across the bins).
    interpolate : bool, default False
        Use ``roc_curve(True)`` instead of the uninterpolated curve: with
        stable ties LingPipe's staircase, with grouped ties the ROC convex
        hull (not for a BoundedEvaluation: UnsupportedQuery).

    Returns
    -------
    x, y : numpy.ndarray of float64
        A monotone polyline from (0, 0) to (1, 1). Each operating point j of
        ``roc_curve(interpolate)``, with recall ``r_j`` and false positive
        rate ``f_j = 1 - rejection recall``, contributes the segment from
        ``(f_start, r_{j-1})`` to ``(f_j, r_j)``, joined by horizontal
        segments. ``f_start = f_j`` (a vertical step) with stable ties; with
        grouped ties it is the rate before the point's tie group (a diagonal
        across a mixed group), and on the convex hull the previous vertex's
        rate. The polyline ends with ``(1, r_n), (1, 1)``. The
        trapezoid area under it is ``area_under_roc_curve(interpolate)``. Empty
        when the curve is, or when there is no negative reference case
        (the false positive rate is 0/0).

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> x, y = roc_steps(ev)
    >>> x.tolist(), y.tolist()
    ([0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0])
    """
    bounded, ev = _check_evaluation(evaluation, "roc_steps")
    interpolate = _check_interpolate(bounded, interpolate, "roc_steps")
    if ev.num_negative_ref == 0:
        return np.zeros(0), np.zeros(0)
    r, f_start, f_end = _bounded_roc_segments(ev) if bounded else _roc_segments(ev, interpolate)
    if r.size == 0:
        return np.zeros(0), np.zeros(0)
    r_prev = np.concatenate(([0.0], r[:-1]))
    # per point: (f_start, r_prev) -> (f_end, r); the horizontal joins are implicit
    x = np.concatenate(([0.0], np.column_stack((f_start, f_end)).ravel(), [1.0, 1.0]))
    y = np.concatenate(([0.0], np.column_stack((r_prev, r)).ravel(), [r[-1], 1.0]))
    return x, y


def _roc_segments(ev: Any, interpolate: bool) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(recall, fpr where the segment to the row starts, fpr at the row) of each ``roc_curve`` row.

    With stable ties every row is reached by a vertical step; on the convex
    hull from the previous vertex. Uninterpolated grouped rows are tie
    groups: the segment starts at the rate before the group, read from
    ``roc_points()`` at the group's score (``pr_score_curve()``), and the
    bottom tie group of the misses starts after every returned case.
    """
    curve = ev.roc_curve(interpolate)
    r, rr_end = curve[:, 0], curve[:, 1]
    if ev.ties == "stable" or r.size == 0:
        rr_start = rr_end
    elif interpolate:
        rr_start = np.concatenate(([1.0], rr_end[:-1]))
    else:
        fpr, _, thresholds = ev.roc_points()  # point 0 is (0, 0) at threshold inf, then one per distinct score
        group_scores = ev.pr_score_curve(False)[:, 2]
        before = np.searchsorted(-thresholds[1:], -group_scores)  # index of the point before each group
        n = before.size
        rr_start = rr_end.copy()
        vertical = fpr[before + 1] == fpr[before]  # no incorrect case in the group: exactly a vertical step
        rr_start[:n] = np.where(vertical, rr_end[:n], 1.0 - fpr[before])
        if r.size > n:  # the misses: the bottom tie group, after every returned case
            rr_start[n] = 1.0 - fpr[-1]
    return r, 1.0 - rr_start, 1.0 - rr_end


def _bounded_roc_segments(ev: Any) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The same for a bounded summary's estimate: every bin holding a correct case is one tie group."""
    _, _, pos, neg = ev.bins()
    pos_ref, neg_ref = ev.positive_weight, ev.negative_weight
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    fp_before = np.concatenate(([0.0], fp))[:-1]
    has = pos > 0
    r, f_start, f_end = tp[has] / pos_ref, fp_before[has] / neg_ref, fp[has] / neg_ref
    if ev.num_misses:  # the bottom tie group of misses and negative misses
        returned = fp[-1] / neg_ref if fp.size else 0.0
        r, f_start, f_end = np.append(r, 1.0), np.append(f_start, returned), np.append(f_end, 1.0)
    return r, f_start, f_end


# ---------------------------------------------------------------------------
# plots


def plot_pr(
    evaluation: Any,
    ax: Axes | None = None,
    interpolate: bool = False,
    show_breakeven: bool = True,
    *,
    show_chance: bool = True,
    label: str | None = None,
    fill: bool = False,
    **line_kwargs: Any,
) -> Axes:
    """Draw the precision-recall curve as the step function whose area is reported.

    Parameters
    ----------
    evaluation : any evaluator kind
        A window or a shared evaluator is read through one ``snapshot()``.
        A BoundedEvaluation draws its estimate curve and shades the boxes of
        ``pr_band()`` (which hold the exact curve) in the line's colour,
        labelled ``bounds``; the legend gives AP with its bounds.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new 4.5 x 4.5 inch figure (``pyplot``) if None.
        Call again with the same ``ax`` to compare systems.
    interpolate : bool, default False
        Draw ``pr_curve(True)`` (dominated points pruned) instead of
        ``pr_curve(False)``.
    show_breakeven : bool, default True
        Mark the break-even point (BEP, ``pr_breakeven_point()``) on the
        diagonal recall = precision, which is drawn faintly. Not drawn when
        the BEP is 0, nor with sample weights (the BEP counts cases by rank
        and is undefined then).
    show_chance : bool, default True
        A dashed horizontal line at the precision of a random ranking,
        num_positive_ref / (num_positive_ref + num_negative_ref).
    label : str, optional
        Name of the system; the legend reads ``"<label> (AP = 0.812)"``,
        or ``"<label> (PR area = 0.815)"`` when interpolated (the default
        label is then ``"interpolated"``).
    fill : bool, default False
        Shade the area under the curve.
    **line_kwargs
        Passed to ``Axes.plot`` (color, linestyle, linewidth...).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, with recall on x and precision on y (both 0 to 1, equal
        aspect), a title, a grid and a legend holding the area: AP
        (= ``area_under_pr_curve(False)`` up to rounding), or the
        interpolated PR area.

    Raises
    ------
    ImportError
        If matplotlib is not installed (the message names the extra ``plot``).
    TypeError
        If ``evaluation`` is not an evaluator, or ``interpolate`` not a bool.
    UnsupportedQuery
        For a MultiQueryEvaluation (plot one query's evaluator), or
        ``interpolate=True`` with a BoundedEvaluation.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.8, 0.7])
    >>> ax = plot_pr(ev, Figure().add_subplot(), label="model A", show_chance=False)
    >>> ax.get_legend_handles_labels()[1], ax.get_xlabel(), ax.get_ylabel()
    (['model A (AP = 0.833)', 'BEP = 0.500'], 'Recall', 'Precision')
    """
    _require_matplotlib()
    bounded, ev = _check_evaluation(evaluation, "plot_pr")
    interpolate = _check_interpolate(bounded, interpolate, "plot_pr")
    show_breakeven = check_flag(show_breakeven, "plot_pr", "show_breakeven")
    if ax is None:
        ax = _new_axes()
    x, y = pr_steps(ev, interpolate)
    if interpolate:
        what = f"PR area = {ev.area_under_pr_curve(True):.3f}"
        label = "interpolated" if label is None else label
    else:
        ap = ev.average_precision()
        what = f"AP = {ap:.3f}{_bounds_text(ap)}"
    line_kwargs.setdefault("linewidth", 1.6)
    (line,) = ax.plot(x, y, label=what if label is None else f"{label} ({what})", **line_kwargs)
    color = line.get_color()
    if bounded:
        _draw_boxes(ax, ev.pr_band().boxes, color, "bounds")
    if fill and x.size:
        ax.fill_between(x, y, color=color, alpha=0.12, linewidth=0)
    if show_breakeven:
        ax.plot([0, 1], [0, 1], color="0.6", linewidth=0.6, linestyle=":", zorder=0.5)
        bep = 0.0 if ev.weighted else ev.pr_breakeven_point()  # rank-based: undefined with weights
        if bep > 0.0:
            ax.plot(
                [bep], [bep], marker="o", markersize=5.5, color=color, markerfacecolor="white",
                markeredgewidth=1.4, linestyle="none", label=f"BEP = {bep:.3f}", zorder=3,
            )  # fmt: skip
    if show_chance:
        total = ev.num_positive_ref + ev.num_negative_ref
        if total:
            level = ev.num_positive_ref / total
            ax.axhline(level, color="0.45", linewidth=0.9, linestyle="--", label=f"chance = {level:.3f}", zorder=0.6)
    _style_axes(ax, "Recall", "Precision", "Precision-recall")
    ax.legend(loc="lower left", frameon=True, framealpha=0.9)
    return ax


def plot_roc(
    evaluation: Any,
    ax: Axes | None = None,
    interpolate: bool = False,
    *,
    show_chance: bool = True,
    label: str | None = None,
    fill: bool = False,
    **line_kwargs: Any,
) -> Axes:
    """Draw the ROC curve as the staircase whose area is reported.

    Parameters
    ----------
    evaluation : any evaluator kind
        A window or a shared evaluator is read through one ``snapshot()``.
        A BoundedEvaluation draws its estimate curve and shades the boxes of
        ``roc_band()`` (which hold the exact curve), labelled ``bounds``;
        the legend gives the AUC with its bounds.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new 4.5 x 4.5 inch figure (``pyplot``) if None.
    interpolate : bool, default False
        Draw ``roc_curve(True)`` instead of the uninterpolated curve.
    show_chance : bool, default True
        The dashed diagonal of a random ranking (AUC 0.5).
    label : str, optional
        Name of the system; the legend reads ``"<label> (AUC = 0.912)"``
        (the default label is ``"interpolated"`` when interpolated).
    fill : bool, default False
        Shade the area under the curve.
    **line_kwargs
        Passed to ``Axes.plot``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, with the false positive rate (1 - rejection recall) on x and
        the true positive rate (recall) on y, and ``area_under_roc_curve``
        in the legend. See :func:`roc_steps` for the exact polyline.

    Raises
    ------
    ImportError
        If matplotlib is not installed (the message names the extra ``plot``).
    TypeError
        If ``evaluation`` is not an evaluator, or ``interpolate`` not a bool.
    UnsupportedQuery
        For a MultiQueryEvaluation (plot one query's evaluator), or
        ``interpolate=True`` with a BoundedEvaluation.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    >>> ev.add_cases([True, False, True, False], [0.9, 0.5, 0.5, 0.1])
    >>> ax = plot_roc(ev, Figure().add_subplot(), label="model A")
    >>> ax.get_legend_handles_labels()[1]
    ['model A (AUC = 0.875)', 'chance']
    """
    _require_matplotlib()
    bounded, ev = _check_evaluation(evaluation, "plot_roc")
    interpolate = _check_interpolate(bounded, interpolate, "plot_roc")
    if ax is None:
        ax = _new_axes()
    x, y = roc_steps(ev, interpolate)
    area = ev.area_under_roc_curve() if bounded else ev.area_under_roc_curve(interpolate)
    what = f"AUC = {area:.3f}{_bounds_text(area)}"
    if interpolate and label is None:
        label = "interpolated"
    if ev.num_negative_ref == 0 and ev.num_positive_ref:
        what = "AUC undefined: no negative case"
    line_kwargs.setdefault("linewidth", 1.6)
    (line,) = ax.plot(x, y, label=what if label is None else f"{label} ({what})", **line_kwargs)
    if fill and x.size:
        ax.fill_between(x, y, color=line.get_color(), alpha=0.12, linewidth=0)
    if bounded:  # (recall, rejection recall) boxes -> (false positive rate, recall)
        r0, r1, rr0, rr1 = ev.roc_band().boxes.T
        _draw_boxes(ax, np.column_stack((1.0 - rr1, 1.0 - rr0, r0, r1)), line.get_color(), "bounds")
    if show_chance:
        ax.plot([0, 1], [0, 1], color="0.45", linewidth=0.9, linestyle="--", label="chance", zorder=0.6)
    _style_axes(ax, "False positive rate (1 − rejection recall)", "True positive rate (recall)", "ROC")
    ax.legend(loc="lower right", frameon=True, framealpha=0.9)
    return ax


def plot_pr_roc(
    evaluation: Any,
    *,
    interpolate: bool = False,
    title: str | None = None,
    figure: Figure | None = None,
    fill: bool = True,
) -> Figure:
    """PR (left) and ROC (right) side by side in one figure, as ``scored-pr report --plot`` draws them.

    Parameters
    ----------
    evaluation : any evaluator kind
        As for :func:`plot_pr` (a BoundedEvaluation with its bounds).
    interpolate : bool, default False
        Draw the interpolated curves.
    title : str, optional
        Figure title; the number of cases and positives is appended.
    figure : matplotlib.figure.Figure, optional
        An empty figure to draw into (e.g. ``matplotlib.figure.Figure()``,
        which needs no GUI backend); a new ``pyplot`` figure if None. Its size
        is set to 9 x 4.4 inches.
    fill : bool, default True
        Shade the areas under the curves.

    Returns
    -------
    matplotlib.figure.Figure
        Two axes, from :func:`plot_pr` and :func:`plot_roc`; save it with
        ``figure.savefig("pr_roc.png", dpi=150)``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> fig = plot_pr_roc(ev, title="toy", figure=Figure())
    >>> [ax.get_title() for ax in fig.axes], fig._suptitle.get_text()
    (['Precision-recall', 'ROC'], 'toy: 4 cases, 2 positive, ties=grouped')
    """
    _require_matplotlib()
    ev = _check_evaluation(evaluation, "plot_pr_roc")[1]
    if figure is None:
        import matplotlib.pyplot as plt

        figure = plt.figure()
    figure.set_size_inches(9.0, 4.4)
    figure.set_layout_engine("constrained")
    ax_pr, ax_roc = figure.subplots(1, 2)
    plot_pr(ev, ax_pr, interpolate, fill=fill)
    plot_roc(ev, ax_roc, interpolate, fill=fill)
    counts = f"{ev.num_cases:,} cases, {ev.num_positive_ref:,} positive"
    if ev.num_misses:
        counts += f" ({ev.num_misses:,} missed)"
    counts += f", ties={ev.ties}"
    figure.suptitle(counts if title is None else f"{title}: {counts}")
    return figure


def plot_multilabel(evaluation: Any, kind: str = "pr", ax: Axes | None = None, **line_kwargs: Any) -> Axes:
    """Draw every label's curve and the micro-averaged curve of a multi-label evaluation in one figure.

    Parameters
    ----------
    evaluation : scored_pr.MultiLabelEvaluation
        Each label's curve is that of ``evaluation[label]`` (exact, windowed
        or bounded, drawn as :func:`plot_pr` / :func:`plot_roc` draw it), the
        micro curve that of ``evaluation.pooled()`` (the n·k (row, label)
        pairs ranked together), dashed and black.
    kind : {"pr", "roc"}, default "pr"
        Precision-recall or ROC curves.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new 4.5 x 4.5 inch figure (``pyplot``) if None.
    **line_kwargs
        Passed to ``Axes.plot`` for the per-label curves.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, with one line per label (in label order, labelled
        ``"<label> (AP = ...)"`` or ``"(AUC = ...)"``) then the micro line
        (``"micro (...)"``); no break-even marks, no chance line.

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    TypeError, ValueError
        If ``evaluation`` is not a MultiLabelEvaluation or ``kind`` is not "pr" or "roc".

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from scored_pr import MultiLabelEvaluation
    >>> ev = MultiLabelEvaluation(["a", "b"])
    >>> ev.add_cases([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6], [0.5, 0.3]])
    >>> plot_multilabel(ev, "pr", Figure().add_subplot()).get_legend_handles_labels()[1]
    ['a (AP = 0.750)', 'b (AP = 1.000)', 'micro (AP = 0.893)']
    """
    from ._evaluators.multilabel import MultiLabelEvaluation

    _require_matplotlib()
    func = "plot_multilabel"
    check_type_named(evaluation, MultiLabelEvaluation, func, "evaluation", "a scored_pr.MultiLabelEvaluation")
    kind = check_choice(kind, func, "kind", ("pr", "roc"))
    if ax is None:
        ax = _new_axes()
    for label in evaluation.labels:
        if kind == "pr":
            plot_pr(evaluation[label], ax, show_breakeven=False, show_chance=False, label=str(label), **line_kwargs)
        else:
            plot_roc(evaluation[label], ax, show_chance=False, label=str(label), **line_kwargs)
    micro: dict[str, Any] = {"color": "black", "linestyle": "--"}
    if kind == "pr":
        plot_pr(evaluation.pooled(), ax, show_breakeven=False, show_chance=False, label="micro", **micro)
        ax.set_title("Precision-recall per label")
    else:
        plot_roc(evaluation.pooled(), ax, show_chance=False, label="micro", **micro)
        ax.set_title("ROC per label")
    return ax

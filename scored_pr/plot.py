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

from ._display.curves import PrecisionRecallDisplay, RocDisplay
from ._display.reliability import ReliabilityDisplay
from ._display.curves import new_axes as _new_axes
from ._display.curves import require_matplotlib as _require_matplotlib
from ._display.steps import check_ranking, pr_steps, roc_steps
from ._evaluators.exact import ScoredPrecisionRecallEvaluation
from ._validation import check_choice, check_flag, check_type_named

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_pr", "plot_roc", "plot_pr_roc", "plot_multilabel", "plot_reliability", "pr_steps", "roc_steps"]

# ---------------------------------------------------------------------------
# plots: thin users of the displays (scored_pr.PrecisionRecallDisplay, RocDisplay)


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
    display = PrecisionRecallDisplay.from_evaluation(evaluation, interpolate=interpolate, _func="plot_pr")
    show_breakeven = check_flag(show_breakeven, "plot_pr", "show_breakeven")
    name = None if label is None else str(label)
    return display.plot(ax, name=name, show_breakeven=show_breakeven, show_chance=show_chance, fill=fill,
                        **line_kwargs).ax_  # type: ignore[return-value]


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
    display = RocDisplay.from_evaluation(evaluation, interpolate=interpolate, _func="plot_roc")
    name = None if label is None else str(label)
    return display.plot(ax, name=name, show_chance=show_chance, fill=fill, **line_kwargs).ax_  # type: ignore[return-value]


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
    ev = check_ranking(evaluation, "plot_pr_roc")[1]
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


def plot_reliability(
    evaluation: Any, ax: Axes | None = None, *, n_bins: int = 10, confidence: float = 0.9, n_resamples: int = 100,
    seed: int | None = 0, **line_kwargs: Any,
) -> Axes:
    """The CORP reliability diagram: the isotonic recalibration of the scores, its consistency band and binned points.

    Parameters
    ----------
    evaluation : an exact, windowed or synchronized evaluator
        Whose scores are probabilities in [0, 1] (ValueError naming a score
        outside it); a BoundedEvaluation refuses (``UnsupportedQuery``).
    ax : matplotlib Axes, optional
        Where to draw; a new 4.5 x 4.5 inch figure if None.
    n_bins : int, default 10
        The uniform bins of the points (``calibration_curve(n_bins)``).
    confidence, n_resamples, seed
        The consistency band (``reliability_diagram``); ``n_resamples=0``
        draws none.
    **line_kwargs
        Passed to the CORP curve's ``ax.step``.

    Returns
    -------
    matplotlib.axes.Axes
        The CORP curve (a step through each distinct score's recalibrated
        value), the band shaded, the binned points, the diagonal, and the
        decomposition (MCB, DSC, UNC) in the legend's title.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([False, True, False, True], [0.2, 0.4, 0.6, 0.8])
    >>> ax = plot_reliability(ev, Figure().subplots(), n_resamples=0)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Score', 'Fraction correct (recalibrated)')
    """
    display = ReliabilityDisplay.from_evaluation(evaluation, n_bins=n_bins, confidence=confidence,
                                                 n_resamples=n_resamples, seed=seed, _func="plot_reliability")  # fmt: skip
    return display.plot(ax, **line_kwargs).ax_  # type: ignore[return-value]

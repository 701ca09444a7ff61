"""Displays of one ranking's curves, in scikit-learn's manner: the data, then ``.plot(ax)``.

:class:`PrecisionRecallDisplay` and :class:`RocDisplay` are built with
``from_evaluation(evaluation)`` from any evaluator kind that holds one ranking
(exact, windowed, synchronized, bounded, or a class of the user's own that
satisfies :class:`scored_pr.Evaluation`; a multi-label evaluation's
``evaluation[label]`` or ``evaluation.pooled()``, a multi-query evaluation's
``evaluation[query]``). They hold the exact step points (those of
:func:`scored_pr.plot.pr_steps` / :func:`~scored_pr.plot.roc_steps`), the
operating points the HTML report draws, the area for the legend and, for a
bounded summary, the boxes that hold the exact curve. ``plot(ax)`` draws them
with matplotlib (imported only then: the optional extra ``plot``) and returns
the display, with ``ax_``, ``figure_`` and ``line_`` set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import fail
from .steps import (
    FloatArray,
    _pr_steps,
    _roc_steps,
    check_interpolate,
    check_ranking,
    pr_points,
    roc_boxes_xy,
    roc_points_xy,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure
    from matplotlib.lines import Line2D

__all__ = ["PrecisionRecallDisplay", "RocDisplay", "require_matplotlib", "new_axes"]

_EXTRA_MESSAGE = (
    "scored_pr.plot needs matplotlib, which is the optional extra 'plot': "
    "pip install matplotlib (or, in a checkout of scored_pr, pip install '.[plot]')"
)


def require_matplotlib() -> None:
    """ImportError naming the extra ``plot`` when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError(_EXTRA_MESSAGE) from exc


def new_axes() -> Axes:
    """A new 4.5 x 4.5 inch ``pyplot`` figure's axes (constrained layout)."""
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(4.5, 4.5), layout="constrained")
    return ax


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


def _check_name(name: Any, func: str) -> str | None:
    if name is not None and not isinstance(name, str):
        raise fail(TypeError, func, "name", "None or a str", name)
    return name


class _CurveDisplay:
    """What both displays share: the name, the axes after ``plot`` and the checks of ``plot``'s arguments."""

    name: str | None
    ax_: Axes | None
    figure_: Figure | SubFigure | None
    line_: Line2D | None

    def _start(self, ax: Any, name: Any, func: str, flags: dict[str, Any]) -> tuple[Axes, str | None]:
        """Check ``plot``'s arguments (nothing drawn before), then the axes to draw on and the name."""
        from .._validation import check_flag

        require_matplotlib()
        name = _check_name(name, func)
        for key, value in flags.items():
            check_flag(value, func, key)
        if ax is None:
            ax = new_axes()
        else:
            from matplotlib.axes import Axes

            if not isinstance(ax, Axes):
                raise fail(TypeError, func, "ax", "None or a matplotlib.axes.Axes", ax)
        return ax, self.name if name is None else name

    def _finish(self, ax: Axes, line: Line2D) -> None:
        self.ax_, self.figure_, self.line_ = ax, ax.figure, line


class PrecisionRecallDisplay(_CurveDisplay):
    """The precision-recall curve of one ranking: its exact step points, and ``plot(ax)``.

    Build it with :meth:`from_evaluation`. Precision ``p_j`` is held over
    recall ``(r_{j-1}, r_j]`` from recall 0, so the trapezoid area under the
    vertices ``(recall, precision)`` is ``area_under_pr_curve(interpolate)``
    (``average_precision()`` when uninterpolated): what the eye integrates is
    the number in the legend.

    Attributes
    ----------
    recall, precision : numpy.ndarray of float64, shape (2 * n_points,)
        The step vertices ``(0, p_1), (r_1, p_1), (r_1, p_2), ...`` (what
        :func:`scored_pr.plot.pr_steps` gives); empty when the curve is.
    points : numpy.ndarray of float64, shape (n_points, 2)
        The operating points as (recall, precision) rows: ``pr_curve(interpolate)``,
        or a bounded summary's estimate curve (``pr_band().estimate``).
    area : float or scored_pr.Bounds
        ``average_precision()`` (a Bounds for a bounded summary), or
        ``area_under_pr_curve(True)`` when interpolated.
    interpolate : bool
        Whether the curve is ``pr_curve(True)``.
    breakeven : float
        ``pr_breakeven_point()``; 0.0 with sample weights (it counts ranks).
    chance_level : float or None
        The precision of a random ranking, positives / (positives + negatives);
        None with no reference case.
    boxes : numpy.ndarray of float64, shape (k, 4), or None
        A bounded summary's boxes (recall low, recall high, precision low,
        precision high) that hold the exact curve; None for an exact ranking.
    name : str or None
        The name the legend shows before the area.
    ax_, figure_, line_
        After :meth:`plot`: the axes, their figure and the curve's line.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.8, 0.7])
    >>> display = PrecisionRecallDisplay.from_evaluation(ev, name="model A")
    >>> display.recall.tolist(), display.precision.round(3).tolist()
    ([0.0, 0.5, 0.5, 1.0], [1.0, 1.0, 0.667, 0.667])
    >>> display.plot(Figure().add_subplot(), show_chance=False).line_.get_label()
    'model A (AP = 0.833)'
    """

    def __init__(self, recall: FloatArray, precision: FloatArray, points: FloatArray, *, area: float,
                 interpolate: bool = False, breakeven: float = 0.0, chance_level: float | None = None,
                 boxes: FloatArray | None = None, name: str | None = None) -> None:
        self.recall, self.precision, self.points = recall, precision, points
        self.area, self.interpolate, self.breakeven = area, interpolate, breakeven
        self.chance_level, self.boxes, self.name = chance_level, boxes, name
        self.ax_ = self.figure_ = self.line_ = None

    @classmethod
    def from_evaluation(cls, evaluation: Any, *, interpolate: bool = False, name: str | None = None,
                        _func: str = "PrecisionRecallDisplay.from_evaluation") -> PrecisionRecallDisplay:
        """The display of ``evaluation``'s PR curve (any kind that holds one ranking).

        Parameters
        ----------
        evaluation : any evaluator kind that holds one ranking
            A window or a shared evaluator is read through one ``snapshot()``
            (every number from the same cases); a BoundedEvaluation gives its
            estimate curve and its boxes.
        interpolate : bool, default False
            The curve ``pr_curve(True)`` (dominated points pruned); not for a
            BoundedEvaluation.
        name : str, optional
            The name the legend shows.

        Returns
        -------
        PrecisionRecallDisplay

        Raises
        ------
        TypeError
            If ``evaluation`` is not an evaluator, ``interpolate`` not a bool
            or ``name`` not a str.
        UnsupportedQuery
            For a kind that holds more than one ranking (multi-query:
            ``evaluation[query]``; multi-label: ``evaluation[label]`` or
            ``evaluation.pooled()``), or ``interpolate=True`` with a
            BoundedEvaluation.

        Notes
        -----
        O(n) for n cases the first time (then the evaluator's cached curve).
        """
        bounded, ev = check_ranking(evaluation, _func)
        interpolate = check_interpolate(bounded, interpolate, _func)
        name = _check_name(name, _func)
        points = pr_points(ev, interpolate, bounded)
        recall, precision = _pr_steps(points)
        area = ev.area_under_pr_curve(True) if interpolate else ev.average_precision()
        total = ev.num_positive_ref + ev.num_negative_ref
        return cls(recall, precision, points, area=area, interpolate=interpolate,
                   breakeven=0.0 if ev.weighted else ev.pr_breakeven_point(),  # rank-based: undefined with weights
                   chance_level=ev.num_positive_ref / total if total else None,
                   boxes=np.asarray(ev.pr_band().boxes, dtype=np.float64).reshape(-1, 4) if bounded else None,
                   name=name)

    def plot(self, ax: Axes | None = None, *, name: str | None = None, show_breakeven: bool = True,
             show_chance: bool = True, fill: bool = False, **kwargs: Any) -> PrecisionRecallDisplay:
        """Draw the step function on ``ax`` (a new figure if None); returns ``self`` with ``ax_``, ``figure_``, ``line_``.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new 4.5 x 4.5 inch ``pyplot`` figure if None.
            Plot several displays on one ``ax`` to compare systems.
        name : str, optional
            Overrides the display's name: the legend reads
            ``"<name> (AP = 0.812)"`` (``"<name> (PR area = 0.815)"`` when
            interpolated, whose default name is ``"interpolated"``).
        show_breakeven : bool, default True
            The diagonal recall = precision, faint, and the break-even point
            on it (not when it is 0, as with sample weights).
        show_chance : bool, default True
            A dashed horizontal line at :attr:`chance_level`.
        fill : bool, default False
            Shade the area under the curve.
        **kwargs
            Passed to ``Axes.plot`` for the curve (color, linestyle, ...).

        Raises
        ------
        ImportError
            If matplotlib is not installed (the message names the extra ``plot``).
        TypeError
            If ``ax`` is not an Axes, ``name`` not a str or a flag not a bool.
        """
        ax, name = self._start(ax, name, "PrecisionRecallDisplay.plot",
                               {"show_breakeven": show_breakeven, "show_chance": show_chance, "fill": fill})
        if self.interpolate:
            what = f"PR area = {self.area:.3f}"
            name = "interpolated" if name is None else name
        else:
            what = f"AP = {self.area:.3f}{_bounds_text(self.area)}"
        kwargs.setdefault("linewidth", 1.6)
        x, y = self.recall, self.precision
        (line,) = ax.plot(x, y, label=what if name is None else f"{name} ({what})", **kwargs)
        color = line.get_color()
        if self.boxes is not None:
            _draw_boxes(ax, self.boxes, color, "bounds")
        if fill and x.size:
            ax.fill_between(x, y, color=color, alpha=0.12, linewidth=0)
        if show_breakeven:
            ax.plot([0, 1], [0, 1], color="0.6", linewidth=0.6, linestyle=":", zorder=0.5)
            bep = self.breakeven
            if bep > 0.0:
                ax.plot(
                    [bep], [bep], marker="o", markersize=5.5, color=color, markerfacecolor="white",
                    markeredgewidth=1.4, linestyle="none", label=f"BEP = {bep:.3f}", zorder=3,
                )  # fmt: skip
        if show_chance and self.chance_level is not None:
            level = self.chance_level
            ax.axhline(level, color="0.45", linewidth=0.9, linestyle="--", label=f"chance = {level:.3f}", zorder=0.6)
        _style_axes(ax, "Recall", "Precision", "Precision-recall")
        ax.legend(loc="lower left", frameon=True, framealpha=0.9)
        self._finish(ax, line)
        return self


class RocDisplay(_CurveDisplay):
    """The ROC curve of one ranking: its exact polyline, and ``plot(ax)``.

    Build it with :meth:`from_evaluation`. Drawn in the usual orientation
    (false positive rate = 1 - rejection recall on x, recall on y) as the
    staircase whose trapezoid area is ``area_under_roc_curve(interpolate)``:
    with ``ties="grouped"`` a tie group that mixes correct and incorrect
    cases is a diagonal segment (its half credit), and the misses form one
    last tie group that reaches (1, 1).

    Attributes
    ----------
    fpr, tpr : numpy.ndarray of float64
        The polyline's vertices, from (0, 0) to (1, 1) (what
        :func:`scored_pr.plot.roc_steps` gives); empty when the curve is or
        when there is no negative reference case.
    points : numpy.ndarray of float64, shape (n_points, 2)
        The operating points as (fpr, tpr) rows: ``roc_curve(interpolate)``
        (with grouped ties and ``interpolate=True`` the convex hull), or a
        bounded summary's estimate curve (``roc_band().estimate``).
    area : float or scored_pr.Bounds
        ``area_under_roc_curve(interpolate)`` (a Bounds for a bounded summary).
    interpolate : bool
        Whether the curve is ``roc_curve(True)``.
    defined : bool
        False when there are positive but no negative cases (the AUC is
        then undefined, and the legend says so).
    boxes : numpy.ndarray of float64, shape (k, 4), or None
        A bounded summary's boxes as (fpr low, fpr high, tpr low, tpr high);
        None for an exact ranking.
    name : str or None
        The name the legend shows before the area.
    ax_, figure_, line_
        After :meth:`plot`: the axes, their figure and the curve's line.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> display = RocDisplay.from_evaluation(ev)
    >>> display.fpr.tolist(), display.tpr.tolist()
    ([0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0])
    >>> display.plot(Figure().add_subplot(), name="model A").line_.get_label()
    'model A (AUC = 0.750)'
    """

    def __init__(self, fpr: FloatArray, tpr: FloatArray, points: FloatArray, *, area: float,
                 interpolate: bool = False, defined: bool = True, boxes: FloatArray | None = None,
                 name: str | None = None) -> None:
        self.fpr, self.tpr, self.points = fpr, tpr, points
        self.area, self.interpolate, self.defined = area, interpolate, defined
        self.boxes, self.name = boxes, name
        self.ax_ = self.figure_ = self.line_ = None

    @classmethod
    def from_evaluation(cls, evaluation: Any, *, interpolate: bool = False, name: str | None = None,
                        _func: str = "RocDisplay.from_evaluation") -> RocDisplay:
        """The display of ``evaluation``'s ROC curve (any kind that holds one ranking).

        Parameters
        ----------
        evaluation : any evaluator kind that holds one ranking
            As for :meth:`PrecisionRecallDisplay.from_evaluation`; a
            BoundedEvaluation gives its estimate curve (every bin one tie
            group) and the boxes of ``roc_band()``.
        interpolate : bool, default False
            The curve ``roc_curve(True)``: LingPipe's staircase with stable
            ties, the ROC convex hull with grouped ties; not for a
            BoundedEvaluation.
        name : str, optional
            The name the legend shows.

        Returns
        -------
        RocDisplay

        Raises
        ------
        TypeError
            If ``evaluation`` is not an evaluator, ``interpolate`` not a bool
            or ``name`` not a str.
        UnsupportedQuery
            For a kind that holds more than one ranking, or
            ``interpolate=True`` with a BoundedEvaluation.
        """
        bounded, ev = check_ranking(evaluation, _func)
        interpolate = check_interpolate(bounded, interpolate, _func)
        name = _check_name(name, _func)
        fpr, tpr = _roc_steps(ev, interpolate, bounded)
        curve = ev.roc_band().estimate if bounded else ev.roc_curve(interpolate)
        area = ev.area_under_roc_curve() if bounded else ev.area_under_roc_curve(interpolate)
        return cls(fpr, tpr, roc_points_xy(curve), area=area, interpolate=interpolate,
                   defined=not (ev.num_negative_ref == 0 and ev.num_positive_ref),
                   boxes=roc_boxes_xy(ev.roc_band().boxes) if bounded else None, name=name)

    def plot(self, ax: Axes | None = None, *, name: str | None = None, show_chance: bool = True, fill: bool = False,
             **kwargs: Any) -> RocDisplay:
        """Draw the polyline on ``ax`` (a new figure if None); returns ``self`` with ``ax_``, ``figure_``, ``line_``.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new 4.5 x 4.5 inch ``pyplot`` figure if None.
        name : str, optional
            Overrides the display's name: the legend reads
            ``"<name> (AUC = 0.912)"`` (default name ``"interpolated"`` when
            interpolated).
        show_chance : bool, default True
            The dashed diagonal of a random ranking (AUC 0.5).
        fill : bool, default False
            Shade the area under the curve.
        **kwargs
            Passed to ``Axes.plot`` for the curve.

        Raises
        ------
        ImportError
            If matplotlib is not installed (the message names the extra ``plot``).
        TypeError
            If ``ax`` is not an Axes, ``name`` not a str or a flag not a bool.
        """
        ax, name = self._start(ax, name, "RocDisplay.plot", {"show_chance": show_chance, "fill": fill})
        what = f"AUC = {self.area:.3f}{_bounds_text(self.area)}"
        if self.interpolate and name is None:
            name = "interpolated"
        if not self.defined:
            what = "AUC undefined: no negative case"
        kwargs.setdefault("linewidth", 1.6)
        x, y = self.fpr, self.tpr
        (line,) = ax.plot(x, y, label=what if name is None else f"{name} ({what})", **kwargs)
        if fill and x.size:
            ax.fill_between(x, y, color=line.get_color(), alpha=0.12, linewidth=0)
        if self.boxes is not None:
            _draw_boxes(ax, self.boxes, line.get_color(), "bounds")
        if show_chance:
            ax.plot([0, 1], [0, 1], color="0.45", linewidth=0.9, linestyle="--", label="chance", zorder=0.6)
        _style_axes(ax, "False positive rate (1 − rejection recall)", "True positive rate (recall)", "ROC")
        ax.legend(loc="lower right", frameon=True, framealpha=0.9)
        self._finish(ax, line)
        return self

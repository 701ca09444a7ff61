"""The reliability diagram of one ranking's probabilities, in scikit-learn's manner: the data, then ``.plot(ax)``.

:class:`ReliabilityDisplay` holds the CORP curve (the isotonic recalibration of
the scores, :meth:`~scored_pr.ScoredPrecisionRecallEvaluation.reliability_diagram`)
with its consistency band and Brier decomposition, the binned points of
``calibration_curve`` with Clopper-Pearson intervals, and the histogram of the
scores; ``plot(ax)`` draws them (matplotlib, imported only then).
:func:`scored_pr.plot.plot_reliability` and the HTML report read it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import calibration as K
from .._validation import check_calibration_bins, fail
from .curves import _CurveDisplay, _check_name
from .steps import FloatArray, check_ranking

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["ReliabilityDisplay"]


class ReliabilityDisplay(_CurveDisplay):
    """The reliability diagram of one ranking whose scores are probabilities: its data, and ``plot(ax)``.

    Build it with :meth:`from_evaluation`.

    Attributes
    ----------
    diagram : scored_pr.ReliabilityDiagram
        The CORP fit: ``scores`` (distinct, ascending), ``recalibrated``,
        ``mcb``, ``dsc``, ``unc``, ``brier`` and the band ``lower``/``upper``.
    bin_score, bin_fraction, bin_weight : numpy.ndarray of float64, shape (b,)
        Each non-empty uniform bin's mean score, fraction correct and weight
        (case count when unweighted): the points of ``calibration_curve(n_bins)``.
    bin_lower, bin_upper : numpy.ndarray of float64, shape (b,)
        The Clopper-Pearson interval of each bin's fraction at ``level``
        (Beta quantiles; with sample weights on the bin's effective size
        ``weight ** 2 / sum(weight ** 2)``).
    level : float
        The bins' interval level.
    histogram : numpy.ndarray of float64, shape (n_bins,)
        The weight of the scores in each of ``n_bins`` uniform bins over [0, 1]
        (as ``bin_weight``, empty bins included): the histogram under the diagram.
    edges : numpy.ndarray of float64, shape (n_bins + 1,)
        ``linspace(0, 1, n_bins + 1)``.
    name : str or None
        The name the legend shows.
    ax_, figure_, line_
        After :meth:`plot`: the axes, their figure and the CORP curve's line.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([False, True, False, True], [0.2, 0.4, 0.6, 0.8])
    >>> d = ReliabilityDisplay.from_evaluation(ev, n_bins=2, n_resamples=0)
    >>> d.diagram.recalibrated.tolist(), d.bin_fraction.tolist(), d.histogram.tolist()
    ([0.0, 0.5, 0.5, 1.0], [0.5, 0.5], [2.0, 2.0])
    >>> d.plot(Figure().add_subplot()).ax_.get_legend().get_title().get_text()
    'MCB 0.0750  DSC 0.1250  UNC 0.2500'
    """

    def __init__(self, diagram: K.ReliabilityDiagram, points: K.ReliabilityPoints, level: float,
                 histogram: FloatArray, edges: FloatArray, name: str | None = None) -> None:
        self.diagram = diagram
        self.bin_score, self.bin_fraction, self.bin_weight = points.score, points.fraction, points.weight
        self.bin_lower, self.bin_upper = points.lower, points.upper
        self.level, self.histogram, self.edges, self.name = level, histogram, edges, name
        self.ax_ = self.figure_ = self.line_ = None

    @classmethod
    def from_evaluation(cls, evaluation: Any, *, n_bins: int = 10, confidence: float = 0.9, n_resamples: int = 100,
                        seed: int | None = 0, level: float = 0.95, name: str | None = None,
                        _func: str = "ReliabilityDisplay.from_evaluation") -> ReliabilityDisplay:
        """The reliability diagram of ``evaluation`` (an exact, windowed or synchronized evaluator of probabilities).

        Parameters
        ----------
        evaluation : evaluator holding one ranking
            Its scores must lie in [0, 1]; a window or a shared evaluator is
            read through one ``snapshot()``.
        n_bins : int, default 10
            The uniform bins of the points and of the histogram.
        confidence, n_resamples, seed
            The CORP curve's consistency band (``reliability_diagram``);
            ``n_resamples=0`` computes none.
        level : float, default 0.95
            The level of the bins' Clopper-Pearson intervals.
        name : str, optional
            The name the legend shows.

        Raises
        ------
        ValueError
            A score outside [0, 1] (named), ``n_bins < 1``, a ``confidence``
            or ``level`` outside (0, 1).
        TypeError
            If ``evaluation`` is not an evaluator or ``name`` not a str.
        UnsupportedQuery
            For a BoundedEvaluation (it keeps no calibration bins) or a kind
            holding several rankings (take ``evaluation[label]``).
        """
        _, ev = check_ranking(evaluation, _func)
        n_bins = check_calibration_bins(n_bins, "uniform", _func)[0]
        if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0.0 < level < 1.0:
            raise fail(ValueError, _func, "level", "a real number strictly between 0 and 1", level)
        level = float(level)
        name = _check_name(name, _func)
        diagram = ev.reliability_diagram(confidence=confidence, n_resamples=n_resamples, seed=seed)
        scores, correct, weights = ev.ranked_cases()
        g = K.groups(-scores, correct, weights)
        points = K.reliability_points(g, n_bins, level)
        edges = np.asarray(np.linspace(0.0, 1.0, n_bins + 1), dtype=np.float64)
        histogram = K.calibration_bins(g, edges, "right").weight
        return cls(diagram, points, level, histogram, edges, name)

    def plot(self, ax: Axes | None = None, *, name: str | None = None, show_histogram: bool = True,
             **kwargs: Any) -> ReliabilityDisplay:
        """Draw the diagram on ``ax`` (a new figure if None); returns ``self`` with ``ax_``, ``figure_``, ``line_``.

        The diagonal, the band (shaded), the CORP curve (a step through each
        distinct score's recalibrated value), the binned points with their
        intervals and, beneath, the scores' histogram (scaled to a fifth of
        the height).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        name : str, optional
            Overrides the display's name (the curve's legend entry reads
            ``"<name> (CORP)"``, else ``"CORP (isotonic)"``); the legend's title
            holds the decomposition MCB, DSC, UNC.
        show_histogram : bool, default True
        **kwargs
            Passed to ``Axes.step`` for the CORP curve.
        """
        ax, name = self._start(ax, name, "ReliabilityDisplay.plot", {"show_histogram": show_histogram})
        d = self.diagram
        ax.plot([0, 1], [0, 1], color="0.6", linestyle=":", linewidth=1, zorder=0.5)
        if show_histogram and self.histogram.sum() > 0:
            heights = 0.2 * self.histogram / self.histogram.max()
            ax.bar(self.edges[:-1], heights, width=np.diff(self.edges), align="edge", color="0.8",
                   edgecolor="white", linewidth=0.5, zorder=0.2, label="scores")  # fmt: skip
        if d.lower is not None and d.upper is not None and d.scores.size:
            ax.fill_between(d.scores, d.lower, d.upper, step="post", alpha=0.25, color="C0",
                            label=f"{d.confidence:.0%} consistency band")  # fmt: skip
        kwargs.setdefault("where", "post")
        (line,) = ax.step(d.scores, d.recalibrated, label="CORP (isotonic)" if name is None else f"{name} (CORP)",
                          **kwargs)  # fmt: skip
        if self.bin_score.size:
            err = np.vstack((self.bin_fraction - self.bin_lower, self.bin_upper - self.bin_fraction))
            ax.errorbar(self.bin_score, self.bin_fraction, yerr=err, fmt="none", ecolor="C1", capsize=2,
                        linewidth=1)  # fmt: skip
        ax.plot(self.bin_score, self.bin_fraction, "o", color="C1", markersize=4,
                label=f"{self.edges.size - 1} bins ({self.level:.0%} Clopper-Pearson)")  # fmt: skip
        ax.set_xlim(0.0, 1.0)
        ax.set_ylim(0.0, 1.0)
        ax.set_aspect("equal")
        ax.set_xlabel("Score")
        ax.set_ylabel("Fraction correct (recalibrated)")
        if not ax.get_title():
            ax.set_title("Reliability")
        ax.legend(loc="upper left", fontsize="small",
                  title=f"MCB {d.mcb:.4f}  DSC {d.dsc:.4f}  UNC {d.unc:.4f}", title_fontsize="small")  # fmt: skip
        self._finish(ax, line)
        return self

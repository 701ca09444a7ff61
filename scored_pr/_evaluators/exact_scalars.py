"""The exact evaluator's the areas, average precision, maximum F, the break-even point and their intervals: a mixin of :class:`ScoredPrecisionRecallEvaluation`.

Its scalar measures over the whole ranking: the areas under the PR and ROC curves (and a partial ROC area),
their confidence intervals, average precision, the maximum F-measure and the break-even point.
The methods validate, cache and delegate to :mod:`scored_pr._core`, reading the evaluator's stored cases and
memo through :class:`scored_pr._evaluators.exact_base.ExactShell`.
"""

from __future__ import annotations

from typing import Any

from .._core import curves as C, points as P, scalars as M
from .._core.stats import Interval
from .._validation import check_beta, check_choice, check_flag, check_partial_auc
from .exact_base import HELD, ExactShell, adopt

__all__ = ["ScalarQueries"]


class ScalarQueries(ExactShell):
    """The the areas, average precision, maximum F, the break-even point and their intervals of :class:`scored_pr.ScoredPrecisionRecallEvaluation` (a mixin; it holds no state)."""

    __slots__ = ()

    # ------------------------------------------------------------------- scalars

    def area_under_pr_curve(self, interpolate: bool = False) -> float:
        """Area under the PR curve taken as a step function from recall 0.

        sum_i (r_i - r_{i-1}) * p_i over the rows of ``pr_curve(interpolate)``,
        r_0 = 0. 0.0 when the curve is empty (nothing correct added). The
        interpolated area is never smaller than the uninterpolated one.
        Uninterpolated, it equals :meth:`average_precision` (up to rounding).

        Notes
        -----
        LingPipe name: ``areaUnderPrCurve(boolean)``.
        """
        interpolate = check_flag(interpolate, "area_under_pr_curve", "interpolate")
        return self._cached(("pr_area", interpolate), lambda: C.step_area_xy(*self._pr_columns(interpolate)))

    def area_under_roc_curve(
        self, interpolate: bool = False, *, max_fpr: float | None = None, standardized: bool = True
    ) -> float:
        """Area under the ROC curve (recall on x, rejection recall on y).

        Uninterpolated: the probability that a positive reference case ranks
        above a negative one (Mann-Whitney): the sum over the rows of
        :meth:`roc_curve` of (r_i - r_{i-1}) times the rejection recall
        there. Unweighted, it is computed exactly, as an integer ratio
        (twice the pairs in order over 2 * P * N) rounded once, so it is the
        correctly rounded value (and equal bit for bit to
        :class:`~scored_pr.WindowedEvaluation`'s incremental one); LingPipe
        sums the terms in floating point, which can differ in the last
        ulps (``scored_pr.lingpipe`` does that). Weighted, the terms are
        summed in floating point. With ``ties="grouped"`` the height of a row is the mean of the
        rejection recall before and after its tie group, so a tied
        correct/incorrect pair counts one half (scikit-learn's
        ``roc_auc_score``), and unreturned positives (misses) and unreturned
        negatives (negative misses) form one tie group below every returned
        case. With ``ties="stable"`` (LingPipe) tied cases keep insertion
        order and a miss is never reached (counts 0 against every negative).

        Interpolated: the area under ``roc_curve(True)``: LingPipe's step area
        with stable ties, the area under the ROC convex hull with grouped
        ties (exact and rounded once when unweighted, as above). Never below
        the uninterpolated area.

        NaN when num_positive_ref or num_negative_ref is 0 (one class: there
        is no pair to rank), whichever class is missing, both policies.

        Notes
        -----
        LingPipe name: ``areaUnderRocCurve(boolean)`` (LingPipe 3.9.2 returns
        0.0 without a positive case; ``scored_pr.lingpipe`` reproduces it).
        O(n) on the first call, O(1) cached.

        Partial AUC: with ``max_fpr`` in (0, 1], the area for false positive
        rates up to ``max_fpr`` under the curve joining the distinct-score
        operating points by straight lines (tied pairs count one half whatever
        the tie policy; misses rank below every returned case). With
        ``standardized`` (default) McClish's correction
        0.5 * (1 + (A - max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2)), equal to
        scikit-learn's ``roc_auc_score(max_fpr=...)``; otherwise the raw area
        (pROC's uncorrected partial AUC). NaN with a class missing. Only the
        uninterpolated curve has a partial area.

        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation(ties="grouped")
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.area_under_roc_curve(max_fpr=0.5, standardized=False)
        0.25
        """
        interpolate = check_flag(interpolate, "area_under_roc_curve", "interpolate")
        if max_fpr is not None:
            max_fpr, standardized = check_partial_auc(interpolate, max_fpr, standardized)
            neg, cor = self._store.arrays()
            return C.partial_roc_area(
                neg, cor, self._store.weights(), self.num_negative_misses, self.num_misses, self._ties, max_fpr,
                standardized,
            )
        if self._pos_ref() == 0 or self._neg_ref() == 0:
            return float("nan")
        if self._store.weighted:
            return self._cached(("roc_area", interpolate), lambda: C.roc_rows_area(self._roc_rows(interpolate)))
        return self._cached(
            ("roc_area", interpolate),
            lambda: C.roc_rows_area_exact(self._roc_rows(True), self.num_positive_ref, self.num_negative_ref)
            if interpolate
            else C.roc_points_area_exact(self._points(), self.num_positive_ref, self.num_negative_ref),
        )

    def confidence_interval(
        self,
        measure: str = "area_under_roc_curve",
        level: float = 0.95,
        method: str | None = None,
        n_resamples: int = 2000,
        seed: int | None = None,
        *,
        stratified: bool = True,
        **measure_args: Any,
    ) -> Interval:
        """Confidence interval of a scalar measure.

        Parameters
        ----------
        measure : str, default "area_under_roc_curve"
            The name of any query of this class that returns one number
            (``average_precision``, ``area_under_pr_curve``,
            ``maximum_f_measure``, ``r_precision``, ``precision_at``, ...).
        level : float, default 0.95
            Confidence level, strictly between 0 and 1.
        method : {None, "delong", "bootstrap", "bca", "logit"}
            ``"delong"`` (the default for ``area_under_roc_curve``): DeLong's
            variance, a Wald interval clipped to [0, 1], equal to R's pROC
            ``ci.auc(method="delong")``. ``"logit"``: Boyd, Eng & Page's (2013)
            interval for ``average_precision``. ``"bootstrap"`` (the default
            otherwise): percentile bootstrap. ``"bca"``: bias-corrected and
            accelerated bootstrap (Efron 1987), its acceleration from a
            leave-one-out jackknife (exact for ROC AUC; for other measures over
            at most 200 interleaved blocks per class).
        n_resamples : int, default 2000
            Bootstrap resamples (>= 10).
        seed : int or None
            Seeds ``numpy.random.default_rng``: the same seed gives the same
            interval.
        stratified : bool, default True
            Resample the correct and the incorrect cases separately, so that
            every resample keeps the class sizes.
        **measure_args
            Arguments of the measure, e.g. ``k=10`` for ``precision_at``
            (these measures are bootstrapped).

        Returns
        -------
        Interval
            ``estimate`` (the measure itself), ``low``, ``high``, ``level``,
            ``method``, and ``std_error`` (DeLong's, or the standard deviation
            of the bootstrap replicates) and ``variance`` (DeLong's).

        Raises
        ------
        ValueError
            For a name that is not one of the scalar measures (only the
            read-only queries that return one number can be named; the
            evaluator is not touched), a method that does not apply to it, a
            bad ``level`` or ``n_resamples``, a negative ``seed``, and for an
            evaluator with sample weights (the sampling variance of a weighted
            measure depends on what the weights mean; see
            ``docs/uncertainty.md``).
        TypeError
            For a ``seed`` that is not None or an integer (a float, bool or str).

        Notes
        -----
        Not in LingPipe. ROC AUC and average precision are resampled in
        numpy, O(n_resamples * n) time in blocks of bounded memory (2,000
        resamples of 100,000 cases take seconds; ``benchmarks/bootstrap.py``);
        other measures rebuild an evaluator per resample. The resampled ROC
        AUC and AP count ties as grouped ties: under ``ties="stable"`` the
        interval is centred on the stable estimate with the grouped width.
        The guide ``docs/uncertainty.md`` says which method to use when.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation(ties="grouped")
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.confidence_interval().estimate
        0.75
        >>> ev.confidence_interval("average_precision", method="bca", seed=0).method
        'bca'
        """
        from .._uncertainty import confidence_interval

        return confidence_interval(
            self, measure, level, method, n_resamples, seed, stratified=stratified, **measure_args
        )

    def average_precision(self, ties: str | None = None) -> float:
        """Average precision: the sum of the precision at every correct case over num_positive_ref.

        AP = (1 / num_positive_ref) * sum over correct cases of precision at
        that case's cut-off. Misses count in the denominator and contribute
        zero, so AP equals ``area_under_pr_curve(False)`` in exact
        arithmetic; in floating point the two can differ in the last digits
        (AP sums the m precisions and divides once, the area sums recall
        step times precision per row; they differ by at most
        (m + 1) * 2**-51). NaN when num_positive_ref is 0; 0.0 when there
        are only misses.

        Parameters
        ----------
        ties : {None, "stable", "grouped", "expected"}, default None
            None uses the evaluator's policy. ``"stable"``: tied cases in
            insertion order. ``"grouped"``: a correct case in a tie group gets
            the precision at the end of its group (scikit-learn's
            ``average_precision_score``). ``"expected"``: the expected AP over
            all orderings of every tie group (McSherry & Najork, ECIR 2008),
            in closed form; with distinct scores all three agree.

        Notes
        -----
        LingPipe name: ``averagePrecision()``. Deliberate difference: LingPipe
        3.9.2 divides by the number of correct cases *returned* (ignoring
        misses), which contradicts its own documentation that AP equals the
        uninterpolated PR area; scored_pr uses the standard IR definition.
        ``scored_pr.lingpipe`` reproduces 3.9.2.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True], [0.5, 0.5])  # a tie: either order is equally likely
        >>> ev.average_precision(), ev.average_precision(ties="grouped"), ev.average_precision(ties="expected")
        (0.5, 0.5, 0.75)
        """
        if ties is None:
            ties = self._ties
        else:
            ties = check_choice(ties, "average_precision", "ties", ("stable", "grouped", "expected"))
        if ties == "expected":
            self._unweighted("average_precision(ties='expected')")
            return self._cached(
                ("ap", ties), lambda: M.expected_average_precision(*self._store.arrays(), self.num_positive_ref)
            )
        return self._cached(("ap", ties), lambda: self._average_precision(ties))

    def _average_precision(self, ties: str) -> float:
        points = self._points(ties)
        if ties == self._ties and points.unit_tp and HELD in self._memo:
            # Inside summary(), which builds the raw PR curve's columns anyway: its precision column is
            # the precision this sums (the same divisions), computed once for both.
            return M.average_precision(points, self._pos_ref(), self._pr_columns(False)[1])
        return M.average_precision(points, self._pos_ref())

    def maximum_f_measure(self, beta: float = 1.0) -> float:
        """The best F-beta over the operating points of the uninterpolated PR curve.

        F_beta = (1 + beta^2) * P * R / (beta^2 * P + R), maximised over the
        rows of ``pr_curve(False)`` (actual operating points, no
        interpolation). 0.0 when the curve is empty.

        Raises
        ------
        TypeError, ValueError
            If ``beta`` is not a finite real number > 0.

        Notes
        -----
        LingPipe name: ``maximumFMeasure()`` / ``maximumFMeasure(double)``.
        """
        beta = check_beta(beta, "maximum_f_measure")
        return self._cached(("max_f", beta), lambda: M.maximum_f_columns(*self._pr_columns(False), beta))

    def pr_breakeven_point(self) -> float:
        """Precision-recall break-even point (BEP): where precision equals recall.

        At rank R = num_positive_ref, precision and recall are both TP / R, so
        the break-even point is :meth:`r_precision` (the identity holds for
        both tie policies: with grouped ties, a tie group that rank R cuts
        through contributes its expected number of correct cases to both).
        Ranks beyond the returned cases count as errors. 1.0 for a perfect
        ranker; NaN when num_positive_ref is 0 (no positive reference, so no
        break-even point).

        Notes
        -----
        LingPipe name: ``prBreakevenPoint()``. LingPipe 4.1 defines it this
        way. LingPipe 3.9.2 instead returns the precision of the first
        interpolated PR point whose recall strictly exceeds its precision
        (0.0 for a perfect ranker, since recall never exceeds precision
        there); :class:`scored_pr.lingpipe.ScoredPrecisionRecallEvaluation`
        reproduces that.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False], [0.9, 0.1])
        >>> ev.pr_breakeven_point()
        1.0
        """
        self._unweighted("pr_breakeven_point")  # the error names the query the user called
        return self.r_precision()



adopt(ScalarQueries)

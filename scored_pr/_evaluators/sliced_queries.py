"""The per-slice comparisons and decisions of :class:`~scored_pr.SlicedEvaluation` (a mixin; it holds no state).

``worst`` and ``gaps`` compare the slices; ``operating_point`` and
``min_cost_threshold`` ask each slice's evaluator for its threshold. Each
reads the slices' evaluators through the evaluation's ``_evaluators()``
(those of the exact kind's store are made for the call, not kept).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .._core import slicing as G
from .._validation import UnsupportedQuery, check_confidence, fail
from .._validation.slices import check_correction, check_min_cases, check_reference, check_slice_request, no_such_slice

__all__ = ["SliceGap", "SliceQueries", "WorstSlice"]

Pairs = tuple[tuple[str, Any], ...]


class WorstSlice(NamedTuple):
    """The slice :meth:`SlicedEvaluation.worst` found: its pairs, value, the bound it was ranked by, its cases."""

    slice: Pairs
    value: float
    bound: float
    num_cases: int


class SliceGap(NamedTuple):
    """One slice against the reference (:meth:`SlicedEvaluation.gaps`)."""

    slice: Pairs
    estimate: float
    reference: float
    difference: float
    low: float
    high: float
    p_value: float
    p_adjusted: float
    method: str
    num_cases: int



class SliceQueries:
    """The comparisons across slices and the per-slice decisions (a mixin of SlicedEvaluation)."""

    __slots__ = ()
    _pairs: list[Any]
    _specs: tuple[tuple[str, ...], ...]
    _index: list[dict[tuple[Any, ...], int]]
    _by_pairs: dict[Any, int]
    _keys: tuple[str, ...]
    _kind: str
    _cls: Any
    _options: dict[str, Any]

    def _evaluators(self) -> list[Any]:  # pragma: no cover (SlicedEvaluation's)
        raise NotImplementedError

    def _check_measures(self, measures: Any, func: str) -> tuple[str, ...] | None:  # pragma: no cover
        raise NotImplementedError

    @staticmethod
    def _values(ev: Any, names: tuple[str, ...] | None) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def worst(self, measure: str = "average_precision", min_cases: int = 100, confidence: float | None = None) -> WorstSlice | None:
        """The slice (the overall one excepted) with the lowest ``measure``, among those with ``min_cases`` cases.

        With ``confidence`` (e.g. 0.95) the slices are ranked by the upper
        bound of the measure's confidence interval (its default method, seed
        0), so that a small slice whose value is low by chance is not the
        worst. Slices whose value is NaN are skipped. None when no slice
        qualifies.
        """
        from .._uncertainty import confidence_interval  # only with confidence: the interval code loads on use

        func = "worst"
        self._check_measures(measure, func)
        min_cases = check_min_cases(min_cases, func)
        level = None if confidence is None else check_confidence(confidence, func)
        best: WorstSlice | None = None
        for pairs, ev in zip(self._pairs, self._evaluators()):
            if not pairs or ev.num_cases < min_cases:
                continue
            value = float(self._values(ev, (measure,))[measure])
            if math.isnan(value):
                continue
            bound = value if level is None else float(confidence_interval(ev, measure, level, seed=0).high)
            if best is None or bound < best.bound:
                best = WorstSlice(tuple(pairs), value, bound, ev.num_cases)
        return best

    def gaps(
        self,
        measure: str = "area_under_roc_curve",
        reference: Any = "overall",
        confidence: float = 0.95,
        correction: str = "holm",
        *,
        n_resamples: int = 2000,
    ) -> list[SliceGap]:
        """Each slice against the reference: difference, interval and p-value, adjusted for the comparisons.

        Parameters
        ----------
        measure : {"area_under_roc_curve", "average_precision"}
        reference : "overall" or dict
            ``"overall"``: each slice against its complement (the other
            slices of its crossing: the cases not in it), an unpaired
            comparison of disjoint cases. A dict (``{"region": "eu"}``): each
            other slice of that crossing against that slice.
        confidence : float, default 0.95
            The level of each difference's interval.
        correction : {"holm", "bonferroni"}
            How the p-values are adjusted for the number of comparisons
            (Holm's step-down, or Bonferroni).
        n_resamples : int, default 2000
            Bootstrap resamples (average precision).

        Returns
        -------
        list of SliceGap
            Crossing by crossing, each in the order of :meth:`slices`: ``estimate`` (the slice's value),
            ``reference`` (the complement's or reference slice's),
            ``difference`` (slice - reference), the interval ``low``/``high``,
            ``p_value`` and ``p_adjusted``, the ``method`` (unpaired DeLong for
            ROC AUC, the bootstrap for average precision, as
            :func:`scored_pr.compare`). A comparison that has no value (a
            slice or complement with one class) is NaN.
        """
        from .._uncertainty import compare

        func = "gaps"
        if measure not in ("area_under_roc_curve", "average_precision"):
            raise fail(ValueError, func, "measure", "'area_under_roc_curve' or 'average_precision'", measure)
        reference = check_reference(reference, func)
        level = check_confidence(confidence, func)
        correction = check_correction(correction, func)
        evs = self._evaluators()
        rows: list[tuple[Any, Any, Any]] = []
        if reference == "overall":
            for j, spec in enumerate(self._specs):
                if not spec:
                    continue
                members = list(self._index[j].values())
                for sid in members:
                    others = [evs[o] for o in members if o != sid]
                    rows.append((self._pairs[sid], evs[sid], _pooled(others, self._cls, self._options)))
        else:
            pairs = check_slice_request(reference, self._keys, func)
            ref = self._by_pairs.get(pairs)
            if ref is None:
                raise no_such_slice(pairs, self._specs, func)
            j = self._specs.index(tuple(k for k, _ in pairs))
            rows = [(self._pairs[sid], evs[sid], evs[ref]) for sid in self._index[j].values() if sid != ref]
        out: list[SliceGap] = []
        nan = math.nan
        for pairs, ev, other in rows:
            try:
                r = compare(ev, other, measure=measure, level=level, seed=0, n_resamples=n_resamples)
                out.append(SliceGap(tuple(pairs), r.estimate_a, r.estimate_b, r.difference, r.interval.low,
                                    r.interval.high, r.p_value, nan, r.method, ev.num_cases))
            except (ValueError, ZeroDivisionError):  # one class on a side: nothing to compare
                out.append(SliceGap(tuple(pairs), nan, nan, nan, nan, nan, nan, nan, "none", ev.num_cases))
        adjusted = G.adjust_p_values(np.array([g.p_value for g in out], dtype=np.float64), correction)
        return [g._replace(p_adjusted=float(a)) for g, a in zip(out, adjusted)]

    # ------------------------------------------------------------- decisions

    def _per_slice_decision(self, method: str, call: Any) -> dict[Any, Any]:
        if not hasattr(self._cls, method):
            raise UnsupportedQuery(f"SlicedEvaluation.{method}: {self._kind} evaluators have no {method}")
        evs = self._evaluators()
        if not evs:  # no slice: the arguments are still checked, by an evaluator of the kind
            call(self._cls(**self._options))
        return {pairs: call(ev) for pairs, ev in zip(self._pairs, evs)}

    def operating_point(
        self, maximize: str = "recall", subject_to: dict[str, float] | None = None, confidence: float | None = None,
        *, seed: int = 0,
    ) -> dict[Any, Any]:
        """Each slice's own threshold: ``{slice: Decision}``, as :meth:`ScoredPrecisionRecallEvaluation.operating_point`.

        Parameters
        ----------
        maximize, subject_to, confidence, seed
            As the exact evaluator's ``operating_point`` (the measure to
            maximize, the constraints, Learn-then-Test's level, its seed).

        Returns
        -------
        dict
            Slice pairs (as :meth:`slices` names them, the overall slice
            ``()`` first) to each slice's :class:`scored_pr.Decision`: what
            the evaluator of that slice's cases alone answers (ties: the
            highest threshold; an empty or one-class slice's Decision as that
            evaluator gives it, ``feasible`` False when no threshold meets
            the constraints).

        Raises
        ------
        TypeError, ValueError
            A bad argument, named by the evaluators' own checks.
        UnsupportedQuery
            When the slices' kind has no ``operating_point``.

        Notes
        -----
        Not in LingPipe. One threshold per slice (a per-group threshold,
        as fairness post-processing chooses them): O(n) over the slices'
        cases plus each slice's own search.

        Examples
        --------
        >>> from scored_pr import SlicedEvaluation
        >>> ev = SlicedEvaluation("region")
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1], region=["eu", "eu", "us", "us"])
        >>> {str(k): d.threshold for k, d in ev.operating_point("f1").items()}
        {'overall': 0.7, 'region=eu': 0.9, 'region=us': 0.7}
        """
        return self._per_slice_decision(
            "operating_point", lambda ev: ev.operating_point(maximize, subject_to, confidence, seed=seed))

    def min_cost_threshold(
        self, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> dict[Any, Any]:
        """Each slice's threshold of least expected cost: ``{slice: Decision}``.

        As :meth:`ScoredPrecisionRecallEvaluation.min_cost_threshold` on each
        slice's cases alone: expected cost (cost_fp FP + cost_fn FN - gain_tp
        TP - gain_tn TN) / n, ties to the highest threshold; an empty slice
        gets threshold ``inf`` and NaN cost. Raises what that method raises
        for a bad cost, and UnsupportedQuery when the slices' kind has no
        such method. Not in LingPipe.

        Examples
        --------
        >>> from scored_pr import SlicedEvaluation
        >>> ev = SlicedEvaluation("region")
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1], region=["eu", "eu", "us", "us"])
        >>> ev.min_cost_threshold(cost_fp=1, cost_fn=5)[(("region", "us"),)].threshold
        0.7
        """
        return self._per_slice_decision(
            "min_cost_threshold", lambda ev: ev.min_cost_threshold(cost_fp, cost_fn, gain_tp, gain_tn))


def _pooled(evaluators: list[Any], cls: type, options: dict[str, Any]) -> Any:
    """One evaluator of every case of ``evaluators`` (a slice's complement)."""
    out = cls(**options)
    for ev in evaluators:
        out = out.merge(ev)
    return out



"""The exact evaluator's the measures at a rank and the IR measures: a mixin of :class:`ScoredPrecisionRecallEvaluation`.

Its measures at a rank cut-off and the IR measures: precision, recall, F, E and AP at k, reciprocal rank,
R-precision, the rank that reaches a recall, the hit curve and the eleven-point interpolated precision.
The methods validate, cache and delegate to :mod:`scored_pr._core`, reading the evaluator's stored cases and
memo through :class:`scored_pr._evaluators.exact_base.ExactShell`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import points as P, scalars as M, thresholds as T
from .._validation import check_beta, check_choice, check_fraction, check_positive_int, renamed_keyword
from .exact_base import ExactShell, adopt, readonly as _readonly

__all__ = ["RankQueries"]


class RankQueries(ExactShell):
    """The the measures at a rank and the IR measures of :class:`scored_pr.ScoredPrecisionRecallEvaluation` (a mixin; it holds no state)."""

    __slots__ = ()

    @renamed_keyword("rank", "k")
    def precision_at(self, k: int) -> float:
        """Precision over the top ``k`` cases: correct cases among them / k.

        NaN when fewer than ``k`` cases were added. With grouped ties, a
        tie group cut by ``k`` contributes its expected number of correct
        cases.

        Parameters
        ----------
        k : int
            The rank cut-off, >= 1, named ``k`` as in every ``*_at(k)``
            query. The former keyword ``rank=`` still works and emits a
            DeprecationWarning.

        Raises
        ------
        TypeError, ValueError
            If ``k`` is not an int >= 1.

        Notes
        -----
        LingPipe name: ``precisionAt(int)`` (which returns NaN for rank 0
        instead of raising); trec_eval: ``P_k``. O(log n) after the first query.
        """
        self._unweighted("precision_at")
        k = check_positive_int(k, "precision_at", "k")
        return self._cached(("p_at", k), lambda: M.precision_at(self._points(), self.num_cases, k))

    def reciprocal_rank(self) -> float:
        """1 / rank (counting from 1) of the first correct case; 0.0 if there is none.

        Grouped ties: the expected reciprocal rank over all orderings of the
        tie group holding the first correct case.

        Notes
        -----
        LingPipe name: ``reciprocalRank()``.
        """
        self._unweighted("reciprocal_rank")
        return self._cached("rr", lambda: M.reciprocal_rank(self._points()))

    def r_precision(self) -> float:
        """Precision over the top R cases, R = num_positive_ref.

        Correct cases among the top R divided by R; when fewer than R cases
        were returned, the absent ranks count as errors. Grouped ties: a tie
        group cut by rank R contributes its expected number of correct cases.
        NaN when R is 0. Equal to :meth:`pr_breakeven_point`.

        Notes
        -----
        LingPipe 4.1 name: ``rPrecision()``; trec_eval name: ``Rprec``.
        """
        self._unweighted("r_precision")
        return self._cached(
            "r_prec", lambda: M.r_precision(self._points(), self.num_cases, self.num_positive_ref)
        )

    # ------------------------------------------------------------ IR measures

    def recall_at(self, k: int) -> float:
        """Recall over the top ``k`` cases: correct cases among them / num_positive_ref.

        When fewer than ``k`` cases were added, all of them count. Grouped
        ties: a tie group cut by ``k`` contributes its expected number of
        correct cases. NaN when num_positive_ref is 0.

        Raises
        ------
        TypeError, ValueError
            If ``k`` is not an int >= 1.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True], [3, 2, 1]); ev.add_misses(2)
        >>> ev.recall_at(1), ev.recall_at(3), ev.recall_at(100)
        (0.25, 0.5, 0.5)
        """
        self._unweighted("recall_at")
        k = check_positive_int(k, "recall_at", "k")
        return self._cached(
            ("recall_at", k), lambda: M.recall_at(self._points(), self.num_cases, self.num_positive_ref, k)
        )

    def average_precision_at(self, k: int) -> float:
        """AP@k: the sum over the top ``k`` of precision(i) * rel(i), over min(k, num_positive_ref).

        The normalisation by min(k, R) makes a perfect top k score 1.0 even
        when R > k. Grouped ties: correct cases get the precision at the end
        of their tie group, and a group cut by ``k`` contributes pro rata.
        NaN when num_positive_ref is 0.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, True], [4, 3, 2, 1])
        >>> ev.average_precision_at(3)  # (1/1 + 2/3) / min(3, 3)
        0.5555555555555555
        """
        self._unweighted("average_precision_at")
        k = check_positive_int(k, "average_precision_at", "k")
        return self._cached(
            ("ap_at", k), lambda: M.average_precision_at(self._points(), self.num_positive_ref, k)
        )

    def k_at_recall(self, recall: float) -> int | float:
        """The smallest number of top cases whose recall is >= ``recall``.

        Recall is compared as :meth:`pr_curve` reports it: the float64 value
        of TP / num_positive_ref (correctly rounded) >= ``recall``, so a
        recall read from the curve and passed back reaches that row (0.2
        with 5 positives needs 1 correct case: 1/5 rounds to 0.2, although
        0.2's binary value is slightly above 1/5). Computed in integers, O(log
        n). Grouped ties: cut-offs only at the ends of tie groups. Returns NaN
        when the level is unreachable (misses, or no positive reference at
        all).

        Raises
        ------
        TypeError, ValueError
            If ``recall`` is not a number in (0, 1].

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True, False, True], [4, 3, 2, 1])
        >>> ev.k_at_recall(0.5), ev.k_at_recall(1.0)
        (2, 4)
        >>> ev.add_misses(1); ev.k_at_recall(1.0)
        nan
        """
        self._unweighted("k_at_recall")
        recall = check_fraction(recall, "k_at_recall", "recall", low_open=True)
        hit = M.k_at_recall(self._points(), self.num_positive_ref, recall)
        return float("nan") if hit is None else hit[0]

    def precision_at_recall(self, recall: float) -> float:
        """Precision at ``k_at_recall(recall)``: precision@recall of spec note 000.

        ``recall`` is compared as in :meth:`k_at_recall` (the curve's float64
        recall). NaN when the level is unreachable.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True, False, True], [4, 3, 2, 1])
        >>> ev.precision_at_recall(0.5), ev.precision_at_recall(1.0)
        (0.5, 0.5)
        """
        self._unweighted("precision_at_recall")
        recall = check_fraction(recall, "precision_at_recall", "recall", low_open=True)
        hit = M.k_at_recall(self._points(), self.num_positive_ref, recall)
        return float("nan") if hit is None else hit[1] / hit[0]

    def f_measure_at(self, k: int, beta: float = 1.0) -> float:
        """F-beta of the top ``k`` cases taken as the retrieved set.

        F = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP) with TP and FP counted
        in the top min(k, num_cases) and FN = num_positive_ref - TP (misses
        included); equivalently the weighted harmonic mean of precision and
        recall there. NaN for 0/0 (nothing retrieved and nothing relevant).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True], [3, 2, 1])
        >>> ev.f_measure_at(1)  # P = 1, R = 1/2
        0.6666666666666666
        """
        self._unweighted("f_measure_at")
        k = check_positive_int(k, "f_measure_at", "k")
        beta = check_beta(beta, "f_measure_at")
        kk = min(k, self.num_cases)
        return T.f_measure(M.tp_top(self._points(), kk), kk, self.num_positive_ref, beta)

    def e_measure_at(self, k: int, beta: float = 1.0) -> float:
        """van Rijsbergen's E = 1 - F-beta of the top ``k`` cases (see :meth:`f_measure_at`)."""
        k = check_positive_int(k, "e_measure_at", "k")
        beta = check_beta(beta, "e_measure_at")
        return 1.0 - self.f_measure_at(k, beta)

    def hit_curve(self) -> npt.NDArray[Any]:
        """The hit curve h(t): correct cases among the top t, for t = 1..num_cases.

        Returns
        -------
        numpy.ndarray, shape (num_cases,), read-only
            int64 with stable ties; float64 expected counts with grouped ties
            (linear across a tie group). Empty when nothing was added.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True, True], [3, 2, 1])
        >>> ev.hit_curve().tolist()  # float64 expected counts under the default grouped ties
        [0.0, 1.0, 2.0]
        """
        self._unweighted("hit_curve")
        return self._cached_weak("hits", lambda: _readonly(M.hit_curve(*self._store.arrays(), self._ties)))

    def eleven_point_interpolated_precision(self, rounding: str = "exact") -> npt.NDArray[np.float64]:
        """Interpolated precision at recall 0.0, 0.1, ..., 1.0.

        At each level, the maximum precision over the cut-offs holding at
        least the needed number of correct cases; 0.0 where the level is
        unreachable (misses) or nothing correct was returned. The needed
        count for level i/10 with R = num_positive_ref:

        - ``"exact"``: ceil(i * R / 10), integer arithmetic;
        - ``"trec_eval9"``: ``int(level * R + 0.9)`` in float64, as
          trec_eval <= 9 and pytrec_eval compute it;
        - ``"trec_eval10"``: ``lround(level * R)`` (trec_eval 10).

        They differ, e.g., for R = 3 at level 0.7: exact needs 3 correct
        cases, trec_eval9 and trec_eval10 need 2; for R = 4 at level 0.1,
        trec_eval10 needs 0 (so the level takes the best precision anywhere).

        Returns
        -------
        numpy.ndarray of float64, shape (11,)

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False, True], [5, 4, 3, 2, 1])
        >>> ev.eleven_point_interpolated_precision()[[0, 7, 10]].tolist()
        [1.0, 0.6, 0.6]
        >>> ev.eleven_point_interpolated_precision("trec_eval9")[[0, 7, 10]].tolist()
        [1.0, 0.6666666666666666, 0.6]
        """
        self._unweighted("eleven_point_interpolated_precision")
        rounding = check_choice(
            rounding, "eleven_point_interpolated_precision", "rounding", ("exact", "trec_eval9", "trec_eval10")
        )
        return self._cached(
            ("11pt", rounding),
            lambda: _readonly(M.eleven_point_interpolated_precision(self._points(), self.num_positive_ref, rounding)),
        )



adopt(RankQueries)

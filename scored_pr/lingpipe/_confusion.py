"""LingPipe's ``ConfusionMatrix``: reference-by-response counts over a fixed list of categories.

Row ``i`` counts the cases whose reference is category ``i``, column ``j``
those whose first-best response is category ``j``. Every statistic is
computed in the same order of float64 operations as LingPipe's Java source
(per-category one-versus-all tables, macro and micro averages, kappas,
entropies, chi-squared, lambdas), so the values agree with LingPipe's; a
zero denominator or ``0 * log2(0)`` gives what Java gives (NaN or
Infinity), never an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_count, check_count_matrix, check_type_named, check_whole_counts, fail
from ._first_best import PrecisionRecallEvaluation
from ._javafmt import double_to_string
from ._javamath import div, log2, sqrt

__all__ = ["ConfusionMatrix", "check_categories"]


def check_categories(categories: Any, func: str, name: str = "categories") -> tuple[str, ...]:
    """A non-empty sequence of distinct str, as a tuple (a rejected call changes nothing)."""
    if isinstance(categories, (str, bytes)) or not isinstance(categories, (Sequence, np.ndarray)):
        raise fail(TypeError, func, name, "a list of distinct str category names", categories)
    result = []
    for i, c in enumerate(categories):
        if not isinstance(c, str):
            raise fail(TypeError, func, name, "a list of distinct str category names", c, i)
        result.append(c)
    if not result:
        raise fail(ValueError, func, name, "a non-empty list of distinct str category names", categories)
    seen: dict[str, int] = {}
    for i, c in enumerate(result):
        if c in seen:
            raise fail(
                ValueError, func, name, f"a list of distinct category names ({c!r} is also at index {seen[c]})", c, i
            )
        seen[c] = i
    return tuple(result)


class ConfusionMatrix:
    """LingPipe's ``ConfusionMatrix``: counts of (reference, response) category pairs.

    Parameters
    ----------
    categories : sequence of str
        The categories, in row/column order; non-empty and distinct.
    matrix : k x k array-like of int, optional
        Initial counts, ``matrix[reference][response]``; zeros if omitted.
        Copied.

    Raises
    ------
    TypeError, ValueError
        If the categories are not distinct strs, or the matrix is not k x k
        non-negative ints (LingPipe: IllegalArgumentException).

    Notes
    -----
    Java name: ``com.aliasi.classify.ConfusionMatrix`` (the same formulas
    in LingPipe 3.9.2 and 4.1). With ``oneVsAll(i)`` the 2x2 table of
    category ``i`` against the rest (a :class:`PrecisionRecallEvaluation`),
    ``ref(i)``/``resp(i)`` its reference and response likelihoods and
    ``log2`` Java's:

    * ``totalAccuracy = totalCorrect/totalCount`` (diagonal over all);
      ``confidence(z) = z*sqrt(p*(1-p)/n)``, ``confidence95`` z = 1.96,
      ``confidence99`` z = 2.58;
    * ``macroAvgPrecision/Recall/FMeasure``: the mean over categories of
      ``oneVsAll(i)``'s value (NaN if any category's is NaN, e.g. a
      category never given as response has NaN precision);
      ``microAverage()``: the sum of the one-versus-all tables;
    * ``randomAccuracy = sum ref(i)*resp(i)``, ``randomAccuracyUnbiased =
      sum ((ref(i)+resp(i))/2)^2``, ``kappa``/``kappaUnbiased`` =
      ``(acc - e)/(1 - e)``, ``kappaNoPrevalence = 2*acc - 1``;
    * ``referenceEntropy = -sum ref(i)*log2 ref(i)`` (likewise
      ``responseEntropy``; ``crossEntropy = -sum ref(i)*log2 resp(i)``):
      *no* ``0 log 0 = 0`` convention, so a category with no reference
      (response) case makes them NaN, as in LingPipe;
      ``jointEntropy``, ``conditionalEntropy(i)`` and ``mutualInformation``
      skip zero cells; ``conditionalEntropy() = sum ref(i)*conditionalEntropy(i)``;
      ``klDivergence = sum ref(i)*log2(ref(i)/resp(i))``;
    * ``chiSquared``: Pearson's statistic of independence over the matrix,
      ``sum (n_ij - E_ij)^2/E_ij`` with ``E_ij = row_i*col_j/total``;
      ``chiSquaredDegreesOfFreedom = (k-1)^2``, ``phiSquared =
      chiSquared/total``, ``cramersV = sqrt(phiSquared/(k-1))``;
    * ``lambdaA = (sum_j max_i n_ij - max_i row_i)/(total - max_i row_i)``,
      ``lambdaB`` the same with rows and columns swapped.

    There are no scores, hence no ties; every method has LingPipe's name
    and signature. An empty matrix gives NaN for every ratio. Two
    deliberate divergences:
    ``chiSquared`` of a one-category matrix is NaN (LingPipe throws
    IllegalArgumentException "Require at least two rows"), and a matrix
    built with initial counts knows its category names (LingPipe 4.1's
    two-argument constructor forgets them, so its ``getIndex`` returns -1
    and ``increment(String, String)`` throws). Counts are Python ints (no
    Java ``int`` overflow). O(k) per one-versus-all table, O(k^2) for
    matrix-wide statistics.

    Examples
    --------
    The wine-tasting example of LingPipe's Javadoc:

    >>> cm = ConfusionMatrix(["Cabernet", "Syrah", "Pinot"], [[9, 3, 0], [3, 5, 1], [1, 1, 4]])
    >>> cm.totalCount(), cm.totalCorrect(), round(cm.totalAccuracy(), 4)
    (27, 18, 0.6667)
    >>> round(cm.kappa(), 4), round(cm.macroAvgFMeasure(), 4)
    (0.474, 0.6676)
    """

    __slots__ = ("_categories", "_index", "_m")

    def __init__(self, categories: Sequence[str], matrix: Any = None) -> None:
        cats = check_categories(categories, "ConfusionMatrix")
        k = len(cats)
        m = [[0] * k for _ in range(k)] if matrix is None else check_count_matrix(matrix, k, "ConfusionMatrix")
        self._categories = cats
        self._index = {c: i for i, c in enumerate(cats)}
        self._m = m

    @classmethod
    def from_evaluation(cls, evaluation: Any) -> ConfusionMatrix:
        """The confusion matrix of a multi-class :class:`~scored_pr.MultiLabelEvaluation` at its top-scoring class.

        Parameters
        ----------
        evaluation : MultiLabelEvaluation
            Its rows must each hold exactly one positive label (multi-class
            data); its labels become the categories (as ``str``), in label
            order, and ``evaluation.confusion_matrix()`` the counts
            (reference = true class, response = the column of the highest
            score, the first on ties).

        Returns
        -------
        ConfusionMatrix
            A new matrix; every LingPipe statistic (``totalAccuracy``,
            kappas, macro/micro averages...) then reads it.

        Raises
        ------
        TypeError
            If ``evaluation`` is not a MultiLabelEvaluation.
        ValueError
            If its weighted rows make fractional counts, or two labels have
            the same ``str``.
        scored_pr.UnsupportedQuery
            If a row does not hold exactly one positive label (see
            ``MultiLabelEvaluation.confusion_matrix``).

        Examples
        --------
        >>> from scored_pr import MultiLabelEvaluation
        >>> ev = MultiLabelEvaluation(["cat", "dog"])
        >>> ev.add_cases(["cat", "dog", "dog"], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])
        >>> cm = ConfusionMatrix.from_evaluation(ev)
        >>> cm.matrix().tolist(), cm.totalAccuracy() == ev.accuracy()
        ([[1, 0], [1, 1]], True)
        """
        from .._evaluators.multilabel import MultiLabelEvaluation

        check_type_named(evaluation, MultiLabelEvaluation, "ConfusionMatrix.from_evaluation", "evaluation",
                         "a MultiLabelEvaluation")
        names, counts = check_whole_counts(evaluation.confusion_matrix(), evaluation.labels,
                                           "ConfusionMatrix.from_evaluation", "evaluation")
        return cls(names, counts.tolist())

    # ------------------------------------------------------------------ structure

    def categories(self) -> list[str]:
        """A copy of the categories, in row/column order."""
        return list(self._categories)

    def numCategories(self) -> int:
        """The number of categories k."""
        return len(self._categories)

    def getIndex(self, category: str) -> int:
        """The index of ``category``, or -1 if it is not one of the categories (as LingPipe)."""
        return self._index.get(category, -1) if isinstance(category, str) else -1

    def matrix(self) -> npt.NDArray[np.int64]:
        """A fresh (k, k) int64 array of the counts, ``[reference, response]``."""
        return np.array(self._m, dtype=np.int64).reshape(len(self._m), len(self._m))

    def _check_index(self, value: Any, func: str, name: str) -> int:
        k = len(self._categories)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise fail(TypeError, func, name, f"an int index in [0, {k})", value)
        if not 0 <= value < k:
            raise fail(ValueError, func, name, f"an index in [0, {k}) (numCategories()={k})", value)
        return int(value)

    def _check_category(self, value: Any, func: str, name: str) -> int:
        i = self._index.get(value) if isinstance(value, str) else None
        if i is None:
            raise fail(ValueError, func, name, "one of the categories " + repr(list(self._categories)), value)
        return i

    def _either(self, value: Any, func: str, name: str) -> int:
        return self._check_category(value, func, name) if isinstance(value, str) else self._check_index(value, func, name)

    # ------------------------------------------------------------------ mutators

    def increment(self, reference: int | str, response: int | str) -> None:
        """Add one to the cell (reference, response), given as indices or as category names.

        Raises
        ------
        TypeError, ValueError
            If an index is out of range or a name is not a category; nothing changes.

        Notes
        -----
        Java names: ``increment(int, int)`` and ``increment(String, String)``.
        """
        f = "ConfusionMatrix.increment"
        i = self._either(reference, f, "reference")
        j = self._either(response, f, "response")
        self._m[i][j] += 1

    def incrementByN(self, referenceCategoryIndex: int, responseCategoryIndex: int, num: int) -> None:
        """Add ``num`` (which may be negative) to a cell; the cell must stay non-negative.

        Raises
        ------
        TypeError, ValueError
            If an index is out of range, ``num`` is not an int, or the cell
            would become negative; nothing changes.

        Notes
        -----
        Java name: ``incrementByN(int, int, int)``.
        """
        f = "ConfusionMatrix.incrementByN"
        i = self._check_index(referenceCategoryIndex, f, "referenceCategoryIndex")
        j = self._check_index(responseCategoryIndex, f, "responseCategoryIndex")
        if isinstance(num, (bool, np.bool_)) or not isinstance(num, (int, np.integer)):
            raise fail(TypeError, f, "num", "an int", num)
        if self._m[i][j] + int(num) < 0:
            raise fail(ValueError, f, "num", f"at least {-self._m[i][j]} (cell [{i}][{j}] holds {self._m[i][j]})", num)
        self._m[i][j] += int(num)

    # -------------------------------------------------------------------- counts

    def count(self, referenceCategoryIndex: int, responseCategoryIndex: int) -> int:
        """The count in cell (reference index, response index)."""
        f = "ConfusionMatrix.count"
        i = self._check_index(referenceCategoryIndex, f, "referenceCategoryIndex")
        j = self._check_index(responseCategoryIndex, f, "responseCategoryIndex")
        return self._m[i][j]

    def totalCount(self) -> int:
        """The sum of all cells."""
        return sum(sum(row) for row in self._m)

    def totalCorrect(self) -> int:
        """The sum of the diagonal."""
        return sum(self._m[i][i] for i in range(len(self._m)))

    def totalAccuracy(self) -> float:
        """totalCorrect / totalCount; NaN when empty."""
        return div(self.totalCorrect(), self.totalCount())

    def confidence95(self) -> float:
        """``confidence(1.96)``."""
        return self.confidence(1.96)

    def confidence99(self) -> float:
        """``confidence(2.58)``."""
        return self.confidence(2.58)

    def confidence(self, z: float) -> float:
        """Half-width ``z * sqrt(p*(1-p)/n)`` of the normal-approximation interval of the accuracy p over n cases."""
        from ._first_best import _real

        zz = _real(z, "ConfusionMatrix.confidence", "z")
        p = self.totalAccuracy()
        n = float(self.totalCount())
        return zz * sqrt(div(p * (1 - p), n))

    # -------------------------------------------------------- one-versus-all tables

    def _ova(self, i: int) -> tuple[int, int, int, int]:
        m = self._m
        k = len(m)
        tp = m[i][i]
        row = sum(m[i])
        col = sum(m[r][i] for r in range(k))
        total = self.totalCount()
        return tp, row - tp, col - tp, total - row - col + tp

    def oneVsAll(self, categoryIndex: int) -> PrecisionRecallEvaluation:
        """The 2x2 table of category ``categoryIndex`` against all others, as a new evaluation.

        TP = the diagonal cell, FN = the rest of its row, FP = the rest of its
        column, TN = everything else.

        Notes
        -----
        Java name: ``oneVsAll(int)``. O(k^2) (the total), O(k) per further table.
        """
        i = self._check_index(categoryIndex, "ConfusionMatrix.oneVsAll", "categoryIndex")
        return PrecisionRecallEvaluation(*self._ova(i))

    def _evals(self) -> list[PrecisionRecallEvaluation]:
        return [PrecisionRecallEvaluation(*self._ova(i)) for i in range(len(self._m))]

    def microAverage(self) -> PrecisionRecallEvaluation:
        """The sum of the one-versus-all tables (micro-averaged precision = recall = F = accuracy)."""
        tp = fn = fp = tn = 0
        for e in self._evals():
            tp += e.truePositive()
            fp += e.falsePositive()
            tn += e.trueNegative()
            fn += e.falseNegative()
        return PrecisionRecallEvaluation(tp, fn, fp, tn)

    def macroAvgPrecision(self) -> float:
        """Mean over categories of ``oneVsAll(i).precision()``."""
        s = 0.0
        for e in self._evals():
            s += e.precision()
        return div(s, len(self._m))

    def macroAvgRecall(self) -> float:
        """Mean over categories of ``oneVsAll(i).recall()``."""
        s = 0.0
        for e in self._evals():
            s += e.recall()
        return div(s, len(self._m))

    def macroAvgFMeasure(self) -> float:
        """Mean over categories of ``oneVsAll(i).fMeasure()`` (not the F of the macro P and R)."""
        s = 0.0
        for e in self._evals():
            s += e.fMeasure()
        return div(s, len(self._m))

    # ---------------------------------------------------------- chance and kappa

    def randomAccuracy(self) -> float:
        """sum over categories of referenceLikelihood * responseLikelihood."""
        s = 0.0
        for e in self._evals():
            s += e.referenceLikelihood() * e.responseLikelihood()
        return s

    def randomAccuracyUnbiased(self) -> float:
        """sum over categories of ((referenceLikelihood + responseLikelihood)/2)^2."""
        s = 0.0
        for e in self._evals():
            avg = (e.referenceLikelihood() + e.responseLikelihood()) / 2.0
            s += avg * avg
        return s

    def kappa(self) -> float:
        """(totalAccuracy - randomAccuracy) / (1 - randomAccuracy) (Cohen's kappa)."""
        return self._kappa(self.randomAccuracy())

    def kappaUnbiased(self) -> float:
        """(totalAccuracy - randomAccuracyUnbiased) / (1 - randomAccuracyUnbiased)."""
        return self._kappa(self.randomAccuracyUnbiased())

    def kappaNoPrevalence(self) -> float:
        """2 * totalAccuracy - 1."""
        return 2.0 * self.totalAccuracy() - 1.0

    def _kappa(self, pe: float) -> float:
        return div(self.totalAccuracy() - pe, 1.0 - pe)

    # ------------------------------------------------------------------ entropies

    def referenceEntropy(self) -> float:
        """-sum ref(i) * log2 ref(i); NaN if a category has no reference case (LingPipe's 0 * -inf)."""
        s = 0.0
        for e in self._evals():
            p = e.referenceLikelihood()
            s += p * log2(p)
        return -s

    def responseEntropy(self) -> float:
        """-sum resp(i) * log2 resp(i); NaN if a category is never a response."""
        s = 0.0
        for e in self._evals():
            p = e.responseLikelihood()
            s += p * log2(p)
        return -s

    def crossEntropy(self) -> float:
        """-sum ref(i) * log2 resp(i)."""
        s = 0.0
        for e in self._evals():
            s += e.referenceLikelihood() * log2(e.responseLikelihood())
        return -s

    def jointEntropy(self) -> float:
        """-sum over cells of P(i,j) log2 P(i,j), P(i,j) = count/total, zero cells skipped."""
        total = float(self.totalCount())
        s = 0.0
        for row in self._m:
            for c in row:
                p = div(c, total)
                if p <= 0.0:
                    continue
                s += p * log2(p)
        return -s

    def conditionalEntropy(self, refCategoryIndex: int | None = None) -> float:
        """Entropy of the response given the reference.

        ``conditionalEntropy(i) = -sum_j P(j|i) log2 P(j|i)`` with
        ``P(j|i) = count(i,j)/row_i``, zero cells skipped (NaN for a
        category with no reference case); ``conditionalEntropy()`` is
        ``sum_i ref(i) * conditionalEntropy(i)``.

        Notes
        -----
        Java names: ``conditionalEntropy()`` and ``conditionalEntropy(int)``.
        """
        if refCategoryIndex is None:
            s = 0.0
            evals = self._evals()
            for i, e in enumerate(evals):
                s += e.referenceLikelihood() * self._conditional_entropy(i)
            return s
        i = self._check_index(refCategoryIndex, "ConfusionMatrix.conditionalEntropy", "refCategoryIndex")
        return self._conditional_entropy(i)

    def _conditional_entropy(self, i: int) -> float:
        ref_count = sum(self._m[i])
        s = 0.0
        for c in self._m[i]:
            p = div(c, ref_count)
            if p <= 0.0:  # NaN (no reference case) is not skipped: LingPipe's NaN
                continue
            s += p * log2(p)
        return -s

    def mutualInformation(self) -> float:
        """sum over cells of P(i,j) log2(P(i,j) / (ref(i) resp(j))), zero terms skipped."""
        total = float(self.totalCount())
        evals = self._evals()
        s = 0.0
        for i, ei in enumerate(evals):
            p_i = ei.referenceLikelihood()
            if p_i <= 0.0:
                continue
            for j, ej in enumerate(evals):
                p_j = ej.responseLikelihood()
                if p_j <= 0.0:
                    continue
                p_ij = div(self._m[i][j], total)
                if p_ij <= 0.0:
                    continue
                s += p_ij * log2(div(p_ij, p_i * p_j))
        return s

    def klDivergence(self) -> float:
        """sum ref(k) * log2(ref(k)/resp(k)): the divergence of the response distribution from the reference."""
        s = 0.0
        for e in self._evals():
            ref = e.referenceLikelihood()
            s += ref * log2(div(ref, e.responseLikelihood()))
        return s

    # ------------------------------------------------------------ association

    def chiSquaredDegreesOfFreedom(self) -> int:
        """(k - 1)^2."""
        r = len(self._m) - 1
        return r * r

    def chiSquared(self) -> float:
        """Pearson's chi-squared statistic of independence of reference and response over the matrix.

        NaN for a one-category matrix (LingPipe throws); NaN when a row or
        column is all zero (its expected counts are 0/0).
        """
        k = len(self._m)
        if k < 2:
            return float("nan")
        rows = [0.0] * k
        cols = [0.0] * k
        total = 0.0
        for i in range(k):
            for j in range(k):
                v = float(self._m[i][j])
                rows[i] += v
                cols[j] += v
                total += v
        s = 0.0
        for i in range(k):
            for j in range(k):
                expected = div(rows[i] * cols[j], total)
                diff = self._m[i][j] - expected
                s += div(diff * diff, expected)
        return s

    def phiSquared(self) -> float:
        """chiSquared / totalCount."""
        return div(self.chiSquared(), self.totalCount())

    def cramersV(self) -> float:
        """sqrt(phiSquared / (k - 1))."""
        return sqrt(div(self.phiSquared(), len(self._m) - 1.0))

    def lambdaA(self) -> float:
        """Goodman and Kruskal's lambda A: (sum_j max_i n_ij - max_i row_i) / (total - max_i row_i)."""
        k = len(self._m)
        evals = self._evals()
        max_ref = 0.0
        for e in evals:
            v = float(e.positiveReference())
            if v > max_ref:
                max_ref = v
        max_sum = 0.0
        for j in range(k):
            max_sum += max(self._m[i][j] for i in range(k))
        return div(max_sum - max_ref, float(self.totalCount()) - max_ref)

    def lambdaB(self) -> float:
        """Goodman and Kruskal's lambda B: (sum_i max_j n_ij - max_j col_j) / (total - max_j col_j)."""
        evals = self._evals()
        max_resp = 0.0
        for e in evals:
            v = float(e.positiveResponse())
            if v > max_resp:
                max_resp = v
        max_sum = 0.0
        for row in self._m:
            max_sum += max(row)
        return div(max_sum - max_resp, float(self.totalCount()) - max_resp)

    # ---------------------------------------------------------------------- text

    def _matrix_csv(self) -> str:
        cats = self._categories
        lines = ["  " + "".join("," + c for c in cats)]
        for i, c in enumerate(cats):
            lines.append("  " + c + "".join("," + str(v) for v in self._m[i]))
        return "\n".join(lines)

    def _global_lines(self) -> list[str]:
        d = double_to_string
        return [
            "Categories=[" + ", ".join(self._categories) + "]",
            f"Total Count={self.totalCount()}",
            f"Total Correct={self.totalCorrect()}",
            f"Total Accuracy={d(self.totalAccuracy())}",
            f"95% Confidence Interval={d(self.totalAccuracy())} +/- {d(self.confidence95())}",
            "Confusion Matrix",
            "reference \\ response",
            self._matrix_csv(),
            f"Macro-averaged Precision={d(self.macroAvgPrecision())}",
            f"Macro-averaged Recall={d(self.macroAvgRecall())}",
            f"Macro-averaged F={d(self.macroAvgFMeasure())}",
            "Micro-averaged Results",
            "         the following symmetries are expected:",
            "           TP=TN, FN=FP",
            "           PosRef=PosResp=NegRef=NegResp",
            "           Acc=Prec=Rec=F",
            self.microAverage().toString(),
            f"Random Accuracy={d(self.randomAccuracy())}",
            f"Random Accuracy Unbiased={d(self.randomAccuracyUnbiased())}",
            f"kappa={d(self.kappa())}",
            f"kappa Unbiased={d(self.kappaUnbiased())}",
            f"kappa No Prevalence ={d(self.kappaNoPrevalence())}",
            f"Reference Entropy={d(self.referenceEntropy())}",
            f"Response Entropy={d(self.responseEntropy())}",
            f"Cross Entropy={d(self.crossEntropy())}",
            f"Joint Entropy={d(self.jointEntropy())}",
            f"Conditional Entropy={d(self.conditionalEntropy())}",
            f"Mutual Information={d(self.mutualInformation())}",
            f"Kullback-Liebler Divergence={d(self.klDivergence())}",
            f"chi Squared={d(self.chiSquared())}",
            f"chi-Squared Degrees of Freedom={self.chiSquaredDegreesOfFreedom()}",
            f"phi Squared={d(self.phiSquared())}",
            f"Cramer's V={d(self.cramersV())}",
            f"lambda A={d(self.lambdaA())}",
            f"lambda B={d(self.lambdaB())}",
        ]

    def toString(self) -> str:
        """LingPipe's text report: the global statistics, then each category's conditional entropy and table.

        Layout as LingPipe's ``toString()``: a ``GLOBAL CONFUSION MATRIX
        STATISTICS`` header, one ``Label=value`` line per statistic (the
        matrix as comma-separated rows), then per category ``CATEGORY i=name
        VS. ALL``, its conditional entropy and its one-versus-all report.
        Numbers as Java's ``Double.toString``; ends with a newline, as Java's.
        """
        parts = ["GLOBAL CONFUSION MATRIX STATISTICS\n", "\n".join(self._global_lines()) + "\n"]
        for i, c in enumerate(self._categories):
            parts.append(f"CATEGORY {i}={c} VS. ALL\n")
            parts.append(f"  Conditional Entropy={double_to_string(self._conditional_entropy(i))}\n")
            parts.append(self.oneVsAll(i).toString() + "\n")
        return "".join(parts)

    def __str__(self) -> str:
        """The same text as :meth:`toString`."""
        return self.toString()

    def __repr__(self) -> str:
        return f"scored_pr.lingpipe.ConfusionMatrix(categories={list(self._categories)!r}, matrix={self._m!r})"

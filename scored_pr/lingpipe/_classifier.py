"""LingPipe's ``ScoredClassification`` and ``ScoredClassifierEvaluator``.

A scored classification ranks categories by score for one input; the
evaluator collects (reference category, classification) cases and answers
LingPipe's rank, score, first-best and scored one-versus-all statistics over
them, with LingPipe's definitions and corner cases (a category a
classification does not rank is taken to have the last rank; averages over no
cases are NaN).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from .._validation import check_choice, check_flag, check_known_categories, check_ranked_scores, fail
from ._confusion import ConfusionMatrix, check_categories
from ._evaluation import VERSIONS, ScoredPrecisionRecallEvaluation
from ._first_best import PrecisionRecallEvaluation
from ._javafmt import double_to_string
from ._javamath import div

__all__ = ["Classified", "ScoredClassification", "ScoredClassifierEvaluator"]


def _check_ranked_categories(categories: Any, func: str) -> tuple[str, ...]:
    if isinstance(categories, (str, bytes)) or not isinstance(categories, (Sequence, np.ndarray)):
        raise fail(TypeError, func, "categories", "a list of distinct str category names, best first", categories)
    out: list[str] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(categories):
        if not isinstance(c, str):
            raise fail(TypeError, func, "categories", "a list of distinct str category names, best first", c, i)
        if c in seen:
            raise fail(
                ValueError, func, "categories", f"a list of distinct category names ({c!r} is also at rank {seen[c]})", c, i
            )
        seen[c] = i
        out.append(c)
    return tuple(out)


class ScoredClassification:
    """LingPipe's ``ScoredClassification``: categories ranked best first, with their scores.

    Parameters
    ----------
    categories : sequence of str
        Category names, best (rank 0) first; distinct. May be empty, and
        need not list every category an evaluator knows (a partial
        ranking).
    scores : sequence of real numbers
        One score per category, in non-increasing order (equal scores
        allowed: the order given breaks the tie). ``inf``/``-inf`` allowed.

    Raises
    ------
    TypeError, ValueError
        If the lengths differ, a score is not a real number or is NaN, a
        score is larger than the one before it (LingPipe's
        IllegalArgumentException "Array of scores must be in order"), or a
        category is repeated.

    Notes
    -----
    Java name: ``com.aliasi.classify.ScoredClassification``. Two deliberate
    divergences, both rejecting input LingPipe silently mis-evaluates: NaN
    scores (Java's ``<`` lets them through the order check) and a category
    ranked twice (LingPipe would count it twice in ``scoredOneVersusAll``).
    The arrays are copied (LingPipe keeps the caller's arrays).

    Examples
    --------
    >>> c = ScoredClassification(["a", "b", "c"], [0.7, 0.2, 0.1])
    >>> c.bestCategory(), c.size(), c.category(1), c.score(1)
    ('a', 3, 'b', 0.2)
    """

    __slots__ = ("_categories", "_scores")

    def __init__(self, categories: Sequence[str], scores: Sequence[float]) -> None:
        f = "ScoredClassification"
        cats = _check_ranked_categories(categories, f)
        self._scores = check_ranked_scores(scores, len(cats), f)
        self._categories = cats

    @staticmethod
    def create(categoryScores: Iterable[tuple[str, float]]) -> ScoredClassification:
        """Build a classification from unsorted (category, score) pairs.

        Sorted by decreasing score; equal scores keep the order given (Java's
        stable ``Arrays.sort``).

        Notes
        -----
        Java name: ``create(List<ScoredObject<String>>)``, pairs instead of ``ScoredObject``.

        >>> ScoredClassification.create([("b", 0.2), ("a", 0.7)]).bestCategory()
        'a'
        """
        pairs = list(categoryScores)
        for i, p in enumerate(pairs):
            if not isinstance(p, tuple) or len(p) != 2:
                raise fail(TypeError, "ScoredClassification.create", "categoryScores", "(category, score) pairs", p, i)
        order = sorted(range(len(pairs)), key=lambda i: _sort_key(pairs[i][1], i))
        return ScoredClassification([pairs[i][0] for i in order], [pairs[i][1] for i in order])

    def size(self) -> int:
        """The number of categories ranked."""
        return len(self._categories)

    def bestCategory(self) -> str | None:
        """The rank-0 category, or None for an empty classification (LingPipe's null)."""
        return self._categories[0] if self._categories else None

    def _rank(self, rank: Any, func: str) -> int:
        n = len(self._categories)
        if isinstance(rank, (bool, np.bool_)) or not isinstance(rank, (int, np.integer)):
            raise fail(TypeError, func, "rank", f"an int rank in [0, {n})", rank)
        if not 0 <= rank < n:
            raise fail(ValueError, func, "rank", f"a rank in [0, {n}) (size()={n})", rank)
        return int(rank)

    def category(self, rank: int) -> str:
        """The category at ``rank`` (0 the best); ValueError out of range (LingPipe: IllegalArgumentException)."""
        return self._categories[self._rank(rank, "ScoredClassification.category")]

    def score(self, rank: int) -> float:
        """The score at ``rank``; ValueError out of range."""
        return self._scores[self._rank(rank, "ScoredClassification.score")]

    def toString(self) -> str:
        """LingPipe's text: ``Rank  Category  Score`` then ``i=category score`` lines, each ending in a newline."""
        lines = ["Rank  Category  Score\n"]
        for i, (c, s) in enumerate(zip(self._categories, self._scores)):
            lines.append(f"{i}={c} {double_to_string(s)}\n")
        return "".join(lines)

    def __str__(self) -> str:
        return self.toString()

    def __repr__(self) -> str:
        return f"scored_pr.lingpipe.ScoredClassification({list(self._categories)!r}, {list(self._scores)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoredClassification):
            return NotImplemented
        return self._categories == other._categories and self._scores == other._scores

    __hash__ = None  # type: ignore[assignment]


def _sort_key(score: Any, i: int) -> tuple[float, int]:
    if isinstance(score, (bool, np.bool_)) or not isinstance(score, numbers.Real) or math.isnan(float(score)):
        raise fail(TypeError, "ScoredClassification.create", "categoryScores", "(category, score) pairs with real, non-NaN scores", score, i)
    return (-float(score), i)


class Classified(NamedTuple):
    """An input and the classification the evaluator was given for it (LingPipe's ``Classified``)."""

    input: Any
    classification: ScoredClassification


class ScoredClassifierEvaluator:
    """LingPipe's ``ScoredClassifierEvaluator``: rank, score and first-best statistics of a scored classifier.

    Parameters
    ----------
    categories : sequence of str
        Every category the classifier may return; non-empty and distinct.
        Their order is the order of the confusion matrix and of the rank
        histograms.
    storeInputs : bool, default False
        Keep each case's input, so that :meth:`truePositives` and its
        siblings can return the cases.
    version : {"3.9.2", "4.1", "4.1.0"}, default "3.9.2"
        The LingPipe release whose :class:`ScoredPrecisionRecallEvaluation`
        :meth:`scoredOneVersusAll` returns. Everything else is the same in
        both releases.

    Raises
    ------
    TypeError, ValueError
        If the categories are not distinct strs, ``storeInputs`` is not a
        bool or ``version`` is not one of the spellings above.

    Notes
    -----
    Java name: ``com.aliasi.classify.ScoredClassifierEvaluator`` (3.9.1 and
    later; with the methods it inherits from ``RankedClassifierEvaluator``
    and ``BaseClassifierEvaluator``). Java's ``new
    ScoredClassifierEvaluator<E>(classifier, categories, storeInputs)`` is
    ``ScoredClassifierEvaluator(categories, storeInputs)`` here: there is
    no classifier to run, so every case arrives through
    :meth:`addClassification`, which does what LingPipe's ``handle`` does
    (confusion matrix, rank counts, score outcomes, stored case).

    One difference from LingPipe's own ``addClassification``: in Java that
    method feeds only the confusion matrix and the stored cases, not the
    rank counts and score outcomes that ``handle`` adds, so after
    ``addClassification`` alone LingPipe's :meth:`rankCount`,
    :meth:`averageRankReference` and :meth:`meanReciprocalRank` are 0 or
    NaN and :meth:`scoredOneVersusAll` is empty. A port has its
    classifications in hand rather than a classifier, so here it feeds all
    of them, as ``handle`` would.

    Rank of a category in a classification: its position (0 the best);
    *a category the classification does not rank has rank k - 1* (k the
    number of categories), LingPipe's last-rank assumption, for
    :meth:`rankCount`, :meth:`averageRank`, :meth:`averageRankReference`
    and :meth:`meanReciprocalRank`. Ties in scores do not change ranks:
    the classification's order is the ranking. Averages over no cases are
    NaN. Every category the classification ranks must be one of the
    evaluator's (ValueError, as LingPipe's IllegalArgumentException) and it
    must rank at least one (its first-best category goes into the
    confusion matrix).

    Not thread-safe. Storage O(n k) for n cases; :meth:`averageRank` and
    :meth:`averageScore` scan the cases, O(n k) per call, as LingPipe.

    Examples
    --------
    >>> ev = ScoredClassifierEvaluator(["a", "b", "c"])
    >>> ev.addClassification("a", ScoredClassification(["a", "b", "c"], [0.7, 0.2, 0.1]))
    >>> ev.addClassification("b", ScoredClassification(["a", "c", "b"], [0.5, 0.3, 0.2]))
    >>> ev.numCases(), ev.averageRankReference(), ev.meanReciprocalRank()
    (2, 1.0, 0.6666666666666666)
    >>> ev.scoredOneVersusAll("b").averagePrecision()
    0.5
    >>> ev.confusionMatrix().totalAccuracy()
    0.5
    """

    __slots__ = (
        "_categories",
        "_index",
        "_store_inputs",
        "_version",
        "_cm",
        "_refs",
        "_classifications",
        "_inputs",
        "_rank_counts",
        "_outcomes",
    )

    def __init__(self, categories: Sequence[str], storeInputs: bool = False, version: str = "3.9.2") -> None:
        f = "ScoredClassifierEvaluator"
        cats = check_categories(categories, f)
        store = check_flag(storeInputs, f, "storeInputs")
        self._version = VERSIONS[check_choice(version, f, "version", tuple(VERSIONS))]
        self._categories = cats
        self._index = {c: i for i, c in enumerate(cats)}
        self._store_inputs = store
        k = len(cats)
        self._cm = ConfusionMatrix(cats)
        self._refs: list[str] = []
        self._classifications: list[ScoredClassification] = []
        self._inputs: list[Any] = []
        self._rank_counts = [[0] * k for _ in range(k)]
        self._outcomes: list[list[tuple[float, bool]]] = [[] for _ in range(k)]

    @property
    def version(self) -> str:
        """The LingPipe release of the evaluations :meth:`scoredOneVersusAll` returns."""
        return self._version

    # ------------------------------------------------------------------ validation

    def _check_category(self, value: Any, func: str, name: str) -> int:
        i = self._index.get(value) if isinstance(value, str) else None
        if i is None:
            raise fail(ValueError, func, name, "one of the categories " + repr(list(self._categories)), value)
        return i

    # -------------------------------------------------------------------- mutator

    def addClassification(self, referenceCategory: str, classification: ScoredClassification, input: Any = None) -> None:
        """Add a case: the reference category and the classifier's scored classification of it.

        Parameters
        ----------
        referenceCategory : str
            The true category; one of :meth:`categories`.
        classification : ScoredClassification
            The response; it must rank at least one category, and only
            categories of this evaluator.
        input : object, optional
            The classified input; kept only if the evaluator stores inputs.

        Raises
        ------
        TypeError, ValueError
            If the reference is not a category, ``classification`` is not a
            :class:`ScoredClassification`, is empty, or ranks an unknown
            category. Nothing is added.

        Notes
        -----
        Java names: ``addClassification(String, Classification, E)`` and
        ``handle(Classified<E>)`` (see the class Notes). O(k).
        """
        f = "ScoredClassifierEvaluator.addClassification"
        ref = self._check_category(referenceCategory, f, "referenceCategory")
        if not isinstance(classification, ScoredClassification):
            raise fail(TypeError, f, "classification", "a scored_pr.lingpipe.ScoredClassification", classification)
        if classification.size() == 0:
            raise fail(
                ValueError, f, "classification", "a classification ranking at least one category (its first-best response)", classification
            )
        cats = classification._categories
        check_known_categories(cats, self._index, f, "classification")
        # validated: from here on nothing can fail
        ref_name = self._categories[ref]
        self._cm._m[ref][self._index[cats[0]]] += 1
        self._refs.append(ref_name)
        self._classifications.append(classification)
        if self._store_inputs:
            self._inputs.append(input)
        k = len(self._categories)
        # RankedClassifierEvaluator.addRanking: the first rank < k holding the
        # reference, else the last rank k - 1.
        for rank in range(min(k, len(cats))):
            if cats[rank] == ref_name:
                self._rank_counts[ref][rank] += 1
                break
        else:
            self._rank_counts[ref][k - 1] += 1
        # ScoredClassifierEvaluator.addScoring: one (score, match) outcome per
        # rank < k, filed under the ranked category, in case order.
        scores = classification._scores
        for rank in range(min(k, len(cats))):
            c = cats[rank]
            self._outcomes[self._index[c]].append((scores[rank], c == ref_name))

    # -------------------------------------------------------------------- structure

    def numCases(self) -> int:
        """The number of cases added."""
        return len(self._refs)

    def numCategories(self) -> int:
        """The number of categories k."""
        return len(self._categories)

    def categories(self) -> list[str]:
        """A copy of the categories, in the evaluator's order."""
        return list(self._categories)

    # ------------------------------------------------------------------ first-best

    def confusionMatrix(self) -> ConfusionMatrix:
        """The confusion matrix of reference against first-best response.

        The evaluator's own matrix, as in LingPipe: it keeps growing as cases
        are added (and incrementing it changes this evaluator's matrix).
        See :class:`ConfusionMatrix` for its statistics.
        """
        return self._cm

    def oneVersusAll(self, refCategory: str) -> PrecisionRecallEvaluation:
        """First-best ``refCategory`` versus the rest: a new :class:`PrecisionRecallEvaluation`.

        One case per case added: reference positive if the case's reference
        is ``refCategory``, response positive if its first-best category is.

        Raises
        ------
        ValueError
            If ``refCategory`` is not a category.

        Notes
        -----
        Java name: ``oneVersusAll(String)``. O(n).
        """
        self._check_category(refCategory, "ScoredClassifierEvaluator.oneVersusAll", "refCategory")
        ev = PrecisionRecallEvaluation()
        for ref, c in zip(self._refs, self._classifications):
            ev.addCase(bool(ref == refCategory), bool(c._categories[0] == refCategory))
        return ev

    # ------------------------------------------------------------------------ ranks

    def _rank_of(self, classification: ScoredClassification, category: str) -> int:
        # RankedClassifierEvaluator.getRank: first position, else the last rank.
        for rank, c in enumerate(classification._categories):
            if c == category:
                return rank
        return len(self._categories) - 1

    def rankCount(self, referenceCategory: str, rank: int) -> int:
        """The number of cases with reference ``referenceCategory`` whose reference had rank ``rank``.

        A classification that does not rank its reference counts at rank k - 1.

        Raises
        ------
        TypeError, ValueError
            If the category is unknown or ``rank`` is not an int in [0, k)
            (LingPipe: ArrayIndexOutOfBoundsException).

        Notes
        -----
        Java name: ``rankCount(String, int)``. O(1).
        """
        f = "ScoredClassifierEvaluator.rankCount"
        i = self._check_category(referenceCategory, f, "referenceCategory")
        k = len(self._categories)
        if isinstance(rank, (bool, np.bool_)) or not isinstance(rank, (int, np.integer)):
            raise fail(TypeError, f, "rank", f"an int rank in [0, {k})", rank)
        if not 0 <= rank < k:
            raise fail(ValueError, f, "rank", f"a rank in [0, {k}) (numCategories()={k})", rank)
        return self._rank_counts[i][int(rank)]

    def averageRank(self, refCategory: str, responseCategory: str) -> float:
        """Mean rank of ``responseCategory`` over the cases whose reference is ``refCategory``.

        A classification that does not rank ``responseCategory`` counts it at
        rank k - 1. NaN if no case has reference ``refCategory``.

        Raises
        ------
        ValueError
            If either category is unknown.

        Notes
        -----
        Java name: ``averageRank(String, String)``. O(n k).
        """
        f = "ScoredClassifierEvaluator.averageRank"
        self._check_category(refCategory, f, "refCategory")
        self._check_category(responseCategory, f, "responseCategory")
        s = 0.0
        count = 0
        for ref, c in zip(self._refs, self._classifications):
            if ref == refCategory:
                s += self._rank_of(c, responseCategory)
                count += 1
        return div(s, count)

    def averageRankReference(self) -> float:
        """Mean over all cases of the rank of the reference category (0 the best); NaN with no case.

        Notes
        -----
        Java name: ``averageRankReference()``. From the rank counts, O(k^2).
        """
        return self._mean_over_rank_counts(lambda rank, n: rank * n)

    def meanReciprocalRank(self) -> float:
        """Mean over all cases of 1 / (1 + rank of the reference); NaN with no case.

        Notes
        -----
        Java name: ``meanReciprocalRank()``. From the rank counts, O(k^2).
        """
        return self._mean_over_rank_counts(lambda rank, n: float(n) / (1.0 + float(rank)))

    def _mean_over_rank_counts(self, term: Callable[[int, int], float]) -> float:
        """sum of term(rank, n) over the rank counts (LingPipe's order) / the cases counted; NaN with none."""
        s = 0.0
        count = 0
        for row in self._rank_counts:
            for rank, n in enumerate(row):
                if n == 0:
                    continue
                count += n
                s += term(rank, n)
        return div(s, count)

    # ----------------------------------------------------------------------- scores

    def averageScore(self, refCategory: str, responseCategory: str) -> float:
        """Mean score of ``responseCategory`` over the cases whose reference is ``refCategory``.

        Only the cases whose classification ranks ``responseCategory`` count
        (an unranked category has no score). NaN if there are none.

        Raises
        ------
        ValueError
            If either category is unknown.

        Notes
        -----
        Java name: ``averageScore(String, String)``. O(n k).
        """
        f = "ScoredClassifierEvaluator.averageScore"
        self._check_category(refCategory, f, "refCategory")
        self._check_category(responseCategory, f, "responseCategory")
        s = 0.0
        count = 0
        for ref, c in zip(self._refs, self._classifications):
            if ref == refCategory:
                for rank, cat in enumerate(c._categories):
                    if cat == responseCategory:
                        s += c._scores[rank]
                        count += 1
                        break
        return div(s, count)

    def averageScoreReference(self) -> float:
        """Sum over cases of the reference category's score, divided by the number of cases.

        A case whose classification does not rank its reference adds nothing
        to the sum but still counts in the denominator (LingPipe's
        definition). NaN with no case.

        Notes
        -----
        Java name: ``averageScoreReference()``. O(n k).
        """
        s = 0.0
        for ref, c in zip(self._refs, self._classifications):
            for rank, cat in enumerate(c._categories):
                if cat == ref:
                    s += c._scores[rank]
                    break
        return div(s, len(self._refs))

    def scoredOneVersusAll(self, refCategory: str) -> ScoredPrecisionRecallEvaluation:
        """``refCategory`` versus the rest by score: a new LingPipe ``ScoredPrecisionRecallEvaluation``.

        One ``addCase(match, score)`` per case whose classification ranks
        ``refCategory``, in case order: the score it gave ``refCategory``, and
        whether the case's reference is ``refCategory``. Cases that do not
        rank it add nothing (no miss either, as LingPipe). The evaluation is
        of this evaluator's :attr:`version`; equal scores rank in case order.

        Raises
        ------
        ValueError
            If ``refCategory`` is unknown.

        Notes
        -----
        Java name: ``scoredOneVersusAll(String)``. O(m log m) for m cases.
        """
        i = self._check_category(refCategory, "ScoredClassifierEvaluator.scoredOneVersusAll", "refCategory")
        ev = ScoredPrecisionRecallEvaluation(version=self._version)
        for score, match in self._outcomes[i]:
            ev.addCase(match, score)
        return ev

    # ------------------------------------------------------------------ stored cases

    def _cases(self, category: Any, ref_match: bool, resp_match: bool, func: str) -> list[Classified]:
        self._check_category(category, func, "category")
        if not self._store_inputs:
            raise NotImplementedError(
                f"{func}: this evaluator does not store its inputs; create it with "
                f"ScoredClassifierEvaluator(categories, storeInputs=True) to list cases."
            )
        out = []
        for ref, c, x in zip(self._refs, self._classifications, self._inputs):
            if (ref == category) != ref_match or (c._categories[0] == category) != resp_match:
                continue
            out.append(Classified(x, c))
        return out

    def truePositives(self, category: str) -> list[Classified]:
        """Cases with reference and first-best response ``category``, in case order.

        Raises NotImplementedError unless the evaluator stores inputs
        (LingPipe: UnsupportedOperationException); ValueError for an unknown
        category. Java name: ``truePositives(String)``.
        """
        return self._cases(category, True, True, "ScoredClassifierEvaluator.truePositives")

    def falsePositives(self, category: str) -> list[Classified]:
        """Cases with first-best response ``category`` and another reference. See :meth:`truePositives`."""
        return self._cases(category, False, True, "ScoredClassifierEvaluator.falsePositives")

    def falseNegatives(self, category: str) -> list[Classified]:
        """Cases with reference ``category`` and another first-best response. See :meth:`truePositives`."""
        return self._cases(category, True, False, "ScoredClassifierEvaluator.falseNegatives")

    def trueNegatives(self, category: str) -> list[Classified]:
        """Cases with neither reference nor first-best response ``category``. See :meth:`truePositives`."""
        return self._cases(category, False, False, "ScoredClassifierEvaluator.trueNegatives")

    # ------------------------------------------------------------------------- text

    def _category_line(self) -> str:
        return "  " + ",".join(self._categories) + "\n  "

    def toString(self) -> str:
        """LingPipe's text report of the evaluation, character for character.

        ``BASE CLASSIFIER EVALUATION``, the confusion matrix's global
        statistics, ``Average Reference Rank`` and ``Average Score
        Reference``; then per category its first-best one-versus-all report,
        rank histogram, average rank histogram, scored one-versus-all report
        (of this evaluator's :attr:`version`) and average score histogram.
        """
        d = double_to_string
        parts = ["BASE CLASSIFIER EVALUATION\n", "\n".join(self._cm._global_lines()) + "\n"]
        parts.append(f"Average Reference Rank={d(self.averageRankReference())}\n")
        parts.append(f"Average Score Reference={d(self.averageScoreReference())}\n")
        parts.append("\nONE VERSUS ALL EVALUATIONS BY CATEGORY\n")
        for i, cat in enumerate(self._categories):
            parts.append(f"\n\nCATEGORY[{i}]={cat} VERSUS ALL\n")
            parts.append("\nFirst-Best Precision/Recall Evaluation\n")
            parts.append(self.oneVersusAll(cat).toString() + "\n")
            parts.append("Rank Histogram=\n" + self._category_line())
            parts.append(",".join(str(n) for n in self._rank_counts[i]) + "\n")
            parts.append("Average Rank Histogram=\n" + self._category_line())
            parts.append(",".join(d(self.averageRank(cat, other)) for other in self._categories) + "\n")
            parts.append("Scored One Versus All\n")
            parts.append(self.scoredOneVersusAll(cat).toString() + "\n")
            parts.append("Average Score Histogram=\n" + self._category_line())
            parts.append(",".join(d(self.averageScore(cat, other)) for other in self._categories) + "\n")
        return "".join(parts)

    def __str__(self) -> str:
        """The same text as :meth:`toString`."""
        return self.toString()

    def __repr__(self) -> str:
        return (
            f"scored_pr.lingpipe.ScoredClassifierEvaluator(categories={list(self._categories)!r}, "
            f"version={self._version!r}, numCases={self.numCases()})"
        )

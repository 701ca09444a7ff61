"""LingPipe's classifier evaluation: ScoredClassifierEvaluator, ConfusionMatrix, PrecisionRecallEvaluation.

Three kinds of checks: the worked examples of LingPipe's Javadoc (the
seven-case averageRank/rankCount table of RankedClassifierEvaluator, the
27-wine confusion matrix of ConfusionMatrix and its one-versus-all tables in
PrecisionRecallEvaluation, with LingPipe's own unit-test tolerance); slow
literal re-implementations written here (exact fractions) and reference
implementations (scikit-learn, SciPy) on random classifications drawn by
Hypothesis; and the corner cases LingPipe defines (partial rankings take the
last rank, categories never seen as reference give NaN, ties, unknown
categories, numCases).
"""

from __future__ import annotations

import copy
import math
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr.lingpipe import (
    Classified,
    ConfusionMatrix,
    PrecisionRecallEvaluation,
    ScoredClassification,
    ScoredClassifierEvaluator,
    ScoredPrecisionRecallEvaluation,
    double_to_string,
)

# ---------------------------------------------------------------------------
# The seven-case example of RankedClassifierEvaluator.averageRank's Javadoc
# (LingPipe 3.9.2 and 4.1): reference, then the categories at ranks 0, 1, 2.

SEVEN = [
    ("a", ["a", "b", "c"]),
    ("a", ["a", "c", "b"]),
    ("a", ["a", "b", "c"]),
    ("a", ["b", "a", "c"]),
    ("b", ["b", "a", "c"]),
    ("b", ["a", "c", "b"]),
    ("c", ["c", "b", "a"]),
]


def seven_case_evaluator(version: str = "3.9.2") -> ScoredClassifierEvaluator:
    ev = ScoredClassifierEvaluator(["a", "b", "c"], version=version)
    for ref, ranking in SEVEN:
        ev.addClassification(ref, ScoredClassification(ranking, [3.0, 2.0, 1.0]))
    return ev


# The Javadoc's table, "averageRank(ref, resp) = ...".
SEVEN_AVERAGE_RANK = {
    ("a", "a"): 0.25,
    ("a", "b"): 1.00,
    ("a", "c"): 1.75,
    ("b", "a"): 0.50,
    ("b", "b"): 1.0,
    ("b", "c"): 1.5,
    ("c", "a"): 2.0,
    ("c", "b"): 1.0,
    ("c", "c"): 0.0,
}

# rankCount's Javadoc, for the same seven cases.
SEVEN_RANK_COUNT = {
    ("a", 0): 3,
    ("a", 1): 1,
    ("a", 2): 0,
    ("b", 0): 1,
    ("b", 1): 0,
    ("b", 2): 1,
    ("c", 0): 1,
    ("c", 1): 0,
    ("c", 2): 0,
}


@pytest.mark.parametrize(("pair", "expected"), sorted(SEVEN_AVERAGE_RANK.items()))
def test_javadoc_seven_case_average_rank(pair, expected) -> None:
    assert seven_case_evaluator().averageRank(*pair) == expected


@pytest.mark.parametrize(("pair", "expected"), sorted(SEVEN_RANK_COUNT.items()))
def test_javadoc_seven_case_rank_count(pair, expected) -> None:
    assert seven_case_evaluator().rankCount(*pair) == expected


def test_javadoc_seven_case_reference_rank_and_mrr() -> None:
    ev = seven_case_evaluator()
    # "averageRankReference() = (0 + 0 + 0 + 1 + 0 + 2 + 0)/7 ~ 0.43"
    assert ev.averageRankReference() == pytest.approx(3 / 7, rel=1e-15)
    assert round(ev.averageRankReference(), 2) == 0.43
    # "(1/1 + 1/1 + 1/1 + 1/2 + 1/1 + 1/3 + 1/1)/7 ~ 0.83"
    assert ev.meanReciprocalRank() == pytest.approx((5 + 1 / 2 + 1 / 3) / 7, rel=1e-15)
    assert round(ev.meanReciprocalRank(), 2) == 0.83
    assert ev.numCases() == 7


def test_javadoc_seven_case_complete_rankings_sum_to_k_minus_one() -> None:
    # "If every ranked result is complete ..., the sum of the average ranks
    # will be one less than the number of [categories]": 0+1+2 = 3 per reference.
    ev = seven_case_evaluator()
    for ref in "abc":
        assert sum(ev.averageRank(ref, resp) for resp in "abc") == pytest.approx(3.0)


def test_javadoc_seven_case_confusion_matrix_uses_first_column() -> None:
    # "the confusion matrix is computed using only the reference and first column"
    cm = seven_case_evaluator().confusionMatrix()
    assert cm.matrix().tolist() == [[3, 1, 0], [1, 1, 0], [0, 0, 1]]
    assert cm.totalCorrect() == 5 and cm.totalCount() == 7


# ---------------------------------------------------------------------------
# ConfusionMatrix's Javadoc: 27 wines, reference variety by a judge's response.

WINES = ["Cabernet", "Syrah", "Pinot"]
WINE_MATRIX = [[9, 3, 0], [3, 5, 1], [1, 1, 4]]

# The Javadoc's table of no-argument methods, values as printed (4 decimals).
WINE_STATISTICS = {
    "totalAccuracy": 0.6667,
    "confidence95": 0.1778,
    "confidence99": 0.2341,
    "macroAvgPrecision": 0.6826,
    "macroAvgRecall": 0.6574,
    "macroAvgFMeasure": 0.6676,
    "randomAccuracy": 0.3663,
    "kappa": 0.4740,
    "kappaUnbiased": 0.4735,
    "kappaNoPrevalence": 0.3333,
    "referenceEntropy": 1.5305,
    "responseEntropy": 1.4865,
    "crossEntropy": 1.5376,
    "jointEntropy": 2.6197,
    "conditionalEntropy": 1.0892,
    "mutualInformation": 0.3973,
    "klDivergence": 0.007129,
    "chiSquared": 15.5256,
    "phiSquared": 0.5750,
    "cramersV": 0.5362,
    "lambdaA": 0.4000,
    "lambdaB": 0.3571,
}


def wine_matrix() -> ConfusionMatrix:
    return ConfusionMatrix(WINES, WINE_MATRIX)


@pytest.mark.parametrize(("method", "expected"), sorted(WINE_STATISTICS.items()))
def test_javadoc_wine_confusion_matrix_statistics(method, expected) -> None:
    value = getattr(wine_matrix(), method)()
    # Printed to 4 decimals (klDivergence to 6), some rounded and some
    # truncated (conditionalEntropy 1.08926 is printed 1.0892), so within
    # one unit in the last printed place.
    places = 6 if method == "klDivergence" else 4
    assert abs(value - expected) <= 10.0**-places, (method, value)


def test_javadoc_wine_random_accuracy_unbiased_row_is_a_typo() -> None:
    # The Javadoc prints randomAccuracyUnbiased() = 0.3663, the value of the
    # row above it. Its own kappaUnbiased() = 0.4735 = (2/3 - e)/(1 - e)
    # needs e = 0.3669, which is what the formula gives:
    # sum (((ref + resp)/2)^2) = ((12+13)^2 + (9+9)^2 + (6+5)^2) / 54^2.
    cm = wine_matrix()
    assert cm.randomAccuracyUnbiased() == pytest.approx((25**2 + 18**2 + 11**2) / 54**2, rel=1e-15)
    assert round(cm.randomAccuracyUnbiased(), 4) == 0.3669
    e = cm.randomAccuracyUnbiased()
    assert round((2 / 3 - e) / (1 - e), 4) == 0.4735


def test_javadoc_wine_counts_and_conditional_entropies() -> None:
    cm = wine_matrix()
    assert cm.categories() == WINES
    assert cm.numCategories() == 3
    assert cm.totalCount() == 27 and cm.totalCorrect() == 18
    assert cm.chiSquaredDegreesOfFreedom() == 4
    # the Javadoc's per-category table
    for i, expected in enumerate([0.8113, 1.3516, 1.2516]):
        assert abs(cm.conditionalEntropy(i) - expected) <= 0.5e-4
    # "the sum of the cells in each derived matrix is the same as in the original"
    for i in range(3):
        assert cm.oneVsAll(i).total() == 27
        assert cm.oneVsAll(i).truePositive() == WINE_MATRIX[i][i]


def test_javadoc_wine_one_versus_all_and_micro_average_tables() -> None:
    cm = wine_matrix()
    tables = [(cm.oneVsAll(i).truePositive(), cm.oneVsAll(i).falseNegative(),
               cm.oneVsAll(i).falsePositive(), cm.oneVsAll(i).trueNegative()) for i in range(3)]  # fmt: skip
    # Cab-vs-All 9 3 / 4 11, Syrah-vs-All 5 4 / 4 14, Pinot-vs-All 4 2 / 1 20
    assert tables == [(9, 3, 4, 11), (5, 4, 4, 14), (4, 2, 1, 20)]
    micro = cm.microAverage()
    # "Sum of One-vs-All Matrices": 18 9 / 9 45
    assert (micro.truePositive(), micro.falseNegative(), micro.falsePositive(), micro.trueNegative()) == (18, 9, 9, 45)
    # "micro-averaged precision, recall and f-measure will all be the same"
    assert micro.precision() == micro.recall() == micro.fMeasure() == pytest.approx(2 / 3)
    assert micro.correctResponse() == cm.totalCorrect() + 45


# PrecisionRecallEvaluation's Javadoc table for the three one-versus-all
# matrices, checked as LingPipe's own PrecisionRecallEvaluationTest does
# (tolerance 0.001: some printed values are truncated, e.g. 0.5555).
PRE_TABLE = {
    "positiveReference": (12, 9, 6),
    "negativeReference": (15, 18, 21),
    "positiveResponse": (13, 9, 5),
    "negativeResponse": (14, 18, 22),
    "correctResponse": (20, 19, 24),
    "total": (27, 27, 27),
    "accuracy": (0.7407, 0.7037, 0.8889),
    "recall": (0.7500, 0.5555, 0.6666),
    "precision": (0.6923, 0.5555, 0.8000),
    "rejectionRecall": (0.7333, 0.7778, 0.9524),
    "rejectionPrecision": (0.7858, 0.7778, 0.9091),
    "fMeasure": (0.7200, 0.5555, 0.7272),
    "fowlkesMallows": (12.49, 9.00, 5.4772),  # the Javadoc prints 5.48; LingPipe's test expects 5.4772
    "jaccardCoefficient": (0.5625, 0.3846, 0.5714),
    "yulesQ": (0.7838, 0.6279, 0.9512),
    "yulesY": (0.4835, 0.3531, 0.7269),
    "referenceLikelihood": (0.4444, 0.3333, 0.2222),
    "responseLikelihood": (0.4815, 0.3333, 0.1852),
    "randomAccuracy": (0.5021, 0.5556, 0.6749),
    "kappa": (0.4792, 0.3333, 0.6583),
    "randomAccuracyUnbiased": (0.5027, 0.5556, 0.6756),
    "kappaUnbiased": (0.4789, 0.3333, 0.6575),
    "kappaNoPrevalence": (0.4814, 0.4074, 0.7778),
    "chiSquared": (6.2382, 3.0000, 11.8519),
    "phiSquared": (0.2310, 0.1111, 0.4390),
    "accuracyDeviation": (0.0843, 0.0879, 0.0605),
}


@pytest.mark.parametrize("method", sorted(PRE_TABLE))
def test_javadoc_precision_recall_evaluation_table(method) -> None:
    cm = wine_matrix()
    for i, expected in enumerate(PRE_TABLE[method]):
        # the same tables, built three ways: from the matrix, from counts, case by case
        by_counts = PrecisionRecallEvaluation(*[(9, 3, 4, 11), (5, 4, 4, 14), (4, 2, 1, 20)][i])
        by_cases = PrecisionRecallEvaluation()
        for ref, resp, n in [(True, True, by_counts.truePositive()), (True, False, by_counts.falseNegative()),
                             (False, True, by_counts.falsePositive()), (False, False, by_counts.trueNegative())]:  # fmt: skip
            for _ in range(n):
                by_cases.addCase(ref, resp)
        for ev in (cm.oneVsAll(i), by_counts, by_cases):
            value = getattr(ev, method)()
            if isinstance(expected, int):
                assert value == expected
            else:
                assert abs(value - expected) <= 0.001, (method, i, value)


def test_fowlkes_mallows_is_lingpipes_formula_not_the_index() -> None:
    # LingPipe computes TP / sqrt(P * R) (its tests expect 12.49); the
    # Fowlkes-Mallows index of the literature is sqrt(P * R) = 0.7206.
    ev = PrecisionRecallEvaluation(9, 3, 4, 11)
    assert ev.fowlkesMallows() == pytest.approx(9 / math.sqrt((9 / 13) * (9 / 12)), rel=1e-15)


def test_static_and_instance_f_measure() -> None:
    ev = PrecisionRecallEvaluation(9, 3, 4, 11)
    p, r = 9 / 13, 9 / 12
    assert ev.fMeasure() == pytest.approx(2 * p * r / (p + r), rel=1e-15)
    assert ev.fMeasure(2.0) == pytest.approx(5 * p * r / (r + 4 * p), rel=1e-15)
    assert PrecisionRecallEvaluation.fMeasure(2.0, r, p) == ev.fMeasure(2.0)
    assert ev.fMeasure(1.0, r, p) == ev.fMeasure()  # Java lets an instance call the static form
    with pytest.raises(TypeError, match="beta"):
        ev.fMeasure("2")
    with pytest.raises(TypeError, match="static form"):
        PrecisionRecallEvaluation.fMeasure(1.0, 0.5)


def test_precision_recall_evaluation_empty_and_degenerate_values_are_javas() -> None:
    ev = PrecisionRecallEvaluation()
    for m in ("accuracy", "recall", "precision", "rejectionRecall", "rejectionPrecision", "fMeasure",
              "jaccardCoefficient", "chiSquared", "phiSquared", "yulesQ", "yulesY", "fowlkesMallows",
              "referenceLikelihood", "responseLikelihood", "kappa", "accuracyDeviation"):  # fmt: skip
        assert math.isnan(getattr(ev, m)()), m
    # all correct, no negatives: chi squared 0/0 (NaN), rejection recall 0/0,
    # precision 1, kappa (1 - 1)/(1 - 1) = NaN
    ev = PrecisionRecallEvaluation(5, 0, 0, 0)
    assert ev.precision() == 1.0 and ev.recall() == 1.0 and ev.fMeasure() == 1.0
    assert math.isnan(ev.rejectionRecall()) and math.isnan(ev.chiSquared()) and math.isnan(ev.kappa())
    # x/0 with x > 0 is Infinity in Java: yulesQ with FP*FN = 0 and TP*TN = 0 is 0/0,
    # fowlkesMallows with precision 0 is TP/0 = 0/0
    assert math.isnan(PrecisionRecallEvaluation(0, 3, 4, 0).fowlkesMallows())


def test_precision_recall_evaluation_to_string() -> None:
    text = PrecisionRecallEvaluation(4, 2, 1, 20).toString()
    lines = text.split("\n")
    assert lines[0] == "  Total=27"
    assert lines[1:5] == ["  True Positive=4", "  False Negative=2", "  False Positive=1", "  True Negative=20"]
    assert "  Precision=0.8" in lines
    assert "  Recall=0.6666666666666666" in lines
    assert "  Fowlkes-Mallows=5.477225575051661" in lines
    assert lines[-1].startswith("  Accuracy Deviation=0.0604")
    assert len(lines) == 29 and not text.endswith("\n")
    assert str(PrecisionRecallEvaluation()) .split("\n")[9] == "  Accuracy=NaN"


def test_precision_recall_evaluation_rejects_bad_counts_and_flags() -> None:
    with pytest.raises(ValueError, match=r"PrecisionRecallEvaluation: argument 'fp' must be .*got -1"):
        PrecisionRecallEvaluation(1, 2, -1, 3)
    with pytest.raises(TypeError, match="argument 'tn'"):
        PrecisionRecallEvaluation(1, 2, 3, 4.0)  # type: ignore[arg-type]
    ev = PrecisionRecallEvaluation(1, 1, 1, 1)
    with pytest.raises(TypeError, match=r"addCase: argument 'response' must be a bool; got 1 \(int\)"):
        ev.addCase(True, 1)  # type: ignore[arg-type]
    assert repr(ev) == "scored_pr.lingpipe.PrecisionRecallEvaluation(tp=1, fn=1, fp=1, tn=1)"


# ---------------------------------------------------------------------------
# ConfusionMatrix mutators, validation and degenerate values


def test_confusion_matrix_increment_by_name_and_index() -> None:
    cm = ConfusionMatrix(WINES)
    cm.increment("Syrah", "Pinot")
    cm.increment(1, 2)
    cm.incrementByN(0, 0, 5)
    cm.incrementByN(1, 2, -1)
    assert cm.count(1, 2) == 1 and cm.count(0, 0) == 5 and cm.totalCount() == 6
    assert cm.getIndex("Pinot") == 2 and cm.getIndex("Merlot") == -1
    m = cm.matrix()
    m[0, 0] = 99  # a copy
    assert cm.count(0, 0) == 5


def test_confusion_matrix_rejections_change_nothing() -> None:
    cm = wine_matrix()
    before = cm.matrix().tolist()
    with pytest.raises(ValueError, match=r"increment: argument 'response' must be one of the categories .*got 'Merlot'"):
        cm.increment("Syrah", "Merlot")
    with pytest.raises(ValueError, match=r"argument 'reference' must be an index in \[0, 3\).*got 3"):
        cm.increment(3, 0)
    with pytest.raises(ValueError, match=r"incrementByN: argument 'num' must be at least -4 .*got -5"):
        cm.incrementByN(2, 2, -5)
    with pytest.raises(ValueError, match=r"count: argument 'responseCategoryIndex'.*got -1"):
        cm.count(0, -1)
    with pytest.raises(ValueError, match=r"oneVsAll: argument 'categoryIndex'"):
        cm.oneVsAll(7)
    assert cm.matrix().tolist() == before


def test_confusion_matrix_constructor_validation() -> None:
    with pytest.raises(ValueError, match=r"ConfusionMatrix: argument 'categories' must be a list of distinct category names \('a' is also at index 0\); got 'a'.* at index 2"):
        ConfusionMatrix(["a", "b", "a"])
    with pytest.raises(ValueError, match="non-empty"):
        ConfusionMatrix([])
    with pytest.raises(TypeError, match="argument 'categories'"):
        ConfusionMatrix("abc")
    with pytest.raises(ValueError, match=r"argument 'matrix' must be a 2x2 matrix .*got 3 entries in row 1"):
        ConfusionMatrix(["a", "b"], [[1, 2], [3, 4, 5]])
    with pytest.raises(ValueError, match=r"got -1 at \[0\]\[1\]"):
        ConfusionMatrix(["a", "b"], [[1, -1], [3, 4]])
    with pytest.raises(TypeError, match=r"got 1.5 \(float\) at \[1\]\[0\]"):
        ConfusionMatrix(["a", "b"], [[1, 1], [1.5, 4]])
    assert ConfusionMatrix(["a", "b"], np.array([[1, 2], [3, 4]])).matrix().tolist() == [[1, 2], [3, 4]]


def test_confusion_matrix_degenerate_values_follow_java() -> None:
    empty = ConfusionMatrix(["a", "b"])
    for m in ("totalAccuracy", "macroAvgPrecision", "kappa", "referenceEntropy", "jointEntropy",
              "chiSquared", "lambdaA", "lambdaB", "confidence95", "mutualInformation"):  # fmt: skip
        assert math.isnan(getattr(empty, m)()), m
    # A category never seen as reference: its reference likelihood is 0 and
    # LingPipe's 0 * log2(0) is NaN (no 0 log 0 = 0 convention there), while
    # jointEntropy skips zero cells.
    cm = ConfusionMatrix(["a", "b", "c"], [[2, 1, 0], [1, 3, 0], [0, 0, 0]])
    assert math.isnan(cm.referenceEntropy()) and math.isnan(cm.responseEntropy())
    assert math.isnan(cm.macroAvgPrecision())  # c is never a response: 0/0
    assert math.isnan(cm.conditionalEntropy(2)) and math.isnan(cm.conditionalEntropy())
    assert cm.jointEntropy() == pytest.approx(-sum(p * math.log2(p) for p in (2 / 7, 1 / 7, 1 / 7, 3 / 7)))
    assert math.isnan(cm.chiSquared())  # expected counts 0 in row c: 0/0
    # One category: LingPipe's chiSquared throws; NaN here.
    one = ConfusionMatrix(["a"], [[4]])
    assert one.totalAccuracy() == 1.0 and math.isnan(one.chiSquared()) and math.isnan(one.cramersV())
    assert one.chiSquaredDegreesOfFreedom() == 0


def test_confusion_matrix_to_string_layout() -> None:
    text = wine_matrix().toString()
    lines = text.split("\n")
    assert lines[:9] == [
        "GLOBAL CONFUSION MATRIX STATISTICS",
        "Categories=[Cabernet, Syrah, Pinot]",
        "Total Count=27",
        "Total Correct=18",
        "Total Accuracy=0.6666666666666666",
        "95% Confidence Interval=0.6666666666666666 +/- 0.17781481095759366",
        "Confusion Matrix",
        "reference \\ response",
        "  ,Cabernet,Syrah,Pinot",
    ]
    assert lines[9:12] == ["  Cabernet,9,3,0", "  Syrah,3,5,1", "  Pinot,1,1,4"]
    assert "chi-Squared Degrees of Freedom=4" in lines
    assert "kappa No Prevalence =0.33333333333333326" in lines
    assert "CATEGORY 2=Pinot VS. ALL" in lines
    p = 24 / 27  # Pinot-vs-All accuracy: the last table printed
    assert text.endswith("  Accuracy Deviation=" + double_to_string(math.sqrt(p * (1.0 - p) / 27)) + "\n")


# ---------------------------------------------------------------------------
# Corner cases of the evaluator


def cls(categories, scores=None) -> ScoredClassification:
    if scores is None:
        scores = [float(len(categories) - i) for i in range(len(categories))]
    return ScoredClassification(categories, scores)


def test_partial_ranking_takes_the_last_rank() -> None:
    ev = ScoredClassifierEvaluator(["a", "b", "c", "d"])
    ev.addClassification("c", cls(["a", "b"]))  # c unranked: rank 3 = k - 1
    ev.addClassification("c", cls(["c"]))
    assert ev.rankCount("c", 3) == 1 and ev.rankCount("c", 0) == 1
    assert ev.rankCount("c", 2) == 0
    assert ev.averageRank("c", "c") == (3 + 0) / 2
    assert ev.averageRank("c", "d") == (3 + 3) / 2  # never ranked: last rank both times
    assert ev.averageRank("c", "a") == (0 + 3) / 2
    assert ev.averageRankReference() == 1.5
    assert ev.meanReciprocalRank() == (1 / 4 + 1) / 2
    # scores: only the cases that rank the category count ...
    assert ev.averageScore("c", "c") == 1.0
    assert ev.averageScore("c", "a") == 2.0
    assert math.isnan(ev.averageScore("c", "d"))
    # ... but averageScoreReference divides by every case (LingPipe's definition)
    assert ev.averageScoreReference() == (0.0 + 1.0) / 2
    # scoredOneVersusAll("c") holds only the case that ranked c, and no miss
    sova = ev.scoredOneVersusAll("c")
    assert sova.numCases() == 1 and sova.evaluation.num_positive_ref == 1


def test_categories_never_seen_as_reference_give_nan() -> None:
    ev = ScoredClassifierEvaluator(["a", "b", "c"])
    ev.addClassification("a", cls(["b", "a", "c"]))
    for resp in "abc":
        assert math.isnan(ev.averageRank("c", resp))
        assert math.isnan(ev.averageScore("c", resp))
    assert [ev.rankCount("c", r) for r in range(3)] == [0, 0, 0]
    assert ev.averageRank("a", "a") == 1.0
    cm = ev.confusionMatrix()
    assert math.isnan(cm.oneVsAll(2).recall()) and math.isnan(ev.oneVersusAll("c").recall())


def test_empty_evaluator_values() -> None:
    ev = ScoredClassifierEvaluator(["a", "b"])
    assert ev.numCases() == 0
    for v in (ev.averageRankReference(), ev.meanReciprocalRank(), ev.averageScoreReference(),
              ev.averageRank("a", "b"), ev.averageScore("a", "a")):  # fmt: skip
        assert math.isnan(v)
    assert ev.scoredOneVersusAll("a").numCases() == 0
    assert ev.oneVersusAll("a").total() == 0
    assert ev.confusionMatrix().totalCount() == 0


def test_ties_keep_the_classification_order() -> None:
    ev = ScoredClassifierEvaluator(["a", "b", "c"])
    ev.addClassification("b", ScoredClassification(["a", "b", "c"], [1.0, 1.0, 1.0]))
    ev.addClassification("a", ScoredClassification(["c", "a", "b"], [0.5, 0.5, 0.0]))
    # ranks are positions, equal scores notwithstanding
    assert ev.rankCount("b", 1) == 1 and ev.rankCount("a", 1) == 1
    assert ev.confusionMatrix().count(1, 0) == 1  # first-best of a tie: rank 0
    # scored one versus all: equal scores rank in case order (as LingPipe's stable sort)
    sova = ev.scoredOneVersusAll("a")
    ref = ScoredPrecisionRecallEvaluation()
    ref.addCase(False, 1.0)
    ref.addCase(True, 0.5)
    assert sova.toString() == ref.toString()


def test_equal_scores_across_cases_rank_in_case_order() -> None:
    ev = ScoredClassifierEvaluator(["a", "b"])
    ev.addClassification("b", ScoredClassification(["a", "b"], [0.5, 0.1]))
    ev.addClassification("a", ScoredClassification(["a", "b"], [0.5, 0.1]))
    assert ev.scoredOneVersusAll("a").reciprocalRank() == 0.5
    ev2 = ScoredClassifierEvaluator(["a", "b"])
    ev2.addClassification("a", ScoredClassification(["a", "b"], [0.5, 0.1]))
    ev2.addClassification("b", ScoredClassification(["a", "b"], [0.5, 0.1]))
    assert ev2.scoredOneVersusAll("a").reciprocalRank() == 1.0


def test_unknown_categories_are_value_errors_naming_argument_and_value() -> None:
    ev = seven_case_evaluator()
    state = ev.toString()
    calls = [
        (lambda: ev.addClassification("z", cls(["a"])), "addClassification: argument 'referenceCategory'", "'z'"),
        (lambda: ev.addClassification("a", cls(["a", "zz"])), "argument 'classification' must rank only", "'zz' at rank 1"),
        (lambda: ev.averageRank("a", "q"), "averageRank: argument 'responseCategory'", "'q'"),
        (lambda: ev.averageRank("q", "a"), "averageRank: argument 'refCategory'", "'q'"),
        (lambda: ev.averageScore("a", "q"), "averageScore: argument 'responseCategory'", "'q'"),
        (lambda: ev.rankCount("q", 0), "rankCount: argument 'referenceCategory'", "'q'"),
        (lambda: ev.rankCount("a", 3), "rankCount: argument 'rank' must be a rank in [0, 3)", "got 3"),
        (lambda: ev.scoredOneVersusAll("q"), "scoredOneVersusAll: argument 'refCategory'", "'q'"),
        (lambda: ev.oneVersusAll("q"), "oneVersusAll: argument 'refCategory'", "'q'"),
        (lambda: ev.addClassification("a", cls([])), "argument 'classification' must be a classification ranking at least one", "ScoredClassification([], [])"),
    ]
    for call, where, what in calls:
        with pytest.raises(ValueError) as info:
            call()
        assert where in str(info.value) and what in str(info.value), str(info.value)
    with pytest.raises(TypeError, match=r"argument 'classification' must be a scored_pr.lingpipe.ScoredClassification; got \['a'\]"):
        ev.addClassification("a", ["a"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rankCount: argument 'rank'"):
        ev.rankCount("a", 1.0)  # type: ignore[arg-type]
    # a rejected call changes nothing
    assert ev.numCases() == 7 and ev.toString() == state


def test_scored_classification_validation() -> None:
    with pytest.raises(ValueError, match=r"'scores' must be in non-increasing order .*scores\[1\]=0.2 < scores\[2\]=0.3"):
        ScoredClassification(["a", "b", "c"], [0.5, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"same length; got 2 categories and 1 scores"):
        ScoredClassification(["a", "b"], [0.5])
    with pytest.raises(ValueError, match=r"argument 'scores' must be a real number, not NaN; got nan .* at index 1"):
        ScoredClassification(["a", "b"], [0.5, float("nan")])
    with pytest.raises(ValueError, match=r"\('a' is also at rank 0\); got 'a' \(str\) at index 1"):
        ScoredClassification(["a", "a"], [0.5, 0.4])
    with pytest.raises(TypeError, match=r"argument 'categories'.*got 3 \(int\) at index 1"):
        ScoredClassification(["a", 3], [0.5, 0.4])  # type: ignore[list-item]
    c = ScoredClassification(["x", "y"], [float("inf"), -float("inf")])
    assert c.score(0) == math.inf and c.bestCategory() == "x"
    with pytest.raises(ValueError, match=r"category: argument 'rank' must be a rank in \[0, 2\)"):
        c.category(2)
    assert ScoredClassification([], []).bestCategory() is None
    assert ScoredClassification.create([("b", 1.0), ("a", 2.0), ("c", 1.0)]) == ScoredClassification(["a", "b", "c"], [2.0, 1.0, 1.0])
    assert c.toString() == "Rank  Category  Score\n0=x Infinity\n1=y -Infinity\n"


def test_constructor_validation() -> None:
    with pytest.raises(ValueError, match="ScoredClassifierEvaluator: argument 'version'"):
        ScoredClassifierEvaluator(["a"], version="4.0")
    with pytest.raises(TypeError, match="argument 'storeInputs' must be a bool"):
        ScoredClassifierEvaluator(["a"], 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="distinct"):
        ScoredClassifierEvaluator(["a", "a"])
    assert ScoredClassifierEvaluator(["a"], version="4.1.0").version == "4.1"


def test_stored_cases() -> None:
    ev = ScoredClassifierEvaluator(["a", "b"], storeInputs=True)
    ev.addClassification("a", cls(["a", "b"]), "x1")
    ev.addClassification("a", cls(["b", "a"]), "x2")
    ev.addClassification("b", cls(["b", "a"]), "x3")
    ev.addClassification("b", cls(["a", "b"]), "x4")
    assert [c.input for c in ev.truePositives("a")] == ["x1"]
    assert [c.input for c in ev.falseNegatives("a")] == ["x2"]
    assert [c.input for c in ev.trueNegatives("a")] == ["x3"]
    assert [c.input for c in ev.falsePositives("a")] == ["x4"]
    assert ev.falsePositives("a")[0] == Classified("x4", cls(["a", "b"]))
    plain = ScoredClassifierEvaluator(["a", "b"])
    plain.addClassification("a", cls(["a", "b"]), "ignored")
    with pytest.raises(NotImplementedError, match="storeInputs=True"):
        plain.truePositives("a")


def test_confusion_matrix_is_the_live_one_as_in_lingpipe() -> None:
    ev = ScoredClassifierEvaluator(["a", "b"])
    cm = ev.confusionMatrix()
    ev.addClassification("a", cls(["b", "a"]))
    assert cm.count(0, 1) == 1 and ev.confusionMatrix() is cm


def test_evaluator_to_string_layout() -> None:
    ev = seven_case_evaluator()
    text = ev.toString()
    assert text.startswith("BASE CLASSIFIER EVALUATION\nCategories=[a, b, c]\nTotal Count=7\n")
    assert "\nAverage Reference Rank=0.42857142857142855\nAverage Score Reference=2.5714285714285716\n" in text
    assert "\nONE VERSUS ALL EVALUATIONS BY CATEGORY\n\n\nCATEGORY[0]=a VERSUS ALL\n\nFirst-Best Precision/Recall Evaluation\n  Total=7\n" in text
    assert "Rank Histogram=\n  a,b,c\n  3,1,0\n" in text
    assert "Average Rank Histogram=\n  a,b,c\n  0.25,1.0,1.75\n" in text
    assert "Average Rank Histogram=\n  a,b,c\n  2.0,1.0,0.0\n" in text
    assert "Scored One Versus All\n" + ev.scoredOneVersusAll("c").toString() + "\n" in text
    assert text.endswith("Average Score Histogram=\n  a,b,c\n  1.0,2.0,3.0\n")
    assert str(ev) == text


def test_pickle_and_deepcopy_keep_every_statistic() -> None:
    ev = seven_case_evaluator()
    for clone in (pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev)):
        assert clone.toString() == ev.toString()
        clone.addClassification("a", cls(["a", "b", "c"]))
        assert clone.numCases() == 8 and ev.numCases() == 7


# ---------------------------------------------------------------------------
# Random classifications: literal references written here, scikit-learn, SciPy


@st.composite
def evaluations(draw):
    k = draw(st.integers(min_value=2, max_value=5))
    cats = [f"c{i}" for i in range(k)]
    n = draw(st.integers(min_value=0, max_value=25))
    cases = []
    for _ in range(n):
        ref = draw(st.sampled_from(cats))
        ranking = draw(st.permutations(cats))
        size = draw(st.integers(min_value=1, max_value=k))
        # small integer scores: ties within and across cases are frequent
        scores = sorted(draw(st.lists(st.integers(-3, 3), min_size=size, max_size=size)), reverse=True)
        cases.append((ref, list(ranking[:size]), [float(s) for s in scores]))
    return cats, cases


def build(cats, cases, version="3.9.2") -> ScoredClassifierEvaluator:
    ev = ScoredClassifierEvaluator(cats, version=version)
    for ref, ranking, scores in cases:
        ev.addClassification(ref, ScoredClassification(ranking, scores))
    return ev


def literal_rank(cats, ranking, category):
    """LingPipe's rank: the position, or the last rank when the category is not ranked."""
    return ranking.index(category) if category in ranking else len(cats) - 1


def literal_mean(values):
    return float(sum(values, Fraction(0)) / len(values)) if values else math.nan


def close(actual, expected, rel=1e-12, abs_tol=0.0) -> bool:
    if math.isnan(expected):
        return math.isnan(actual)
    return math.isclose(actual, expected, rel_tol=rel, abs_tol=abs_tol)


@settings(max_examples=150, deadline=None)
@given(evaluations())
def test_rank_and_score_statistics_match_a_literal_reimplementation(data) -> None:
    cats, cases = data
    ev = build(cats, cases)
    assert ev.numCases() == len(cases)
    assert ev.categories() == cats and ev.numCategories() == len(cats)
    for ref in cats:
        mine = [c for c in cases if c[0] == ref]
        for rank in range(len(cats)):
            assert ev.rankCount(ref, rank) == sum(1 for c in mine if literal_rank(cats, c[1], ref) == rank)
        for resp in cats:
            expected = literal_mean([Fraction(literal_rank(cats, c[1], resp)) for c in mine])
            assert close(ev.averageRank(ref, resp), expected)
            scores = [Fraction(c[2][c[1].index(resp)]) for c in mine if resp in c[1]]
            assert close(ev.averageScore(ref, resp), literal_mean(scores))
    ranks = [literal_rank(cats, r, ref) for ref, r, _ in cases]
    assert close(ev.averageRankReference(), literal_mean([Fraction(r) for r in ranks]))
    assert close(ev.meanReciprocalRank(), literal_mean([Fraction(1, 1 + r) for r in ranks]))
    ref_scores = [Fraction(s[r.index(ref)]) if ref in r else Fraction(0) for ref, r, s in cases]
    assert close(ev.averageScoreReference(), literal_mean(ref_scores))


@settings(max_examples=150, deadline=None)
@given(evaluations(), st.sampled_from(["3.9.2", "4.1"]))
def test_scored_one_versus_all_is_the_compatibility_class_fed_the_same_pairs(data, version) -> None:
    cats, cases = data
    ev = build(cats, cases, version)
    for cat in cats:
        expected = ScoredPrecisionRecallEvaluation(version=version)
        for ref, ranking, scores in cases:  # case order
            if cat in ranking:
                expected.addCase(ref == cat, scores[ranking.index(cat)])
        got = ev.scoredOneVersusAll(cat)
        assert isinstance(got, ScoredPrecisionRecallEvaluation) and got.version == expected.version
        assert got.numCases() == expected.numCases()
        assert got.toString() == expected.toString()
        for interpolate in (False, True):
            assert np.array_equal(got.prCurve(interpolate), expected.prCurve(interpolate), equal_nan=True)
            assert np.array_equal(got.rocCurve(interpolate), expected.rocCurve(interpolate), equal_nan=True)
        a, b = got.averagePrecision(), expected.averagePrecision()
        assert a == b or (math.isnan(a) and math.isnan(b))
        # a fresh evaluation per call, as LingPipe
        assert ev.scoredOneVersusAll(cat) is not got


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@settings(max_examples=150, deadline=None)
@given(evaluations())
def test_first_best_statistics_match_scikit_learn(data) -> None:
    from sklearn.metrics import accuracy_score, cohen_kappa_score, confusion_matrix, precision_recall_fscore_support

    cats, cases = data
    ev = build(cats, cases)
    cm = ev.confusionMatrix()
    y_true = [ref for ref, _, _ in cases]
    y_pred = [r[0] for _, r, _ in cases]
    if not cases:
        assert cm.totalCount() == 0 and math.isnan(cm.totalAccuracy())
        return
    assert cm.matrix().tolist() == confusion_matrix(y_true, y_pred, labels=cats).tolist()
    assert close(cm.totalAccuracy(), accuracy_score(y_true, y_pred))
    p, r, f, support = precision_recall_fscore_support(y_true, y_pred, labels=cats, zero_division=np.nan)
    for i, cat in enumerate(cats):
        one = ev.oneVersusAll(cat)
        assert one == cm.oneVsAll(i)
        assert one.positiveReference() == support[i]
        assert close(one.precision(), p[i]) and close(one.recall(), r[i])
        if not (math.isnan(p[i]) or math.isnan(r[i])):
            assert close(one.fMeasure(), f[i]) or (p[i] == r[i] == 0 and math.isnan(one.fMeasure()))
    # macro averages: NaN as soon as one category's value is NaN (LingPipe sums them)
    assert close(cm.macroAvgPrecision(), float(np.mean(p)))
    assert close(cm.macroAvgRecall(), float(np.mean(r)))
    expected_kappa = cohen_kappa_score(y_true, y_pred, labels=cats)
    if cm.randomAccuracy() != 1.0:
        assert close(cm.kappa(), expected_kappa, rel=1e-9, abs_tol=1e-12)  # kappa lies in [-1, 1]: po == pe rounds to ~1e-16, not 0
    micro = cm.microAverage()
    assert micro.truePositive() == cm.totalCorrect() == sum(1 for a, b in zip(y_true, y_pred) if a == b)
    assert micro.total() == len(cats) * len(cases)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.lists(st.lists(st.integers(0, 6), min_size=k, max_size=k), min_size=k, max_size=k)))
def test_confusion_matrix_information_statistics_match_scipy_and_sklearn(matrix) -> None:
    from scipy.stats import chi2_contingency, entropy
    from sklearn.metrics import mutual_info_score

    k = len(matrix)
    cm = ConfusionMatrix([f"c{i}" for i in range(k)], matrix)
    m = np.array(matrix, dtype=float)
    total = m.sum()
    if total == 0:
        # every P(i,j) is 0/0 = NaN, which LingPipe's "p <= 0" test does not skip
        assert math.isnan(cm.jointEntropy()) and math.isnan(cm.totalAccuracy())
        return
    rows, cols = m.sum(axis=1) / total, m.sum(axis=0) / total
    assert close(cm.jointEntropy(), float(entropy(m.ravel(), base=2)), rel=1e-9)
    if (rows > 0).all():
        assert close(cm.referenceEntropy(), float(entropy(rows, base=2)), rel=1e-9)
        cond = [float(entropy(m[i], base=2)) for i in range(k)]
        assert close(cm.conditionalEntropy(), float(np.dot(rows, cond)), rel=1e-9)
    else:
        assert math.isnan(cm.referenceEntropy())
    if (cols > 0).all():
        assert close(cm.responseEntropy(), float(entropy(cols, base=2)), rel=1e-9)
    else:
        assert math.isnan(cm.responseEntropy())
    if (rows > 0).all() and (cols > 0).all():
        assert close(cm.klDivergence(), float(entropy(rows, cols, base=2)), rel=1e-9, abs_tol=1e-12)
    # mutual information from the cells, in bits (scikit-learn's is in nats)
    labels_true = np.repeat(np.arange(k).repeat(k), m.ravel().astype(int))
    labels_pred = np.repeat(np.tile(np.arange(k), k), m.ravel().astype(int))
    assert math.isclose(cm.mutualInformation(), mutual_info_score(labels_true, labels_pred) / math.log(2), rel_tol=1e-9, abs_tol=1e-12)
    if (rows > 0).all() and (cols > 0).all():
        stat = chi2_contingency(m, correction=False).statistic
        assert close(cm.chiSquared(), float(stat), rel=1e-9)
        assert close(cm.cramersV(), math.sqrt(float(stat) / total / (k - 1)), rel=1e-9)
    else:
        assert math.isnan(cm.chiSquared())
    # lambdas, literally
    max_row = m.sum(axis=1).max()
    max_col = m.sum(axis=0).max()
    expected_a = (m.max(axis=0).sum() - max_row) / (total - max_row) if total != max_row else math.nan
    expected_b = (m.max(axis=1).sum() - max_col) / (total - max_col) if total != max_col else math.nan
    assert close(cm.lambdaA(), expected_a) and close(cm.lambdaB(), expected_b)

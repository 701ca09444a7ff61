"""scored_pr.spark.evaluate and scored_pr.dask.evaluate against the exact evaluator fed the same rows.

Each engine ranks the rows bucket by bucket in its workers; every value of
``summary()`` must equal ``ScoredPrecisionRecallEvaluation(ties="grouped")``:
the unweighted ROC areas, max F and the rank-based measures bit for bit, the
sums within 1e-12 relative. The bounded mode's certified intervals must hold
the exact values. One SparkSession and one LocalCluster serve every test
(conftest.py); the cases are few and small, as each evaluation runs several
cluster jobs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from scored_pr import BoundedEvaluation, DistributedEvaluation, ScoredPrecisionRecallEvaluation, UnsupportedQuery

pd = pytest.importorskip("pandas")

#: Exact in both engines' arithmetic: computed from the same integers by the same float operations.
BIT_EXACT = {
    "num_cases", "num_positive_ref", "num_negative_ref", "num_misses", "maximum_f_measure", "pr_breakeven_point",
    "reciprocal_rank", "r_precision", "precision_at_5", "precision_at_10", "precision_at_25", "precision_at_100",
    "precision_at_500",
}


def frame(seed: int, n: int, *, weights: bool = False, ties: int = 2, labels: str = "bool") -> Any:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, ties - 1)  # tie groups holding both classes
    s[: n // 10] = 0.0  # a heavy tie group...
    s[n // 10 : n // 8] = -0.0  # ... with its negative zeros
    data = {"id": np.arange(n), "label": y, "score": s}
    if labels == "int":
        data["label"] = np.where(y, 1, -1)
    elif labels == "str":
        data["label"] = np.where(y, "spam", "ham")
    if weights:
        data["w"] = rng.choice([0.0, 0.5, 1.0, 2.0], size=n)
    return pd.DataFrame(data), y, s, (data["w"] if weights else None)


def reference(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, misses: int) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(y, s, w)
    if misses:
        ev.add_misses(misses)
    return ev


def assert_same(got: DistributedEvaluation, ev: ScoredPrecisionRecallEvaluation) -> None:
    assert isinstance(got, DistributedEvaluation)
    a, b = got.summary(), ev.summary()
    assert list(a) == list(b)
    for key, want in b.items():
        have = a[key]
        if math.isnan(want):
            assert math.isnan(have), key
        elif key in BIT_EXACT or (key.startswith("area_under_roc") and not ev.weighted):
            assert have == want, (key, have, want)
        else:
            assert abs(have - want) <= 1e-12 * abs(want), (key, have, want)
    for i in (False, True):  # every row of the returned curves is a row of the exact curve
        exact = {tuple(r) for r in ev.pr_score_curve(i).tolist()}
        rows = got.pr_score_curve(i).tolist()
        assert (rows or not exact) and all(tuple(r) in exact or _near(r, exact) for r in rows)
    assert got.pr_score_curve(True).shape == ev.pr_score_curve(True).shape
    np.testing.assert_allclose(got.roc_curve(True), ev.roc_curve(True), rtol=1e-12)


def _near(row: list[float], rows: set[tuple[float, ...]]) -> bool:
    return any(np.allclose(row, r, rtol=1e-12) for r in rows)


def assert_bounds_hold(summary: BoundedEvaluation, ev: ScoredPrecisionRecallEvaluation) -> None:
    assert isinstance(summary, BoundedEvaluation)
    assert summary.num_cases == ev.num_cases and summary.num_positive_ref == ev.num_positive_ref
    for name in ("area_under_roc_curve", "average_precision", "maximum_f_measure"):
        b, want = getattr(summary, name)(), getattr(ev, name)()
        assert b.lower - 1e-12 <= want <= b.upper + 1e-12, (name, b.lower, want, b.upper)


# ----------------------------------------------------------------------------- Spark

CASES = [
    # (seed, rows, weights, misses, labels, pos_label, partitioning)
    (1, 3000, False, 0, "bool", None, "even"),
    (2, 2500, False, 7, "int", None, "skewed"),
    (3, 2000, True, 2, "str", "spam", "empty"),
    (4, 40, False, 0, "bool", None, "empty"),
]


def spark_frame(spark: Any, pdf: Any, partitioning: str) -> Any:
    from pyspark.sql import functions as F

    df = spark.createDataFrame(pdf)
    if partitioning == "skewed":  # most rows in one partition
        return df.repartition(4, F.when(F.col("id") % 10 < 8, F.lit(0)).otherwise(F.col("id") % 4))
    if partitioning == "empty":  # more partitions than rows land in
        return df.repartitionByRange(12, F.col("id") % 5)
    return df.repartition(3)


@pytest.mark.parametrize("seed,n,weights,misses,labels,pos_label,partitioning", CASES)
def test_spark_exact_equals_the_evaluator(spark: Any, seed, n, weights, misses, labels, pos_label, partitioning) -> None:
    from scored_pr.spark import evaluate

    pdf, y, s, w = frame(seed, n, weights=weights, labels=labels)
    df = spark_frame(spark, pdf, partitioning)
    got = evaluate(df, "label", "score", weight_col="w" if weights else None, pos_label=pos_label, misses=misses,
                   partitions=3, ranks=(7,))
    ev = reference(y, s, w, misses)
    assert_same(got, ev)
    if not ev.weighted:
        assert got.precision_at(7) == ev.precision_at(7) and got.recall_at(7) == ev.recall_at(7)
        assert abs(got.average_precision_at(7) - ev.average_precision_at(7)) <= 1e-12
        assert got.f_measure_at(500) == ev.f_measure_at(500)
        with pytest.raises(UnsupportedQuery, match="rank 8 was not computed"):
            got.precision_at(8)


def test_spark_bounded_holds_the_exact_values(spark: Any) -> None:
    from scored_pr.spark import evaluate

    pdf, y, s, _ = frame(5, 4000, ties=0)
    got = evaluate(spark_frame(spark, pdf, "skewed"), misses=3, mode="bounded", max_bins=64)
    assert not got.exact  # 4,000 distinct scores in 64 bins: bounds, not values
    assert_bounds_hold(got, reference(y, s, None, 3))


def test_spark_bad_columns_and_rows_are_named(spark: Any) -> None:
    from scored_pr.spark import evaluate

    pdf, _, _, _ = frame(6, 50)
    df = spark.createDataFrame(pdf)
    with pytest.raises(ValueError, match="argument 'score_col' must be a column of the DataFrame.*'prob'"):
        evaluate(df, "label", "prob")
    with pytest.raises(ValueError, match="argument 'weight_col'"):
        evaluate(df, weight_col="weight")
    with pytest.raises(TypeError, match="column 'label' \\(argument 'label_col'\\)"):
        evaluate(spark.createDataFrame(pdf.assign(label=np.where(pdf.label, "a", "b"))))
    with pytest.raises(ValueError, match="column 'score' \\(argument 'score_col'\\) must hold numbers.*2 rows"):
        evaluate(spark.createDataFrame(pdf.assign(score=np.where(pdf.id < 2, np.nan, pdf.score))))
    with pytest.raises(ValueError, match="column 'label' \\(argument 'label_col'\\).*1 row does not.*'2'"):
        evaluate(spark.createDataFrame(pdf.assign(label=np.where(pdf.id == 3, 2, pdf.label.astype(int)))))
    with pytest.raises(ValueError, match="argument 'mode'"):
        evaluate(df, mode="fast")
    with pytest.raises(TypeError, match="argument 'df' must be a pyspark.sql.DataFrame"):
        evaluate(pdf)


def test_spark_empty_frame(spark: Any) -> None:
    from scored_pr.spark import evaluate

    pdf, _, _, _ = frame(7, 10)
    got = evaluate(spark.createDataFrame(pdf).limit(0), misses=2)
    ev = reference(np.zeros(0, bool), np.zeros(0), None, 2)
    a, b = got.summary(), ev.summary()
    assert all((math.isnan(a[k]) and math.isnan(b[k])) or a[k] == b[k] for k in b)


# ------------------------------------------------------------------------------ Dask


@pytest.mark.parametrize("seed,n,weights,misses,labels,pos_label", [
    (11, 5000, False, 0, "bool", None), (12, 4000, True, 3, "int", None), (13, 3000, False, 5, "str", "spam"),
    (14, 30, False, 1, "bool", None),
])
def test_dask_exact_equals_the_evaluator(dask_client: Any, seed, n, weights, misses, labels, pos_label) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, y, s, w = frame(seed, n, weights=weights, labels=labels)
    # uneven partitions, one empty: 0, 2, n/2 - 2 and n/2 rows
    cuts = [pdf.iloc[:0], pdf.iloc[:2], pdf.iloc[2 : n // 2], pdf.iloc[n // 2 :]]
    ddf = dd.concat([dd.from_pandas(c, npartitions=1, sort=False) for c in cuts])
    assert ddf.npartitions == 4
    got = evaluate(ddf, "label", "score", weight_col="w" if weights else None, pos_label=pos_label, misses=misses,
                   ranks=(7,), partitions=3)
    ev = reference(y, s, w, misses)
    assert_same(got, ev)


def test_dask_bounded_holds_the_exact_values(dask_client: Any) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, y, s, _ = frame(15, 6000, ties=0)
    got = evaluate(dd.from_pandas(pdf, npartitions=4), misses=2, mode="bounded", max_bins=64)
    assert_bounds_hold(got, reference(y, s, None, 2))


def test_dask_bad_columns_and_rows_are_named(dask_client: Any) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, _, _, _ = frame(16, 50)
    ddf = dd.from_pandas(pdf, npartitions=2)
    with pytest.raises(ValueError, match="argument 'label_col' must be a column of the DataFrame.*'y'"):
        evaluate(ddf, "y", "score")
    with pytest.raises(ValueError, match="column 'score' \\(argument 'score_col'\\).*3 rows"):
        evaluate(dd.from_pandas(pdf.assign(score=np.where(pdf.id < 3, np.nan, pdf.score)), npartitions=2))
    with pytest.raises(ValueError, match="column 'w' \\(argument 'weight_col'\\)"):
        evaluate(dd.from_pandas(pdf.assign(w=-1.0), npartitions=2), weight_col="w")
    with pytest.raises(TypeError, match="argument 'ddf'"):
        evaluate(pdf)


def test_the_result_refuses_what_it_cannot_answer(dask_client: Any) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, _, _, _ = frame(17, 200)
    got = evaluate(dd.from_pandas(pdf, npartitions=2))
    for call in (lambda: got.confidence_interval(), lambda: got.add_case(True, 0.5), lambda: got.save("x.npz"),
                 lambda: got.precision_at_threshold(0.5), lambda: got.area_under_roc_curve(max_fpr=0.5),
                 lambda: got.maximum_f_measure(2.0), lambda: got.average_precision(ties="stable")):
        with pytest.raises(UnsupportedQuery, match="DistributedEvaluation"):
            call()
    assert repr(got).startswith("DistributedEvaluation(engine='dask', num_cases=200")


# -------------------------------------------------------------------------- per query


def query_frame(seed: int, n: int) -> tuple[Any, Any]:
    from scored_pr import MultiQueryEvaluation

    rng = np.random.default_rng(seed)
    q = rng.integers(0, 40, size=n)
    y = rng.random(n) < 0.2
    y[q == 3] = False  # a query without a relevant row
    s = np.round(rng.normal(size=n) + y, 1)
    ref = MultiQueryEvaluation()
    for query in np.unique(q):
        m = q == query
        ref.add_cases(int(query), y[m], s[m])
    return pd.DataFrame({"query": q, "label": y, "score": s}), ref


def assert_same_means(got: Any, ref: Any) -> None:
    a, b = got.summary(), ref.summary()
    assert list(a) == list(b)
    for key, want in b.items():
        assert abs(a[key] - want) <= 1e-12 * max(1.0, abs(want)), (key, a[key], want)
    for f in ("mean_average_precision", "mean_reciprocal_rank", "mean_r_precision"):
        assert abs(getattr(got, f)("skip") - getattr(ref, f)("skip")) <= 1e-12


def test_spark_means_over_queries_equal_multi_query_evaluation(spark: Any) -> None:
    from scored_pr.spark import evaluate

    pdf, ref = query_frame(21, 3000)
    got = evaluate(spark.createDataFrame(pdf).repartition(3), query_col="query", partitions=3)
    assert_same_means(got, ref)
    with pytest.raises(ValueError, match="argument 'misses'"):
        evaluate(spark.createDataFrame(pdf), query_col="query", misses=1)


def test_dask_means_over_queries_equal_multi_query_evaluation(dask_client: Any) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, ref = query_frame(22, 3000)
    got = evaluate(dd.from_pandas(pdf, npartitions=3), query_col="query", ranks=(3,))
    assert_same_means(got, ref)
    assert abs(got.mean_precision_at(3) - ref.mean_precision_at(3)) <= 1e-12
    with pytest.raises(ValueError, match="argument 'query_col' must be a column"):
        evaluate(dd.from_pandas(pdf, npartitions=3), query_col="qid")


# -------------------------------------------------------------------------- multi-class and multi-label


def wide_frame(seed: int, n: int, *, weights: bool = False) -> tuple[Any, np.ndarray, np.ndarray, Any]:
    """Rows with a class column ``y`` (classes a, b, c; class d never occurs), one indicator column per class
    (``is_a``...; ``is_d`` all negative) and a score column per class (``p_a``...), scores rounded for ties."""
    rng = np.random.default_rng(seed)
    classes = np.array(["a", "b", "c", "d"])
    y = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])
    truth = np.zeros((n, 4), bool)
    truth[np.arange(n), y] = True
    scores = np.round(rng.normal(size=(n, 4)) + truth, 1)
    scores[: n // 10, 1] = 0.0  # a heavy tie group in one column
    data: dict[str, Any] = {"id": np.arange(n), "y": classes[y]}
    for j, c in enumerate(classes):
        data[f"is_{c}"] = truth[:, j] if j % 2 else np.where(truth[:, j], 1, 0)  # bool and int indicators
        data[f"p_{c}"] = scores[:, j]
    w = rng.choice([0.5, 1.0, 2.0], size=n) if weights else None
    if weights:
        data["w"] = w
    return pd.DataFrame(data), truth, scores, w


def assert_same_averages(got: Any, truth: np.ndarray, scores: np.ndarray, w: Any, labels: list[Any]) -> None:
    """Every average equal to scored_pr.functional and MultiLabelEvaluation(ties="grouped") of the same rows."""
    import warnings

    from scored_pr import DistributedMultiLabelEvaluation, MultiLabelEvaluation
    from scored_pr import functional as fn

    assert isinstance(got, DistributedMultiLabelEvaluation)
    assert got.labels == labels and got.num_rows == truth.shape[0]
    ref = MultiLabelEvaluation(labels, ties="grouped")
    ref.add_cases(truth, scores, w)
    for average in (None, "macro", "weighted", "micro"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the all-negative label's warning
            want_ap = fn.average_precision(truth, scores, average=average, sample_weight=w)
            want_auc = fn.area_under_roc_curve(truth, scores, average=average, sample_weight=w)
        np.testing.assert_allclose(got.average_precision(average), want_ap, rtol=1e-12, atol=0)
        np.testing.assert_allclose(ref.average_precision(average), want_ap, rtol=1e-12, atol=0)
        if average == "micro" or w is not None:  # one ranking's sums, or weighted sums: within 1e-12
            np.testing.assert_allclose(got.area_under_roc_curve(average), want_auc, rtol=1e-12, atol=0)
        else:  # per-label ROC areas and their means bit for bit
            assert np.array_equal(got.area_under_roc_curve(average), want_auc, equal_nan=True), (average,)
        assert np.array_equal(ref.area_under_roc_curve(average), want_auc, equal_nan=True) or w is not None
    assert np.isnan(got.area_under_roc_curve()) and got.average_precision(None)[-1] == 0.0  # the all-negative label
    for j, label in enumerate(labels):
        exact = ScoredPrecisionRecallEvaluation(ties="grouped")
        exact.add_cases(truth[:, j], scores[:, j], w)
        assert_same(got[label], exact)
    pooled = ScoredPrecisionRecallEvaluation(ties="grouped")
    pooled.add_cases(truth.ravel(), scores.ravel(), None if w is None else np.repeat(w, truth.shape[1]))
    assert_same(got.pooled(), pooled)
    s = got.summary()
    assert list(s) == ["num_rows", "labels", "average_precision", "area_under_roc_curve"]
    assert list(s["labels"]) == labels and set(s["average_precision"]) == {"macro", "micro", "weighted"}
    with pytest.raises(UnsupportedQuery, match="average='samples'"):
        got.average_precision("samples")
    with pytest.raises(UnsupportedQuery, match="multi_class='ovo'"):
        got.area_under_roc_curve(multi_class="ovo")
    with pytest.raises(UnsupportedQuery, match="DistributedMultiLabelEvaluation.add_cases"):
        got.add_cases(truth, scores)
    with pytest.raises(KeyError, match="no label 'z'"):
        got["z"]
    import pickle

    back = pickle.loads(pickle.dumps(got))
    assert repr(back) == repr(got) and np.array_equal(back.average_precision(None), got.average_precision(None))


def test_spark_multiclass_and_multilabel_equal_the_functional_api(spark: Any) -> None:
    from scored_pr.spark import evaluate

    pdf, truth, scores, _ = wide_frame(31, 400)
    df = spark.createDataFrame(pdf).repartition(3)
    score_cols = ["p_a", "p_b", "p_c", "p_d"]
    got = evaluate(df, label_col="y", score_cols=score_cols, classes=["a", "b", "c", "d"], partitions=2)
    assert got.multiclass
    assert_same_averages(got, truth, scores, None, ["a", "b", "c", "d"])
    pdf, truth, scores, w = wide_frame(32, 300, weights=True)
    got = evaluate(spark.createDataFrame(pdf).repartition(2), label_cols=["is_a", "is_b", "is_c", "is_d"],
                   score_cols=score_cols, weight_col="w", partitions=2)
    assert not got.multiclass
    assert_same_averages(got, truth, scores, w, ["is_a", "is_b", "is_c", "is_d"])


def test_dask_multiclass_and_multilabel_equal_the_functional_api(dask_client: Any) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, truth, scores, _ = wide_frame(33, 400)
    ddf = dd.from_pandas(pdf, npartitions=3)
    got = evaluate(ddf, label_col="y", score_cols=["p_a", "p_b", "p_c", "p_d"], classes=["a", "b", "c", "d"])
    assert_same_averages(got, truth, scores, None, ["a", "b", "c", "d"])
    got = evaluate(ddf, label_cols=["is_a", "is_b", "is_c", "is_d"], score_cols=["p_a", "p_b", "p_c", "p_d"])
    assert_same_averages(got, truth, scores, None, ["is_a", "is_b", "is_c", "is_d"])
    pdf, truth, scores, w = wide_frame(36, 300, weights=True)  # integer classes, weighted
    ddf = dd.from_pandas(pdf.assign(y=pdf.y.map({"a": 0, "b": 1, "c": 2})), npartitions=2)
    got = evaluate(ddf, label_col="y", score_cols=["p_a", "p_b", "p_c", "p_d"], classes=[0, 1, 2, 3], weight_col="w")
    assert_same_averages(got, truth, scores, w, [0, 1, 2, 3])


def test_spark_wide_arguments_are_named(spark: Any) -> None:
    from scored_pr.spark import evaluate

    pdf, _, _, _ = wide_frame(34, 40)
    df = spark.createDataFrame(pdf)
    with pytest.raises(ValueError, match="argument 'score_cols\\[1\\]' must be a column of the DataFrame.*'p_x'"):
        evaluate(df, label_col="y", score_cols=["p_a", "p_x"])
    with pytest.raises(ValueError, match="'label_cols' and 'score_cols' must name as many columns.*2 label.*3 score"):
        evaluate(df, label_cols=["is_a", "is_b"], score_cols=["p_a", "p_b", "p_c"])
    with pytest.raises(ValueError, match="argument 'label_cols' must be None with label_col"):
        evaluate(df, label_col="y", label_cols=["is_a", "is_b"], score_cols=["p_a", "p_b"])
    with pytest.raises(ValueError, match="argument 'label_col' must be the class column"):
        evaluate(df, score_cols=["p_a", "p_b"])
    with pytest.raises(ValueError, match="column 'y' \\(argument 'label_col'\\) must hold one of the classes "
                       "\\['p_a', 'p_b', 'p_c'\\].*rows do not"):
        evaluate(df, label_col="y", score_cols=["p_a", "p_b", "p_c"])
    with pytest.raises(ValueError, match="argument 'misses' must be 0 with score_cols"):
        evaluate(df, label_col="y", score_cols=["p_a", "p_b", "p_c"], classes=["a", "b", "c"], misses=1)


def test_dask_wide_arguments_are_named(dask_client: Any) -> None:
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, _, _, _ = wide_frame(35, 40)
    ddf = dd.from_pandas(pdf, npartitions=2)
    with pytest.raises(ValueError, match="argument 'label_cols\\[2\\]' must be a column of the DataFrame.*'is_x'"):
        evaluate(ddf, label_cols=["is_a", "is_b", "is_x"], score_cols=["p_a", "p_b", "p_c"])
    with pytest.raises(ValueError, match="'classes' and 'score_cols' must have the same length"):
        evaluate(ddf, label_col="y", score_cols=["p_a", "p_b", "p_c"], classes=["a", "b"])
    with pytest.raises(ValueError, match="argument 'score_cols' must be a list of score columns"):
        evaluate(ddf, label_cols=["is_a", "is_b"])
    with pytest.raises(ValueError, match="column 'y' \\(argument 'label_col'\\) must hold one of the classes.*"
                       "\\d+ rows do not \\(e.g. 'c' \\(str\\)\\)"):
        evaluate(ddf, label_col="y", score_cols=["p_a", "p_b"], classes=["a", "b"])
    with pytest.raises(ValueError, match="argument 'mode' must be 'exact' with score_cols"):
        evaluate(ddf, label_col="y", score_cols=["p_a", "p_b", "p_c"], classes=["a", "b", "c"], mode="bounded")

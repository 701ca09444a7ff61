"""scored_pr.spark.evaluate, scored_pr.dask.evaluate and scored_pr.ray.evaluate against the exact evaluator fed the same rows.

Each engine ranks the rows bucket by bucket in its workers; every value of
``summary()`` must equal ``ScoredPrecisionRecallEvaluation(ties="grouped")``:
the unweighted ROC areas, max F and the rank-based measures bit for bit, the
sums within 1e-12 relative. The bounded mode's certified intervals must hold
the exact values. One SparkSession, one LocalCluster and one Ray instance
serve every test (conftest.py); the cases are few and small, as each evaluation runs several
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
    a, b = got.summary(), ev.summary()  # the calibration entries too, when every score is in [0, 1]
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


# ------------------------------------------------------------------------------ Dask and Ray (pandas partitions)


def parts_frame(name: str, pieces: list[Any]) -> Any:
    """A Dask DataFrame or a Ray Dataset of one partition (block) per pandas piece, in order."""
    if name == "ray":
        import ray.data

        return ray.data.from_pandas([p.reset_index(drop=True) for p in pieces])
    import dask.dataframe as dd

    return dd.concat([dd.from_pandas(p, npartitions=1, sort=False) for p in pieces])


def split_frame(name: str, pdf: Any, n: int) -> Any:
    """``pdf`` in ``n`` partitions (blocks) of about equal size."""
    cuts = np.linspace(0, len(pdf), n + 1).astype(int)
    return parts_frame(name, [pdf.iloc[a:b] for a, b in zip(cuts[:-1], cuts[1:])])


@pytest.fixture(params=["dask", "ray"])
def pandas_engine(request: Any) -> tuple[str, Any]:
    """(name, evaluate) of the engines of pandas partitions: each test runs on Dask and on Ray."""
    if request.param == "ray":
        request.getfixturevalue("ray_cluster")
        from scored_pr.ray import evaluate
    else:
        request.getfixturevalue("dask_client")
        from scored_pr.dask import evaluate as evaluate  # type: ignore[no-redef]
    return request.param, evaluate


@pytest.mark.parametrize("seed,n,weights,misses,labels,pos_label", [
    (11, 5000, False, 0, "bool", None), (12, 4000, True, 3, "int", None), (13, 3000, False, 5, "str", "spam"),
    (14, 30, False, 1, "bool", None),
])
def test_dask_and_ray_exact_equals_the_evaluator(pandas_engine: Any, seed, n, weights, misses, labels,
                                                 pos_label) -> None:
    name, evaluate = pandas_engine
    pdf, y, s, w = frame(seed, n, weights=weights, labels=labels)
    # uneven partitions, one empty: 0, 2, n/2 - 2 and n/2 rows
    ddf = parts_frame(name, [pdf.iloc[:0], pdf.iloc[:2], pdf.iloc[2 : n // 2], pdf.iloc[n // 2 :]])
    assert (ddf.npartitions if name == "dask" else ddf.materialize().num_blocks()) == 4
    got = evaluate(ddf, "label", "score", weight_col="w" if weights else None, pos_label=pos_label, misses=misses,
                   ranks=(7,), partitions=3)
    ev = reference(y, s, w, misses)
    assert_same(got, ev)


def test_dask_and_ray_bounded_holds_the_exact_values(pandas_engine: Any) -> None:
    name, evaluate = pandas_engine
    pdf, y, s, _ = frame(15, 6000, ties=0)
    got = evaluate(split_frame(name, pdf, 4), misses=2, mode="bounded", max_bins=64)
    assert_bounds_hold(got, reference(y, s, None, 2))


def test_dask_and_ray_bad_columns_and_rows_are_named(pandas_engine: Any) -> None:
    name, evaluate = pandas_engine
    pdf, _, _, _ = frame(16, 50)
    ddf = split_frame(name, pdf, 2)
    with pytest.raises(ValueError, match="argument 'label_col' must be a column of the DataFrame.*'y'"):
        evaluate(ddf, "y", "score")
    with pytest.raises(ValueError, match="column 'score' \\(argument 'score_col'\\).*3 rows"):
        evaluate(split_frame(name, pdf.assign(score=np.where(pdf.id < 3, np.nan, pdf.score)), 2))
    with pytest.raises(ValueError, match="column 'w' \\(argument 'weight_col'\\)"):
        evaluate(split_frame(name, pdf.assign(w=-1.0), 2), weight_col="w")
    with pytest.raises(TypeError, match="argument 'ddf'" if name == "dask" else "argument 'ds' must be a ray.data"):
        evaluate(pdf)


def test_the_result_refuses_what_it_cannot_answer(pandas_engine: Any) -> None:
    name, evaluate = pandas_engine
    pdf, _, _, _ = frame(17, 200)
    got = evaluate(split_frame(name, pdf, 2))
    for call in (lambda: got.confidence_interval(), lambda: got.add_case(True, 0.5), lambda: got.save("x.npz"),
                 lambda: got.precision_at_threshold(0.5), lambda: got.area_under_roc_curve(max_fpr=0.5),
                 lambda: got.maximum_f_measure(2.0), lambda: got.average_precision(ties="stable")):
        with pytest.raises(UnsupportedQuery, match="DistributedEvaluation"):
            call()
    assert repr(got).startswith(f"DistributedEvaluation(engine='{name}', num_cases=200")


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


def test_dask_and_ray_means_over_queries_equal_multi_query_evaluation(pandas_engine: Any) -> None:
    name, evaluate = pandas_engine
    pdf, ref = query_frame(22, 3000)
    got = evaluate(split_frame(name, pdf, 3), query_col="query", ranks=(3,))
    assert_same_means(got, ref)
    assert abs(got.mean_precision_at(3) - ref.mean_precision_at(3)) <= 1e-12
    with pytest.raises(ValueError, match="argument 'query_col' must be a column"):
        evaluate(split_frame(name, pdf, 3), query_col="qid")


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


def test_dask_and_ray_multiclass_and_multilabel_equal_the_functional_api(pandas_engine: Any) -> None:
    name, evaluate = pandas_engine
    pdf, truth, scores, _ = wide_frame(33, 400)
    ddf = split_frame(name, pdf, 3)
    got = evaluate(ddf, label_col="y", score_cols=["p_a", "p_b", "p_c", "p_d"], classes=["a", "b", "c", "d"])
    assert_same_averages(got, truth, scores, None, ["a", "b", "c", "d"])
    got = evaluate(ddf, label_cols=["is_a", "is_b", "is_c", "is_d"], score_cols=["p_a", "p_b", "p_c", "p_d"])
    assert_same_averages(got, truth, scores, None, ["is_a", "is_b", "is_c", "is_d"])
    pdf, truth, scores, w = wide_frame(36, 300, weights=True)  # integer classes, weighted
    ddf = split_frame(name, pdf.assign(y=pdf.y.map({"a": 0, "b": 1, "c": 2})), 2)
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


def test_dask_and_ray_wide_arguments_are_named(pandas_engine: Any) -> None:
    name, evaluate = pandas_engine
    pdf, _, _, _ = wide_frame(35, 40)
    ddf = split_frame(name, pdf, 2)
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


# -------------------------------------------------------------------------- every path validates like the evaluator
#
# The engines take the rows the evaluators take and refuse the rows they refuse, with the evaluator's rule:
# each case below is fed to ScoredPrecisionRecallEvaluation (or MultiQueryEvaluation) and to both engines.


def engine_frame(engine: str, pdf: Any, spark: Any = None, npartitions: int = 2) -> Any:
    if engine == "spark":
        return spark.createDataFrame(pdf).repartition(npartitions)
    if engine == "ray":
        return split_frame("ray", pdf, npartitions)
    import dask.dataframe as dd

    return dd.from_pandas(pdf, npartitions=npartitions)


@pytest.fixture(params=["spark", "dask", "ray"])
def engine(request: Any) -> tuple[str, Any, Any]:
    """(name, evaluate, spark session or None): each test runs on every engine."""
    if request.param == "spark":
        from scored_pr.spark import evaluate

        return "spark", evaluate, request.getfixturevalue("spark")
    if request.param == "ray":
        request.getfixturevalue("ray_cluster")
        from scored_pr.ray import evaluate as evaluate  # type: ignore[no-redef]

        return "ray", evaluate, None
    request.getfixturevalue("dask_client")
    from scored_pr.dask import evaluate as evaluate  # type: ignore[no-redef]

    return "dask", evaluate, None


def _null_queries(kind: str) -> tuple[Any, Any]:
    """4 real queries of 6 rows each and 10 rows whose query id is null (as ``kind`` holds one)."""
    rng = np.random.default_rng(41)
    q = np.repeat(np.arange(4), 6)
    y = rng.random(24) < 0.4
    s = np.round(rng.normal(size=24) + y, 1)
    null_y, null_s = rng.random(10) < 0.5, rng.normal(size=10)
    ids: Any
    if kind == "nan":
        ids, null = np.concatenate((q.astype(np.float64), np.full(10, np.nan))), float("nan")
    elif kind == "object":
        ids, null = np.array([f"q{i}" for i in q] + [None] * 10, dtype=object), None
    elif kind == "string":
        ids, null = pd.array([f"q{i}" for i in q] + [None] * 10, dtype="string"), pd.NA
    else:  # pandas' nullable integers
        ids, null = pd.array(list(q) + [None] * 10, dtype="Int64"), pd.NA
    pdf = pd.DataFrame({"query": ids, "label": np.concatenate((y, null_y)), "score": np.concatenate((s, null_s))})
    return pdf, null


@pytest.mark.parametrize("kind", ["nan", "object", "string", "Int64"])
def test_null_query_ids_are_refused_as_multi_query_evaluation_refuses_them(engine: Any, kind: str) -> None:
    from scored_pr import MultiQueryEvaluation

    name, evaluate, spark = engine
    pdf, null = _null_queries(kind)
    with pytest.raises(TypeError, match="argument 'query' must be a query id"):
        MultiQueryEvaluation().add_cases(null, [True], [1.0])  # the evaluator has no query for such a row
    df = engine_frame(name, pdf, spark)
    with pytest.raises(ValueError, match="column 'query' \\(argument 'query_col'\\) must hold query ids \\(no null "
                       "or NaN.*10 rows do not"):
        evaluate(df, query_col="query")
    # without the null rows: the 4 queries, as MultiQueryEvaluation has them
    kept = pdf.iloc[:24]
    ref = MultiQueryEvaluation()
    for query in pd.unique(kept["query"]):
        m = (kept["query"] == query).to_numpy(bool)
        ref.add_cases(int(query) if kind in ("nan", "Int64") else query,
                      kept["label"].to_numpy()[m], kept["score"].to_numpy()[m])
    got = evaluate(engine_frame(name, kept, spark), query_col="query")
    assert got.num_queries == len(ref.queries()) == 4
    assert_same_means(got, ref)


@pytest.mark.parametrize("pos_label", [True, False, 1, 0, 2, 1.0, 0.5, "False", "no", None])
def test_boolean_labels_take_every_pos_label_the_evaluator_takes(engine: Any, pos_label: Any) -> None:
    name, evaluate, spark = engine
    pdf, y, s, _ = frame(42, 60)
    ev = ScoredPrecisionRecallEvaluation(ties="grouped", pos_label=pos_label)
    try:
        ev.add_cases(y, s)
    except TypeError as e:  # a str pos_label: the evaluator's refusal, in the engine's words
        assert isinstance(pos_label, str)
        expected = f"a str label, as pos_label={pos_label!r} is"
        assert expected in str(e)
        with pytest.raises(TypeError, match=f"column 'label' \\(argument 'label_col'\\) must hold {expected}; "
                           "it is bool"):
            evaluate(engine_frame(name, pdf, spark), pos_label=pos_label)
        return
    got = evaluate(engine_frame(name, pdf, spark), pos_label=pos_label, partitions=2)
    want_pos = {True: y.sum(), 1: y.sum(), 1.0: y.sum(), False: (~y).sum(), 0: (~y).sum(), None: y.sum()}
    assert got.num_positive_ref == ev.num_positive_ref == want_pos.get(pos_label, 0)  # 2 and 0.5: no positive
    assert_same(got, ev)


def test_labels_mixing_0_and_minus_1_are_refused_as_the_evaluator_refuses_them(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf = pd.DataFrame({"label": [1, 0, -1, 1, 0], "score": [0.5, 0.4, 0.3, 0.2, 0.1]})
    with pytest.raises(ValueError, match="must use one label encoding, 0/1 or -1/1"):
        ScoredPrecisionRecallEvaluation().add_cases(pdf.label.to_numpy(), pdf.score.to_numpy())
    with pytest.raises(ValueError, match="column 'label' \\(argument 'label_col'\\) must use one label encoding, "
                       "0/1 or -1/1; 2 rows hold 0 and 1 hold -1"):
        evaluate(engine_frame(name, pdf, spark))


def test_int64_scores_beyond_2_53_are_refused_where_float64_would_tie_them(engine: Any) -> None:
    name, evaluate, spark = engine
    big = 2**53
    pdf = pd.DataFrame({"label": [False, True, False], "score": np.array([big, big + 1, 3], dtype=np.int64)})
    with pytest.raises(ValueError, match="exactly representable as a float64"):
        ScoredPrecisionRecallEvaluation().add_cases(pdf.label.to_numpy(), pdf.score.to_numpy())
    with pytest.raises(ValueError, match="column 'score' \\(argument 'score_col'\\) must hold numbers \\(no null or "
                       "NaN\\), each exactly representable as a float64.*1 row does not \\(e.g. 9007199254740993"):
        evaluate(engine_frame(name, pdf, spark))
    # at the edges of float64 and int64: the rows the evaluator refuses one by one, and no other
    edges = np.array([big, big + 1, big + 2, 2**62, -(2**62), 2**63 - 1, -(2**63), 2**63 - 1024, 2**63 - 512, 3,
                      -(2**63) + 1, 2**62 + 2**9], dtype=np.int64)
    refused = []
    for v in edges:
        try:
            ScoredPrecisionRecallEvaluation().add_cases([True], edges[edges == v])
        except ValueError:
            refused.append(int(v))
    assert refused == [big + 1, 2**63 - 1, 2**63 - 512, -(2**63) + 1, 2**62 + 2**9]
    pdf = pd.DataFrame({"label": np.arange(edges.size) % 2 == 0, "score": edges})
    with pytest.raises(ValueError, match=f"exactly representable as a float64.*; {len(refused)} rows do not"):
        evaluate(engine_frame(name, pdf, spark), mode="bounded")  # every mode reads the same check
    # integers beyond 2**53 that float64 holds (2**53 + 2, 2**62) are scores: the evaluator's values
    pdf = pd.DataFrame({"label": [False, True, True, False],
                        "score": np.array([big, big + 2, 2**62, -(2**62)], dtype=np.int64)})
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(pdf.label.to_numpy(), pdf.score.to_numpy())
    got = evaluate(engine_frame(name, pdf, spark), partitions=2)
    assert got.area_under_roc_curve() == ev.area_under_roc_curve() == 1.0
    assert_same(got, ev)


def test_a_column_name_the_dataframe_holds_twice_is_refused(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf = pd.DataFrame([[True, 0.9, 0.1, 1], [False, 0.2, 0.8, 2]], columns=["label", "score", "score", "q"])
    if name == "spark":
        df = spark.createDataFrame(pdf.set_axis(["label", "s1", "s2", "q"], axis=1)).toDF("label", "score", "score", "q")
    elif name == "ray":  # no Ray Dataset holds two columns of one name: Ray refuses to build one
        import ray.data

        with pytest.raises(Exception, match="no attribute 'dtype'"):  # the two columns come back as a DataFrame
            ray.data.from_pandas(pdf).materialize()
        return
    else:
        df = engine_frame(name, pdf, npartitions=1)
    with pytest.raises(ValueError, match="argument 'score_col' must be the name of one column \\(the DataFrame has 2 "
                       "columns of that name"):
        evaluate(df)
    with pytest.raises(ValueError, match="argument 'score_cols\\[0\\]' must be the name of one column"):
        evaluate(df, label_cols=["label", "q"], score_cols=["score", "q"])
    assert evaluate(df, "label", "q", pos_label=True).num_cases == 2  # the other columns do not matter


def test_weights_whose_total_overflows_are_refused(engine: Any) -> None:
    """The evaluators' weight rule, row by row: 0 or 2**-1022 .. 2**970 (no total of weights can overflow)."""
    name, evaluate, spark = engine
    for bad in (1.7e308, 2.0**970 * 1.5, 5e-324, 1e-310):
        pdf = pd.DataFrame({"label": [True, False, True], "score": [0.9, 0.5, 0.1], "w": [bad, bad, 1.0],
                            "q": [1, 1, 2]})
        with pytest.raises(ValueError, match="smallest normal float64"):
            ScoredPrecisionRecallEvaluation().add_cases(pdf.label.to_numpy(), pdf.score.to_numpy(), pdf.w.to_numpy())
        for options in ({}, {"mode": "bounded"}, {"query_col": "q"}):  # every mode reads the same check
            with pytest.raises(ValueError, match="column 'w' \\(argument 'weight_col'\\).*2 rows"):
                evaluate(engine_frame(name, pdf, spark), weight_col="w", **options)
    pdf = pd.DataFrame({"label": [True, False, True], "score": [0.9, 0.5, 0.1], "q": [1, 1, 2]})
    ok = pdf.assign(w=[2.0**970, 1.0, 2.0**969])  # the top of the range (tp * curve_points overflows): as the evaluator
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(ok.label.to_numpy(), ok.score.to_numpy(), ok.w.to_numpy())
    assert_same(evaluate(engine_frame(name, ok, spark), weight_col="w"), ev)


def test_dask_needs_no_distributed_client() -> None:
    """docs/scale.md: the Dask path runs on whatever scheduler Dask is configured with, here the synchronous one."""
    dask = pytest.importorskip("dask")
    import dask.dataframe as dd

    from scored_pr.dask import evaluate

    pdf, y, s, _ = frame(43, 500)
    with dask.config.set(scheduler="synchronous"):
        got = evaluate(dd.from_pandas(pdf, npartitions=3), partitions=2)
    assert_same(got, reference(y, s, None, 0))

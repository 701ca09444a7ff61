"""``evaluate(..., by=[...])`` of Spark, Dask and Ray against SlicedEvaluation fed the same rows.

Each slice of the engine's result must equal the exact evaluator fed that
slice's rows (``ScoredPrecisionRecallEvaluation(ties="grouped")``): the
integers and rank-based values bit for bit, the sums within 1e-12 relative
(``test_engines.assert_same``); its keys, slice order, table columns and nested
summary must be ``SlicedEvaluation(keys, kind="exact", ties="grouped")``'s.
Engine tier (tests/tiers.py): one SparkSession, one LocalCluster, one Ray instance.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from scored_pr import DistributedSlicedEvaluation, SlicedEvaluation

from test_engines import assert_same, reference

pd = pytest.importorskip("pandas")

ENGINES = ["spark", "dask", "ray"]
CALIBRATION = ("expected_calibration_error", "brier_score")


def sliced_frame(seed: int, n: int, *, weights: bool = False) -> Any:
    """Rows with a string feature (a null among its values), a float feature (NaN among them), ties and -0.0."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + y, 1)
    s[: n // 10] = -0.0
    region = rng.choice(np.array(["eu", "us", "apac", None], dtype=object), size=n, p=[0.5, 0.3, 0.15, 0.05])
    tier = rng.choice([1.0, 2.0, np.nan], size=n)
    data = {"id": np.arange(n), "label": y, "score": s, "region": region, "tier": tier}
    if weights:
        w = rng.choice([0.5, 1.0, 2.0], size=n)
        w[region == "us"] = 1.0  # one slice of weights all 1: unweighted there, as its evaluator is
        data["w"] = w
    return pd.DataFrame(data)


def engine_frame(engine: str, pdf: Any, request: Any) -> Any:
    if engine == "spark":
        spark = request.getfixturevalue("spark")
        from pyspark.sql import types as T

        schema = T.StructType([
            T.StructField("id", T.LongType()), T.StructField("label", T.BooleanType()),
            T.StructField("score", T.DoubleType()), T.StructField("region", T.StringType()),
            T.StructField("tier", T.DoubleType()),
            *([T.StructField("w", T.DoubleType())] if "w" in pdf else []),
        ])  # fmt: skip
        text = list(pdf.columns).index("region")  # a null there (pandas may hold it as NaN); NaN stays in 'tier'
        rows = [tuple(None if i == text and pd.isna(v) else v for i, v in enumerate(r))
                for r in pdf.astype(object).itertuples(index=False)]
        return spark.createDataFrame(rows, schema).repartition(3)
    if engine == "dask":
        request.getfixturevalue("dask_client")
        import dask.dataframe as dd

        return dd.from_pandas(pdf, npartitions=3)
    request.getfixturevalue("ray_cluster")
    import ray.data

    return ray.data.from_pandas(pdf).repartition(3)


def evaluate(engine: str, df: Any, **kwargs: Any) -> Any:
    import importlib

    return importlib.import_module(f"scored_pr.{engine}").evaluate(df, "label", "score", **kwargs)


def single_machine(pdf: Any, keys: tuple[str, ...], slices: Any = None, weights: bool = False) -> SlicedEvaluation:
    ev = SlicedEvaluation(keys, slices=slices, kind="exact", ties="grouped")
    ev.add_cases(pdf["label"].to_numpy(), pdf["score"].to_numpy(), pdf["w"].to_numpy() if weights else None,
                 **{k: pdf[k].to_numpy() for k in keys})
    return ev


def rows_of(pdf: Any, pairs: tuple[tuple[str, Any], ...]) -> Any:
    m = np.ones(len(pdf), bool)
    for k, v in pairs:
        m &= pdf[k].isna().to_numpy() if v is None else (pdf[k] == v).to_numpy()
    return pdf[m]


def assert_sliced_same(got: Any, pdf: Any, keys: tuple[str, ...], slices: Any = None, weights: bool = False) -> None:
    assert isinstance(got, DistributedSlicedEvaluation)
    want = single_machine(pdf, keys, slices, weights)
    assert got.keys == want.keys and got.crossings == want.crossings
    # the same slices; each crossing's in ascending order of its values, missing last (SlicedEvaluation orders a
    # numeric or string column so, an object column in the order first seen)
    assert set(got.slices()) == set(want.slices()) and got.slices()[0] == ()
    for spec in got.crossings:
        mine = [[v for _, v in p] for p in got.slices() if tuple(k for k, _ in p) == spec]
        assert mine == sorted(mine, key=lambda vs: [(v is None, 0 if v is None else v) for v in vs])
    for pairs in want.slices():  # each slice: the exact evaluator fed that slice's rows only
        part = rows_of(pdf, pairs)
        ev = reference(part["label"].to_numpy(), part["score"].to_numpy(),
                       part["w"].to_numpy() if weights else None, 0)
        assert_same(got[pairs], ev)
    table, wanted = got.table(), {r["slice"]: r for r in want.table()}
    for a in table:
        b = wanted[a["slice"]]
        assert list(a) == [k for k in b if k not in CALIBRATION]
        assert [a[k] for k in ("slice", *keys, "num_cases", "num_positive_ref")] == \
            [b[k] for k in ("slice", *keys, "num_cases", "num_positive_ref")]
    summary, wanted_summary = got.summary(), want.summary()
    assert sorted(summary) == sorted(wanted_summary) and list(summary) == [str(p) for p in got.slices()]
    for name, values in summary.items():
        for key, value in values.items():
            ref = wanted_summary[name][key]
            assert (math.isnan(value) and math.isnan(ref)) or abs(value - ref) <= 1e-12 * abs(ref), (name, key)


@pytest.mark.parametrize("engine", ENGINES)
def test_each_slice_equals_the_evaluator_of_its_rows(engine: str, request: Any) -> None:
    pdf = sliced_frame(11, 1500)
    got = evaluate(engine, engine_frame(engine, pdf, request), by=["region", "tier"], partitions=3)
    assert_sliced_same(got, pdf, ("region", "tier"))
    assert got.slice(region=None).num_cases == int(pdf["region"].isna().sum())  # null: the missing slice
    assert got.slice(tier=float("nan")).num_cases == int(pdf["tier"].isna().sum())
    assert "region=(missing)" in got.summary() and got.table(["average_precision"])[0]["region"] is None
    with pytest.raises(KeyError, match="no case has region=mars"):
        got.slice(region="mars")


@pytest.mark.parametrize("engine", ENGINES)
def test_crossings_and_weights_slice_as_the_sliced_evaluation(engine: str, request: Any) -> None:
    pdf = sliced_frame(12, 1200, weights=True)
    specs = [(), ("region",), ("region", "tier")]
    got = evaluate(engine, engine_frame(engine, pdf, request), by="region", weight_col="w", partitions=2) \
        if engine == "spark" else None  # one engine shows a single key given as a str
    if got is not None:
        assert_sliced_same(got, pdf, ("region",), weights=True)
    got = evaluate(engine, engine_frame(engine, pdf, request), by=["region", "tier"], slices=specs, weight_col="w")
    assert_sliced_same(got, pdf, ("region", "tier"), specs, weights=True)
    assert not got.slice(region="us").weighted and got.slice(region="eu").weighted


@pytest.mark.parametrize("engine", ENGINES)
def test_bounded_slices_equal_one_machines_sliced_bounded_evaluation(engine: str, request: Any) -> None:
    # bins enough for every distinct score: each slice's summary is exact, whatever the partitions and merges
    pdf = sliced_frame(14, 1500, weights=True)
    keys, specs = ("region", "tier"), [(), ("region",), ("region", "tier")]
    for weights in (False, True):
        got = evaluate(engine, engine_frame(engine, pdf, request), by=list(keys), slices=specs, mode="bounded",
                       max_bins=256, weight_col="w" if weights else None)
        want = SlicedEvaluation(keys, slices=specs, kind="bounded", max_bins=256)
        want.add_cases(pdf["label"].to_numpy(), pdf["score"].to_numpy(), pdf["w"].to_numpy() if weights else None,
                       **{k: pdf[k].to_numpy() for k in keys})
        assert isinstance(got, SlicedEvaluation) and got.kind == "bounded" and got == want
        assert set(got.slices()) == set(want.slices()) and got.num_cases_seen == len(pdf)
        assert got.slice(region="us").weighted is False and got.slice(region="eu").weighted is weights
        for pairs in want.slices():
            assert got[pairs].exact and got[pairs].summary() == pytest.approx(want[pairs].summary(), nan_ok=True)


@pytest.mark.parametrize("engine", ENGINES)
def test_bounded_slices_of_few_bins_hold_each_slices_exact_values(engine: str, request: Any) -> None:
    from test_engines import assert_bounds_hold

    pdf = sliced_frame(15, 2000)
    got = evaluate(engine, engine_frame(engine, pdf, request), by=["region"], mode="bounded", max_bins=8)
    assert [p for p in got.slices()] and not got.overall.exact  # 8 bins: bounds, not values
    for pairs in got.slices():
        part = rows_of(pdf, pairs)
        assert_bounds_hold(got[pairs], reference(part["label"].to_numpy(), part["score"].to_numpy(), None, 0))


@pytest.mark.parametrize("engine", ENGINES)
def test_bad_slicing_is_refused_before_any_job(engine: str, request: Any) -> None:
    pdf = sliced_frame(13, 200)
    df = engine_frame(engine, pdf, request)
    with pytest.raises(ValueError, match=r"'by'.*columns of the DataFrame \(.*'region'.*\).*'country'"):
        evaluate(engine, df, by=["region", "country"])
    with pytest.raises(TypeError, match="'by'"):
        evaluate(engine, df, by=[])
    with pytest.raises(ValueError, match="'max_bins'"):
        evaluate(engine, df, by="region", mode="bounded", max_bins=0)
    with pytest.raises(ValueError, match="'misses'"):
        evaluate(engine, df, by="region", misses=3)
    with pytest.raises(ValueError, match="'slices'"):
        evaluate(engine, df, by="region", slices=[("tier",)])
    with pytest.raises(ValueError, match="max_slices=2"):  # region has 4 values (with the missing one)
        evaluate(engine, df, by="region", max_slices=2)

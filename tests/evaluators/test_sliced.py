"""SlicedEvaluation: each slice is the evaluator of its cases alone.

The contract (Hypothesis): after any sequence of single cases, batches and
misses, with ties, sample weights and missing feature values, every kept
slice's evaluator equals an evaluator of the same kind fed only that slice's
cases, in the same calls, in the same order; for the exact, windowed and
bounded kinds. fairlearn's MetricFrame gives the same average precision and
ROC AUC per group; gaps and worst agree with scored_pr.compare and
confidence_interval called by hand, and Holm's adjustment with statsmodels'.
"""

from __future__ import annotations

import math
import pickle
import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import (
    BoundedEvaluation,
    ScoredPrecisionRecallEvaluation as E,
    SlicedEvaluation,
    WindowedEvaluation,
    compare,
)
from scored_pr._evaluators import guard as _guard

REGIONS = ["eu", "us", None, float("nan")]
DEVICES = [0, 1]
KINDS: dict[str, tuple[type, dict[str, Any]]] = {
    "exact": (E, {}),
    "exact-stable": (E, {"ties": "stable"}),
    "windowed": (WindowedEvaluation, {"size": 6}),
    "bounded": (BoundedEvaluation, {"max_bins": 4}),
}


def _norm(v: Any) -> Any:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def _same_summary(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
            continue
        if x != y or type(x) is not type(y):
            return False
    return True


case = st.tuples(st.booleans(), st.sampled_from([0.1, 0.5, 0.9, 0.5, 0.25]), st.sampled_from([1.0, 1.0, 2.0, 0.5]),
                 st.sampled_from(REGIONS), st.sampled_from(DEVICES))
step = st.one_of(
    st.tuples(st.just("case"), case),
    st.tuples(st.just("batch"), st.lists(case, min_size=0, max_size=8)),
    st.tuples(st.just("misses"), st.tuples(st.integers(0, 2), st.sampled_from(REGIONS), st.sampled_from(DEVICES))),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(KINDS)), steps=st.lists(step, max_size=12), weighted=st.booleans())
def test_each_slice_equals_an_evaluator_fed_only_its_cases(kind: str, steps: list[Any], weighted: bool) -> None:
    cls, options = KINDS[kind]
    name = "exact" if cls is E else kind
    ev = SlicedEvaluation(("region", "device"), slices=[(), ("region",), ("region", "device")], kind=name, **options)
    refs: dict[tuple[Any, ...], Any] = {}

    def member(spec: tuple[str, ...], region: Any, device: Any) -> tuple[Any, ...]:
        values = {"region": _norm(region), "device": device}
        return tuple((k, values[k]) for k in spec)

    specs = [(), ("region",), ("region", "device")]

    def ref(key: tuple[Any, ...]) -> Any:
        if key not in refs:
            refs[key] = cls(**options)
        return refs[key]

    for what, arg in steps:
        if what == "case":
            c, s, w, r, d = arg
            w = w if weighted else 1.0
            ev.add_case(c, s, w, region=r, device=d)
            for spec in specs:
                ref(member(spec, r, d)).add_case(c, s, w)
        elif what == "batch":
            rows = arg
            ev.add_cases([x[0] for x in rows], [x[1] for x in rows],
                         [x[2] for x in rows] if weighted else None,
                         region=np.array([x[3] for x in rows], dtype=object), device=[x[4] for x in rows])
            for spec in specs:
                groups: dict[Any, list[Any]] = {}
                for x in rows:
                    groups.setdefault(member(spec, x[3], x[4]), []).append(x)
                for key, part in groups.items():
                    ref(key).add_cases([x[0] for x in part], [x[1] for x in part],
                                       [x[2] for x in part] if weighted else None)
        else:
            n, r, d = arg
            ev.add_misses(n, region=r, device=d)
            for spec in specs:
                ref(member(spec, r, d)).add_misses(n)
    assert set(ev.slices()) == set(refs) | {()}
    for key in ev.slices():
        mine = ev[key]
        theirs = refs.get(key, cls(**options))
        assert _same_summary(mine.summary(), theirs.summary()), key
        if cls is not WindowedEvaluation:
            assert mine == theirs
        else:
            assert mine.snapshot() == theirs.snapshot()
    if cls is E:
        assert np.array_equal(ev.overall.pr_curve(), refs.get((), E(**options)).pr_curve())


def test_fairlearn_metricframe_per_group_average_precision_and_roc_auc() -> None:
    fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
    from sklearn.metrics import average_precision_score, roc_auc_score

    rng = np.random.default_rng(3)
    n = 600
    group = rng.choice(["a", "b", "c"], size=n)
    y = rng.random(n) < 0.4
    score = np.round(rng.random(n) + 0.3 * y, 2)  # rounded: ties within and across classes
    weight = rng.choice([0.5, 1.0, 3.0], size=n)
    ev = SlicedEvaluation("group")
    ev.add_cases(y, score, weight, group=group)
    frame = fairlearn_metrics.MetricFrame(
        metrics={"ap": average_precision_score, "auc": roc_auc_score}, y_true=y, y_pred=score,
        sensitive_features=group, sample_params={"ap": {"sample_weight": weight}, "auc": {"sample_weight": weight}})
    rows = {r["group"]: r for r in ev.table(["average_precision", "area_under_roc_curve"]) if r["slice"]}
    for g in ["a", "b", "c"]:
        assert rows[g]["average_precision"] == pytest.approx(frame.by_group.loc[g, "ap"], abs=1e-12)
        assert rows[g]["area_under_roc_curve"] == pytest.approx(frame.by_group.loc[g, "auc"], abs=1e-12)
    assert ev.overall.average_precision() == pytest.approx(frame.overall["ap"], abs=1e-12)


def _filled() -> SlicedEvaluation:
    ev = SlicedEvaluation(("region", "device"), max_slices=20)
    ev.add_cases([True, False, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
                 region=["eu", "eu", "us", "us", None, "eu"], device=["m", "d", "m", "d", "m", "m"])
    ev.add_case(True, 0.3, region="us", device="d")
    ev.add_misses(1, region="eu", device="m")
    return ev


@pytest.mark.parametrize("call, error, match", [
    (lambda ev: ev.add_case(True, 0.5, region="eu"), TypeError, r"missing \['device'\]"),
    (lambda ev: ev.add_case(True, 0.5, region="eu", device="m", colour="red"), TypeError, "undeclared"),
    (lambda ev: ev.add_case(True, 0.5, region=["eu"], device="m"), TypeError, "argument 'region' must be a hashable"),
    (lambda ev: ev.add_case(True, 0.5, region=float("inf"), device="m"), ValueError, "argument 'region'"),
    (lambda ev: ev.add_case(True, float("nan"), region="eu", device="m"), ValueError, "score"),
    (lambda ev: ev.add_cases([True, False], [0.1, 0.2], region=["eu"], device=["m", "d"]), ValueError,
     "feature column 'region' must have one value per case"),
    (lambda ev: ev.add_cases([True, False], [0.1, 0.2], region=["eu", {}], device=["m", "d"]), TypeError,
     "argument 'region' must be a hashable .* at index 1"),
    (lambda ev: ev.add_cases([True, False], [0.1, float("nan")], region=["xx", "yy"], device=["m", "d"]), ValueError,
     "scores"),
    (lambda ev: ev.add_misses(-1, region="zz", device="m"), ValueError, "count"),
    (lambda ev: ev.add_cases([True], [0.1], by={"region": ["eu"]}), ValueError, "key 'device' is not a column"),
])
def test_bad_input_names_the_key_and_adds_nothing(call: Any, error: type, match: str) -> None:
    ev = _filled()
    before = ev.to_dict()
    with pytest.raises(error, match=match):
        call(ev)
    assert ev.to_dict() == before


def test_max_slices_refuses_the_case_that_makes_one_too_many_and_keeps_the_rest() -> None:
    ev = SlicedEvaluation("user", max_slices=3)
    ev.add_cases([True, False], [0.9, 0.1], user=["a", "b"])
    before = ev.to_dict()
    with pytest.raises(ValueError, match=r"user=.* would be slice number 4 .* max_slices=3"):
        ev.add_cases([True, False, True], [0.5, 0.4, 0.3], user=["c", "d", "a"])
    assert ev.to_dict() == before
    ev.add_case(True, 0.2, user="c")  # the third slice still fits
    with pytest.raises(ValueError, match="slice number 4"):
        ev.add_case(False, 0.2, user="d")
    assert len(ev) == 4 and ev.overall.num_cases == 3


def test_missing_values_are_one_slice_shown_as_missing() -> None:
    ev = SlicedEvaluation("region")
    ev.add_cases([True, False, True], [0.9, 0.5, 0.1], region=[None, float("nan"), "eu"])
    ev.add_cases([False], [0.3], region=np.array([np.nan]))
    assert ev.slice(region=None) is ev.slice(region=float("nan"))
    assert ev.slice(region=None).num_cases == 3
    assert "region=(missing)" in ev.summary()
    assert [r["region"] for r in ev.table()] == [None, "(missing)", "eu"]


def test_frames_of_pandas_polars_and_arrow_give_the_same_slices() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    y, s = [True, False, True, False], [0.9, 0.8, 0.7, 0.6]
    region = ["eu", None, "us", "eu"]
    expected = SlicedEvaluation("region")
    expected.add_cases(y, s, region=np.array(region, dtype=object))
    for frame in (pd.DataFrame({"region": region, "other": 1}), pl.DataFrame({"region": region}),
                  pa.table({"region": region}), {"region": region}):
        ev = SlicedEvaluation("region")
        ev.add_cases(pd.Series(y), np.array(s), by=frame)
        assert ev == expected, type(frame)
    ev = SlicedEvaluation("region")
    ev.add_cases(y, s, region=pa.array(region))
    assert ev == expected
    ev = SlicedEvaluation("region")
    ev.add_cases(y, s, region=pl.Series(region))
    assert ev == expected


def test_slice_views_are_read_only_and_unknown_slices_say_why() -> None:
    ev = _filled()
    view = ev.slice(region="eu")
    with pytest.raises(TypeError, match="read-only"):
        view.add_case(True, 0.5)
    with pytest.raises(TypeError, match="read-only"):
        ev.overall.add_misses(1)
    with pytest.raises(KeyError, match="no case has region=mars"):
        ev.slice(region="mars")
    with pytest.raises(KeyError, match="not kept"):
        ev.slice(region="eu", device="m")
    with pytest.raises(TypeError, match="'colour' is not a key"):
        ev.slice(colour="red")
    assert view.num_cases == 3 and view.num_misses == 1


def test_merge_equals_one_evaluation_fed_both_and_state_round_trips(tmp_path: Any) -> None:
    a, b, both = (SlicedEvaluation(("region", "device")) for _ in range(3))
    rows = [(True, 0.9, "eu", "m"), (False, 0.4, "us", "d"), (True, 0.4, None, "m"), (False, 0.1, "eu", "d")]
    for i, (c, s, r, d) in enumerate(rows):
        (a if i % 2 else b).add_case(c, s, region=r, device=d)
    for i, (c, s, r, d) in enumerate(rows):
        if not i % 2:
            both.add_case(c, s, region=r, device=d)
    for i, (c, s, r, d) in enumerate(rows):
        if i % 2:
            both.add_case(c, s, region=r, device=d)
    merged = b + a
    assert merged == both and merged.slices() != [] and merged.num_cases_seen == 4
    assert pickle.loads(pickle.dumps(both)) == both
    assert SlicedEvaluation.from_dict(both.to_dict()) == both
    path = tmp_path / "sliced.npz"
    both.save(path)
    loaded = SlicedEvaluation.load(path)
    assert loaded == both and loaded.slices() == both.slices()
    E().save(tmp_path / "exact.npz")
    with pytest.raises(ValueError, match="ScoredPrecisionRecallEvaluation"):
        SlicedEvaluation.load(tmp_path / "exact.npz")
    with pytest.raises(ValueError, match="same keys"):
        both.merge(SlicedEvaluation("region"))
    other = SlicedEvaluation(("region", "device"))
    other.add_case(True, 0.5, region="eu", device="m")
    assert other != both


def test_bounded_and_windowed_slices_round_trip() -> None:
    for kind, options in (("bounded", {"max_bins": 8}), ("windowed", {"size": 3})):
        ev = SlicedEvaluation("g", kind=kind, **options)
        ev.add_cases([True, False, True, True], [0.3, 0.2, 0.9, 0.1], g=[1, 2, 1, 1])
        assert SlicedEvaluation.from_dict(ev.to_dict()) == ev
        assert pickle.loads(pickle.dumps(ev)) == ev
        assert type(ev.slice(g=1)).__name__ == {"bounded": "BoundedEvaluation", "windowed": "WindowedEvaluation"}[kind]


def test_worst_is_the_lowest_value_or_upper_bound_among_large_enough_slices() -> None:
    rng = np.random.default_rng(0)
    ev = SlicedEvaluation("g")
    n = 900
    g = rng.choice(["a", "b", "c", "tiny"], size=n, p=[0.33, 0.33, 0.33, 0.01])
    y = rng.random(n) < 0.5
    quality = {"a": 2.0, "b": 1.0, "c": 0.5, "tiny": 0.0}
    s = rng.normal(size=n) + np.array([quality[x] for x in g]) * y
    ev.add_cases(y, s, g=g)
    values = {k: ev.slice(g=k).area_under_roc_curve() for k in quality if (("g", k),) in ev}
    w = ev.worst("area_under_roc_curve", min_cases=0)
    assert w is not None and w.value == min(values.values())
    large = {k: v for k, v in values.items() if ev.slice(g=k).num_cases >= 100}
    w = ev.worst("area_under_roc_curve", min_cases=100)
    assert w is not None and w.slice == (("g", min(large, key=large.get)),)
    w = ev.worst("area_under_roc_curve", min_cases=0, confidence=0.95)
    highs = {k: ev.slice(g=k).confidence_interval("area_under_roc_curve", 0.95, seed=0).high for k in values}
    assert w is not None and w.bound == min(highs.values()) and w.slice == (("g", min(highs, key=highs.get)),)
    assert ev.worst(min_cases=10**6) is None


def test_gaps_against_the_complement_and_a_named_slice_match_compare_and_statsmodels_holm() -> None:
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    rng = np.random.default_rng(1)
    n = 400
    g = rng.choice(["a", "b", "c"], size=n)
    y = rng.random(n) < 0.5
    s = rng.normal(size=n) + np.where(g == "a", 1.5, 0.7) * y
    ev = SlicedEvaluation("g")
    ev.add_cases(y, s, g=g)
    gaps = ev.gaps("area_under_roc_curve")
    assert [x.slice for x in gaps] == [tuple(p) for p in ev.slices() if p]
    p = []
    for gap in gaps:
        k = gap.slice[0][1]
        inside, outside = E(), E()
        inside.add_cases(y[g == k], s[g == k])
        outside.add_cases(y[g != k], s[g != k])
        r = compare(inside, outside)
        assert (gap.estimate, gap.reference, gap.difference, gap.p_value) == (
            r.estimate_a, r.estimate_b, r.difference, r.p_value)
        assert (gap.low, gap.high) == (r.interval.low, r.interval.high)
        p.append(r.p_value)
    assert [x.p_adjusted for x in gaps] == pytest.approx(multipletests(p, method="holm")[1], abs=1e-15)
    bonf = ev.gaps("area_under_roc_curve", correction="bonferroni")
    assert [x.p_adjusted for x in bonf] == pytest.approx(multipletests(p, method="bonferroni")[1], abs=1e-15)
    named = ev.gaps("average_precision", reference={"g": "a"}, n_resamples=200)
    assert [x.slice for x in named] == [tuple(p) for p in ev.slices() if p and p != (("g", "a"),)]
    for gap in named:
        r = compare(ev[gap.slice], ev.slice(g="a"), measure="average_precision", seed=0, n_resamples=200)
        assert gap.difference == r.difference and gap.p_value == r.p_value
    with pytest.raises(ValueError, match="argument 'correction'"):
        ev.gaps(correction="sidak")
    with pytest.raises(ValueError, match="argument 'measure'"):
        ev.gaps("maximum_f_measure")


def test_every_public_member_is_guarded_and_refused_while_another_thread_is_inside() -> None:
    members = _guard.guarded_members(SlicedEvaluation)
    assert {"add_case", "add_cases", "add_misses", "slice", "table", "summary", "gaps", "worst", "merge", "to_dict",
            "__eq__", "__reduce__", "overall", "__len__"} <= set(members)
    assert all(_guard.is_guarded(m) for m in members.values()), [n for n, m in members.items() if not _guard.is_guarded(m)]
    ev = _filled()
    inside, done = threading.Event(), threading.Event()

    def hold() -> None:
        _guard.take(ev, "test")
        inside.set()
        done.wait(5)
        _guard.release(ev)

    t = threading.Thread(target=hold)
    t.start()
    inside.wait(5)
    try:
        for call in (lambda: ev.add_case(True, 0.5, region="eu", device="m"), ev.summary, ev.table,
                     lambda: ev.slice(region="eu"), lambda: ev == ev, ev.to_dict, lambda: len(ev)):
            with pytest.raises(RuntimeError, match="another thread"):
                call()
    finally:
        done.set()
        t.join()
    assert ev.overall.num_cases == 7


def test_table_measures_and_summary_names() -> None:
    ev = _filled()
    rows = ev.table(["average_precision", "precision_at_5"])
    for row in rows:
        view = ev[row["slice"]]
        ap = view.average_precision()
        assert row["average_precision"] == ap or (math.isnan(ap) and math.isnan(row["average_precision"]))
        assert row["num_cases"] == view.num_cases
    assert set(ev.summary()) == {str(p) for p in ev.slices()}
    assert ev.summary()["region=eu"] == pytest.approx(ev.slice(region="eu").summary(), nan_ok=True)
    with pytest.raises(ValueError, match="argument 'measures'"):
        ev.table(["no_such_measure"])
    pd = pytest.importorskip("pandas")
    frame = ev.to_pandas()
    assert isinstance(frame, pd.DataFrame) and list(frame["slice"]) == [str(p) for p in ev.slices()]


def test_setup_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="argument 'kind'"):
        SlicedEvaluation("g", kind="multi")
    with pytest.raises(ValueError, match="argument 'slices'"):
        SlicedEvaluation("g", slices=[("h",)])
    with pytest.raises(ValueError, match="argument 'keys'"):
        SlicedEvaluation(("score",))
    with pytest.raises(ValueError, match="argument 'max_slices'"):
        SlicedEvaluation("g", max_slices=0)
    with pytest.raises(ValueError, match="size"):
        SlicedEvaluation("g", kind="windowed", size=-1)


def test_functional_sliced_is_the_table_and_equals_scikit_learn_per_group() -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    from scored_pr import sliced

    rng = np.random.default_rng(5)
    n = 300
    region = rng.choice(["eu", "us"], size=n)
    y = rng.random(n) < 0.5
    s = np.round(rng.random(n) + 0.2 * y, 1)
    w = rng.choice([1.0, 2.0], size=n)
    rows = sliced(y, s, by={"region": region}, measures=["average_precision", "area_under_roc_curve"], sample_weight=w)
    assert [str(r["slice"]) for r in rows] == ["overall", "region=eu", "region=us"]
    for r in rows:
        mask = np.ones(n, bool) if not r["slice"] else region == r["region"]
        assert r["num_cases"] == mask.sum()
        assert r["average_precision"] == pytest.approx(average_precision_score(y[mask], s[mask], sample_weight=w[mask]), abs=1e-12)
        assert r["area_under_roc_curve"] == pytest.approx(roc_auc_score(y[mask], s[mask], sample_weight=w[mask]), abs=1e-12)
    with pytest.raises(TypeError, match="sliced: argument 'by'"):
        sliced(y, s, by=region)


def test_per_slice_operating_points_equal_each_slices_own_decision() -> None:
    rng = np.random.default_rng(11)
    n = 300
    g = rng.choice(["a", "b", "c"], size=n)
    y = rng.random(n) < 0.4
    s = np.round(rng.random(n) + 0.3 * y, 2)  # ties within and across classes
    for options in ({}, {"ties": "stable"}):
        ev = SlicedEvaluation("g", **options)
        ev.add_cases(y, s, g=g)
        ev.add_misses(2, g="a")
        calls = [
            lambda e: e.operating_point("f1"),
            lambda e: e.operating_point("recall", {"precision": 0.6}),
            lambda e: e.operating_point("recall", {"precision": 0.5}, confidence=0.9),
            lambda e: e.min_cost_threshold(cost_fp=1.0, cost_fn=4.0),
        ]
        for call in calls:
            mine = call(ev)
            assert list(mine) == ev.slices()
            for pairs, decision in mine.items():
                ref = E(**options)
                mask = np.ones(n, bool) if not pairs else g == dict(pairs)["g"]
                ref.add_cases(y[mask], s[mask])
                if pairs in ((), (("g", "a"),)):
                    ref.add_misses(2)
                assert decision == call(ref), pairs
    with pytest.raises(ValueError, match="maximize"):
        ev.operating_point("nonsense")
    with pytest.raises(ValueError, match="cost_fn"):
        SlicedEvaluation("g").min_cost_threshold(cost_fn=float("nan"))
    windowed = SlicedEvaluation("g", kind="windowed", size=5)
    if not hasattr(WindowedEvaluation, "operating_point"):
        from scored_pr import UnsupportedQuery

        with pytest.raises(UnsupportedQuery):
            windowed.operating_point()

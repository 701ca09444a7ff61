"""SlicedEvaluation(kind="multilabel"): each slice is a MultiLabelEvaluation of its rows alone.

The contract (Hypothesis): after any sequence of single rows and batches, with
sample weights and missing feature values, for the kinds of rows a
MultiLabelEvaluation keeps (every row, a window, bounded bins), every kept
slice's evaluator equals a MultiLabelEvaluation fed only that slice's rows, in
the same calls, in the same order. The table's per-label values equal
scikit-learn's per group; merge, ==, pickle, to_dict and save/load keep
every slice.
"""

from __future__ import annotations

import math
import pickle
from collections import defaultdict
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import MultiLabelEvaluation, SlicedEvaluation, UnsupportedQuery
from scored_pr.integrations import summary_entries

LABELS = ["cat", "dog", "fox"]
REGIONS = ["eu", "us", None, float("nan")]
DEVICES = [0, 1]
OPTIONS: dict[str, dict[str, Any]] = {
    "exact": {},
    "stable": {"ties": "stable"},
    "window": {"window": 4},
    "bounded": {"max_bins": 4},
}


def _norm(v: Any) -> Any:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


score = st.sampled_from([0.1, 0.5, 0.9, 0.25])
row = st.tuples(st.lists(st.booleans(), min_size=3, max_size=3), st.lists(score, min_size=3, max_size=3),
                st.sampled_from([1.0, 1.0, 2.0, 0.5]), st.sampled_from(REGIONS), st.sampled_from(DEVICES))
step = st.one_of(st.tuples(st.just("row"), row), st.tuples(st.just("batch"), st.lists(row, min_size=0, max_size=6)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(OPTIONS)), steps=st.lists(step, max_size=8), weighted=st.booleans())
def test_each_slice_equals_a_multilabel_evaluation_fed_only_its_rows(kind: str, steps: list[Any], weighted: bool) -> None:
    options = OPTIONS[kind]
    specs = [(), ("region",), ("region", "device")]
    ev = SlicedEvaluation(("region", "device"), slices=specs, kind="multilabel", labels=LABELS, **options)
    refs: dict[tuple[Any, ...], MultiLabelEvaluation] = defaultdict(lambda: MultiLabelEvaluation(LABELS, **options))

    def slices_of(region: Any, device: Any) -> list[tuple[Any, ...]]:
        """The slices a row belongs to, one per crossing (a slow literal reference of the slicing)."""
        values = {"region": _norm(region), "device": device}
        return [tuple((k, values[k]) for k in spec) for spec in specs]

    for what, arg in steps:
        batch = [arg] if what == "row" else arg
        y = np.array([x[0] for x in batch], dtype=bool).reshape(-1, 3)
        s = np.array([x[1] for x in batch], dtype=float).reshape(-1, 3)
        w = np.array([x[2] if weighted else 1.0 for x in batch])
        if what == "row":
            ev.add_case(y[0], s[0], float(w[0]), region=arg[3], device=arg[4])
            for key in slices_of(arg[3], arg[4]):
                refs[key].add_case(y[0], s[0], float(w[0]))
            continue
        ev.add_cases(y, s, w if weighted else None, region=np.array([x[3] for x in batch], dtype=object),
                     device=[x[4] for x in batch])
        members: dict[tuple[Any, ...], list[int]] = {}
        for i, x in enumerate(batch):
            for key in slices_of(x[3], x[4]):
                members.setdefault(key, []).append(i)
        for key, at in members.items():  # each slice's rows as one batch, in order
            refs[key].add_cases(y[at], s[at], w[at] if weighted else None)
    assert set(ev.slices()) == set(refs) | {()}
    for key in ev.slices():
        mine = ev[key]
        theirs = refs[key]
        assert mine == theirs, key
        assert _same(mine.summary(), theirs.summary()), key
        assert _same(ev.summary()[str(key)], theirs.summary())
    assert ev.num_cases_seen == sum(1 if w == "row" else len(a) for w, a in steps)
    # a state read back, a pickle and a merge with an empty one hold the same slices
    again = SlicedEvaluation.from_dict(ev.to_dict())
    assert again == ev and pickle.loads(pickle.dumps(ev)) == ev
    if "window" not in options:
        empty = SlicedEvaluation(("region", "device"), slices=specs, kind="multilabel", labels=LABELS, **options)
        assert ev.merge(empty) == ev


def _golden() -> SlicedEvaluation:
    ev = SlicedEvaluation("region", kind="multilabel", labels=["cat", "dog"])
    ev.add_cases([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6], [0.5, 0.3]],
                 region=["eu", "eu", "us", "us"])
    ev.add_case([1, 0], [0.7, 0.1], region="eu")
    return ev


def test_table_is_one_row_per_slice_and_label_equal_to_scikit_learn() -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    ev = _golden()
    Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0]])
    S = np.array([[0.9, 0.2], [0.4, 0.8], [0.3, 0.6], [0.5, 0.3], [0.7, 0.1]])
    region = np.array(["eu", "eu", "us", "us", "eu"])
    rows = ev.table(["average_precision", "area_under_roc_curve"])
    assert [(str(r["slice"]), r["label"]) for r in rows] == [
        ("overall", "cat"), ("overall", "dog"), ("region=eu", "cat"), ("region=eu", "dog"),
        ("region=us", "cat"), ("region=us", "dog")]
    for r in rows:
        mask = np.ones(5, bool) if r["region"] is None else region == r["region"]
        j = ["cat", "dog"].index(r["label"])
        assert r["num_rows"] == r["num_cases"] == int(mask.sum())
        assert r["num_positive_ref"] == int(Y[mask, j].sum())
        assert r["average_precision"] == pytest.approx(average_precision_score(Y[mask, j], S[mask, j]))
        assert r["area_under_roc_curve"] == pytest.approx(roc_auc_score(Y[mask, j], S[mask, j]))
    # golden values of the worked example
    assert [r["average_precision"] for r in rows] == pytest.approx([13 / 15, 1.0, 1.0, 1.0, 0.5, 1.0])
    # one row per slice at an average: scikit-learn's averages over the slice's rows
    for r in ev.table(average="micro"):
        mask = np.ones(5, bool) if r["region"] is None else region == r["region"]
        assert r["average"] == "micro" and r["num_rows"] == int(mask.sum())
        assert r["average_precision"] == pytest.approx(average_precision_score(Y[mask], S[mask], average="micro"))
    assert ev.table("average_precision", average="macro")[2] == {
        "slice": (("region", "us"),), "region": "us", "average": "macro", "num_rows": 2, "average_precision": 0.75}
    pd = pytest.importorskip("pandas")
    assert list(ev.to_pandas()["label"]) == ["cat", "dog"] * 3 and isinstance(ev.to_pandas(), pd.DataFrame)


def test_one_class_slice_gives_nan_and_an_empty_overall_slice_answers() -> None:
    ev = SlicedEvaluation("g", kind="multilabel", labels=2)
    assert [r["label"] for r in ev.table()] == [0, 1] and math.isnan(ev.table()[0]["average_precision"])
    ev.add_case([1, 1], [0.3, 0.4], g="a")
    row = ev.table(["average_precision", "area_under_roc_curve"])[2]
    assert row["average_precision"] == 1.0 and math.isnan(row["area_under_roc_curve"])


def test_summary_nests_slice_then_labels_and_the_sinks_flatten_it() -> None:
    ev = _golden()
    summary = ev.summary()
    assert list(summary) == ["overall", "region=eu", "region=us"]
    assert _same(summary["region=eu"], ev.slice(region="eu").summary())
    keys = {e.key for e in summary_entries(summary)}
    assert {"region=eu/labels/cat/average_precision", "region=us/average_precision/macro", "overall/num_rows"} <= keys


def test_slices_are_read_only_and_rows_are_checked_before_anything_changes() -> None:
    ev = _golden()
    before = ev.to_dict()
    with pytest.raises(TypeError, match="read-only"):
        ev.slice(region="eu").add_case([1, 0], [0.1, 0.1])
    with pytest.raises(ValueError, match="argument 'S'"):
        ev.add_cases([[1, 0]], [[0.1, 0.2, 0.3]], region=["asia"])
    with pytest.raises(ValueError, match="region"):
        ev.add_cases([[1, 0]], [[0.1, 0.2]], region=["asia", "eu"])
    with pytest.raises(TypeError, match="region"):
        ev.add_case([1, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="argument 's_row'"):
        ev.add_case([1, 0], [0.1], region="asia")
    small = SlicedEvaluation("region", kind="multilabel", labels=2, max_slices=2)
    small.add_cases([[1, 0], [0, 1]], [[0.1, 0.2], [0.3, 0.4]], region=["a", "b"])
    with pytest.raises(ValueError, match="max_slices"):
        small.add_case([1, 0], [0.1, 0.2], region="c")
    assert ev.to_dict() == before and small.slices() == [(), (("region", "a"),), (("region", "b"),)]
    with pytest.raises(TypeError, match="argument 'labels'"):
        SlicedEvaluation("g", kind="multilabel")
    with pytest.raises(ValueError, match="window"):
        SlicedEvaluation("g", kind="multilabel", labels=2, window=0)


def test_class_labels_and_a_frame_of_keys_are_taken() -> None:
    pd = pytest.importorskip("pandas")
    ev = SlicedEvaluation("region", kind="multilabel", labels=["a", "b", "c"])
    S = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.2, 0.5, 0.3]])
    ev.add_cases(["a", "b", "c", "a"], S, by=pd.DataFrame({"region": ["x", "x", "y", "y"]}))
    ref = MultiLabelEvaluation(["a", "b", "c"])
    ref.add_cases(["c", "a"], S[2:])
    assert ev.slice(region="y") == ref and "accuracy" in ev.summary()["region=y"]


def test_what_needs_one_ranking_per_slice_is_refused_with_why() -> None:
    ev = _golden()
    for call in (ev.worst, ev.gaps, ev.to_html, lambda: ev.operating_point(min_precision=0.5),
                 lambda: ev.min_cost_threshold(cost_fp=1, cost_fn=1), lambda: ev.add_misses(1, region="eu")):
        with pytest.raises(UnsupportedQuery, match="MultiLabelEvaluation"):
            call()
    assert ev._repr_html_() is None and "kind='multilabel'" in repr(ev)


def test_merge_and_state_file_keep_every_slice(tmp_path: Any) -> None:
    a, b = _golden(), SlicedEvaluation("region", kind="multilabel", labels=["cat", "dog"])
    b.add_cases([[0, 1], [1, 0]], [[0.2, 0.9], [0.6, 0.4]], region=["asia", "eu"])
    merged = a + b
    assert merged.slices() == [(), (("region", "eu"),), (("region", "us"),), (("region", "asia"),)]
    assert merged.slice(region="eu") == a.slice(region="eu") + b.slice(region="eu")
    assert merged.num_cases_seen == 7
    path = tmp_path / "s.npz"
    merged.save(path)
    back = SlicedEvaluation.load(path)
    assert back == merged and back.num_cases_seen == 7 and back.kind == "multilabel"
    with pytest.raises(ValueError, match="labels"):
        a.merge(SlicedEvaluation("region", kind="multilabel", labels=["cat", "cow"]))

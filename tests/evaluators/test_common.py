"""Every evaluator kind through the same checks, from the measure table (scikit-learn's test_common idea).

The kinds: the exact evaluator, a sliding window large enough to hold every
case, a bounded summary with room for every distinct score (exact) and one
with 8 bins (bounds), and the thread-safe wrapper. Each is fed the same cases
and asked every measure of :data:`scored_pr._measures.MEASURES`, every curve,
every threshold query; each must give the exact evaluator's answer (a bounded
summary: an interval holding it, equal to it where the summary says exact),
the same error for the same bad input with nothing changed, the same answers
after every state round trip, and satisfy :class:`scored_pr.Evaluation`.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import scored_pr
from scored_pr import (
    BoundedEvaluation,
    Bounds,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
)
from scored_pr._measures import MEASURES, REPORT_RANKS

KINDS: dict[str, Callable[[str], Any]] = {
    "exact": lambda ties: ScoredPrecisionRecallEvaluation(ties=ties),
    "windowed": lambda ties: WindowedEvaluation(size=100_000, ties=ties),
    "bounded": lambda ties: BoundedEvaluation(max_bins=4096, ties=ties),
    "bounded-8-bins": lambda ties: BoundedEvaluation(max_bins=8, ties=ties),
    "synchronized": lambda ties: SynchronizedEvaluation(ties=ties),
}
BOUNDED = {"bounded", "bounded-8-bins"}


def _data() -> dict[str, dict[str, Any]]:
    rng = np.random.default_rng(7)
    n = 300
    tied = np.round(rng.random(n), 1)  # 11 distinct scores: long mixed tie groups
    correct = rng.random(n) < 0.3 + 0.4 * tied
    distinct = rng.random(n)
    return {
        "empty": dict(correct=[], scores=[]),
        "one-positive-only": dict(correct=[True], scores=[0.5]),
        "all-positive": dict(correct=[True] * 4, scores=[0.9, 0.5, 0.5, 0.1], misses=2),
        "all-negative": dict(correct=[False] * 4, scores=[0.9, 0.5, 0.5, 0.1], negative_misses=1),
        "ties-with-misses": dict(correct=correct, scores=tied, misses=7, negative_misses=3),
        "distinct": dict(correct=distinct < 0.4, scores=distinct),
        "weighted": dict(correct=correct[:60], scores=tied[:60], weights=rng.integers(0, 4, 60).astype(float), misses=2),
    }


DATA = _data()


def build(kind: str, name: str, ties: str = "grouped", one_at_a_time: bool = False) -> Any:
    ev = KINDS[kind](ties)
    d = DATA[name]
    c, s, w = np.asarray(d["correct"], bool), np.asarray(d["scores"], float), d.get("weights")
    if one_at_a_time:
        for i in range(c.size):
            ev.add_case(bool(c[i]), float(s[i]), 1.0 if w is None else float(w[i]))
    else:
        ev.add_cases(c, s, sample_weight=w)
    if d.get("misses"):
        ev.add_misses(d["misses"])
    if d.get("negative_misses"):
        ev.add_negative_misses(d["negative_misses"])
    return ev


def _free_args(kind: str) -> list[dict[str, Any]]:
    """Arguments for the table's measures that take one from the user."""
    return {
        "per_rank": [dict(k=k) for k in (1, 3, *REPORT_RANKS)],
        "query": [dict(k=1), dict(k=4), dict(k=1000)],
    }.get(kind, [{}])


_QUERY_ARGS = {
    "precision_at_recall": [dict(recall=r) for r in (0.0, 0.3, 0.5, 1.0)],
    "k_at_recall": [dict(recall=r) for r in (0.0, 0.3, 0.5, 1.0)],
}


def _calls() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for m in MEASURES:
        for args in _QUERY_ARGS.get(m.name, _free_args(m.kind)):
            out.append((m.name, args))
    return out


CALLS = _calls()


def answer(ev: Any, name: str, args: dict[str, Any]) -> tuple[str, Any]:
    """("value", v) or ("error", (type, message)) of one table call."""
    m = next(m for m in MEASURES if m.name == name)
    try:
        return "value", m.compute(ev, **args)
    except UnsupportedQuery as exc:
        return "unsupported", str(exc)
    except (ValueError, TypeError) as exc:
        return "error", (type(exc), str(exc))


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def contains(bound: Bounds, exact: float) -> bool:
    if math.isnan(exact):
        return math.isnan(float(bound))
    return bound.lower <= exact <= bound.upper


@pytest.mark.parametrize("kind", sorted(BOUNDED))
def test_a_bounded_summary_refuses_stable_ties_saying_why(kind: str) -> None:
    with pytest.raises(ValueError, match=r"argument 'ties' must be 'grouped' \(a summary keeps no insertion order"):
        KINDS[kind]("stable")


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("kind", [k for k in KINDS if k != "exact"])
def test_every_measure_of_the_table_answers_as_the_exact_evaluator(kind: str, data: str, ties: str) -> None:
    if kind in BOUNDED and ties == "stable":
        pytest.skip("a bounded summary keeps no insertion order: grouped ties only (tested above)")
    exact = build("exact", data, ties)
    ev = build(kind, data, ties)
    checked = 0
    for name, args in CALLS:
        want, got = answer(exact, name, args), answer(ev, name, args)
        if kind in BOUNDED and got[0] == "unsupported":
            assert type(ev).__name__ in got[1], got[1]
            continue
        if want[0] == "error":
            assert got == want, (name, args)
            checked += 1
            continue
        assert got[0] == "value", (name, args, got)
        value, expected = got[1], want[1]
        if isinstance(value, Bounds):
            assert contains(value, float(expected)), (name, args, value, expected)
            if value.exact:
                assert same(float(value), float(expected)), (name, args, value, expected)
        else:
            assert same(value, expected), (name, args, value, expected)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("data", ["ties-with-misses", "distinct", "weighted"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_one_case_at_a_time_is_one_batch(kind: str, data: str) -> None:
    a, b = build(kind, data), build(kind, data, one_at_a_time=True)
    for name, args in CALLS:
        assert same_answer(answer(a, name, args), answer(b, name, args)), (name, args)


def same_answer(x: tuple[str, Any], y: tuple[str, Any]) -> bool:
    if x[0] != y[0]:
        return False
    if x[0] != "value":
        return bool(x == y)
    if isinstance(x[1], Bounds) or isinstance(y[1], Bounds):
        return same(float(x[1]), float(y[1])) and same(x[1].lower, y[1].lower) and same(x[1].upper, y[1].upper)
    return same(x[1], y[1])


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("kind", list(KINDS))
def test_summary_holds_the_tables_measures(kind: str, data: str) -> None:
    ev = build(kind, data)
    summary = ev.summary()
    table = [key for m in MEASURES if (m.bounded if kind in BOUNDED else m.summary) for key in m.keys()]
    assert [k for k in summary if k in set(table)] == table
    exact = build("exact", data).summary()
    for key in table:
        if kind in BOUNDED:
            assert isinstance(summary[key], (int, float))
            if isinstance(exact[key], float) and not math.isnan(exact[key]):
                lower, upper = summary.get(f"{key}_lower", summary[key]), summary.get(f"{key}_upper", summary[key])
                assert lower <= exact[key] <= upper, key
        else:
            assert same(summary[key], exact[key]), key


THRESHOLDS = (-math.inf, 0.0, 0.1, 0.25, 0.5, 0.7, 1.0, math.inf)


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("kind", list(KINDS))
def test_threshold_queries_count_the_cases_at_or_above_the_threshold(kind: str, data: str) -> None:
    ev = build(kind, data)
    d = DATA[data]
    c, s = np.asarray(d["correct"], bool), np.asarray(d["scores"], float)
    w = np.ones(c.size) if d.get("weights") is None else np.asarray(d["weights"], float)
    misses, neg_misses = d.get("misses", 0), d.get("negative_misses", 0)
    for t in THRESHOLDS:
        tp = sum(wi for ci, si, wi in zip(c, s, w) if ci and si >= t)
        fp = sum(wi for ci, si, wi in zip(c, s, w) if not ci and si >= t)
        fn = sum(wi for ci, si, wi in zip(c, s, w) if ci and si < t) + misses
        tn = sum(wi for ci, si, wi in zip(c, s, w) if not ci and si < t) + neg_misses
        got = ev.confusion_at_threshold(t)
        for field, want in zip(("tp", "fp", "tn", "fn"), (tp, fp, tn, fn)):
            value = getattr(got, field)
            if isinstance(value, Bounds):
                assert value.lower <= want <= value.upper, (t, field)
            else:
                assert value == want, (t, field, value, want)
        exact = build("exact", data)
        for query in ("precision_at_threshold", "recall_at_threshold", "f_measure_at_threshold"):
            want_v, got_v = getattr(exact, query)(t), getattr(ev, query)(t)
            if isinstance(got_v, Bounds):
                assert contains(got_v, want_v), (query, t)
            else:
                assert same(got_v, want_v), (query, t)


def _state(ev: Any) -> Any:
    return repr(sorted((k, repr(v)) for k, v in ev.summary().items()))


BAD_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("add_case", (True, float("nan")), {}),
    ("add_case", ("maybe", 0.5), {}),
    ("add_case", (True, 0.5, -1.0), {}),
    ("add_case", (True, "0.5"), {}),
    ("add_cases", ([True, False], [0.1]), {}),
    ("add_cases", ([True, False], [0.1, float("nan")]), {}),
    ("add_cases", ([True, False], [0.1, 0.2]), {"sample_weight": [1.0]}),
    ("add_misses", (-1,), {}),
    ("add_misses", (1.5,), {}),
    ("add_negative_misses", (-1,), {}),
    ("precision_at", (0,), {}),
    ("recall_at", ("3",), {}),
    ("maximum_f_measure", (-1.0,), {}),
    ("precision_at_threshold", (float("nan"),), {}),
    ("confusion_at_threshold", ("0.5",), {}),
]


@pytest.mark.parametrize("call", BAD_CALLS, ids=lambda c: f"{c[0]}{c[1]!r}")
@pytest.mark.parametrize("kind", [k for k in KINDS if k != "exact"])
def test_bad_input_gets_the_exact_evaluators_error_and_changes_nothing(kind: str, call: Any) -> None:
    name, args, kwargs = call
    exact, ev = build("exact", "ties-with-misses"), build(kind, "ties-with-misses")
    with pytest.raises((ValueError, TypeError)) as want:
        getattr(exact, name)(*args, **kwargs)
    before = _state(ev)
    with pytest.raises(want.type) as got:
        getattr(ev, name)(*args, **kwargs)
    assert str(got.value) == str(want.value)
    assert _state(ev) == before


def _round_trips(ev: Any, tmp_path: Any) -> dict[str, Any]:
    cls = type(ev)
    path = tmp_path / "state.npz"
    ev.save(path)
    return {
        "dict": cls.from_dict(ev.to_dict()),
        "file": cls.load(path),
        "pickle": pickle.loads(pickle.dumps(ev)),
    }


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_state_round_trip_gives_the_same_answers(kind: str, data: str, tmp_path: Any) -> None:
    ev = build(kind, data)
    for how, back in _round_trips(ev, tmp_path).items():
        assert type(back) is type(ev), how
        for name, args in CALLS:
            assert same_answer(answer(back, name, args), answer(ev, name, args)), (how, name, args)
        assert same_answer(("value", back.pr_curve().tolist()), ("value", ev.pr_curve().tolist())), how


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_is_an_evaluation(kind: str) -> None:
    ev = KINDS[kind]("grouped")
    assert isinstance(ev, scored_pr.Evaluation)


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("kind", [k for k in KINDS if k not in BOUNDED])
def test_curves_are_the_exact_evaluators(kind: str, data: str) -> None:
    exact, ev = build("exact", data), build(kind, data)
    for curve in ("pr_curve", "roc_curve", "pr_score_curve"):
        for interpolate in (False, True):
            np.testing.assert_array_equal(getattr(ev, curve)(interpolate), getattr(exact, curve)(interpolate))
    for a, b in zip(ev.roc_points(), exact.roc_points()):
        np.testing.assert_array_equal(a, b)

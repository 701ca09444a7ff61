"""Every evaluator kind through the same checks, from the measure table (scikit-learn's test_common idea).

The kinds: the exact evaluator, a sliding window large enough to hold every
case, a bounded summary with room for every distinct score (exact) and one
with 8 bins (bounds), and the thread-safe wrapper. Each is fed the same cases
and asked every measure of :data:`scored_pr._measures.MEASURES`, every curve,
every threshold query; each must give the exact evaluator's answer (a bounded
summary: an interval holding it, equal to it where the summary says exact),
the same error for the same bad input with nothing changed, the same answers
after every state round trip, and satisfy :class:`scored_pr.Evaluation`.

Then every consumer of an evaluator (``scored_pr.testing``, ``plot``, the streaming
logger, the integrations' sinks, ``confidence_interval``/``compare``, the LingPipe
facade) is handed each kind and compared with the exact evaluator of the same cases.
``test_every_kind_interface.py`` holds the interface and the state API of every kind.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import scored_pr
from scored_pr import _kinds
from scored_pr import (
    BoundedEvaluation,
    Bounds,
    MultiQueryEvaluation,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
    compare,
)
from scored_pr._measures import MEASURES, REPORT_RANKS
from scored_pr._uncertainty import confidence_interval

#: Every registered kind that holds one ranking (exactly or bounded), made by the registry
#: (``Kind.new``): a kind registered later is put through these checks without an edit here.
#: A coarse bounded summary (8 bins, so the answers are bounds) is added beside the registry's.
KINDS: dict[str, Callable[[str], Any]] = {
    kind.name: kind.new
    for kind in _kinds.KINDS.values()
    if kind.holds in ("ranking", "bounded") and kind.new is not None
}
KINDS["bounded-8-bins"] = lambda ties: BoundedEvaluation(max_bins=8, ties=ties)
BOUNDED = {name for name, kind in _kinds.KINDS.items() if kind.holds == "bounded"} | {"bounded-8-bins"}


def test_the_kinds_checked_here_are_the_registrys() -> None:
    assert {"exact", "windowed", "bounded", "synchronized"} <= set(KINDS)
    assert {type(make("grouped")) for make in KINDS.values()} == {
        ScoredPrecisionRecallEvaluation, WindowedEvaluation, BoundedEvaluation, SynchronizedEvaluation,
    }


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


def same_value(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
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
                assert same_value(float(value), float(expected)), (name, args, value, expected)
        else:
            assert same_value(value, expected), (name, args, value, expected)
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
        return same_value(float(x[1]), float(y[1])) and same_value(x[1].lower, y[1].lower) and same_value(x[1].upper, y[1].upper)
    return same_value(x[1], y[1])


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("kind", list(KINDS))
def test_summary_holds_the_tables_measures(kind: str, data: str) -> None:
    ev = build(kind, data)
    summary = ev.summary()
    # the calibration entries only where every score is a probability (not the empty evaluator)
    table = [key for m in MEASURES if (m.bounded if kind in BOUNDED else m.summary) and m.applies_to(ev) for key in m.keys()]
    assert [k for k in summary if k in set(table)] == table
    exact = build("exact", data).summary()
    for key in table:
        if kind in BOUNDED:
            assert isinstance(summary[key], (int, float))
            if isinstance(exact[key], float) and not math.isnan(exact[key]):
                lower, upper = summary.get(f"{key}_lower", summary[key]), summary.get(f"{key}_upper", summary[key])
                assert lower <= exact[key] <= upper, key
        else:
            assert same_value(summary[key], exact[key]), key


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
                assert same_value(got_v, want_v), (query, t)


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


# --------------------------------------------------------------------------- every consumer takes every kind
# Every consumer accepts every evaluator kind (issue 24, item 3).
#
# The consumers (``scored_pr.testing``, ``scored_pr.plot``,
# ``scored_pr.streaming.SummaryLogger``, the integrations' sinks,
# ``confidence_interval``/``compare``) are handed each kind fed the same cases:
# the exact evaluator, a window holding every case, a shared (synchronized)
# evaluator and a bounded summary, exact (enough bins) and coarse (few bins).
# What they assert, log or plot is compared with what the exact evaluator of the
# same cases gives; a bounded summary within its bounds. A kind a consumer
# cannot serve raises ``UnsupportedQuery`` naming why.


def cases(seed: int = 0, n: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """Labels and scores with ties (scores rounded to one decimal)."""
    rng = np.random.default_rng(seed)
    correct = rng.random(n) < 0.4
    scores = np.round(rng.normal(size=n) + correct, 1)
    return correct, scores


MISSES, NEGATIVE_MISSES = 3, 2


def feed(ev: Any, correct: np.ndarray, scores: np.ndarray, misses: bool = True) -> Any:
    ev.add_cases(correct, scores)
    if misses:
        ev.add_misses(MISSES)
        ev.add_negative_misses(NEGATIVE_MISSES)
    return ev


def exact_of(correct: np.ndarray, scores: np.ndarray, ties: str = "grouped", misses: bool = True) -> ScoredPrecisionRecallEvaluation:
    return feed(ScoredPrecisionRecallEvaluation(ties=ties), correct, scores, misses)


#: kind name -> how to build it of the given cases (and tie policy).
SINGLE_KINDS: dict[str, Callable[..., Any]] = {
    "exact": lambda c, s, ties="grouped", misses=True: exact_of(c, s, ties, misses),
    "windowed": lambda c, s, ties="grouped", misses=True: feed(WindowedEvaluation(size=10_000, ties=ties), c, s, misses),
    "synchronized": lambda c, s, ties="grouped", misses=True: feed(SynchronizedEvaluation(ties=ties), c, s, misses),
}
BOUNDED_KINDS: dict[str, Callable[..., Any]] = {
    "bounded_exact": lambda c, s, misses=True: feed(BoundedEvaluation(max_bins=4096), c, s, misses),
    "bounded_coarse": lambda c, s, misses=True: feed(BoundedEvaluation(max_bins=6), c, s, misses),
}


def multi_query() -> MultiQueryEvaluation:
    mq = MultiQueryEvaluation()
    c, s = cases(1, 30)
    mq.add_cases("q1", c, s)
    c, s = cases(2, 40)
    mq.add_cases("q2", c, s)
    return mq


def within(value: Any, exact: float, tol: float = 1e-12) -> bool:
    """Whether the exact evaluator's value lies within a Bounds (or equals a float)."""
    if math.isnan(exact):
        return math.isnan(float(value))
    lower, upper = getattr(value, "lower", float(value)), getattr(value, "upper", float(value))
    return lower - tol <= exact <= upper + tol


# ---------------------------------------------------------------------------
# ScoredPrecisionRecallEvaluation.ranked_cases: the public view of the cases


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("weighted", [False, True])
def test_ranked_cases_is_the_stable_descending_order(ties: str, weighted: bool) -> None:
    correct, scores = cases(3, 200)
    scores[:5] = [0.0, -0.0, 0.0, np.inf, -np.inf]
    weights = np.random.default_rng(3).uniform(0.5, 2.0, scores.size) if weighted else None
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    half = scores.size // 2  # two batches and single cases: the ranking merges runs
    ev.add_cases(correct[:half], scores[:half], None if weights is None else weights[:half])
    for i in range(half, scores.size):
        ev.add_case(bool(correct[i]), float(scores[i]), 1.0 if weights is None else float(weights[i]))
    ev.add_misses(4)
    # slow literal reference: sort by score descending, insertion order among equal scores
    order = sorted(range(scores.size), key=lambda i: (-scores[i], i))
    got_scores, got_correct, got_weights = ev.ranked_cases()
    assert got_scores.tolist() == [scores[i] for i in order]
    assert got_correct.tolist() == [bool(correct[i]) for i in order]
    if weights is None:
        assert got_weights is None
    else:
        assert got_weights.tolist() == [weights[i] for i in order]
    for a in (got_scores, got_correct):
        assert not a.flags.writeable
    again = ev.ranked_cases()
    assert again[0] is got_scores and again[1] is got_correct  # O(1) while held and unchanged
    ev.add_case(True, 99.0)
    assert ev.ranked_cases()[0].tolist() == [np.inf, 99.0] + [scores[i] for i in order][1:]
    assert got_scores.tolist() == [scores[i] for i in order]  # the arrays held stay unchanged


# ---------------------------------------------------------------------------
# confidence_interval / compare


@pytest.mark.parametrize("kind", list(SINGLE_KINDS))
@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize(
    "measure, method, args",
    [
        ("area_under_roc_curve", None, {}),
        ("average_precision", "bca", {}),
        ("precision_at", "bootstrap", {"k": 10}),
    ],
)
def test_confidence_interval_of_every_kind_equals_the_exact_evaluator(
    kind: str, ties: str, measure: str, method: str | None, args: dict[str, Any]
) -> None:
    c, s = cases()
    exact = exact_of(c, s, ties)
    ev = SINGLE_KINDS[kind](c, s, ties)
    expected = exact.confidence_interval(measure, 0.9, method, 50, 7, **args)
    assert confidence_interval(ev, measure, 0.9, method, 50, 7, **args) == expected
    if kind != "exact":  # the kind's own method
        assert ev.confidence_interval(measure, 0.9, method, 50, 7, **args) == expected


@pytest.mark.parametrize("kind", list(SINGLE_KINDS))
@pytest.mark.parametrize("method", ["delong", "bootstrap", "bca"])
def test_compare_of_every_kind_equals_the_exact_evaluators(kind: str, method: str) -> None:
    c, s = cases()
    c2, s2 = cases(5, 90)
    expected = compare(exact_of(c, s), exact_of(c2, s2), method=method, n_resamples=40, seed=3)
    got = compare(SINGLE_KINDS[kind](c, s), SINGLE_KINDS[kind](c2, s2), method=method, n_resamples=40, seed=3)
    assert got == expected
    mixed = compare(SINGLE_KINDS[kind](c, s), exact_of(c2, s2), method=method, n_resamples=40, seed=3)
    assert mixed == expected


def test_a_window_is_compared_on_the_cases_in_it() -> None:
    c, s = cases()
    window = WindowedEvaluation(size=50)
    window.add_cases(c, s)
    last = exact_of(c[-50:], s[-50:], misses=False)
    assert confidence_interval(window, "average_precision", seed=1, n_resamples=30) == last.confidence_interval(
        "average_precision", seed=1, n_resamples=30
    )
    other = exact_of(*cases(9), misses=False)
    assert compare(window, other) == compare(last, other)


@pytest.mark.parametrize("kind", list(BOUNDED_KINDS))
def test_intervals_of_a_bounded_summary_are_unsupported(kind: str) -> None:
    c, s = cases()
    bounded = BOUNDED_KINDS[kind](c, s)
    exact = exact_of(c, s)
    for call in (
        lambda: confidence_interval(bounded),
        lambda: compare(bounded, exact),
        lambda: compare(exact, bounded),
    ):
        with pytest.raises(UnsupportedQuery, match=r"BoundedEvaluation.*cases.*exact ScoredPrecisionRecallEvaluation"):
            call()
    assert bounded.num_cases == c.size  # nothing changed


def test_intervals_of_a_multi_query_evaluation_are_unsupported_and_junk_is_a_type_error() -> None:
    with pytest.raises(UnsupportedQuery, match=r"MultiQueryEvaluation.*evaluation\[query\]"):
        confidence_interval(multi_query())
    with pytest.raises(TypeError, match=r"confidence_interval: argument 'evaluation' must be a ScoredPrecisionRecallEvaluation.*got 'x'"):
        confidence_interval("x")
    exact = exact_of(*cases())
    with pytest.raises(TypeError, match=r"compare: argument 'b' must be an evaluator like 'a'.*got \[1, 2\]"):
        compare(exact, [1, 2])


# ---------------------------------------------------------------------------
# scored_pr.testing

from scored_pr.testing import assert_metrics, metric_value  # noqa: E402

#: Metrics every single-ranking kind answers, and those a bounded summary answers.
METRICS = [
    "num_cases", "num_positive_ref", "num_negative_ref", "num_misses", "num_negative_misses",
    "average_precision", "area_under_pr_curve", "area_under_pr_curve_interpolated", "area_under_roc_curve",
    "area_under_roc_curve_interpolated", "maximum_f_measure", "pr_breakeven_point", "reciprocal_rank",
    "r_precision", "precision_at_1", "precision_at_10", "precision_at_500",
]  # fmt: skip
BOUNDED_METRICS = [m for m in METRICS if not m.endswith("_interpolated")]


def failure(call: Callable[[], Any]) -> str:
    with pytest.raises(AssertionError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("kind", list(SINGLE_KINDS))
@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_metric_value_of_every_kind_equals_the_exact_evaluator(kind: str, ties: str) -> None:
    c, s = cases()
    exact = exact_of(c, s, ties)
    ev = SINGLE_KINDS[kind](c, s, ties)
    for name in METRICS:
        expected = metric_value(exact, name)
        got = metric_value(ev, name)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), name


@pytest.mark.parametrize("kind", list(SINGLE_KINDS))
def test_assert_metrics_of_every_kind_passes_and_fails_as_for_the_exact_evaluator(kind: str) -> None:
    c, s = cases()
    exact, ev = exact_of(c, s), SINGLE_KINDS[kind](c, s)
    good = {name: pytest.approx(metric_value(exact, name), nan_ok=True) for name in METRICS}
    assert_metrics(exact, **good)
    assert_metrics(ev, **good)
    bad = {"average_precision": metric_value(exact, "average_precision") + 0.01, "precision_at_10": ("<", 0.0)}
    assert failure(lambda: assert_metrics(ev, **bad)) == failure(lambda: assert_metrics(exact, **bad))


@pytest.mark.parametrize("kind", list(SINGLE_KINDS))
def test_assert_metrics_with_confidence_on_every_kind_equals_the_exact_evaluator(kind: str) -> None:
    c, s = cases()
    exact, ev = exact_of(c, s), SINGLE_KINDS[kind](c, s)
    bounds = {"area_under_roc_curve": 0.99, "average_precision": ("<=", 0.2), "precision_at_5": 0.1}
    kwargs = {"confidence": 0.9, "n_resamples": 40, "seed": 2}
    assert failure(lambda: assert_metrics(ev, **kwargs, **bounds)) == failure(
        lambda: assert_metrics(exact, **kwargs, **bounds)
    )
    assert_metrics(ev, **kwargs, area_under_roc_curve=0.5)


@pytest.mark.parametrize("kind", list(BOUNDED_KINDS))
@pytest.mark.parametrize("misses", [True, False])
def test_metric_value_of_a_bounded_summary_holds_the_exact_value(kind: str, misses: bool) -> None:
    c, s = cases()
    exact, bounded = exact_of(c, s, "grouped", misses), BOUNDED_KINDS[kind](c, s, misses)
    for name in BOUNDED_METRICS:
        value, expected = metric_value(bounded, name), metric_value(exact, name)
        assert within(value, expected), (name, value, expected)
        if kind == "bounded_exact" and name != "area_under_pr_curve":  # one score per bin: the evaluator's float
            # (the summary's PR area is its average precision, which may differ from the area in the last bit)
            assert value == expected or (math.isnan(value) and math.isnan(expected)), name
    if kind == "bounded_coarse":
        assert not metric_value(bounded, "area_under_roc_curve").exact  # the bounds below are really tested


def meets_literally(op: str, limit: float, lower: float, upper: float) -> bool:
    """Slow reference: does some value in [lower, upper] (a fine grid and both ends) satisfy ``value op limit``?"""
    grid = np.concatenate((np.linspace(lower, upper, 2001), [lower, upper, limit if lower <= limit <= upper else lower]))
    ops = {">=": np.greater_equal, ">": np.greater, "<=": np.less_equal, "<": np.less, "==": np.equal}
    if op == "!=":
        return not (lower == upper == limit)
    return bool(ops[op](grid, limit).any())


def test_assert_metrics_on_bounds_passes_unless_the_bounds_rule_the_bound_out() -> None:
    c, s = cases()
    bounded, exact = BOUNDED_KINDS["bounded_coarse"](c, s), exact_of(c, s)
    for name in ("average_precision", "area_under_roc_curve", "maximum_f_measure", "precision_at_10"):
        value = metric_value(bounded, name)
        lower, upper = value.lower, value.upper
        assert lower < upper
        limits = [lower - 0.01, lower, (lower + upper) / 2, upper, upper + 0.01, metric_value(exact, name)]
        for op in (">=", ">", "<=", "<", "==", "!="):
            for limit in limits:
                expected = meets_literally(op, limit, lower, upper)
                try:
                    assert_metrics(bounded, **{name: (op, limit)})
                    passed = True
                except AssertionError as exc:
                    passed = False
                    assert f"{float(value)!r} [{lower!r}, {upper!r}]" in str(exc)  # the bounds are shown
                assert passed == expected, (name, op, limit, lower, upper)
        # the exact evaluator's value always passes an equality check, with or without a tolerance
        assert_metrics(bounded, **{name: pytest.approx(metric_value(exact, name))})
        assert_metrics(bounded, **{name: ("==", metric_value(exact, name))})
        assert_metrics(bounded, **{name: pytest.approx(upper + 0.01, abs=0.011)})  # within upper + tol
        message = failure(lambda: assert_metrics(bounded, **{name: pytest.approx(upper + 0.01, abs=0.009)}))
        assert f"[{lower!r}, {upper!r}]" in message


def test_assert_metrics_with_confidence_on_a_bounded_summary_is_unsupported() -> None:
    bounded = BOUNDED_KINDS["bounded_coarse"](*cases())
    with pytest.raises(UnsupportedQuery, match=r"assert_metrics: BoundedEvaluation .*'confidence' resamples the cases"):
        assert_metrics(bounded, confidence=0.9, average_precision=0.5)


def test_metric_value_of_a_multi_query_evaluation_is_its_mean_over_the_queries() -> None:
    mq = multi_query()
    per_query = [mq[q] for q in mq]
    assert metric_value(mq, "num_queries") == 2
    assert metric_value(mq, "mean_average_precision") == pytest.approx(np.mean([e.average_precision() for e in per_query]))
    assert metric_value(mq, "mean_reciprocal_rank") == pytest.approx(np.mean([e.reciprocal_rank() for e in per_query]))
    assert metric_value(mq, "mean_r_precision") == pytest.approx(np.mean([e.r_precision() for e in per_query]))
    assert metric_value(mq, "mean_precision_at_5") == pytest.approx(np.mean([e.precision_at(5) for e in per_query]))
    assert_metrics(mq, mean_average_precision=("<=", 1.0), num_queries=("==", 2))
    with pytest.raises(ValueError, match=r"unknown metric 'average_precision' of a MultiQueryEvaluation.*evaluation\[query\]"):
        metric_value(mq, "average_precision")
    with pytest.raises(UnsupportedQuery, match=r"MultiQueryEvaluation.*evaluation\[query\]"):
        assert_metrics(mq, confidence=0.9, mean_average_precision=0.5)


def test_assert_metrics_rejects_what_is_not_an_evaluator() -> None:
    with pytest.raises(TypeError, match=r"assert_metrics: argument 'evaluation' must be a ScoredPrecisionRecallEvaluation or a mapping.*BoundedEvaluation.*got \[0.5\]"):
        assert_metrics([0.5], average_precision=0.1)
    with pytest.raises(TypeError, match=r"metric_value: argument 'evaluation' must be .*got 'x' \(str\)"):
        metric_value("x", "average_precision")


class PublicOnly:
    """An evaluator kind known only by its public methods: every name without a leading underscore
    is the wrapped exact evaluator's. A consumer that reaches into private state fails on it."""

    def __init__(self, ev: ScoredPrecisionRecallEvaluation) -> None:
        self.__dict__["wrapped"] = ev

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.__dict__["wrapped"], name)


ALL_SINGLE_KINDS = {**SINGLE_KINDS, "public_only": lambda c, s, ties="grouped", misses=True: PublicOnly(exact_of(c, s, ties, misses))}


def test_public_only_kind_is_served_by_testing() -> None:
    c, s = cases()
    exact, ev = exact_of(c, s), ALL_SINGLE_KINDS["public_only"](c, s)
    for name in METRICS:
        expected, got = metric_value(exact, name), metric_value(ev, name)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), name
    bad = {"average_precision": 0.99}
    assert failure(lambda: assert_metrics(ev, **bad)) == failure(lambda: assert_metrics(exact, **bad))


# ---------------------------------------------------------------------------
# scored_pr.plot

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from scored_pr.plot import plot_pr, plot_pr_roc, plot_roc, pr_steps, roc_steps  # noqa: E402


def line_of(ax: Any) -> np.ndarray:
    return ax.get_lines()[0].get_xydata()


def band_of(ax: Any) -> list[np.ndarray]:
    """The shaded boxes as (x_low, x_high, y_low, y_high) rows."""
    bands = [c for c in ax.collections if isinstance(c, PolyCollection) and c.get_label() == "bounds"]
    assert len(bands) == 1
    boxes = []
    for path in bands[0].get_paths():
        v = path.vertices
        boxes.append((v[:, 0].min(), v[:, 0].max(), v[:, 1].min(), v[:, 1].max()))
    return np.array(boxes)


def in_some_box(points: np.ndarray, boxes: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    x, y = points[:, :1], points[:, 1:]
    inside = (boxes[:, 0] - tol <= x) & (x <= boxes[:, 1] + tol) & (boxes[:, 2] - tol <= y) & (y <= boxes[:, 3] + tol)
    return inside.any(axis=1)


@pytest.mark.parametrize("kind", list(ALL_SINGLE_KINDS))
@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("interpolate", [False, True])
def test_plots_of_every_kind_draw_the_exact_evaluators_curves(kind: str, ties: str, interpolate: bool) -> None:
    c, s = cases()
    exact, ev = exact_of(c, s, ties), ALL_SINGLE_KINDS[kind](c, s, ties)
    ax = plot_pr(ev, Figure().add_subplot(), interpolate)
    pr = exact.pr_curve(interpolate)
    xy = line_of(ax)
    assert np.array_equal(xy[1::2, 0], pr[:, 0]) and np.array_equal(xy[::2, 1], pr[:, 1])  # the drawn steps
    assert ax.get_legend_handles_labels()[1] == plot_pr(exact, Figure().add_subplot(), interpolate).get_legend_handles_labels()[1]
    ax = plot_roc(ev, Figure().add_subplot(), interpolate)
    roc = exact.roc_curve(interpolate)
    xy = line_of(ax)
    # the vertex at each row is (false positive rate, recall) = (1 - rejection recall, recall)
    assert np.array_equal(xy[2:-2:2, 0], 1.0 - roc[:, 1]) and np.array_equal(xy[2:-2:2, 1], roc[:, 0])
    assert ax.get_legend_handles_labels()[1] == plot_roc(exact, Figure().add_subplot(), interpolate).get_legend_handles_labels()[1]
    for steps in (pr_steps, roc_steps):
        got, expected = steps(ev, interpolate), steps(exact, interpolate)
        assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
    fig = plot_pr_roc(ev, figure=Figure(), interpolate=interpolate)
    assert fig._suptitle.get_text() == plot_pr_roc(exact, figure=Figure(), interpolate=interpolate)._suptitle.get_text()


def literal_grouped_roc(correct: np.ndarray, scores: np.ndarray, weights: np.ndarray | None, misses: int, negative_misses: int) -> tuple[list[float], list[float]]:
    """Slow reference: the grouped ROC polyline, one straight segment per tie group of the cases, (fpr, tpr)."""
    w = np.ones(scores.size) if weights is None else weights
    pos_ref, neg_ref = w[correct].sum() + misses, w[~correct].sum() + negative_misses
    tp = fp = 0.0
    xs, ys = [0.0], [0.0]
    for score in sorted(set(scores.tolist()), reverse=True):
        group = scores == score
        tp += w[group & correct].sum()
        fp += w[group & ~correct].sum()
        xs.append(fp / neg_ref)
        ys.append(tp / pos_ref)
    xs.append(1.0)  # the misses and negative misses: one bottom tie group
    ys.append(1.0)
    return xs, ys


def on_polyline(px: np.ndarray, py: np.ndarray, xs: list[float], ys: list[float], tol: float = 1e-9) -> bool:
    """Whether every (px, py) lies on one of the segments of the polyline (xs, ys)."""
    for x, y in zip(px.tolist(), py.tolist()):
        ok = False
        for (x0, y0, x1, y1) in zip(xs, ys, xs[1:], ys[1:]):
            if min(x0, x1) - tol <= x <= max(x0, x1) + tol and min(y0, y1) - tol <= y <= max(y0, y1) + tol:
                cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
                if abs(cross) <= tol:
                    ok = True
                    break
        if not ok:
            return False
    return True


@pytest.mark.parametrize("seed", range(12))
def test_grouped_roc_steps_lie_on_the_literal_tie_group_polyline(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    correct = rng.random(n) < 0.5
    scores = rng.integers(0, 6, n).astype(float)
    weights = rng.choice([0.0, 0.5, 1.0, 3.0], n) if seed % 2 else None
    misses, negative_misses = int(rng.integers(0, 3)), int(rng.integers(0, 3))
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(correct, scores, weights)
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    x, y = roc_steps(PublicOnly(ev))  # public queries only
    if ev.num_negative_ref == 0:
        assert x.size == 0
        return
    xs, ys = literal_grouped_roc(correct, scores, weights, misses, negative_misses)
    assert on_polyline(x, y, xs, ys)
    assert x[0] == y[0] == 0.0 and x[-1] == y[-1] == 1.0


@pytest.mark.parametrize("kind", list(BOUNDED_KINDS))
@pytest.mark.parametrize("weighted", [False, True])
def test_a_bounded_plot_draws_its_estimate_with_a_band_that_holds_the_exact_curve(kind: str, weighted: bool) -> None:
    c, s = cases()
    w = np.random.default_rng(4).uniform(0.2, 3.0, c.size) if weighted else None
    exact = ScoredPrecisionRecallEvaluation(ties="grouped")
    bounded = BOUNDED_KINDS[kind](c[:0], s[:0], False)
    for ev in (exact, bounded):
        ev.add_cases(c, s, w)
        ev.add_misses(MISSES)
        ev.add_negative_misses(NEGATIVE_MISSES)
    ax = plot_pr(bounded, Figure().add_subplot())
    xy = line_of(ax)
    estimate = bounded.pr_curve()
    assert np.array_equal(xy[1::2, 0], estimate[:, 0]) and np.array_equal(xy[::2, 1], estimate[:, 1])
    assert in_some_box(exact.pr_curve(), band_of(ax)).all()  # the band holds every exact operating point
    ap = bounded.average_precision()
    label = ax.get_legend_handles_labels()[1][0]
    if ap.exact:
        assert label == f"AP = {ap:.3f}"
    else:
        assert label == f"AP = {ap:.3f} [{ap.lower:.3f}, {ap.upper:.3f}]"
        assert ap.lower <= exact.average_precision() <= ap.upper

    ax = plot_roc(bounded, Figure().add_subplot())
    xy = line_of(ax)
    roc = bounded.roc_curve()
    assert np.allclose(xy[2:-2:2, 0], 1.0 - roc[:, 1], rtol=0, atol=1e-12) and np.array_equal(xy[2:-2:2, 1], roc[:, 0])
    ex, ey = roc_steps(exact)
    assert in_some_box(np.column_stack((ex, ey)), band_of(ax), tol=1e-9).all()  # every exact vertex
    if kind == "bounded_exact" and not weighted:  # one score per bin: the exact evaluator's polyline
        bx, by = roc_steps(bounded)
        assert np.allclose(bx, ex, rtol=0, atol=1e-12) and np.allclose(by, ey, rtol=0, atol=1e-12)
    if kind == "bounded_coarse":
        assert not bounded.roc_band().exact
    plot_pr_roc(bounded, figure=Figure())


def test_plots_refuse_what_they_cannot_draw() -> None:
    bounded = BOUNDED_KINDS["bounded_coarse"](*cases())
    for func in (plot_pr, plot_roc, pr_steps, roc_steps):
        with pytest.raises(UnsupportedQuery, match=rf"{func.__name__}: a BoundedEvaluation has no interpolated curve"):
            func(bounded, interpolate=True)
        with pytest.raises(UnsupportedQuery, match=rf"{func.__name__}: MultiQueryEvaluation .*evaluation\[query\]"):
            func(multi_query())
        with pytest.raises(TypeError, match=rf"{func.__name__}: argument 'evaluation' must be a ScoredPrecisionRecallEvaluation"):
            func([(True, 0.5)])


@pytest.mark.parametrize("kind", ["exact", "bounded_exact"])
def test_plots_of_weighted_cases_leave_out_the_breakeven_point(kind: str) -> None:
    # the break-even point counts cases by rank: a weighted evaluator refuses it, and the plot must not fail
    c, s = cases()
    ev = ScoredPrecisionRecallEvaluation() if kind == "exact" else BoundedEvaluation()
    ev.add_cases(c, s, np.linspace(0.5, 2.0, c.size))
    with pytest.raises(ValueError, match="sample weights"):
        ev.pr_breakeven_point()
    labels = plot_pr(ev, Figure().add_subplot()).get_legend_handles_labels()[1]
    assert not any(label.startswith("BEP") for label in labels)
    fig = plot_pr_roc(ev, figure=Figure())
    assert [a.get_title() for a in fig.axes] == ["Precision-recall", "ROC"]


# ---------------------------------------------------------------------------
# scored_pr.streaming.SummaryLogger and the sinks of scored_pr.integrations

from scored_pr.integrations import MLflow, TensorBoard, curves_json, exact_pr_points  # noqa: E402
from scored_pr.streaming import SummaryLogger  # noqa: E402


def same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def log_through(ev: Any, c: np.ndarray, s: np.ndarray) -> list[dict[str, Any]]:
    """Feed the cases through a SummaryLogger in batches of 30 (then the misses); every summary logged."""
    logged: list[dict[str, Any]] = []
    with SummaryLogger(ev, logged.append, every=30) as logger:
        for i in range(0, c.size, 30):
            logger.add_cases(c[i : i + 30], s[i : i + 30])
        logger.add_misses(MISSES)
        logger.add_negative_misses(NEGATIVE_MISSES)
    return logged


@pytest.mark.parametrize("kind", list(ALL_SINGLE_KINDS))
def test_summary_logger_logs_every_kind_as_the_exact_evaluator(kind: str) -> None:
    c, s = cases()
    expected = log_through(ScoredPrecisionRecallEvaluation(), c, s)
    logged = log_through(ALL_SINGLE_KINDS[kind](c[:0], s[:0], misses=False), c, s)
    assert len(logged) == len(expected) == c.size // 30 + 1
    for got, want in zip(logged, expected):
        assert got.keys() == want.keys()
        assert all(same(got[k], want[k]) for k in want if k != "time"), got


@pytest.mark.parametrize("kind", list(BOUNDED_KINDS))
def test_summary_logger_logs_a_bounded_summary_as_plain_floats_that_hold_the_exact_values(kind: str) -> None:
    c, s = cases()
    exact_logged = log_through(ScoredPrecisionRecallEvaluation(), c, s)
    logged = log_through(BOUNDED_KINDS[kind](c[:0], s[:0], False), c, s)
    assert len(logged) == len(exact_logged)
    for got, want in zip(logged, exact_logged):
        assert all(type(v) in (int, float) for v in got.values()), got  # no Bounds, no numpy scalars
        for name in ("num_cases", "num_positive_ref", "num_negative_ref", "num_misses", "step"):
            assert got[name] == want[name]
        for name in ("average_precision", "area_under_roc_curve", "maximum_f_measure", "r_precision"):
            lower, estimate, upper = got[name + "_lower"], got[name], got[name + "_upper"]
            assert lower - 1e-12 <= want[name] <= upper + 1e-12, (name, lower, want[name], upper)
            assert lower <= estimate <= upper
            if kind == "bounded_exact":
                assert estimate == want[name]


def test_summary_logger_takes_a_multi_query_evaluation_and_refuses_non_evaluators() -> None:
    logged: list = []
    ev = multi_query()
    logger = SummaryLogger(ev, logged.append, every=1_000)
    logger.add_case("q-new", True, 0.5)  # a multi-query evaluation is fed through its own methods, query first
    assert logger.log()["num_queries"] == ev.summary()["num_queries"] and logged
    with pytest.raises(TypeError, match=r"SummaryLogger: argument .evaluation. must be an evaluator of any kind: .*MultiQueryEvaluation or MultiLabelEvaluation"):
        SummaryLogger("x", print, every=1)


@pytest.mark.parametrize("kind", list(ALL_SINGLE_KINDS))
@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_exact_pr_points_and_curves_json_of_every_kind_equal_the_exact_evaluators(kind: str, ties: str) -> None:
    c, s = cases()
    w = np.random.default_rng(6).uniform(0.5, 2.0, c.size)
    exact = ScoredPrecisionRecallEvaluation(ties=ties)
    exact.add_cases(c, s, w)
    exact.add_misses(MISSES)
    ev = ALL_SINGLE_KINDS[kind](c[:0], s[:0], ties, False)
    ev.add_cases(c, s, w)
    ev.add_misses(MISSES)
    got, expected = exact_pr_points(ev, 20), exact_pr_points(exact, 20)
    assert got.keys() == expected.keys() and all(np.array_equal(got[k], expected[k]) for k in expected)
    assert curves_json(ev) == curves_json(exact)


@pytest.mark.parametrize("kind", list(BOUNDED_KINDS))
@pytest.mark.parametrize("weighted", [False, True])
def test_exact_pr_points_of_a_bounded_summary_are_exact_operating_points_at_its_bin_edges(kind: str, weighted: bool) -> None:
    c, s = cases()
    w = np.random.default_rng(8).uniform(0.5, 2.0, c.size) if weighted else np.ones(c.size)
    bounded = BOUNDED_KINDS[kind](c[:0], s[:0], False)
    bounded.add_cases(c, s, w if weighted else None)
    bounded.add_misses(MISSES)
    p = exact_pr_points(bounded)
    positive, negative = w[c].sum() + MISSES, w[~c].sum()
    assert p["threshold"].size == np.count_nonzero(bounded.bins()[2] > 0) > 0
    for i, t in enumerate(p["threshold"].tolist()):  # slow literal reference: accept every case scored >= t
        tp, fp = w[c & (s >= t)].sum(), w[~c & (s >= t)].sum()
        assert p["tp"][i] == pytest.approx(tp, rel=1e-12) and p["fp"][i] == pytest.approx(fp, rel=1e-12)
        assert p["fn"][i] == pytest.approx(positive - tp, rel=1e-12) and p["tn"][i] == pytest.approx(negative - fp, rel=1e-12, abs=1e-12)
        assert p["precision"][i] == pytest.approx(tp / (tp + fp), rel=1e-12)
        assert p["recall"][i] == pytest.approx(tp / positive, rel=1e-12)
    if kind == "bounded_exact":  # one score per bin: every grouped operating point
        exact = ScoredPrecisionRecallEvaluation(ties="grouped")
        exact.add_cases(c, s, w if weighted else None)
        exact.add_misses(MISSES)
        expected = exact_pr_points(exact)
        assert all(np.allclose(p[k], expected[k], rtol=1e-12, atol=0) for k in expected)


def test_curves_json_of_a_bounded_summary_holds_the_estimates_and_the_boxes() -> None:
    bounded = BOUNDED_KINDS["bounded_coarse"](*cases())
    d = curves_json(bounded)
    assert [row[:2] for row in d["pr_curve"]] == bounded.pr_curve().tolist()
    assert [row[2] for row in d["pr_curve"]] == exact_pr_points(bounded)["threshold"][::-1].tolist()
    assert d["roc_curve"] == bounded.roc_curve().tolist()
    assert d["pr_boxes"] == bounded.pr_band().boxes.tolist() and d["roc_boxes"] == bounded.roc_band().boxes.tolist()
    with pytest.raises(UnsupportedQuery, match=r"curves_json: MultiQueryEvaluation"):
        curves_json(multi_query())


class FakeWriter:
    """What TensorBoard needs of a writer; records the PR curves written."""

    def __init__(self) -> None:
        self.curves: list[tuple[str, np.ndarray, np.ndarray]] = []

    def add_scalar(self, *args: Any, **kwargs: Any) -> None:
        pass

    def add_pr_curve_raw(self, tag: str, tp: Any, fp: Any, tn: Any, fn: Any, precision: Any, recall: Any, **kwargs: Any) -> None:
        self.curves.append((tag, np.asarray(precision), np.asarray(recall)))

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("kind", [*ALL_SINGLE_KINDS, *BOUNDED_KINDS])
def test_tensorboard_writes_the_pr_points_of_every_kind(kind: str) -> None:
    c, s = cases()
    make = {**ALL_SINGLE_KINDS, **BOUNDED_KINDS}[kind]
    ev = make(c[:0], s[:0], misses=False)
    writer = FakeWriter()
    log_through(ev, c, s)  # fills ev
    with SummaryLogger(ev, TensorBoard(writer, max_points=1000), every=1) as logger:
        logger.add_case(True, 0.05)
    tag, precision, recall = writer.curves[-1]
    expected = exact_pr_points(ev, 1000)
    assert tag == "scored_pr/pr_curve"
    assert np.array_equal(precision, expected["precision"]) and np.array_equal(recall, expected["recall"])


def test_mlflow_logs_the_curves_of_a_bounded_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("mlflow")
    logged: dict[str, Any] = {}

    class FakeClient:  # what the sink's thread calls: MlflowClient().log_dict/log_figure(run_id, ...)
        def log_dict(self, run_id: str, d: Any, path: str) -> None:
            logged[path] = d

        def log_figure(self, run_id: str, figure: Any, path: str) -> None:
            logged[path] = [a.get_legend_handles_labels()[1] for a in figure.axes]

    class FakeMlflow:
        MlflowClient = FakeClient

        def active_run(self) -> Any:  # the writer's active run
            return type("Run", (), {"info": type("Info", (), {"run_id": "r1"})()})()

        def get_tracking_uri(self) -> str:
            return "fake://"

    sink = MLflow()
    sink._mlflow = FakeMlflow()
    bounded = BOUNDED_KINDS["bounded_coarse"](*cases())
    sink.close(bounded)
    assert logged["scored_pr/curves.json"] == curves_json(bounded)
    assert "bounds" in logged["scored_pr/curves.png"][0] and "bounds" in logged["scored_pr/curves.png"][1]


# ---------------------------------------------------------------------------
# scored_pr.lingpipe: the LingPipe 4.1 wrapper caches its own results

import pickletools  # noqa: E402

from scored_pr import lingpipe  # noqa: E402

LINGPIPE_41_QUERIES = ("prCurve", "rocCurve", "areaUnderPrCurve", "areaUnderRocCurve", "prScoreCurve")


def answers41(lp: Any) -> list[Any]:
    out = []
    for name in LINGPIPE_41_QUERIES:
        for interpolate in (False, True):
            value = getattr(lp, name)(interpolate)
            out.append(value.tolist() if hasattr(value, "tolist") else repr(value))
    return out


def fresh41(cases_: list[tuple[bool, float]], misses: int = 0, negative_misses: int = 0) -> Any:
    lp = lingpipe.ScoredPrecisionRecallEvaluation(version="4.1")
    for c, s in cases_:
        lp.addCase(c, s)
    lp.addMisses(misses)
    lp.addNegativeMisses(negative_misses)
    return lp


def test_lingpipe_41_answers_follow_every_change_made_through_its_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    # the wrapper keeps no results in the evaluator's private memo any more
    original = ScoredPrecisionRecallEvaluation._cached

    def guarded(self: Any, key: Any, build: Any) -> Any:
        assert not (isinstance(key, tuple) and key and key[0] == "lingpipe 4.1"), "reached into the evaluator's memo"
        return original(self, key, build)

    monkeypatch.setattr(ScoredPrecisionRecallEvaluation, "_cached", guarded)
    c, s = cases(11, 25)
    data = list(zip(c.tolist(), s.tolist()))
    lp = fresh41(data)
    assert answers41(lp) == answers41(fresh41(data))
    assert answers41(lp) == answers41(lp)  # cached answers are the same
    lp.evaluation.add_case(True, 9.0)  # changed behind the wrapper's back
    assert answers41(lp) == answers41(fresh41([*data, (True, 9.0)]))
    lp.evaluation.add_negative_misses(2)
    lp.evaluation.add_misses(1)
    assert answers41(lp) == answers41(fresh41([*data, (True, 9.0)], 1, 2))
    lp.evaluation.reset()  # the same number of cases again, other labels
    flipped = [(not correct, score) for correct, score in [*data, (True, 9.0)]]
    lp.evaluation.add_cases([f[0] for f in flipped], [f[1] for f in flipped])
    lp.evaluation.add_misses(1)
    lp.evaluation.add_negative_misses(2)
    assert answers41(lp) == answers41(fresh41(flipped, 1, 2))


def test_lingpipe_pickles_hold_no_cached_results() -> None:
    c, s = cases(12, 25)
    lp = fresh41(list(zip(c.tolist(), s.tolist())), 2)
    expected = answers41(lp)  # fills the memo
    data = pickle.dumps(lp)
    modules = {arg.split()[0] for op, arg, _ in pickletools.genops(data) if op.name == "GLOBAL"}
    modules |= {arg for op, arg, _ in pickletools.genops(data) if op.name in ("SHORT_BINUNICODE", "BINUNICODE") and str(arg).startswith("scored_pr.")}
    assert "scored_pr._kernel" not in modules  # no K.Points from the memo
    back = pickle.loads(data)
    assert back.version == "4.1" and answers41(back) == expected
    back.addCase(True, 99.0)
    assert answers41(back) == answers41(fresh41([*zip(c.tolist(), s.tolist()), (True, 99.0)], 2))


# ---------------------------------------------------------------------------
# testing.assert_curve_close with a bounded summary's band; assert_not_worse with evaluators

from scored_pr.testing import assert_curve_close, assert_not_worse  # noqa: E402


@pytest.mark.parametrize("kind", list(BOUNDED_KINDS))
def test_assert_curve_close_holds_the_exact_curves_in_a_bounded_band(kind: str) -> None:
    c, s = cases()
    bounded, exact = BOUNDED_KINDS[kind](c, s), exact_of(c, s)
    assert_curve_close(bounded.pr_band(), exact.pr_curve())
    assert_curve_close(bounded.roc_band(), exact.roc_curve())
    moved = exact.pr_curve().copy()
    moved[3, 1] += 0.5  # far outside every box of its recall
    moved[5, 1] = -1.0
    message = failure(lambda: assert_curve_close(bounded.pr_band(), moved))
    boxes = bounded.pr_band().boxes.shape[0]
    assert message.splitlines()[0] == f"curve points outside the band at 2 of {moved.shape[0]} points ({boxes} boxes; atol=1e-09, rtol=0.0):"
    assert message.splitlines()[2].split()[0] == "3" and message.splitlines()[3].split()[0] == "5"
    # a tolerance as wide as the shift lets the first point in, not the second
    assert "at 1 of" in failure(lambda: assert_curve_close(bounded.pr_band(), moved, atol=0.5))
    with pytest.raises(AssertionError, match="2 columns"):
        assert_curve_close(bounded.pr_band(), exact.pr_score_curve())


@pytest.mark.parametrize("kind", list(SINGLE_KINDS))
def test_assert_not_worse_with_two_evaluators_is_the_unpaired_comparison(kind: str) -> None:
    c, s = cases(0, 200)
    c2, s2 = cases(1, 200)
    good, bad = SINGLE_KINDS[kind](c, s), SINGLE_KINDS[kind](c2, -s2)  # the baseline ranks well, the candidate badly
    assert_not_worse(good, bad)  # the candidate is better: passes
    message = failure(lambda: assert_not_worse(bad, good))
    expected = compare(exact_of(c2, -s2), exact_of(c, s), level=0.9)
    assert message.splitlines()[0] == (
        "the candidate is worse than the baseline on area_under_roc_curve at 95% confidence "
        f"({c2.size} and {c.size} cases, {c2.sum() + MISSES} and {c.sum() + MISSES} positive; unpaired delong):"
    )
    assert f"difference  {expected.difference:.6g}" in message
    assert_not_worse(bad, good, margin=1.0)  # the margin absorbs any difference of areas
    with pytest.raises(TypeError, match=r"assert_not_worse: with two evaluators .*by keyword"):
        assert_not_worse(good, bad, "average_precision")


def test_assert_not_worse_refuses_a_bounded_summary_and_a_missing_baseline() -> None:
    c, s = cases()
    with pytest.raises(UnsupportedQuery, match=r"assert_not_worse: BoundedEvaluation .*exact ScoredPrecisionRecallEvaluation"):
        assert_not_worse(exact_of(c, s), BOUNDED_KINDS["bounded_exact"](c, s))
    with pytest.raises(TypeError, match=r"assert_not_worse: argument 'baseline_scores' is required"):
        assert_not_worse(c, s)


@pytest.mark.parametrize("fresh_arrays", [False, True])
def test_lingpipe_41_memo_is_reused_until_the_cases_change(monkeypatch: pytest.MonkeyPatch, fresh_arrays: bool) -> None:
    from scored_pr._core import points as P
    builds = []
    every_rank = P.every_rank
    monkeypatch.setattr(P, "every_rank", lambda *a: builds.append(1) or every_rank(*a))
    if fresh_arrays:  # an evaluator whose ranked_cases() returns new arrays at every call
        ranked = ScoredPrecisionRecallEvaluation.ranked_cases
        monkeypatch.setattr(
            ScoredPrecisionRecallEvaluation, "ranked_cases",
            lambda self: tuple(None if a is None else a.copy() for a in ranked(self)),
        )  # fmt: skip
    c, s = cases(13, 25)
    data = list(zip(c.tolist(), s.tolist()))
    lp = fresh41(data)
    first = answers41(lp)
    assert len(builds) == 1  # every 4.1 query of the same cases from one ranking
    assert answers41(lp) == first and len(builds) == 1
    lp.evaluation.add_case(False, -0.0)  # a change the wrapper did not see
    assert answers41(lp) == answers41(fresh41([*data, (False, -0.0)]))
    assert builds.count(1) == 3  # once for lp, once for the fresh wrapper

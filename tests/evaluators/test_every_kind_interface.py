"""One evaluator interface: every single-ranking kind answers scored_pr.Evaluation the same way.

The kinds: the exact evaluator, a window, a bounded summary and a synchronized
evaluator. Each is an instance of the protocol, has the exact evaluator's
signatures, answers every query or refuses it with UnsupportedQuery (never
AttributeError), and answers the threshold queries as a slow literal loop over
the cases, scikit-learn, and (bounded) within certified bounds.

Then the state API of every kind (exact, bounded, windowed, synchronized, multi-query):
to_dict/from_dict, save/load and pickle, each route giving back an equal evaluator.
``test_every_kind.py`` holds the measures and the consumers over every kind.
"""

from __future__ import annotations

import inspect
import json
import math
import pickle
import pickletools
import random
import threading
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scored_pr
from scored_pr import (
    BoundedEvaluation,
    Bounds,
    Confusion,
    Evaluation,
    MultiQueryEvaluation,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
    lingpipe,
)
from scored_pr._evaluators.base import DISPLAY, MUTATORS, PROPERTIES, QUERIES, STATE, TEXT, EvaluationBase

Exact = ScoredPrecisionRecallEvaluation

KINDS: dict[str, Callable[[], Any]] = {
    "ScoredPrecisionRecallEvaluation": Exact,
    "WindowedEvaluation": lambda: WindowedEvaluation(size=1000),
    "BoundedEvaluation": BoundedEvaluation,
    "SynchronizedEvaluation": SynchronizedEvaluation,
}

#: One call of every query of the protocol: positional and keyword arguments.
CALLS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "area_under_pr_curve": ((), {}),
    "area_under_roc_curve": ((), {}),
    "average_precision": ((), {}),
    "average_precision_at": ((3,), {}),
    "confidence_interval": (("average_precision",), {"n_resamples": 20, "seed": 0}),
    "confusion_at_threshold": ((0.5,), {}),
    "e_measure_at": ((3,), {}),
    "eleven_point_interpolated_precision": ((), {}),
    "f_measure_at": ((3,), {"beta": 2.0}),
    "f_measure_at_threshold": ((0.5,), {"beta": 0.5}),
    "hit_curve": ((), {}),
    "k_at_recall": ((0.5,), {}),
    "maximum_f_measure": ((), {}),
    "maximum_f_measure_threshold": ((), {}),
    "pr_breakeven_point": ((), {}),
    "pr_curve": ((), {}),
    "pr_score_curve": ((), {}),
    "precision_at": ((3,), {}),
    "precision_at_recall": ((0.5,), {}),
    "precision_at_threshold": ((0.5,), {}),
    "print_precision_recall_curve": (([[0.5, 1.0]],), {"file": None}),
    "r_precision": ((), {}),
    "recall_at": ((3,), {}),
    "recall_at_threshold": ((0.5,), {}),
    "reciprocal_rank": ((), {}),
    "roc_curve": ((), {}),
    "roc_points": ((), {}),
    "summary": ((), {}),
    "threshold_at_precision": ((0.5,), {}),
    "threshold_at_recall": ((0.5,), {}),
    "brier_score": ((), {}),
    "calibration_curve": ((), {"n_bins": 3, "strategy": "quantile"}),
    "calibration_slope_intercept": ((), {}),
    "expected_calibration_error": ((), {"n_bins": 4, "norm": "l2", "debias": True}),
    "log_loss": ((), {}),
    "reliability_diagram": ((), {"n_resamples": 20, "seed": 1}),
    "area_under_prg_curve": ((), {}), "cost_curve": ((), {}),
    "cumulative_gain_curve": ((), {}), "det_curve": ((), {}), "expected_cost": ((0.5,), {"cost_fn": 2.0}),
    "ks_statistic": ((), {}), "lift_curve": ((), {}), "min_cost_threshold": ((), {"cost_fn": 5.0}),
    "net_benefit": (([0.1, 0.5],), {}), "operating_point": (("recall", {"precision": 0.5}), {}),
    "precision_recall_gain_curve": ((), {}),
}
#: Keyword arguments of the protocol's queries that a kind may refuse (UnsupportedQuery), with a value.
REFUSABLE = [
    ("pr_curve", {"interpolate": True}),
    ("roc_curve", {"interpolate": True}),
    ("area_under_pr_curve", {"interpolate": True}),
    ("area_under_roc_curve", {"interpolate": True}),
    ("area_under_roc_curve", {"max_fpr": 0.5}),
    ("average_precision", {"ties": "stable"}),
    ("average_precision", {"ties": "expected"}),
]


def _filled(kind: str) -> Any:
    ev = KINDS[kind]()
    ev.add_cases([True, False, True, False, True, True], [0.9, 0.8, 0.5, 0.5, 0.3, 0.1])
    ev.add_misses(1)
    ev.add_negative_misses(2)
    return ev


def _params(sig: inspect.Signature) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


# ----------------------------------------------------------------- the protocol


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_an_evaluation(kind: str) -> None:
    assert isinstance(KINDS[kind](), Evaluation)
    assert isinstance(_filled(kind), scored_pr.Evaluation)
    assert not isinstance(object(), Evaluation)


def test_the_protocol_lists_every_query_of_the_exact_evaluator() -> None:
    public = {n for n in dir(Exact) if not n.startswith("_")}
    # what only the exact evaluator has: combining, its cases in rank order, a reweighted view of them, and
    # what the measure table's calibration entries read
    own = {"merge", "ranked_cases", "at_prevalence", "scores_are_probabilities"}
    # every kind's HTML report and LingPipe's text printing, outside the protocol (a user's own class
    # need not have them)
    assert public - own - set(DISPLAY) - set(TEXT) == set(PROPERTIES + MUTATORS + QUERIES + STATE)
    from scored_pr._kinds import KINDS as registered

    assert all(hasattr(kind.cls, name) for kind in registered.values() for name in DISPLAY)
    # the printing stays on every kind that holds one ranking, for LingPipe code
    assert all(callable(getattr(kind.cls, name, None)) for kind in registered.values()
               if kind.holds in ("ranking", "bounded") for name in TEXT)
    members = {n for n in dir(Evaluation) if not n.startswith("_")}
    assert members == set(PROPERTIES + MUTATORS + QUERIES + STATE)
    assert not set(TEXT) & members
    assert Evaluation.__module__ == "scored_pr" and Evaluation.__doc__


@pytest.mark.parametrize("name", MUTATORS + QUERIES + STATE)
def test_the_protocol_has_the_exact_evaluators_signatures(name: str) -> None:
    assert _params(inspect.signature(getattr(Evaluation, name))) == _params(inspect.signature(getattr(Exact, name)))


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "ScoredPrecisionRecallEvaluation"])
@pytest.mark.parametrize("name", MUTATORS + QUERIES + TEXT + STATE)
def test_every_kind_has_the_exact_evaluators_signatures(kind: str, name: str) -> None:
    ev = KINDS[kind]()
    mine, exact = inspect.signature(getattr(ev, name)), inspect.signature(getattr(Exact(), name))
    if kind == "WindowedEvaluation" and (name in MUTATORS or name in ("from_dict", "load")):
        # a window's additions take a time too, and its loads a clock: the exact evaluator's
        # parameters, then optional keyword-only extras
        extra = list(mine.parameters.values())[len(exact.parameters):]
        assert _params(mine)[: len(exact.parameters)] == _params(exact)
        assert extra or name in MUTATORS
        assert all(p.kind is p.KEYWORD_ONLY and p.default is not p.empty for p in extra), extra
    elif kind == "BoundedEvaluation" or name in STATE:
        assert _params(mine) == _params(exact)  # the same parameters; results are Bounds, or this kind
    else:
        assert mine == exact  # generated from the exact evaluator's: annotations too


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PROPERTIES)
def test_every_kind_has_the_properties(kind: str, name: str) -> None:
    ev, exact = _filled(kind), _filled("ScoredPrecisionRecallEvaluation")
    assert getattr(ev, name) == getattr(exact, name)


def test_generated_queries_carry_the_exact_evaluators_docstring() -> None:
    # the window's own: the incremental ROC AUC, its summary and the static printer
    own = {WindowedEvaluation: {"area_under_roc_curve", "summary", "print_precision_recall_curve"}}
    for cls in (WindowedEvaluation, SynchronizedEvaluation):
        for name in set(QUERIES) - own.get(cls, set()):
            method = getattr(cls, name)
            exact_doc = inspect.getdoc(getattr(Exact, name)) or ""
            assert exact_doc.splitlines()[0] in (inspect.getdoc(method) or ""), (cls, name)
            assert inspect.signature(method) == inspect.signature(getattr(Exact, name)), (cls, name)
    assert "SynchronizedEvaluation" not in dir(SynchronizedEvaluation())  # sanity of the next line
    assert set(QUERIES) <= set(dir(SynchronizedEvaluation()))


def test_the_shared_base_holds_the_properties_once() -> None:
    for cls in (Exact, WindowedEvaluation, BoundedEvaluation):
        assert issubclass(cls, EvaluationBase)
        for name in ("pos_label", "positive_weight", "negative_weight"):
            assert name not in vars(cls), (cls, name)  # inherited, not repeated
    for kind in ("ScoredPrecisionRecallEvaluation", "WindowedEvaluation", "BoundedEvaluation"):
        ev = KINDS[kind]()
        ev.add_cases([True, False], [0.5, 0.4], sample_weight=[2.0, 1.0])
        with pytest.raises(ValueError, match=r"^precision_at: this measure counts cases by rank"):
            ev.precision_at(1)


# ------------------------------------------------- every query, on every kind


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", QUERIES + TEXT)
def test_every_query_answers_or_says_why_not(kind: str, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    ev = _filled(kind)
    args, kwargs = CALLS[name]
    try:
        getattr(ev, name)(*args, **kwargs)
    except UnsupportedQuery as e:
        assert str(e).startswith(f"{kind}.{name}: "), str(e)
        assert "; " in str(e)  # why; what to use instead
        assert isinstance(e, NotImplementedError)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "kwargs"), REFUSABLE)
def test_every_option_answers_or_says_why_not(kind: str, name: str, kwargs: dict[str, Any]) -> None:
    ev = _filled(kind)
    try:
        got = getattr(ev, name)(**kwargs)
    except UnsupportedQuery as e:
        assert str(e).startswith(f"{kind}.{name}"), str(e)
        assert kind == "BoundedEvaluation"
    else:
        assert kind != "BoundedEvaluation"
        want = getattr(_filled("ScoredPrecisionRecallEvaluation"), name)(**kwargs)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", STATE)
def test_state_methods_answer_or_say_why_not(name: str, tmp_path: Any) -> None:
    for kind in KINDS:
        ev = _filled(kind)
        arg = {"to_dict": (), "save": (tmp_path / f"{kind}.npz",)}.get(name)
        try:
            if arg is not None:
                getattr(ev, name)(*arg)
            else:
                ev.save(tmp_path / f"{kind}.npz")  # from_dict / load: from this kind's own state
                src = ev.to_dict() if name == "from_dict" else tmp_path / f"{kind}.npz"
                back = getattr(type(ev), name)(src)
                assert back == ev
        except UnsupportedQuery as e:
            assert str(e).startswith(f"{kind}.") and kind == "WindowedEvaluation", str(e)


def test_bounded_answers_the_queries_it_lacked_or_says_why() -> None:
    s = _filled("BoundedEvaluation")
    for name in ("f_measure_at", "e_measure_at", "f_measure_at_threshold", "precision_at_threshold"):
        assert isinstance(getattr(s, name)(*CALLS[name][0]), Bounds), name
    assert all(isinstance(x, Bounds) for x in s.confusion_at_threshold(0.5))
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.confidence_interval: the cases .* are gone"):
        s.confidence_interval()
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.hit_curve: .*; use recall_at"):
        s.hit_curve()


def test_a_refused_bounded_query_still_checks_its_arguments_first() -> None:
    s = _filled("BoundedEvaluation")
    with pytest.raises(ValueError, match=r"average_precision: argument 'ties' must be"):
        s.average_precision(ties="nope")
    with pytest.raises(TypeError, match=r"pr_curve: argument 'interpolate' must be"):
        s.pr_curve(interpolate="yes")


def test_bounded_print_precision_recall_curve_prints_as_the_evaluator(capsys: pytest.CaptureFixture[str]) -> None:
    s = _filled("BoundedEvaluation")
    BoundedEvaluation.print_precision_recall_curve(s.pr_curve())
    mine = capsys.readouterr().out
    Exact.print_precision_recall_curve(_filled("ScoredPrecisionRecallEvaluation").pr_curve())
    assert mine == capsys.readouterr().out and mine.count("\n") == 5


def test_window_confidence_interval_takes_stratified_as_the_evaluator() -> None:
    w = _filled("WindowedEvaluation")
    got = w.confidence_interval("average_precision", n_resamples=50, seed=3, stratified=False)
    assert got == w.snapshot().confidence_interval("average_precision", n_resamples=50, seed=3, stratified=False)


def test_synchronized_threshold_queries_run_under_the_lock() -> None:
    seen: list[bool] = []

    class Probe(Exact):
        __slots__ = ()

        def confusion_at_threshold(self, threshold: float) -> Confusion:
            seen.append(shared.lock._is_owned())  # type: ignore[attr-defined]
            return super().confusion_at_threshold(threshold)

    shared = SynchronizedEvaluation(Probe())
    shared.add_cases([True, False], [0.9, 0.1])
    assert shared.confusion_at_threshold(0.5) == (1, 0, 1, 0)
    assert seen == [True]
    seen.clear()
    holder = threading.Thread(target=lambda: shared.confusion_at_threshold(0.5))
    holder.start()
    holder.join()
    assert seen == [True]


def test_ranked_cases_is_the_rank_order_read_only() -> None:
    rng = random.Random(4)
    cases = [(rng.random() < 0.4, float(rng.randint(0, 5)), rng.choice([1.0, 0.5, 2.0])) for _ in range(60)]
    ev = Exact()
    for c, s, w in cases:
        ev.add_case(c, s, w)
    scores, correct, weights = ev.ranked_cases()
    # descending scores, ties in insertion order (Python's sort is stable)
    want = sorted(cases, key=lambda t: -t[1])
    assert scores.tolist() == [t[1] for t in want]
    assert correct.tolist() == [t[0] for t in want]
    assert weights is not None and weights.tolist() == [t[2] for t in want]
    with pytest.raises(ValueError):
        correct[0] = not correct[0]
    unweighted = Exact()
    unweighted.add_cases([True], [1.0])
    assert unweighted.ranked_cases()[2] is None


# ---------------------------------------------------------- threshold queries


def _literal(cases: list[tuple[bool, float, float]], misses: int, negative_misses: int, t: float) -> tuple[float, ...]:
    """TP, FP, TN, FN of accepting score >= t, summed case by case."""
    tp = sum(w for c, s, w in cases if c and s >= t)
    fp = sum(w for c, s, w in cases if not c and s >= t)
    tn = sum(w for c, s, w in cases if not c and s < t) + negative_misses
    fn = sum(w for c, s, w in cases if c and s < t) + misses
    return tp, fp, tn, fn


def _f(tp: float, fp: float, fn: float, beta: float) -> float:
    b2 = beta * beta
    den = (1 + b2) * tp + b2 * fn + fp
    return (1 + b2) * tp / den if den else math.nan


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def _random_cases(seed: int, weighted: bool) -> tuple[list[tuple[bool, float, float]], int, int]:
    rng = random.Random(seed)
    n = rng.randint(0, 40)
    levels = rng.randint(1, 12)  # few distinct scores: many ties
    cases = [
        (rng.random() < 0.4, rng.randint(0, levels) / levels, rng.choice([0.5, 1.0, 3.0]) if weighted else 1.0)
        for _ in range(n)
    ]
    return cases, rng.randint(0, 3), rng.randint(0, 3)


def _thresholds(cases: list[tuple[bool, float, float]]) -> list[float]:
    scores = sorted({s for _, s, _ in cases})
    mids = [(a + b) / 2 for a, b in zip(scores, scores[1:])]
    return scores + mids + [-math.inf, math.inf, -1.0, 2.0]


def _fed(ev: Any, cases: list[tuple[bool, float, float]], misses: int, negative_misses: int) -> Any:
    for c, s, w in cases:
        ev.add_case(c, s, w)
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    return ev


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(25))
def test_threshold_queries_equal_a_literal_loop(seed: int, weighted: bool, ties: str) -> None:
    cases, misses, negative_misses = _random_cases(seed, weighted)
    ev = _fed(Exact(ties=ties), cases, misses, negative_misses)
    for t in _thresholds(cases):
        tp, fp, tn, fn = _literal(cases, misses, negative_misses, t)
        c = ev.confusion_at_threshold(t)
        assert isinstance(c, Confusion)
        if weighted:
            assert c == pytest.approx((tp, fp, tn, fn), rel=1e-12, abs=1e-12)
        else:
            assert c == (tp, fp, tn, fn) and all(type(x) is int for x in c)
        precision = tp / (tp + fp) if tp + fp else math.nan
        recall = tp / (tp + fn) if tp + fn else math.nan
        for beta in (1.0, 0.5, 3.0):
            got = ev.f_measure_at_threshold(t, beta)
            want = _f(tp, fp, fn, beta)
            assert _same(got, want) if not weighted else got == pytest.approx(want, rel=1e-12, nan_ok=True)
        got_p, got_r = ev.precision_at_threshold(t), ev.recall_at_threshold(t)
        if weighted:
            assert got_p == pytest.approx(precision, rel=1e-12, nan_ok=True)
            assert got_r == pytest.approx(recall, rel=1e-12, nan_ok=True)
        else:
            assert _same(got_p, precision) and _same(got_r, recall)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(15))
def test_threshold_queries_equal_scikit_learn(seed: int, weighted: bool) -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    cases, _, _ = _random_cases(100 + seed, weighted)
    if not cases:
        return
    y = np.array([c for c, _, _ in cases])
    s = np.array([x for _, x, _ in cases])
    w = np.array([x for _, _, x in cases])
    ev = Exact()
    ev.add_cases(y, s, sample_weight=w if weighted else None)
    for t in _thresholds(cases):
        pred = s >= t
        sw = w if weighted else None
        tn, fp, fn, tp = metrics.confusion_matrix(y, pred, labels=[False, True], sample_weight=sw).ravel()
        assert ev.confusion_at_threshold(t) == pytest.approx((tp, fp, tn, fn), rel=1e-12)
        kw: dict[str, Any] = {"sample_weight": sw, "zero_division": np.nan}
        assert ev.precision_at_threshold(t) == pytest.approx(metrics.precision_score(y, pred, **kw), nan_ok=True)
        assert ev.recall_at_threshold(t) == pytest.approx(metrics.recall_score(y, pred, **kw), nan_ok=True)
        want_f = metrics.fbeta_score(y, pred, beta=2.0, **kw)
        assert ev.f_measure_at_threshold(t, beta=2.0) == pytest.approx(want_f, nan_ok=True)


@pytest.mark.parametrize("kind", ["WindowedEvaluation", "SynchronizedEvaluation"])
@pytest.mark.parametrize("seed", range(10))
def test_window_and_synchronized_threshold_queries_equal_the_evaluator(kind: str, seed: int) -> None:
    cases, misses, negative_misses = _random_cases(200 + seed, weighted=seed % 2 == 1)
    if kind == "WindowedEvaluation":
        ev = WindowedEvaluation(size=15)
        _fed(ev, cases, misses, negative_misses)
        exact = ev.snapshot()
    else:
        ev = _fed(SynchronizedEvaluation(), cases, misses, negative_misses)
        exact = _fed(Exact(), cases, misses, negative_misses)
    for t in _thresholds(cases):
        assert ev.confusion_at_threshold(t) == exact.confusion_at_threshold(t)
        for name in ("precision_at_threshold", "recall_at_threshold", "f_measure_at_threshold"):
            assert _same(getattr(ev, name)(t), getattr(exact, name)(t)), name


def _within(b: Bounds, exact: float) -> bool:
    if math.isnan(exact):
        return math.isnan(b.estimate) or not b.exact  # NaN exact: the summary cannot claim a number exactly
    return b.lower <= exact <= b.upper


@pytest.mark.parametrize("max_bins", [1, 2, 5, 4096])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(25))
def test_bounded_threshold_queries_hold_the_exact_values(seed: int, weighted: bool, max_bins: int) -> None:
    cases, misses, negative_misses = _random_cases(300 + seed, weighted)
    rng = random.Random(seed)
    cases = [(c, s + rng.random() / 1000, w) for c, s, w in cases]  # ties, and also distinct scores in a bin
    ev = _fed(Exact(), cases, misses, negative_misses)
    s = _fed(BoundedEvaluation(max_bins=max_bins), cases, misses, negative_misses)
    for t in _thresholds(cases) + [0.25, 0.5, 0.75]:
        pairs = [(s.precision_at_threshold(t), ev.precision_at_threshold(t)),
                 (s.recall_at_threshold(t), ev.recall_at_threshold(t)),
                 (s.f_measure_at_threshold(t), ev.f_measure_at_threshold(t)),
                 (s.f_measure_at_threshold(t, 3.0), ev.f_measure_at_threshold(t, 3.0)),
                 *zip(s.confusion_at_threshold(t), ev.confusion_at_threshold(t))]
        for b, exact in pairs:
            assert isinstance(b, Bounds)
            assert _within(b, exact), (t, b, exact)
            if b.exact:
                assert _same(float(b), float(exact)), (t, b, exact)  # exact: the evaluator's float
        if s.exact and not weighted:
            assert all(b.exact for b, _ in pairs)


@pytest.mark.parametrize("max_bins", [1, 3, 4096])
@pytest.mark.parametrize("seed", range(25))
def test_bounded_f_e_and_ap_at_a_rank_hold_the_exact_values(seed: int, max_bins: int) -> None:
    cases, misses, negative_misses = _random_cases(400 + seed, weighted=False)
    rng = random.Random(seed)
    cases = [(c, s + rng.choice([0.0, rng.random() / 1000]), w) for c, s, w in cases]  # ties and distinct
    ev = _fed(Exact(), cases, misses, negative_misses)
    s = _fed(BoundedEvaluation(max_bins=max_bins), cases, misses, negative_misses)
    for k in (1, 2, 3, 7, 20, 100):
        for beta in (1.0, 0.5):
            for name in ("f_measure_at", "e_measure_at", "average_precision_at"):
                args = (k,) if name == "average_precision_at" else (k, beta)
                b, exact = getattr(s, name)(*args), getattr(ev, name)(*args)
                assert _within(b, exact), (name, k, b, exact)
                if b.exact:
                    assert _same(float(b), exact), (name, k, b, exact)
                if s.exact:
                    assert b.exact


@pytest.mark.parametrize("max_bins", [1, 3, 4096])
@pytest.mark.parametrize("seed", range(25))
def test_bounded_k_and_precision_at_recall_hold_the_exact_values(seed: int, max_bins: int) -> None:
    cases, misses, negative_misses = _random_cases(500 + seed, weighted=False)
    rng = random.Random(seed)
    cases = [(c, s + rng.choice([0.0, rng.random() / 1000]), w) for c, s, w in cases]
    ev = _fed(Exact(), cases, misses, negative_misses)
    s = _fed(BoundedEvaluation(max_bins=max_bins), cases, misses, negative_misses)
    for level in (0.05, 0.2, 1 / 3, 0.5, 0.7, 0.9, 1.0):
        for name in ("k_at_recall", "precision_at_recall"):
            b, exact = getattr(s, name)(level), getattr(ev, name)(level)
            assert isinstance(b, Bounds)
            assert _within(b, exact), (name, level, b, exact)
            if b.exact:
                assert _same(float(b), float(exact)), (name, level, b, exact)
            if s.exact:
                assert b.exact


def test_threshold_queries_empty_and_one_class() -> None:
    for kind in KINDS:
        ev = KINDS[kind]()
        assert tuple(ev.confusion_at_threshold(0.5)) == (0, 0, 0, 0)
        for name in ("precision_at_threshold", "recall_at_threshold", "f_measure_at_threshold"):
            assert math.isnan(getattr(ev, name)(0.5)), (kind, name)  # 0/0
        ev.add_cases([False, False], [0.2, 0.7])  # negatives only
        assert float(ev.precision_at_threshold(0.5)) == 0.0 and math.isnan(ev.precision_at_threshold(0.9))
        assert math.isnan(ev.recall_at_threshold(0.5))
        assert float(ev.f_measure_at_threshold(0.5)) == 0.0 and math.isnan(ev.f_measure_at_threshold(0.9))
        ev.reset()
        ev.add_cases([True, True], [0.2, 0.7])
        ev.add_misses(2)  # misses are false negatives at every threshold
        assert tuple(ev.confusion_at_threshold(-math.inf)) == (2, 0, 0, 2), kind
        assert float(ev.recall_at_threshold(-math.inf)) == 0.5 and float(ev.precision_at_threshold(0.5)) == 1.0


@pytest.mark.parametrize("kind", KINDS)
def test_threshold_queries_reject_bad_arguments_naming_them(kind: str) -> None:
    ev = _filled(kind)
    before = ev.summary()
    for name in ("confusion_at_threshold", "precision_at_threshold", "recall_at_threshold", "f_measure_at_threshold"):
        with pytest.raises(ValueError, match=rf"^{name}: argument 'threshold' must be .*; got nan "):
            getattr(ev, name)(math.nan)
        with pytest.raises(TypeError, match=rf"^{name}: argument 'threshold' must be numeric, not a string; got the string '0.5'; pass a number\.$"):
            getattr(ev, name)("0.5")
    with pytest.raises(ValueError, match=r"^f_measure_at_threshold: argument 'beta' must be"):
        ev.f_measure_at_threshold(0.5, beta=0.0)
    after = ev.summary()
    assert before.keys() == after.keys() and all(_same(float(before[k]), float(after[k])) for k in before)


# --------------------------------------------------------------------------- the state API of every kind
# The state API of every evaluator kind: to_dict/from_dict, save/load and pickle.
#
# Every kind (exact, bounded, windowed, synchronized, multi-query) round-trips by every route it
# offers and answers every query identically afterwards; a restored window keeps sliding exactly
# as the original (both fed the same items after the round trip, compared after every one); a
# file of one kind read by another kind's ``load`` is refused with the kind named; and no pickle
# of any kind names a private module (``scored_pr._...``), so moving a private file cannot break
# a pickle.


def _repr(value: Any) -> Any:
    """A value as something == compares bit for bit (NaN included): floats and arrays by repr."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, [repr(v) for v in value.ravel().tolist()])
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return {k: _repr(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, *(_repr(v) for v in value)]
    return value


def answers(ev: Any) -> dict[str, Any]:
    """Every query of a single-ranking evaluator (its counts, summary, curves and thresholds)."""
    out: dict[str, Any] = {"type": type(ev).__name__, "repr": repr(ev)}
    calls: dict[str, Callable[[], Any]] = {
        "summary": ev.summary,
        "num_cases": lambda: ev.num_cases,
        "num_misses": lambda: ev.num_misses,
        "num_negative_misses": lambda: ev.num_negative_misses,
        "pr_curve": ev.pr_curve,
        "pr_curve_interpolated": lambda: ev.pr_curve(True),
        "roc_curve": ev.roc_curve,
        "area_under_roc_curve": ev.area_under_roc_curve,
        "average_precision": ev.average_precision,
        "maximum_f_measure": ev.maximum_f_measure,
    }
    if not isinstance(ev, BoundedEvaluation):
        calls.update({
            "pr_score_curve": ev.pr_score_curve,
            "precision_at_3": lambda: ev.precision_at(3),
            "recall_at_3": lambda: ev.recall_at(3),
            "threshold_at_recall": lambda: ev.threshold_at_recall(0.5),
            "eleven_point": ev.eleven_point_interpolated_precision,
        })
    for name, call in calls.items():
        try:
            out[name] = _repr(call())
        except Exception as exc:  # the same error is the same answer
            out[name] = f"{type(exc).__name__}: {exc}"
    return out


def window_answers(w: WindowedEvaluation) -> dict[str, Any]:
    out = answers(w)
    out.update(len=len(w), seen=w.num_cases_seen, now=repr(w.now), snapshot=w.snapshot().to_dict())
    return out


def pickle_globals(data: bytes) -> set[tuple[str, str]]:
    """(module, name) of every global a pickle loads, from its opcodes (GLOBAL and STACK_GLOBAL)."""
    memo: dict[Any, Any] = {}
    pushed: list[Any] = []
    found: set[tuple[str, str]] = set()
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"):
            pushed.append(arg)
        elif op.name in ("BINGET", "LONG_BINGET", "GET"):
            pushed.append(memo.get(arg))
        elif op.name == "MEMOIZE":
            memo[len(memo)] = pushed[-1] if pushed else None
        elif op.name in ("BINPUT", "LONG_BINPUT", "PUT"):
            memo[arg] = pushed[-1] if pushed else None
        elif op.name == "GLOBAL":
            module, name = arg.split(" ", 1)
            found.add((module, name))
        elif op.name == "STACK_GLOBAL":
            found.add((pushed[-2], pushed[-1]))
        else:
            pushed.append(None)
    return found


def test_the_opcode_walk_sees_private_globals() -> None:
    """The walker finds what it must refuse: the golden pickles of 0.1.0 name private modules."""
    golden = Path(__file__).resolve().parents[1] / "data" / "golden-0.1.0" / "exact-grouped-unweighted.pkl"
    assert ("scored_pr._serialization", "restore") in pickle_globals(golden.read_bytes())
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # GLOBAL (0-3) and STACK_GLOBAL (4-5)
        assert ("scored_pr._state.windowed", "check") in pickle_globals(
            pickle.dumps(scored_pr._state.windowed.check, protocol)  # type: ignore[attr-defined]
        )


# ------------------------------------------------------------------------- every kind


def _cases(n: int, seed: int) -> tuple[list[bool], list[float]]:
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random(n), 2)  # rounded: ties
    correct = rng.random(n) < 0.4 + 0.3 * scores
    return correct.tolist(), scores.tolist()


def make_exact(ties: str = "grouped", weighted: bool = False) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    correct, scores = _cases(40, 1)
    ev.add_cases(correct, scores, sample_weight=[1.0 + (i % 3) for i in range(40)] if weighted else None)
    ev.add_misses(2)
    ev.add_negative_misses(1)
    return ev


def make_bounded() -> BoundedEvaluation:
    ev = BoundedEvaluation(8)
    correct, scores = _cases(200, 2)
    ev.add_cases(correct, scores)
    ev.add_misses(3)
    return ev


def make_synchronized() -> SynchronizedEvaluation:
    return SynchronizedEvaluation(make_exact("stable"))


def make_window(kind: str) -> WindowedEvaluation:
    """Windows of every state: plain, misses, weights, a label, stable ties, time windows on every clock."""
    correct, scores = _cases(30, 3)
    if kind == "size-plain":
        w = WindowedEvaluation(size=12)
        w.add_cases(correct, scores)
    elif kind == "size-auc-asked":  # the sorted containers in use
        w = WindowedEvaluation(size=12, ties="stable")
        for c, s in zip(correct, scores):
            w.add_case(c, s)
            w.area_under_roc_curve()
    elif kind == "size-misses-weights-label":
        w = WindowedEvaluation(size=15, pos_label="yes")
        for i, (c, s) in enumerate(zip(correct, scores)):
            w.add_case("yes" if c else "no", s, weight=1.0 + i % 2)
            if i % 7 == 3:
                w.add_misses(2)
            if i % 11 == 5:
                w.add_negative_misses(1)
    elif kind == "time-explicit":
        w = WindowedEvaluation(seconds=10.0, clock=None)
        for i, (c, s) in enumerate(zip(correct, scores)):
            w.add_case(c, s, time=float(i))
            if i % 5 == 0:
                w.add_misses(1, time=float(i))
    elif kind == "time-default-settled-explicit":  # the default clock, settled by a first explicit time
        w = WindowedEvaluation(seconds=10.0)
        w.add_cases(correct, scores, times=[float(i) for i in range(30)])
    elif kind == "time-default-unsettled":
        w = WindowedEvaluation(seconds=5.0, ties="stable")
    elif kind == "empty-size":
        w = WindowedEvaluation(size=3)
    else:
        raise AssertionError(kind)
    w._check()
    return w


WINDOWS = [
    "size-plain", "size-auc-asked", "size-misses-weights-label", "time-explicit",
    "time-default-settled-explicit", "time-default-unsettled", "empty-size",
]


def every_kind() -> list[Any]:
    return [
        pytest.param(lambda: make_exact(), id="exact-grouped"),
        pytest.param(lambda: make_exact("stable", True), id="exact-stable-weighted"),
        pytest.param(make_bounded, id="bounded"),
        pytest.param(make_synchronized, id="synchronized"),
        *(pytest.param(lambda k=k: make_window(k), id=f"windowed-{k}") for k in WINDOWS),
        pytest.param(lambda: make_multi(), id="multi"),
        pytest.param(lambda: make_multi(trec=True), id="multi-trec"),
        pytest.param(lambda: lingpipe.ScoredPrecisionRecallEvaluation("4.1"), id="lingpipe"),
    ]


@pytest.mark.parametrize("make", every_kind())
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))  # GLOBAL (0-3), STACK_GLOBAL (4, 5)
def test_no_pickle_names_a_private_module(make: Callable[[], Any], protocol: int, tmp_path: Path) -> None:
    ev = make()
    if isinstance(ev, lingpipe.ScoredPrecisionRecallEvaluation) and protocol < 2:
        pytest.skip("the LingPipe class pickles from protocol 2 on (a __slots__ class), as in 0.1.0")
    data = pickle.dumps(ev, protocol)
    names = pickle_globals(data)
    ours = {(m, n) for m, n in names if m.split(".")[0] == "scored_pr"}
    assert ours, names  # the walk saw the class
    private = {(m, n) for m, n in ours if any(part.startswith("_") for part in m.split("."))}
    assert not private, f"pickle names private modules: {sorted(private)}"
    assert type(pickle.loads(data)) is type(ev)


@pytest.mark.parametrize(
    "cls", [ScoredPrecisionRecallEvaluation, BoundedEvaluation, WindowedEvaluation, SynchronizedEvaluation,
            MultiQueryEvaluation, scored_pr.Bounds, scored_pr.CurveBand, scored_pr.OperatingPoint,
            scored_pr.Interval, scored_pr.Comparison, scored_pr.UnsupportedQuery],
)
def test_public_classes_report_the_public_module(cls: type) -> None:
    assert cls.__module__ == "scored_pr"
    assert getattr(scored_pr, cls.__qualname__) is cls
    assert lingpipe.ScoredPrecisionRecallEvaluation.__module__ == "scored_pr.lingpipe"


def test_values_pickle_by_public_names() -> None:
    """The results users keep (bounds, bands, operating points, intervals, comparisons) name scored_pr too."""
    ev = make_exact()
    values = [
        make_bounded().average_precision(), make_bounded().pr_band(), ev.threshold_at_recall(0.5),
        ev.confidence_interval("area_under_roc_curve", method="delong"),
        scored_pr.compare(ev, make_exact("stable")),
    ]
    for value in values:
        data = pickle.dumps(value)
        assert {m for m, _ in pickle_globals(data) if m.startswith("scored_pr")} == {"scored_pr"}
        assert _repr(pickle.loads(data)) == _repr(value)


# ------------------------------------------------------------------------------ windows


def _route(w: WindowedEvaluation, route: str, tmp_path: Path, **kw: Any) -> WindowedEvaluation:
    if route == "dict":
        return WindowedEvaluation.from_dict(json.loads(json.dumps(w.to_dict(), allow_nan=False)), **kw)
    if route == "npz":
        w.save(tmp_path / "w.npz")
        return WindowedEvaluation.load(tmp_path / "w.npz", **kw)
    return pickle.loads(pickle.dumps(w))


def _more(w: WindowedEvaluation, kind: str, i: int) -> None:
    """The i-th item fed to both windows after the round trip."""
    correct, score = i % 3 != 1, round(0.37 * i % 1.0, 2)
    if kind.startswith("time-default-unsettled"):
        w.add_case(correct, score, time=100.0 + 2.5 * i)
    elif kind.startswith("time"):
        w.add_case(correct, score, time=29.0 + 2.5 * i)
        if i % 4 == 0:
            w.add_negative_misses(1, time=29.0 + 2.5 * i)
    elif kind == "size-misses-weights-label":
        w.add_case("yes" if correct else "no", score, weight=0.5 + i % 3)
        if i % 5 == 0:
            w.add_misses(1)
    else:
        w.add_case(correct, score)
        if i % 6 == 0:
            w.add_misses(1)


@pytest.mark.parametrize("route", ["dict", "npz", "pickle"])
@pytest.mark.parametrize("kind", WINDOWS)
def test_a_window_round_trips_and_keeps_sliding_like_the_original(kind: str, route: str, tmp_path: Path) -> None:
    original = make_window(kind)
    restored = _route(original, route, tmp_path)
    assert type(restored) is WindowedEvaluation and restored == original
    assert window_answers(restored) == window_answers(original)
    assert (restored.size, restored.seconds, restored.ties, restored.pos_label) == (
        original.size, original.seconds, original.ties, original.pos_label)
    assert restored.clock is original.clock  # the default clock, or none
    for i in range(25):  # enough for every case of the original to leave the window
        _more(original, kind, i)
        _more(restored, kind, i)
        restored._check()
        assert window_answers(restored) == window_answers(original), i
    assert restored.to_dict() == original.to_dict()


def test_window_dict_layout_and_json() -> None:
    w = make_window("size-misses-weights-label")
    d = w.to_dict()
    assert (d["format"], d["kind"], d["version"], d["clock"]) == ("scored_pr.WindowedEvaluation", "windowed", 1, "none")
    assert d["first_id"] + len(d["scores"]) == w.num_cases_seen == 30
    assert sum(r[1] for r in d["runs"] if r[2]) == w.num_misses
    assert sum(r[1] for r in d["runs"] if not r[2]) == w.num_negative_misses
    assert d["pos_label"] == "yes" and len(d["weights"]) == len(d["scores"]) == w.num_cases
    json.dumps(d, allow_nan=False)
    inf = WindowedEvaluation(size=3)
    inf.add_cases([True, False], [float("inf"), float("-inf")])
    assert inf.to_dict()["scores"] == ["Infinity", "-Infinity"]
    assert window_answers(WindowedEvaluation.from_dict(inf.to_dict())) == window_answers(inf)
    clocks = {k: make_window(k).to_dict()["clock"] for k in ("time-explicit", "time-default-settled-explicit",
                                                               "time-default-unsettled")}
    assert clocks == {"time-explicit": "none", "time-default-settled-explicit": "none",
                      "time-default-unsettled": "auto"}


class _Ticks:
    """A clock of the caller's own: returns the time it is set to."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("route", ["dict", "npz"])
def test_a_window_on_a_clock_of_its_own_needs_clock_to_load(route: str, tmp_path: Path) -> None:
    ticks = _Ticks(0.0)
    w = WindowedEvaluation(seconds=5.0, clock=ticks)
    for i in range(8):
        ticks.now = float(i)
        w.add_case(i % 2 == 0, i / 10)
    assert w.to_dict()["clock"] == "custom"
    with pytest.raises(ValueError, match=r"clock of its own.*pass clock="):
        _route(w, route, tmp_path)
    with pytest.raises(TypeError, match=r"argument 'clock' must be a callable returning the time, or None; got 3"):
        _route(w, route, tmp_path, clock=3)
    other = _Ticks(7.0)
    restored = _route(w, route, tmp_path, clock=other)
    assert restored.clock is other and window_answers(restored) == window_answers(w)
    for t in (8.0, 10.0, 13.5):  # both clocks move on together: both windows expire alike
        ticks.now = other.now = t
        assert window_answers(restored) == window_answers(w)
    assert restored.num_cases == w.num_cases == 0


def test_monotonic_windows_load_on_the_default_clock(tmp_path: Path) -> None:
    w = WindowedEvaluation(seconds=3600.0)
    w.add_cases([True, False, True], [0.9, 0.4, 0.6])  # no times: runs on time.monotonic
    assert w.to_dict()["clock"] == "monotonic"
    for route in ("dict", "npz", "pickle"):
        restored = _route(w, route, tmp_path)
        assert restored.clock is w.clock and restored.clock is not None
        assert restored.num_cases == 3 and restored.average_precision() == w.average_precision()
        restored.add_case(False, 0.95)  # no time given: read from the default clock, as for the original
        assert restored.num_cases == 4


def test_restored_clock_can_be_overridden(tmp_path: Path) -> None:
    w = make_window("time-explicit")
    restored = _route(w, "dict", tmp_path, clock=_Ticks(40.0))
    assert restored.num_cases == 0  # the new clock says 40: everything older than 30 has left


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"scores": [float("nan")]}, ValueError, "NaN|equal length"),
        ({"size": 0}, ValueError, "field 'size' must be an int >= 1"),
        ({"size": None}, ValueError, "exactly one of fields 'size' and 'seconds'"),
        ({"correct": [1] * 12}, TypeError, "field 'correct' must hold bools"),
        ({"ties": "random"}, ValueError, "field 'ties'"),
        ({"first_id": -1}, ValueError, "field 'first_id'"),
        ({"runs": [[0, 1, True]] * 1}, ValueError, "run key must be a case id"),
        ({"runs": [[30, 5, True]]}, ValueError, "more than its size 12"),
        ({"runs": [[30, 0, True]]}, ValueError, "at least one"),
        ({"clock": "custom"}, ValueError, "a size window has no clock"),
        ({"times": [0.0] * 12}, ValueError, "'times' must be a list in a time window"),
        ({"format": "scored_pr.ScoredPrecisionRecallEvaluation"}, ValueError, "kind 'exact'"),
        ({"version": 2}, ValueError, "field 'version' must be 1"),
        ({"extra": 1}, ValueError, "unexpected \\['extra'\\]"),
    ],
)
def test_a_bad_window_dict_is_refused(change: dict[str, Any], error: type, match: str) -> None:
    d = make_window("size-plain").to_dict()
    assert len(d["scores"]) == 12
    with pytest.raises(error, match=match):
        WindowedEvaluation.from_dict({**d, **change})


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"times": [float(i) for i in range(20, 8, -1)]}, "in order, within the window"),
        ({"now": 100.0}, "within the window"),
        ({"now": "Infinity"}, "field 'now' must be a finite time"),
        ({"runs": [[5.0, 1, True]]}, "run key must be a time in the window"),
        ({"clock": "auto"}, "'auto' .* but the window holds items"),
        ({"seconds": -1.0}, "field 'seconds' must be a finite number > 0"),
    ],
)
def test_a_bad_time_window_dict_is_refused(change: dict[str, Any], match: str) -> None:
    d = make_window("time-explicit").to_dict()
    with pytest.raises(ValueError, match=match):
        WindowedEvaluation.from_dict({**d, **change})


def test_files_of_another_kind_are_refused_with_the_kind_named(tmp_path: Path) -> None:
    files = {
        "exact": (make_exact(), ScoredPrecisionRecallEvaluation),
        "bounded": (make_bounded(), BoundedEvaluation),
        "windowed": (make_window("time-explicit"), WindowedEvaluation),
        "multi": (make_multi(), MultiQueryEvaluation),
    }
    for kind, (ev, _) in files.items():
        ev.save(tmp_path / f"{kind}.npz")
    for kind, (_, cls) in files.items():
        for other, (_, other_cls) in files.items():
            path = tmp_path / f"{other}.npz"
            if other == kind:
                assert type(cls.load(path)) is cls
                continue
            with pytest.raises(ValueError, match=rf"kind '{other}'\), not of a {cls.__name__}; "
                                                 rf"read it with {other_cls.__name__}.load\(\)"):
                cls.load(path)


def test_a_window_file_is_read_within_its_declared_sizes(tmp_path: Path) -> None:
    w = make_window("size-misses-weights-label")
    w.save(tmp_path / "w.npz")
    with np.load(tmp_path / "w.npz") as npz:
        arrays = {name: npz[name] for name in npz.files}
    meta = json.loads(arrays["meta"].tobytes())
    assert meta["num_cases"] == 12
    meta["num_cases"] = 99  # the header now claims more cases than the arrays hold
    np.savez(tmp_path / "bad.npz", **{**arrays, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)})
    with pytest.raises(ValueError, match=r"array 'scores' declares shape \(12,\), expected \(99,\)"):
        WindowedEvaluation.load(tmp_path / "bad.npz")
    with pytest.raises(FileNotFoundError):
        WindowedEvaluation.load(tmp_path / "missing.npz")


def test_old_window_pickles_with_the_default_clock_still_load() -> None:
    """0.1.0 pickled the default clock by reference (scored_pr._windows._default_clock): still read."""
    import scored_pr._windows as windows_module

    w = make_window("time-default-unsettled")
    state = w.__getstate__()
    assert state["clock"] == "default"  # pickled now: a marker, no private function
    old = WindowedEvaluation.__new__(WindowedEvaluation)
    old.__setstate__({**state, "clock": windows_module._default_clock})
    assert old == w and old.clock is w.clock


# --------------------------------------------------------------------------- multi-query

QRELS = """q1 0 d1 1
q1 0 d2 0
q1 0 d3 2
q1 0 d9 1
q2 0 d1 0
q2 0 d4 1
q3 0 d7 1
"""
RUN = """q1 Q0 d1 1 0.9 run-a
q1 Q0 d2 2 0.8 run-a
q1 Q0 d5 3 0.8 run-a
q1 Q0 d3 4 0.3 run-a
q2 Q0 d4 1 0.7 run-a
q2 Q0 d1 2 0.7 run-a
q2 Q0 d6 3 -0.2 run-a
"""
TREC_MEASURES = ("map", "P.2", "ndcg_cut.3", "recip_rank", "num_rel_ret", "bpref", "iprec_at_recall.0.5")


def make_multi(trec: bool = False, tmp: Path | None = None, **options: Any) -> MultiQueryEvaluation:
    if trec:
        import tempfile

        where = Path(tempfile.mkdtemp()) if tmp is None else tmp
        (where / "qrels").write_text(QRELS)
        (where / "run").write_text(RUN)
        return MultiQueryEvaluation.from_trec(where / "qrels", where / "run", **options)
    multi = MultiQueryEvaluation(ties="stable", pos_label=1)
    correct, scores = _cases(30, 4)
    multi.add_cases("q1", [int(c) for c in correct[:12]], scores[:12])
    multi.add_cases(7, [int(c) for c in correct[12:]], scores[12:], sample_weight=[0.5 + i % 3 for i in range(18)])
    multi.add_misses("q1", 2)
    multi.add_cases("empty-ish", [0], [float("-inf")])
    return multi


def multi_answers(multi: MultiQueryEvaluation) -> dict[str, Any]:
    out: dict[str, Any] = {"repr": repr(multi), "queries": multi.queries(), "ties": multi.ties}
    for name in ("mean_average_precision", "mean_reciprocal_rank", "mean_r_precision"):
        for no_relevant in ("zero", "skip"):
            try:
                out[name, no_relevant] = repr(getattr(multi, name)(no_relevant))
            except Exception as exc:
                out[name, no_relevant] = f"{type(exc).__name__}: {exc}"
    out["P@3"] = repr(multi.mean_precision_at(3))
    for q in multi:
        out[q] = answers(multi[q])
    try:
        out["trec"] = [(m.name, _repr(m.per_query), repr(m.mean)) for m in map(multi.measure, TREC_MEASURES)]
    except ValueError as exc:
        out["trec"] = str(exc)
    return out


def _multi_route(multi: MultiQueryEvaluation, route: str, tmp_path: Path) -> MultiQueryEvaluation:
    if route == "dict":
        return MultiQueryEvaluation.from_dict(json.loads(json.dumps(multi.to_dict(), allow_nan=False)))
    if route == "npz":
        multi.save(tmp_path / "m.npz")
        return MultiQueryEvaluation.load(tmp_path / "m.npz")
    return pickle.loads(pickle.dumps(multi))


MULTIS = {
    "plain": lambda tmp: make_multi(),
    "empty": lambda tmp: MultiQueryEvaluation(),
    "trec": lambda tmp: make_multi(True, tmp),
    "trec-options": lambda tmp: make_multi(True, tmp, ties="grouped", docno_ties=True, complete=True, max_docs=3,
                                           judged_only=True, relevance_level=2),
}


@pytest.mark.parametrize("route", ["dict", "npz", "pickle"])
@pytest.mark.parametrize("kind", MULTIS)
def test_a_multi_query_evaluation_round_trips_with_every_query_and_the_trec_view(
    kind: str, route: str, tmp_path: Path
) -> None:
    original = MULTIS[kind](tmp_path)
    restored = _multi_route(original, route, tmp_path)
    assert type(restored) is MultiQueryEvaluation
    assert multi_answers(restored) == multi_answers(original)
    if "trec" in kind:
        assert isinstance(multi_answers(original)["trec"], list)  # the trec measures do answer
        assert restored.trec.report(["map", "P.5"]) == original.trec.report(["map", "P.5"])
    assert restored.to_dict() == original.to_dict()
    for ev in (original, restored):  # and both go on alike
        ev.add_cases("q-new", [True, False], [0.2, 0.4])
        ev.add_misses("q1", 1)
    assert multi_answers(restored) == multi_answers(original)


def test_a_multi_query_dict_holds_each_query_as_the_evaluator_writes_it() -> None:
    multi = make_multi()
    d = multi.to_dict()
    assert (d["format"], d["kind"], d["version"], d["ties"], d["pos_label"]) == (
        "scored_pr.MultiQueryEvaluation", "multi", 1, "stable", 1)
    assert [q for q, _ in d["queries"]] == ["q1", 7, "empty-ish"]
    assert all(state == multi[q].to_dict() for q, state in d["queries"])


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        (lambda d: d["queries"].append(d["queries"][0]), ValueError, "appears twice"),
        (lambda d: d["queries"][0][1].update(ties="grouped"), ValueError, "every query must have the evaluation's"),
        (lambda d: d["queries"][0][1].update(scores=["x"] * 12), TypeError, "'scores' must hold numbers"),
        (lambda d: d["queries"].append([True, d["queries"][0][1]]), TypeError, "query ids must be str or int"),
        (lambda d: d.update(trec={"qrels": {}}), ValueError, "field 'trec' must be null or a dict"),
        (lambda d: d.update(format="scored_pr.BoundedEvaluation"), ValueError, "kind 'bounded'"),
        (lambda d: d.update(version=2), ValueError, "field 'version' must be 1"),
    ],
)
def test_a_bad_multi_query_dict_is_refused(change: Callable[[dict[str, Any]], None], error: type, match: str) -> None:
    d = make_multi().to_dict()
    change(d)
    with pytest.raises(error, match=match):
        MultiQueryEvaluation.from_dict(d)


def test_a_bad_trec_view_is_refused(tmp_path: Path) -> None:
    d = make_multi(True, tmp_path).to_dict()
    bad_runs = [
        ({**d["trec"], "run": {"q1": [["d1", 0.5], ["d1", 0.4]]}}, ValueError, "retrieves a document twice"),
        ({**d["trec"], "run": {"q1": [["d1", "x"]]}}, TypeError, "must hold numbers"),
        ({**d["trec"], "qrels": {"q1": {"d1": 1.5}}}, ValueError, "must be an int"),
        ({**d["trec"], "max_docs": -1}, ValueError, "'max_docs' must be null or an int >= 0"),
        ({**d["trec"], "complete": "yes"}, TypeError, "'complete' must be a bool"),
    ]
    for trec, error, match in bad_runs:
        with pytest.raises(error, match=match):
            MultiQueryEvaluation.from_dict({**d, "trec": trec})


def test_a_multi_query_file_is_refused_when_its_arrays_disagree(tmp_path: Path) -> None:
    make_multi().save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as npz:
        arrays = {name: npz[name] for name in npz.files}
    offsets = arrays["offsets"].copy()
    offsets[1] = offsets[2] + 1  # query boundaries out of order
    np.savez(tmp_path / "bad.npz", **{**arrays, "offsets": offsets})
    with pytest.raises(ValueError, match="offsets do not cut its cases in order"):
        MultiQueryEvaluation.load(tmp_path / "bad.npz")
    meta = json.loads(arrays["meta"].tobytes())
    meta["num_cases"] += 5
    np.savez(tmp_path / "bad2.npz", **{**arrays, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)})
    with pytest.raises(ValueError, match="array 'neg_scores' declares shape"):
        MultiQueryEvaluation.load(tmp_path / "bad2.npz")


# ------------------------------------------------------------- scored-pr report STATEFILE


def _run_report(*args: str, clean: bool = True) -> Any:
    import subprocess

    from cli_env import CMD, ROOT, clean_env

    if clean:  # the environment a user's shell gives, built from nothing
        return subprocess.run([*CMD, "report", *args], capture_output=True, text=True, env=clean_env(), timeout=120)
    import os

    shell = ["env", "-i", f"PATH={os.environ['PATH']}", f"HOME={os.environ.get('HOME', ROOT)}", "LANG=C.UTF-8",
             f"PYTHONPATH={ROOT}"]
    return subprocess.run([*shell, *CMD, "report", *args], capture_output=True, text=True, timeout=120)


def _json_floats(obj: dict[str, Any]) -> dict[str, Any]:
    from scored_pr.streaming import json_safe

    return json.loads(json.dumps(json_safe(obj), allow_nan=False))


def test_report_of_an_exact_state_file_is_the_report_of_its_cases(tmp_path: Path) -> None:
    ev = make_exact("stable", True)
    ev.save(tmp_path / "ev.npz")
    cases = tmp_path / "cases.csv"  # the same cases as a text file: the reports must agree
    scores, correct, weights = ev.to_dict()["scores"], ev.to_dict()["correct"], ev.to_dict()["weights"]
    assert ev.weighted and weights
    plain = ScoredPrecisionRecallEvaluation(ties="stable")
    plain.add_cases(correct, scores)
    plain.add_misses(ev.num_misses)
    plain.add_negative_misses(ev.num_negative_misses)
    plain.save(tmp_path / "plain.npz")
    cases.write_text("correct,score\n" + "".join(f"{int(c)},{s!r}\n" for c, s in zip(correct, scores)))
    from_text = _run_report(str(cases), "--ties", "stable", "--misses", str(ev.num_misses), "--format", "json")
    from_state = _run_report(str(tmp_path / "plain.npz"), "--format", "json")
    assert from_text.returncode == from_state.returncode == 0, from_state.stderr
    text_obj, state_obj = json.loads(from_text.stdout), json.loads(from_state.stdout)
    assert state_obj.pop("kind") == "exact" and state_obj.pop("source").endswith("plain.npz")
    text_obj.pop("source")
    text_obj.pop("num_negative_ref"), state_obj.pop("num_negative_ref")  # the state also has 1 negative miss
    for key in ("area_under_roc_curve", "area_under_roc_curve_interpolated"):  # so ROC differs: checked below
        text_obj.pop(key), state_obj.pop(key)
    assert state_obj == text_obj
    # against the evaluator itself: weights, negative misses and all
    weighted = _run_report(str(tmp_path / "ev.npz"), "--format", "json", "--curve", "roc")
    obj = json.loads(weighted.stdout)
    assert {k: obj[k] for k in ev.summary()} == _json_floats(ev.summary())
    assert obj["curve"]["points"] == ev.roc_curve().tolist()
    text = _run_report(str(tmp_path / "ev.npz"), clean=False)
    assert text.returncode == 0 and text.stdout == str(ev) + "\n"


def test_report_of_a_window_state_file_is_the_report_of_the_window_as_saved(tmp_path: Path) -> None:
    w = make_window("time-explicit")  # explicit times: reported as saved, nothing expires
    w.save(tmp_path / "w.npz")
    for clean in (True, False):
        out = _run_report(str(tmp_path / "w.npz"), "--format", "json", clean=clean)
        assert out.returncode == 0, out.stderr
        obj = json.loads(out.stdout)
        assert obj["kind"] == "windowed" and obj["window"] == {"size": None, "seconds": 10.0, "num_cases_seen": 30}
        assert {k: obj[k] for k in w.summary()} == _json_floats(w.summary())
    text = _run_report(str(tmp_path / "w.npz"))
    assert text.stdout == "  Window=the last 10.0 seconds, as saved (30 cases seen)\n" + str(w.snapshot()) + "\n"


def test_report_of_a_bounded_state_file_is_its_summary(tmp_path: Path) -> None:
    b = make_bounded()
    b.save(tmp_path / "b.npz")
    out = _run_report(str(tmp_path / "b.npz"), "--format", "json", clean=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"source": str(tmp_path / "b.npz"), "kind": "bounded", "ties": "grouped",
                                      **_json_floats(b.summary())}
    table = _run_report(str(tmp_path / "b.npz"))
    assert table.returncode == 0
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in table.stdout.splitlines()[2:]}
    assert rows["kind"] == "bounded"
    assert rows["average_precision_lower"] == repr(b.average_precision().lower)


def test_report_of_a_multi_query_state_file_is_its_means_over_queries(tmp_path: Path) -> None:
    multi = make_multi(True, tmp_path)
    multi.save(tmp_path / "m.npz")
    out = _run_report(str(tmp_path / "m.npz"), "--format", "json", clean=False)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    evs = [multi[q] for q in multi]
    # against the trec_eval measures of the same files, and the per-query evaluators
    assert obj["mean_average_precision"] == multi.measure("map").mean
    assert obj["mean_reciprocal_rank"] == multi.measure("recip_rank").mean
    assert obj["mean_r_precision"] == multi.measure("Rprec").mean
    assert obj["mean_precision_at_5"] == multi.measure("P.5").mean
    assert obj["mean_precision_at_10"] == multi.measure("P.10").mean
    assert (obj["kind"], obj["ties"], obj["num_queries"], obj["num_cases"], obj["num_misses"]) == (
        "multi", "stable", 2, sum(ev.num_cases for ev in evs), sum(ev.num_misses for ev in evs))
    weighted = make_multi()  # a weighted query has no reciprocal rank: that mean is NaN, null in JSON
    weighted.save(tmp_path / "w.npz")
    obj = json.loads(_run_report(str(tmp_path / "w.npz"), "--format", "json").stdout)
    assert obj["mean_reciprocal_rank"] is None
    assert obj["mean_average_precision"] == weighted.mean_average_precision()


def test_report_of_a_state_file_refuses_options_that_do_not_apply(tmp_path: Path) -> None:
    make_exact().save(tmp_path / "ev.npz")
    make_multi().save(tmp_path / "m.npz")
    make_bounded().save(tmp_path / "b.npz")
    out = _run_report(str(tmp_path / "ev.npz"), "--ties", "stable", "--score-col", "p")
    assert out.returncode == 2 and out.stdout == ""
    assert "--score-col, --ties: not for a state file" in out.stderr
    for name in ("m", "b"):
        out = _run_report(str(tmp_path / f"{name}.npz"), "--curve", "pr")
        assert out.returncode == 2 and "--curve: not available for a" in out.stderr, out.stderr
    broken = tmp_path / "broken.npz"
    broken.write_bytes((tmp_path / "ev.npz").read_bytes()[:200])  # a zip cut short
    out = _run_report(str(broken))
    assert out.returncode == 2 and "broken.npz" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("route", ["dict", "npz", "pickle"])
def test_a_synchronized_evaluator_round_trips_as_the_evaluator_it_shares(route: str, tmp_path: Path) -> None:
    shared = make_synchronized()
    if route == "dict":
        restored = SynchronizedEvaluation.from_dict(json.loads(json.dumps(shared.to_dict(), allow_nan=False)))
    elif route == "npz":
        shared.save(tmp_path / "s.npz")
        restored = SynchronizedEvaluation.load(tmp_path / "s.npz")
    else:
        restored = pickle.loads(pickle.dumps(shared))
    assert type(restored) is SynchronizedEvaluation and restored == shared
    assert answers(restored.snapshot()) == answers(shared.snapshot())
    for ev in (shared, restored):
        ev.add_cases([True, False], [0.5, 0.5])
    assert answers(restored.snapshot()) == answers(shared.snapshot())
    with pytest.raises(ValueError, match="field 'ties'"):
        SynchronizedEvaluation.from_dict({**shared.to_dict(), "ties": "x"})


# ------------------------------------------------ a window restored anywhere in any stream

_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("case"), st.booleans(), st.sampled_from([0.1, 0.5, 0.5, 0.9, float("inf")]),
                  st.sampled_from([1.0, 1.0, 2.5]), st.floats(0.0, 3.0)),
        st.tuples(st.just("miss"), st.booleans(), st.integers(1, 3), st.floats(0.0, 3.0)),
        st.tuples(st.just("auc")),
        st.tuples(st.just("save")),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(ops=_OPS, timed=st.booleans(), ties=st.sampled_from(["grouped", "stable"]), size=st.integers(1, 6))
def test_a_window_saved_at_any_point_of_any_stream_goes_on_as_the_original(
    ops: list[Any], timed: bool, ties: str, size: int
) -> None:
    """Round trips (dict, and pickle) at random points leave every answer and every later answer unchanged."""
    def new() -> WindowedEvaluation:
        return WindowedEvaluation(seconds=float(size), clock=None, ties=ties) if timed else WindowedEvaluation(size, ties=ties)

    original, copy = new(), new()
    now = 0.0
    for n, op in enumerate(ops):
        if op[0] == "case" or op[0] == "miss":
            now += op[-1]
            at = {"time": now} if timed else {}
        for w in (original, copy):
            if op[0] == "case":
                w.add_case(op[1], op[2], weight=op[3], **at)
            elif op[0] == "miss":
                (w.add_misses if op[1] else w.add_negative_misses)(op[2], **at)
            elif op[0] == "auc":
                w.area_under_roc_curve()
        if op[0] == "save":
            copy = WindowedEvaluation.from_dict(json.loads(json.dumps(copy.to_dict()))) if n % 2 else pickle.loads(
                pickle.dumps(copy))
            copy._check()
        assert copy == original
        assert window_answers(copy) == window_answers(original)

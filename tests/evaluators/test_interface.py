"""One evaluator interface: every single-ranking kind answers scored_pr.Evaluation the same way.

The kinds: the exact evaluator, a window, a bounded summary and a synchronized
evaluator. Each is an instance of the protocol, has the exact evaluator's
signatures, answers every query or refuses it with UnsupportedQuery (never
AttributeError), and answers the threshold queries as a slow literal loop over
the cases, scikit-learn, and (bounded) within certified bounds.
"""

from __future__ import annotations

import inspect
import math
import random
import threading
from typing import Any, Callable

import numpy as np
import pytest

import scored_pr
from scored_pr import (
    BoundedEvaluation,
    Bounds,
    Confusion,
    Evaluation,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
)
from scored_pr._evaluators.base import MUTATORS, PROPERTIES, QUERIES, STATE, EvaluationBase

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
    # what only the exact evaluator has: combining, and its cases in rank order
    own = {"merge", "ranked_cases"}
    assert public - own == set(PROPERTIES + MUTATORS + QUERIES + STATE)
    members = {n for n in dir(Evaluation) if not n.startswith("_")}
    assert members == set(PROPERTIES + MUTATORS + QUERIES + STATE)
    assert Evaluation.__module__ == "scored_pr" and Evaluation.__doc__


@pytest.mark.parametrize("name", MUTATORS + QUERIES + STATE)
def test_the_protocol_has_the_exact_evaluators_signatures(name: str) -> None:
    assert _params(inspect.signature(getattr(Evaluation, name))) == _params(inspect.signature(getattr(Exact, name)))


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "ScoredPrecisionRecallEvaluation"])
@pytest.mark.parametrize("name", MUTATORS + QUERIES + STATE)
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
@pytest.mark.parametrize("name", QUERIES)
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
        with pytest.raises(TypeError, match=rf"^{name}: argument 'threshold' must be .*; got '0.5'"):
            getattr(ev, name)("0.5")
    with pytest.raises(ValueError, match=r"^f_measure_at_threshold: argument 'beta' must be"):
        ev.f_measure_at_threshold(0.5, beta=0.0)
    after = ev.summary()
    assert before.keys() == after.keys() and all(_same(float(before[k]), float(after[k])) for k in before)

"""The window's kept ROC AUC: the answer a streaming loop reads before the guard.

``WindowedEvaluation.area_under_roc_curve()`` asked after every case is
answered from ``_answer``, which the case's own short path keeps up to date
and every other change clears before it changes anything. These tests hold
each answer, bit for bit, to the exact evaluator over the window's cases,
through every way of changing the window, and check that the kept answer is
given (and only it) while another thread holds the guard.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation, WindowedEvaluation
from scored_pr._evaluators import guard


def _reference(w: WindowedEvaluation, ties: str) -> float:
    """The plain ROC AUC of the window's cases (with their weights) and misses, from a fresh exact evaluator (the slow way)."""
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    d = w.to_dict()
    scores, correct = d["scores"], d["correct"]
    weights = d["weights"] or [1.0] * len(scores)
    for c, s, wt in zip(correct, scores, weights):
        ev.add_case(c, s, wt)
    ev.add_misses(w.num_misses)
    ev.add_negative_misses(w.num_negative_misses)
    return ev.area_under_roc_curve()


def _same(a: float, b: float) -> bool:
    return a == b or (a != a and b != b)


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("rounding", [None, 1])
def test_the_answer_after_every_case_is_the_exact_evaluators(ties: str, rounding: int | None) -> None:
    rng = np.random.default_rng(7)
    y = (rng.random(400) < 0.3).tolist()
    s = rng.random(400)
    sl = (s if rounding is None else np.round(s, rounding)).tolist()
    w = WindowedEvaluation(50, ties=ties)
    for i, (c, v) in enumerate(zip(y, sl)):
        w.add_case(c, v)
        if i % 7 != 3:  # now and then a case with no query: the kept answer is dropped, then rebuilt
            got = w.area_under_roc_curve()
            assert _same(got, _reference(w, ties)), i
            assert got is w.area_under_roc_curve()  # asked again: the kept answer itself


# every change of a window: each must drop the kept answer before it changes anything
CHANGES: dict[str, Any] = {
    "add_case": lambda w: w.add_case(False, 0.95),
    "add_case weighted": lambda w: w.add_case(True, 0.05, 2.0),
    "add_case numpy score": lambda w: w.add_case(True, np.float64(0.05)),
    "add_cases": lambda w: w.add_cases([True, False], [0.05, 0.99]),
    "add_misses": lambda w: w.add_misses(2),
    "add_negative_misses": lambda w: w.add_negative_misses(1),
    "reset": lambda w: w.reset(),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_change_drops_or_renews_the_kept_answer(change: str) -> None:
    w = WindowedEvaluation(5)
    w.add_cases([True, False, True, False, True], [0.9, 0.8, 0.3, 0.2, 0.6])
    w.area_under_roc_curve()
    w.add_case(True, 0.1)  # the short path: the answer is kept
    kept = w.area_under_roc_curve()
    assert w._answer is kept
    CHANGES[change](w)
    ref = _reference(w, "grouped") if w.num_cases else float("nan")
    # dropped, or (a plain case on the short path, asked for since the last one) the new window's
    assert w._answer is None or (change == "add_case" and _same(w._answer, ref))
    assert _same(w.area_under_roc_curve(), ref)


def test_a_rejected_case_keeps_the_kept_answer_true() -> None:
    w = WindowedEvaluation(4)
    w.add_cases([True, False, True, False], [0.9, 0.8, 0.3, 0.2])
    before = w.area_under_roc_curve()
    with pytest.raises(ValueError, match="score"):
        w.add_case(True, float("nan"))
    assert w.area_under_roc_curve() == before == _reference(w, "grouped")


def test_the_kept_answer_is_given_while_another_thread_holds_the_guard() -> None:
    """As the exact kind's cached answers: a kept answer needs no guard; any other query does."""
    w = WindowedEvaluation(10)
    w.add_cases([True, False, True, False], [0.9, 0.8, 0.3, 0.1])
    w.area_under_roc_curve()
    w.add_case(False, 0.5)
    auc = w.area_under_roc_curve()
    held, release = threading.Event(), threading.Event()
    t = threading.Thread(target=lambda: (guard.take(w, "test"), held.set(), release.wait(10), guard.release(w)))
    t.start()
    assert held.wait(10)  # another thread is inside the window, as if in one of its calls
    try:
        assert w.area_under_roc_curve() is auc
        with pytest.raises(RuntimeError, match="another thread"):
            w.area_under_roc_curve(True)
        with pytest.raises(RuntimeError, match="another thread"):
            w.add_case(True, 0.2)  # the evaluator is shared now: the lock, refused
    finally:
        release.set()
        t.join()
    assert w.num_cases == 5
    assert w.area_under_roc_curve() == _reference(w, "grouped")


_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("case"), st.booleans(), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 0.3, 0.6])),
        st.tuples(st.just("auc"), st.none(), st.none()),
        st.tuples(st.just("misses"), st.booleans(), st.integers(1, 2)),
        st.tuples(st.just("batch"), st.booleans(), st.sampled_from([0.1, 0.5, 0.9])),
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(ops=_OPS, size=st.integers(1, 6), ties=st.sampled_from(["grouped", "stable"]))
def test_any_sequence_of_changes_and_queries_answers_as_the_exact_evaluator(
    ops: list[tuple[str, Any, Any]], size: int, ties: str
) -> None:
    w = WindowedEvaluation(size, ties=ties)
    for op, a, b in ops:
        if op == "case":
            w.add_case(a, b)
        elif op == "misses":
            (w.add_misses if a else w.add_negative_misses)(b)
        elif op == "batch":
            w.add_cases([a, not a], [b, 1.0 - b])
        assert _same(w.area_under_roc_curve(), _reference(w, ties))
        w._check()

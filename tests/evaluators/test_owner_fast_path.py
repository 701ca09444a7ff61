"""The owner's lock-free add_case/add_cases of every kind, and the exact kind's cached answers.

Each test pauses the owner inside a call (a validation function of the
kind's module made to wait), makes a call from a second thread, and checks
that it is refused with the guard's RuntimeError and changes nothing, that
the owner's call completes, and that the evaluator is shared from then on.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any, Callable

import numpy as np
import pytest

from scored_pr import (
    BoundedEvaluation,
    MultiLabelEvaluation,
    ScoredPrecisionRecallEvaluation,
    SlicedEvaluation,
    WindowedEvaluation,
)
from scored_pr._evaluators import guard


def _pause(monkeypatch: pytest.MonkeyPatch, module: str, name: str) -> tuple[threading.Event, threading.Event]:
    """Make ``module.name`` wait, once inside, until ``go`` is set."""
    import importlib

    mod = importlib.import_module(module)
    real = getattr(mod, name)
    inside, go = threading.Event(), threading.Event()

    def paused(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        assert go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(mod, name, paused)
    return inside, go


@contextlib.contextmanager
def _held_by_another_thread(ev: Any) -> Iterator[None]:
    """While inside: another thread holds ``ev``'s guard (``guard.take``), as if inside one of its calls."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        guard.take(ev, "test")
        held.set()
        assert release.wait(10)
        guard.release(ev)

    t = threading.Thread(target=hold)
    t.start()
    assert held.wait(10)
    try:
        yield
    finally:
        release.set()
        t.join()


# (kind, make, the owner's paused call, the module function it pauses in, counts)
CASES: list[tuple[str, Callable[[], Any], Callable[[Any], None], str, str, Callable[[Any], int]]] = [
    ("windowed-add_case", lambda: WindowedEvaluation(100), lambda ev: ev.add_case(True, np.float64(0.5)),
     "scored_pr._evaluators.windowed", "check_score", lambda ev: ev.num_cases),
    ("windowed-add_cases", lambda: WindowedEvaluation(100), lambda ev: ev.add_cases([True, False], [0.5, 0.25]),
     "scored_pr._evaluators.windowed", "check_batch", lambda ev: ev.num_cases),
    ("bounded-add_case", lambda: BoundedEvaluation(64), lambda ev: ev.add_case(True, np.float64(0.5)),
     "scored_pr._evaluators.bounded", "check_score", lambda ev: ev.num_cases),
    ("bounded-add_cases", lambda: BoundedEvaluation(64), lambda ev: ev.add_cases([True, False], [0.5, 0.25]),
     "scored_pr._evaluators.bounded", "check_batch", lambda ev: ev.num_cases),
    ("exact-add_cases", ScoredPrecisionRecallEvaluation, lambda ev: ev.add_cases([True, False], [0.5, 0.25]),
     "scored_pr._evaluators.exact", "check_batch", lambda ev: ev.num_cases),
    ("multilabel-add_case", lambda: MultiLabelEvaluation(2), lambda ev: ev.add_case([True, False], [0.5, 0.25]),
     "scored_pr._evaluators.multilabel", "check_weight", lambda ev: ev.num_rows),
    ("sliced-add_case", lambda: SlicedEvaluation("g"), lambda ev: ev.add_case(True, np.float64(0.5), g="a"),
     "scored_pr._evaluators.sliced", "check_score", lambda ev: ev.num_cases_seen),
    ("sliced-add_cases", lambda: SlicedEvaluation("g"), lambda ev: ev.add_cases([True, False], [0.5, 0.25], g=["a", "b"]),
     "scored_pr._evaluators.sliced", "check_batch", lambda ev: ev.num_cases_seen),
]


def _other_add_case(ev: Any) -> Any:
    if isinstance(ev, MultiLabelEvaluation):
        return ev.add_case([False, True], [0.1, 0.2])
    if isinstance(ev, SlicedEvaluation):
        return ev.add_case(False, 0.1, g="b")
    return ev.add_case(False, 0.1)


OTHER_CALLS: dict[str, Callable[[Any], Any]] = {
    "add_case": _other_add_case,
    "query": lambda ev: ev.table() if isinstance(ev, SlicedEvaluation) else ev.average_precision(),
    "to_dict": lambda ev: ev.to_dict(),
}


@pytest.mark.parametrize("other", list(OTHER_CALLS))
@pytest.mark.parametrize(("name", "make", "call", "module", "func", "count"), CASES, ids=[c[0] for c in CASES])
def test_a_call_overlapping_the_owners_lock_free_add_is_refused_and_changes_nothing(
    name: str, make: Callable[[], Any], call: Callable[[Any], None], module: str, func: str,
    count: Callable[[Any], int], other: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    ev = make()  # owned by this thread
    before = count(ev)
    inside, go = _pause(monkeypatch, module, func)
    outcome: list[BaseException | None] = []

    def second() -> None:
        assert inside.wait(10)
        try:
            OTHER_CALLS[other](ev)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - the type is the point
            outcome.append(exc)
        finally:
            go.set()

    t = threading.Thread(target=second)
    t.start()
    call(ev)  # pauses until the other thread has made its call
    t.join()
    monkeypatch.undo()
    assert len(outcome) == 1 and type(outcome[0]) is RuntimeError and "another thread" in str(outcome[0]), outcome
    added = count(ev) - before
    assert added == (1 if name.endswith("add_case") else 2)  # the owner's call, nothing of the other's
    assert ev._owner == guard.SHARED_OWNER  # shared from now on: every call takes the lock
    t = threading.Thread(target=OTHER_CALLS["add_case"], args=(ev,))
    t.start()
    t.join()
    OTHER_CALLS["add_case"](ev)
    assert count(ev) - before == added + 2
    state = ev.to_dict()
    assert type(ev).from_dict(state).to_dict() == state


def test_the_owner_is_refused_while_another_thread_holds_the_guard() -> None:
    """The other direction: a thread inside the evaluator; the owner's add_case takes the lock and is refused."""
    for ev in (WindowedEvaluation(10), BoundedEvaluation(8), MultiLabelEvaluation(2), SlicedEvaluation("g")):
        with _held_by_another_thread(ev), pytest.raises(RuntimeError, match="another thread"):
            if isinstance(ev, MultiLabelEvaluation):
                ev.add_case([True, False], [0.5, 0.25])
            elif isinstance(ev, SlicedEvaluation):
                ev.add_case(True, 0.5, g="a")
            else:
                ev.add_case(True, 0.5)
        counts = {MultiLabelEvaluation: "num_rows", SlicedEvaluation: "num_cases_seen"}
        assert getattr(ev, counts.get(type(ev), "num_cases")) == 0


def test_a_cached_answer_is_given_while_another_thread_holds_the_guard() -> None:
    """A repeated query of the exact kind is answered before the guard; a first one is refused."""
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True, False], [0.9, 0.8, 0.3, 0.1])
    ap, auc = ev.average_precision(), ev.area_under_roc_curve(False)
    with _held_by_another_thread(ev):
        assert ev.average_precision() == ap and ev.area_under_roc_curve(False) == auc  # from the memo
        with pytest.raises(RuntimeError, match="another thread"):
            ev.maximum_f_measure()  # not asked before: it needs the guard
        with pytest.raises(RuntimeError, match="another thread"):
            ev.area_under_roc_curve(True)  # other arguments: another answer
    assert ev.maximum_f_measure() == pytest.approx(0.8)  # (P, R) = (2/3, 1) at the third case: F = 0.8


def test_a_kept_answer_is_kept_per_argument_type_and_dropped_by_every_change() -> None:
    """3, 3.0 and True are equal keys in a dict: the kept answer of precision_at(3) must not answer the others."""
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True, True], [0.9, 0.8, 0.3, 0.1])
    assert ev.precision_at(3) == pytest.approx(2 / 3)
    assert ev.precision_at(3) == pytest.approx(2 / 3)  # the kept answer
    with pytest.raises(TypeError):
        ev.precision_at(3.0)
    with pytest.raises(TypeError):
        ev.precision_at(True)
    fresh = ScoredPrecisionRecallEvaluation()
    for change in (lambda e: e.add_case(False, 0.95), lambda e: e.add_cases([False], [0.99]),
                   lambda e: e.add_misses(1), lambda e: e.add_negative_misses(1), lambda e: e.merge(fresh), lambda e: e.reset()):
        ev.average_precision(), ev.precision_at(3)  # kept before the change
        change(ev)
        reference = ScoredPrecisionRecallEvaluation.from_dict(ev.to_dict())
        assert ev.average_precision() == reference.average_precision() or (
            np.isnan(ev.average_precision()) and np.isnan(reference.average_precision()))
        assert ev.precision_at(3) == reference.precision_at(3) or np.isnan(reference.precision_at(3))


def test_a_kept_answer_of_a_bool_argument_answers_that_bool_only() -> None:
    """False and True have kept answers of their own, found by identity: 0, 0.0, 1 and numpy's bools are not them."""
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases([True, False, True, False, True], [0.9, 0.8, 0.7, 0.75, 0.1])
    plain, hull = ev.area_under_roc_curve(False), ev.area_under_roc_curve(True)
    assert (plain, hull) == (2 / 6, 4 / 6)  # pairs in order: 0.9 above both negatives; the hull: 1/3 + (1/2)(2/3)
    for _ in range(2):  # kept, and asked again
        assert ev.area_under_roc_curve(False) == plain and ev.area_under_roc_curve(True) == hull
    for wrong in (0, 0.0, 1, 1.0):
        with pytest.raises(TypeError, match="interpolate"):
            ev.area_under_roc_curve(wrong)
    assert ev.area_under_roc_curve(np.False_) == plain  # a numpy bool takes the guarded call
    ev.add_case(False, 0.95)  # a change drops both kept answers
    assert ev.area_under_roc_curve(False) == pytest.approx(2 / 9) and ev.area_under_roc_curve(True) > 2 / 9

"""N threads adding and querying one shared evaluator lose no case."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation, SynchronizedEvaluation

THREADS, PER_THREAD = 8, 3000


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_concurrent_adds_and_queries_lose_nothing(ties: str) -> None:
    shared = SynchronizedEvaluation(ties=ties)
    rng = np.random.default_rng(0)
    data = [(rng.random(PER_THREAD) < 0.3, np.round(rng.normal(size=PER_THREAD), 1)) for _ in range(THREADS)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(THREADS)

    def work(i: int) -> None:
        try:
            labels, scores = data[i]
            barrier.wait()
            for j, (c, s) in enumerate(zip(labels.tolist(), scores.tolist())):
                if j % 3 == 0:
                    shared.add_cases([c], [s])
                else:
                    shared.add_case(c, s)
                if j % 250 == 0:
                    shared.summary()
                    shared.pr_curve()
            shared.add_misses(1)
        except BaseException as exc:  # pragma: no cover (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert shared.num_cases == THREADS * PER_THREAD
    assert shared.num_misses == THREADS
    total_pos = sum(int(y.sum()) for y, _ in data)
    assert shared.num_positive_ref == total_pos + THREADS
    # Every case is in the ranking: with grouped ties the result cannot depend on the interleaving.
    single = ScoredPrecisionRecallEvaluation(ties=ties)
    for y, s in data:
        single.add_cases(y, s)
    single.add_misses(THREADS)
    snap = shared.snapshot()
    snap._store._check()
    # The scores at the curve points are those of the correct cases (stable) or of the tie
    # groups holding one (grouped): the same multiset whatever the interleaving.
    assert sorted(snap.pr_score_curve()[:, 2].tolist()) == sorted(single.pr_score_curve()[:, 2].tolist())
    if ties == "grouped":  # grouped results do not depend on insertion order at all
        assert snap.summary() == pytest.approx(single.summary(), rel=1e-12)


def test_wrapper_validates_and_forwards() -> None:
    with pytest.raises(TypeError, match="'evaluation'"):
        SynchronizedEvaluation(evaluation=3)  # type: ignore[arg-type]
    ev = ScoredPrecisionRecallEvaluation()
    shared = SynchronizedEvaluation(ev)
    shared.add_case(True, 1.0)
    with pytest.raises(ValueError):
        shared.add_misses(-1)
    assert ev.num_cases == 1 and shared.ties == "grouped"
    assert "num_cases=1" in repr(shared) and "Average Precision" in str(shared)
    with shared.lock:
        shared.add_case(False, 0.5)  # re-entrant
    assert shared.snapshot() == ev and shared.snapshot() is not ev
    with pytest.raises(AttributeError):
        shared._store  # noqa: B018


def test_a_plain_evaluator_shared_by_threads_never_loses_a_case_silently() -> None:
    """Unsynchronised sharing is detected: a call either completes or raises RuntimeError."""
    ev = ScoredPrecisionRecallEvaluation(ties="stable")
    accepted = [0] * THREADS
    refused = [0] * THREADS
    barrier = threading.Barrier(THREADS)
    sys_interval = __import__("sys").getswitchinterval()
    __import__("sys").setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        def work(i: int) -> None:
            barrier.wait()
            for j in range(4000):
                try:
                    if j % 500 == 499:
                        ev.average_precision()
                    else:
                        ev.add_case(j % 2 == 0, float(j % 97))
                        accepted[i] += 1
                except RuntimeError as exc:
                    assert "another thread" in str(exc) and "SynchronizedEvaluation" in str(exc)
                    refused[i] += 1

        threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        __import__("sys").setswitchinterval(sys_interval)
    ev._store._check()
    assert ev.num_cases == sum(accepted)  # every accepted case is there, none twice
    assert ev.to_dict()["correct"].count(True) == ev.num_positive_ref
    assert sum(refused) > 0, "the threads never overlapped: the test proved nothing"


def test_synchronized_evaluations_combine_compare_and_pickle_with_plain_ones() -> None:
    import pickle

    plain = ScoredPrecisionRecallEvaluation(ties="grouped")
    plain.add_cases([True, False], [0.9, 0.1])
    shared = SynchronizedEvaluation(ties="grouped")
    shared.add_cases([False, True], [0.5, 0.4])
    assert isinstance(shared + plain, SynchronizedEvaluation) and isinstance(plain + shared, SynchronizedEvaluation)
    assert (shared + plain) == shared.snapshot().merge(plain)
    assert (plain + shared) == plain.merge(shared.snapshot())
    assert (shared + shared) == shared.snapshot().merge(shared.snapshot())
    before = shared.snapshot()
    shared += plain
    assert shared == before.merge(plain) and shared != before
    copy = pickle.loads(pickle.dumps(shared))
    assert isinstance(copy, SynchronizedEvaluation) and copy == shared
    copy.add_case(True, 1.0)  # an independent copy with its own lock
    assert copy.num_cases == shared.num_cases + 1


def test_the_owning_thread_adds_a_case_without_the_lock_or_a_float_subclass() -> None:
    """add_case's hot path: no lock call from the thread that made the evaluator, plain floats pending."""
    import sys

    ev = ScoredPrecisionRecallEvaluation(ties="stable")
    ev.add_case(True, 0.5)
    called: list[str] = []

    def profile(frame: object, event: str, arg: object) -> None:
        if event == "c_call":
            called.append(getattr(arg, "__qualname__", repr(arg)))

    sys.setprofile(profile)
    try:
        ev.add_case(True, 0.25)
        ev.add_case(False, 0.75)
        ev.add_case(True, 0.25)
    finally:
        sys.setprofile(None)
    assert called, "the profile saw no call: the test proved nothing"
    assert not [c for c in called if "acquire" in c or "release" in c], called
    pending = list(ev._store._pending)
    assert len(pending) == 4 and all(type(v) is float for v in pending), [type(v) for v in pending]
    ev._store._check()
    assert ev.num_positive_ref == 3 and ev.num_negative_ref == 1
    # labels and insertion order of the tie survive: ranks 0.75 (F), 0.5 (T), 0.25 (T), 0.25 (T)
    assert ev.to_dict()["correct"] == [False, True, True, True]
    assert ev.precision_at(1) == 0.0 and ev.precision_at(2) == 0.5


def _pause_store_add(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Make every CaseStore.add wait inside the call (the case not yet stored) until ``go`` is set."""
    from scored_pr._evaluators.store import CaseStore

    inside, go = threading.Event(), threading.Event()
    real = CaseStore.add

    def paused(self: CaseStore, correct: bool, score: float, weight: float = 1.0) -> None:
        inside.set()
        assert go.wait(10)
        real(self, correct, score, weight)

    monkeypatch.setattr(CaseStore, "add", paused)
    return inside, go


OTHER_CALLS = {
    "add_case": lambda ev: ev.add_case(False, 0.3),
    "add_cases": lambda ev: ev.add_cases([False], [0.3]),
    "query": lambda ev: ev.average_precision(),
    "add_misses": lambda ev: ev.add_misses(1),
    "reset": lambda ev: ev.reset(),
}


@pytest.mark.parametrize("call", list(OTHER_CALLS))
def test_a_call_from_another_thread_while_the_owner_adds_a_case_is_refused(call: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner's lock-free add_case is seen by any call of another thread, which is refused and changes nothing."""
    ev = ScoredPrecisionRecallEvaluation(ties="stable")  # owned by this (the main) thread
    ev.add_cases([True, False], [0.9, 0.1])
    ev.average_precision()
    inside, go = _pause_store_add(monkeypatch)
    outcome: list[BaseException | None] = []

    def other() -> None:
        assert inside.wait(10)
        try:
            OTHER_CALLS[call](ev)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)
        finally:
            go.set()

    t = threading.Thread(target=other)
    t.start()
    ev.add_case(True, 0.5)  # pauses inside the store until the other thread has made its call
    t.join()
    monkeypatch.undo()
    assert len(outcome) == 1 and isinstance(outcome[0], RuntimeError), outcome
    assert "another thread" in str(outcome[0]) and "SynchronizedEvaluation" in str(outcome[0])
    assert ev.to_dict()["correct"] == [True, True, False] and ev.num_misses == 0  # the owner's case, nothing else
    # shared from now on: both threads are served, one at a time
    t = threading.Thread(target=ev.add_case, args=(False, 0.2))
    t.start()
    t.join()
    ev.add_case(True, 0.05)
    ev._store._check()
    assert ev.to_dict()["correct"] == [True, True, False, False, True]


def test_the_owner_is_refused_while_another_thread_is_inside_a_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once another thread has called, the owner's add_case takes the lock too, and sees that thread's call."""
    ev = ScoredPrecisionRecallEvaluation()
    inside, go = _pause_store_add(monkeypatch)
    t = threading.Thread(target=ev.add_case, args=(False, 0.3))
    t.start()
    assert inside.wait(10)
    try:
        with pytest.raises(RuntimeError, match="another thread"):
            ev.add_case(True, 0.5)
        with pytest.raises(RuntimeError, match="another thread"):
            ev.average_precision()
    finally:
        go.set()
        t.join()
    monkeypatch.undo()
    assert ev.to_dict()["correct"] == [False]
    ev.add_case(True, 0.5)
    assert ev.to_dict()["correct"] == [True, False]


def test_an_evaluator_handed_to_another_thread_keeps_every_case() -> None:
    """Made in one thread, filled in another, queried in a third: sequential use from several threads is fine."""
    made: list[ScoredPrecisionRecallEvaluation] = []
    t = threading.Thread(target=lambda: made.append(ScoredPrecisionRecallEvaluation(ties="stable")))
    t.start()
    t.join()
    ev = made[0]
    rng = np.random.default_rng(2)
    y, s = rng.random(500) < 0.4, np.round(rng.normal(size=500), 1)
    t = threading.Thread(target=lambda: [ev.add_case(c, v) for c, v in zip(y.tolist(), s.tolist())])
    t.start()
    t.join()
    single = ScoredPrecisionRecallEvaluation(ties="stable")
    single.add_cases(y, s)
    ev._store._check()
    assert ev == single and ev.summary() == pytest.approx(single.summary(), rel=1e-12, nan_ok=True)

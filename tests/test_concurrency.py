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

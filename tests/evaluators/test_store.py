"""The case store's bounded sorted list: single cases beyond PENDING_LIMIT become sorted runs."""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._evaluators.store import PENDING_LIMIT


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_many_single_cases_flush_into_runs_and_keep_insertion_order(ties: str) -> None:
    rng = np.random.default_rng(1)
    n = 2 * PENDING_LIMIT + 17
    correct = rng.random(n) < 0.3
    scores = rng.integers(0, 50, n).astype(float)  # heavy ties: insertion order matters (stable)
    single, batch = E(ties=ties), E(ties=ties)
    for c, s in zip(correct.tolist(), scores.tolist()):
        single.add_case(c, s)
    assert len(single._store._runs) == 2 and len(single._store._pending) == 17
    single._store._check()
    batch.add_cases(correct, scores)
    assert single == batch
    np.testing.assert_array_equal(list(single.summary().values()), list(batch.summary().values()))
    single.add_case(True, 25.0, weight=2.0)  # a weighted case after flushed runs keeps its place
    batch.add_cases([True], [25.0], sample_weight=[2.0])
    assert single == batch


def _reference_run(cases: list[tuple[bool, float]]) -> tuple[list[float], list[bool]]:
    """Slow literal reference: negated scores ascending, equal scores in insertion order, with their labels."""
    order = sorted(range(len(cases)), key=lambda i: (-cases[i][1], i))
    return [-cases[i][1] for i in order], [cases[i][0] for i in order]


@pytest.mark.parametrize("kind", ["distinct", "ties", "signed zeros", "all correct", "none correct"])
@pytest.mark.parametrize("seed", range(4))
def test_pending_labels_read_from_values_or_identities_equal_a_literal_sort(kind: str, seed: int) -> None:
    """Labels of pending single cases: by value where each correct value is alone, by identity otherwise."""
    from scored_pr._evaluators.store import CaseStore

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    correct = (rng.random(n) < 0.4).tolist()
    if kind == "distinct":
        scores = rng.normal(size=n).tolist()
    elif kind == "ties":
        scores = rng.integers(0, 7, n).astype(float).tolist()
    elif kind == "signed zeros":
        scores = [(-0.0 if c else 0.0) if rng.random() < 0.5 else float(rng.normal()) for c in correct]
    else:
        scores = rng.normal(size=n).tolist()
        correct = [kind == "all correct"] * n
    store = CaseStore()
    for c, s in zip(correct, scores):
        store.add(c, s)
    store._check()
    neg, cor, num, w = store._pending_run()
    want_neg, want_cor = _reference_run(list(zip(correct, scores)))
    assert neg.tolist() == want_neg and cor.tolist() == want_cor and w is None
    assert num == store.num_correct == sum(correct)


def test_a_correct_case_whose_add_was_interrupted_leaves_no_label_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """An add that fails after tagging its float stores nothing; every other case keeps its label."""
    from sortedcontainers import SortedList

    from scored_pr._evaluators.store import CaseStore

    store = CaseStore()
    cases = [(True, 0.5), (False, 0.25), (True, 0.75)]
    for c, s in cases:
        store.add(c, s)
    real = SortedList.add

    def fails(self: SortedList, value: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(SortedList, "add", fails)
    with pytest.raises(KeyboardInterrupt):
        store.add(True, 0.6)  # tagged, never stored
    monkeypatch.setattr(SortedList, "add", real)
    store.add(False, 0.6)  # an incorrect case with the value of the lost correct one
    cases.append((False, 0.6))
    store._check()
    assert store.num_correct == 2
    neg, cor, num, _ = store._pending_run()
    want_neg, want_cor = _reference_run(cases)
    assert neg.tolist() == want_neg and cor.tolist() == want_cor and num == 2


def test_the_ranking_tells_the_kernel_when_every_score_is_distinct(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of distinct scores is ranked with its tie scan: the store says so (and its _check holds it),
    the kernel is told (and skips its own scan), and every answer is the one the scanning kernel gives. Ties
    and a merge with earlier cases say "not known"; a copy carries the knowledge as it is."""
    from scored_pr._evaluators import exact as exact_module

    rng = np.random.default_rng(8)
    y = rng.random(5000) < 0.3
    s = rng.normal(size=5000) + y
    ev = E()
    ev.add_cases(y, s)
    ev._store.arrays()
    assert ev._store.distinct
    ev._store._check()
    calls: list[bool] = []
    real = exact_module.P.operating_points

    def spy(*args: object, **kwargs: object) -> object:
        calls.append(bool(kwargs.get("distinct")))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(exact_module.P, "operating_points", spy)
    got = ev.summary()
    assert calls == [True]
    monkeypatch.undo()
    plain = E()
    plain.add_cases(y, s)
    plain._store.arrays()
    plain._store._distinct = False  # the scanning kernel
    assert np.array([*got.values()]).tobytes() == np.array([*plain.summary().values()]).tobytes()
    assert ev._store.copy().distinct
    ev.add_cases([True], [0.25])  # merged with the ranking already built: not scanned across the runs
    ev._store.arrays()
    assert not ev._store.distinct
    tied = E()
    tied.add_cases(y, np.round(s.astype(np.float32), 3))  # float32 scores, scattered ties
    tied._store.arrays()
    assert not tied._store.distinct

"""The shortcuts of the uncertified decisions give, bit for bit, what the general path gives.

``ranking_candidates`` (candidates straight from the ranking when every score is distinct) is held
to ``candidates(threshold_cutoffs(...))``; ``_best``'s one-pass argmax to the rule written out
one candidate at a time (NaN loses, the first maximum wins); the recall shortcut to ``_best`` over
every recall; ``measure`` to the literal formulas; ``choose`` over rankings with distinct scores,
ties and -0.0 to a literal search written here.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from scored_pr._core import decisions as D
from scored_pr._core.thresholds import threshold_cutoffs

_FINITE = st.sampled_from([-2.5, -1.0, -0.0, 0.0, 0.1, 0.5, 0.7, 1.0, 3.0])
_SCORES = _FINITE | st.just(math.inf)


def _ranking(scores: list[float], labels: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-s, kind="stable")
    return -s[order], np.asarray(labels, dtype=bool)[order]


def _same(a: D.Candidates, b: D.Candidates) -> None:
    for x, y in zip(a, b):
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.tobytes() == y.tobytes()  # bit for bit (-0.0 and NaN included)
        else:
            assert x == y and type(x) is type(y)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_SCORES | st.floats(-5, 5, allow_nan=False), st.booleans()), max_size=40),
       st.booleans(), st.integers(0, 3), st.integers(0, 3))  # fmt: skip
def test_candidates_from_the_ranking_are_the_cutoffs_candidates(
    cases: list[tuple[float, bool]], weighted: bool, misses: int, neg_misses: int
) -> None:
    neg, correct = _ranking([s for s, _ in cases], [c for _, c in cases])
    weight = np.linspace(0.0, 2.0, neg.size) if weighted else None
    pos_ref, neg_ref = int(correct.sum()) + misses, int((~correct).sum()) + neg_misses
    _same(D.ranking_candidates(neg, correct, weight, pos_ref, neg_ref),
          D.candidates(threshold_cutoffs(neg, correct, weight), pos_ref, neg_ref))  # fmt: skip


def test_candidates_of_distinct_scores_golden() -> None:
    neg, correct = _ranking([0.9, 0.8, 0.7, 0.6], [True, False, True, True])
    c = D.ranking_candidates(neg, correct, None, 4, 2)
    assert c.threshold.tolist() == [math.inf, 0.9, 0.8, 0.7, 0.6]
    assert c.tp.tolist() == [0.0, 1.0, 1.0, 2.0, 3.0] and c.fp.tolist() == [0.0, 0.0, 1.0, 1.0, 1.0]
    assert c.ends is not None and c.ends.tolist() == [0, 1, 2, 3, 4] and c.integer and (c.pos, c.neg) == (4.0, 2.0)


def _literal_best(objective: list[float], among: list[bool] | None) -> int | None:
    """The rule, one candidate at a time: the first of greatest objective among the allowed, NaN losing;
    when none is greater than -inf (or every one is NaN), the first allowed candidate."""
    allowed = [i for i in range(len(objective)) if among is None or among[i]]
    if not allowed:
        return None
    real = [i for i in allowed if not math.isnan(objective[i])]
    top = max((objective[i] for i in real), default=-math.inf)
    if top > -math.inf:
        return next(i for i in real if objective[i] == top)
    return allowed[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([math.nan, -math.inf, -1.0, 0.0, 0.5, 1.0, math.inf]), max_size=12), st.data())
def test_best_is_the_literal_rule(objective: list[float], data: st.DataObject) -> None:
    among = data.draw(st.none() | st.lists(st.booleans(), min_size=len(objective), max_size=len(objective)))
    mask = None if among is None else np.asarray(among, dtype=bool)
    assert D._best(np.asarray(objective, dtype=np.float64), mask) == _literal_best(objective, among)


def _literal_measure(name: str, tp: float, fp: float, pos: float, neg: float) -> float:
    def div(a: float, b: float) -> float:
        return a / b if b else (math.nan if a == 0 else math.copysign(math.inf, a))

    fn, tn, n = pos - tp, neg - fp, pos + neg
    return {"precision": div(tp, tp + fp), "recall": div(tp, pos), "fpr": div(fp, neg), "tnr": div(tn, neg),
            "accepted_fraction": div(tp + fp, n), "f1": div(2.0 * tp, 2.0 * tp + fp + fn),
            "accuracy": div(tp + tn, n)}[name]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20),
       st.integers(0, 4), st.integers(0, 4))  # fmt: skip
def test_measures_are_the_literal_formulas(steps: list[tuple[int, int]], misses: int, neg_misses: int) -> None:
    tp = np.cumsum([0.0] + [a for a, _ in steps])
    fp = np.cumsum([0.0] + [b for _, b in steps])
    pos, neg = float(tp[-1] + misses), float(fp[-1] + neg_misses)
    c = D.Candidates(np.arange(tp.size, dtype=np.float64)[::-1], tp, fp, pos, neg, True)
    for name in ("precision", "recall", "fpr", "tnr", "accepted_fraction", "f1", "accuracy"):
        want = [_literal_measure(name, a, b, pos, neg) for a, b in zip(tp.tolist(), fp.tolist())]
        np.testing.assert_array_equal(D.measure(name, c), np.asarray(want))


def _literal_choose(scores: list[float], labels: list[bool], maximize: str,
                    subject_to: dict[str, float]) -> tuple[float | None, float]:  # fmt: skip
    """Every candidate threshold tried one by one: (threshold, objective) of the first best feasible.

    ``inf`` accepts nothing; the scores are finite here (a score of ``inf`` is a second candidate ``inf``).
    """
    pos, neg = float(sum(labels)), float(len(labels) - sum(labels))
    best: tuple[float | None, float] | None = None
    for t in [math.inf] + sorted(set(scores), reverse=True):
        tp = float(sum(1 for s, y in zip(scores, labels) if s >= t and y))
        fp = float(sum(1 for s, y in zip(scores, labels) if s >= t and not y))
        ok = all((_literal_measure(k, tp, fp, pos, neg) >= v) if D.CONSTRAINTS[k] == ">="
                 else (_literal_measure(k, tp, fp, pos, neg) <= v) for k, v in subject_to.items())  # fmt: skip
        value = _literal_measure(maximize, tp, fp, pos, neg)
        if ok and not math.isnan(value) and (best is None or value > best[1]):
            best = (t, value)
    return best if best is not None else (None, math.nan)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_FINITE, st.booleans()), min_size=1, max_size=25),
       st.sampled_from(["precision", "recall", "f1", "accuracy", "tnr"]),
       st.dictionaries(st.sampled_from(["precision", "recall", "fpr"]), st.sampled_from([0.0, 0.5, 0.8, 1.0]),
                       max_size=2))  # fmt: skip
def test_choose_is_the_literal_search(cases: list[tuple[float, bool]], maximize: str,
                                      subject_to: dict[str, float]) -> None:  # fmt: skip
    scores, labels = [s for s, _ in cases], [y for _, y in cases]
    neg, correct = _ranking(scores, labels)
    c = D.ranking_candidates(neg, correct, None, int(correct.sum()), int((~correct).sum()))
    d = D.choose(c, maximize, subject_to)
    t, value = _literal_choose(scores, labels, maximize, subject_to)
    if t is not None:
        assert d.feasible and d.threshold == t and d.value == value
    else:
        assert not d.feasible or math.isnan(d.value)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 2_000), st.integers(1, 12))
def test_candidates_of_few_tie_groups_are_the_cutoffs_candidates(seed: int, n: int, values: int) -> None:
    """Rounded scores (few groups of many cases: the per-group counts path) and the ends of every group."""
    rng = np.random.default_rng(seed)
    neg, correct = _ranking(list(rng.integers(0, values, n) / 4.0), list(rng.random(n) < 0.4))
    _same(D.ranking_candidates(neg, correct, None, int(correct.sum()) + 1, int((~correct).sum())),
          D.candidates(threshold_cutoffs(neg, correct, None), int(correct.sum()) + 1, int((~correct).sum())))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.0, 1.0, 2.0, 0.1, 1e-17]), st.sampled_from([0.0, 1.0, 3.0])),
                min_size=1, max_size=30),
       st.sampled_from([0.0, 1.0, 7.0, 2.0**60]), st.data())  # fmt: skip
def test_best_recall_is_best_of_the_recalls(steps: list[tuple[float, float]], extra: float, data: st.DataObject) -> None:
    """Recall never falls along cumulative counts: the shortcut is ``_best`` over every recall (float counts too)."""
    tp = np.cumsum([0.0] + [a for a, _ in steps])
    fp = np.cumsum([0.0] + [b for _, b in steps])
    c = D.Candidates(np.arange(tp.size, dtype=np.float64)[::-1], tp, fp, float(tp[-1] + extra), float(fp[-1]), False)
    if c.pos <= 0:
        return  # recall NaN everywhere: choose takes the general path
    among = data.draw(st.none() | st.lists(st.booleans(), min_size=tp.size, max_size=tp.size))
    mask = None if among is None else np.asarray(among, dtype=bool)
    assert D._best_recall(c, mask) == D._best(D.measure("recall", c), mask)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 1.0, 2.0, 0.1, 1e-17]), st.sampled_from([0.0, 1.0, 0.3])),
                min_size=1, max_size=30),
       st.dictionaries(st.sampled_from(["recall", "fpr", "tnr", "accepted_fraction"]),
                       st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.8, 1.0, 1.0 / 3.0]), min_size=1, max_size=3),
       st.sampled_from([0.0, 1.0, 0.7]), st.sampled_from(["precision", "recall", "f1", "youden", "tnr"]))  # fmt: skip
def test_monotone_constraints_hold_on_the_span_the_bisection_finds(steps: list[tuple[float, float]],
                                                                     subject_to: dict[str, float], extra: float,
                                                                     maximize: str) -> None:  # fmt: skip
    """Each candidate's own comparison, one at a time, holds exactly on the run ``_monotone_span`` returns;
    ``choose`` through it is ``choose`` of the mask's general path (``_best`` over every candidate)."""
    tp = np.cumsum([0.0] + [a for a, _ in steps])
    fp = np.cumsum([0.0] + [b for _, b in steps])
    c = D.Candidates(np.arange(tp.size, dtype=np.float64)[::-1], tp, fp, float(tp[-1] + extra), float(fp[-1] + extra),
                     False)  # fmt: skip
    span = D._monotone_span(c, subject_to)
    if c.pos <= 0 or c.neg <= 0:
        assert span is None
        return
    assert span is not None
    holds = [all((_literal_measure(k, a, b, c.pos, c.neg) >= v) if D.CONSTRAINTS[k] == ">="
                 else (_literal_measure(k, a, b, c.pos, c.neg) <= v) for k, v in subject_to.items())
             for a, b in zip(tp.tolist(), fp.tolist())]  # fmt: skip
    assert [span[0] <= i < span[1] for i in range(tp.size)] == holds
    if any(holds):
        d = D.choose(c, maximize, subject_to)
        want = _literal_best(D.measure(maximize, c).tolist(), holds)
        assert want is not None and d.feasible and (d.tp, d.fp) == (float(tp[want]), float(fp[want]))

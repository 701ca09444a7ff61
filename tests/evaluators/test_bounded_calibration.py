"""The bounded kind's calibration sums: every answer equals the exact evaluator's on the same cases.

``BoundedEvaluation`` keeps per-cell sums at fixed uniform edges (``_core/calibration_sums.py``);
the binned calibration error (stored bins and their exact coarsenings), the reliability curve,
the Brier score and the log loss are held to ``ScoredPrecisionRecallEvaluation`` fed the same
cases, by Hypothesis over ties, weights, 0.0 and 1.0 and the edges themselves, single cases,
batches and merges; then the state routes, states written by 0.1.0 (no sums) and the refusals.
"""

from __future__ import annotations

import math
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation, UnsupportedQuery

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden-0.1.0"

#: Scores that stress the cell rule: the ends, the stored edges (k / 15), the coarse edges (k / 3,
#: and 0.2, which is no stored edge), their neighbours one ulp away, and ordinary values.
EDGES = [i / 15 for i in range(16)] + [0.2, 0.4, 1 / 3, 2 / 3]
SCORES = sorted(
    {0.0, 1.0, 0.5, 0.05, 0.93}
    | set(EDGES)
    | {float(np.nextafter(e, 2.0)) for e in EDGES if e < 1}
    | {float(np.nextafter(e, -1.0)) for e in EDGES if e > 0}
)


def close(a: float, b: float) -> bool:
    """Equal to rounding (the sums are added in another order than the exact evaluator's), within a Bounds' bounds."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    held = not hasattr(a, "lower") or a.lower <= b <= a.upper
    return held and abs(a - b) <= 1e-12 + 1e-9 * abs(b)


def check_equal(b: BoundedEvaluation, e: ScoredPrecisionRecallEvaluation) -> None:
    assert b.scores_are_probabilities() == e.scores_are_probabilities()
    assert close(b.brier_score(), e.brier_score())
    assert close(b.log_loss(), e.log_loss())
    for n_bins in (1, 3, 15):
        for norm, debias in (("l1", False), ("l2", False), ("max", False), ("l1", True), ("l2", True)):
            got = b.expected_calibration_error(n_bins, norm, debias=debias)
            want = e.expected_calibration_error(n_bins, norm, debias=debias)
            assert close(got, want), (n_bins, norm, debias, got, want)
        (bt, bp), (et, ep) = b.calibration_curve(n_bins), e.calibration_curve(n_bins)
        assert bt.shape == et.shape and all(map(close, bt, et)) and all(map(close, bp, ep))
    be, ee = b.summary(), e.summary()
    for key in ("expected_calibration_error", "brier_score"):
        assert (key in be) == (key in ee)
        if key in ee:
            assert close(be[key], ee[key])
            assert math.isnan(ee[key]) or be[key + "_lower"] <= ee[key] <= be[key + "_upper"]


cases = st.lists(
    st.tuples(st.booleans(), st.sampled_from(SCORES), st.sampled_from([1.0, 0.5, 2.0, 0.0, 3.25])),
    min_size=1, max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(cases, st.booleans(), st.integers(0, 3), st.integers(1, 4))
def test_every_calibration_answer_equals_the_exact_evaluators(data, weighted, route, parts):
    """Single cases, one batch, batches, or summaries merged: the exact evaluator's answers."""
    correct = [c for c, _, _ in data]
    scores = [s for _, s, _ in data]
    weights = [w for _, _, w in data] if weighted else None
    e = ScoredPrecisionRecallEvaluation()
    e.add_cases(correct, scores, sample_weight=weights)
    b = BoundedEvaluation(max_bins=4)  # few ranking bins: the calibration sums do not depend on them
    cut = np.array_split(np.arange(len(data)), parts)
    if route == 0:
        for i in range(len(data)):
            b.add_case(correct[i], scores[i], 1.0 if weights is None else weights[i])
    elif route == 1:
        b.add_cases(correct, scores, sample_weight=weights)
    else:
        pieces = []
        for idx in cut:
            p = BoundedEvaluation(max_bins=4)
            p.add_cases([correct[i] for i in idx], [scores[i] for i in idx],
                        sample_weight=None if weights is None else [weights[i] for i in idx])  # fmt: skip
            pieces.append(p)
        if route == 2:
            for p in pieces:
                b += p
        else:
            b = pieces[0]
            for p in pieces[1:]:
                b = b + p
    check_equal(b, e)


def test_large_batches_take_the_unsorted_path_and_agree():
    """A batch past the unsorted threshold (its ranking bins made without a sort) sums calibration the same way."""
    rng = np.random.default_rng(7)
    s = np.round(rng.random(200_000), 4)
    c = rng.random(s.size) < s
    b, e = BoundedEvaluation(max_bins=64), ScoredPrecisionRecallEvaluation()
    b.add_cases(c, s)
    e.add_cases(c, s)
    check_equal(b, e)
    f = BoundedEvaluation.from_evaluation(e, max_bins=64)
    check_equal(f, e)


def test_calibration_bins_other_than_fifteen():
    """calibration_bins=10 answers 1, 2, 5 and 10 bins exactly; the exact evaluator agrees."""
    rng = np.random.default_rng(1)
    s, c = rng.random(500), rng.random(500) < 0.4
    b, e = BoundedEvaluation(calibration_bins=10), ScoredPrecisionRecallEvaluation()
    b.add_cases(c, s)
    e.add_cases(c, s)
    for n_bins in (1, 2, 5, 10):
        assert close(b.expected_calibration_error(n_bins), e.expected_calibration_error(n_bins))
        assert np.allclose(b.calibration_curve(n_bins), e.calibration_curve(n_bins), rtol=1e-12, atol=0)
    with pytest.raises(UnsupportedQuery, match=r"n_bins in \(1, 2, 5, 10\).*n_bins=15 is not one"):
        b.expected_calibration_error()


def test_state_round_trips_keep_the_sums(tmp_path):
    b = BoundedEvaluation(max_bins=8, calibration_bins=6)
    b.add_cases([True, False, True, False], [0.0, 1.0, 0.5, 0.25], sample_weight=[1.0, 2.0, 0.5, 0.0])
    want = (b.brier_score(), b.log_loss(), b.expected_calibration_error(6), b.calibration_bins)
    path = tmp_path / "s.npz"
    b.save(path)
    for other in (BoundedEvaluation.from_dict(b.to_dict()), pickle.loads(pickle.dumps(b)), BoundedEvaluation.load(path)):
        assert other == b
        assert (other.brier_score(), other.log_loss(), other.expected_calibration_error(6), other.calibration_bins) == want
    d = b.to_dict()
    assert d["version"] == 2 and d["calibration_bins"] == 6 and len(d["calibration_weight"]) == 13
    d["calibration_weight"] = d["calibration_weight"][:-1]
    with pytest.raises(ValueError, match="13 cells"):
        BoundedEvaluation.from_dict(d)


def test_a_bad_score_is_kept_through_every_route(tmp_path):
    """A score outside [0, 1] is named by every calibration query, after merges and state round trips."""
    b = BoundedEvaluation()
    b.add_cases([True, False], [0.5, 0.25])
    b.add_case(True, 1.5)
    b.add_case(True, -3.0)
    other = BoundedEvaluation()
    other.add_cases([True], [math.inf])
    merged = b + other
    b.save(tmp_path / "s.npz")
    # the score the exact evaluator names (the lowest below 0, else the highest), whatever the order
    for ev, bad in ((b, "-3.0"), (merged, "-3.0"), (other + b, "-3.0"), (BoundedEvaluation.load(tmp_path / "s.npz"), "-3.0"),
                    (BoundedEvaluation.from_dict(other.to_dict()), "inf")):  # fmt: skip
        assert not ev.scores_are_probabilities()
        assert "brier_score" not in ev.summary()
        for query in (ev.brier_score, ev.log_loss, ev.expected_calibration_error, ev.calibration_curve):
            with pytest.raises(ValueError, match=f"got the score {bad} instead"):
                query()
    b.reset()
    b.add_cases([True], [0.5])
    assert b.brier_score() == 0.25


@pytest.mark.parametrize("name", ["bounded-4096-unweighted", "bounded-8-unweighted", "bounded-8-weighted"])
def test_states_written_by_0_1_0_load_without_sums(name):
    """0.1.0 kept no calibration sums: its summaries load, refuse the calibration queries saying so, and omit them."""
    loaded = [
        BoundedEvaluation.load(GOLDEN / f"{name}.npz"),
        BoundedEvaluation.from_dict(__import__("json").loads((GOLDEN / f"{name}.json").read_text())),
    ]
    pickled = (GOLDEN / f"{name}.pkl").read_bytes()
    # numpy 2 pickles arrays by numpy._core, which numpy 1.x lacks (the golden pickles were written by numpy 2)
    if int(np.__version__.split(".")[0]) >= 2 or b"numpy._core" not in pickled:
        loaded.append(pickle.loads(pickled))
    for ev in loaded:
        assert ev.num_cases > 0 and ev.calibration_bins == 15
        assert not ev.scores_are_probabilities()
        assert "brier_score" not in ev.summary()
        with pytest.raises(UnsupportedQuery, match="without calibration sums.*0.1.0"):
            ev.brier_score()
        fresh = BoundedEvaluation(max_bins=ev.max_bins)
        fresh.add_cases([True], [0.5])
        with pytest.raises(UnsupportedQuery, match="without calibration sums"):
            (ev + fresh).log_loss()
        assert ev.to_dict()["version"] == 1 and "calibration" not in ev.to_dict()  # saved again: as 0.1.0 wrote it
        assert BoundedEvaluation.from_dict(ev.to_dict()) == ev
        ev.reset()  # no case left: the sums are complete again
        ev.add_cases([True, False], [1.0, 0.0])
        assert ev.brier_score() == 0.0 and ev.scores_are_probabilities()


def test_an_empty_version_1_state_gets_sums():
    d = BoundedEvaluation().to_dict()
    for key in ("calibration_bins", "calibration"):
        del d[key]
    for key in [k for k in d if k.startswith("calibration_")]:
        del d[key]
    d["version"] = 1
    ev = BoundedEvaluation.from_dict(d)
    assert math.isnan(ev.brier_score())
    ev.add_cases([True], [0.75])
    assert ev.brier_score() == 0.0625


def test_refusals_say_why():
    b = BoundedEvaluation()
    b.add_cases([True, False, True], [0.2, 0.6, 0.9])
    with pytest.raises(UnsupportedQuery, match="quantile bins need the scores' quantiles"):
        b.expected_calibration_error(strategy="quantile")
    with pytest.raises(UnsupportedQuery, match=r"n_bins in \(1, 3, 15\) only.*n_bins=5 is not one"):
        b.calibration_curve()
    with pytest.raises(UnsupportedQuery, match="isotonic fit needs every distinct score"):
        b.reliability_diagram()
    with pytest.raises(UnsupportedQuery, match="logistic fit needs the log-odds"):
        b.calibration_slope_intercept()
    with pytest.raises(ValueError, match="'norm'"):  # a bad option is the exact evaluator's ValueError
        b.expected_calibration_error(norm="l3")
    none = BoundedEvaluation(calibration_bins=None)
    none.add_cases([True], [0.5])
    with pytest.raises(UnsupportedQuery, match="calibration_bins=None"):
        none.brier_score()
    assert "brier_score" not in none.summary() and none.to_dict()["calibration_bins"] is None
    assert BoundedEvaluation.from_dict(none.to_dict()) == none


@pytest.mark.parametrize("bad", [0, 65537, -1, 2.0, True, "15"])
def test_calibration_bins_must_be_an_int_in_range(bad):
    with pytest.raises((TypeError, ValueError), match="calibration_bins.*None or an int between 1 and 65536"):
        BoundedEvaluation(calibration_bins=bad)


def test_a_refused_merge_changes_nothing():
    a, b = BoundedEvaluation(), BoundedEvaluation(calibration_bins=10)
    a.add_cases([True], [0.5])
    b.add_cases([False], [0.5])
    before = a.to_dict()
    with pytest.raises(ValueError, match="calibration_bins=15"):
        a += b
    assert a.to_dict() == before


def test_reset_and_empty():
    b = BoundedEvaluation()
    assert math.isnan(b.brier_score()) and math.isnan(b.log_loss()) and math.isnan(b.expected_calibration_error())
    assert not b.scores_are_probabilities() and b.calibration_curve(3)[0].size == 0
    b.add_cases([True, False], [0.9, 0.1])
    b.reset()
    assert b == BoundedEvaluation() and math.isnan(b.brier_score())

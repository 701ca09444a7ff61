"""The bootstrap engine and BCa intervals against literal references (sklearn on repeated cases,
leave-one-out loops, the BCa formula written out) and scipy's BCa."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import scored_pr
from scored_pr._core import stats as S

N = NormalDist()


def _data(rng: np.random.Generator, n: int, tied: bool) -> tuple[np.ndarray, np.ndarray]:
    c = rng.random(n) < 0.4
    c[:2] = [True, False]
    s = rng.integers(0, 5, n).astype(float) if tied else rng.normal(size=n) + c
    return c, s


@pytest.mark.parametrize("tied", [False, True])
def test_resampled_measures_equal_sklearn_on_the_repeated_cases(tied: bool) -> None:
    rng = np.random.default_rng(3)
    for _ in range(25):
        c, s = _data(rng, int(rng.integers(2, 40)), tied)
        s2 = rng.integers(0, 4, c.size).astype(float)
        r1, pc, nc = S.rank_positions(s, c)
        r2 = S.rank_positions(s2, c, 0, pc, nc)[0]  # a second model, counts in the first one's order
        wp, wn = rng.integers(0, 3, (4, pc.size)), rng.integers(0, 3, (4, nc.size))
        for ranked, scores in ((r1, s), (r2, s2)):
            auc = S.resampled_measure("roc_auc", ranked, wp, wn)
            ap = S.resampled_measure("average_precision", ranked, wp, wn)
            for k in range(4):
                idx = np.r_[np.repeat(pc, wp[k]), np.repeat(nc, wn[k])]
                cc, ss = c[idx], scores[idx]
                if cc.any() and not cc.all():
                    assert auc[k] == pytest.approx(roc_auc_score(cc, ss), abs=1e-12)
                else:
                    assert math.isnan(auc[k])
                if cc.any():
                    assert ap[k] == pytest.approx(average_precision_score(cc, ss), abs=1e-12)


def test_unreturned_positives_add_no_precision() -> None:
    """The evaluator's AP with misses equals the resampled AP at unit counts (each block of misses, one
    entry, counted as often as it has cases)."""
    rng = np.random.default_rng(1)
    for ties in ("stable", "grouped"):
        ev = scored_pr.ScoredPrecisionRecallEvaluation(ties=ties)
        ev.add_cases(rng.random(50) < 0.5, rng.integers(0, 8, 50).astype(float))
        ev.add_misses(4)
        ev.add_negative_misses(3)
        from scored_pr._uncertainty import _ranked

        scores, correct, counts = _ranked(ev)
        assert scores.size == 52 and counts is not None and list(counts[50:]) == [3, 4]  # two entries, not 7
        ranked, pc, nc = S.rank_positions(scores, correct, 2)
        ap = S.resampled_measure("average_precision", ranked, counts[pc][None, :], counts[nc][None, :])
        assert ap[0] == pytest.approx(ev.average_precision(ties="grouped"), abs=1e-12)


def test_bootstrap_replicates_are_seeded_and_stratified() -> None:
    rng = np.random.default_rng(2)
    c, s = _data(rng, 300, tied=True)
    r1 = S.bootstrap_distribution(s, c, "roc_auc", 50, seed=9)
    assert np.array_equal(r1, S.bootstrap_distribution(s, c, "roc_auc", 50, seed=9))
    small_blocks = S.bootstrap_distribution(s, c, "roc_auc", 2000, seed=9, chunk_cells=1000)
    assert np.std(small_blocks) == pytest.approx(np.std(S.bootstrap_distribution(s, c, "roc_auc", 2000, seed=9)), rel=0.1)
    assert not np.array_equal(r1, S.bootstrap_distribution(s, c, "roc_auc", 50, seed=10))
    # a stratified resample of a perfectly separated set is still perfect; unstratified ones can lose a class
    cs = np.r_[np.ones(3, bool), np.zeros(3, bool)]
    ss = np.r_[3.0, 2.0, 1.5, 1.0, 0.5, 0.0]
    assert np.all(S.bootstrap_distribution(ss, cs, "roc_auc", 200, seed=0) == 1.0)
    assert np.isnan(S.bootstrap_distribution(ss, cs, "roc_auc", 200, seed=0, stratified=False)).any()


def _leave_one_out(c: np.ndarray, s: np.ndarray, metric) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    keep = np.ones(c.size, bool)
    out = []
    for cls in (True, False):
        vals = []
        for i in np.flatnonzero(c == cls):
            keep[i] = False
            vals.append(metric(c[keep], s[keep]))
            keep[i] = True
        out.append(np.array(vals))
    return out


def _literal_acceleration(jack: list[np.ndarray]) -> float:
    d = np.concatenate([v.mean() - v for v in jack])
    return float((d**3).sum() / (6 * (d**2).sum() ** 1.5))


@pytest.mark.parametrize("tied", [False, True])
def test_jackknife_and_acceleration_equal_literal_leave_one_out(tied: bool) -> None:
    rng = np.random.default_rng(5)
    c, s = _data(rng, 60, tied)
    jp, jn = S.jackknife_roc_auc(s, c)
    lit = _leave_one_out(c, s, roc_auc_score)
    np.testing.assert_allclose(np.sort(jp), np.sort(lit[0]), atol=1e-12)
    np.testing.assert_allclose(np.sort(jn), np.sort(lit[1]), atol=1e-12)
    assert S.acceleration([jp, jn]) == pytest.approx(_literal_acceleration(lit), rel=1e-9)
    ranked, pc, nc = S.rank_positions(s, c)
    jack = S.jackknife_measure("average_precision", ranked, pc.size, nc.size)
    lit = _leave_one_out(c, s, average_precision_score)
    for got, want in zip(jack, lit):
        np.testing.assert_allclose(np.sort(got), np.sort(want), atol=1e-12)
    assert S.acceleration(jack) == pytest.approx(_literal_acceleration(lit), rel=1e-9)


def test_grouped_jackknife_leaves_out_interleaved_blocks() -> None:
    blocks = S.jackknife_blocks(1000, 200)
    assert blocks.max() == 199 and np.all(np.bincount(blocks) == 5)
    assert np.array_equal(S.jackknife_blocks(7, 200), np.arange(7))
    rng = np.random.default_rng(6)
    c, s = _data(rng, 700, tied=False)
    ranked, pc, nc = S.rank_positions(s, c)
    jack = S.jackknife_measure("average_precision", ranked, pc.size, nc.size, max_blocks=50)
    # block g of the positives: every 50th positive in rank order, starting at g
    g = 7
    keep = np.ones(c.size, bool)
    keep[pc[g::50]] = False
    assert jack[0][g] == pytest.approx(average_precision_score(c[keep], s[keep]), abs=1e-12)


def _literal_bca(estimate: float, reps: np.ndarray, a: float, level: float) -> tuple[float, float]:
    b = reps.size
    p = (np.sum(reps < estimate) + 0.5 * np.sum(reps == estimate)) / b
    z0 = N.inv_cdf(p)
    out = []
    for q in ((1 - level) / 2, (1 + level) / 2):
        zq = N.inv_cdf(q)
        out.append(float(np.quantile(reps, N.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq))))))
    return out[0], out[1]


def test_bca_interval_is_the_formula() -> None:
    rng = np.random.default_rng(8)
    reps = rng.gamma(3.0, size=999)
    for est, a in [(2.5, 0.0), (3.1, 0.05), (2.0, -0.1)]:
        iv = S.bca_interval(est, est, reps, a, 0.9)
        assert (iv.low, iv.high) == pytest.approx(_literal_bca(est, reps, a, 0.9), abs=1e-12)
        assert iv.method == "bca" and iv.std_error == pytest.approx(np.std(reps, ddof=1))
    # without bias or acceleration BCa is the percentile interval
    sym = np.r_[reps, 2 * np.median(reps) - reps]
    iv = S.bca_interval(float(np.median(sym)), float(np.median(sym)), sym, 0.0, 0.95)
    pc = S.percentile_interval(float(np.median(sym)), sym, 0.95)
    assert (iv.low, iv.high) == pytest.approx((pc.low, pc.high), abs=1e-9)
    # an estimate beyond every replicate makes z0 infinite: BCa is undefined, NaN bounds with the reason
    # (this used to clamp z0 and return an interval squeezed onto the extreme replicates)
    for est, end in ((100.0, "top"), (-100.0, "bottom")):
        iv = S.bca_interval(est, est, reps, 0.0, 0.95)
        assert math.isnan(iv.low) and math.isnan(iv.high) and iv.method == "bca"
        assert iv.note.startswith(f"BCa is undefined here: the estimate is at the {end} of the 999 bootstrap")
        assert iv.std_error == pytest.approx(np.std(reps, ddof=1))
    assert math.isnan(S.bca_interval(1.0, 1.0, np.full(10, np.nan), 0.0, 0.95).low)
    # replicates that do not vary give their value, whatever the estimate
    assert S.bca_interval(0.9, 0.9, np.full(50, 1.0), 0.0, 0.95)[1:3] == (1.0, 1.0)
    assert S.bca_interval(2.5, 2.5, reps, 0.0, 0.9).note == ""


def test_bca_on_an_inverted_ranking_is_reported_undefined_not_zero_width() -> None:
    """Issue 27 item 13: AP of an inverted ranking had percentile [0.263, 0.302] and BCa [0.258, 0.258]."""
    for n, npos in ((20, 8), (50, 10), (100, 40)):
        ev = scored_pr.ScoredPrecisionRecallEvaluation()
        ev.add_cases(np.arange(n) >= n - npos, np.arange(n, 0, -1).astype(float))  # positives at the bottom
        pct = ev.confidence_interval("average_precision", method="bootstrap", seed=0)
        bca = ev.confidence_interval("average_precision", method="bca", seed=0)
        assert pct.low < pct.high and pct.note == ""
        assert math.isnan(bca.low) and math.isnan(bca.high), (n, bca)
        assert "BCa is undefined here" in bca.note and "at the bottom" in bca.note
        # the replicates exist and vary: the collapse was the bias correction, not the data
        assert bca.std_error == pytest.approx(pct.std_error) and bca.std_error > 0


def _auc_rows(c: np.ndarray, s: np.ndarray, axis: int = -1) -> np.ndarray:
    from scipy.stats import rankdata

    r = rankdata(s, axis=-1)
    m = c.sum(axis=-1)
    n = c.shape[-1] - m
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((r * c).sum(axis=-1) - m * (m + 1) / 2) / (m * n)  # type: ignore[no-any-return]


@pytest.mark.parametrize("measure", ["area_under_roc_curve", "average_precision"])
def test_bca_close_to_scipy_unstratified(measure: str) -> None:
    """scipy.stats.bootstrap(method='BCa') resamples cases (unstratified) and jackknifes every case."""
    from scipy.stats import bootstrap

    rng = np.random.default_rng(11)
    n, b = (400, 4000) if measure == "area_under_roc_curve" else (150, 1500)
    c, s = _data(rng, n, tied=False)
    ev = scored_pr.ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(c, s)
    ours = ev.confidence_interval(measure, method="bca", n_resamples=b, seed=1, stratified=False)
    if measure == "area_under_roc_curve":
        res = bootstrap((c, s), _auc_rows, paired=True, vectorized=True, n_resamples=b, method="BCa",
                        random_state=np.random.default_rng(2))
    else:
        res = bootstrap((c, s), average_precision_score, paired=True, vectorized=False, n_resamples=b,
                        method="BCa", random_state=np.random.default_rng(2))
    ref = res.confidence_interval
    # the same interval up to Monte Carlo error (a bound's standard error is 0.002-0.005 here; fed
    # the same replicates, scipy's private _bca_interval gives our bounds to 1e-15)
    tol = 0.012 if measure == "area_under_roc_curve" else 0.02
    assert ours.low == pytest.approx(ref.low, abs=tol) and ours.high == pytest.approx(ref.high, abs=tol)
    # BCa moves the percentile interval the way scipy's does
    pct = ev.confidence_interval(measure, n_resamples=b, seed=1, stratified=False)
    assert np.sign(ours.high - pct.high) == np.sign(ref.high - pct.high)


@pytest.mark.parametrize("measure,args", [("area_under_roc_curve", {}), ("average_precision", {}),
                                          ("precision_at", {"k": 10}), ("maximum_f_measure", {}),
                                          ("area_under_roc_curve", {"max_fpr": 0.2})])
def test_every_bootstrap_measure_has_bca(measure: str, args: dict) -> None:  # type: ignore[type-arg]
    rng = np.random.default_rng(4)
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(*_data(rng, 80, tied=True))
    ev.add_misses(2)
    iv = ev.confidence_interval(measure, method="bca", n_resamples=200, seed=3, **args)
    assert iv.method == "bca" and iv.low <= iv.high
    assert iv == ev.confidence_interval(measure, method="bca", n_resamples=200, seed=3, **args)
    pct = ev.confidence_interval(measure, method="bootstrap", n_resamples=200, seed=3, **args)
    assert pct.std_error == iv.std_error  # the same replicates


def test_bca_comparisons() -> None:
    rng = np.random.default_rng(12)
    c, s = _data(rng, 300, tied=False)
    s2 = s + rng.normal(scale=0.8, size=s.size)
    for measure in ("area_under_roc_curve", "average_precision"):
        r = scored_pr.compare(c, s, s2, measure=measure, method="bca", n_resamples=500, seed=0)
        p = scored_pr.compare(c, s, s2, measure=measure, method="bootstrap", n_resamples=500, seed=0)
        assert r.method == "bca" and r.interval.low < r.difference < r.interval.high
        assert r.statistic == p.statistic  # same replicates, same test; only the interval differs
        ea, eb = (scored_pr.ScoredPrecisionRecallEvaluation() for _ in range(2))
        ea.add_cases(c[:150], s[:150])
        eb.add_cases(c[150:], s2[150:])
        u = scored_pr.compare(ea, eb, measure=measure, method="bca", n_resamples=300, seed=1)
        assert u.method == "bca" and u.interval.low < u.interval.high


def test_weighted_evaluators_refuse_intervals() -> None:
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1], sample_weight=[1.0, 2.0, 1.0, 1.0])
    for call in (lambda: ev.confidence_interval(), lambda: ev.confidence_interval("average_precision", method="bca"),
                 lambda: scored_pr.compare(ev, ev)):
        with pytest.raises(ValueError, match="sample weights.*numpy.repeat"):
            call()


def test_weighted_partial_auc_equals_sklearn() -> None:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(13)
    for tied in (False, True):
        c, s = _data(rng, 200, tied)
        w = rng.uniform(0.1, 3.0, c.size)
        ev = scored_pr.ScoredPrecisionRecallEvaluation(ties="grouped")
        ev.add_cases(c, s, sample_weight=w)
        for f in (0.1, 0.35, 1.0):
            assert ev.area_under_roc_curve(max_fpr=f) == pytest.approx(
                roc_auc_score(c, s, max_fpr=f, sample_weight=w), rel=1e-9)
        assert ev.area_under_roc_curve(max_fpr=1.0, standardized=False) == pytest.approx(ev.area_under_roc_curve(), rel=1e-9)


# ----------------------------------------------------------------- misses are counts, not arrays (issue 27, item 9)


def _with_misses(ties: str = "grouped", n: int = 120, misses: int = 9, neg_misses: int = 5, seed: int = 4):
    rng = np.random.default_rng(seed)
    ev = scored_pr.ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(rng.random(n) < 0.4, rng.integers(0, 15, n).astype(float))
    ev.add_misses(misses)
    ev.add_negative_misses(neg_misses)
    return ev


def _expanded(ev):  # type: ignore[no-untyped-def]
    """The literal reference: every miss its own case (what the code did before), as arrays."""
    from scored_pr._uncertainty import _ranked

    scores, correct, counts = _ranked(ev)
    if counts is None:
        return scores, correct, 0
    return np.repeat(scores, counts), np.repeat(correct, counts), scores.size - 120


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_delong_partial_auc_and_jackknife_with_misses_equal_the_expanded_cases(ties: str) -> None:
    from scored_pr._uncertainty import _ranked, _unit_statistic, _vectorised_jackknife

    ev = _with_misses(ties)
    scores, correct, counts = _ranked(ev)
    assert scores.size == 122 and counts is not None  # 120 cases + one entry per kind of miss
    xs, xc, _ = _expanded(ev)
    assert xs.size == 134
    want = S.delong_interval(xs[xc], xs[~xc], 0.9)
    got = ev.confidence_interval(level=0.9)
    assert (got.low, got.high, got.variance) == pytest.approx((want.low, want.high, want.variance), rel=1e-12)
    other = _with_misses(ties, misses=0, neg_misses=0, seed=5)
    os_, oc, _ = _expanded(other)
    r = S.delong_unpaired(xs[xc], xs[~xc], os_[oc], os_[~oc], 0.95)
    u = scored_pr.compare(ev, other)
    assert (u.statistic, u.df, u.p_value) == pytest.approx((r.statistic, r.df, r.p_value), rel=1e-9)
    w = np.r_[np.ones(xs.size - 14), np.ones(14)]
    assert ev.area_under_roc_curve(max_fpr=0.3) == pytest.approx(
        S.partial_roc_auc(xs[xc], xs[~xc], 0.3, True, w[xc], w[~xc]), rel=1e-12)
    # the jackknife (AUC exact; AP in blocks dealt over the cases) and the unit statistic
    for key in ("roc_auc", "average_precision"):
        ranked, pc, nc = S.rank_positions(scores, correct, 2)
        jack, weights = _vectorised_jackknife(key, scores, correct, ranked, True, counts, pc, nc)
        xranked, xpc, xnc = S.rank_positions(xs, xc, 14)
        xjack, xweights = _vectorised_jackknife(key, xs, xc, xranked, True)
        assert xweights is None
        assert S.acceleration(jack, weights) == pytest.approx(S.acceleration(xjack), rel=1e-9, abs=1e-15)
        assert _unit_statistic(key, ranked, pc.size, nc.size, counts, pc, nc) == pytest.approx(
            _unit_statistic(key, xranked, xpc.size, xnc.size), rel=1e-12)


def test_block_counts_have_the_distribution_of_per_case_draws() -> None:
    """A block of B of the K cases gets Binomial(K, B/K) of the draws; the unit entries share the rest uniformly."""
    mult = np.r_[np.ones(30, np.int64), 50, np.ones(20, np.int64), 400]
    k = int(mult.sum())
    w = S.draw(np.random.default_rng(0), mult, 20_000)
    assert np.all(w.sum(axis=1) == k)
    for j, b in ((30, 50), (51, 400)):
        p = b / k
        assert w[:, j].mean() == pytest.approx(k * p, rel=0.01)
        assert w[:, j].var() == pytest.approx(k * p * (1 - p), rel=0.05)
    unit = np.flatnonzero(mult == 1)
    assert w[:, unit].mean() == pytest.approx(1.0, rel=0.01)
    assert w[:, unit].var() == pytest.approx(1 - 1 / k, rel=0.05)
    # without blocks the stream is the per-case one (seeded results without misses are unchanged)
    ones = np.ones(40, np.int64)
    assert np.array_equal(S.draw(np.random.default_rng(3), ones, 7), S._counts(np.random.default_rng(3), 40, 7))


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("key", ["roc_auc", "average_precision"])
def test_bootstrap_with_misses_has_the_distribution_of_the_expanded_cases(key: str, stratified: bool) -> None:
    from scored_pr._uncertainty import _ranked

    ev = _with_misses(misses=40, neg_misses=25)
    scores, correct, counts = _ranked(ev)
    xs, xc, _ = _expanded(ev)
    ours = S.bootstrap_distribution(scores, correct, key, 4000, 1, stratified, 2, counts=counts)
    ref = S.bootstrap_distribution(xs, xc, key, 4000, 2, stratified, 65)
    ours, ref = ours[~np.isnan(ours)], ref[~np.isnan(ref)]
    assert np.mean(ours) == pytest.approx(np.mean(ref), abs=4 * np.std(ref) / math.sqrt(ref.size) * math.sqrt(2))
    assert np.std(ours) == pytest.approx(np.std(ref), rel=0.06)
    assert np.quantile(ours, [0.025, 0.975]) == pytest.approx(np.quantile(ref, [0.025, 0.975]), abs=0.25 * np.std(ref))


def test_interval_with_many_misses_does_not_expand_them() -> None:
    """30 million misses used to become arrays of 30 million entries (35 s at 1M in report --ci); now the
    memory is that of the returned cases."""
    import tracemalloc

    ev = _with_misses(misses=30_000_000, neg_misses=1_000_000)
    calls = [
        *(lambda m=m: ev.confidence_interval(method=m, n_resamples=200, seed=0) for m in ("delong", "bootstrap", "bca")),
        *(lambda m=m: ev.confidence_interval("average_precision", method=m, n_resamples=200, seed=0)
          for m in ("bootstrap", "bca")),
        lambda: ev.confidence_interval("precision_at", k=10, method="bca", n_resamples=20, seed=0),
        lambda: scored_pr.compare(ev, ev, method="bca", measure="average_precision", n_resamples=50),
        lambda: scored_pr.compare(ev, ev),
        lambda: ev.area_under_roc_curve(max_fpr=0.5),
    ]
    tracemalloc.start()
    try:
        for k, call in enumerate(calls):
            tracemalloc.reset_peak()
            call()
            peak = tracemalloc.get_traced_memory()[1]
            assert peak < 30 * 2**20, (k, peak)  # one float64 per miss would be 240 MB
    finally:
        tracemalloc.stop()

"""Uncertainty: pROC parity (golden values in tests/data/proc), bootstrap and logit intervals."""

from __future__ import annotations

import csv
import re
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from scored_pr._core import stats as S

DATA = Path(__file__).resolve().parents[1] / "data" / "proc"
RTOL = 1e-9


def _load() -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, float]]]:
    cols: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    with open(DATA / "datasets.csv") as f:
        for row in csv.DictReader(f):
            d = cols[row["dataset"]]
            d["correct"].append(int(row["correct"]))
            d["a"].append(float(row["a"]))
            d["b"].append(float(row["b"]))
    sets = {
        k: {"correct": np.array(v["correct"], bool), "a": np.array(v["a"]), "b": np.array(v["b"])}
        for k, v in cols.items()
    }
    golden: dict[str, dict[str, float]] = defaultdict(dict)
    with open(DATA / "golden.csv") as f:
        for row in csv.DictReader(f):
            golden[row["dataset"]][row["quantity"]] = math.nan if row["value"] == "NA" else float(row["value"])
    return sets, golden


SETS, GOLDEN = _load()
NAMES = list(SETS)


def close(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=RTOL, abs_tol=1e-15)


@pytest.mark.parametrize("name", NAMES)
def test_delong_variance_and_interval_match_proc(name: str) -> None:
    d, g = SETS[name], GOLDEN[name]
    c, a = d["correct"], d["a"]
    auc, var = S.delong_variance(a[c], a[~c])
    assert close(auc, g["auc_a"]) and close(var, g["var_a"])
    for lvl, key in [(0.95, "ci95"), (0.9, "ci90")]:
        iv = S.delong_interval(a[c], a[~c], lvl)
        assert close(iv.low, g[key + "_low_a"]) and close(iv.high, g[key + "_high_a"])
        assert iv.method == "delong" and close(iv.variance, g["var_a"])


@pytest.mark.parametrize("name", NAMES)
def test_paired_delong_matches_proc(name: str) -> None:
    d, g = SETS[name], GOLDEN[name]
    r = S.delong_paired(d["correct"], d["a"], d["b"], 0.95)
    assert close(r.estimate_a, g["auc_a"]) and close(r.estimate_b, g["auc_b"])
    assert close(r.statistic, g["paired_z"]) and close(r.p_value, g["paired_p"])


@pytest.mark.parametrize("k", range(len(NAMES) - 1))
def test_unpaired_delong_matches_proc(k: int) -> None:
    d1, d2, g = SETS[NAMES[k]], SETS[NAMES[k + 1]], GOLDEN[NAMES[k]]
    c1, c2 = d1["correct"], d2["correct"]
    r = S.delong_unpaired(d1["a"][c1], d1["a"][~c1], d2["a"][c2], d2["a"][~c2], 0.95)
    assert close(r.statistic, g["unpaired_t"]) and close(r.df, g["unpaired_df"])
    assert close(r.p_value, g["unpaired_p"])


def test_golden_covers_all_sizes_and_kinds() -> None:
    sizes = sorted(SETS[n]["correct"].size for n in NAMES)
    assert sizes[0] == 8 and sizes[-1] == 5000
    assert {n.split("_")[0] for n in NAMES} == {"distinct", "tied", "integer"}
    assert all(len(GOLDEN[n]) >= 13 for n in NAMES)


def test_t_distribution_against_known_values() -> None:
    # P(|T| > 2.228138851986) = 0.05 for 10 df; P(|T| > 12.7062047361747) = 0.05 for 1 df
    assert math.isclose(S.t_two_sided_p(2.228138851986, 10), 0.05, rel_tol=1e-9)
    assert math.isclose(S.t_two_sided_p(12.7062047361747, 1), 0.05, rel_tol=1e-9)
    assert math.isclose(S.t_two_sided_p(0.0, 3.5), 1.0)
    assert math.isclose(S.normal_two_sided_p(1.959963984540054), 0.05, rel_tol=1e-12)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("max_fpr", [0.2, 0.5])
def test_partial_auc_matches_proc(name: str, max_fpr: float) -> None:
    d, g = SETS[name], GOLDEN[name]
    c, a = d["correct"], d["a"]
    raw = S.partial_roc_auc(a[c], a[~c], max_fpr, standardized=False)
    assert close(raw, g[f"pauc_raw_{max_fpr:g}_a"])
    mcclish = g[f"pauc_mcclish_{max_fpr:g}_a"]
    if not math.isnan(mcclish):  # pROC declines to correct curves below the diagonal
        assert close(S.partial_roc_auc(a[c], a[~c], max_fpr, standardized=True), mcclish)


def _ev(c: np.ndarray, s: np.ndarray) -> "scored_pr.ScoredPrecisionRecallEvaluation":
    ev = scored_pr.ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(c, s)
    return ev


import scored_pr  # noqa: E402


@pytest.mark.parametrize("name", ["tied_50", "integer_1000"])
def test_evaluator_interval_and_compare_match_proc(name: str) -> None:
    d, g = SETS[name], GOLDEN[name]
    ev = _ev(d["correct"], d["a"])
    iv = ev.confidence_interval(level=0.95)
    assert close(iv.low, g["ci95_low_a"]) and close(iv.high, g["ci95_high_a"])
    r = scored_pr.compare(d["correct"], d["a"], d["b"])
    assert close(r.statistic, g["paired_z"]) and close(r.p_value, g["paired_p"])
    assert math.isclose(ev.area_under_roc_curve(max_fpr=0.2, standardized=False), g["pauc_raw_0.2_a"], rel_tol=RTOL)


def test_bootstrap_is_reproducible_and_agrees_with_delong() -> None:
    d = SETS["tied_500"]
    c, a = d["correct"], d["a"]
    ev = _ev(c, a)
    i1 = ev.confidence_interval("average_precision", seed=5, n_resamples=300)
    i2 = ev.confidence_interval("average_precision", seed=5, n_resamples=300)
    assert i1 == i2 and i1.low < i1.estimate < i1.high
    # the bootstrap standard error of the AUC agrees with DeLong's within 15%
    bs = ev.confidence_interval(method="bootstrap", seed=1, n_resamples=1000)
    dl = ev.confidence_interval(method="delong")
    assert abs(bs.std_error / dl.std_error - 1) < 0.15


def test_partial_auc_equals_sklearn() -> None:
    from sklearn.metrics import roc_auc_score

    for name in ["tied_8", "integer_100", "distinct_250"]:
        d = SETS[name]
        ev = _ev(d["correct"], d["a"])
        for f in (0.1, 0.3, 1.0):
            assert math.isclose(ev.area_under_roc_curve(max_fpr=f), roc_auc_score(d["correct"], d["a"], max_fpr=f), rel_tol=1e-9)


def test_method_measure_mismatch_errors() -> None:
    ev = _ev(np.array([True, False, True, False]), np.array([0.9, 0.8, 0.7, 0.1]))
    with pytest.raises(ValueError, match="confidence_interval: argument 'method'"):
        ev.confidence_interval("average_precision", method="delong")
    with pytest.raises(ValueError, match="argument 'method'"):
        ev.confidence_interval(method="logit")
    with pytest.raises(ValueError, match="argument 'measure'"):
        ev.confidence_interval("no_such_measure")
    with pytest.raises(ValueError, match="argument 'max_fpr'"):
        ev.area_under_roc_curve(max_fpr=0.0)
    with pytest.raises(ValueError, match="argument 'level'"):
        ev.confidence_interval(level=1.5)


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_intervals_and_partial_area_rank_misses_as_the_evaluator_does(ties: str) -> None:
    """DeLong's estimate and the full partial area equal the evaluator's AUC with misses of both kinds."""
    rng = np.random.default_rng(7)
    ev = scored_pr.ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(rng.random(60) < 0.4, rng.integers(0, 6, 60).astype(float))
    ev.add_misses(5)
    ev.add_negative_misses(7)
    auc = ev.area_under_roc_curve()
    assert ev.confidence_interval(method="delong").estimate == pytest.approx(auc, abs=1e-12)
    if ties == "grouped":  # the partial area ranks tied pairs one half, as grouped ties do
        assert ev.area_under_roc_curve(max_fpr=1.0, standardized=False) == pytest.approx(auc, abs=1e-12)


@pytest.mark.parametrize("name", ["add_misses", "add_negative_misses", "add_case", "add_cases", "merge", "save",
                                  "num_cases", "summary", "to_dict", "pr_curve", "__init__", "_store"])
def test_only_measures_are_called_by_name(name: str) -> None:
    """A name that is not a measure is refused before the evaluator is touched (add_misses used to run)."""
    ev = _ev(np.array([True, False, True, False]), np.array([0.9, 0.8, 0.7, 0.1]))
    before = ev.to_dict()
    with pytest.raises(ValueError, match=r"confidence_interval: argument 'measure' must be one of 'area_under_roc_curve'.*; "
                                         rf"got '{name}' \(str\) instead"):
        ev.confidence_interval(name, count=5)
    assert ev.to_dict() == before and ev.num_misses == 0 and ev.num_cases == 4


def test_every_listed_measure_is_a_scalar_query() -> None:
    """Each name the interval accepts is a read-only query of one number, and gets an interval."""
    from scored_pr._uncertainty import SCALAR_MEASURES

    ev = _ev(np.array([True, False, True, False, True, False]), np.array([0.9, 0.8, 0.7, 0.4, 0.3, 0.1]))
    args = {"precision_at": {"k": 2}, "recall_at": {"k": 2}, "average_precision_at": {"k": 2},
            "f_measure_at": {"k": 2}, "e_measure_at": {"k": 2}, "precision_at_recall": {"recall": 0.5},
            "k_at_recall": {"recall": 0.5}}
    before = ev.to_dict()
    for name in SCALAR_MEASURES:
        iv = ev.confidence_interval(name, method=None if name == "area_under_roc_curve" else "bootstrap",
                                    n_resamples=20, seed=0, **args.get(name, {}))
        assert iv.estimate == pytest.approx(float(getattr(ev, name)(**args.get(name, {}))), nan_ok=True)
    assert ev.to_dict() == before


@pytest.mark.parametrize("seed, exc", [(-1, ValueError), (-(2**70), ValueError), (1.5, TypeError), (2.0, TypeError),
                                       (True, TypeError), ("3", TypeError)])
def test_bad_seed_is_our_error_naming_seed(seed: object, exc: type) -> None:
    ev = _ev(np.array([True, False, True, False]), np.array([0.9, 0.8, 0.7, 0.1]))
    msg = rf"argument 'seed' must be None or a non-negative integer; got {re.escape(repr(seed))} \("
    with pytest.raises(exc, match="confidence_interval: " + msg):
        ev.confidence_interval("average_precision", seed=seed)
    with pytest.raises(exc, match="compare: " + msg):
        scored_pr.compare([1, 0, 1, 0], [0.9, 0.8, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], measure="average_precision", seed=seed)
    a, b = _ev(np.array([True, False]), np.array([0.9, 0.1])), _ev(np.array([True, False]), np.array([0.2, 0.3]))
    with pytest.raises(exc, match="compare: " + msg):
        scored_pr.compare(a, b, method="bootstrap", seed=seed)
    # numpy's own integer types are integers
    assert ev.confidence_interval("average_precision", seed=np.uint8(3), n_resamples=20) == ev.confidence_interval(
        "average_precision", seed=3, n_resamples=20)


# ----------------------------------------------------------------- degenerate cases (tests/data/proc/edge_*)


def _load_edge() -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, str]]]:
    cols: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    with open(DATA / "edge_datasets.csv") as f:
        for row in csv.DictReader(f):
            for key in ("correct", "a", "b"):
                cols[row["dataset"]][key].append(float(row[key]))
    sets = {k: {"correct": np.array(v["correct"]) == 1, "a": np.array(v["a"]), "b": np.array(v["b"])}
            for k, v in cols.items()}
    golden: dict[str, dict[str, str]] = defaultdict(dict)
    with open(DATA / "edge_golden.csv") as f:
        for row in csv.DictReader(f):
            golden[row["dataset"]][row["quantity"]] = row["value"]
    return sets, golden


EDGE, EDGE_GOLDEN = _load_edge()
EDGE_NAMES = list(EDGE)


def same(ours: float, theirs: str) -> bool:
    """``ours`` equals pROC's printed value: NaN for NaN, NA and an error (pROC stops where we give NaN),
    the same infinity, else within RTOL."""
    if theirs in ("NaN", "NA", "ERROR"):
        return math.isnan(ours)
    want = float(theirs)  # float() reads "Inf" and "-Inf"
    return ours == want if math.isinf(want) else close(ours, want)


def test_edge_golden_covers_the_degenerate_cases() -> None:
    g = EDGE_GOLDEN
    assert len(EDGE_NAMES) >= 400
    both_zero = g["perfect_both"]  # its a against perfect_other's b: both variances 0
    assert both_zero["unpaired_t"] == "NaN" and both_zero["unpaired_df"] == "NaN" and both_zero["var_a"] == "0"
    assert g["identical"]["paired_z"] == "0" and g["identical"]["paired_p"] == "1"
    assert g["one_each_equal"]["paired_z"] == "ERROR"  # pROC stops; we give NaN
    assert g["perfect_vs_inverted"]["paired_z"] == "Inf"
    assert sum(v["paired_z"] == "0" for v in g.values()) > 100  # identical and transformed models
    assert sum(v.get("unpaired_t") == "NaN" for v in g.values()) >= 1


@pytest.mark.parametrize("name", EDGE_NAMES)
def test_delong_on_degenerate_and_tied_data_matches_proc(name: str) -> None:
    """Paired and unpaired DeLong equal pROC 1.18 on every dataset, including zero and undefined variances."""
    d, g = EDGE[name], EDGE_GOLDEN[name]
    c, a, b = d["correct"], d["a"], d["b"]
    auc, var = S.delong_variance(a[c], a[~c])
    assert same(auc, g["auc_a"]) and same(var, g["var_a"])
    r = scored_pr.compare(c, a, b)
    assert same(r.estimate_a, g["auc_a"]) and same(r.estimate_b, g["auc_b"])
    assert same(r.statistic, g["paired_z"]) and same(r.p_value, g["paired_p"])
    assert same(r.interval.low, g["paired_low"]) and same(r.interval.high, g["paired_high"])
    k = EDGE_NAMES.index(name)
    if k + 1 < len(EDGE_NAMES):
        d2 = EDGE[EDGE_NAMES[k + 1]]
        c2, b2 = d2["correct"], d2["b"]
        u = scored_pr.compare(_ev(c, a), _ev(c2, b2))
        assert same(u.statistic, g["unpaired_t"]) and same(u.df, g["unpaired_df"]) and same(u.p_value, g["unpaired_p"])


def test_unpaired_delong_with_one_case_or_no_class_is_nan_not_an_error() -> None:
    """pROC cannot build a curve without both classes; compare() answers NaN there (it used to divide by zero)."""
    perfect = _ev(np.array([True, True, False, False]), np.array([0.9, 0.8, 0.2, 0.1]))
    for c, s in [([True], [0.5]), ([False], [0.5]), ([], []), ([True, False], [0.9, 0.1])]:
        other = scored_pr.ScoredPrecisionRecallEvaluation(ties="grouped")
        other.add_cases(c, s)
        for x, y in ((perfect, other), (other, perfect)):
            r = scored_pr.compare(x, y)
            assert math.isnan(r.statistic) and math.isnan(r.df) and math.isnan(r.p_value)


@pytest.mark.parametrize("c, s", [([1, 1, 1], [0.3, 0.2, 0.1]), ([0, 0, 0], [0.3, 0.2, 0.1]), ([1, 0], [0.9, 0.1]),
                                  ([1, 0, 0], [0.9, 0.5, 0.1]), ([1], [0.5]), ([], [])])
def test_degenerate_intervals_and_comparisons_never_warn(c: list[int], s: list[float]) -> None:
    """One class, one case per class, no case: NaN or a value, never a RuntimeWarning (docs/reliability.md:
    degenerate states never warn). One-class BCa and compare() with one case per class used to warn."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = _ev(np.array(c, bool), np.array(s, float))
        for measure in ("area_under_roc_curve", "average_precision", "maximum_f_measure"):
            for method in (None, "bootstrap", "bca"):
                iv = ev.confidence_interval(measure, method=method, seed=1, n_resamples=20)
                assert iv.estimate == pytest.approx(float(getattr(ev, measure)()), nan_ok=True)
        for method, measure in [("delong", "area_under_roc_curve"), ("bootstrap", "average_precision"),
                                ("bca", "area_under_roc_curve"), ("bca", "average_precision")]:
            r = scored_pr.compare(ev, ev, method=method, measure=measure, n_resamples=20, seed=1)
            assert r.difference == 0.0 or math.isnan(r.difference)
            if 0 < sum(c) < len(c):
                r = scored_pr.compare(c, s, s[::-1], method=method, measure=measure, n_resamples=20, seed=1)
                assert r.method == method


@pytest.mark.parametrize("method", ["bootstrap", "bca"])
def test_bootstrap_comparison_of_identical_models_is_z_0_p_1(method: str) -> None:
    """Every replicate difference 0: statistic 0 and p 1 (it was 0/0 = NaN), as pROC's DeLong test reports it."""
    d = SETS["tied_50"]
    r = scored_pr.compare(d["correct"], d["a"], d["a"], measure="average_precision", method=method, n_resamples=50)
    assert (r.difference, r.interval.low, r.interval.high, r.statistic, r.p_value) == (0.0, 0.0, 0.0, 0.0, 1.0)
    # a perfect ranking against an inverted one differs by the same amount in every stratified resample
    c = np.array([True, True, False, False])
    r = scored_pr.compare(c, [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], method=method, n_resamples=50)
    assert r.difference == 1.0 and r.statistic == math.inf and r.p_value == 0.0

"""The table of scalar measures (scored_pr._measures) and everything that reads it.

Each consumer's list of measures is compared with the table, so a measure added to the
table that does not reach summary(), the bounded summary, testing, streaming, the interval
code, the text report or the command line fails here. Each entry is evaluated on the exact
evaluator and held against a reference: scikit-learn, a slow literal implementation written
below, or the 0.1.0 golden summaries (tests/data/golden-0.1.0).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, brier_score_loss, roc_auc_score

from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation, WindowedEvaluation, compare, testing
from scored_pr import _measures as T
from scored_pr import _report
from scored_pr import _uncertainty
from scored_pr import streaming
from scored_pr._cli import output as _cli_output
from scored_pr._cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden-0.1.0"

#: A free argument for each per-rank measure and query, by the query's name.
ARGS: dict[str, dict[str, Any]] = {
    "precision_at": {"k": 3}, "recall_at": {"k": 3}, "average_precision_at": {"k": 3},
    "f_measure_at": {"k": 3}, "e_measure_at": {"k": 3}, "precision_at_recall": {"recall": 0.5},
    "k_at_recall": {"recall": 0.5},
}  # fmt: skip


def _cases(seed: int = 0, n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    correct = rng.random(n) < 0.4
    scores = np.round(rng.normal(size=n) + correct, 1)  # rounded: tied scores across classes
    return correct, scores


def _probabilities(seed: int = 0, n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Cases whose scores are probabilities (tied, with 0.0 and 1.0): every calibration measure applies."""
    correct, scores = _cases(seed, n)
    probs = np.round(1.0 / (1.0 + np.exp(-2.0 * scores)), 1)
    probs[:2] = (0.0, 1.0)
    return correct, probs


def _ev(ties: str = "grouped", weighted: bool = False, seed: int = 0, probs: bool = False) -> ScoredPrecisionRecallEvaluation:
    correct, scores = (_probabilities if probs else _cases)(seed)
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    if weighted:
        ev.add_cases(correct, scores, sample_weight=np.random.default_rng(seed + 1).random(correct.size) + 0.5)
    else:
        ev.add_cases(correct, scores)
    return ev


def _summary_keys(pred: Any = lambda m: m.summary, probs: bool = False) -> list[str]:
    """The summary keys in table order; the calibration entries only for probabilities."""
    return [key for m in T.MEASURES if pred(m) and (probs or m.applies == "always") for key in m.keys()]


def _for(m: T.Measure) -> bool:
    """Whether ``m``'s reference evaluator holds probabilities (what a calibration entry needs)."""
    return m.applies == "probabilities"


def _free(m: T.Measure) -> dict[str, Any]:
    return ARGS[m.method] if m.kind in ("per_rank", "query") else {}


# ------------------------------------------------------------------ the table itself


def test_names_are_unique_and_every_field_is_consistent() -> None:
    names = [m.name for m in T.MEASURES]
    assert len(names) == len(set(names))
    for m in T.MEASURES:
        assert set(m.intervals) <= set(T.INTERVAL_METHODS), m.name
        if m.kind == "count":
            assert m.intervals == () and m.higher_is_better is None and m.label is None and not m.rank_based
        elif m.applies == "probabilities":  # calibration: no interval, not meaned or averaged; bounded exactly
            assert m.intervals == () and m.higher_is_better is False and m.kind == "measure", m.name
            assert m.over_queries is None and not m.over_labels and m.bounded and not m.rank_based, m.name
        else:
            assert m.intervals and m.higher_is_better is not None, m.name
        if m.kind == "query":
            assert not m.summary and not m.bounded and m.short is None, m.name
        if m.kind == "per_rank":
            assert "<k>" in m.name
        if m.equals is not None:
            assert T.by_name(m.equals).summary and m.summary
        if m.resampled is not None:
            assert not m.args and m.kind == "measure"


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("m", T.MEASURES, ids=lambda m: m.name)
def test_every_entry_is_callable_on_the_exact_evaluator_and_returns_its_type(m: T.Measure, ties: str) -> None:
    ev = _ev(ties, probs=_for(m))
    value = m.compute(ev, **_free(m))
    direct = getattr(ev, m.method) if m.kind == "count" else getattr(ev, m.method)(**m.kwargs, **_free(m))
    if m.kind == "count":
        assert type(value) is int and value == direct
    elif m.method == "k_at_recall":  # a rank, NaN when unreachable
        assert isinstance(value, (int, float)) and value == direct
    else:
        assert type(value) is float and (value == direct or (math.isnan(value) and math.isnan(direct)))


def _precision_at(correct: np.ndarray, scores: np.ndarray, k: int) -> float:
    # stable ties: insertion order among equal scores
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    return sum(bool(correct[i]) for i in order[:k]) / k


def _reciprocal_rank(correct: np.ndarray, scores: np.ndarray) -> float:
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    for rank, i in enumerate(order, 1):
        if correct[i]:
            return 1.0 / rank
    return 0.0


@pytest.mark.parametrize("seed", range(5))
def test_entries_agree_with_references(seed: int) -> None:
    """scikit-learn for AP and ROC AUC (grouped ties), slow literal rank measures (stable ties)."""
    correct, scores = _cases(seed)
    grouped = ScoredPrecisionRecallEvaluation(ties="grouped")
    grouped.add_cases(correct, scores)
    assert T.by_name("average_precision").compute(grouped) == pytest.approx(average_precision_score(correct, scores), abs=1e-12)
    assert T.by_name("area_under_roc_curve").compute(grouped) == pytest.approx(roc_auc_score(correct, scores), abs=1e-12)
    stable = ScoredPrecisionRecallEvaluation(ties="stable")
    stable.add_cases(correct, scores)
    per_rank = T.by_name("precision_at_<k>")
    for k in T.REPORT_RANKS:
        expected = _precision_at(correct, scores, k) if k <= len(scores) else math.nan
        assert per_rank.compute(stable, k=k) == pytest.approx(expected, nan_ok=True)
    assert T.by_name("reciprocal_rank").compute(stable) == pytest.approx(_reciprocal_rank(correct, scores))
    r = int(correct.sum())
    assert T.by_name("r_precision").compute(stable) == pytest.approx(_precision_at(correct, scores, r))


@pytest.mark.parametrize("m", [m for m in T.MEASURES if m.kind != "count" and m.applies == "always"], ids=lambda m: m.name)
def test_higher_is_better_is_the_direction_of_a_better_ranking(m: T.Measure) -> None:
    """A perfect ranking scores better than the reversed one, in the declared direction."""
    correct = np.array([True, False, True, False, True, False, False, True, False, False])
    perfect = np.where(correct, 2.0, 1.0) + np.arange(10) / 100
    good, bad = ScoredPrecisionRecallEvaluation(), ScoredPrecisionRecallEvaluation()
    good.add_cases(correct, perfect)
    bad.add_cases(correct, -perfect)
    g, b = m.compute(good, **_free(m)), m.compute(bad, **_free(m))
    assert (g > b) if m.higher_is_better else (g < b), (g, b)


@pytest.mark.parametrize("m", [m for m in T.MEASURES if m.kind != "count"], ids=lambda m: m.name)
def test_rank_based_is_exactly_the_measures_a_weighted_evaluator_refuses(m: T.Measure) -> None:
    ev = _ev(weighted=True, probs=_for(m))
    if m.rank_based:
        with pytest.raises(ValueError, match="not defined with sample weights"):
            m.compute(ev, **_free(m))
    else:
        assert isinstance(m.compute(ev, **_free(m)), float)


# ------------------------------------------------------------------ summary() of every kind


@pytest.mark.parametrize("probs", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_summary_is_the_table_in_order(ties: str, weighted: bool, probs: bool) -> None:
    ev = _ev(ties, weighted, probs=probs)
    got = ev.summary()
    assert list(got) == _summary_keys(probs=probs)
    for m in T.MEASURES:
        if not m.summary or (m.applies == "probabilities" and not probs):
            continue
        for k, key in zip(T.REPORT_RANKS, m.keys()):
            free = {"k": k} if m.kind == "per_rank" else {}
            if weighted and m.rank_based:
                assert math.isnan(got[key]), key
            else:
                want = m.compute(ev, **free)
                assert got[key] == want or (math.isnan(got[key]) and math.isnan(want)), key


def test_summary_keys_are_those_0_1_0_wrote() -> None:
    """The golden summaries of 0.1.0: same keys, same order, for the exact and the bounded summary."""
    exact = json.loads((GOLDEN / "exact-grouped-unweighted.expected.json").read_text(encoding="utf-8"))
    keys = [k.split(".", 1)[1] for k in exact["measures"] if k.startswith("summary.")]
    assert keys == _summary_keys() == list(_ev().summary())
    bounded = json.loads((GOLDEN / "bounded-8-unweighted.expected.json").read_text(encoding="utf-8"))
    keys = [k.split(".", 1)[1] for k in bounded["measures"] if k.startswith("summary.")]
    b = BoundedEvaluation(8)
    b.add_cases(*_cases())
    assert keys == list(b.summary())


def test_window_summary_is_the_table_in_order() -> None:
    w = WindowedEvaluation(size=25)
    w.add_cases(*_cases())
    assert list(w.summary()) == _summary_keys()
    w.add_cases(*_probabilities())  # the window now holds probabilities only
    assert list(w.summary()) == _summary_keys(probs=True)


# ------------------------------------------------------------------ the calibration entries: probabilities only

_CALIBRATION = [m for m in T.MEASURES if m.applies == "probabilities"]


def test_the_calibration_entries_are_ece_and_brier_after_every_other_key() -> None:
    assert [m.name for m in _CALIBRATION] == ["expected_calibration_error", "brier_score"]
    keys = _summary_keys(probs=True)
    assert keys[-2:] == ["expected_calibration_error", "brier_score"] and keys[:-2] == _summary_keys()


def test_a_better_calibrated_model_scores_lower_on_the_calibration_entries() -> None:
    """Same ranking, scores equal to the outcome frequencies (calibrated) against pulled-in ones."""
    correct = np.array([True] + [False] * 4 + [True] * 4 + [False])
    calibrated = np.array([0.2] * 5 + [0.8] * 5)
    pulled_in = np.array([0.45] * 5 + [0.55] * 5)
    good, bad = ScoredPrecisionRecallEvaluation(), ScoredPrecisionRecallEvaluation()
    good.add_cases(correct, calibrated)
    bad.add_cases(correct, pulled_in)
    for m in _CALIBRATION:
        assert m.compute(good) < m.compute(bad), m.name
    assert good.summary()["expected_calibration_error"] == 0.0
    assert good.summary()["brier_score"] == pytest.approx(brier_score_loss(correct, calibrated), abs=1e-15)


def test_calibration_entries_are_present_for_probabilities_and_absent_otherwise() -> None:
    """Exact, windowed, synchronized, sliced, each label of a multi-label evaluation; never NaN for logits."""
    from scored_pr import MultiLabelEvaluation, MultiQueryEvaluation, SlicedEvaluation, SynchronizedEvaluation

    names = [m.name for m in _CALIBRATION]
    for data, present in ((_probabilities(), True), (_cases(), False)):
        correct, scores = data
        ref = ScoredPrecisionRecallEvaluation()
        ref.add_cases(correct, scores)
        kinds = [ScoredPrecisionRecallEvaluation(), WindowedEvaluation(size=1000), SynchronizedEvaluation()]
        for ev in kinds:
            ev.add_cases(correct, scores)
        sliced = SlicedEvaluation("g")
        sliced.add_cases(correct, scores, g=[0] * len(correct))
        summaries = [ev.summary() for ev in kinds] + [sliced.summary()["overall"], sliced.summary()["g=0"]]
        for got in summaries:
            if present:
                assert [got[n] for n in names] == [ref.expected_calibration_error(), ref.brier_score()]
                assert got["brier_score"] == pytest.approx(brier_score_loss(correct, scores), abs=1e-15)
            else:
                assert not set(names) & set(got)
        multi = MultiQueryEvaluation()  # not meaned over queries (a mean of per-query ECEs means nothing standard)
        multi.add_cases("q1", correct, scores)
        assert not any(n in key for key in multi.summary() for n in names)
        ml = MultiLabelEvaluation(2)  # each label's summary carries them; no average over labels
        ml.add_cases(np.column_stack([correct, correct[::-1]]), np.column_stack([scores, scores[::-1]]))
        ml_summary = ml.summary()
        assert not set(names) & set(ml_summary)
        for label, one in ml_summary["labels"].items():
            assert (set(names) <= set(one)) == present, label
    empty = ScoredPrecisionRecallEvaluation()  # nothing scored: absent (misses have no score)
    empty.add_misses(2)
    assert not set(names) & set(empty.summary())
    bounded = BoundedEvaluation(64)  # its calibration sums: the exact evaluator's values, bounds of the rounding
    correct, scores = _probabilities()
    bounded.add_cases(correct, scores)
    ref = ScoredPrecisionRecallEvaluation()
    ref.add_cases(correct, scores)
    got = bounded.summary()
    for n in names:
        assert got[n + "_lower"] <= ref.summary()[n] <= got[n + "_upper"]
        assert got[n] == pytest.approx(ref.summary()[n], rel=1e-12, abs=1e-15)
    bounded.add_case(True, 1.5)  # a score outside [0, 1]: absent, as from the exact evaluator
    assert not set(names) & set(bounded.summary())
    assert not set(names) & set(BoundedEvaluation(64, calibration_bins=None).summary())


def test_the_text_report_and_assert_metrics_take_the_calibration_entries() -> None:
    ev = _ev(probs=True)
    text = str(ev).splitlines()
    assert text[-2:] == [f"  Expected Calibration Error (15 uniform bins, l1)={ev.expected_calibration_error()!r}",
                         f"  Brier Score={ev.brier_score()!r}"]  # fmt: skip
    assert "Brier" not in str(_ev())
    ece = ev.expected_calibration_error()
    testing.assert_metrics(ev, expected_calibration_error__le=ece, brier_score__lt=1.0, brier_score__ge=0.0)
    testing.assert_metrics(ev, confidence=0.9, n_resamples=20, expected_calibration_error__le=ece)  # on its value
    with pytest.raises(AssertionError, match=r"expected_calibration_error\s+<= 0.0"):
        testing.assert_metrics(ev, expected_calibration_error__le=0.0)
    assert testing.metric_value(ev.summary(), "brier_score") == ev.brier_score()
    with pytest.raises(ValueError, match="every score must be a probability in \\[0, 1\\]; got the score -2.2"):
        testing.assert_metrics(_ev(), expected_calibration_error__le=0.05)


@pytest.mark.parametrize("weighted", [False, True])
def test_bounded_summary_reports_the_tables_bounded_entries_as_bounds(weighted: bool) -> None:
    correct, scores = _cases()
    b = BoundedEvaluation(4096)  # few distinct scores: every bound is exact
    ev = ScoredPrecisionRecallEvaluation()
    if weighted:
        w = np.random.default_rng(3).random(correct.size) + 0.5
        b.add_cases(correct, scores, sample_weight=w)
        ev.add_cases(correct, scores, sample_weight=w)
    else:
        b.add_cases(correct, scores)
        ev.add_cases(correct, scores)
    got = b.summary()
    counts = [m.name for m in T.MEASURES if m.bounded and m.kind == "count"]
    # the calibration entries apply to probabilities only (these scores are not: test_calibration_entries_...)
    measures = [m for m in T.MEASURES if m.bounded and m.kind != "count" and m.applies_to(b)]
    assert list(got) == [*counts, "num_bins", "exact", *(f"{m.name}{s}" for m in measures for s in ("", "_lower", "_upper"))]
    for name in counts:
        assert got[name] == T.by_name(name).compute(ev)
    for m in measures:
        if weighted and m.rank_based:
            assert math.isnan(got[m.name])
            continue
        want = m.compute(ev)
        assert got[m.name + "_lower"] <= want <= got[m.name + "_upper"], m.name
        if not weighted:  # an exact summary: the bounds meet at the exact evaluator's value
            assert got[m.name] == pytest.approx(want, abs=1e-12), m.name


def test_uninterpolated_entries_take_no_argument_so_a_bounded_summary_answers_them() -> None:
    """The bounded summary's areas have no ``interpolate`` argument: the entries call the query's default."""
    correct, scores = _cases()
    b = BoundedEvaluation(4096)
    b.add_cases(correct, scores)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(correct, scores)
    for name in ("area_under_pr_curve", "area_under_roc_curve", "average_precision", "maximum_f_measure"):
        m = T.by_name(name)
        got = m.compute(b)
        # the bounded area under the PR curve is its average precision, which can differ from the
        # exact evaluator's uninterpolated area in the last bits (both are the same exact number)
        slack = 1e-12 if name == "area_under_pr_curve" else 0.0
        assert got.lower - slack <= m.compute(ev) <= got.upper + slack, name


# ------------------------------------------------------------------ testing, streaming


def test_metric_value_accepts_exactly_the_tables_names() -> None:
    ev = _ev(probs=True)
    plain = [m for m in T.MEASURES if m.kind in ("count", "measure")]
    for m in plain:
        assert testing.metric_value(ev, m.name) == m.compute(ev) or math.isnan(m.compute(ev))
    for k in (1, 3, 7):
        assert testing.metric_value(ev, f"precision_at_{k}") == ev.precision_at(k)
    for m in T.MEASURES:
        if m.kind == "query":
            with pytest.raises(ValueError, match="unknown metric"):
                testing.metric_value(ev, m.name)
    with pytest.raises(ValueError, match="unknown metric 'nope'") as err:
        testing.metric_value(ev, "nope")
    listed = str(err.value).split("expected one of ", 1)[1].split(", ")
    plain_names = [m.name for m in T.MEASURES if m.kind in ("count", "measure")]
    assert listed == plain_names + [m.name for m in T.MEASURES if m.kind == "per_rank"]


def test_assert_metrics_confidence_uses_each_measures_interval() -> None:
    """With confidence, every measure of the table has an interval (counts are checked on the value)."""
    ev = _ev()
    for m in T.MEASURES:
        if m.kind not in ("count", "measure"):
            continue
        spec = testing._interval_spec(m.name)
        assert (spec is None) == (m.kind == "count" or m.applies == "probabilities"), m.name
        if spec is not None:
            assert spec == (m.method, m.kwargs)
    assert testing._interval_spec("precision_at_7") == ("precision_at", {"k": 7})
    testing.assert_metrics(ev, confidence=0.9, n_resamples=20, precision_at_3=("<=", 1.0), num_cases=("==", 40))


def test_summary_line_fields_are_the_tables_short_names() -> None:
    want = []
    for m in T.MEASURES:
        if m.short is not None:
            want += [(m.key(k), m.short.format(k=k)) for k in T.LINE_RANKS] if m.kind == "per_rank" else [(m.name, m.short)]
    assert list(streaming.SUMMARY_LINE_FIELDS) == want
    line = streaming.format_summary(_ev().summary())
    assert [part.split("=")[0] for part in line.split()] == [short for _, short in want]


# ------------------------------------------------------------------ intervals


def test_confidence_interval_accepts_exactly_the_queries_of_the_table() -> None:
    queries = [m.method for m in T.MEASURES if m.intervals]
    assert set(_uncertainty.SCALAR_MEASURES) == set(queries)
    assert _uncertainty.SCALAR_MEASURES[0] == T.DEFAULT_INTERVAL_MEASURE
    ev = _ev()
    for name in ("num_cases", "precision_at_5", "area_under_roc_curve_interpolated", "add_misses"):
        with pytest.raises(ValueError, match="argument 'measure' must be one of"):
            ev.confidence_interval(name)


@pytest.mark.parametrize("method", T.INTERVAL_METHODS)
def test_interval_methods_are_the_tables(method: str) -> None:
    """Each query accepts exactly the interval methods its entry lists; its first is the default."""
    ev = _ev()
    for name in _uncertainty.SCALAR_MEASURES:
        entry = T.query(name)
        free = ARGS.get(name, {})
        if method in entry.intervals:
            iv = ev.confidence_interval(name, 0.9, method, 20, 0, **free)
            assert iv.method == ("bootstrap" if method == "bootstrap" else method)
        else:
            with pytest.raises(ValueError, match=f"argument 'method' must be 'bootstrap' or 'bca' for measure '{name}'"):
                ev.confidence_interval(name, 0.9, method, 20, 0, **free)
        if not free:
            assert ev.confidence_interval(name, 0.9, None, 20, 0).method == entry.intervals[0]


def test_compare_and_the_cli_take_the_measures_with_a_vectorised_interval() -> None:
    fast = [m.name for m in T.MEASURES if m.resampled is not None]
    assert set(_cli_output.COMPARABLE) == set(_uncertainty._COMPARABLE) == set(fast)
    assert _cli_output.COMPARABLE[0] == T.DEFAULT_INTERVAL_MEASURE
    correct, scores = _cases()
    for name in fast:
        assert compare(correct, scores, scores + 1.0, measure=name, n_resamples=20).difference == 0.0
    with pytest.raises(ValueError, match="argument 'measure' must be one of"):
        compare(correct, scores, scores, measure="maximum_f_measure")


# ------------------------------------------------------------------ the text report and the CLI


def _report_measure_lines(text: str) -> list[str]:
    counts = ("Tie Policy", "Positive Label", "Number of Cases", "Positive Reference Cases",
              "Negative Reference Cases", "Positive Weight", "Negative Weight")  # fmt: skip
    return [line.strip().split("=")[0] for line in text.splitlines() if not line.strip().startswith(counts)]


@pytest.mark.parametrize("probs", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_text_report_prints_the_tables_labels(weighted: bool, probs: bool) -> None:
    ev = _ev(weighted=weighted, probs=probs)
    want = []
    for name in T.REPORT_LINES:
        m = T.by_name(name)
        if (weighted and m.rank_based) or (m.applies == "probabilities" and not probs):
            continue
        assert m.label is not None
        want += [m.label.format(k=k) for k in T.REPORT_RANKS if k <= ev.num_cases] if m.kind == "per_rank" else [m.label]
    assert _report_measure_lines(str(ev)) == want
    for line in str(ev).splitlines():  # each value is the entry's
        for name in T.REPORT_LINES:
            m = T.by_name(name)
            if m.kind == "measure" and line.strip().startswith((m.label or "") + "="):
                assert line.strip() == f"{m.label}={m.compute(ev)!r}"


def test_every_summary_measure_has_a_report_line_or_equals_one() -> None:
    shown = set(T.REPORT_LINES)
    for m in T.MEASURES:
        if m.summary and m.kind != "count":
            assert (m.name in shown) != (m.equals is not None), m.name
            assert m.label, m.name


def test_report_table_and_json_rows_come_from_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    correct, scores = _cases()
    path = tmp_path / "cases.csv"
    path.write_text("correct,score\n" + "".join(f"{int(c)},{float(s)!r}\n" for c, s in zip(correct, scores)))
    assert main(["report", str(path), "--format", "json", "--no-progress"]) == 0
    obj = json.loads(capsys.readouterr().out)
    keys = _summary_keys()
    assert [k for k in obj if k in _summary_keys(probs=True)] == keys  # logits: no calibration entry
    probs = tmp_path / "probs.csv"
    probs.write_text("correct,score\n" + "".join(f"{int(c)},{float(s)!r}\n" for c, s in zip(*_probabilities())))
    assert main(["report", str(probs), "--format", "json", "--no-progress"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [k for k in obj if k in _summary_keys(probs=True)] == _summary_keys(probs=True)
    assert obj["brier_score"] == _ev(probs=True).brier_score()
    assert main(["report", str(path), "--format", "table", "--no-progress"]) == 0
    rows = [line.split("|")[1].strip() for line in capsys.readouterr().out.splitlines() if line.startswith("|")][2:]
    equal = {m.name: m.equals for m in T.MEASURES if m.equals}
    want = [f"{k} (= {', '.join(a for a, b in equal.items() if b == k)})" if k in equal.values() else k
            for k in keys if k not in equal]  # fmt: skip
    assert rows == want
    assert [r for r, _ in _report.table_rows(_ev().summary())] == want


# ------------------------------------------------------------------ layering and import cycles


def _runtime_imports(module: str) -> set[str]:
    """Modules of scored_pr that ``module`` imports at run time (function-level too, TYPE_CHECKING not).

    Read from the module's source with ``ast``, located through the import system (so the
    check follows the module if its file moves).
    """
    path = Path(importlib.import_module(module).__file__ or "")
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()

    def target(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.orelse:
                    visit(stmt)
                continue
            if isinstance(child, ast.ImportFrom):
                base = target(child)
                for alias in child.names:  # ``from . import x``: x may be a module
                    sub = f"{base}.{alias.name}"
                    found.add(sub if _is_module(sub) else base)
            elif isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m == "scored_pr" or m.startswith("scored_pr.")}


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a name inside a module, not a submodule
        return False


def test_the_table_sits_above_the_kernel_and_imports_nothing_of_scored_pr() -> None:
    assert _runtime_imports("scored_pr._measures") == set()
    cores = ("scored_pr._core.points", "scored_pr._core.curves", "scored_pr._core.scalars",
             "scored_pr._core.thresholds", "scored_pr._core.stats")  # fmt: skip
    for core in cores:
        assert _runtime_imports(core) <= {"scored_pr._core", *cores}, core
    for reader in ("scored_pr._evaluators.exact", "scored_pr._evaluators.bounded", "scored_pr._report",
                   "scored_pr.testing", "scored_pr.streaming", "scored_pr._uncertainty", "scored_pr._cli.output"):  # fmt: skip
        assert "scored_pr._measures" in _runtime_imports(reader), reader


def test_the_exact_evaluator_does_not_import_the_interval_module_for_a_point_measure() -> None:
    """Only ``confidence_interval`` (a method that delegates to the interval code) imports it.

    The evaluator's methods live in its shell and its query mixins: every module of the class is read.
    """
    users = []
    for klass in ScoredPrecisionRecallEvaluation.__mro__[:-1]:
        module = importlib.import_module(klass.__module__ if klass.__module__ != "scored_pr" else "scored_pr._evaluators.exact")
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        users += [
            f.name for node in tree.body if isinstance(node, ast.ClassDef) and node.name == klass.__name__
            for f in ast.walk(node) if isinstance(f, ast.FunctionDef)
            for imp in ast.walk(f) if isinstance(imp, ast.ImportFrom) and (imp.module or "").endswith("_uncertainty")
        ]  # fmt: skip
    assert users == ["confidence_interval"]


def test_partial_auc_does_not_load_the_interval_module() -> None:
    """The partial ROC area is a point measure: computing it imports no interval code."""
    code = (
        "import sys\n"
        "from scored_pr import ScoredPrecisionRecallEvaluation as E\n"
        "ev = E(); ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1]); ev.add_misses(1)\n"
        "print(ev.area_under_roc_curve(max_fpr=0.5, standardized=False), 'scored_pr._uncertainty' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    value, loaded = out.split()
    assert loaded == "False"
    # the same cases expanded: the miss ranks below every returned case (scikit-learn, raw partial area)
    raw = roc_auc_score([1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.1, -1.0], max_fpr=0.5)
    mcclish_inverse = 2 * (raw - 0.5) * (0.5 - 0.125) + 0.125  # undo McClish's standardisation
    assert float(value) == pytest.approx(mcclish_inverse, abs=1e-12)


# ------------------------------------------------------------------ a new entry reaches every kind


def _patch_table(monkeypatch: pytest.MonkeyPatch, table: tuple[T.Measure, ...]) -> None:
    """Replace the table in ``_measures`` and in every scored_pr module holding it by name."""
    old = T.MEASURES
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("scored_pr") and getattr(module, "MEASURES", None) is old:
            monkeypatch.setattr(module, "MEASURES", table)


#: A measure added to the table: the maximum F1 again, under a new name, meaned over queries and
#: averaged over labels (it is not a measure MultiLabelEvaluation computes itself, so it takes the
#: generic route: the labels' evaluators and the pooled ranking).
_EXTRA = T.Measure("maximum_f_again", "maximum_f_measure", label="Maximum F(1) Again", bounded=True,
                   over_queries="mean", over_labels=("macro", "weighted", "micro", "samples"))  # fmt: skip


def test_a_measure_added_to_the_table_reaches_every_kind_and_the_cli(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scored_pr import MultiLabelEvaluation, MultiQueryEvaluation, SynchronizedEvaluation
    from scored_pr._kinds import KINDS

    _patch_table(monkeypatch, (*T.MEASURES, _EXTRA))
    correct, scores = _cases()
    want = ScoredPrecisionRecallEvaluation()
    want.add_cases(correct, scores)
    value = want.maximum_f_measure()

    # the four single-ranking kinds
    exact, window, sync, bounded = (ScoredPrecisionRecallEvaluation(), WindowedEvaluation(size=1000),
                                    SynchronizedEvaluation(), BoundedEvaluation(4096))  # fmt: skip
    for ev in (exact, window, sync, bounded):
        ev.add_cases(correct, scores)
    for ev in (exact, window, sync):
        assert ev.summary()["maximum_f_again"] == value
    got = bounded.summary()
    assert got["maximum_f_again_lower"] <= value <= got["maximum_f_again_upper"]
    assert got["maximum_f_again"] == pytest.approx(value)

    # multi-query: the mean over queries, a query without a positive counting 0
    multi = MultiQueryEvaluation()
    multi.add_cases("q1", correct, scores)
    multi.add_cases("q2", correct[::-1], scores)
    multi.add_cases("q3", [False, False], [0.3, 0.2])
    expected = (multi["q1"].maximum_f_measure() + multi["q2"].maximum_f_measure() + 0.0) / 3
    assert multi.summary()["mean_maximum_f_again"] == pytest.approx(expected, abs=1e-15)

    # multi-label: exact, windowed and bounded; macro, weighted, micro (samples needs a vectorised query)
    rng = np.random.default_rng(5)
    y = rng.random((30, 3)) < 0.4
    s = np.round(rng.random((30, 3)), 2)
    for kwargs in ({}, {"window": 100}, {"max_bins": 4096}):
        ml = MultiLabelEvaluation(["a", "b", "c"], **kwargs)
        ml.add_cases(y, s)
        per_label = [float(ml[label].maximum_f_measure()) for label in "abc"]
        pos = y.sum(axis=0)
        summary = ml.summary()["maximum_f_again"]
        assert list(summary) == ["macro", "weighted", "micro"]
        assert summary["macro"] == pytest.approx(np.mean(per_label))
        assert summary["weighted"] == pytest.approx(np.average(per_label, weights=pos))
        assert summary["micro"] == pytest.approx(float(ml.pooled().maximum_f_measure()))

    # sliced: every slice's evaluator reports it, nested under the slice's name
    from scored_pr import SlicedEvaluation

    sliced = SlicedEvaluation("g")
    sliced.add_cases(correct, scores, g=[0] * len(correct))
    assert sliced.summary()["overall"]["maximum_f_again"] == value == sliced.summary()["g=0"]["maximum_f_again"]

    # every kind is covered
    assert {k.name for k in KINDS.values()} == {"exact", "windowed", "bounded", "synchronized", "multi", "multilabel",
                                                "sliced"}

    # the command line: a file of cases (JSON), and multi-query and multi-label state files
    path = tmp_path / "cases.csv"
    path.write_text("correct,score\n" + "".join(f"{int(c)},{float(v)!r}\n" for c, v in zip(correct, scores)))
    assert main(["report", str(path), "--format", "json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["maximum_f_again"] == value
    multi.save(tmp_path / "multi.npz")
    assert main(["report", str(tmp_path / "multi.npz"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean_maximum_f_again"] == pytest.approx(expected, abs=1e-15)
    ml = MultiLabelEvaluation(["a", "b", "c"])
    ml.add_cases(y, s)
    ml.save(tmp_path / "ml.npz")
    assert main(["report", str(tmp_path / "ml.npz"), "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["b: maximum_f_again"] == ml["b"].maximum_f_measure()
    assert obj["maximum_f_again (macro)"] == ml.summary()["maximum_f_again"]["macro"]
    assert main(["report", str(tmp_path / "ml.npz")]) == 0
    assert "maximum_f_again (micro)" in capsys.readouterr().out
    # the wide-file report: a column and the averages
    wide = tmp_path / "wide.csv"
    wide.write_text("a,b,c,sa,sb,sc\n" + "".join(
        ",".join([*(str(int(v)) for v in t), *(repr(float(v)) for v in r)]) + "\n" for t, r in zip(y, s)))
    assert main(["report", str(wide), "--label-cols", "a,b,c", "--score-cols", "sa,sb,sc", "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [e["maximum_f_again"] for e in obj["labels"]] == [ml[label].maximum_f_measure() for label in "abc"]
    assert obj["averages"]["maximum_f_again"] == ml.summary()["maximum_f_again"]


def test_the_means_and_averages_are_the_tables() -> None:
    """MultiQueryEvaluation.summary() and MultiLabelEvaluation.summary() list exactly the entries that declare them."""
    from scored_pr import MultiLabelEvaluation, MultiQueryEvaluation

    multi = MultiQueryEvaluation()
    multi.add_cases("q1", *_cases())
    sums = [m.name for m in T.MEASURES if m.over_queries == "sum"]
    means = [key for m in T.MEASURES if m.over_queries in ("mean", "cutoff_mean") for key in m.query_keys()]
    assert list(multi.summary()) == ["num_queries", *sums, *means]
    assert means[:3] == ["mean_average_precision", "mean_reciprocal_rank", "mean_r_precision"]
    for m in T.MEASURES:
        assert m.over_queries != "cutoff_mean" or m.method == "precision_at", m.name  # trec_eval's P_k only
        assert not m.over_labels or (m.kind == "measure" and set(m.over_labels) <= {"macro", "micro", "weighted", "samples"})
    ml = MultiLabelEvaluation(2)
    ml.add_cases([[1, 0], [0, 1], [1, 1]], [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6]])
    averaged = [m.name for m in T.MEASURES if m.over_labels]
    assert [k for k in ml.summary() if k not in ("num_rows", "labels")][: len(averaged)] == averaged

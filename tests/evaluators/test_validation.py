"""Bad input: the right exception, a message naming argument and value, nothing changed."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation


def fresh() -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.1])
    ev.add_misses(1)
    ev.average_precision()  # a cached state, to check the cache is not corrupted either
    return ev


def state(ev: ScoredPrecisionRecallEvaluation) -> tuple:
    return (repr(ev), ev.pr_score_curve().tolist(), ev.roc_curve().tolist(), str(ev))


BAD_CALLS = [
    # (method, args, exception, words the message must contain)
    ("add_case", ("False", 0.5), TypeError, ["'correct'", "'False'", "str"]),
    ("add_case", (0.7, 0.5), ValueError, ["'correct'", "0.7", "pos_label"]),
    ("add_case", ("spam", 0.5), TypeError, ["'correct'", "'spam'", "pos_label"]),
    ("add_case", (None, 0.5), TypeError, ["'correct'", "None"]),
    ("add_case", (2, 0.5), ValueError, ["'correct'", "2"]),
    ("add_case", (np.int64(2), 0.5), ValueError, ["'correct'", "2"]),
    ("add_case", (True, math.nan), ValueError, ["'score'", "nan"]),
    ("add_case", (True, np.float32("nan")), ValueError, ["'score'", "nan"]),
    ("add_case", (True, "0.5"), TypeError, ["'score'", "'0.5'"]),
    ("add_case", (True, None), TypeError, ["'score'", "None"]),
    ("add_case", (True, True), TypeError, ["'score'", "True", "bool"]),
    ("add_case", (True, 1 + 2j), TypeError, ["'score'", "(1+2j)"]),
    ("add_case", (True, 10**400), ValueError, ["'score'", "float64"]),
    ("add_cases", ([True, "x"], [0.1, 0.2]), TypeError, ["'correct'", "'x'", "index 1"]),
    ("add_cases", ([True, False], [0.1, math.nan]), ValueError, ["'scores'", "nan", "index 1"]),
    ("add_cases", (np.array([1, 0, 3]), [0.1, 0.2, 0.3]), ValueError, ["'correct'", "3", "index 2"]),
    ("add_cases", (np.array([0.5, 1.0]), [0.1, 0.2]), ValueError, ["'correct'", "0.5", "index 0"]),
    ("add_cases", (np.array([0, -1, 1]), [0.1, 0.2, 0.3]), ValueError, ["'correct'", "one label encoding", "index 1"]),
    ("add_cases", (np.array(["spam", "ham"]), [0.1, 0.2]), TypeError, ["'correct'", "'spam'", "pos_label"]),
    ("add_cases", ([True, False], ["a", "b"]), TypeError, ["'scores'", "'a'", "index 0"]),
    ("add_cases", ([True, False], [True, False]), TypeError, ["'scores'", "True", "index 0"]),
    ("add_cases", ([True, False], [0.1, None]), TypeError, ["'scores'", "None", "index 1"]),
    ("add_cases", ([True, False], [0.1]), ValueError, ["'correct'", "'scores'", "2", "1"]),
    ("add_cases", ([[True, False]], [[0.1, 0.2]]), ValueError, ["'correct'", "1-dimensional", "(1, 2)"]),
    ("add_cases", (True, 0.5), TypeError, ["'correct'", "1-dimensional"]),
    ("add_cases", ([True, 2.5], [0.1, 0.2]), ValueError, ["'correct'", "2.5", "index 1"]),
    ("add_cases", ([True, False], [0.5, True]), TypeError, ["'scores'", "True", "index 1"]),
    ("add_cases", ("10", [0.1, 0.2]), TypeError, ["'correct'", "'10'"]),
    ("add_cases", (5, [0.1]), TypeError, ["'correct'", "5"]),
    ("add_misses", (-1,), ValueError, ["'count'", "-1"]),
    ("add_misses", (1.0,), TypeError, ["'count'", "1.0"]),
    ("add_misses", (True,), TypeError, ["'count'", "True"]),
    ("add_negative_misses", (-3,), ValueError, ["'count'", "-3"]),
    ("add_negative_misses", ("2",), TypeError, ["'count'", "'2'"]),
    ("precision_at", (0,), ValueError, ["'k'", "0"]),
    ("precision_at", (-2,), ValueError, ["'k'", "-2"]),
    ("precision_at", (2.0,), TypeError, ["'k'", "2.0"]),
    ("precision_at", (True,), TypeError, ["'k'", "True"]),
    ("maximum_f_measure", (0.0,), ValueError, ["'beta'", "0.0"]),
    ("maximum_f_measure", (-1,), ValueError, ["'beta'", "-1"]),
    ("maximum_f_measure", (math.nan,), ValueError, ["'beta'", "nan"]),
    ("maximum_f_measure", (math.inf,), ValueError, ["'beta'", "inf"]),
    ("maximum_f_measure", ("1",), TypeError, ["'beta'", "'1'"]),
    ("pr_curve", ("yes",), TypeError, ["'interpolate'", "'yes'"]),
    ("roc_curve", (1,), TypeError, ["'interpolate'", "1"]),
    ("area_under_pr_curve", (None,), TypeError, ["'interpolate'", "None"]),
    ("average_precision", ("random",), ValueError, ["'ties'", "'random'", "'expected'"]),
    ("recall_at", (0,), ValueError, ["'k'", "0"]),
    ("average_precision_at", (1.5,), TypeError, ["'k'", "1.5"]),
    ("k_at_recall", (0.0,), ValueError, ["'recall'", "(0, 1]", "0.0"]),
    ("k_at_recall", (1.5,), ValueError, ["'recall'", "1.5"]),
    ("precision_at_recall", (math.nan,), ValueError, ["'recall'", "nan"]),
    ("precision_at_recall", ("0.5",), TypeError, ["'recall'", "'0.5'"]),
    ("f_measure_at", (3, 0.0), ValueError, ["'beta'", "0.0"]),
    ("e_measure_at", (-3,), ValueError, ["'k'", "-3"]),
    ("eleven_point_interpolated_precision", ("trec",), ValueError, ["'rounding'", "'trec'", "'trec_eval9'"]),
    ("threshold_at_precision", (1.5,), ValueError, ["'precision'", "[0, 1]", "1.5"]),
    ("threshold_at_recall", (-0.1,), ValueError, ["'recall'", "-0.1"]),
    ("maximum_f_measure_threshold", (math.nan,), ValueError, ["'beta'", "nan"]),
    ("merge", (3,), TypeError, ["'other'", "int"]),
    ("merge", (ScoredPrecisionRecallEvaluation(ties="stable"),), ValueError, ["'other'", "'stable'"]),
]


@pytest.mark.parametrize("method,args,exc,words", BAD_CALLS, ids=[f"{m}{a!r:.30}" for m, a, _, _ in BAD_CALLS])
def test_bad_input_is_rejected_clearly_and_changes_nothing(method: str, args: tuple, exc: type, words: list) -> None:
    ev = fresh()
    before = state(ev)
    with pytest.raises(exc) as info:
        getattr(ev, method)(*args)
    message = str(info.value)
    assert method in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert state(ev) == before


def test_unknown_tie_policy() -> None:
    with pytest.raises(ValueError, match="'ties'.*'stable', 'grouped'.*'random'"):
        ScoredPrecisionRecallEvaluation(ties="random")


def test_rejected_batch_after_single_adds_loses_nothing() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_case(True, 0.3)  # pending in the sorted container, not yet merged
    with pytest.raises(ValueError):
        ev.add_cases([True, False], [0.2, math.nan])
    ev.add_case(False, 0.4)
    assert ev.num_cases == 2
    assert ev.pr_score_curve().tolist() == [[1.0, 0.5, 0.3]]


VALID_EDGES = [
    (True, math.inf),
    (False, -math.inf),
    (np.bool_(True), np.float32(0.25)),
    (1, np.int64(3)),
    (0, np.uint8(7)),
    (np.int32(1), 5),
    (True, np.float16(0.5)),
]


@pytest.mark.parametrize("correct,score", VALID_EDGES)
def test_valid_edge_values(correct: object, score: object) -> None:
    ev = ScoredPrecisionRecallEvaluation(ties="stable")
    ev.add_case(correct, score)  # type: ignore[arg-type]
    ev.add_cases([correct], [score])
    assert ev.num_cases == 2
    assert ev.num_positive_ref == 2 * bool(correct)
    if correct:
        assert ev.pr_score_curve()[:, 2].tolist() == [float(score)] * 2  # type: ignore[arg-type]


def test_negative_zero_ties_with_zero() -> None:
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases([True, False], [0.0, -0.0])
    assert ev.precision_at(1) == 0.5
    assert len(ev.pr_curve()) == 1


def test_huge_miss_counts_do_not_overflow() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [1.0, 0.0])
    ev.add_misses(2**40)
    ev.add_negative_misses(2**40)
    assert ev.num_positive_ref == 2**40 + 1
    assert ev.average_precision() == 1.0 / (2**40 + 1)
    assert ev.pr_curve()[0, 0] == 1.0 / (2**40 + 1)


def test_curves_are_read_only_so_the_cache_cannot_be_corrupted() -> None:
    ev = fresh()
    curve = ev.pr_curve()
    with pytest.raises(ValueError):
        curve[0, 0] = 5.0
    assert ev.pr_curve().tolist() == curve.tolist()


def test_degenerate_states_never_raise_and_warn_nothing() -> None:
    import warnings

    for setup in ([], [(True, 1.0)], [(False, 1.0)]):
        ev = ScoredPrecisionRecallEvaluation()
        for c, s in setup:
            ev.add_case(c, s)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            summary = ev.summary()
            str(ev)
            ev.roc_curve(True)
        assert set(summary) >= {"average_precision", "area_under_roc_curve"}


def test_empty_evaluation_values() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    s = ev.summary()
    assert math.isnan(s["average_precision"]) and math.isnan(s["r_precision"])
    assert s["area_under_pr_curve"] == 0.0 and math.isnan(s["area_under_roc_curve"])
    assert s["maximum_f_measure"] == 0.0 and math.isnan(s["pr_breakeven_point"]) and s["reciprocal_rank"] == 0.0
    assert math.isnan(s["precision_at_5"])
    assert ev.pr_curve().shape == (0, 2) and ev.pr_score_curve().shape == (0, 3)


def test_one_class_values() -> None:
    only_pos = ScoredPrecisionRecallEvaluation()
    only_pos.add_cases([True, True], [2.0, 1.0])
    assert only_pos.average_precision() == 1.0
    for interpolate in (False, True):  # one class: NaN whichever class is missing
        assert math.isnan(only_pos.area_under_roc_curve(interpolate))
    only_neg = ScoredPrecisionRecallEvaluation()
    only_neg.add_cases([False, False], [2.0, 1.0])
    assert math.isnan(only_neg.average_precision())
    assert math.isnan(only_neg.area_under_roc_curve(False)) and math.isnan(only_neg.area_under_roc_curve(True))
    assert only_neg.area_under_pr_curve() == 0.0 and only_neg.reciprocal_rank() == 0.0
    assert only_neg.precision_at(2) == 0.0


def test_generator_input_is_accepted() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases((i % 2 == 0 for i in range(4)), (float(i) for i in range(4)))
    assert ev.num_cases == 4 and ev.num_positive_ref == 2


def test_numpy_batches_of_every_accepted_dtype() -> None:
    ref = ScoredPrecisionRecallEvaluation()
    ref.add_cases([True, False, True, False], [math.inf, -0.0, 0.0, -math.inf])
    for correct in (np.array([1, 0, 1, 0], dtype=np.uint8), np.array([True, False, True, False]), [1, 0, 1, 0]):
        for scores in (
            np.array([np.inf, -0.0, 0.0, -np.inf], dtype=np.float32),
            np.array([np.inf, -0.0, 0.0, -np.inf], dtype=np.float16),
            [np.float64("inf"), -0.0, np.int8(0), -math.inf],
        ):
            ev = ScoredPrecisionRecallEvaluation()
            ev.add_cases(correct, scores)
            assert ev == ref


def test_a_rejected_batch_leaves_pending_and_merged_cases_intact() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.5, 0.4])
    ev.summary()  # merged
    ev.add_case(True, 0.45)  # pending
    before = ev.to_dict()
    for bad in (([True], [math.nan]), ([True, "no"], [1, 2]), ([True], [[1.0, 2.0]]), ([2], [1.0])):
        with pytest.raises((TypeError, ValueError)):
            ev.add_cases(*bad)
    assert ev.to_dict() == before


def test_scores_float64_cannot_hold_exactly_are_rejected_as_the_docs_say() -> None:
    import re
    from pathlib import Path

    import scored_pr

    # docs/reliability.md, "Bad input"
    docs = " ".join((Path(__file__).resolve().parents[2] / "docs" / "reliability.md").read_text().split())
    assert re.search(r"A score that float64 cannot hold exactly is a `ValueError`, not rounded", docs)
    assert "`2**53 + 1`; `2**60` is fine" in docs
    inexact = [2**53 + 1, -(2**60) - 1, np.uint64(2**64 - 1)]
    if np.finfo(np.longdouble).nmant > 52:  # x87 extended precision: 1 + 2**-60 is a long double value
        inexact.append(np.longdouble(1) + np.longdouble(2) ** -60)
    for value in inexact:
        ev = fresh()
        before = state(ev)
        with pytest.raises(ValueError, match=r"add_case: argument 'score' must be exactly representable as a float64"):
            ev.add_case(True, value)
        with pytest.raises(ValueError, match=r"add_cases: argument 'scores' must be exactly representable as a float64 .* at index 1"):
            ev.add_cases([True, False], [0.5, value])
        with pytest.raises(ValueError, match=r"average_precision: argument 'y_score' must be exactly representable"):
            scored_pr.average_precision([1, 0], [0.5, value])
        assert state(ev) == before
    for value in (2**53, 2**60, -(2**60), np.int64(2**62), np.longdouble(0.5)):  # float64 values: accepted as is
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_case(True, value)
        ev.add_cases([False], np.array([value]))
        assert ev.pr_score_curve()[0, 2] == float(value)


def test_a_string_score_is_refused_as_a_string_asking_for_numbers() -> None:
    import scored_pr

    for call, name in ((lambda ev: ev.add_case(True, "0.9"), "add_case: argument 'score'"),
                       (lambda ev: ev.add_cases([True, False], [0.5, "0.9"]), "add_cases: argument 'scores'"),
                       (lambda ev: ev.add_cases([True, False], np.array(["0.5", "0.9"])), "add_cases: argument 'scores'")):
        ev = fresh()
        before = state(ev)
        with pytest.raises(TypeError) as info:
            call(ev)
        message = str(info.value)
        assert message.startswith(f"{name} must be numeric, not a string; got the string ")
        assert "'0.9' at index 1" in message or "'0.5' at index 0" in message or message.endswith(
            "got the string '0.9'; convert scores to numbers first (e.g. numpy.asarray(scores, dtype=float)).")
        assert state(ev) == before
    with pytest.raises(TypeError, match=r"average_precision: argument 'y_score' must be numeric, not a string; "
                                        r"got the string '0.9' at index 0; convert scores to numbers first"):
        scored_pr.average_precision([1, 0], ["0.9", "0.1"])


def test_decimal_scores_are_the_nearest_float64_unless_two_distinct_ones_would_tie() -> None:
    from decimal import Decimal

    import scored_pr

    y = [True, False, True, False, False, True]
    text = ["0.9", "0.35", "0.35", "1E-400", "-2.5", "0.1000000000000000000000001"]  # 1E-400 rounds to 0.0
    ev, ref = ScoredPrecisionRecallEvaluation(), ScoredPrecisionRecallEvaluation()
    ev.add_cases(y[:5], [Decimal(t) for t in text[:5]])
    ev.add_case(y[5], Decimal(text[5]))
    ref.add_cases(y, [float(t) for t in text])
    assert state(ev) == state(ref)
    assert ev.pr_score_curve()[:, 2].tolist() == ref.pr_score_curve()[:, 2].tolist()
    assert scored_pr.average_precision(y, [Decimal(t) for t in text]) == scored_pr.average_precision(y, [float(t) for t in text])
    assert scored_pr.average_precision([[1, 0], [0, 1]], [[Decimal("0.9"), Decimal("0.1")], [Decimal("0.2"), Decimal("0.8")]]) == 1.0
    for scores, exc, words in [
        ([Decimal("0.1"), Decimal("0.1000000000000000000001")], ValueError,
         "must hold scores that stay distinct as float64; got Decimal('0.1') (Decimal) at index 0 and "
         "Decimal('0.1000000000000000000001') (Decimal) at index 1, which both round to 0.1 instead"),
        ([0.5, 2**53, Decimal(2**53 + 1)], ValueError, "at index 1 and Decimal('9007199254740993') (Decimal) at index 2"),
        ([0.5, Decimal("NaN")], ValueError, "must be a real number (int, float, decimal.Decimal or a numpy"),
        ([0.5, Decimal("1e400")], ValueError, "must be representable as a float64"),
    ]:
        ev = fresh()
        before = state(ev)
        with pytest.raises(exc) as info:
            ev.add_cases([True, False, True][: len(scores)], scores)
        assert words in str(info.value) and "add_cases: argument 'scores'" in str(info.value)
        assert state(ev) == before
    # equal Decimals (any spelling) and a float of the same exact value are one score, not a refusal
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [Decimal("0.5"), Decimal("0.50"), 0.5])
    assert ev.pr_score_curve()[:, 2].tolist() == [0.5]

"""scored_pr.lingpipe with version="4.1": LingPipe 4.1.0 reproduced bit for bit.

Three kinds of tests: the 300 LingPipe 4.1.0 conformance vectors compared
with exact equality (the bits of every float, NaN equal to NaN, the toString
text character for character); LingPipe 4.1's documented worked example and
each 4.1 behaviour listed in tests/data/README-4.1.md; and Hypothesis
properties against a slow, literal reference written below from those
definitions, checked after every mutation.
"""

from __future__ import annotations

import copy
import io
import math
import pickle
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lingpipe_vectors import LINGPIPE_EXAMPLE as EXAMPLE
from lingpipe_vectors import lingpipe_observe, lingpipe_replay, load_vectors, mismatches
from scored_pr.lingpipe import RaggedCurve, ScoredPrecisionRecallEvaluation, double_to_string

VECTORS = load_vectors("4.1.0")
IDS = [f"v{i:03d}-n{v['expected']['numCases']}" for i, v in enumerate(VECTORS)]
NAN = float("nan")
RANKS = (0, 1, 2, 3, 5, 10, 20, 100)


def replay(ops: list) -> ScoredPrecisionRecallEvaluation:
    return lingpipe_replay(ops, "4.1")


def rows(curve: Any) -> list:
    """A curve as nested lists (ragged curves are lists of arrays)."""
    return [np.asarray(row).tolist() for row in curve]


def observe(ev: ScoredPrecisionRecallEvaluation, ranks: Any = RANKS) -> dict[str, Any]:
    return lingpipe_observe(ev, ranks)


# ------------------------------------------------------------------ conformance


def test_the_vectors_exercise_every_4_1_behaviour() -> None:
    """The data pins down each point of README-4.1.md."""
    assert len(VECTORS) == 300

    def count(pred: Any) -> int:
        return sum(1 for v in VECTORS if pred(v["ops"], v["expected"]))

    def added(ops: list) -> int:
        return sum(op[0] == "case" for op in ops)

    assert count(lambda ops, e: any(op[0] == "negative_misses" and op[1] > 0 for op in ops)) > 20
    assert count(lambda ops, e: e["numCases"] != added(ops)) > 20  # misses count in numCases()
    assert count(lambda ops, e: len(e["prCurve_false"]) < added(ops) + 2) > 20  # skipped leading (0, 0)
    assert count(lambda ops, e: 0 < e["numPositiveRef"] >= len(e["prCurve_false"])) > 20  # rPrecision's else branch
    assert count(lambda ops, e: e["numPositiveRef"] == 0 and added(ops) > 0) > 20  # NaN recall
    assert count(lambda ops, e: math.isnan(e["maximumFMeasure"])) > 20  # Math.max propagates NaN
    assert count(lambda ops, e: added(ops) < 5 <= e["numCases"]) > 10  # toString counts cases added
    assert count(lambda ops, e: any(op[0] == "case" and op[2] == "-0.0" for op in ops)) > 10
    assert all(len(v["expected"]["prScoreCurve_true"][0]) == 2 for v in VECTORS)  # always ragged
    sizes = [added(v["ops"]) for v in VECTORS]
    assert min(sizes) == 0 and max(sizes) == 300


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_matches_lingpipe_4_1_bit_for_bit(vector: dict) -> None:
    expected = vector["expected"]
    ev = replay(vector["ops"])
    assert mismatches(observe(ev, expected["precisionAt"]), expected) == []
    assert str(ev) == expected["toString"]


@pytest.mark.parametrize("vector", VECTORS[::15], ids=IDS[::15])
def test_queries_between_mutations_do_not_go_stale(vector: dict) -> None:
    """Cached 4.1 results are cleared by every mutation, including ones made
    through the shared main-API evaluator."""
    ops = vector["ops"]
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    for i in range(0, len(ops), 5):
        ev.toString()
        ev.prScoreCurve(True)
        for op in ops[i : i + 5]:
            if op[0] == "case":
                ev.evaluation.add_case(op[1], float(op[2]))
            elif op[0] == "misses":
                ev.addMisses(op[1])
            else:
                ev.evaluation.add_negative_misses(op[1])
    assert mismatches(observe(ev, vector["expected"]["precisionAt"]), vector["expected"]) == []


def test_the_main_api_average_precision_is_4_1s() -> None:
    for vector in VECTORS:
        ev = replay(vector["ops"])
        assert mismatches([ev.evaluation.average_precision()], [vector["expected"]["averagePrecision"]]) == []


# ----------------------------------------------------------- documented example

# LingPipe 4.1's class documentation uses the same table (lingpipe_vectors.LINGPIPE_EXAMPLE) plus one miss.


@pytest.fixture
def example() -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    for score, correct in reversed(EXAMPLE):  # insertion order must not matter
        ev.addCase(correct, score)
    ev.addMisses(1)
    return ev


def test_worked_example(example: ScoredPrecisionRecallEvaluation) -> None:
    ev = example
    assert (ev.numCases(), ev.numPositiveRef(), ev.numNegativeRef()) == (11, 5, 6)
    # The documentation lists {0.60, 0.38} twice; LingPipe returns it once.
    assert np.round(ev.prCurve(False), 2).tolist() == [
        [0.0, 1.0], [0.2, 0.5], [0.2, 0.33], [0.4, 0.5], [0.6, 0.6], [0.6, 0.5],
        [0.6, 0.43], [0.6, 0.38], [0.8, 0.44], [0.8, 0.4], [1.0, 0.0],
    ]  # fmt: skip
    assert np.round(ev.prCurve(True), 2).tolist() == [[0.0, 1.0], [0.2, 0.6], [0.4, 0.6], [0.6, 0.6], [0.8, 0.44], [1.0, 0.0]]
    assert np.round(ev.rocCurve(False), 2).tolist() == [
        [0.0, 0.0], [0.17, 0.0], [0.17, 0.2], [0.33, 0.2], [0.33, 0.4], [0.33, 0.6],
        [0.5, 0.6], [0.67, 0.6], [0.83, 0.6], [0.83, 0.8], [1.0, 0.8], [1.0, 1.0],
    ]  # fmt: skip
    assert np.round(ev.rocCurve(True), 2).tolist() == [
        [0.0, 0.0], [0.17, 0.2], [0.33, 0.6], [0.5, 0.6], [0.67, 0.6], [0.83, 0.8], [1.0, 1.0]
    ]
    assert [ev.precisionAt(k) for k in (0, 1, 5, 10, 20, 100)] == [1.0, 0.0, 0.6, 0.4, 0.2, 0.04]
    assert ev.reciprocalRank() == 0.5
    assert ev.rPrecision() == ev.prBreakevenPoint() == 0.6
    assert round(ev.maximumFMeasure(), 2) == 0.6
    assert np.round(ev.elevenPtInterpPrecision(), 3).tolist() == [
        1.0, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.444, 0.444, 0.0, 0.0
    ]  # fmt: skip


# ------------------------------------------------------------ the 4.1 behaviours


def test_num_cases_counts_every_miss_but_to_string_counts_cases_added() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    ev.addCase(True, 1.0)
    ev.addMisses(3)
    ev.addNegativeMisses(4)
    assert (ev.numCases(), ev.numPositiveRef(), ev.numNegativeRef()) == (8, 4, 4)
    assert ev.evaluation.num_cases == 1
    lines = ev.toString().split("\n")[8:]
    assert lines == [f"  Precision at {k}={double_to_string(1 / k)}" for k in (5, 10, 25, 100, 500)]


def test_average_precision_counts_misses() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    ev.addCase(True, 3.0)
    ev.addCase(False, 2.0)
    ev.addCase(True, 1.0)
    ev.addMisses(2)
    assert ev.averagePrecision() == (1.0 + 2.0 / 3.0) / 4
    assert ScoredPrecisionRecallEvaluation(version="4.1").averagePrecision() != 0.0  # NaN: 0/0


def test_precision_at_zero_is_one_and_absent_ranks_count_as_errors() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    assert ev.precisionAt(0) == 1.0
    assert ev.precisionAt(3) == 0.0
    ev.addCase(True, 1.0)
    ev.addCase(False, 0.0)
    assert [ev.precisionAt(k) for k in (0, 1, 2, 3, 4)] == [1.0, 1.0, 0.5, 1 / 3, 0.25]
    with pytest.raises(ValueError, match="precisionAt: argument 'rank'"):
        ev.precisionAt(-1)


def test_r_precision_reads_the_curve_by_index() -> None:
    """R = 2: row 1 of prCurve(false), which is rank 1 here, not rank 2 ..."""
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    for correct, score in [(True, 4.0), (False, 3.0), (True, 2.0), (False, 1.0)]:
        ev.addCase(correct, score)
    assert ev.prCurve(False)[1].tolist() == [0.5, 1.0]
    assert ev.rPrecision() == 1.0
    # ... and a skipped leading (0, 0) row shifts it: row 1 is rank 2.
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    for correct, score in [(False, 4.0), (True, 3.0), (True, 2.0), (False, 1.0)]:
        ev.addCase(correct, score)
    assert ev.rPrecision() == 0.5
    # R >= rows: 0.0; R = 0: 1.0
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    ev.addCase(True, 1.0)
    ev.addMisses(5)
    assert ev.rPrecision() == 0.0
    assert ScoredPrecisionRecallEvaluation(version="4.1").rPrecision() == 1.0


def test_interpolated_pr_score_curve_is_ragged() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    assert ev.prScoreCurve(True).tolist() == [[0.0, 1.0]]
    ev.addCase(False, 2.0)
    ev.addCase(True, 1.0)
    curve = ev.prScoreCurve(True)
    assert isinstance(curve, RaggedCurve) and isinstance(curve, Sequence)
    assert len(curve) == 2 and [len(row) for row in curve] == [2, 3]
    assert curve.tolist() == [[0.0, 1.0], [1.0, 0.5, 1.0]]  # the (0, 0, 2.0) row has recall 0: dropped
    with pytest.raises(IndexError):
        curve[0][2]  # Java: ArrayIndexOutOfBoundsException
    assert curve.rows.tolist() == [[1.0, 0.5, 1.0]]
    assert ev.prScoreCurve(False).tolist() == [[0.0, 0.0, 2.0], [1.0, 0.5, 1.0]]


def test_ragged_curve_indexes_like_a_java_array_and_a_list() -> None:
    curve = RaggedCurve(np.array([[0.25, 1.0, 9.0], [0.5, 0.75, 8.0], [1.0, 0.5, 7.0]]))
    as_list = curve.tolist()
    assert len(curve) == len(as_list) == 4
    for i in range(-4, 4):
        assert curve[i].tolist() == as_list[i]
    for index in (4, -5):
        with pytest.raises(IndexError, match="out of range for a curve of 4 rows"):
            curve[index]
    for sl in (slice(None), slice(1, None), slice(None, None, -1), slice(1, 3), slice(5, 9)):
        assert [row.tolist() for row in curve[sl]] == as_list[sl]
    assert np.array(curve[1:]).tolist() == curve.rows.tolist()
    assert [row.tolist() for row in reversed(curve)] == as_list[::-1]
    assert repr(curve).startswith("RaggedCurve([[0.0, 1.0], [0.25, 1.0, 9.0]")
    # Rows are views, as Java's inner arrays are references: writes persist in this curve only.
    copy_ = curve.copy()
    curve[2][1] = -1.0
    curve[0][0] = -2.0
    assert curve.tolist()[0][0] == -2.0 and curve.rows[1, 1] == -1.0
    assert copy_.tolist() == as_list


def test_roc_x_is_one_minus_true_negative_rate() -> None:
    """1 - TN/N, in that order: for N = 49 and FP = 3, 1 - 46/49 != 3/49."""
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    for _ in range(3):
        ev.addCase(False, 1.0)
    ev.addNegativeMisses(46)
    x = ev.rocCurve(False)[3, 0]
    assert x == 1.0 - 46 / 49 and x != 3 / 49


def test_curves_are_fresh_writable_arrays() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    ev.addCase(True, 1.0)
    for curve in (ev.prCurve(False), ev.prCurve(True), ev.prScoreCurve(False), ev.rocCurve(True), ev.elevenPtInterpPrecision()):
        assert curve.flags.writeable
        curve[...] = -1.0
    for row in ev.prScoreCurve(True):
        row[:] = -1.0
    assert ev.prCurve(False).tolist() == [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]
    assert rows(ev.prScoreCurve(True)) == [[0.0, 1.0], [1.0, 1.0, 1.0]]
    assert ev.elevenPtInterpPrecision().tolist() == [1.0] * 11


# ------------------------------------------------------------- version handling


@pytest.mark.parametrize(("version", "canonical"), [("3.9.2", "3.9.2"), ("4.1", "4.1"), ("4.1.0", "4.1")])
def test_versions(version: str, canonical: str) -> None:
    assert ScoredPrecisionRecallEvaluation(version=version).version == canonical
    assert ScoredPrecisionRecallEvaluation().version == "3.9.2"


@pytest.mark.parametrize("version", ["4", "4.0", "3.9", 4.1, None, "4.1 "])
def test_unknown_versions_are_rejected(version: Any) -> None:
    with pytest.raises(ValueError, match=r"ScoredPrecisionRecallEvaluation: argument 'version' must be one of '3.9.2', '4.1', '4.1.0'"):
        ScoredPrecisionRecallEvaluation(version=version)


@pytest.mark.parametrize(
    ("method", "args"),
    [("addNegativeMisses", (1,)), ("numPositiveRef", ()), ("numNegativeRef", ()), ("rPrecision", ()), ("elevenPtInterpPrecision", ())],
)
def test_a_3_9_2_evaluation_rejects_4_1_methods(method: str, args: tuple) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    before = ev.toString()
    with pytest.raises(NotImplementedError, match=rf"^{method}\(\) is new in LingPipe 4\.1: LingPipe 3\.9\.2, .*version='4\.1'"):
        getattr(ev, method)(*args)
    assert ev.toString() == before and ev.evaluation.num_negative_misses == 0


@pytest.mark.parametrize("count", [-1, 1.0, "1", None, True])
def test_bad_negative_misses_raise_and_change_nothing(count: Any) -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    ev.addNegativeMisses(2)
    with pytest.raises((TypeError, ValueError), match="addNegativeMisses: argument 'count'"):
        ev.addNegativeMisses(count)
    assert ev.numNegativeRef() == 2


@pytest.mark.parametrize("method", ["prCurve", "prScoreCurve", "rocCurve", "areaUnderPrCurve", "areaUnderRocCurve"])
def test_interpolate_must_be_a_bool(method: str) -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    with pytest.raises(TypeError, match=f"{method}: argument 'interpolate' must be a bool"):
        getattr(ev, method)(1)


def test_pickle_deepcopy_and_repr_keep_the_version() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1.0")
    for i in range(7):
        ev.addCase(i % 3 == 0, float(i % 4))
    ev.addMisses(2)
    ev.addNegativeMisses(1)
    ev.toString()  # fill the cache first
    for clone in (pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev)):
        assert clone.version == "4.1"
        assert clone.toString() == ev.toString()
        clone.addCase(True, 9.0)
        assert clone.numCases() == ev.numCases() + 1
        assert clone.toString() != ev.toString()
    assert repr(ev) == "scored_pr.lingpipe.ScoredPrecisionRecallEvaluation(version='4.1', numCases=10)"


def test_state_pickled_before_versions_existed_loads_as_3_9_2() -> None:
    old = ScoredPrecisionRecallEvaluation()
    old.addCase(True, 1.0)
    loaded = ScoredPrecisionRecallEvaluation.__new__(ScoredPrecisionRecallEvaluation)
    loaded.__setstate__((None, {"_ev": old.evaluation}))  # what an earlier release pickled
    assert loaded.version == "3.9.2" and loaded.toString() == old.toString()


# ------------------------------------------------ properties vs a literal reference


def jdiv(x: float, y: float) -> float:
    """Java's double division: x/0 is +-inf or NaN instead of an exception."""
    if y == 0:
        return NAN if x == 0 or math.isnan(x) else math.copysign(math.inf, x)
    return x / y


def jmax(a: float, b: float) -> float:
    """Java's Math.max: NaN if either operand is NaN."""
    return NAN if math.isnan(a) or math.isnan(b) else max(a, b)


class Reference41:
    """LingPipe 4.1.0 from the definitions in README-4.1.md, one Python float at a time."""

    def __init__(self, cases: list[tuple[bool, float]], misses: int, negative_misses: int) -> None:
        order = sorted(range(len(cases)), key=lambda i: (-cases[i][1], i))  # stable, -0.0 == 0.0
        self.ranked = [cases[i] for i in order]
        self.pos = sum(1 for c, _ in cases if c) + misses
        self.neg = sum(1 for c, _ in cases if not c) + negative_misses

    def per_rank(self) -> list[list[float]]:
        out, tp = [], 0
        for k, (correct, score) in enumerate(self.ranked, start=1):
            tp += correct
            out.append([jdiv(tp, self.pos), tp / k, score])
        return out

    @staticmethod
    def interpolate(curve: list[list[float]]) -> list[list[float]]:
        best, lifted = 0.0, []
        for row in reversed(curve):
            if row[1] > best:
                best = row[1]
            lifted.append([row[0], best, *row[2:]])
        out, last = [[0.0, 1.0]], 0.0
        for row in reversed(lifted):
            if row[0] != last:
                out.append(row)
                last = row[0]
        return out

    def pr_curve(self, interpolate: bool) -> list[list[float]]:
        curve = [[0.0, 1.0]] + [r[:2] for r in self.per_rank() if not (r[0] == 0.0 and r[1] == 0.0)] + [[1.0, 0.0]]
        return self.interpolate(curve) if interpolate else curve

    def pr_score_curve(self, interpolate: bool) -> list[list[float]]:
        return self.interpolate(self.per_rank()) if interpolate else self.per_rank()

    def roc_curve(self, interpolate: bool) -> list[list[float]]:
        curve, tn, tp = [[0.0, 0.0]], self.neg, 0
        for correct, _ in self.ranked:
            tp += correct
            tn -= not correct
            curve.append([1.0 - jdiv(tn, self.neg), jdiv(tp, self.pos)])
        curve.append([1.0, 1.0])
        if not interpolate:
            return curve
        return [row for row, nxt in zip(curve, curve[1:]) if row[0] != nxt[0]] + [curve[-1]]

    @staticmethod
    def area(curve: list[list[float]]) -> float:
        total = 0.0
        for (x1, y1), (x2, y2) in zip(curve, curve[1:]):
            total += (y1 + y2) * (x2 - x1) / 2.0
        return total

    def average_precision(self) -> float:
        total, recall = 0.0, 0.0
        for r, p in self.pr_curve(False):
            if r > recall:
                total += p
                recall = r
        return jdiv(total, self.pos)

    def maximum_f_measure(self, beta: float) -> float:
        best, b2 = 0.0, beta * beta
        for r, p in self.pr_curve(False):
            best = jmax(best, jdiv((1.0 + b2) * r * p, r + b2 * p))
        return best

    def r_precision(self) -> float:
        curve = self.pr_curve(False)
        if self.pos == 0:
            return 1.0
        if self.pos < len(curve):
            return curve[self.pos - 1][1]
        return curve[-1][1] * (len(curve) - 1) / self.pos

    def eleven_point(self) -> list[float]:
        curve = self.pr_curve(True)
        return [next((p for r, p in curve if r + 1e-13 >= 0.1 * i), 0.0) for i in range(11)]

    def precision_at(self, rank: int) -> float:
        return 1.0 if rank == 0 else sum(c for c, _ in self.ranked[:rank]) / rank

    def reciprocal_rank(self) -> float:
        return next((1.0 / k for k, (c, _) in enumerate(self.ranked, start=1) if c), 0.0)

    def observe(self) -> dict[str, Any]:
        values: dict[str, Any] = {"numCases": self.pos + self.neg, "numPositiveRef": self.pos, "numNegativeRef": self.neg}
        for interpolate in (False, True):
            key = "true" if interpolate else "false"
            values[f"prCurve_{key}"] = self.pr_curve(interpolate)
            values[f"prScoreCurve_{key}"] = self.pr_score_curve(interpolate)
            values[f"rocCurve_{key}"] = self.roc_curve(interpolate)
            values[f"areaUnderPrCurve_{key}"] = self.area(self.pr_curve(interpolate))
            values[f"areaUnderRocCurve_{key}"] = self.area(self.roc_curve(interpolate))
        values["averagePrecision"] = self.average_precision()
        values["maximumFMeasure"] = self.maximum_f_measure(1.0)
        values["maximumFMeasure_0.5"] = self.maximum_f_measure(0.5)
        values["maximumFMeasure_2"] = self.maximum_f_measure(2.0)
        values["prBreakevenPoint"] = values["rPrecision"] = self.r_precision()
        values["elevenPtInterpPrecision"] = self.eleven_point()
        values["reciprocalRank"] = self.reciprocal_rank()
        values["precisionAt"] = {str(k): self.precision_at(k) for k in RANKS}
        lines = [
            f"  Area Under PR Curve (interpolated)={double_to_string(values['areaUnderPrCurve_true'])}",
            f"  Area Under PR Curve (uninterpolated)={double_to_string(values['areaUnderPrCurve_false'])}",
            f"  Area Under ROC Curve (interpolated)={double_to_string(values['areaUnderRocCurve_true'])}",
            f"  Area Under ROC Curve (uninterpolated)={double_to_string(values['areaUnderRocCurve_false'])}",
            f"  Average Precision={double_to_string(values['averagePrecision'])}",
            f"  Maximum F(1) Measure={double_to_string(values['maximumFMeasure'])}",
            f"  BEP (Precision-Recall break even point)={double_to_string(values['prBreakevenPoint'])}",
            f"  Reciprocal Rank={double_to_string(values['reciprocalRank'])}",
        ]
        for k in (5, 10, 25, 100, 500):
            if not len(self.ranked) < k:  # the loop runs while k exceeds the cases added
                break
            lines.append(f"  Precision at {k}={double_to_string(self.precision_at(k))}")
        values["toString"] = "\n".join(lines)
        return values


SCORES = st.sampled_from([0.0, -0.0, 1.0, 2.0, -1.0, math.inf, -math.inf]) | st.floats(allow_nan=False, width=64)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("case"), st.booleans(), SCORES),
        st.tuples(st.just("misses"), st.integers(0, 3)),
        st.tuples(st.just("negative_misses"), st.integers(0, 3)),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(ops=OPS)
def test_matches_the_literal_reference_after_every_mutation(ops: list) -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    cases: list[tuple[bool, float]] = []
    misses = negative_misses = 0
    assert mismatches(observe(ev), Reference41(cases, 0, 0).observe()) == []
    for op in ops:
        if op[0] == "case":
            ev.addCase(op[1], op[2])
            cases.append((op[1], op[2]))
        elif op[0] == "misses":
            ev.addMisses(op[1])
            misses += op[1]
        else:
            ev.addNegativeMisses(op[1])
            negative_misses += op[1]
        assert mismatches(observe(ev), Reference41(cases, misses, negative_misses).observe()) == []


# ------------------------------------------------------ printScorePrecisionRecallCurve


def test_print_score_curve_columns_are_precision_recall_score() -> None:
    ev = ScoredPrecisionRecallEvaluation(version="4.1")
    ev.addCase(False, 5e-7)
    ev.addCase(True, -2.0)
    out = io.StringIO()
    ScoredPrecisionRecallEvaluation.printScorePrecisionRecallCurve(ev.prScoreCurve(False), out)
    # Java's %8.6f: 5.0E-7 rounds half up to 0.000001 (Python's %f gives 0.000000).
    assert out.getvalue() == (
        "  PRECI.   RECALL    SCORE\n"
        "0.000000 0.000000 0.000001\n"
        "0.500000 1.000000 -2.000000\n"
    )
    out = io.StringIO()
    ScoredPrecisionRecallEvaluation.printScorePrecisionRecallCurve(ev.prScoreCurve(True)[1:], out)
    assert out.getvalue().split("\n")[1] == "0.500000 1.000000 -2.000000"


@pytest.mark.parametrize("curve", [[[0.0, 1.0], [1.0, 0.5, 2.0]], [[1.0, 0.5]], "curve"])
def test_print_score_curve_rejects_ragged_and_two_column_curves(curve: Any) -> None:
    out = io.StringIO()
    with pytest.raises(ValueError, match="printScorePrecisionRecallCurve: argument 'prScoreCurve'"):
        ScoredPrecisionRecallEvaluation.printScorePrecisionRecallCurve(curve, out)
    assert out.getvalue() == ""

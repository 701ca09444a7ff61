"""scored_pr.lingpipe: LingPipe 3.9.2 reproduced bit for bit.

Three kinds of tests: the 300 conformance vectors compared with exact
equality (the bits of every float, NaN equal to NaN, the toString text
character for character); the class documentation's worked example and each
documented 3.9.2 quirk; and Hypothesis properties against slow, literal
reference implementations written below.
"""

from __future__ import annotations

import copy
import io
import math
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lingpipe_vectors import LINGPIPE_EXAMPLE as EXAMPLE
from lingpipe_vectors import lingpipe_observe, lingpipe_replay, load_vectors, mismatches
from scored_pr import ScoredPrecisionRecallEvaluation as MainEvaluation
from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation

VECTORS = load_vectors()
IDS = [f"v{i:03d}-n{v['expected']['numCases']}" for i, v in enumerate(VECTORS)]
NAN = float("nan")


def replay(ops: list) -> ScoredPrecisionRecallEvaluation:
    return lingpipe_replay(ops, "3.9.2")


def observe(ev: ScoredPrecisionRecallEvaluation, ranks: Any) -> dict[str, Any]:
    return lingpipe_observe(ev, ranks)


# ------------------------------------------------------------------ conformance


def test_the_vectors_exercise_every_quirk() -> None:
    """The data pins down each 3.9.2 behaviour the class reproduces."""
    assert len(VECTORS) == 300
    with_misses = [v for v in VECTORS if any(op[0] == "misses" and op[1] > 0 for op in v["ops"])]
    assert with_misses and all(
        v["expected"]["averagePrecision"] != v["expected"]["areaUnderPrCurve_false"] for v in with_misses
    )
    sizes = [v["expected"]["numCases"] for v in VECTORS]
    assert any(n < 5 for n in sizes) and any(5 <= n < 500 for n in sizes)
    assert any(math.isnan(v["expected"]["precisionAt"]["0"]) for v in VECTORS if v["expected"]["numCases"])


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_matches_lingpipe_bit_for_bit(vector: dict) -> None:
    expected = vector["expected"]
    ev = replay(vector["ops"])
    assert mismatches(observe(ev, expected["precisionAt"]), expected) == []
    assert str(ev) == expected["toString"]


def test_to_string_lines_stop_at_the_first_rank_not_above_num_cases() -> None:
    """With 5 <= numCases < 500 the literal 'ranks > numCases' reading would print
    some lines (e.g. 10, 25, 100, 500 for 7 cases); 3.9.2 prints none."""
    for vector in VECTORS:
        n = vector["expected"]["numCases"]
        text = vector["expected"]["toString"]
        assert text.count("Precision at") == (5 if n < 5 else 0)


# ----------------------------------------------------------- documented example

# The class documentation's table (lingpipe_vectors.LINGPIPE_EXAMPLE): rank order, score, correct.


@pytest.fixture
def example() -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    for score, correct in reversed(EXAMPLE):  # insertion order must not matter
        ev.addCase(correct, score)
    return ev


def test_worked_example(example: ScoredPrecisionRecallEvaluation) -> None:
    ev = example
    assert ev.numCases() == 10
    assert np.round(ev.prCurve(False), 2).tolist() == [[0.25, 0.5], [0.5, 0.5], [0.75, 0.6], [1.0, 0.44]]
    assert np.round(ev.prCurve(True), 2).tolist() == [[0.75, 0.6], [1.0, 0.44]]
    assert np.round(ev.rocCurve(False), 2).tolist() == [[0.25, 0.83], [0.5, 0.67], [0.75, 0.67], [1.0, 0.17]]
    assert np.round(ev.rocCurve(True), 2).tolist() == [[0.25, 0.83], [0.75, 0.67], [1.0, 0.17]]
    assert ev.prScoreCurve(False)[:, 2].tolist() == [-1.27, -1.47, -1.60, -2.01]
    assert round(ev.areaUnderPrCurve(False), 2) == 0.51
    assert round(ev.areaUnderPrCurve(True), 2) == 0.56
    assert round(ev.areaUnderRocCurve(False), 2) == 0.58
    assert round(ev.areaUnderRocCurve(True), 2) == 0.58
    assert round(ev.averagePrecision(), 2) == 0.51
    assert round(ev.maximumFMeasure(), 2) == round(ev.maximumFMeasure(1.0), 2) == 0.67
    assert ev.prBreakevenPoint() == 0.6
    assert ev.precisionAt(5) == 0.6
    assert ev.precisionAt(10) == 0.4
    assert ev.reciprocalRank() == 0.5


def test_worked_example_report(example: ScoredPrecisionRecallEvaluation) -> None:
    assert example.toString() == (
        "  Area Under PR Curve (interpolated)=0.5611111111111111\n"
        "  Area Under PR Curve (uninterpolated)=0.5111111111111111\n"
        "  Area Under ROC Curve (interpolated)=0.5833333333333334\n"
        "  Area Under ROC Curve (uninterpolated)=0.5833333333333334\n"
        "  Average Precision=0.5111111111111111\n"
        "  Maximum F(1) Measure=0.6666666666666665\n"
        "  BEP (Precision-Recall break even point)=0.6\n"
        "  Reciprocal Rank=0.5"
    )


# ------------------------------------------------------------ the 3.9.2 quirks


def test_average_precision_ignores_misses() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 3.0)
    ev.addCase(False, 2.0)
    ev.addCase(True, 1.0)
    before = ev.averagePrecision()
    assert before == (1.0 + 2.0 / 3.0) / 2
    ev.addMisses(3)
    assert ev.averagePrecision() == before
    assert ev.areaUnderPrCurve(False) < before
    # the main API's standard definition counts the misses
    assert ev.evaluation.average_precision() == pytest.approx(ev.areaUnderPrCurve(False), rel=1e-15)


def test_average_precision_is_nan_without_a_correct_case() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    assert math.isnan(ev.averagePrecision())
    ev.addCase(False, 1.0)
    ev.addMisses(2)
    assert math.isnan(ev.averagePrecision())
    assert ev.evaluation.average_precision() == 0.0


def test_precision_at_rank_zero_and_beyond_num_cases_is_nan() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    assert math.isnan(ev.precisionAt(0))
    assert math.isnan(ev.precisionAt(1))
    ev.addCase(True, 1.0)
    ev.addCase(False, 0.0)
    assert math.isnan(ev.precisionAt(0))
    assert [ev.precisionAt(k) for k in (1, 2)] == [1.0, 0.5]
    assert math.isnan(ev.precisionAt(3))
    assert ev.precisionAt(np.int64(2)) == 0.5


@pytest.mark.parametrize("rank", [-1, -100])
def test_precision_at_negative_rank_raises(rank: int) -> None:
    with pytest.raises(ValueError, match=r"precisionAt: argument 'rank' must be a non-negative int of at most 2\*\*53 \(\d+\); got -\d+"):
        ScoredPrecisionRecallEvaluation().precisionAt(rank)


@pytest.mark.parametrize("rank", [1.0, "1", None, True])
def test_precision_at_non_int_rank_raises(rank: Any) -> None:
    with pytest.raises(TypeError, match="precisionAt: argument 'rank'"):
        ScoredPrecisionRecallEvaluation().precisionAt(rank)


def test_roc_curve_is_nan_without_an_incorrect_case() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    ev.addCase(True, 0.5)
    assert ev.rocCurve(False)[:, 0].tolist() == [0.5, 1.0]
    assert np.isnan(ev.rocCurve(False)[:, 1]).all()
    assert ev.rocCurve(True).shape == (0, 2)
    assert math.isnan(ev.areaUnderRocCurve(False))
    assert ev.areaUnderRocCurve(True) == 0.0


def test_rejection_recall_is_one_minus_false_positive_rate() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    for correct, score in [(False, 4.0), (True, 3.0), (False, 2.0), (True, 1.0), (False, 0.0)]:
        ev.addCase(correct, score)
    assert ev.rocCurve(False).tolist() == [[0.5, 1.0 - 1.0 / 3.0], [1.0, 1.0 - 2.0 / 3.0]]


@pytest.mark.parametrize(("n", "lines"), [(0, 5), (1, 5), (4, 5), (5, 0), (6, 0), (499, 0), (500, 0), (501, 0)])
def test_to_string_precision_lines(n: int, lines: int) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    for i in range(n):
        ev.addCase(i % 2 == 0, float(-i))
    text = ev.toString()
    body = text.split("\n")
    assert len(body) == 8 + lines
    assert body[8:] == [f"  Precision at {k}=NaN" for k in (5, 10, 25, 100, 500)][:lines]
    assert not text.endswith("\n")
    assert str(ev) == text


def test_to_string_renders_numbers_like_java() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    assert ev.toString().split("\n")[:4] == [
        "  Area Under PR Curve (interpolated)=1.0",
        "  Area Under PR Curve (uninterpolated)=1.0",
        "  Area Under ROC Curve (interpolated)=0.0",
        "  Area Under ROC Curve (uninterpolated)=NaN",
    ]
    ev.addMisses(99_999)
    # recall 1e-5 per point: Java switches to scientific notation below 1e-3
    assert "  Area Under PR Curve (uninterpolated)=1.0E-5" in ev.toString()


# --------------------------------------------------------------- bad input


def test_negative_misses_raise_and_change_nothing() -> None:
    """Deliberate divergence from 3.9.2, which accepted a negative count."""
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    ev.addMisses(1)
    before = ev.prCurve(False)
    with pytest.raises(ValueError, match=r"addMisses: argument 'count' must be a non-negative int of at most 2\*\*53 \(\d+\); got -1"):
        ev.addMisses(-1)
    np.testing.assert_array_equal(ev.prCurve(False), before)
    assert ev.evaluation.num_misses == 1


@pytest.mark.parametrize("count", [1.0, "1", None, True])
def test_misses_must_be_an_int(count: Any) -> None:
    with pytest.raises(TypeError, match="addMisses: argument 'count'"):
        ScoredPrecisionRecallEvaluation().addMisses(count)


def test_zero_misses_are_accepted() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addMisses(0)
    ev.addMisses(np.int32(2))
    assert ev.evaluation.num_misses == 2


@pytest.mark.parametrize(
    ("correct", "score", "exc"),
    [
        (True, NAN, ValueError),
        ("True", 1.0, TypeError),
        (2, 1.0, ValueError),
        (True, "1.0", TypeError),
        (None, 1.0, TypeError),
    ],
)
def test_bad_cases_raise_as_in_the_main_api_and_change_nothing(correct: Any, score: Any, exc: type) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    with pytest.raises(exc, match="addCase: argument"):
        ev.addCase(correct, score)
    with pytest.raises(exc):
        MainEvaluation().add_case(correct, score)
    assert ev.numCases() == 1


@pytest.mark.parametrize("method", ["prCurve", "prScoreCurve", "rocCurve", "areaUnderPrCurve", "areaUnderRocCurve"])
def test_interpolate_must_be_a_bool(method: str) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    with pytest.raises(TypeError, match=f"{method}: argument 'interpolate' must be a bool"):
        getattr(ev, method)(1)
    assert getattr(ev, method)(np.bool_(True)) is not None


@pytest.mark.parametrize(("beta", "exc"), [(0.0, ValueError), (-1.0, ValueError), (NAN, ValueError), ("2", TypeError)])
def test_bad_beta_raises(beta: Any, exc: type) -> None:
    with pytest.raises(exc, match="maximumFMeasure: argument 'beta'"):
        ScoredPrecisionRecallEvaluation().maximumFMeasure(beta)


# ------------------------------------------------------------------- the shell


def test_curves_are_fresh_writable_arrays() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    for curve in (ev.prCurve(False), ev.prScoreCurve(True), ev.rocCurve(False)):
        assert curve.flags.writeable
        curve[:] = -1.0
    assert ev.prCurve(False).tolist() == [[1.0, 1.0]]
    assert ev.prScoreCurve(True).tolist() == [[1.0, 1.0, 1.0]]


def test_evaluation_is_the_shared_main_api_evaluator() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    main = ev.evaluation
    assert isinstance(main, MainEvaluation) and main.ties == "stable"
    main.add_case(False, 2.0)
    assert ev.numCases() == 2
    assert ev.precisionAt(1) == 0.0


def test_pickle_and_deepcopy() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    for i in range(7):
        ev.addCase(i % 3 == 0, float(i % 4))
    ev.addMisses(2)
    for clone in (pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev)):
        assert clone.toString() == ev.toString()
        clone.addCase(True, 9.0)
        assert clone.numCases() == ev.numCases() + 1


def test_repr() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.addCase(True, 1.0)
    assert repr(ev) == "scored_pr.lingpipe.ScoredPrecisionRecallEvaluation(version='3.9.2', numCases=1)"


# ------------------------------------------------------- printPrecisionRecallCurve


def printed(curve: Any) -> str:
    out = io.StringIO()
    ScoredPrecisionRecallEvaluation.printPrecisionRecallCurve(curve, out)
    return out.getvalue()


def test_print_curve_columns_are_precision_recall_f1(example: ScoredPrecisionRecallEvaluation) -> None:
    assert printed(example.prCurve(False)) == (
        "  PRECI.   RECALL        F\n"
        "0.500000 0.250000 0.333333\n"
        "0.500000 0.500000 0.500000\n"
        "0.600000 0.750000 0.666667\n"
        "0.444444 1.000000 0.615385\n"
    )


def test_print_curve_follows_java_percent_f() -> None:
    # Java rounds the Double.toString decimal half up; Python's %f would print
    # 0.000000 / 0.000002 for the first two rows. Java writes NaN, not nan.
    text = printed([[5e-7, 1.0], [1.0, 2.5e-6], [0.0, 0.0], [NAN, 0.5]])
    assert text.split("\n")[1:] == [
        "1.000000 0.000001 0.000001",
        "0.000003 1.000000 0.000005",
        "0.000000 0.000000      NaN",
        "0.500000      NaN      NaN",
        "",
    ]
    assert "%8.6f" % 5e-7 == "0.000000"


def test_print_curve_accepts_score_curves_and_empty_curves() -> None:
    assert printed([[0.5, 1.0, 7.0]]) == "  PRECI.   RECALL        F\n1.000000 0.500000 0.666667\n"
    assert printed([]) == "  PRECI.   RECALL        F\n"
    assert printed(np.zeros((0, 2))) == "  PRECI.   RECALL        F\n"


def test_print_curve_writes_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    ScoredPrecisionRecallEvaluation.printPrecisionRecallCurve([[1.0, 1.0]], sys.stdout)
    assert capsys.readouterr().out == "  PRECI.   RECALL        F\n1.000000 1.000000 1.000000\n"


@pytest.mark.parametrize("curve", [[1.0, 2.0], [[1.0]], "curve", [[1.0, "x"]]])
def test_print_curve_rejects_non_curves(curve: Any) -> None:
    out = io.StringIO()
    with pytest.raises(ValueError, match="printPrecisionRecallCurve: argument 'prCurve'"):
        ScoredPrecisionRecallEvaluation.printPrecisionRecallCurve(curve, out)
    assert out.getvalue() == ""


# -------------------------------------------------- properties vs literal references


def reference_ranking(cases: list[tuple[bool, float]]) -> list[bool]:
    """Correctness in rank order: descending score, ties in insertion order."""
    order = sorted(range(len(cases)), key=lambda i: (-cases[i][1], i))
    return [cases[i][0] for i in order]


def reference_average_precision(cases: list[tuple[bool, float]]) -> float:
    """3.9.2 as a plain loop: mean of the precision at each correct case."""
    total, found, points = 0.0, 0, 0
    for k, correct in enumerate(reference_ranking(cases), start=1):
        if correct:
            found += 1
            points += 1
            total += found / k
    return total / points if points else NAN


def reference_precision_at(cases: list[tuple[bool, float]], rank: int) -> float:
    if rank == 0 or rank > len(cases):
        return NAN
    return sum(reference_ranking(cases)[:rank]) / rank


CASES = st.lists(
    st.tuples(st.booleans(), st.integers(-3, 3).map(float) | st.floats(allow_nan=False, width=64)),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(cases=CASES, misses=st.lists(st.integers(0, 3), max_size=3))
def test_matches_literal_references(cases: list[tuple[bool, float]], misses: list[int]) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    for correct, score in cases:
        ev.addCase(correct, score)
    for m in misses:
        ev.addMisses(m)
    assert mismatches([ev.averagePrecision()], [reference_average_precision(cases)]) == []
    for rank in range(len(cases) + 2):
        assert mismatches([ev.precisionAt(rank)], [reference_precision_at(cases, rank)]) == []
    # without misses 3.9.2's average precision is the main API's
    if sum(misses) == 0 and any(c for c, _ in cases):
        assert ev.averagePrecision() == ev.evaluation.average_precision()


@settings(max_examples=100, deadline=None)
@given(cases=CASES)
def test_report_agrees_with_the_methods(cases: list[tuple[bool, float]]) -> None:
    from scored_pr.lingpipe._javafmt import double_to_string

    ev = ScoredPrecisionRecallEvaluation()
    for correct, score in cases:
        ev.addCase(correct, score)
    values = dict(line.strip().split("=", 1) for line in ev.toString().split("\n"))
    assert values["Average Precision"] == double_to_string(ev.averagePrecision())
    assert values["Reciprocal Rank"] == double_to_string(ev.reciprocalRank())
    assert values["Area Under ROC Curve (uninterpolated)"] == double_to_string(ev.areaUnderRocCurve(False))
    assert values["Maximum F(1) Measure"] == double_to_string(ev.maximumFMeasure())


# ------------------------------------------------------------ the porting guide

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "porting-from-lingpipe.md"
EXAMPLE_SCRIPT = ROOT / "examples" / "port_from_lingpipe.py"


def fenced_block_after(text: str, marker: str) -> str:
    """The body of the first fenced code block that starts after ``marker``."""
    rest = text[text.index(marker) + len(marker) :]
    opening = rest.index("```")
    body_start = rest.index("\n", opening) + 1
    return rest[body_start : rest.index("```", body_start)]


def test_example_prints_the_report_shown_in_the_guide() -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLE_SCRIPT)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == fenced_block_after(GUIDE.read_text(encoding="utf-8"), "<!-- example-output -->")


def test_guide_shows_the_example_line_for_line() -> None:
    port = fenced_block_after(GUIDE.read_text(encoding="utf-8"), "### After: the Python port")
    assert port in EXAMPLE_SCRIPT.read_text(encoding="utf-8")


def test_guide_lists_every_java_method() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    table = guide[guide.index("## Method table") : guide.index("## What the compatibility class")]
    public = [n for n in dir(ScoredPrecisionRecallEvaluation) if n[0].islower() and n not in ("evaluation", "version")]
    assert len(public) == 21  # Java 4.1 has 22: maximumFMeasure covers both overloads
    for name in public:
        assert f"`{name}(" in table or f".{name}(" in table, name


def four_one_only() -> set[str]:
    """The methods a 3.9.2 instance rejects, found by calling every one."""
    args: dict[str, tuple] = {"addCase": (True, 1.0), "addMisses": (1,), "addNegativeMisses": (1,), "precisionAt": (1,)}
    ev = ScoredPrecisionRecallEvaluation()
    rejected = set()
    for name in dir(ev):
        if name[0].islower() and name not in ("evaluation", "version") and not name.startswith("print"):
            default = (True,) if name.endswith("Curve") else ()
            try:
                getattr(ev, name)(*args.get(name, default))
            except NotImplementedError:
                rejected.add(name)
    return rejected


def test_guide_marks_exactly_the_4_1_only_methods() -> None:
    only = four_one_only()
    assert only == {"addNegativeMisses", "numPositiveRef", "numNegativeRef", "rPrecision", "elevenPtInterpPrecision"}
    guide = GUIDE.read_text(encoding="utf-8")
    table = guide[guide.index("## Method table") : guide.index("## What the compatibility class")]
    marked = {line.split("`")[3].split("(")[0] for line in table.splitlines() if line.startswith("| `") and "*4.1 only*" in line}
    assert marked == only

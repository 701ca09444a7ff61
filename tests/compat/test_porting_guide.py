"""Every claim the porting guide makes about the main API against LingPipe holds.

The guide (docs/porting-from-lingpipe.md) says which values the main API shares with the
compatibility class, bit for bit or only up to rounding, on its worked example and in general.
These tests read those claims from the guide's own text and tables and compute each one, so a
claim that stops being true (or never was) fails here. The guide's code blocks run as doctests
(``--doctest-glob='*.md'``); this module checks the prose and the tables around them.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable
from contextlib import redirect_stdout
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lingpipe_vectors import load_vectors
from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr import lingpipe
from scored_pr.lingpipe import double_to_string

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "porting-from-lingpipe.md"

# The worked example's cases, as the guide and examples/port_from_lingpipe.py give them.
SCORES = [0.91, 0.85, 0.85, 0.77, 0.62, 0.60, 0.58, 0.41, 0.33, 0.20, 0.12, 0.05]
CORRECT = [True, False, True, True, False, True, False, False, True, False, False, False]


def guide_text() -> str:
    return " ".join(GUIDE.read_text(encoding="utf-8").split())  # claims may wrap across lines


def table_after(marker: str) -> list[list[str]]:
    """The rows (cells stripped, header and rule dropped) of the first Markdown table after ``marker``."""
    text = GUIDE.read_text(encoding="utf-8")
    rest = text[text.index(marker) + len(marker) :].lstrip("\n")
    rows = []
    for line in rest.splitlines():
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]


def ulps(a: float, b: float) -> int:
    """Units in the last place between two finite doubles of the same sign."""
    return abs(int(np.float64(a).view(np.int64)) - int(np.float64(b).view(np.int64)))


def same(a: float, b: float) -> bool:
    """Bit for bit (NaN equal to NaN)."""
    return (math.isnan(a) and math.isnan(b)) or np.float64(a).tobytes() == np.float64(b).tobytes()


# ------------------------------------------------------------------ the worked example


def worked_example() -> tuple[lingpipe.ScoredPrecisionRecallEvaluation, dict[str, ScoredPrecisionRecallEvaluation]]:
    port = lingpipe.ScoredPrecisionRecallEvaluation()  # 3.9.2
    for correct, score in zip(CORRECT, SCORES):
        port.addCase(correct, score)
    port.addMisses(1)
    main = {}
    for ties in ("grouped", "stable"):
        ev = ScoredPrecisionRecallEvaluation(ties=ties)
        ev.add_cases(CORRECT, SCORES)
        ev.add_misses(1)
        main[ties] = ev
    return port, main


def printed(write: Callable[[], None]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        write()
    return out.getvalue()


#: Each row label of the guide's table: the 3.9.2 port's value (as Java prints it) and the main
#: API's value (as Python prints it), computed independently of the guide.
ROWS: dict[str, tuple[Callable[[Any], str], Callable[[ScoredPrecisionRecallEvaluation], str]]] = {
    "Cases": (lambda p: str(p.numCases()), lambda e: str(e.num_cases)),
    "Average precision": (lambda p: double_to_string(p.averagePrecision()), lambda e: repr(e.average_precision())),
    "Precision at 5": (lambda p: double_to_string(p.precisionAt(5)), lambda e: repr(e.precision_at(5))),
    "Area Under PR Curve (interpolated)": (
        lambda p: double_to_string(p.areaUnderPrCurve(True)), lambda e: repr(e.area_under_pr_curve(True))
    ),
    "Area Under PR Curve (uninterpolated)": (
        lambda p: double_to_string(p.areaUnderPrCurve(False)), lambda e: repr(e.area_under_pr_curve(False))
    ),
    "Area Under ROC Curve (interpolated)": (
        lambda p: double_to_string(p.areaUnderRocCurve(True)), lambda e: repr(e.area_under_roc_curve(True))
    ),
    "Area Under ROC Curve (uninterpolated)": (
        lambda p: double_to_string(p.areaUnderRocCurve(False)), lambda e: repr(e.area_under_roc_curve(False))
    ),
    "Maximum F(1) Measure": (lambda p: double_to_string(p.maximumFMeasure()), lambda e: repr(e.maximum_f_measure())),
    "BEP (Precision-Recall break even point)": (
        lambda p: double_to_string(p.prBreakevenPoint()), lambda e: repr(e.pr_breakeven_point())
    ),
    "Reciprocal Rank": (lambda p: double_to_string(p.reciprocalRank()), lambda e: repr(e.reciprocal_rank())),
    "interpolated PR curve (printed)": (
        lambda p: printed(lambda: p.printPrecisionRecallCurve(p.prCurve(True), __import__("sys").stdout)),
        lambda e: printed(lambda: e.print_precision_recall_curve(e.pr_curve(True))),
    ),
}

TABLE = table_after("<!-- main-api-vs-3.9.2 -->")


def test_the_table_covers_every_value_the_port_prints() -> None:
    assert [row[0] for row in TABLE] == list(ROWS)
    port, _ = worked_example()
    # the port's report: every value it prints has a row
    labels = [line.strip().split("=")[0] for line in port.toString().split("\n")]
    assert {label.lower() for label in labels} <= {row.lower() for row in ROWS}


@pytest.mark.parametrize("row", TABLE, ids=[row[0] for row in TABLE])
def test_each_cell_of_the_worked_example_table(row: list[str]) -> None:
    """A number in a cell is the value printed; "same" means the 3.9.2 port's value, bit for bit."""
    label, port_cell, grouped_cell, stable_cell = row[:4]
    port, main = worked_example()
    port_value, main_value = ROWS[label]
    expected_port = port_value(port)
    if port_cell != "the four rows above":
        assert port_cell == expected_port
    for cell, ties in ((grouped_cell, "grouped"), (stable_cell, "stable")):
        value = main_value(main[ties])
        if cell == "same":
            assert value == expected_port, f"{label} with ties={ties!r} is {value}, not the port's {expected_port}"
        else:
            assert cell == value, f"{label} with ties={ties!r}"
            assert value != expected_port, f"{label} with ties={ties!r} is listed as differing but is the same"


def test_the_reasons_given_in_the_worked_example_table() -> None:
    port, main = worked_example()
    text = guide_text()
    # "9/14, correctly rounded where 3.9.2's floating-point sum is one unit in the last place above"
    assert "9/14, correctly rounded where 3.9.2's floating-point sum is one unit in the last place above" in text
    for interpolate in (False, True):
        assert main["stable"].area_under_roc_curve(interpolate) == float(Fraction(9, 14))
        assert port.areaUnderRocCurve(interpolate) == math.nextafter(float(Fraction(9, 14)), math.inf)
    # "so 27.5/42": the tied pair at 0.85 counts one half
    assert "so 27.5/42" in text
    assert main["grouped"].area_under_roc_curve(False) == float(Fraction(55, 84))
    # "4 correct in the top R = 6"
    assert "4 correct in the top R = 6" in text
    assert main["grouped"].num_positive_ref == 6 and sum(CORRECT[:6]) == 4
    assert main["grouped"].pr_breakeven_point() == 4 / 6 == main["grouped"].r_precision()
    # "it is also average precision, up to the last digit (0.6064814814814814)"
    assert "up to the last digit (0.6064814814814814)" in text
    for ev in main.values():
        ap, area = ev.average_precision(), ev.area_under_pr_curve(False)
        assert repr(ap) == "0.6064814814814814" and ap != area and ulps(ap, area) == 1


# ------------------------------------------------------------------ the general claims


def replay(version: str, ops: list) -> tuple[lingpipe.ScoredPrecisionRecallEvaluation, dict[str, ScoredPrecisionRecallEvaluation]]:
    port = lingpipe.ScoredPrecisionRecallEvaluation(version="4.1" if version == "4.1.0" else version)
    main = {ties: ScoredPrecisionRecallEvaluation(ties=ties) for ties in ("grouped", "stable")}
    for op in ops:
        if op[0] == "case":
            port.addCase(op[1], float(op[2]))
            for ev in main.values():
                ev.add_case(op[1], float(op[2]))
        elif op[0] == "misses":
            port.addMisses(op[1])
            for ev in main.values():
                ev.add_misses(op[1])
        else:
            port.addNegativeMisses(op[1])
            for ev in main.values():
                ev.add_negative_misses(op[1])
    return port, main


def untied(ops: list) -> bool:
    scores = [float(op[2]) for op in ops if op[0] == "case"]
    return len(set(scores)) == len(scores)


def test_3_9_2_shares_these_values_bit_for_bit_with_stable_ties() -> None:
    """"the curves, both PR areas, maximum F-measure for any beta, precision at ranks 1 and up and
    reciprocal rank are the same value, bit for bit ... and so is average precision when there are
    no misses"."""
    assert (
        'With 3.9.2 and `ties="stable"`, the curves, both PR areas, maximum F-measure for any beta, '
        "precision at ranks 1 and up and reciprocal rank are the same value, bit for bit"
    ) in guide_text()
    for vector in load_vectors("3.9.2"):
        port, main = replay("3.9.2", vector["ops"])
        ev = main["stable"]
        for interpolate in (False, True):
            assert np.array_equal(port.prCurve(interpolate), ev.pr_curve(interpolate), equal_nan=True)
            assert np.array_equal(port.prScoreCurve(interpolate), ev.pr_score_curve(interpolate), equal_nan=True)
            assert np.array_equal(port.rocCurve(interpolate), ev.roc_curve(interpolate), equal_nan=True)
            assert same(port.areaUnderPrCurve(interpolate), ev.area_under_pr_curve(interpolate))
        for beta in (0.5, 1.0, 2.0):
            assert same(port.maximumFMeasure(beta), ev.maximum_f_measure(beta))
        for rank in range(1, ev.num_cases + 2):
            assert same(port.precisionAt(rank), ev.precision_at(rank))
        assert same(port.reciprocalRank(), ev.reciprocal_rank())
        if ev.num_misses == 0 and ev.num_positive_ref:
            assert same(port.averagePrecision(), ev.average_precision())


def test_3_9_2_roc_areas_differ_from_the_main_api_only_by_the_rounding_the_guide_states() -> None:
    claim = re.search(
        r"in (\d+) of the (\d+) two-class 3\.9\.2 conformance vectors for the uninterpolated area and "
        r"(\d+) of (\d+) for the interpolated one, by at most (\d+) units in the last place",
        guide_text(),
    )
    assert claim, "the guide states how often and by how much the ROC areas differ"
    differ_u, total_u, differ_i, total_i, max_ulps = map(int, claim.groups())
    counts = {False: 0, True: 0}
    two_class = 0
    worst = 0
    for vector in load_vectors("3.9.2"):
        port, main = replay("3.9.2", vector["ops"])
        ev = main["stable"]
        if not (ev.num_positive_ref and ev.num_negative_ref):
            for interpolate in (False, True):
                assert math.isnan(ev.area_under_roc_curve(interpolate))  # "With one class ... NaN"
            continue
        two_class += 1
        for interpolate in (False, True):
            java, main_value = port.areaUnderRocCurve(interpolate), ev.area_under_roc_curve(interpolate)
            if java != main_value:
                counts[interpolate] += 1
                worst = max(worst, ulps(java, main_value))
        # "the correctly rounded area": the exact ratio of pairs in order, rounded once
        assert ev.area_under_roc_curve(False) == float(exact_stable_auc(vector["ops"]))
    assert (two_class, two_class) == (total_u, total_i)
    assert counts[False] == differ_u and counts[True] == differ_i
    assert worst == max_ulps


def exact_stable_auc(ops: list) -> Fraction:
    """(correct, incorrect) pairs ranked in order over P * N, ranking by descending score, ties in
    insertion order; misses are never ranked (a literal O(n^2) count)."""
    cases = [(float(op[2]), op[1]) for op in ops if op[0] == "case"]
    ranked = [correct for _, correct in sorted(cases, key=lambda c: -c[0])]  # sorted() is stable
    misses = sum(op[1] for op in ops if op[0] == "misses")
    positives = sum(ranked) + misses
    negatives = len(ranked) - sum(ranked)
    in_order = sum(ranked[i + 1 :].count(False) for i, c in enumerate(ranked) if c)
    return Fraction(in_order, positives * negatives)


def test_4_1_shares_these_values_with_stable_ties_and_with_grouped_ties_only_without_ties() -> None:
    text = guide_text()
    assert (
        'With 4.1, the main API with `ties="stable"` shares average precision, reciprocal rank, precision at '
        "ranks 1 to `num_cases` and the counts, bit for bit; with the default `ties=\"grouped\"` these agree "
        "only when no correct case ties with an incorrect one"
    ) in text
    grouped_differs = 0
    for vector in load_vectors("4.1.0"):
        port, main = replay("4.1.0", vector["ops"])
        for ties, ev in main.items():
            values = [
                (port.averagePrecision(), ev.average_precision()),
                (port.reciprocalRank(), ev.reciprocal_rank()),
                *((port.precisionAt(k), ev.precision_at(k)) for k in range(1, ev.num_cases + 1)),
            ]
            counts = (port.numPositiveRef(), port.numNegativeRef()) == (ev.num_positive_ref, ev.num_negative_ref)
            agree = counts and all(same(a, b) for a, b in values)
            if ties == "stable" or untied(vector["ops"]):
                assert agree, (ties, vector["ops"][:5])
            elif not agree:
                grouped_differs += 1
    assert grouped_differs > 0  # the qualification is needed: grouped ties do differ on tied inputs


def test_release_table_average_precision_equals_the_pr_area_up_to_the_last_digits() -> None:
    """3.9.2's own output: AP equals the uninterpolated PR area "up to the last few digits"."""
    assert "equals `Area Under PR Curve (uninterpolated)` up to the last few digits" in guide_text()
    differ = 0
    for vector in load_vectors("3.9.2"):
        exp = vector["expected"]
        misses = sum(op[1] for op in vector["ops"] if op[0] == "misses")
        if misses or math.isnan(exp["averagePrecision"]):
            continue
        ap, area = exp["averagePrecision"], exp["areaUnderPrCurve_false"]
        assert ulps(ap, area) <= 16
        differ += ap != area
    assert differ > 0  # "equals" alone would be false: LingPipe's two sums round differently


# ------------------------------------------------ telling the releases apart (LingPipe's own outputs)


def counts(ops: list) -> tuple[int, int, int, int]:
    """(cases added, correct cases added, misses, negative misses)."""
    added = [op for op in ops if op[0] == "case"]
    return (
        len(added),
        sum(1 for op in added if op[1]),
        sum(op[1] for op in ops if op[0] == "misses"),
        sum(op[1] for op in ops if op[0] == "negative_misses"),
    )


def precision_at_lines(text: str) -> list[str]:
    return [line.split("=", 1)[1] for line in text.split("\n") if line.startswith("  Precision at ")]


def test_the_release_table_holds_on_lingpipe_s_outputs() -> None:
    """Each row of "Which LingPipe release produced these numbers?", on the conformance vectors'
    expected values (LingPipe's own outputs, not the compatibility class)."""
    text = guide_text()
    assert "| `Area Under ROC Curve (interpolated)` with correct cases only | `0.0` | `NaN` (a number once `addNegativeMisses` gave it negatives) |" in text
    v392, v41 = load_vectors("3.9.2"), load_vectors("4.1.0")
    for vectors, release in ((v392, "3.9.2"), (v41, "4.1")):
        for vector in vectors:
            exp, (added, correct, misses, negative_misses) = vector["expected"], counts(vector["ops"])
            lines = precision_at_lines(exp["toString"])
            # "then `Precision at` lines only while the rank exceeds the number of cases added"
            assert len(lines) == (5 if added < 5 else 0)
            if release == "3.9.2":
                assert all(v == "NaN" for v in lines)  # "always `NaN`"
                assert exp["numCases"] == added  # "the cases added"
                assert math.isnan(exp["precisionAt"]["0"])
            else:
                assert all(v != "NaN" for v in lines)  # "numbers"
                assert exp["numCases"] == added + misses + negative_misses
                assert exp["precisionAt"]["0"] == 1.0
                assert exp["prBreakevenPoint"] == exp["rPrecision"]  # "the R-precision"
            if correct == added and added:  # "with correct cases only"
                roc = exp["areaUnderRocCurve_true"]
                # 4.1: "`NaN` (a number once `addNegativeMisses` gave it negatives)"
                assert (roc == 0.0) if release == "3.9.2" else (math.isnan(roc) == (negative_misses == 0))
            if added and correct == 0 and misses == 0:  # "with no correct case or miss (but some cases)"
                f = exp["maximumFMeasure"]
                assert (f == 0.0) if release == "3.9.2" else math.isnan(f)
    # "(The conformance vectors have 186 evaluations with 5 to 300 cases, none of which print any such line.)"
    claim = re.search(r"The conformance vectors have (\d+) evaluations with 5 to 300 cases, none of which print any such line", text)
    assert claim
    between = [v for v in v392 if 5 <= counts(v["ops"])[0] <= 300]
    assert len(between) == int(claim.group(1)) and not any(precision_at_lines(v["expected"]["toString"]) for v in between)

"""``scored-pr demo``: the worked example of LingPipe 3.9.2's documentation, and the bundled sample."""

from __future__ import annotations

from typing import TextIO

from .._evaluators.exact import ScoredPrecisionRecallEvaluation
from .._io.cases import read_sample

#: (correct, score) in rank order, ranks 0-9 of the table in LingPipe 3.9.2's class documentation.
WORKED_EXAMPLE: tuple[tuple[bool, float], ...] = (
    (False, -1.21), (True, -1.27), (False, -1.39), (True, -1.47), (True, -1.60),
    (False, -1.65), (False, -1.79), (False, -1.80), (True, -2.01), (False, -3.70),
)  # fmt: skip


def worked_example(ties: str = "stable") -> ScoredPrecisionRecallEvaluation:
    """An evaluation holding the ten cases of the worked example.

    >>> ev = worked_example()
    >>> round(ev.area_under_pr_curve(), 2), ev.pr_breakeven_point(), ev.reciprocal_rank()
    (0.51, 0.5, 0.5)
    """
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    for correct, score in WORKED_EXAMPLE:
        ev.add_case(correct, score)
    return ev


def run(out: TextIO) -> None:
    """Print the worked example's report and tables, then the bundled sample's report."""
    ev = worked_example()
    print("scored_pr demo: the worked example of LingPipe 3.9.2's ScoredPrecisionRecallEvaluation", file=out)
    print("(10 cases, 4 correct, ranked by descending score)\n", file=out)
    print(ev, file=out)
    print("\nUninterpolated precision-recall curve:", file=out)
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(False), out)
    print("\nInterpolated precision-recall curve:", file=out)
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(True), out)

    correct, scores = read_sample()
    sample = ScoredPrecisionRecallEvaluation()
    sample.add_cases(correct, scores)
    print(
        f"\nThe bundled sample: {sample.num_cases:,} scored predictions of a binary classifier, "
        f"{sample.num_positive_ref} correct",
        file=out,
    )
    print("(scored_pr/data/sample.csv; columns id, label, score)\n", file=out)
    print(sample, file=out)
    print("\nYour own predictions: scored-pr report predictions.csv   (see scored-pr report --help)", file=out)

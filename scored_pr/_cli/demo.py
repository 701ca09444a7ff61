"""The embedded demo data: the worked example of LingPipe 3.9.2's documentation."""

from __future__ import annotations

from .._evaluators.exact import ScoredPrecisionRecallEvaluation

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

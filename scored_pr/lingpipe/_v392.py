"""LingPipe 3.9.2's formulas that the main evaluator does not share.

In 3.9.2 every curve has one point per *correct* case and no limit points,
which is what the main evaluator computes with ``ties="stable"``; so the
3.9.2 curves, PR areas, maximum F-measure, precision at ranks 1 and up and
reciprocal rank are the main evaluator's. The break-even point is
:func:`scored_pr._core.scalars.breakeven_point` of the interpolated PR curve, and
the ROC areas are LingPipe's left-to-right floating-point sums
(:func:`scored_pr._core.curves.step_area`, :func:`scored_pr._core.curves.roc_area`),
which can differ in the last digits from the main evaluator's correctly
rounded ones. What is left is the one formula that 3.9.2 computes its own
way.
"""

from __future__ import annotations

from .._core import points as P
def average_precision(curve: P.FloatArray) -> float:
    """3.9.2's ``averagePrecision()``: the mean precision over the rows of ``prCurve(false)``.

    The precisions summed left to right, divided by the number of rows,
    which is the number of correct cases *returned*: misses are ignored.
    NaN for an empty curve (no correct case).
    """
    precisions = curve[:, 1]
    if precisions.size == 0:
        return float("nan")
    # seqsum: a left-to-right loop's rounding, as in Java.
    return P.seqsum(precisions) / precisions.size

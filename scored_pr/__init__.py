"""scored_pr: exact, incremental precision-recall and ROC evaluation of scored predictions.

>>> from scored_pr import ScoredPrecisionRecallEvaluation
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.add_cases([True, False, True], [0.9, 0.7, 0.2])
>>> ev.average_precision()
0.8333333333333333
"""

from ._bounded_evaluation import BoundedEvaluation, Bounds, CurveBand
from ._concurrency import SynchronizedEvaluation
from ._evaluation import ScoredPrecisionRecallEvaluation
from ._kernel import OperatingPoint
from ._multi import MultiQueryEvaluation
from ._stats import Comparison, Interval
from ._uncertainty import compare
from ._version import __version__
from ._windows import WindowedEvaluation
from .functional import (
    area_under_pr_curve,
    area_under_roc_curve,
    average_precision,
    maximum_f_measure,
    pr_breakeven_point,
    pr_curve,
    precision_at,
    r_precision,
    recall_at,
    reciprocal_rank,
    roc_curve,
    roc_points,
    threshold_at_precision,
)

__all__ = [
    "BoundedEvaluation",
    "Bounds",
    "CurveBand",
    "Comparison",
    "Interval",
    "area_under_pr_curve",
    "area_under_roc_curve",
    "average_precision",
    "maximum_f_measure",
    "pr_breakeven_point",
    "pr_curve",
    "precision_at",
    "r_precision",
    "recall_at",
    "reciprocal_rank",
    "roc_curve",
    "roc_points",
    "threshold_at_precision",
    "MultiQueryEvaluation",
    "OperatingPoint",
    "ScoredPrecisionRecallEvaluation",
    "SynchronizedEvaluation",
    "WindowedEvaluation",
    "__version__",
    "compare",
]

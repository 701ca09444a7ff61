"""scored_pr: exact, incremental precision-recall and ROC evaluation of scored predictions.

>>> from scored_pr import ScoredPrecisionRecallEvaluation
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.add_cases([True, False, True], [0.9, 0.7, 0.2])
>>> ev.average_precision()
0.8333333333333333
"""

from ._concurrency import SynchronizedEvaluation
from ._evaluation import ScoredPrecisionRecallEvaluation
from ._kernel import OperatingPoint
from ._multi import MultiQueryEvaluation
from ._stats import Comparison, Interval
from ._uncertainty import compare
from ._version import __version__

__all__ = [
    "Comparison",
    "Interval",
    "MultiQueryEvaluation",
    "OperatingPoint",
    "ScoredPrecisionRecallEvaluation",
    "SynchronizedEvaluation",
    "__version__",
    "compare",
]

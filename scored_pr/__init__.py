"""scored_pr: exact, incremental precision-recall and ROC evaluation of scored predictions.

>>> from scored_pr import ScoredPrecisionRecallEvaluation
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.add_cases([True, False, True], [0.9, 0.7, 0.2])
>>> ev.average_precision()
0.8333333333333333

The public names are imported on first use (PEP 562), so that ``import
scored_pr`` and the ``scored-pr`` command start without loading numpy and
every module: ``scored-pr --help`` costs less than ``import numpy``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:  # what the lazy attributes are, for type checkers and IDEs
    from ._bounded_evaluation import BoundedEvaluation, Bounds, CurveBand
    from ._concurrency import SynchronizedEvaluation
    from ._evaluation import ScoredPrecisionRecallEvaluation
    from ._kernel import OperatingPoint
    from ._multi import MultiQueryEvaluation
    from ._stats import Comparison, Interval
    from ._uncertainty import compare
    from ._validation import UnsupportedQuery
    from ._windows import WindowedEvaluation
    from .functional import (
        area_under_pr_curve,
        area_under_roc_curve,
        average_precision,
        coverage_error,
        label_ranking_average_precision_score,
        label_ranking_loss,
        maximum_f_measure,
        pr_breakeven_point,
        pr_curve,
        precision_at,
        precision_recall_curve,
        r_precision,
        recall_at,
        reciprocal_rank,
        roc_curve,
        roc_points,
        roc_rows,
        threshold_at_precision,
        top_k_accuracy_score,
    )

#: Public name -> the module that defines it (relative to this package).
_LAZY = {
    "BoundedEvaluation": "._bounded_evaluation",
    "Bounds": "._bounded_evaluation",
    "CurveBand": "._bounded_evaluation",
    "WindowedEvaluation": "._windows",
    "SynchronizedEvaluation": "._concurrency",
    "ScoredPrecisionRecallEvaluation": "._evaluation",
    "OperatingPoint": "._kernel",
    "MultiQueryEvaluation": "._multi",
    "Comparison": "._stats",
    "Interval": "._stats",
    "compare": "._uncertainty",
    "UnsupportedQuery": "._validation",
    "area_under_pr_curve": ".functional",
    "area_under_roc_curve": ".functional",
    "average_precision": ".functional",
    "maximum_f_measure": ".functional",
    "pr_breakeven_point": ".functional",
    "pr_curve": ".functional",
    "precision_at": ".functional",
    "r_precision": ".functional",
    "recall_at": ".functional",
    "reciprocal_rank": ".functional",
    "roc_curve": ".functional",
    "roc_points": ".functional",
    "threshold_at_precision": ".functional",
    "coverage_error": ".functional",
    "label_ranking_average_precision_score": ".functional",
    "label_ranking_loss": ".functional",
    "precision_recall_curve": ".functional",
    "roc_rows": ".functional",
    "top_k_accuracy_score": ".functional",
}

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
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "precision_recall_curve",
    "roc_rows",
    "top_k_accuracy_score",
    "MultiQueryEvaluation",
    "OperatingPoint",
    "ScoredPrecisionRecallEvaluation",
    "SynchronizedEvaluation",
    "UnsupportedQuery",
    "WindowedEvaluation",
    "__version__",
    "compare",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first access and keep it as a module attribute."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'scored_pr' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    """The public names (``__all__``) and the module's dunder attributes, nothing else.

    Helpers of this file (``Any``, ``TYPE_CHECKING``, the ``annotations``
    future flag, ``_LAZY``) and private submodules loaded as a side effect of
    a lazy import are not part of the API, so tab completion does not offer them.
    """
    dunder = (name for name in globals() if name.startswith("__") and name.endswith("__"))
    return sorted(set(__all__).union(dunder))

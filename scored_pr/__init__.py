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

from ._imports import install as _install_old_paths
from ._imports import lazy_names
from ._version import __version__

_install_old_paths()  # 0.1.0 pickles name private modules that have moved

if TYPE_CHECKING:  # what the lazy attributes are, for type checkers and IDEs
    from ._evaluators.bounded import BoundedEvaluation, Bounds, CurveBand
    from ._evaluators.distributed import (
        DistributedEvaluation, DistributedMultiLabelEvaluation, DistributedQueryEvaluation,
    )
    from ._evaluators.distributed_sliced import DistributedSlicedEvaluation
    from ._evaluators.synchronized import SynchronizedEvaluation
    from ._evaluators.exact import ScoredPrecisionRecallEvaluation
    from ._core.thresholds import Confusion, OperatingPoint
    from ._core.decisions import Decision, NetBenefit
    from ._kinds import Evaluation
    from ._display import PrecisionRecallDisplay, ReliabilityDisplay, RocDisplay
    from ._evaluators.multi import MultiQueryEvaluation
    from ._evaluators.multilabel import MultiLabelEvaluation
    from ._core.stats import Comparison, Interval
    from ._core.calibration import ReliabilityDiagram
    from ._uncertainty import compare
    from ._validation import UnsupportedQuery
    from ._evaluators.windowed import WindowedEvaluation
    from ._evaluators.sliced import SlicedEvaluation
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
        sliced,
    )

#: Public name -> the module that defines it (relative to this package): every public name but
#: ``__version__``, listed once.
_LAZY = {
    "BoundedEvaluation": "._evaluators.bounded",
    "Bounds": "._evaluators.bounded",
    "CurveBand": "._evaluators.bounded",
    "DistributedEvaluation": "._evaluators.distributed",
    "DistributedMultiLabelEvaluation": "._evaluators.distributed",
    "DistributedQueryEvaluation": "._evaluators.distributed",
    "DistributedSlicedEvaluation": "._evaluators.distributed_sliced",
    "WindowedEvaluation": "._evaluators.windowed",
    "SynchronizedEvaluation": "._evaluators.synchronized",
    "ScoredPrecisionRecallEvaluation": "._evaluators.exact",
    "OperatingPoint": "._core.thresholds",
    "Confusion": "._core.thresholds",
    "Decision": "._core.decisions",
    "NetBenefit": "._core.decisions",
    "Evaluation": "._kinds",
    "MultiQueryEvaluation": "._evaluators.multi",
    "MultiLabelEvaluation": "._evaluators.multilabel",
    "Comparison": "._core.stats",
    "Interval": "._core.stats",
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
    "PrecisionRecallDisplay": "._display",
    "RocDisplay": "._display",
    "SlicedEvaluation": "._evaluators.sliced",
    "sliced": ".functional",
    "ReliabilityDiagram": "._core.calibration",
    "ReliabilityDisplay": "._display",
}

#: The public names: those of _LAZY (the one list of them), and the version. The imports under
#: TYPE_CHECKING above name the same (name, module) pairs for type checkers, which cannot run this
#: file (tests/structure/test_queries.py holds them equal).
__all__ = [*_LAZY, "__version__"]


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY, __all__)

"""LingPipe compatibility: ``ScoredPrecisionRecallEvaluation`` as LingPipe computes it."""

from __future__ import annotations

from ._evaluation import ScoredPrecisionRecallEvaluation
from ._javafmt import double_to_string, format_fixed

__all__ = ["ScoredPrecisionRecallEvaluation", "double_to_string", "format_fixed"]

"""Displays beside the evaluators: what a curve's drawing holds, and the drawing (scikit-learn's ``*Display`` manner).

A display reads an evaluator through its public queries only (it sits below
the evaluators, beside the argument checks): :mod:`.steps` computes the step
points every drawing of a curve uses (``scored_pr.plot``, the displays and
the HTML report), :mod:`.curves` holds :class:`PrecisionRecallDisplay` and
:class:`RocDisplay` (``from_evaluation(ev)``, then ``.plot(ax)``), :mod:`.reliability` holds
:class:`ReliabilityDisplay` (the calibration of a ranking of probabilities).
"""

from __future__ import annotations

from .curves import PrecisionRecallDisplay, RocDisplay
from .reliability import ReliabilityDisplay

__all__ = ["PrecisionRecallDisplay", "ReliabilityDisplay", "RocDisplay"]

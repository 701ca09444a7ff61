"""Displays beside the evaluators: what a curve's drawing holds, and the drawing (scikit-learn's ``*Display`` manner).

A display reads an evaluator through its public queries only (it sits below
the evaluators, beside the argument checks): :mod:`.steps` computes the step
points every drawing of a curve uses (``scored_pr.plot``, the displays and
the HTML report), :mod:`.curves` holds :class:`PrecisionRecallDisplay` and
:class:`RocDisplay` (``from_evaluation(ev)``, then ``.plot(ax)``).
"""

from __future__ import annotations

from .curves import PrecisionRecallDisplay, RocDisplay

__all__ = ["PrecisionRecallDisplay", "RocDisplay"]

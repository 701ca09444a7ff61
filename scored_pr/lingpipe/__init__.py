"""LingPipe compatibility: a camelCase drop-in that reproduces LingPipe 3.9.2 or 4.1.0 bit for bit.

:class:`ScoredPrecisionRecallEvaluation` here has the method names and
signatures of ``com.aliasi.classify.ScoredPrecisionRecallEvaluation`` and
returns what the chosen LingPipe release returns, quirks included, so a port
of a Java pipeline can be checked against the numbers it reported before
moving to the main API (:class:`scored_pr.ScoredPrecisionRecallEvaluation`).
``version="3.9.2"`` (the default) or ``version="4.1"`` (``"4.1.0"``, LingPipe's
last release) picks the release; see ``docs/porting-from-lingpipe.md`` for a
method-by-method table of both and how to tell from a pipeline's output
which one produced it.

LingPipe 3.9.2, in short: curves with one point per correct case and no
limit points, step-function areas, an average precision that ignores
misses, a break-even point read off the interpolated PR curve, and
``precisionAt`` NaN for rank 0 and beyond the cases added.

LingPipe 4.1.0, in short: curves with a point per rank and limit points,
trapezoidal areas, an average precision that counts misses,
``addNegativeMisses``, ``numPositiveRef``/``numNegativeRef``, misses counted
in ``numCases()``, ``rPrecision()`` (read off ``prCurve(false)`` by index)
as the break-even point, ``elevenPtInterpPrecision()``, ``precisionAt(0)``
= 1.0, and a ragged interpolated ``prScoreCurve`` (a :class:`RaggedCurve`).

Both print ``toString()`` with the same inverted loop condition: the
``Precision at`` lines appear only for ranks above the number of cases
added. Numbers in text are rendered as Java renders them. The two renderers
are exported for ported code that prints numbers itself:
:func:`double_to_string` is Java's ``Double.toString`` (what ``"AP=" + ap``
prints in Java) and :func:`format_fixed` is Java's ``String.format("%W.Pf")``.

Classifier evaluation, as LingPipe 3.9.1 and later do it:
:class:`ScoredClassifierEvaluator` collects (reference category,
:class:`ScoredClassification`) cases and answers LingPipe's rank and score
statistics (``rankCount``, ``averageRank``, ``meanReciprocalRank``, ...), its
first-best :class:`ConfusionMatrix` and one-versus-all
:class:`PrecisionRecallEvaluation`, and ``scoredOneVersusAll``, which returns
a :class:`ScoredPrecisionRecallEvaluation` of the evaluator's ``version``.
The porting guide's classifier section lists what is covered and where the
port deliberately differs.

One deliberate divergence from 3.9.2: ``addMisses`` with a negative count
raises ValueError (as 4.1 does); 3.9.2 accepted it and silently lowered
every recall denominator.

Examples
--------
>>> from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.addCase(True, 0.9)
>>> ev.addCase(False, 0.8)
>>> ev.addCase(True, 0.4)
>>> ev.addMisses(1)
>>> ev.averagePrecision()  # (1/1 + 2/3) / 2: 3.9.2 ignores the miss
0.8333333333333333
>>> print(ev)
  Area Under PR Curve (interpolated)=0.5555555555555556
  Area Under PR Curve (uninterpolated)=0.5555555555555556
  Area Under ROC Curve (interpolated)=0.3333333333333333
  Area Under ROC Curve (uninterpolated)=0.3333333333333333
  Average Precision=0.8333333333333333
  Maximum F(1) Measure=0.6666666666666666
  BEP (Precision-Recall break even point)=0.0
  Reciprocal Rank=1.0
  Precision at 5=NaN
  Precision at 10=NaN
  Precision at 25=NaN
  Precision at 100=NaN
  Precision at 500=NaN

The same calls on LingPipe 4.1:

>>> ev = ScoredPrecisionRecallEvaluation(version="4.1")
>>> ev.addCase(True, 0.9)
>>> ev.addCase(False, 0.8)
>>> ev.addCase(True, 0.4)
>>> ev.addMisses(1)
>>> ev.averagePrecision()  # (1/1 + 2/3) / 3: 4.1 counts the miss
0.5555555555555555
>>> print(ev)  # the same layout; the Precision at lines are numbers in 4.1
  Area Under PR Curve (interpolated)=0.7222222222222222
  Area Under PR Curve (uninterpolated)=0.6388888888888888
  Area Under ROC Curve (interpolated)=0.6666666666666666
  Area Under ROC Curve (uninterpolated)=0.3333333333333333
  Average Precision=0.5555555555555555
  Maximum F(1) Measure=0.6666666666666666
  BEP (Precision-Recall break even point)=0.5
  Reciprocal Rank=1.0
  Precision at 5=0.4
  Precision at 10=0.2
  Precision at 25=0.08
  Precision at 100=0.02
  Precision at 500=0.004
"""

from __future__ import annotations

from ._classifier import Classified, ScoredClassification, ScoredClassifierEvaluator
from ._confusion import ConfusionMatrix
from ._evaluation import VERSIONS, ScoredPrecisionRecallEvaluation
from ._first_best import PrecisionRecallEvaluation
from ._javafmt import double_to_string, format_fixed
from ._v41 import RaggedCurve

__all__ = [
    "VERSIONS",
    "Classified",
    "ConfusionMatrix",
    "PrecisionRecallEvaluation",
    "RaggedCurve",
    "ScoredClassification",
    "ScoredClassifierEvaluator",
    "ScoredPrecisionRecallEvaluation",
    "double_to_string",
    "format_fixed",
]

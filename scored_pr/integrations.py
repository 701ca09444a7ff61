"""Sinks that send streaming summaries to TensorBoard, MLflow and Prometheus.

Each sink is a :class:`~scored_pr.streaming.Sink`: pass it to
:class:`~scored_pr.streaming.SummaryLogger` as the callback (it then also
receives the evaluator, and draws its exact curves), or call it with any
``summary()`` dict. The packages are optional extras, imported only when a
sink is built: the extras ``tensorboard``, ``mlflow`` and ``prometheus``
(``pip install '.[tensorboard]'`` in a checkout); ``import scored_pr`` never
needs them.

What each sink writes:

:class:`TensorBoard`
    Every numeric summary entry as a scalar ``<prefix>/<key>`` (window
    figures as ``<prefix>/window_<key>``) at the summary's ``step`` and
    ``time``; and, when it receives the evaluator, the exact PR curve as a
    ``pr_curves`` plugin entry ``<prefix>/pr_curve/pr_curves`` (the window's
    as ``<prefix>/window_pr_curve/pr_curves``): at most ``max_points``
    operating points, each a point of the evaluator's ``pr_curve()``, with
    its TP, FP, TN, FN, precision and recall (for a
    :class:`~scored_pr.BoundedEvaluation`, the exact operating points at its
    bins' edges, see :func:`exact_pr_points`).
:class:`MLflow`
    Every finite numeric entry as a metric at the summary's ``step`` (and
    ``time`` as timestamp) into the active run, from a background thread of
    the sink, so that a slow tracking server never holds up ``add_case``; on close, the
    curves as artifacts: ``<artifact_path>/curves.json`` (summary, PR curve
    with scores, ROC curve) and ``<artifact_path>/curves.png`` (PR and ROC
    side by side), and ``window_curves.json``/``.png`` for a window (for a
    :class:`~scored_pr.BoundedEvaluation`, its estimate curves with the
    boxes that hold the exact ones, see :func:`curves_json`).
:class:`Prometheus`
    One gauge per measure, ``<namespace>_<key>``, with the label ``scope``
    ``"cumulative"`` or ``"window"`` (side by side in one metric family) and
    the constant ``labels``; and ``<namespace>_last_summary_timestamp_seconds``
    and ``<namespace>_summary_step`` (the summary's ``time`` and ``step``).

Every kind, nested summaries included: a summary is read by
:func:`summary_entries`, which yields each of its numbers with what it
measures, its label and its average, and the sinks write all of them or,
when one value is not a number (or two would get one name), none. For a
:class:`~scored_pr.MultiLabelEvaluation`, whose summary holds ``labels``
({label: that label's summary}) and {average: value} per averaged measure:

- TensorBoard: ``<prefix>/<label>/<measure>`` (``scored_pr/cat/average_precision``),
  ``<prefix>/<average>/<measure>`` (``scored_pr/macro/average_precision``),
  ``<prefix>/num_rows``; one exact PR curve per label,
  ``<prefix>/<label>/pr_curve``, and the pooled ranking's (the micro
  average's), ``<prefix>/micro/pr_curve``.
- MLflow: the same names after ``prefix`` (``cat/average_precision``,
  ``macro/average_precision``); on close, ``<artifact_path>/<label>/curves.json``
  and ``.png`` per label and ``<artifact_path>/micro/curves.*``.
- Prometheus: ``<namespace>_<measure>`` with two more labels, ``label`` (the
  class) and ``average``, one of them empty:
  ``scored_pr_average_precision{average="",label="cat",scope="cumulative"}``,
  ``scored_pr_average_precision{average="macro",label="",scope="cumulative"}``;
  ``scope`` is ``"window"`` for ``MultiLabelEvaluation(labels, window=N)``.

A :class:`~scored_pr.MultiQueryEvaluation`'s summary is flat: its totals and
means over queries are written as any flat summary's numbers (no curve).
Characters a tool refuses in a name (MLflow: all but letters, digits, ``_``,
``-``, ``.``, space; Prometheus: all but letters, digits, ``_``) are written
as ``_``.
"""

from __future__ import annotations

from . import _evaluators  # noqa: F401 - every kind registered
from ._sinks.entries import AVERAGES, Entry, curves_json, exact_pr_points, summary_entries
from ._sinks.mlflow import MLflow
from ._sinks.prometheus import Prometheus
from ._sinks.tensorboard import TensorBoard

__all__ = ["AVERAGES", "Entry", "MLflow", "Prometheus", "TensorBoard", "curves_json", "exact_pr_points", "summary_entries"]

# reprs, pickles and the docs name the public module, wherever the sinks' files are
for _public in (Entry, MLflow, Prometheus, TensorBoard, curves_json, exact_pr_points, summary_entries):
    _public.__module__ = __name__
del _public

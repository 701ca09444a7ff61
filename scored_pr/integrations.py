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

import functools
import math
import re
import os
import queue
import threading
import time as _time
import weakref
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ._core import points as P
from ._evaluators.exact import ScoredPrecisionRecallEvaluation
from ._evaluators.synchronized import SynchronizedEvaluation
from . import _kinds
from . import _evaluators  # noqa: F401 - every kind registered
from ._validation import (
    check_evaluation,
    check_instance,
    check_max_points,
    check_metric_labels,
    check_metric_namespace,
    check_mlflow_options,
    check_sink_options,
    check_summary_writer,
    SUMMARY_LABEL_NAMES,
    check_no_label_clash,
    check_tensorboard_options,
    summary_name_clash,
    summary_value_error,
)
from .streaming import WINDOW_PREFIX, Sink, json_safe
from ._validation.slices import MISSING_TEXT as MISSING_VALUE_TEXT, check_no_key_clash

__all__ = ["AVERAGES", "Entry", "MLflow", "Prometheus", "TensorBoard", "curves_json", "exact_pr_points", "summary_entries"]

#: Summary keys that are not measures: the step and time a summary was made at.
_NOT_MEASURES = frozenset({"step", "time"})


def _need(package: str, extra: str, sink: str) -> Any:
    """Import an optional package or explain which extra installs it."""
    import importlib

    try:
        return importlib.import_module(package)
    except ImportError as exc:
        raise ImportError(
            f"scored_pr.integrations.{sink} needs the '{package}' package: the '{extra}' extra of scored-pr "
            f"(pip install '.[{extra}]' in a checkout of scored_pr)"
        ) from exc


_PER_QUERY = "it holds one ranking per query; pass one query's evaluator, evaluation[query]."


def _curve_sources(evaluation: Any) -> list[tuple[tuple[str, ...], Any]]:
    """(name parts, evaluator of one ranking) of every curve a sink draws for ``evaluation``, from its kind.

    One ranking (bounded too): itself, under no part. One ranking per label:
    each label's evaluator under ``(label,)`` and the pooled ranking (the
    micro average's) under ``("micro",)``. Anything else: no curve.
    """
    kind = _kinds.kind_of(evaluation)
    if kind is None:
        return []
    if kind.holds in ("ranking", "bounded"):
        return [((), evaluation)]
    if kind.holds == "per_label":
        return [*(((str(label),), evaluation[label]) for label in evaluation.labels), (("micro",), evaluation.pooled())]
    if kind.holds == "per_slice":  # each slice's evaluator under its name (overall, region=eu)
        return [((str(pairs),), evaluation[pairs]) for pairs in evaluation.slices()]
    return []


#: The keys of a mapping that hold one value per averaging mode: each is an entry's average.
AVERAGES = ("micro", "macro", "weighted", "samples")
#: The top-level key whose mapping holds one summary per label: its keys are the entries' labels.
LABELS_KEY = "labels"
#: The top-level keys whose mappings are keyed by label: ``labels`` (each label's ranking summary) and
#: ``classes`` (each class's precision, recall, F and support at the top-scoring class).
LABEL_KEYS = (LABELS_KEY, "classes")


class Entry(NamedTuple):
    """One number of a summary, as a sink writes it (see the module's notes)."""

    key: str  #: where it is in the summary: its keys (and sequence indices) joined by "/"
    measure: tuple[str, ...]  #: the keys that name what it measures (neither label nor average)
    label: str | None  #: the label it belongs to (a key of the summary's ``labels``), if any
    average: str | None  #: the averaging mode it is (a key in AVERAGES below the top level), if any
    value: float

    def parts(self) -> tuple[str, ...]:
        """Its name's parts: label, then average, then the measure's keys."""
        return tuple(p for p in (self.label, self.average) if p is not None) + self.measure


def summary_entries(summary: Mapping[str, Any], func: str = "summary_entries") -> list[Entry]:
    """Every number of a summary, flat or nested, with what it measures, its label and its average.

    The rule every sink follows, so that nothing is dropped:

    - ``step`` and ``time`` (top level) are the summary's step and time, not
      entries.
    - A number (int, float, bool, numpy scalar, :class:`~scored_pr.Bounds`)
      is an entry; ``None`` is NaN (JSON's null, as
      :func:`~scored_pr.streaming.json_safe` writes NaN).
    - A mapping is walked: under the top-level keys ``labels`` and
      ``classes`` (:data:`LABEL_KEYS`) each key is a label (``str(label)``); a key in :data:`AVERAGES` (``micro``,
      ``macro``, ``weighted``, ``samples``) is an average (at the top
      level, only when it holds a mapping); every other key is part of the
      measure's name. A number right under a label or an average is named
      by its top-level key.
    - A list, tuple or numpy array is walked with its indices (``"0"``,
      ``"1"``...) as parts of the measure's name.
    - Anything else (a string, an object) refuses the whole summary.

    Parameters
    ----------
    summary : mapping
        A ``summary()`` of any kind (with ``step`` and ``time``, as
        :class:`~scored_pr.streaming.SummaryLogger` hands it over), or any
        mapping of names to numbers.
    func : str
        The name errors carry.

    Returns
    -------
    list of Entry
        In the summary's order, each with its ``key`` (its keys joined by
        ``"/"``), ``measure``, ``label``, ``average`` and ``value`` (float).

    Raises
    ------
    TypeError
        If a value is none of the above (naming its key and its type), or
        ``summary`` is not a mapping; nothing is returned.

    Examples
    --------
    >>> from scored_pr import MultiLabelEvaluation
    >>> ev = MultiLabelEvaluation(["cat", "dog"])
    >>> ev.add_cases([[1, 0], [0, 1], [1, 1]], [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6]])
    >>> entries = summary_entries(ev.summary())
    >>> [e.parts() for e in entries if e.measure == ("average_precision",)]
    [('cat', 'average_precision'), ('dog', 'average_precision'), ('macro', 'average_precision'), ('micro', 'average_precision'), ('weighted', 'average_precision'), ('samples', 'average_precision')]
    >>> summary_entries({"num_cases": 3, "labels": "cat"})
    Traceback (most recent call last):
    ...
    TypeError: summary_entries: argument 'summary' must map names to numbers (or None for NaN), to mappings of them or to sequences of them; got 'cat' (str) at key 'labels' instead. Nothing was written.
    """
    if not isinstance(summary, Mapping):
        raise summary_value_error(func, "", summary)
    out: list[Entry] = []

    def walk(value: Any, path: tuple[str, ...], measure: tuple[str, ...], label: str | None,
             average: str | None) -> None:
        if value is None or isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
            if not measure:  # a number right under a label or an average: its top-level key names it
                measure, average = path[:1], (None if average == path[0] else average)
            out.append(Entry("/".join(path), measure, label, average, math.nan if value is None else float(value)))
        elif isinstance(value, Mapping):
            for key, each in value.items():
                name = str(key)
                if len(path) == 1 and path[0] in LABEL_KEYS and label is None:
                    walk(each, path + (name,), measure, name, average)
                elif name in AVERAGES and average is None:
                    walk(each, path + (name,), measure, label, name)
                else:
                    walk(each, path + (name,), measure + (name,), label, average)
        elif isinstance(value, (list, tuple, np.ndarray)):
            items = value.tolist() if isinstance(value, np.ndarray) else value
            for i, each in enumerate(items):
                walk(each, path + (str(i),), measure + (str(i),), label, average)
        else:
            raise summary_value_error(func, "/".join(path), value)

    for key, value in summary.items():
        if key in _NOT_MEASURES:
            continue
        name = str(key)
        if isinstance(value, Mapping) and name in LABEL_KEYS:
            walk(value, (name,), (), None, None)
        elif isinstance(value, Mapping) and name in AVERAGES:
            walk(value, (name,), (), None, name)
        else:
            walk(value, (name,), (name,), None, None)
    return out


def _named(entries: list[Entry], name: Callable[[Entry], str], func: str) -> dict[str, float]:
    """{name(entry): value}; two entries of one name refuse the summary (ValueError naming both)."""
    out: dict[str, float] = {}
    keys: dict[str, str] = {}
    for entry in entries:
        n = name(entry)
        if n in keys:
            raise summary_name_clash(func, n, keys[n], entry.key)
        keys[n] = entry.key
        out[n] = entry.value
    return out


#: The most metrics MLflow takes in one ``log_batch`` call.
_MLFLOW_BATCH = 1000


def _mlflow_part(part: str) -> str:
    """One part of an MLflow metric or artifact name: what MLflow refuses in it (and a bare "." or "..") as "_"."""
    part = re.sub(r"[^\w.\- ]", "_", part)
    return part if part.strip(".") else part.replace(".", "_") or "_"


def _step_and_time(summary: Mapping[str, Any], count: int) -> tuple[int, float]:
    step = summary.get("step")
    when = summary.get("time")
    return (count if step is None else int(step)), (_time.time() if when is None else float(when))


def exact_pr_points(evaluation: Any, max_points: int | None = None) -> dict[str, npt.NDArray[np.float64]]:
    """Operating points of the exact PR curve with their confusion counts, at most ``max_points`` of them.

    Parameters
    ----------
    evaluation : any single-ranking evaluator kind
        The evaluator (a window or a shared evaluator is read through its
        ``snapshot()``). For a :class:`~scored_pr.BoundedEvaluation` the
        points are the exact operating points at the bins' edges: accepting
        every case scored at least a bin's lower end, for each bin holding a
        correct case (``threshold`` is that lower end). They are exact (the
        bins keep the weight above each edge), and while the summary is
        exact they are the exact evaluator's (grouped) points.
    max_points : int, optional
        The most points to return (>= 2); all of them by default. When the
        curve has more, points evenly spaced in rank along the curve are
        kept, always with both ends.

    Returns
    -------
    dict of numpy.ndarray (float64), each of shape (k,)
        ``tp``, ``fp``, ``tn``, ``fn``, ``precision``, ``recall`` and
        ``threshold`` (the score of the cut-off), in decreasing recall order
        (increasing threshold, the order of TensorBoard's ``pr_curves``
        plugin). Every ``(recall, precision)`` is a row of
        ``evaluation.pr_curve()`` and every threshold the score of
        ``pr_score_curve()``; ``tp + fn`` is ``num_positive_ref`` (misses
        included) and ``fp + tn`` ``num_negative_ref``. With sample weights
        the counts are weights. Empty arrays when no correct case was added.

    Raises
    ------
    TypeError
        If ``evaluation`` is not an evaluator, or ``max_points`` is not an
        int.
    UnsupportedQuery
        For a MultiQueryEvaluation (one ranking per query).
    ValueError
        If ``max_points`` < 2.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> p = exact_pr_points(ev)
    >>> p["recall"].tolist(), p["precision"].tolist(), p["tp"].tolist(), p["tn"].tolist()
    ([1.0, 0.5], [0.6666666666666666, 1.0], [2.0, 1.0], [1.0, 2.0])
    """
    check_max_points(max_points, "exact_pr_points")
    kind, ev = check_evaluation(evaluation, "exact_pr_points", multi=_PER_QUERY)
    if kind == "bounded":
        _, lo, pos, neg = ev.bins()
        has = pos > 0
        tp, fp = np.cumsum(pos)[has], np.cumsum(neg)[has]  # the weight accepted at each edge: exact
        with np.errstate(divide="ignore", invalid="ignore"):
            recall = tp / np.float64(ev.positive_weight)
        curve = np.column_stack((recall, tp / (tp + fp), lo[has]))
    else:
        curve = ev.pr_score_curve()  # rows (recall, precision, score), increasing recall
        scores, correct, weights = ev.ranked_cases()
        points = P.operating_points(np.negative(scores), correct, ev.ties, weights)  # the evaluator's own
        tp = np.asarray(points.tp, dtype=np.float64)
        fp = np.asarray(points.fp, dtype=np.float64)
    assert tp.shape[0] == curve.shape[0]  # one operating point per curve row
    n = curve.shape[0]
    if max_points is not None and n > max_points:
        keep = np.unique(np.rint(np.linspace(0, n - 1, int(max_points))).astype(np.int64))
    else:
        keep = np.arange(n)
    keep = keep[::-1]  # decreasing recall: TensorBoard's increasing threshold
    pos, neg = float(ev.positive_weight), float(ev.negative_weight)
    return {
        "tp": tp[keep],
        "fp": fp[keep],
        "tn": neg - fp[keep],
        "fn": pos - tp[keep],
        "precision": curve[keep, 1].astype(np.float64),
        "recall": curve[keep, 0].astype(np.float64),
        "threshold": curve[keep, 2].astype(np.float64),
    }


# --------------------------------------------------------------------- TensorBoard


class _EventWriter:
    """The two calls the sink needs (``add_scalar``, ``add_pr_curve_raw``), on tensorboard's own writer.

    Written with the ``tensorboard`` package's event file writer and
    protocol buffers: no TensorFlow, no torch, no tensorboardX.
    """

    def __init__(self, logdir: str, flush_secs: float) -> None:
        from tensorboard.summary.writer.event_file_writer import EventFileWriter

        self._file = EventFileWriter(logdir, flush_secs=flush_secs)

    def _add(self, summary: Any, step: int, walltime: float) -> None:
        from tensorboard.compat.proto import event_pb2

        self._file.add_event(event_pb2.Event(summary=summary, step=step, wall_time=walltime))

    def add_scalar(self, tag: str, value: float, global_step: int, walltime: float) -> None:
        from tensorboard.compat.proto import summary_pb2

        value_pb = summary_pb2.Summary.Value(tag=tag, simple_value=value)
        self._add(summary_pb2.Summary(value=[value_pb]), global_step, walltime)

    def add_pr_curve_raw(
        self, tag: str, tp: Any, fp: Any, tn: Any, fn: Any, precision: Any, recall: Any,
        global_step: int, num_thresholds: int, walltime: float, description: str = "",
    ) -> None:
        from tensorboard.compat.proto import summary_pb2
        from tensorboard.plugins.pr_curve import metadata
        from tensorboard.util import tensor_util

        # The layout of tensorboard.plugins.pr_curve.summary.raw_data_pb, which needs TensorFlow.
        meta = metadata.create_summary_metadata(display_name=tag, description=description, num_thresholds=num_thresholds)
        data = np.stack((tp, fp, tn, fn, precision, recall)).astype(np.float32)
        value_pb = summary_pb2.Summary.Value(
            tag=f"{tag}/pr_curves", metadata=meta, tensor=tensor_util.make_tensor_proto(data)
        )
        self._add(summary_pb2.Summary(value=[value_pb]), global_step, walltime)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class TensorBoard(Sink):
    """Write summaries and the exact PR curve to TensorBoard event files.

    Parameters
    ----------
    target : str, os.PathLike or writer
        A log directory (an event file is created in it, written with the
        ``tensorboard`` package alone: no TensorFlow), or a writer that has
        ``add_scalar`` and ``add_pr_curve_raw`` such as
        ``torch.utils.tensorboard.SummaryWriter`` or tensorboardX's (its
        file is flushed, not closed, by :meth:`close`).
    prefix : str, default "scored_pr"
        Tag prefix: scalars are ``<prefix>/<key>``.
    max_points : int, default 127
        The most operating points per PR curve entry (>= 2), chosen from the
        exact curve (see :func:`exact_pr_points`); 127 is TensorBoard's own
        default number of thresholds.
    curves : bool, default True
        Write the PR curve when the evaluator is handed over (by
        :class:`~scored_pr.streaming.SummaryLogger`).
    flush_secs : float, default 10.0
        How often a log directory's file is flushed (also at :meth:`close`):
        a finite number of seconds > 0.

    Raises
    ------
    TypeError
        If ``target`` is neither a path nor a writer, ``prefix`` is not a
        str, ``max_points`` not an int, ``curves`` not a bool or
        ``flush_secs`` not a number.
    ValueError
        If ``max_points`` < 2 or ``flush_secs`` is not finite and > 0.

    Notes
    -----
    TensorBoard's own ``pr_curve`` summary bins predictions into evenly
    spaced thresholds in [0, 1]; this sink writes the exact curve's points
    instead, in the plugin's raw format (TP, FP, TN, FN, precision, recall
    per point, stored as float32). TensorBoard labels the points with
    "thresholds" i / (k - 1): read them as the points' order, not as scores
    (:func:`exact_pr_points` gives the scores). Each summary writes one PR
    curve entry at its step, so the step slider walks through the stream;
    a :class:`~scored_pr.BoundedEvaluation` writes the exact points at its
    bins' edges (:func:`exact_pr_points`). Cost: O(n) per summary for n
    cases (O(bins) for a bounded summary), what the summary itself costs.
    A :class:`~scored_pr.MultiLabelEvaluation` writes k + 1 curves per
    summary, ``<prefix>/<label>/pr_curve`` for each of its k labels and
    ``<prefix>/micro/pr_curve`` for the pooled ranking (each built once
    after a change, as ``summary()`` builds them), and its scalars
    ``<prefix>/<label>/<measure>`` and ``<prefix>/<average>/<measure>``.

    Examples
    --------
    >>> import tempfile
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> from scored_pr.streaming import SummaryLogger
    >>> from scored_pr.integrations import TensorBoard
    >>> logdir = tempfile.mkdtemp()
    >>> with SummaryLogger(ScoredPrecisionRecallEvaluation(), TensorBoard(logdir), every=2) as ev:
    ...     ev.add_cases([True, False, True, True], [0.9, 0.8, 0.4, 0.3])
    """

    def __init__(
        self, target: Any, *, prefix: str = "scored_pr", max_points: int = 127, curves: bool = True,
        flush_secs: float = 10.0,
    ) -> None:
        check_sink_options("TensorBoard", max_points, prefix=prefix)
        curves, flush_secs = check_tensorboard_options(curves, flush_secs)
        if check_summary_writer(target, "TensorBoard"):
            _need("tensorboard", "tensorboard", "TensorBoard")
            self._writer: Any = _EventWriter(os.fspath(target), flush_secs)
            self._own = True
        else:
            self._writer = target
            self._own = False
        self.prefix = prefix
        self.max_points = int(max_points)
        self.curves = curves
        self._count = 0

    @property
    def writer(self) -> Any:
        """The writer: the one given, or the sink's own on a log directory."""
        return self._writer

    def write(self, summary: Mapping[str, Any], evaluation: Any = None, window: Any = None) -> None:
        """Write every number of ``summary`` as a scalar and, given an evaluator, its exact PR curves (and the window's).

        Scalars are ``<prefix>/<name>``, the name being the parts of
        :func:`summary_entries` joined by ``/``: ``<prefix>/<key>`` for a
        flat summary, ``<prefix>/<label>/<measure>`` and
        ``<prefix>/<average>/<measure>`` for a multi-label one. A summary
        with a value that is not a number, or two entries of one name, is
        refused whole (TypeError, ValueError) before anything is written.
        """
        step, when = _step_and_time(summary, self._count + 1)
        scalars = _named(summary_entries(summary, "TensorBoard.write"),
                         lambda e: f"{self.prefix}/" + "/".join(e.parts()), "TensorBoard.write")
        self._count += 1
        for tag, value in scalars.items():
            self._writer.add_scalar(tag, value, global_step=step, walltime=when)
        if not self.curves:
            return
        for ev, name in ((evaluation, "pr_curve"), (window, WINDOW_PREFIX + "pr_curve")):
            for parts, each in _curve_sources(ev):
                self._write_curve("/".join((self.prefix, *parts, name)), each, step, when)

    def _write_curve(self, tag: str, evaluation: Any, step: int, when: float) -> None:
        p = exact_pr_points(evaluation, self.max_points)
        k = p["tp"].shape[0]
        if k == 0:  # no correct case yet: no curve
            return
        description = (
            f"Exact PR curve (scored_pr): {k} operating points of the exact curve. The plugin's threshold axis "
            "is the points' order, not their scores."
        )
        if self._own:
            self._writer.add_pr_curve_raw(
                tag, p["tp"], p["fp"], p["tn"], p["fn"], p["precision"], p["recall"],
                global_step=step, num_thresholds=k, walltime=when, description=description,
            )
        else:
            self._writer.add_pr_curve_raw(
                tag, p["tp"], p["fp"], p["tn"], p["fn"], p["precision"], p["recall"],
                global_step=step, num_thresholds=k, walltime=when,
            )

    def flush(self) -> None:
        """Write what is buffered to the event file."""
        self._writer.flush()

    def close(self, evaluation: Any = None, window: Any = None) -> None:
        """Flush; close the event file if the sink opened it (a writer given to it stays open)."""
        if self._own:
            self._writer.close()
        else:
            self._writer.flush()

    def __repr__(self) -> str:
        return f"TensorBoard(prefix={self.prefix!r}, max_points={self.max_points})"


# ------------------------------------------------------------------------- MLflow


class _Worker:
    """One daemon thread that runs a sink's calls in order, so that the caller never waits for a server.

    At most ``max_pending`` calls wait; :meth:`submit` never blocks (False
    when full). A call that raises is counted and its first exception kept
    for :meth:`failures`, which reports and clears them.
    """

    def __init__(self, name: str, max_pending: int) -> None:
        self._name = name
        self._jobs: queue.Queue[Callable[[], None]] = queue.Queue(maxsize=max_pending)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._failed = 0
        self._first: BaseException | None = None

    def submit(self, job: Callable[[], None], timeout: float = 0.0) -> bool:
        """Queue ``job``, waiting at most ``timeout`` seconds for room; whether it was queued."""
        with self._lock:
            if self._thread is None:  # started by the first call: a sink that never writes has no thread
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
        try:
            self._jobs.put(job, timeout > 0, timeout if timeout > 0 else None)
        except queue.Full:
            return False
        return True

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job()
            except BaseException as exc:  # kept for the caller's next call: reported, not swallowed
                with self._lock:
                    self._failed += 1
                    self._first = self._first or exc
            finally:
                self._jobs.task_done()

    def wait(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for the calls submitted so far; return how many are not done."""
        deadline = _time.monotonic() + timeout
        done = self._jobs.all_tasks_done
        with done:
            while self._jobs.unfinished_tasks:
                left = deadline - _time.monotonic()
                if left <= 0:
                    break
                done.wait(left)
            return int(self._jobs.unfinished_tasks)

    def failures(self) -> tuple[int, BaseException | None]:
        """How many calls failed since the last look, and the first exception; then forget them."""
        with self._lock:
            got = (self._failed, self._first)
            self._failed, self._first = 0, None
        return got


class MLflow(Sink):
    """Log summaries to the active MLflow run, and the curves as artifacts when the logger closes.

    Parameters
    ----------
    prefix : str, default ""
        Prepended to every metric name (``"val/"`` gives ``val/average_precision``).
    artifact_path : str, default "scored_pr"
        The run's artifact directory for the curves.
    curves : bool, default True
        On :meth:`close` with an evaluator, log ``curves.json`` and
        ``curves.png`` (PR and ROC side by side; needs matplotlib), and
        ``window_curves.*`` for a window.
    timeout : float, default 30.0
        The most seconds :meth:`close` waits for the calls still running
        (a finite number > 0).
    max_pending : int, default 100
        The most summaries waiting to be logged (an int >= 1); a summary
        written while that many wait is dropped, and the write raises.

    Raises
    ------
    TypeError
        If ``prefix`` or ``artifact_path`` is not a str, ``curves`` not a
        bool, ``timeout`` not a number or ``max_pending`` not an int.
    ValueError
        If ``timeout`` is not finite and > 0, or ``max_pending`` < 1.

    Notes
    -----
    Metrics go to ``MlflowClient().log_batch`` as ``Metric(key, value,
    timestamp=summary["time"] in ms, step=summary["step"])``: by default the step is the number of
    cases seen, or what ``SummaryLogger(step=...)`` returns. NaN and
    infinite values (a measure not defined yet, such as
    ``precision_at_10`` before 10 cases) are not logged: the metric's
    history simply starts later. The JSON artifact holds the summary
    (:func:`~scored_pr.streaming.json_safe`), the PR curve as ``[recall,
    precision, score]`` rows and the ROC curve as ``[recall,
    rejection_recall]`` rows (non-finite scores as null). ``mlflow-skinny``
    suffices; a local file store needs ``MLFLOW_ALLOW_FILE_STORE=true`` from
    MLflow 3 on (or use ``sqlite:///mlflow.db`` with full ``mlflow``).

    The calls to MLflow run in a background thread of the sink, in order:
    a :meth:`write` (and so the ``add_case`` that made a summary) never
    waits for the tracking server, which may take minutes to time out when
    it cannot be reached. Each summary goes to the run active in the
    writing thread; when none is, the sink starts one (in its thread) and
    ends it on :meth:`close`. A call that failed is reported by the next
    :meth:`write` or :meth:`close`, which raises :class:`RuntimeError`
    with the first error and how many failed
    (:class:`~scored_pr.streaming.SummaryLogger` logs and counts it in
    ``callback_errors``). :meth:`close` logs the curves, waits at most
    ``timeout`` seconds for every call, and raises :class:`TimeoutError`
    if some are still running (they go on in the background).
    """

    def __init__(self, *, prefix: str = "", artifact_path: str = "scored_pr", curves: bool = True,
                 timeout: float = 30.0, max_pending: int = 100) -> None:
        check_sink_options("MLflow", prefix=prefix, artifact_path=artifact_path)
        curves, timeout, max_pending = check_mlflow_options(curves, timeout, max_pending)
        self._mlflow = _need("mlflow", "mlflow", "MLflow")
        self.prefix = prefix
        self.artifact_path = artifact_path.strip("/")
        self.curves = curves
        self.timeout = timeout
        self.max_pending = max_pending
        self._count = 0
        self._dropped = 0
        self._worker = _Worker("scored_pr MLflow sink", max_pending)
        self._own_run: str | None = None  # the run the sink started (in its thread), when none was active

    def _run_id(self) -> str | None:
        """The run active in the calling thread (MLflow's active run is per thread), or None."""
        run = self._mlflow.active_run()
        return None if run is None else str(run.info.run_id)

    def _target(self, run_id: str | None) -> str:
        """In the sink's thread: the run to log to, starting one if the writer had none active."""
        if run_id is not None:
            return run_id
        if self._own_run is None:
            self._own_run = str(self._mlflow.start_run().info.run_id)
        return self._own_run

    def _submit(self, job: Callable[[], None], what: str) -> None:
        if not self._worker.submit(job):
            self._dropped += 1
            raise RuntimeError(
                f"MLflow: {what} is dropped: {self.max_pending} calls are still waiting for the tracking server "
                f"({self._mlflow.get_tracking_uri()!r}; is it reachable?)"
            )

    def _report(self) -> None:
        """Raise what failed in the sink's thread since the last report."""
        failed, first = self._worker.failures()
        if failed:
            raise RuntimeError(
                f"MLflow: {failed} logging call{'' if failed == 1 else 's'} failed; the first: "
                f"{type(first).__name__}: {first}"
            ) from first

    def write(self, summary: Mapping[str, Any], evaluation: Any = None, window: Any = None) -> None:
        """Queue the finite numbers of ``summary`` as metrics at its step and time; never waits for MLflow.

        Each metric is ``<prefix><name>``, the name being the parts of
        :func:`summary_entries` joined by ``/`` (``average_precision``;
        ``cat/average_precision`` and ``macro/average_precision`` for a
        multi-label summary), with every character MLflow refuses in a part
        written as ``_``. A summary with a value that is not a number, or
        two entries of one name, is refused whole before anything is queued.
        """
        step, when = _step_and_time(summary, self._count + 1)
        named = _named(summary_entries(summary, "MLflow.write"),
                       lambda e: self.prefix + "/".join(_mlflow_part(p) for p in e.parts()), "MLflow.write")
        self._count += 1
        metrics = {k: v for k, v in named.items() if math.isfinite(v)}
        run_id = self._run_id()
        mlflow = self._mlflow

        def log() -> None:
            from mlflow.entities import Metric

            stamp = int(when * 1000)
            rows = [Metric(key, value, stamp, step) for key, value in metrics.items()]
            client = mlflow.MlflowClient()
            for start in range(0, len(rows), _MLFLOW_BATCH):  # MLflow takes at most 1,000 metrics a call
                client.log_batch(self._target(run_id), metrics=rows[start : start + _MLFLOW_BATCH])

        try:
            self._submit(log, f"the summary at step {step}")
        finally:
            self._report()

    def close(self, evaluation: Any = None, window: Any = None) -> None:
        """Log the curves as JSON and PNG artifacts; wait at most ``timeout`` seconds for every call to finish."""
        run_id = self._run_id()
        client = self._mlflow.MlflowClient
        jobs: list[Callable[[], None]] = []

        def log_dict(data: dict[str, Any], path: str) -> None:
            client().log_dict(self._target(run_id), data, path)

        def log_figure(figure: Any, path: str) -> None:
            client().log_figure(self._target(run_id), figure, path)

        sources = [(parts, each, name) for ev, name in ((evaluation, "curves"), (window, WINDOW_PREFIX + "curves"))
                   for parts, each in (_curve_sources(ev) if self.curves else [])]
        taken: set[str] = set()
        for parts, ev, name in sources:
            exact = check_evaluation(ev, "MLflow.close")[1]  # one snapshot for the JSON and the figure
            path = base = "/".join((self.artifact_path, *(_mlflow_part(p) for p in parts), name))
            n = 1
            while path in taken:  # two labels of one name once written (a label "micro", "a?" and "a!")
                n += 1
                path = f"{base}_{n}"
            taken.add(path)
            jobs.append(functools.partial(log_dict, curves_json(exact), path + ".json"))
            try:
                from matplotlib.figure import Figure
            except ImportError:  # the JSON holds the same numbers
                continue
            from .plot import plot_pr_roc

            figure = plot_pr_roc(exact, figure=Figure())
            jobs.append(functools.partial(log_figure, figure, path + ".png"))
        jobs.append(self._end_own_run)
        deadline = _time.monotonic() + self.timeout
        left = 0
        try:
            for job in jobs:  # waiting for room, but only until the deadline
                if not self._worker.submit(job, max(deadline - _time.monotonic(), 1e-3)):
                    left += 1
        finally:
            left += self._worker.wait(max(deadline - _time.monotonic(), 0.0))
            self._report()
        if left:
            raise TimeoutError(
                f"MLflow: {left} logging call{'' if left == 1 else 's'} not done after timeout={self.timeout:g} "
                f"seconds (tracking server {self._mlflow.get_tracking_uri()!r}); those queued go on in the background"
            )

    def _end_own_run(self) -> None:
        if self._own_run is not None:
            self._own_run = None
            self._mlflow.end_run()

    def __repr__(self) -> str:
        return f"MLflow(prefix={self.prefix!r}, artifact_path={self.artifact_path!r})"


def curves_json(evaluation: Any) -> dict[str, Any]:
    """The summary and the exact PR and ROC curves as a JSON-safe dict (what :class:`MLflow` logs).

    Any single-ranking evaluator kind (a window or a shared evaluator
    through one ``snapshot()``). For a :class:`~scored_pr.BoundedEvaluation`
    the curves are its estimates (``pr_band().estimate``, the ``score`` of a
    row the lower end of its bin) and two more entries, ``pr_boxes`` and
    ``roc_boxes`` (columns in ``boxes_columns``), hold the boxes that contain
    the exact curves.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.5, float("inf")])
    >>> d = curves_json(ev)
    >>> d["pr_curve"], d["roc_curve"]
    ([[0.5, 1.0, None], [1.0, 1.0, 0.9]], [[0.5, 1.0], [1.0, 1.0]])
    """

    def rows(a: npt.NDArray[np.float64]) -> list[list[float | None]]:
        return [[float(x) if math.isfinite(x) else None for x in row] for row in a.tolist()]

    kind, evaluation = check_evaluation(evaluation, "curves_json", multi=_PER_QUERY)
    if kind == "bounded":
        pr, roc = evaluation.pr_band(), evaluation.roc_band()
        _, lo, pos, _ = evaluation.bins()
        return {
            "summary": json_safe(evaluation.summary()),
            "pr_curve_columns": ["recall", "precision", "score"],
            "pr_curve": rows(np.column_stack((pr.estimate, lo[pos > 0]))),
            "roc_curve_columns": ["recall", "rejection_recall"],
            "roc_curve": rows(roc.estimate),
            "boxes_columns": ["x_low", "x_high", "y_low", "y_high"],
            "pr_boxes": rows(pr.boxes),
            "roc_boxes": rows(roc.boxes),
        }
    return {
        "summary": json_safe(evaluation.summary()),
        "pr_curve_columns": ["recall", "precision", "score"],
        "pr_curve": rows(evaluation.pr_score_curve()),
        "roc_curve_columns": ["recall", "rejection_recall"],
        "roc_curve": rows(evaluation.roc_curve()),
    }


# --------------------------------------------------------------------- Prometheus

#: Gauges already made, per registry: sinks with the same namespace and label
#: names share them (one per model or shard, told apart by label values).
_GAUGES: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


class Prometheus(Sink):
    """Keep the latest summary in Prometheus gauges: one per measure, window and cumulative side by side.

    Parameters
    ----------
    registry : prometheus_client.CollectorRegistry, optional
        Where the gauges are registered; ``prometheus_client.REGISTRY`` (the
        one ``start_http_server(port)`` serves) by default.
    namespace : str, default "scored_pr"
        Metric name prefix: ``<namespace>_average_precision``.
    labels : mapping of str to str, optional
        Constant labels of every gauge this sink sets (``{"model": "v2"}``).
        Several sinks may share a registry and namespace when they have the
        same label names (one per model, told apart by the values).

    Notes
    -----
    Every summary entry ``key`` (except ``step`` and ``time``) sets the
    gauge ``<namespace>_<key>`` with ``scope="cumulative"``, and every
    ``window_<key>`` the same gauge with ``scope="window"``; when the
    evaluator handed over is itself a window, its figures are
    ``scope="window"``. A nested summary (a multi-label one) sets
    ``<namespace>_<measure>`` with the labels ``label`` and ``average`` as
    well (see the module's notes and :func:`summary_entries`); its gauges then
    carry those label names, so give it a namespace of its own when a
    binary summary's gauges share the registry. Constant ``labels`` must not
    be named ``label`` or ``average`` for such a summary. NaN (a measure not defined yet) is exported as NaN.
    ``<namespace>_last_summary_timestamp_seconds`` holds the summary's
    ``time``, to alert on a stalled stream, and ``<namespace>_summary_step``
    its ``step`` (cases seen, by default). The gauges hold the latest
    summary: Prometheus samples them when it scrapes.

    Examples
    --------
    >>> from prometheus_client import CollectorRegistry, generate_latest
    >>> from scored_pr import ScoredPrecisionRecallEvaluation, WindowedEvaluation
    >>> from scored_pr.streaming import SummaryLogger
    >>> from scored_pr.integrations import Prometheus
    >>> registry = CollectorRegistry()
    >>> sink = Prometheus(registry, labels={"model": "v2"})
    >>> ev = SummaryLogger(ScoredPrecisionRecallEvaluation(), sink, every=4, window=WindowedEvaluation(size=2))
    >>> ev.add_cases([True, False, False, True], [0.9, 0.8, 0.3, 0.2])
    >>> [line for line in generate_latest(registry).decode().splitlines() if "_under_roc_curve{" in line]
    ['scored_pr_area_under_roc_curve{model="v2",scope="cumulative"} 0.5', 'scored_pr_area_under_roc_curve{model="v2",scope="window"} 0.0']
    """

    def __init__(self, registry: Any = None, *, namespace: str = "scored_pr", labels: Mapping[str, str] | None = None) -> None:
        client = _need("prometheus_client", "prometheus", "Prometheus")
        if registry is None:
            registry = client.REGISTRY
        check_instance(
            registry, client.CollectorRegistry, "Prometheus", "registry", "a prometheus_client.CollectorRegistry or None"
        )
        check_metric_namespace(namespace, "Prometheus")
        labels = check_metric_labels(labels, "Prometheus")
        self._client = client
        self.registry = registry
        self.namespace = namespace
        self.labels = labels
        self._names = sorted(labels)

    def _gauge(self, key: str, help_text: str, scoped: bool = True, labelled: bool = False) -> Any:
        gauges = _GAUGES.setdefault(self.registry, {})
        name = f"{self.namespace}_{key}"
        names = tuple(self._names + (list(SUMMARY_LABEL_NAMES) if labelled else []) + (["scope"] if scoped else []))
        gauge = gauges.get(name)
        if gauge is None:
            gauge = gauges[name] = self._client.Gauge(name, help_text, labelnames=names, registry=self.registry)
        elif tuple(gauge._labelnames) != names:
            raise ValueError(
                f"Prometheus: the gauge {name!r} exists in this registry with the labels "
                f"{list(gauge._labelnames)}; this sink has {list(names)}: give it the same label names or "
                "another namespace."
            )
        return gauge

    def write(self, summary: Mapping[str, Any], evaluation: Any = None, window: Any = None) -> None:
        """Set the gauges to every number of ``summary`` (refused whole, before any is set, if one is not a number).

        The summary of a :class:`~scored_pr.SlicedEvaluation` sets one sample
        per slice on each measure's gauge, with a label per key (its value,
        ``(missing)``, or empty where the slice does not fix the key: the
        overall slice has every key empty).
        """
        kind = None if evaluation is None else _kinds.kind_of(evaluation)
        if kind is not None and kind.holds == "per_slice":
            self._write_slices(summary, evaluation)
            return
        entries = summary_entries(summary, "Prometheus.write")
        plain_scope = "cumulative" if evaluation is None else _kinds.scope_of(evaluation)
        labelled = any(e.label is not None or e.average is not None for e in entries)
        if labelled:
            check_no_label_clash(self.labels, "Prometheus.write")

        where: dict[str, tuple[str, dict[str, str]]] = {}  # sample -> (measure, its labels)

        def sample(entry: Entry) -> str:
            measure = "_".join(re.sub(r"[^a-zA-Z0-9_]", "_", p) for p in entry.measure)
            scope = plain_scope
            if entry.label is None and measure.startswith(WINDOW_PREFIX):
                measure, scope = measure[len(WINDOW_PREFIX):], "window"
            labels = {"label": entry.label or "", "average": entry.average or ""} if labelled else {}
            labels["scope"] = scope
            text = f"{self.namespace}_{measure}{{" + ",".join(f"{k}={v!r}" for k, v in sorted(labels.items())) + "}"
            where[text] = (measure, labels)
            return text

        # one gauge per measure, one sample per (scope, label, average): two entries on one sample refuse the summary,
        # and every gauge is made (or its label names checked) before any is set
        samples = _named(entries, sample, "Prometheus.write")
        help_text = "scored_pr summary: {} (scope: cumulative or window)"
        gauges = {text: self._gauge(where[text][0], help_text.format(where[text][0]), labelled=labelled) for text in samples}
        for text, value in samples.items():
            gauges[text].labels(**self.labels, **where[text][1]).set(value)
        when, step = summary.get("time"), summary.get("step")
        stamp = self._gauge("last_summary_timestamp_seconds", "Time of the latest scored_pr summary.", scoped=False)
        (stamp.labels(**self.labels) if self._names else stamp).set(_time.time() if when is None else float(when))
        if step is not None:
            gauge = self._gauge("summary_step", "Step of the latest scored_pr summary (default: cases seen).", scoped=False)
            (gauge.labels(**self.labels) if self._names else gauge).set(float(step))

    def _write_slices(self, summary: Mapping[str, Any], evaluation: Any) -> None:
        """One sample per slice and measure, labelled by the slice's key values (every gauge made before any is set)."""
        keys = list(evaluation.keys)
        check_no_key_clash(self.labels, keys, "Prometheus.write")
        scope = _kinds.scope_of(evaluation)
        samples: list[tuple[str, dict[str, str], float]] = []
        for pairs in evaluation.slices():
            one = summary.get(str(pairs))
            if not isinstance(one, Mapping):
                continue  # a slice made after the summary was taken
            fixed = {k: (MISSING_VALUE_TEXT if v is None else str(v)) for k, v in pairs}
            labels = {k: fixed.get(k, "") for k in keys}
            for e in summary_entries(one, "Prometheus.write"):
                measure = "_".join(re.sub(r"[^a-zA-Z0-9_]", "_", p) for p in e.measure)
                samples.append((measure, labels, e.value))
        gauges = {}
        for measure, _, _ in samples:
            if measure not in gauges:
                gauges[measure] = self._sliced_gauge(measure, keys)
        for measure, labels, value in samples:
            gauges[measure].labels(**self.labels, **labels, scope=scope).set(value)
        when, step = summary.get("time"), summary.get("step")
        stamp = self._gauge("last_summary_timestamp_seconds", "Time of the latest scored_pr summary.", scoped=False)
        (stamp.labels(**self.labels) if self._names else stamp).set(_time.time() if when is None else float(when))
        if step is not None:
            gauge = self._gauge("summary_step", "Step of the latest scored_pr summary (default: cases seen).", scoped=False)
            (gauge.labels(**self.labels) if self._names else gauge).set(float(step))

    def _sliced_gauge(self, measure: str, keys: list[str]) -> Any:
        gauges = _GAUGES.setdefault(self.registry, {})
        name = f"{self.namespace}_{measure}"
        names = tuple(self._names + keys + ["scope"])
        gauge = gauges.get(name)
        if gauge is None:
            gauge = gauges[name] = self._client.Gauge(
                name, f"scored_pr summary per slice: {measure} (scope: cumulative or window)", labelnames=names,
                registry=self.registry)
        elif tuple(gauge._labelnames) != names:
            raise ValueError(
                f"Prometheus: the gauge {name!r} exists in this registry with the labels "
                f"{list(gauge._labelnames)}; this sink has {list(names)}: give it the same label names or "
                "another namespace."
            )
        return gauge

    def __repr__(self) -> str:
        return f"Prometheus(namespace={self.namespace!r}, labels={self.labels!r})"

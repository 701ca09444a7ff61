"""The TensorBoard sink: scalars and exact PR curves written as event files (no TensorFlow needed)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import (
    check_sink_options,
    check_summary_writer,
    check_tensorboard_options,
)
from ..streaming import WINDOW_PREFIX, Sink

from .entries import exact_pr_points, summary_entries
from .entries import _need, _named, _step_and_time, _curve_sources


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

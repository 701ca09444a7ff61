"""The MLflow sink: metrics in batches from a worker thread, curves as JSON artifacts."""

from __future__ import annotations

import functools
import math
import queue
import threading
import time as _time
from collections.abc import Callable, Mapping
from typing import Any

from .._validation import (
    check_evaluation,
    check_mlflow_options,
    check_sink_options,
)
from ..streaming import WINDOW_PREFIX, Sink

from .entries import curves_json, summary_entries
from .entries import _need, _named, _step_and_time, _curve_sources, _mlflow_part, _MLFLOW_BATCH


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
            from ..plot import plot_pr_roc

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

"""The sinks refuse at construction what would fail later, and a sink never holds up ``add_case``.

- Every constructor argument of TensorBoard, MLflow and Prometheus is
  checked when the sink is built: a clear TypeError/ValueError naming the
  argument and the value, and nothing created (no log directory, no gauge).
  Before, ``flush_secs='x'`` failed in tensorboard's background thread and
  ``labels={'__name__': 'x'}`` at every write.
- MLflow against a tracking server that never answers: ``add_case`` returns
  at once (it used to block for minutes), the failure is reported, and
  ``close`` waits at most ``timeout`` seconds.
- ``scored-pr stream`` whose metrics sink fails: one line, no traceback, the
  report and the checkpoint kept, exit status 1 (an output error).

Sinks are read back with the real tools (prometheus_client's parser,
MLflow's client), as in tests/integrations/test_integrations.py.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cli_env import CMD, ROOT, clean_env

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.streaming import SummaryLogger

# --------------------------------------------------------------------------- TensorBoard


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"flush_secs": "x"}, TypeError, "argument 'flush_secs' must be a finite real number > 0; got 'x' (str)"),
        ({"flush_secs": -1}, ValueError, "argument 'flush_secs' must be a finite real number > 0; got -1 (int)"),
        ({"flush_secs": 0}, ValueError, "argument 'flush_secs' must be a finite real number > 0; got 0 (int)"),
        ({"flush_secs": float("inf")}, ValueError, "argument 'flush_secs' must be a finite real number > 0; got inf"),
        ({"flush_secs": True}, TypeError, "argument 'flush_secs' must be a finite real number > 0; got True"),
        ({"curves": "no"}, TypeError, "argument 'curves' must be a bool; got 'no' (str)"),
        ({"max_points": "5"}, ValueError, "argument 'max_points' must be an int >= 2; got '5'"),  # as it always was
        ({"max_points": 1}, ValueError, "argument 'max_points' must be an int >= 2; got 1"),
        ({"prefix": 3}, TypeError, "argument 'prefix' must be a str; got 3"),
    ],
)
def test_tensorboard_refuses_bad_arguments_at_construction(tmp_path: Path, kwargs: dict[str, Any],
                                                           error: type[Exception], message: str) -> None:
    pytest.importorskip("tensorboard")
    from scored_pr.integrations import TensorBoard

    logdir = tmp_path / "runs"
    with pytest.raises(error) as caught:
        TensorBoard(logdir, **kwargs)
    assert str(caught.value).startswith(f"TensorBoard: {message}"), caught.value
    assert not logdir.exists()  # a refused sink creates nothing


def test_tensorboard_with_good_arguments_writes_what_is_read_back(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from scored_pr.integrations import TensorBoard

    sink = TensorBoard(tmp_path, flush_secs=0.5, curves=False, max_points=2)
    sink({"average_precision": 0.25, "step": 3, "time": 1.0})
    sink.close()
    acc = EventAccumulator(str(tmp_path))
    acc.Reload()
    assert [(e.step, e.value) for e in acc.Scalars("scored_pr/average_precision")] == [(3, 0.25)]


# --------------------------------------------------------------------------- Prometheus


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"labels": {"__name__": "x"}}, ValueError, "argument 'labels' must map label names"),
        ({"labels": {"__reserved": "x"}}, ValueError, "argument 'labels' must map label names"),
        ({"labels": {"a-b": "x"}}, ValueError, "got 'a-b': 'x' instead"),
        ({"labels": {"1a": "x"}}, ValueError, "got '1a': 'x' instead"),
        ({"labels": {"scope": "x"}}, ValueError, "argument 'labels' must map label names (str, not 'scope')"),
        ({"labels": {"model": 2}}, ValueError, "got 'model': 2 instead"),
        ({"labels": [("model", "a")]}, TypeError, "argument 'labels' must be a mapping"),
        ({"namespace": "é"}, ValueError, "argument 'namespace' must be a metric name prefix"),
        ({"namespace": ""}, ValueError, "argument 'namespace' must be a metric name prefix"),
        ({"namespace": 7}, ValueError, "argument 'namespace' must be a metric name prefix"),
    ],
)
def test_prometheus_refuses_what_every_write_would_fail_on(kwargs: dict[str, Any], error: type[Exception],
                                                            message: str) -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    with pytest.raises(error) as caught:
        Prometheus(registry, **kwargs)
    assert str(caught.value).startswith("Prometheus: ") and message in str(caught.value), caught.value
    assert prometheus_client.generate_latest(registry) == b""  # nothing registered


def test_prometheus_label_names_it_accepts_are_written() -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from prometheus_client.parser import text_string_to_metric_families

    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    Prometheus(registry, namespace="_ok9", labels={"_model": "v2", "Shard_1": "a"})({"average_precision": 0.5})
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for f in text_string_to_metric_families(prometheus_client.generate_latest(registry).decode())
               for s in f.samples}
    assert samples[("_ok9_average_precision", (("Shard_1", "a"), ("_model", "v2"), ("scope", "cumulative")))] == 0.5


# --------------------------------------------------------------------------- MLflow


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"curves": 1}, TypeError, "argument 'curves' must be a bool; got 1 (int)"),
        ({"timeout": "x"}, TypeError, "argument 'timeout' must be a finite real number > 0; got 'x' (str)"),
        ({"timeout": 0}, ValueError, "argument 'timeout' must be a finite real number > 0; got 0 (int)"),
        ({"max_pending": 0}, ValueError, "argument 'max_pending' must be an int >= 1; got 0 (int)"),
        ({"max_pending": 2.0}, TypeError, "argument 'max_pending' must be an int >= 1; got 2.0 (float)"),
        ({"prefix": None}, TypeError, "argument 'prefix' must be a str; got None"),
        ({"artifact_path": 1}, TypeError, "argument 'artifact_path' must be a str; got 1"),
    ],
)
def test_mlflow_refuses_bad_arguments_at_construction(kwargs: dict[str, Any], error: type[Exception],
                                                      message: str) -> None:
    pytest.importorskip("mlflow")
    from scored_pr.integrations import MLflow

    with pytest.raises(error) as caught:
        MLflow(**kwargs)
    assert str(caught.value).startswith(f"MLflow: {message}"), caught.value


@pytest.fixture
def silent_server() -> Any:
    """A TCP port that accepts connections and never answers: a tracking server that hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_mlflow_never_holds_up_add_case_and_reports_the_hang(silent_server: str, monkeypatch: pytest.MonkeyPatch,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    mlflow = pytest.importorskip("mlflow")
    from scored_pr.integrations import MLflow

    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_TIMEOUT", "3")
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", "0")
    mlflow.set_tracking_uri(silent_server)
    try:
        sink = MLflow(timeout=0.5, max_pending=2)
        logger = SummaryLogger(ScoredPrecisionRecallEvaluation(), sink, every=1)
        started = time.monotonic()
        with caplog.at_level(logging.ERROR, logger="scored_pr.streaming"):
            for i in range(6):
                logger.add_case(i % 2 == 0, i / 10)
        took = time.monotonic() - started
        assert took < 1.0, took  # each summary is queued: the server's silence is not the caller's wait
        assert logger.num_cases == 6 and logger.calls + logger.callback_errors == 6
        assert logger.callback_errors >= 3  # at most 2 wait (and 1 running): the others are refused, and said so
        assert any("still waiting for the tracking server" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
        started = time.monotonic()
        with pytest.raises(TimeoutError, match=r"^MLflow: \d+ logging calls? not done after timeout=0.5 seconds"):
            sink.close()
        assert time.monotonic() - started < 2.5
    finally:
        mlflow.set_tracking_uri(None)


def test_mlflow_failures_in_its_thread_are_raised_by_the_next_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    from scored_pr.integrations import MLflow

    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", (tmp_path / "mlruns").as_uri())
    sink = MLflow()
    with mlflow.start_run() as run:
        sink({"average_precision": 0.5, "step": 1, "time": 2.0})

        def fail() -> None:
            raise OSError("disk full")

        sink._worker.submit(fail)  # a call that fails in the sink's thread
        assert sink._worker.wait(30) == 0
        with pytest.raises(RuntimeError, match=r"^MLflow: 1 logging call failed; the first: OSError: disk full$"):
            sink({"average_precision": 0.75, "step": 2, "time": 3.0})
        sink.close()  # reported once: nothing more to say
    history = mlflow.MlflowClient().get_metric_history(run.info.run_id, "average_precision")
    assert [(m.step, m.value, m.timestamp) for m in history] == [(1, 0.5, 2000), (2, 0.75, 3000)]


def test_mlflow_without_an_active_run_logs_to_a_run_it_starts_and_ends(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    from scored_pr.integrations import MLflow

    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", (tmp_path / "mlruns").as_uri())
    sink = MLflow(curves=False)
    sink({"average_precision": 0.5, "step": 1, "time": 2.0})
    sink.close()
    runs = mlflow.search_runs(search_all_experiments=True, output_format="list")
    assert len(runs) == 1 and runs[0].info.status == "FINISHED"
    history = mlflow.MlflowClient().get_metric_history(runs[0].info.run_id, "average_precision")
    assert [(m.step, m.value) for m in history] == [(1, 0.5)]
    assert mlflow.active_run() is None


# --------------------------------------------------------------------------- scored-pr stream


FAILING_SINK = """
import sys
import scored_pr.integrations as integrations

def write(self, summary, evaluation=None, window=None):
    raise ConnectionError("the gauges are gone")

integrations.Prometheus.write = write
from scored_pr._cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_stream_with_a_failing_metrics_sink_says_it_once_and_keeps_report_and_checkpoint(tmp_path: Path) -> None:
    pytest.importorskip("prometheus_client")
    from scored_pr import ScoredPrecisionRecallEvaluation as E

    data = tmp_path / "cases.csv"
    data.write_text("correct,score\n" + "".join(f"{i % 2},{i / 100}\n" for i in range(40)))
    checkpoint = tmp_path / "cp.npz"
    got = subprocess.run(
        [sys.executable, "-c", FAILING_SINK, "stream", "--every", "4", "--metrics-port", "0",
         "--checkpoint", str(checkpoint), str(data)],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=clean_env(),
    )
    assert "Traceback" not in got.stderr, got.stderr
    lines = got.stderr.splitlines()
    assert lines[0].startswith("scored-pr: serving Prometheus metrics on http://127.0.0.1:")
    assert lines[1:] == [
        "scored-pr: --metrics-port: cannot update the gauges: ConnectionError: the gauges are gone (the stream "
        "goes on)",
        "scored-pr: --metrics-port: 10 of 10 summaries not exported (an output error; the report above and the "
        "checkpoint cover every case read)",
    ]
    assert got.returncode == 1  # an output error
    assert "Number of Cases=40\n" in got.stdout
    assert E.load(checkpoint).num_cases == 40

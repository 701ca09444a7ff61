"""Sending streaming numbers somewhere: the sinks of ``scored_pr.integrations``, read back by the real tools.

TensorBoard's ``EventAccumulator``, MLflow's client on a local file store and
``prometheus_client``'s exposition parser read what the sinks wrote; the
summary's JSON-safe form, ``SummaryLogger``'s weight forwarding, step and time,
and the evaluators' ``reset()`` are checked against fresh evaluators fed the
same cases.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scored_pr import (
    BoundedEvaluation,
    ScoredPrecisionRecallEvaluation as E,
    SynchronizedEvaluation,
    WindowedEvaluation,
)
from scored_pr.streaming import Sink, SummaryLogger, json_safe

ROOT = Path(__file__).resolve().parents[2]


def same_summary(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal keys and values, NaN equal to NaN."""
    return a.keys() == b.keys() and all(
        (isinstance(a[k], float) and math.isnan(a[k]) and math.isnan(b[k])) or a[k] == b[k] for k in a
    )


def cases(n: int, seed: int = 0, ties: int = 50) -> tuple[list[bool], list[float]]:
    """n cases whose scores take ``ties`` distinct values (so tie groups), positives scoring higher."""
    rng = np.random.default_rng(seed)
    correct = rng.random(n) < 0.3
    scores = np.round(rng.normal(correct * 1.0, 1.0) * ties / 6) / ties
    return correct.tolist(), scores.tolist()


# ------------------------------------------------------------------ JSON-safe summaries


def test_json_dumps_of_a_summary_is_valid_json_with_null_for_nan() -> None:
    ev = E()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.4])  # fewer than 10 cases: precision_at_10 is NaN
    summary = ev.summary()
    assert math.isnan(summary["precision_at_10"])
    text = json.dumps(json_safe(summary), allow_nan=False)  # raises on NaN
    back = json.loads(text)
    assert back["precision_at_10"] is None and back["num_cases"] == 3
    assert back["average_precision"] == summary["average_precision"]
    assert list(back) == list(summary)
    assert json_safe({"a": float("inf"), "b": -float("inf"), "c": np.float64(0.25), "d": np.int64(3), "e": True}) == {
        "a": None, "b": None, "c": 0.25, "d": 3, "e": True,
    }
    bounded = BoundedEvaluation(max_bins=2)
    bounded.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    assert json.loads(json.dumps(json_safe(bounded.summary()), allow_nan=False))["num_cases"] == 4


# --------------------------------------------------------- SummaryLogger: weights, step, time


def test_summary_logger_forwards_weight_and_sample_weight() -> None:
    got: list[Any] = []
    logger = SummaryLogger(E(), got.append, every=100, window=WindowedEvaluation(size=3))
    logger.add_case(True, 0.9, weight=2.0)
    logger.add_case(False, 0.8, 0.5)
    logger.add_cases([True, False], [0.7, 0.6], sample_weight=[1.5, 3.0])
    logger.add_cases(iter([False]), iter([0.95]), sample_weight=iter([0.25]))  # iterables, read by both
    ref = E()
    ref.add_cases([True, False, True, False, False], [0.9, 0.8, 0.7, 0.6, 0.95], sample_weight=[2, 0.5, 1.5, 3, 0.25])
    assert logger.evaluation == ref
    window = E()
    window.add_cases([True, False, False], [0.7, 0.6, 0.95], sample_weight=[1.5, 3.0, 0.25])
    assert logger.window is not None and logger.window.snapshot() == window
    with pytest.raises(ValueError, match="weight"):
        logger.add_case(True, 0.1, weight=-1.0)
    with pytest.raises(ValueError):
        logger.add_cases([True, False], [0.1, 0.2], sample_weight=[1.0])
    assert logger.evaluation == ref and logger.window.snapshot() == window  # rejected: nothing changed
    logger.close()
    assert same_summary(
        {k: v for k, v in got[-1].items() if not k.startswith("window_") and k not in ("step", "time")}, ref.summary()
    )


def test_summaries_carry_step_and_time() -> None:
    got: list[Any] = []
    before = time.time()
    logger = SummaryLogger(E(), got.append, every=2)
    correct, scores = cases(7)
    for c, s in zip(correct, scores):
        logger.add_case(c, s)
    logger.close()
    after = time.time()
    assert [s["step"] for s in got] == [2, 4, 6, 7]  # cases seen
    times = [s["time"] for s in got]
    assert before <= times[0] <= times[-1] <= after and times == sorted(times)
    assert "step" not in str(got[0]) and str(got[0]).startswith("cases=2 ")  # the line is unchanged

    batch = [0]
    got.clear()
    logger = SummaryLogger(WindowedEvaluation(size=2), got.append, every=3, step=lambda: batch[0])
    for i in range(6):
        batch[0] = 100 + i
        logger.add_case(i % 2 == 0, i / 10)
    assert [s["step"] for s in got] == [102, 105]
    with pytest.raises(TypeError, match="'step' must be a callable"):
        SummaryLogger(E(), print, every=1, step=5)  # type: ignore[arg-type]


def test_a_sink_receives_the_evaluator_and_is_closed() -> None:
    class Recorder(Sink):
        def __init__(self) -> None:
            self.writes: list[tuple[Any, Any, Any]] = []
            self.closed: list[tuple[Any, Any]] = []

        def write(self, summary: Any, evaluation: Any = None, window: Any = None) -> None:
            self.writes.append((summary, evaluation, window))

        def close(self, evaluation: Any = None, window: Any = None) -> None:
            self.closed.append((evaluation, window))

    sink = Recorder()
    ev, w = E(), WindowedEvaluation(size=2)
    with SummaryLogger(ev, sink, every=2, window=w) as logger:
        logger.add_cases([True, False, True], [0.3, 0.2, 0.1])
    assert [(s["num_cases"], e, win) for s, e, win in sink.writes] == [(3, ev, w)]
    assert sink.closed == [(ev, w)]
    sink({"num_cases": 1})  # a plain call: no evaluator
    assert sink.writes[-1] == ({"num_cases": 1}, None, None)


def test_a_list_of_callbacks_each_gets_every_summary_even_when_one_raises() -> None:
    first: list[Any] = []
    last: list[Any] = []

    def broken(summary: Any) -> None:
        raise RuntimeError("metrics backend down")

    class Closing(Sink):
        closed = 0

        def write(self, summary: Any, evaluation: Any = None, window: Any = None) -> None:
            last.append((summary["num_cases"], evaluation))

        def close(self, evaluation: Any = None, window: Any = None) -> None:
            Closing.closed += 1

    ev = E()
    logger = SummaryLogger(ev, [first.append, broken, Closing()], every=2)
    logger.add_cases([True, False], [0.5, 0.4])  # periodic: the error is logged and counted, not raised
    assert logger.callback_errors == 1
    assert [s["num_cases"] for s in first] == [2] and last == [(2, ev)]
    logger.add_case(True, 0.1)
    with pytest.raises(RuntimeError, match="metrics backend down"):  # close: raised, after the others ran
        logger.close()
    assert [s["num_cases"] for s in first] == [2, 3] and last[-1] == (3, ev)
    assert Closing.closed == 1  # closed although the last summary failed
    with pytest.raises(RuntimeError):
        logger.close()  # the failed final summary is tried again; the sinks are closed once
    assert Closing.closed == 1 and [s["num_cases"] for s in first] == [2, 3, 3]
    with pytest.raises(TypeError, match="'callback' must be callable or a list of callables; got 3 \\(int\\) at index 1"):
        SummaryLogger(E(), [print, 3], every=1)


# --------------------------------------------------------------------------- reset()


@pytest.mark.parametrize(
    "make",
    [
        lambda: E(),
        lambda: E(ties="stable", pos_label="spam"),
        lambda: WindowedEvaluation(size=5),
        lambda: WindowedEvaluation(seconds=10.0, clock=None),
        lambda: BoundedEvaluation(max_bins=4),
        lambda: SynchronizedEvaluation(),
    ],
    ids=["plain", "stable-pos_label", "size-window", "time-window", "bounded", "synchronized"],
)
def test_reset_leaves_an_evaluator_equal_to_a_new_one(make: Any) -> None:
    ev = make()
    label = (lambda c: "spam" if c else "ham") if getattr(ev, "pos_label", None) == "spam" else (lambda c: c)
    timed = isinstance(ev, WindowedEvaluation) and ev.seconds is not None
    kw: Any = (lambda i: {"time": 100.0 + i}) if timed else (lambda i: {})
    correct, scores = cases(30, seed=1)
    for i, (c, s) in enumerate(zip(correct, scores)):
        ev.add_case(label(c), s, **kw(i))
    ev.add_misses(2, **kw(30))
    ev.summary()  # fill the caches
    ev.reset()
    fresh = make()
    assert ev.num_cases == 0 and ev.num_misses == 0
    assert same_summary(json_safe(ev.summary()), json_safe(fresh.summary()))
    # fed again (a time window from earlier times: it forgot the newest time it had seen)
    correct, scores = cases(12, seed=2)
    for target in (ev, fresh):
        for i, (c, s) in enumerate(zip(correct, scores)):
            target.add_case(label(c), s, **kw(i))
        target.add_negative_misses(1, **kw(12))
    assert same_summary(json_safe(ev.summary()), json_safe(fresh.summary()))
    if isinstance(ev, WindowedEvaluation):
        assert ev.num_cases_seen == 12 and ev.area_under_roc_curve() == fresh.area_under_roc_curve()


def test_summary_logger_reset_restarts_the_periods() -> None:
    got: list[Any] = []
    logger = SummaryLogger(E(), got.append, every=3, window=WindowedEvaluation(size=2))
    logger.add_cases([True, False], [0.5, 0.4])
    logger.reset()
    assert logger.num_cases == 0 and logger.window.num_cases == 0 and logger.cases_since_log == 0 and not got
    logger.add_cases([True, False], [0.5, 0.4])
    assert not got  # 2 cases since the reset, not 4
    logger.add_case(True, 0.1)
    assert [(s["num_cases"], s["window_num_cases"], s["step"]) for s in got] == [(3, 2, 3)]


# ------------------------------------------------------------------------- TensorBoard


def _accumulator(logdir: Path) -> Any:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(logdir), size_guidance={"scalars": 0, "tensors": 0})
    acc.Reload()
    return acc


def _literal_counts(correct: list[bool], scores: list[float], threshold: float) -> tuple[int, int]:
    """Slow reference: (TP, FP) of accepting every case scoring at least ``threshold``."""
    tp = sum(1 for c, s in zip(correct, scores) if s >= threshold and c)
    fp = sum(1 for c, s in zip(correct, scores) if s >= threshold and not c)
    return tp, fp


def test_tensorboard_scalars_and_exact_pr_curve_read_back(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from scored_pr.integrations import TensorBoard

    correct, scores = cases(3000, seed=3, ties=400)
    ev, w = E(), WindowedEvaluation(size=500)
    sink = TensorBoard(tmp_path, max_points=50)
    got: list[Any] = []

    def both(summary: Any, evaluation: Any = None, window: Any = None) -> None:
        got.append((dict(summary), evaluation.snapshot() if isinstance(evaluation, WindowedEvaluation) else
                    E.from_dict(evaluation.to_dict()), window.snapshot()))
        TensorBoard.write(sink, summary, evaluation, window)

    sink.write = both  # type: ignore[method-assign]  # record the evaluator at every write
    logger = SummaryLogger(ev, sink, every=1000, window=w)
    logger.add_misses(7)
    for start in range(0, 3000, 250):
        logger.add_cases(correct[start : start + 250], scores[start : start + 250])
    logger.close()
    assert [s["step"] for s, _, _ in got] == [1000, 2000, 3000]

    acc = _accumulator(tmp_path)
    # scalars: every measure of every summary, at its step and time
    for key in ("average_precision", "area_under_roc_curve", "window_maximum_f_measure", "num_cases"):
        events = acc.Scalars(f"scored_pr/{key}")
        assert [e.step for e in events] == [1000, 2000, 3000]
        assert [e.value for e in events] == [np.float32(s[key]) for s, _, _ in got]
        assert [e.wall_time for e in events] == pytest.approx([s["time"] for s, _, _ in got])
    assert "scored_pr/step" not in acc.Tags()["scalars"]

    # the PR curves, as the pr_curves plugin reads them
    from tensorboard.plugins.pr_curve import metadata

    tags = acc.Tags()["tensors"]
    assert set(tags) == {"scored_pr/pr_curve/pr_curves", "scored_pr/window_pr_curve/pr_curves"}
    for tag, which, positives_extra in (("scored_pr/pr_curve/pr_curves", 1, 7), ("scored_pr/window_pr_curve/pr_curves", 2, 0)):
        tensors = acc.Tensors(tag)
        assert [t.step for t in tensors] == [1000, 2000, 3000]
        meta = acc.SummaryMetadata(tag)
        assert meta.plugin_data.plugin_name == metadata.PLUGIN_NAME
        for t, record in zip(tensors, got):
            from tensorboard.util import tensor_util

            data = tensor_util.make_ndarray(t.tensor_proto)
            tp, fp, tn, fn, precision, recall = data
            exact = record[which]
            curve = exact.pr_score_curve()
            assert curve.shape[0] > 50 and data.shape == (6, 50)  # at most max_points, of many more
            rows = {(np.float32(r), np.float32(p)): s for r, p, s in curve}
            assert recall[0] == np.float32(curve[-1, 0]) and recall[-1] == np.float32(curve[0, 0])  # both ends
            assert np.all(np.diff(recall) < 0)  # increasing threshold
            # the cases that evaluator holds, in a slow literal reference
            if which == 1:
                held_c, held_s = correct[: exact.num_cases], scores[: exact.num_cases]
            else:
                end = record[0]["step"]
                held_c, held_s = correct[end - 500 : end], scores[end - 500 : end]
            pos = sum(held_c) + positives_extra
            neg = len(held_c) - sum(held_c)
            for i in range(data.shape[1]):
                threshold = rows[(recall[i], precision[i])]  # every point is a point of the exact curve
                ref_tp, ref_fp = _literal_counts(held_c, held_s, threshold)
                assert (tp[i], fp[i], fn[i], tn[i]) == (ref_tp, ref_fp, pos - ref_tp, neg - ref_fp)
                assert precision[i] == np.float32(ref_tp / (ref_tp + ref_fp))
                assert recall[i] == np.float32(ref_tp / pos)


def test_tensorboard_small_curve_writes_every_point_and_a_plain_call_writes_scalars(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from tensorboard.util import tensor_util

    from scored_pr.integrations import TensorBoard

    ev = E()
    ev.add_cases([True, False, True, True, False], [0.9, 0.8, 0.4, 0.4, 0.1])
    sink = TensorBoard(tmp_path / "run", prefix="val")
    sink.write({**ev.summary(), "step": 5, "time": 1000.0}, ev)
    sink({"average_precision": 0.5})  # a plain call: scalars only, step = number of writes
    sink.close()
    acc = _accumulator(tmp_path / "run")
    ap = acc.Scalars("val/average_precision")
    assert [(e.step, e.value) for e in ap] == [(5, np.float32(ev.average_precision())), (2, 0.5)]
    assert ap[0].wall_time == 1000.0
    data = tensor_util.make_ndarray(acc.Tensors("val/pr_curve/pr_curves")[0].tensor_proto)
    # grouped ties: points after 0.9 (1/1) and after the tie group at 0.4 (3/4)
    assert data.tolist() == [[3, 1], [1, 0], [1, 2], [0, 2], [0.75, 1.0], [1.0, pytest.approx(1 / 3)]]


def test_tensorboard_through_torchs_summary_writer(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    torch_tb = pytest.importorskip("torch.utils.tensorboard")
    from scored_pr.integrations import TensorBoard

    writer = torch_tb.SummaryWriter(str(tmp_path))
    ev = E()
    with SummaryLogger(ev, TensorBoard(writer), every=4) as logger:
        logger.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    writer.close()
    acc = _accumulator(tmp_path)
    assert [e.value for e in acc.Scalars("scored_pr/area_under_roc_curve")] == [0.75]
    assert "scored_pr/pr_curve" in acc.Tags()["tensors"]


def test_tensorboard_rejects_what_it_cannot_write_to() -> None:
    from scored_pr.integrations import TensorBoard, exact_pr_points

    with pytest.raises(TypeError, match="'target' must be a log directory .* got 42 \\(int\\)"):
        TensorBoard(42)
    with pytest.raises(ValueError, match="'max_points' must be an int >= 2; got 1"):
        TensorBoard("x", max_points=1)
    # a BoundedEvaluation now has exact points (at its bins' edges; tests/evaluators/test_every_kind.py): not an error
    with pytest.raises(TypeError, match="'evaluation' must be .*got 42 \\(int\\)"):
        exact_pr_points(42)


# ---------------------------------------------------------------------------- MLflow


def test_mlflow_metric_history_and_curve_artifacts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    from scored_pr.integrations import MLflow

    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # MLflow 3 keeps the file store behind this flag
    monkeypatch.setenv("MLFLOW_TRACKING_URI", (tmp_path / "mlruns").as_uri())
    correct, scores = cases(25, seed=4)
    got: list[Any] = []
    sink = MLflow(prefix="val/")
    original = sink.write

    def record(summary: Any, evaluation: Any = None, window: Any = None) -> None:
        got.append(dict(summary))
        original(summary, evaluation, window)

    sink.write = record  # type: ignore[method-assign]
    ev = E()
    with mlflow.start_run() as run:
        with SummaryLogger(ev, sink, every=10, window=WindowedEvaluation(size=8)) as logger:
            for c, s in zip(correct, scores):
                logger.add_case(c, s)
    client = mlflow.MlflowClient()
    history = client.get_metric_history(run.info.run_id, "val/average_precision")
    assert [(m.step, m.value, m.timestamp) for m in history] == [
        (s["step"], s["average_precision"], int(s["time"] * 1000)) for s in got
    ]
    assert [m.step for m in history] == [10, 20, 25]
    p10 = client.get_metric_history(run.info.run_id, "val/precision_at_10")  # NaN before 10 cases: not logged
    assert [m.step for m in p10] == [10, 20, 25]
    p25 = client.get_metric_history(run.info.run_id, "val/precision_at_25")
    assert [(m.step, m.value) for m in p25] == [(25, ev.precision_at(25))]
    window_auc = client.get_metric_history(run.info.run_id, "val/window_area_under_roc_curve")
    assert [m.value for m in window_auc] == [s["window_area_under_roc_curve"] for s in got]

    names = sorted(a.path for a in client.list_artifacts(run.info.run_id, "scored_pr"))
    assert names == [f"scored_pr/{n}" for n in ("curves.json", "curves.png", "window_curves.json", "window_curves.png")]
    local = Path(client.download_artifacts(run.info.run_id, "scored_pr/curves.json", str(tmp_path)))
    curves = json.loads(local.read_text())
    assert curves["pr_curve"] == ev.pr_score_curve().tolist()
    assert curves["roc_curve"] == ev.roc_curve().tolist()
    assert curves["summary"] == json_safe(ev.summary())
    png = Path(client.download_artifacts(run.info.run_id, "scored_pr/curves.png", str(tmp_path)))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------ Prometheus


def _families(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    from prometheus_client.parser import text_string_to_metric_families

    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_prometheus_gauges_window_and_cumulative_side_by_side() -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    a = Prometheus(registry, namespace="eval", labels={"model": "a"})
    b = Prometheus(registry, namespace="eval", labels={"model": "b"})  # shares the gauges
    ev, w = E(), WindowedEvaluation(size=6)
    logger = SummaryLogger(ev, a, every=20, window=w)
    correct, scores = cases(40, seed=5)
    logger.add_cases(correct, scores)
    b({"average_precision": 0.25, "window_average_precision": 0.5, "step": 3, "time": 12.0})
    samples = _families(prometheus_client.generate_latest(registry).decode())
    for key, value in ev.summary().items():
        got = samples[(f"eval_{key}", (("model", "a"), ("scope", "cumulative")))]
        assert got == value or (math.isnan(got) and math.isnan(value)), key
    for key, value in w.summary().items():
        got = samples[(f"eval_{key}", (("model", "a"), ("scope", "window")))]
        assert got == value or (math.isnan(got) and math.isnan(value)), key
    assert samples[("eval_average_precision", (("model", "b"), ("scope", "cumulative")))] == 0.25
    assert samples[("eval_average_precision", (("model", "b"), ("scope", "window")))] == 0.5
    assert samples[("eval_last_summary_timestamp_seconds", (("model", "b"),))] == 12.0
    assert samples[("eval_summary_step", (("model", "b"),))] == 3
    assert samples[("eval_summary_step", (("model", "a"),))] == 40
    assert not any(name in ("eval_step", "eval_time") for name, _ in samples)
    # a window logged alone is scope="window"
    only = Prometheus(registry, namespace="win")
    with SummaryLogger(WindowedEvaluation(size=3), only, every=2) as lw:
        lw.add_cases([True, False], [0.2, 0.1])
    samples = _families(prometheus_client.generate_latest(registry).decode())
    assert samples[("win_area_under_roc_curve", (("scope", "window"),))] == 1.0


def test_prometheus_rejects_bad_arguments_and_label_clashes() -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    with pytest.raises(TypeError, match="'registry' must be a prometheus_client.CollectorRegistry or None; got 'x'"):
        Prometheus("x")
    with pytest.raises(ValueError, match="'namespace' must be a metric name prefix"):
        Prometheus(registry, namespace="a-b")
    with pytest.raises(ValueError, match="'labels' must map label names"):
        Prometheus(registry, labels={"scope": "x"})
    Prometheus(registry, namespace="n", labels={"model": "a"})({"average_precision": 0.5})
    with pytest.raises(ValueError, match="exists in this registry with the labels"):
        Prometheus(registry, namespace="n")({"average_precision": 0.5})


def test_missing_packages_are_named_with_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from scored_pr.integrations import MLflow, Prometheus, TensorBoard

    for module in ("prometheus_client", "mlflow", "tensorboard"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    with pytest.raises(ImportError, match=re.escape("the 'prometheus' extra of scored-pr (pip install '.[prometheus]'")):
        Prometheus()
    with pytest.raises(ImportError, match=re.escape("the 'mlflow' extra of scored-pr (pip install '.[mlflow]'")):
        MLflow()
    with pytest.raises(ImportError, match=re.escape("the 'tensorboard' extra of scored-pr (pip install '.[tensorboard]'")):
        TensorBoard("logs")


def test_importing_scored_pr_needs_none_of_the_packages() -> None:
    code = (
        "import sys, scored_pr, scored_pr.integrations, scored_pr.streaming\n"
        "print(sorted(m for m in ('tensorboard', 'mlflow', 'prometheus_client') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------ scored-pr stream --metrics-port


def _scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


@pytest.mark.parametrize("window", [[], ["--window", "4"], ["--window", "4", "--cumulative"]], ids=["plain", "window", "both"])
def test_stream_metrics_port_serves_the_gauges_while_streaming(window: list[str]) -> None:
    pytest.importorskip("prometheus_client")
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "scored_pr", "stream", "--every", "5", "--metrics-port", "0", "--format", "json", *window],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert proc.stderr is not None and proc.stdin is not None and proc.stdout is not None
        first = proc.stderr.readline()
        match = re.search(r"serving Prometheus metrics on (http://127\.0\.0\.1:(\d+)/metrics)", first)
        assert match, first
        url = match.group(1)
        correct, scores = cases(10, seed=6)
        proc.stdin.write("label,score\n" + "".join(f"{int(c)},{s}\n" for c, s in zip(correct, scores)))
        proc.stdin.flush()
        lines = [json.loads(proc.stdout.readline()) for _ in range(2)]  # the summaries at 5 and 10 cases
        assert [x["step"] for x in lines] == [5, 10]  # cases read
        ref = E()
        ref.add_cases(correct, scores)
        win = E()
        win.add_cases(correct[-4:], scores[-4:])
        if not window:
            expected = {"cumulative": ref}
        elif window[2:]:
            expected = {"cumulative": ref, "window": win}
        else:
            expected = {"window": win}
        for _ in range(600):  # the gauges are set right after the line is printed: a bounded wait (30 s, a loaded machine)
            samples = _families(_scrape(url))
            if samples.get(("scored_pr_summary_step", ())) == 10:  # the summary after the 10th case
                break
            time.sleep(0.05)
        gauges = {dict(labels)["scope"]: None for (name, labels), _ in samples.items() if name == "scored_pr_num_cases"}
        assert set(gauges) == set(expected)
        for scope, evaluation in expected.items():
            for key in ("num_cases", "average_precision", "area_under_roc_curve", "maximum_f_measure"):
                got, want = samples[(f"scored_pr_{key}", (("scope", scope),))], evaluation.summary()[key]
                assert got == want or (math.isnan(got) and math.isnan(want)), (scope, key)
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

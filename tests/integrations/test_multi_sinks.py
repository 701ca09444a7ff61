"""The kinds that hold several rankings, logged and sent to the sinks, read back by the real tools.

``SummaryLogger`` feeds a ``MultiLabelEvaluation`` (exact, windowed, bounded) rows and a
``MultiQueryEvaluation`` cases of a query, counting as it counts cases. A nested summary handed
to a sink is written whole, every number of it, or refused whole: TensorBoard's
``EventAccumulator``, ``prometheus_client``'s exposition parser and MLflow's client on a file
store read back what was written, and each value is compared with ``ev[label].summary()`` and
``ev.summary()``; the names are compared with a literal reading of the naming rule written here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from scored_pr import MultiLabelEvaluation, MultiQueryEvaluation, UnsupportedQuery, WindowedEvaluation
from scored_pr.streaming import SummaryLogger, format_summary, json_safe

LABELS = ["cat", "dog", "emu"]
KINDS = [{}, {"window": 40}, {"max_bins": 16}]
KIND_IDS = ["exact", "window", "bounded"]


def rows(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n rows of 3 labels whose scores take 20 distinct values (tie groups), positives scoring higher."""
    rng = np.random.default_rng(seed)
    y = rng.random((n, 3)) < [0.3, 0.5, 0.1]
    return y, np.round(rng.normal(y * 1.0, 1.0) * 4) / 4


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def same_tree(a: Any, b: Any) -> bool:
    """Equal nested summaries, NaN equal to NaN."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(same_tree(a[k], b[k]) for k in a)
    return same(float(a), float(b))


def literal_names(summary: dict[str, Any]) -> dict[tuple[str | None, str | None, str], float]:
    """A slow literal reading of the naming rule: {(label, average, measure path joined by '/'): value}.

    Top-level ``labels`` holds one summary per label; a key in micro/macro/weighted/samples is an
    average (at the top level, when it holds a mapping); list indices are parts of the measure; step and time are not entries; None is NaN.
    """
    out: dict[tuple[str | None, str | None, str], float] = {}
    averages = {"micro", "macro", "weighted", "samples"}

    def leaf(label: str | None, average: str | None, parts: list[str], value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if str(k) in averages and average is None:
                    leaf(label, str(k), parts, v)
                else:
                    leaf(label, average, parts + [str(k)], v)
        elif isinstance(value, (list, tuple, np.ndarray)):
            for i, v in enumerate(list(value)):
                leaf(label, average, parts + [str(i)], v)
        else:
            out[(label, average, "/".join(parts))] = math.nan if value is None else float(value)

    for key, value in summary.items():
        if key in ("step", "time"):
            continue
        if key == "labels":
            for label, own in value.items():
                leaf(str(label), None, [], own)
        elif key in averages and isinstance(value, dict):
            leaf(None, key, [], value)
        else:
            leaf(None, None, [key], value)
    return out


def tag(prefix: str, label: str | None, average: str | None, measure: str) -> str:
    return "/".join(p for p in (prefix, label, average, measure) if p is not None)


# ------------------------------------------------------------------ SummaryLogger


@pytest.mark.parametrize("kind", KINDS, ids=KIND_IDS)
def test_the_logger_feeds_rows_and_logs_the_multilabel_summary(kind: dict[str, int]) -> None:
    y, s = rows(130, seed=1)
    got: list[dict[str, Any]] = []
    ev = MultiLabelEvaluation(LABELS, **kind)
    ref = MultiLabelEvaluation(LABELS, **kind)
    logger = SummaryLogger(ev, got.append, every=50)
    logger.add_cases(y[:30], s[:30])
    ref.add_cases(y[:30], s[:30])  # fed as the logger feeds (a bounded summary's bins depend on the batches)
    for i in range(30, 100):
        logger.add_case(y[i], s[i], weight=1.0)
        ref.add_case(y[i], s[i])
        if i == 59:  # a rejected row reaches nothing and is not counted
            with pytest.raises(ValueError):
                logger.add_case(y[i], [0.1, math.nan, 0.3])
        if i + 1 == 50:
            assert len(got) == 1 and same_tree({k: v for k, v in got[0].items() if k not in ("step", "time")},
                                               ref.summary())
    logger.add_cases(y[100:], s[100:])  # 30 rows after the summary at 100: none due
    assert [g["step"] for g in got] == [50, 100]
    logger.close()
    assert [g["step"] for g in got] == [50, 100, 130] and ev.num_rows_seen == 130
    assert ev.num_rows == (40 if "window" in kind else 130)
    ref.add_cases(y[100:], s[100:])
    last = {k: v for k, v in got[-1].items() if k not in ("step", "time")}
    assert same_tree(last, ref.summary()) and same_tree(last, ev.summary())
    assert logger["dog"].summary().keys() == ev["dog"].summary().keys()  # forwarded: one label's evaluator
    assert str(got[-1]).startswith("rows=") and "AP[macro]=" in str(got[-1])
    logger.reset()
    assert ev.num_rows == 0 and ev.num_rows_seen == 0 and logger.cases_since_log == 0


def test_the_logger_refuses_a_window_beside_a_kind_of_many_rankings() -> None:
    for ev in (MultiLabelEvaluation(LABELS), MultiQueryEvaluation()):
        with pytest.raises(UnsupportedQuery, match="argument 'window'.*one ranking per (label|query)"):
            SummaryLogger(ev, print, every=1, window=WindowedEvaluation(size=3))


def test_the_logger_feeds_a_multi_query_evaluation_through_its_own_add_methods() -> None:
    got: list[dict[str, Any]] = []
    multi, ref = MultiQueryEvaluation(), MultiQueryEvaluation()
    logger = SummaryLogger(multi, got.append, every=4)
    logger.add_cases("q1", [True, False, True], [0.9, 0.5, 0.1])
    logger.add_case("q2", False, 0.8)  # the fourth case: a summary
    assert [g["step"] for g in got] == [4]
    logger.add_case(query="q2", correct=True, score=0.3, weight=1.0)
    logger.add_misses("q2", 2)
    with pytest.raises(TypeError):
        logger.add_cases(["not", "hashable"], [True], [0.5])  # the evaluator's own error; nothing counted
    assert logger.cases_since_log == 1
    logger.close()
    ref.add_cases("q1", [True, False, True], [0.9, 0.5, 0.1])
    ref.add_cases("q2", [False, True], [0.8, 0.3])
    ref.add_misses("q2", 2)
    assert [g["step"] for g in got] == [4, 5]
    assert same_tree({k: v for k, v in got[-1].items() if k not in ("step", "time")}, ref.summary())
    assert logger["q2"].num_misses == 2 and str(got[-1]).startswith("queries=2 cases=5 pos=5 ")
    with pytest.raises(AttributeError):
        logger.add_negative_misses("q1", 1)  # a multi-query evaluation has none


def test_json_safe_and_format_summary_of_nested_summaries() -> None:
    ev = MultiLabelEvaluation(["a", "b"])
    ev.add_cases([[1, 0], [0, 0]], [[0.9, 0.1], [0.2, 0.3]])  # label b has no positive: NaN values
    summary = ev.summary()
    back = json.loads(json.dumps(json_safe(summary), allow_nan=False))
    assert back["labels"]["b"]["average_precision"] is None and back["num_rows"] == 2
    assert back["average_precision"]["macro"] == summary["average_precision"]["macro"]
    assert json_safe({"m": np.array([[1, 2], [3, 4]]), "t": (np.float64("nan"),)}) == {"m": [[1, 2], [3, 4]], "t": [None]}
    assert format_summary(summary).startswith("rows=2 AP[macro]=0.5000 AP[micro]=")


# ------------------------------------------------------------------ the naming rule


NESTED = {
    "num_rows": 3,
    "labels": {"cat": {"average_precision": 0.5, "num_cases": 3}, 7: {"average_precision": None}},
    "average_precision": {"macro": 0.25, "micro": np.float64(0.75)},
    "confusion": [[1, 2], [3, np.int64(4)]],
    "matrix": np.array([0.5, 1.5]),
    "macro": {"f1": 0.125},
    "exact": True,
    "step": 9,
    "time": 100.0,
}


def test_summary_entries_follow_the_rule_and_refuse_what_is_not_a_number() -> None:
    from scored_pr.integrations import summary_entries

    entries = summary_entries(NESTED)
    got = {(e.label, e.average, "/".join(e.measure)): e.value for e in entries}
    want = literal_names(NESTED)
    assert got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    assert ("7", None, "average_precision") in got and ("cat", None, "num_cases") in got
    assert got[(None, "macro", "f1")] == 0.125
    for bad, key, typename in (({"a": {"b": "x"}}, "a/b", "str"), ({"labels": {"cat": {"n": [1, object()]}}}, "labels/cat/n/1", "object"),
                               ({"a": b"1"}, "a", "bytes")):
        with pytest.raises(TypeError, match=rf"at key '{key}'") as info:
            summary_entries(bad)
        assert f"({typename})" in str(info.value)


# ------------------------------------------------------------------ TensorBoard


def _accumulator(logdir: Path) -> Any:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(logdir), size_guidance={"scalars": 0, "tensors": 0})
    acc.Reload()
    return acc


def test_tensorboard_writes_every_number_of_a_nested_summary(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from scored_pr.integrations import TensorBoard

    sink = TensorBoard(tmp_path / "ok", prefix="p")
    sink(NESTED)
    sink.close()
    acc = _accumulator(tmp_path / "ok")
    want = {tag("p", *k): v for k, v in literal_names(NESTED).items()}
    assert set(acc.Tags()["scalars"]) == set(want)
    for name, value in want.items():
        (event,) = acc.Scalars(name)
        assert same(event.value, np.float32(value)) and event.step == 9 and event.wall_time == 100.0

    refused = TensorBoard(tmp_path / "refused")
    with pytest.raises(TypeError, match=r"got 'cat' \(str\) at key 'labels/cat/name'"):
        refused({**NESTED, "labels": {"cat": {"average_precision": 0.5, "name": "cat"}}})
    with pytest.raises(ValueError, match=r"'labels/macro/f1' and 'macro/f1'.*'scored_pr/macro/f1'"):
        refused({"labels": {"macro": {"f1": 0.5}}, "macro": {"f1": 0.25}})  # a label named like an average
    refused.close()
    assert _accumulator(tmp_path / "refused").Tags()["scalars"] == []  # nothing was written


@pytest.mark.parametrize("kind", KINDS, ids=KIND_IDS)
def test_tensorboard_reads_back_per_label_averaged_and_the_curves(tmp_path: Path, kind: dict[str, int]) -> None:
    pytest.importorskip("tensorboard")
    from tensorboard.util import tensor_util

    from scored_pr.integrations import TensorBoard, exact_pr_points

    y, s = rows(120, seed=2)
    ev = MultiLabelEvaluation(LABELS, **kind)
    states: list[tuple[dict[str, Any], MultiLabelEvaluation]] = []
    sink = TensorBoard(tmp_path, max_points=10)
    original = sink.write

    def record(summary: Any, evaluation: Any = None, window: Any = None) -> None:
        states.append((dict(summary), MultiLabelEvaluation.from_dict(evaluation.to_dict())))
        original(summary, evaluation, window)

    sink.write = record  # type: ignore[method-assign]
    with SummaryLogger(ev, sink, every=50) as logger:
        logger.add_cases(y, s)
        logger.add_case(y[0], s[0])
    assert [st["step"] for st, _ in states] == [120, 121]
    acc = _accumulator(tmp_path)
    for i, (summary, held) in enumerate(states):
        whole = held.summary()
        for label in LABELS:
            for measure, value in held[label].summary().items():
                assert same(acc.Scalars(f"scored_pr/{label}/{measure}")[i].value, np.float32(value)), (label, measure)
        for measure in ("average_precision", "area_under_roc_curve"):
            for average, value in whole[measure].items():
                assert same(acc.Scalars(f"scored_pr/{average}/{measure}")[i].value, np.float32(value))
        assert acc.Scalars("scored_pr/num_rows")[i].value == whole["num_rows"]
        # one exact PR curve per label and the pooled (micro) one
        for name, one in [*((label, held[label]) for label in LABELS), ("micro", held.pooled())]:
            data = tensor_util.make_ndarray(acc.Tensors(f"scored_pr/{name}/pr_curve/pr_curves")[i].tensor_proto)
            p = exact_pr_points(one, 10)
            want = np.stack([p[k] for k in ("tp", "fp", "tn", "fn", "precision", "recall")]).astype(np.float32)
            assert np.array_equal(data, want), name
    names = set(acc.Tags()["scalars"])
    assert names == {tag("scored_pr", *k) for k in literal_names(states[-1][0])}


# ------------------------------------------------------------------ Prometheus


def _samples(registry: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    from prometheus_client import generate_latest
    from prometheus_client.parser import text_string_to_metric_families

    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for sample in family.samples
    }


@pytest.mark.parametrize("kind", KINDS, ids=KIND_IDS)
def test_prometheus_gauges_carry_label_and_average(kind: dict[str, int]) -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    y, s = rows(90, seed=3)
    ev = MultiLabelEvaluation(LABELS, **kind)
    with SummaryLogger(ev, Prometheus(registry, labels={"model": "v2"}), every=1000) as logger:
        logger.add_cases(y, s)
    scope = "window" if "window" in kind else "cumulative"
    samples = _samples(registry)

    def got(measure: str, label: str = "", average: str = "") -> float:
        return samples[(f"scored_pr_{measure}", (("average", average), ("label", label), ("model", "v2"), ("scope", scope)))]

    for label in LABELS:
        for measure, value in ev[label].summary().items():
            assert same(got(measure, label=label), value), (label, measure)
    whole = ev.summary()
    for measure in ("average_precision", "area_under_roc_curve"):
        for average, value in whole[measure].items():
            assert same(got(measure, average=average), value)
    assert got("num_rows") == whole["num_rows"]
    assert samples[("scored_pr_summary_step", (("model", "v2"),))] == 90
    # every sample is one of the summary's numbers: one per (label, average, measure), nothing else
    entries = {(k, v) for k, v in samples.items() if not k[0].startswith(("scored_pr_summary_step", "scored_pr_last_"))}
    assert len(entries) == len(literal_names(whole))


def test_prometheus_writes_every_number_of_a_nested_summary_or_nothing() -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    sink = Prometheus(registry, namespace="n")
    sink(NESTED)
    samples = _samples(registry)
    want = literal_names(NESTED)
    for (label, average, measure), value in want.items():
        key = ("n_" + measure.replace("/", "_"), (("average", average or ""), ("label", label or ""), ("scope", "cumulative")))
        assert same(samples[key], value), key
    assert len(samples) == len(want) + 2  # and the step and time gauges

    other = prometheus_client.CollectorRegistry()
    with pytest.raises(TypeError, match=r"at key 'labels/cat/name'"):
        Prometheus(other)({"labels": {"cat": {"average_precision": 0.5, "name": "x"}}})
    with pytest.raises(ValueError, match="argument 'labels' must not name 'label'"):
        Prometheus(other, labels={"label": "x"})(NESTED)
    assert _samples(other) == {}  # nothing was set
    # a summary without labels or averages keeps the binary gauges' label names
    flat = Prometheus(other, namespace="flat")
    flat({"average_precision": 0.5, "window_average_precision": 0.25})
    assert _samples(other)[("flat_average_precision", (("scope", "window"),))] == 0.25


def test_prometheus_multi_query_means_and_totals() -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    multi = MultiQueryEvaluation()
    with SummaryLogger(multi, Prometheus(registry), every=100) as logger:
        logger.add_cases("q1", [True, False, True], [0.9, 0.5, 0.1])
        logger.add_cases("q2", [False, True], [0.8, 0.3])
    samples = _samples(registry)
    for key, value in multi.summary().items():
        assert same(samples[(f"scored_pr_{key}", (("scope", "cumulative"),))], value), key


# ------------------------------------------------------------------ MLflow


@pytest.fixture
def file_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    mlflow = pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", (tmp_path / "mlruns").as_uri())
    yield mlflow


@pytest.mark.parametrize("kind", KINDS, ids=KIND_IDS)
def test_mlflow_metrics_per_label_and_averaged_and_the_curves(file_store: Any, tmp_path: Path,
                                                             kind: dict[str, int]) -> None:
    mlflow = file_store
    from scored_pr.integrations import MLflow, curves_json

    y, s = rows(80, seed=4)
    ev = MultiLabelEvaluation(LABELS, **kind)
    with mlflow.start_run() as run:
        with SummaryLogger(ev, MLflow(prefix="val/"), every=40) as logger:
            logger.add_cases(y[:40], s[:40])
            logger.add_cases(y[40:], s[40:])
    client = mlflow.MlflowClient()
    metrics = client.get_run(run.info.run_id).data.metrics  # the latest value of each
    want = {"val/" + "/".join(p for p in k if p is not None): v for k, v in literal_names(ev.summary()).items()}
    assert metrics.keys() == {k for k, v in want.items() if math.isfinite(v)}  # NaN is not logged
    for label in LABELS:
        for measure, value in ev[label].summary().items():
            if math.isfinite(value):
                assert metrics[f"val/{label}/{measure}"] == value
    for average, value in ev.summary()["average_precision"].items():
        assert metrics[f"val/{average}/average_precision"] == value
    history = client.get_metric_history(run.info.run_id, "val/macro/area_under_roc_curve")
    assert [m.step for m in history] == [40, 80]
    names = sorted(a.path for d in client.list_artifacts(run.info.run_id, "scored_pr")
                   for a in client.list_artifacts(run.info.run_id, d.path))
    assert names == sorted(f"scored_pr/{p}/curves.{x}" for p in [*LABELS, "micro"] for x in ("json", "png"))
    for name, one in [*((label, ev[label]) for label in LABELS), ("micro", ev.pooled())]:
        local = Path(client.download_artifacts(run.info.run_id, f"scored_pr/{name}/curves.json", str(tmp_path)))
        assert json.loads(local.read_text()) == json.loads(json.dumps(curves_json(one)))


def test_mlflow_writes_every_finite_number_of_a_nested_summary_or_nothing(file_store: Any) -> None:
    mlflow = file_store
    from scored_pr.integrations import MLflow

    with mlflow.start_run() as run:
        sink = MLflow()
        sink(NESTED)
        with pytest.raises(TypeError, match=r"at key 'macro/f1'"):
            sink({"num_rows": 1, "macro": {"f1": "high"}})
        sink.close()
    metrics = mlflow.MlflowClient().get_run(run.info.run_id).data.metrics
    want = {"/".join(p for p in k if p is not None): v for k, v in literal_names(NESTED).items()}
    assert metrics == {k: v for k, v in want.items() if math.isfinite(v)}


def test_prometheus_carries_each_class_of_the_top_class_figures_as_a_label() -> None:
    """A multi-class summary's ``classes`` are keyed by class as ``labels`` is: the class is the gauge's label."""
    prometheus_client = pytest.importorskip("prometheus_client")
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    from scored_pr.integrations import Prometheus, summary_entries

    rng = np.random.default_rng(11)
    truth, scores = rng.integers(0, 3, 120), rng.random((120, 3))
    ev = MultiLabelEvaluation(LABELS)
    registry = prometheus_client.CollectorRegistry()
    with SummaryLogger(ev, Prometheus(registry), every=1000) as logger:
        logger.add_cases(np.eye(3, dtype=bool)[truth], scores)
    samples = _samples(registry)
    p, r, f, support = sklearn_metrics.precision_recall_fscore_support(truth, scores.argmax(axis=1), zero_division=0)
    for j, label in enumerate(LABELS):
        key = (("average", ""), ("label", label), ("scope", "cumulative"))
        assert samples[("scored_pr_precision", key)] == pytest.approx(p[j], rel=1e-15)
        assert samples[("scored_pr_recall", key)] == pytest.approx(r[j], rel=1e-15)
        assert samples[("scored_pr_f_measure", key)] == pytest.approx(f[j], rel=1e-15)
        assert samples[("scored_pr_support", key)] == support[j]
    classes = [e for e in summary_entries(ev.summary()) if e.key.startswith("classes/")]
    assert {e.label for e in classes} == set(LABELS) and all(e.average is None for e in classes)

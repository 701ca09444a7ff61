"""A SlicedEvaluation logged by SummaryLogger and read back by TensorBoard, Prometheus and MLflow.

Each sink's numbers are compared with each slice's own ``summary()``: TensorBoard's
``EventAccumulator`` reads ``scored_pr/<slice>/<measure>`` and a PR curve per slice;
``prometheus_client``'s exposition parser reads one sample per slice with a label per key;
MLflow's client on a file store reads the latest value of each metric.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from scored_pr import SlicedEvaluation
from scored_pr.streaming import SummaryLogger


def cases(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(y * 1.0, 1.0) * 4) / 4  # tie groups
    region = rng.choice(np.array(["eu", "us", None], dtype=object), size=n)
    device = rng.choice(["mobile", "desktop"], size=n)
    return y, s, region, device


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_the_logger_feeds_every_slice_and_counts_cases() -> None:
    y, s, region, device = cases(60)
    got: list[dict[str, Any]] = []
    ev = SlicedEvaluation(("region", "device"))
    with SummaryLogger(ev, got.append, every=25) as logger:
        logger.add_cases(y[:40], s[:40], region=region[:40], device=device[:40])
        for i in range(40, 60):
            logger.add_case(bool(y[i]), float(s[i]), region=region[i], device=device[i])
    assert [g["step"] for g in got] == [40, 60]
    ref = SlicedEvaluation(("region", "device"))
    ref.add_cases(y, s, region=region, device=device)
    assert ev == ref
    assert got[-1]["region=(missing)"] == pytest.approx(ref.slice(region=None).summary(), nan_ok=True)


def test_tensorboard_reads_back_every_slice_and_its_curve(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.util import tensor_util

    from scored_pr.integrations import TensorBoard, exact_pr_points

    y, s, region, device = cases(120, seed=2)
    ev = SlicedEvaluation(("region", "device"))
    with SummaryLogger(ev, TensorBoard(tmp_path, max_points=10), every=1000) as logger:
        logger.add_cases(y, s, region=region, device=device)
    acc = EventAccumulator(str(tmp_path), size_guidance={"scalars": 0, "tensors": 0})
    acc.Reload()
    names = set(acc.Tags()["scalars"])
    want = set()
    for pairs in ev.slices():
        for measure, value in ev[pairs].summary().items():
            tag = f"scored_pr/{pairs}/{measure}"
            want.add(tag)
            assert same(acc.Scalars(tag)[0].value, np.float32(value)), tag
        data = tensor_util.make_ndarray(acc.Tensors(f"scored_pr/{pairs}/pr_curve/pr_curves")[0].tensor_proto)
        p = exact_pr_points(ev[pairs], 10)
        assert np.array_equal(data, np.stack([p[k] for k in ("tp", "fp", "tn", "fn", "precision", "recall")]).astype(np.float32))
    assert "scored_pr/region=eu/average_precision" in names
    assert names == want


def test_prometheus_has_one_sample_per_slice_with_a_label_per_key() -> None:
    prometheus_client = pytest.importorskip("prometheus_client")
    from prometheus_client import generate_latest
    from prometheus_client.parser import text_string_to_metric_families

    from scored_pr.integrations import Prometheus

    registry = prometheus_client.CollectorRegistry()
    y, s, region, device = cases(90, seed=3)
    ev = SlicedEvaluation(("region", "device"))
    with SummaryLogger(ev, Prometheus(registry, labels={"model": "v2"}), every=1000) as logger:
        logger.add_cases(y, s, region=region, device=device)
    samples = {(x.name, tuple(sorted(x.labels.items()))): x.value
               for family in text_string_to_metric_families(generate_latest(registry).decode()) for x in family.samples}
    count = 0
    for pairs in ev.slices():
        fixed = {k: ("(missing)" if v is None else v) for k, v in pairs}
        labels = (("device", fixed.get("device", "")), ("model", "v2"), ("region", fixed.get("region", "")),
                  ("scope", "cumulative"))
        for measure, value in ev[pairs].summary().items():
            assert same(samples[(f"scored_pr_{measure}", labels)], value), (pairs, measure)
            count += 1
    assert samples[("scored_pr_summary_step", (("model", "v2"),))] == 90
    assert len([k for k in samples if not k[0].startswith(("scored_pr_summary_step", "scored_pr_last_"))]) == count
    with pytest.raises(ValueError, match="argument 'labels' must not name 'region'"):
        Prometheus(prometheus_client.CollectorRegistry(), labels={"region": "x"}).write(ev.summary(), ev)


@pytest.fixture
def file_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    mlflow = pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", (tmp_path / "mlruns").as_uri())
    yield mlflow


def test_mlflow_reads_back_every_finite_number_of_every_slice(file_store: Any) -> None:
    mlflow = file_store
    from scored_pr.integrations import MLflow

    y, s, region, device = cases(80, seed=4)
    ev = SlicedEvaluation("region")
    with mlflow.start_run() as run:
        with SummaryLogger(ev, MLflow(prefix="val/", curves=False), every=1000) as logger:
            logger.add_cases(y, s, region=region)
    metrics = mlflow.MlflowClient().get_run(run.info.run_id).data.metrics
    want = {}
    for pairs in ev.slices():
        # MLflow's names take letters, digits, _ - . space and /: "region=(missing)" is "region__missing_"
        part = "".join(c if c.isalnum() or c in "_-. " else "_" for c in str(pairs))
        for measure, value in ev[pairs].summary().items():
            if math.isfinite(value):  # NaN is not logged
                want[f"val/{part}/{measure}"] = value
    assert metrics == want
    assert metrics["val/region_eu/average_precision"] == ev.slice(region="eu").average_precision()
    assert metrics["val/overall/num_cases"] == 80

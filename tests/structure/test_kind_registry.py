"""One place to register a kind: a fake kind, registered here, reaches every consumer.

A kind declares itself once (``scored_pr._kinds.register``); the state loader,
``scored-pr report``, ``plot``, ``testing``, the sinks (``SummaryLogger``) and
the intervals then take it, or refuse it with ``UnsupportedQuery`` when what it
holds is not what they read, without a line of theirs naming it. Two fake
kinds: one that holds one ranking (it wraps an exact evaluator and saves a
state file of its own format), and one that holds one ranking per label (its
report prints its figures; the logger logs it and the sinks draw its labels'
curves; plots refuse it).
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation, UnsupportedQuery, _kinds
from scored_pr._state import statefile
from scored_pr.streaming import SummaryLogger
from scored_pr.testing import assert_metrics, metric_value

FORMAT = "scored_pr.tests.FakeEvaluation"


class FakeEvaluation:
    """A kind of the tests' own: one exact ranking behind the public protocol, a state format of its own."""

    def __init__(self, ties: str = "grouped") -> None:
        self.__dict__["_ev"] = ScoredPrecisionRecallEvaluation(ties=ties)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.__dict__["_ev"], name)

    def save(self, path: Any) -> None:
        statefile.write_npz(path, {
            "meta": statefile.encode_meta({"format": FORMAT, "kind": "fake", "version": 1}),
            "state": statefile.encode_json(self._ev.to_dict(), "state"),
        })

    @classmethod
    def load(cls, path: Any) -> FakeEvaluation:
        with statefile.NpzReader(path, "FakeEvaluation.load") as npz:
            statefile.read_meta(npz, "fake")
            state = statefile.read_json(npz, "state")
        fake = cls()
        fake.__dict__["_ev"] = ScoredPrecisionRecallEvaluation.from_dict(state)
        return fake


class FakePerLabel:
    """A kind holding one ranking per label: figures for the report, nothing a plot can draw."""

    def __init__(self) -> None:
        self.ties = "grouped"
        self.labels = {"a": ScoredPrecisionRecallEvaluation(), "b": ScoredPrecisionRecallEvaluation()}

    def summary(self) -> dict[str, float]:
        return {f"{k}: average_precision": ev.average_precision() for k, ev in self.labels.items()}

    def __getitem__(self, label: str) -> ScoredPrecisionRecallEvaluation:
        return self.labels[label]

    def pooled(self) -> ScoredPrecisionRecallEvaluation:
        return self.labels["a"] + self.labels["b"]


@pytest.fixture
def fake_kinds() -> Iterator[None]:
    _kinds.register(_kinds.Kind(
        "fake", FakeEvaluation, "ranking", state_format=FORMAT, load=FakeEvaluation.load,
        report_view=lambda fake: fake._ev, extra=lambda fake: {"fake": True}, new=FakeEvaluation,
    ))
    _kinds.register(_kinds.Kind("fake_per_label", FakePerLabel, "per_label", figures=lambda f: f.summary()))
    try:
        yield
    finally:
        _kinds.unregister("fake")
        _kinds.unregister("fake_per_label")


def _fed() -> tuple[FakeEvaluation, ScoredPrecisionRecallEvaluation]:
    rng = np.random.default_rng(3)
    y, s = rng.random(200) < 0.4, np.round(rng.random(200), 2)
    fake, exact = FakeEvaluation(), ScoredPrecisionRecallEvaluation()
    fake.add_cases(y, s)
    exact.add_cases(y, s)
    return fake, exact


def test_the_registry_knows_the_kind_by_class_and_by_state_format(fake_kinds: None) -> None:
    fake, _ = _fed()
    kind = _kinds.kind_of(fake)
    assert kind is not None and kind.name == "fake" and kind.holds == "ranking"
    assert _kinds.by_format(FORMAT) is kind and _kinds.KINDS["fake"] is kind
    assert _kinds.kind_of(FakePerLabel()) is _kinds.KINDS["fake_per_label"]


def test_the_registry_refuses_a_class_registered_twice_and_unknown_holdings(fake_kinds: None) -> None:
    with pytest.raises(ValueError, match="already the kind 'fake'"):
        _kinds.register(_kinds.Kind("fake2", FakeEvaluation, "ranking"))
    with pytest.raises(ValueError, match="holds must be one of"):
        _kinds.register(_kinds.Kind("fake3", dict, "everything"))
    assert "fake2" not in _kinds.KINDS and "fake3" not in _kinds.KINDS


def test_the_state_loader_reads_the_new_format_and_names_the_kind(fake_kinds: None, tmp_path: Path) -> None:
    fake, exact = _fed()
    path = tmp_path / "fake.npz"
    fake.save(path)
    assert statefile.kind_of(path, "test") == "fake"
    assert FakeEvaluation.load(path)._ev == exact
    # a loader of another kind names this one and the class whose load reads it
    with pytest.raises(ValueError, match=r"FakeEvaluation \(kind 'fake'\).*FakeEvaluation.load\(\)"):
        ScoredPrecisionRecallEvaluation.load(path)


def _report(*argv: str) -> tuple[int, str]:
    from scored_pr._cli.main import main

    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["report", *argv])
    return status, out.getvalue()


def test_scored_pr_report_reads_a_state_file_of_the_new_kind(fake_kinds: None, tmp_path: Path) -> None:
    fake, exact = _fed()
    fake.save(tmp_path / "fake.npz")
    exact.save(tmp_path / "exact.npz")
    status, got = _report(str(tmp_path / "fake.npz"), "--format", "json")
    assert status == 0
    mine = json.loads(got)
    status, want = _report(str(tmp_path / "exact.npz"), "--format", "json")
    theirs = json.loads(want)
    assert mine["kind"] == "fake" and mine["fake"] is True and theirs["kind"] == "exact"
    for key in ("average_precision", "area_under_roc_curve", "maximum_f_measure", "num_cases"):
        assert mine[key] == theirs[key], key


def test_testing_plot_sinks_and_intervals_take_the_new_kind(fake_kinds: None) -> None:
    fake, exact = _fed()
    assert metric_value(fake, "average_precision") == exact.average_precision()
    assert_metrics(fake, average_precision=exact.average_precision())
    written: list[dict[str, Any]] = []
    with SummaryLogger(fake, lambda summary: written.append(dict(summary)), every=1) as logger:
        logger.add_case(True, 0.5)
    exact.add_case(True, 0.5)
    assert written[-1]["average_precision"] == exact.average_precision()
    from scored_pr import compare

    r = compare(fake, exact, measure="area_under_roc_curve", method="delong")
    assert r.difference == 0.0
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from scored_pr.plot import pr_steps, plot_pr

    assert np.array_equal(pr_steps(fake)[0], pr_steps(exact)[0])
    plot_pr(fake, ax=Figure().subplots())


def test_consumers_refuse_a_kind_that_holds_one_ranking_per_label_saying_why(fake_kinds: None) -> None:
    per_label = FakePerLabel()
    from scored_pr.plot import pr_steps

    with pytest.raises(UnsupportedQuery, match="one ranking per label"):
        pr_steps(per_label)



def test_the_logger_and_the_sinks_take_a_kind_that_holds_one_ranking_per_label(fake_kinds: None, tmp_path: Path) -> None:
    per_label = FakePerLabel()
    per_label.labels["a"].add_cases([True, False], [0.9, 0.1])
    per_label.labels["b"].add_cases([False, True], [0.9, 0.1])
    written: list[dict[str, Any]] = []
    with SummaryLogger(per_label, written.append, every=1, step=lambda: 3) as logger:
        logger.log()
    assert written[0]["a: average_precision"] == 1.0 and written[0]["b: average_precision"] == 0.5
    assert written[0]["step"] == 3
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from scored_pr.integrations import TensorBoard

    sink = TensorBoard(tmp_path)
    sink.write({**per_label.summary(), "step": 1}, per_label)
    sink.close()
    acc = EventAccumulator(str(tmp_path), size_guidance={"scalars": 0, "tensors": 0})
    acc.Reload()
    assert [e.value for e in acc.Scalars("scored_pr/b: average_precision")] == [0.5]
    assert set(acc.Tags()["tensors"]) == {f"scored_pr/{p}/pr_curve/pr_curves" for p in ("a", "b", "micro")}

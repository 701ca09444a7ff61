"""A bounded MultiLabelEvaluation's top-class counts in its state: saved, loaded, and absent from older states.

The counts (the sparse confusion matrix of multi-class rows and the number of
other rows) ride in two arrays whose length the header fixes; a state written
before they existed (no ``top_pairs`` in the header, no ``top`` in a dict or
pickle) still loads, with the counts unknown.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

from scored_pr import MultiLabelEvaluation, UnsupportedQuery
from scored_pr._state import multilabel as _ml_state
from scored_pr._state import statefile as _statefile

LABELS = ["a", "b", "c"]


def _bounded(weighted: bool = False) -> tuple[MultiLabelEvaluation, np.ndarray]:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, size=50)
    s = np.round(rng.random((50, 3)), 1)
    w = rng.random(50) + 0.5 if weighted else None
    ev = MultiLabelEvaluation(LABELS, max_bins=8)
    ev.add_cases(np.array(LABELS)[y], s, sample_weight=w)
    return ev, confusion_matrix(y, s.argmax(axis=1), labels=range(3), sample_weight=w)


@pytest.mark.parametrize("weighted", [False, True])
def test_save_load_keeps_the_counts(tmp_path: Path, weighted: bool) -> None:
    ev, want = _bounded(weighted)
    ev.save(tmp_path / "ml.npz")
    back = MultiLabelEvaluation.load(tmp_path / "ml.npz")
    assert back == ev
    np.testing.assert_allclose(back.confusion_matrix(), want, rtol=1e-12)
    assert back.confusion_matrix().dtype == ev.confusion_matrix().dtype


def test_a_multi_label_count_is_saved_too(tmp_path: Path) -> None:
    ev = MultiLabelEvaluation(LABELS, max_bins=8)
    ev.add_cases([[1, 1, 0], [0, 1, 0]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    ev.save(tmp_path / "ml.npz")
    with pytest.raises(UnsupportedQuery, match="1 of the rows added do not"):
        MultiLabelEvaluation.load(tmp_path / "ml.npz").accuracy()


def test_an_older_state_file_and_pickle_load_without_the_counts(tmp_path: Path) -> None:
    ev, _ = _bounded()
    old = ev._state()._replace(top=None)  # what the previous version wrote: no top-class counts
    _ml_state.save(old, tmp_path / "old.npz")
    with _statefile.NpzReader(tmp_path / "old.npz", "test") as npz:
        assert npz.names == {"meta", "bins"}
    loaded = MultiLabelEvaluation.load(tmp_path / "old.npz")
    assert loaded.summary()["average_precision"] == ev.summary()["average_precision"]
    with pytest.raises(UnsupportedQuery, match="saved before the top-class counts"):
        loaded.confusion_matrix()
    state = _ml_state.to_pickle(old)
    assert "top" not in state
    unpickled = MultiLabelEvaluation._from_pickle(state)
    assert "accuracy" not in unpickled.summary()
    assert pickle.loads(pickle.dumps(unpickled)) == unpickled  # unknown stays unknown


@pytest.mark.parametrize("bad", [
    {"codes": [3, 1], "counts": [1, 1], "other_rows": 0},  # not ascending
    {"codes": [9], "counts": [1], "other_rows": 0},  # beyond k * k
    {"codes": [1], "counts": [-1], "other_rows": 0},
    {"codes": [1], "counts": [1], "other_rows": -1},
    {"codes": [1], "counts": [1]},
])  # fmt: skip
def test_bad_counts_are_refused(bad: dict) -> None:
    ev, _ = _bounded()
    d = ev.to_dict()
    d["top"] = bad
    with pytest.raises(ValueError):
        MultiLabelEvaluation.from_dict(d)

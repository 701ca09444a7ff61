"""``scored-pr report`` of multi-class rows at the top-scoring class: accuracy, precision, recall, F1 and the
confusion matrix in the wide-file report (text and JSON) and in a multi-label state file's figures, held to
scikit-learn (the predicted class is ``argmax`` of the row's scores, the first column on ties)."""

from __future__ import annotations

import json
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

sk = pytest.importorskip("sklearn.metrics")

from cli_env import CMD, ROOT, clean_env  # noqa: E402

CLASSES = ["cat", "dog", "bird"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, "report", *args], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=clean_env())  # fmt: skip


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(4)
    y = np.concatenate([np.arange(3), rng.integers(0, 3, 37)])
    s = np.round(rng.dirichlet(np.ones(3), size=40) + 0.3 * np.eye(3)[y], 1)
    s /= s.sum(axis=1, keepdims=True)
    return y, s


def _wide_file(tmp_path: Path) -> tuple[Path, np.ndarray, np.ndarray]:
    y, s = _data()
    path = tmp_path / "mc.csv"
    rows = [",".join([CLASSES[t], *(repr(float(v)) for v in r)]) for t, r in zip(y, s)]
    path.write_text("y," + ",".join(f"p_{c}" for c in CLASSES) + "\n" + "\n".join(rows) + "\n")
    return path, y, s


def _prf(y: np.ndarray, pred: np.ndarray, average: str | None) -> tuple:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sk.precision_recall_fscore_support(y, pred, labels=range(3), average=average)


def test_wide_multiclass_json_has_accuracy_the_prf_and_the_confusion_matrix(tmp_path: Path) -> None:
    path, y, s = _wide_file(tmp_path)
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    pred = s.argmax(axis=1)
    assert out["confusion_matrix"] == sk.confusion_matrix(y, pred, labels=range(3)).tolist()
    assert out["averages"]["accuracy"] == pytest.approx(sk.accuracy_score(y, pred), abs=1e-15)
    p, r, f, _ = _prf(y, pred, None)
    for j, entry in enumerate(out["labels"]):
        assert (entry["precision"], entry["recall"], entry["f_measure"]) == pytest.approx((p[j], r[j], f[j]), abs=1e-15)
    for average in ("macro", "micro", "weighted"):
        want = _prf(y, pred, average)[:3]
        got = tuple(out["averages"][name][average] for name in ("precision", "recall", "f_measure"))
        assert got == pytest.approx(want, abs=1e-15), average


def test_wide_multiclass_text_shows_accuracy_and_the_matrix(tmp_path: Path) -> None:
    path, y, s = _wide_file(tmp_path)
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    accuracy = [line for line in lines if line.startswith("| accuracy ")]
    assert len(accuracy) == 1 and float(accuracy[0].split("|")[3]) == pytest.approx(sk.accuracy_score(y, s.argmax(axis=1)))
    start = [i for i, line in enumerate(lines) if line.startswith("at the top-scoring class")][0]
    pred = s.argmax(axis=1)
    per_class = [[float(c) for c in row.split("|")[2:-1]] for row in lines[start + 3 : start + 6]]
    p, r, f, _ = _prf(y, pred, None)
    np.testing.assert_allclose(per_class, np.column_stack([p, r, f]), rtol=0, atol=1e-15)
    header, rows = lines[start + 7], lines[start + 9 : start + 12]
    assert [c.strip() for c in header.split("|")[2:-1]] == CLASSES
    matrix = [[int(c) for c in row.split("|")[2:-1]] for row in rows]
    assert [row.split("|")[1].strip() for row in rows] == CLASSES
    assert matrix == sk.confusion_matrix(y, s.argmax(axis=1), labels=range(3)).tolist()


def test_multilabel_wide_report_has_no_confusion_matrix(tmp_path: Path) -> None:
    path = tmp_path / "ml.csv"
    path.write_text("a,b,sa,sb\n1,1,0.9,0.8\n0,1,0.2,0.7\n1,0,0.6,0.1\n0,0,0.3,0.4\n")
    res = run(str(path), "--label-cols", "a,b", "--score-cols", "sa,sb", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert "confusion_matrix" not in out and "accuracy" not in out["averages"]


@pytest.mark.parametrize("max_bins", [None, 64])
def test_a_multi_class_state_file_reports_the_top_class_figures(tmp_path: Path, max_bins: int | None) -> None:
    from scored_pr import MultiLabelEvaluation

    y, s = _data()
    ev = MultiLabelEvaluation(CLASSES, max_bins=max_bins)
    ev.add_cases(np.array(CLASSES)[y], s)
    ev.save(tmp_path / "mc.npz")
    res = run(str(tmp_path / "mc.npz"), "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    pred = s.argmax(axis=1)
    assert got["accuracy"] == pytest.approx(sk.accuracy_score(y, pred), abs=1e-15)
    cm = sk.confusion_matrix(y, pred, labels=range(3))
    for i, true in enumerate(CLASSES):
        for j, predicted in enumerate(CLASSES):
            assert got[f"confusion ({true} -> {predicted})"] == cm[i, j]
    assert got["f_measure (macro)"] == pytest.approx(_prf(y, pred, "macro")[2], abs=1e-15)
    text = run(str(tmp_path / "mc.npz")).stdout
    assert "| accuracy " in text and "| confusion (cat -> dog) " in text

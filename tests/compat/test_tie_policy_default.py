"""The default tie policy gives one answer whatever the order of the rows (and it is scikit-learn's)."""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr import MultiQueryEvaluation, ScoredPrecisionRecallEvaluation, SynchronizedEvaluation

sklearn = pytest.importorskip("sklearn")
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.metrics import average_precision_score, roc_auc_score  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402


def test_the_default_is_grouped_everywhere() -> None:
    assert ScoredPrecisionRecallEvaluation().ties == "grouped"
    assert MultiQueryEvaluation().ties == "grouped"
    assert SynchronizedEvaluation().ties == "grouped"
    assert "ties='grouped'" in repr(ScoredPrecisionRecallEvaluation())


def test_a_coarse_model_gets_one_answer_whatever_the_row_order() -> None:
    x, y = load_breast_cancer(return_X_y=True)
    scores = DecisionTreeClassifier(max_depth=2, random_state=0).fit(x, y).predict_proba(x)[:, 1]
    assert np.unique(scores).size == 4  # a handful of distinct scores: heavy ties
    labels = y.astype(bool)
    orders = {
        "as loaded": np.arange(y.size),
        "positives first within ties": np.lexsort((~labels, -scores)),
        "negatives first within ties": np.lexsort((labels, -scores)),
    }
    stable, default = {}, {}
    for name, order in orders.items():
        st = ScoredPrecisionRecallEvaluation(ties="stable")
        st.add_cases(labels[order], scores[order])
        stable[name] = st.average_precision()
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(labels[order], scores[order])
        default[name] = (ev.average_precision(), ev.area_under_roc_curve())
    # LingPipe order: three row orders, three different APs (0.957, 0.997, 0.934 here)
    assert len({round(v, 6) for v in stable.values()}) == 3
    assert round(stable["as loaded"], 3) == 0.957
    assert round(stable["positives first within ties"], 3) == 0.997
    assert round(stable["negatives first within ties"], 3) == 0.934
    # the default: one answer, scikit-learn's
    want = (average_precision_score(y, scores), roc_auc_score(y, scores))
    for got in default.values():
        assert got == pytest.approx(want, abs=1e-12)
    assert round(want[0], 3) == 0.978


def test_every_output_shows_the_policy_and_the_same_precision_ranks(tmp_path) -> None:
    import json
    import subprocess
    import sys

    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False] * 300, np.linspace(1.0, 0.0, 600))
    keys = [k for k in ev.summary() if k.startswith("precision_at_")]
    assert keys == [f"precision_at_{k}" for k in (5, 10, 25, 100, 500)]
    report = str(ev)
    assert "  Tie Policy=grouped" in report.splitlines()
    assert [line.split("=")[0].strip() for line in report.splitlines() if line.strip().startswith("Precision at")] == [
        f"Precision at {k}" for k in (5, 10, 25, 100, 500)
    ]
    data = tmp_path / "p.csv"
    data.write_text("correct,score\n" + "".join(f"{i % 2},{i}\n" for i in range(30)))
    out = subprocess.run([sys.executable, "-m", "scored_pr", "report", str(data), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    obj = json.loads(out)
    assert obj["ties"] == "grouped" and [k for k in obj if k.startswith("precision_at_")] == keys
    help_text = subprocess.run([sys.executable, "-m", "scored_pr", "report", "--help"],
                               capture_output=True, text=True, check=True).stdout
    assert "grouped: one threshold per distinct score, independent of line order (default)" in " ".join(help_text.split())

"""scored_pr.trec against trec_eval: pytrec_eval on random graded collections, and hand-worked cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scored_pr.trec import TrecEval, parse_measures
from scored_pr.trec import _precision

pytrec_eval = pytest.importorskip("pytrec_eval")

LEVELS = [i / 10 for i in range(11)]


def random_collection(seed: int) -> tuple[dict, dict]:
    """Graded qrels (-1..4), unjudged retrieved documents, queries without relevant documents,
    queries judged but not run and run but not judged, tied and distinct scores."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(int(rng.integers(3, 12))):
        qid = f"q{q}"
        docs = [f"d{i:03d}" for i in range(int(rng.integers(3, 70)))]
        if rng.random() < 0.9:
            judged = {d: int(rng.integers(-1, 5)) for d in docs if rng.random() < 0.6}
            if rng.random() < 0.15:  # judged, nothing relevant
                judged = {d: min(g, 0) for d, g in judged.items()}
            qrels[qid] = judged or {docs[0]: 0}
        if rng.random() < 0.9 or qid not in qrels:
            ret = [d for d in docs if rng.random() < 0.7] or docs[:1]
            tied = rng.random() < 0.5
            scores = rng.integers(0, 6, size=len(ret)).astype(float) if tied else rng.random(len(ret))
            run[qid] = dict(zip(ret, scores.tolist()))
    if not set(qrels) & set(run):
        run["q0"] = {"d000": 1.0}
        qrels.setdefault("q0", {"d000": 1})
    return qrels, run


def close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-12 * max(1.0, abs(b))


@pytest.mark.parametrize("seed", range(40))
def test_every_pytrec_eval_measure_matches_per_query(seed: int) -> None:
    qrels, run = random_collection(seed)
    want = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    te = TrecEval(qrels, run)
    results = te.evaluate("all_trec")
    assert sorted(want) == results.queries
    checked = 0
    for q, w in want.items():
        got = results.per_query[q]
        v9 = _precision.interpolated_precision_at_recall_v9(te.ranked(q), LEVELS)
        for name, value in w.items():
            if name in ("runid", "num_q", "relstring"):
                continue
            if name.startswith("iprec_at_recall_"):  # pytrec_eval is trec_eval 9: +0.9 truncation
                mine = v9[round(float(name.rsplit("_", 1)[1]) * 10)]
            else:
                mine = got[name]
            assert close(mine, value), (seed, q, name, mine, value)
            checked += 1
    assert checked >= 80 * len(want)

"""Parity with trec_eval (through pytrec_eval) on random qrels and runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scored_pr import MultiQueryEvaluation, ScoredPrecisionRecallEvaluation

pytrec_eval = pytest.importorskip("pytrec_eval")

MEASURES = {"map", "recip_rank", "Rprec", "iprec_at_recall", "P"}
LEVELS = [f"iprec_at_recall_{i / 10:.2f}" for i in range(11)]


def random_collection(seed: int, distinct: bool = True):
    """qrels and run dicts, with unretrieved relevant documents and unjudged retrieved ones."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(int(rng.integers(3, 12))):
        qid = f"q{q}"
        docs = [f"d{q}_{i:03d}" for i in range(int(rng.integers(5, 80)))]
        judged = rng.random(len(docs)) < 0.8
        qrels[qid] = {d: int(rng.integers(0, 3)) if rng.random() < 0.4 else 0 for d, j in zip(docs, judged) if j}
        if not any(g > 0 for g in qrels[qid].values()):
            qrels[qid][docs[0]] = 1
        retrieved = [d for d in docs if rng.random() < 0.7] or docs[:1]
        if distinct:
            scores = rng.permutation(len(retrieved)).astype(float) + rng.random() * 0.5
        else:
            scores = rng.integers(0, 4, size=len(retrieved)).astype(float)
        run[qid] = dict(zip(retrieved, scores.tolist()))
    return qrels, run


def write_trec(tmp_path, qrels, run):
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in qrels.items() for d, g in ds.items()))
    lines = []
    for q, ds in run.items():
        for rank, (d, s) in enumerate(ds.items(), 1):  # file order = dict order, not by score
            lines.append(f"{q} Q0 {d} {rank} {s!r} tag\n")
    rp.write_text("".join(lines))
    return qp, rp


def expected(qrels, run) -> dict:
    return pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)


@pytest.mark.parametrize("seed", range(12))
def test_per_query_values_and_means_match_trec_eval(tmp_path, seed: int) -> None:
    qrels, run = random_collection(seed)
    want = expected(qrels, run)
    multi = MultiQueryEvaluation.from_trec(*write_trec(tmp_path, qrels, run))
    assert sorted(multi.queries()) == sorted(want)
    for q, w in want.items():
        ev = multi[q]
        assert ev.average_precision() == pytest.approx(w["map"], rel=1e-12, abs=1e-15)
        assert ev.reciprocal_rank() == pytest.approx(w["recip_rank"], rel=1e-12, abs=1e-15)
        assert ev.r_precision() == pytest.approx(w["Rprec"], rel=1e-12, abs=1e-15)
        got = ev.eleven_point_interpolated_precision(rounding="trec_eval9")
        np.testing.assert_allclose(got, [w[level] for level in LEVELS], rtol=1e-12, atol=1e-15)
    mean = lambda name: sum(w[name] for w in want.values()) / len(want)  # noqa: E731
    assert multi.mean_average_precision() == pytest.approx(mean("map"), rel=1e-12)
    assert multi.mean_reciprocal_rank() == pytest.approx(mean("recip_rank"), rel=1e-12)
    assert multi.mean_r_precision() == pytest.approx(mean("Rprec"), rel=1e-12)
    assert multi.mean_precision_at(5) == pytest.approx(mean("P_5"), rel=1e-12)
    assert multi.mean_precision_at(10) == pytest.approx(mean("P_10"), rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_docno_ties_reproduce_trec_eval_on_tied_scores(tmp_path, seed: int) -> None:
    qrels, run = random_collection(100 + seed, distinct=False)
    want = expected(qrels, run)
    multi = MultiQueryEvaluation.from_trec(*write_trec(tmp_path, qrels, run), docno_ties=True)
    for q, w in want.items():
        assert multi[q].average_precision() == pytest.approx(w["map"], rel=1e-12, abs=1e-15)
        assert multi[q].reciprocal_rank() == pytest.approx(w["recip_rank"], rel=1e-12, abs=1e-15)
        assert multi[q].r_precision() == pytest.approx(w["Rprec"], rel=1e-12, abs=1e-15)


def test_from_trec_counts_misses_and_rejects_bad_files(tmp_path) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("1 0 a 1\n1 0 b 2\n1 0 c 0\n1 0 z 1\n2 0 x 1\n")
    rp.write_text("1 Q0 a 1 3.0 t\n1 Q0 c 2 2.0 t\n1 Q0 u 3 1.0 t\n3 Q0 k 1 1.0 t\n")
    multi = MultiQueryEvaluation.from_trec(qp, rp)
    assert multi.queries() == ["1"]  # only queries in both files
    ev = multi["1"]
    assert (ev.num_cases, ev.num_positive_ref, ev.num_misses, ev.num_negative_ref) == (3, 3, 2, 2)
    rp.write_text("1 Q0 a 1 3.0 t\n1 Q0 a 2 2.0 t\n")
    with pytest.raises(ValueError, match="r:2: document 'a' retrieved twice"):
        MultiQueryEvaluation.from_trec(qp, rp)
    rp.write_text("1 Q0 a 1 nan t\n")
    with pytest.raises(ValueError, match=r"r:1: invalid score 'nan' .*\(NaN is not a score\)"):
        MultiQueryEvaluation.from_trec(qp, rp)
    rp.write_text("1 Q0 a 1 3.0\n")
    with pytest.raises(ValueError, match="r:1: expected at least 6"):
        MultiQueryEvaluation.from_trec(qp, rp)
    qp.write_text("1 0 a high\n")
    with pytest.raises(ValueError, match="q:1: grade 'high'"):
        MultiQueryEvaluation.from_trec(qp, rp)


def test_from_trec_reads_what_trec_eval_reads(tmp_path) -> None:
    """Comment lines, text after the sixth run column; a document judged twice stops, as in trec_eval."""
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("# judged by hand\n1 0 a 1\n\n1 0 b 0\n   # indented comment\n1 0 c 1\n")
    rp.write_text("# run\n1 Q0 a 1 3.0 tag trailing text\n1 Q0 b 2 2.0 tag\t# note\n")
    multi = MultiQueryEvaluation.from_trec(qp, rp)
    ev = multi["1"]
    assert (ev.num_cases, ev.num_positive_ref, ev.num_misses) == (2, 2, 1)
    assert multi.measure("num_ret").per_query == {"1": 2}
    qp.write_text("1 0 a 1\n1 0 b 0\n1 0 a 2\n")
    with pytest.raises(ValueError, match=r"q:3: document 'a' judged twice for query '1' \(first at line 1\)"):
        MultiQueryEvaluation.from_trec(qp, rp)


def test_multi_query_api() -> None:
    multi = MultiQueryEvaluation()
    multi.add_case("a", True, 0.4)
    multi.add_cases("b", [False, False], [0.9, 0.8])
    multi.add_misses("b", 1)
    multi.add_misses(7, 2)
    assert multi.queries() == ["a", "b", 7] and len(multi) == 3 and "a" in multi
    p1 = multi.per_query("precision_at", 1)
    assert list(p1) == ["a", "b", 7] and p1["a"] == 1.0 and p1["b"] == 0.0 and math.isnan(p1[7])
    assert multi.mean_average_precision() == pytest.approx((1.0 + 0.0 + 0.0) / 3)
    assert multi.mean_precision_at(2) == pytest.approx((0.5 + 0.0 + 0.0) / 3)
    with pytest.raises(KeyError, match="'zz'"):
        multi["zz"]
    with pytest.raises(TypeError, match="'query'"):
        multi.add_case(None, True, 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        multi.add_case("new", True, math.nan)
    assert "new" not in multi  # a rejected call creates nothing
    with pytest.raises(ValueError, match="'name'"):
        multi.per_query("add_case")
    with pytest.raises(ValueError, match="'ties'"):
        MultiQueryEvaluation(ties="x")
    assert math.isnan(MultiQueryEvaluation().mean_average_precision())
    assert isinstance(multi["a"], ScoredPrecisionRecallEvaluation)

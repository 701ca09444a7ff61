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
            elif name == "11pt_avg":  # likewise (trec_eval 10 rounds with lround: tests/compat/test_trec_binary.py)
                mine = sum(reversed(v9)) / len(v9)
                v10 = _precision.interpolated_precision_at_recall(te.ranked(q), LEVELS)
                assert close(got[name], sum(reversed(v10)) / len(v10)), (seed, q, got[name], v10)
            else:
                mine = got[name]
            assert close(mine, value), (seed, q, name, mine, value)
            checked += 1
    assert checked >= 80 * len(want)


# ----------------------------------------------------------- scored-pr trec vs pytrec_eval, byte for byte

#: trec_eval 10's printing order of the measures pytrec_eval also computes (iprec_at_recall and 11pt_avg
#: aside: pytrec_eval rounds its recall levels as trec_eval 9 did, see test_iprec_at_recall_rounding_*;
#: tests/compat/test_trec_binary.py holds both to the trec_eval 10 binary).
PYTREC_ORDER = ["num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "P",
                "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "binG", "G", "ndcg",
                "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
                "set_recall", "set_map", "set_F", "num_nonrel_judged_ret"]  # fmt: skip
LONGS = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}
SUMMARY_ONLY = {"gm_map", "gm_bpref"}


def write_trec(tmp_path, qrels, run, run_id="myrun"):
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text("# qrels\n" + "".join(f"{q} 0 {d} {g}\n" for q, ds in qrels.items() for d, g in ds.items()))
    lines = ["# a run\n"]
    for q, ds in run.items():
        for rank, (d, s) in enumerate(ds.items(), 1):
            lines.append(f"{q}\tQ0\t{d}\t{rank}\t{s!r}\t{run_id}\textra column\n")
    rp.write_text("".join(lines))
    return qp, rp


def pytrec_expected_output(want: dict, per_query: bool, run_id: str) -> str:
    """What trec_eval prints, from pytrec_eval's per-query values and trec_eval's printf formats."""
    queries = sorted(want)

    def names(measure: str) -> list[str]:
        sample = want[queries[0]]
        found = [n for n in sample if n == measure or (n.startswith(measure + "_") and n[len(measure) + 1 :][:1].isdigit())]
        return sorted(found, key=lambda n: float(n[len(measure) + 1 :]) if n != measure else 0.0)

    def fmt(measure: str, value: float) -> str:
        return "%ld" % int(value) if measure in LONGS else "%6.4f" % value

    out = []
    if per_query:
        for q in queries:
            for m in PYTREC_ORDER:
                if m in SUMMARY_ONLY:
                    continue
                for n in names(m):
                    out.append("%-22s\t%s\t%s\n" % (n, q, fmt(m, want[q][n])))
    out.append("%-22s\t%s\t%s\n" % ("runid", "all", run_id))
    out.append("%-22s\t%s\t%ld\n" % ("num_q", "all", len(queries)))
    for m in PYTREC_ORDER:
        for n in names(m):
            total = 0.0
            for q in queries:  # trec_eval's left-to-right sum
                total += want[q][n]
            if m in LONGS:
                value = total
            elif m in SUMMARY_ONLY:
                value = math.exp(total / len(queries))
            else:
                value = total / len(queries)
            out.append("%-22s\t%s\t%s\n" % (n, "all", fmt(m, value)))
    return "".join(out)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("options", [(), ("-l", "2"), ("-J",), ("-l2", "-J")])
def test_scored_pr_trec_prints_what_trec_eval_prints(tmp_path, capsys, seed: int, options: tuple) -> None:
    from scored_pr._cli.main import main

    qrels, run = random_collection(1000 + seed)
    level = 2 if ("-l" in options or "-l2" in options) else 1
    judged_only = "-J" in options
    want = pytrec_eval.RelevanceEvaluator(
        qrels, set(PYTREC_ORDER) | {"runid", "num_q"}, relevance_level=level, judged_docs_only_flag=judged_only
    ).evaluate(run)
    qp, rp = write_trec(tmp_path, qrels, run)
    ms = ["-m" + m for m in ["runid", "num_q", *PYTREC_ORDER]]
    for per_query in (False, True):
        assert main(["trec", *options, *ms, *(["-q"] if per_query else []), str(qp), str(rp)]) == 0
        assert capsys.readouterr().out == pytrec_expected_output(want, per_query, "myrun")


@pytest.mark.parametrize("seed", range(8))
def test_measure_parameters_match_pytrec_eval(seed: int) -> None:
    qrels, run = random_collection(2000 + seed)
    specs = ["P.3", "recall.7", "ndcg_cut.4", "map_cut.6", "success.2", "relative_P.9", "Rprec_mult.0.35", "set_F.0.5"]
    want = pytrec_eval.RelevanceEvaluator(qrels, set(specs)).evaluate(run)
    te = TrecEval(qrels, run)
    for spec in specs:
        m = te.measure(spec)
        printed = m.name if spec != "set_F.0.5" else "set_F"  # trec_eval prints set_F_0.5; pytrec_eval says set_F
        for q, w in want.items():
            assert close(m.per_query[q], w[printed]), (spec, q)


# ------------------------------------------------------- trec_eval 10 versus 9: iprec_at_recall rounding


def test_iprec_at_recall_rounding_differs_from_trec_eval_9_where_lround_does() -> None:
    """R = 4: at recall 0.1 trec_eval 10 needs lround(0.4) = 0 relevant documents (any rank), trec_eval 9
    int(0.4 + 0.9) = 1; at 0.6, lround(2.4) = 2 versus int(3.3) = 3."""
    te = TrecEval({"q": {"a": 1, "b": 1, "c": 1, "d": 1}}, {"q": {"x": 5, "a": 4, "y": 3, "b": 2, "c": 1}})
    r = te.ranked("q")
    v10 = _precision.interpolated_precision_at_recall(r, [0.1, 0.6])
    v9 = _precision.interpolated_precision_at_recall_v9(r, [0.1, 0.6])
    # precision after each rank: 0, 1/2, 1/3, 2/4, 3/5; interpolated: the maximum at or after a rank
    assert v10 == [0.6, 0.6] and v9 == [0.6, 0.6]
    # a b x y z c: precision 1, 1, 2/3, 2/4, 2/5, 3/6; the 2nd relevant at rank 2, the 3rd at rank 6
    te = TrecEval({"q": {"a": 1, "b": 1, "c": 1, "d": 1}}, {"q": {"a": 6, "b": 5, "x": 4, "y": 3, "z": 2, "c": 1}})
    r = te.ranked("q")
    assert _precision.interpolated_precision_at_recall(r, [0.1, 0.6]) == [1.0, 1.0]
    assert _precision.interpolated_precision_at_recall_v9(r, [0.1, 0.6]) == [1.0, 0.5]
    assert te.measure("iprec_at_recall_0.60").mean == 1.0


@pytest.mark.parametrize("seed", range(10))
def test_iprec_at_recall_v9_matches_pytrec_eval_and_v10_differs_only_where_rounding_does(seed: int) -> None:
    qrels, run = random_collection(3000 + seed)
    want = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)
    te = TrecEval(qrels, run)
    got = te.evaluate("iprec_at_recall").per_query
    for q, w in want.items():
        r = te.ranked(q)
        for level in LEVELS:
            name = f"iprec_at_recall_{level:.2f}"
            v9 = _precision.interpolated_precision_at_recall_v9(r, [level])[0]
            assert close(v9, w[name])
            if int(level * r.num_rel + 0.9) == _cnum_lround(level * r.num_rel):
                assert close(got[q][name], w[name])


def _cnum_lround(x: float) -> int:
    from scored_pr.trec._cnum import lround

    return lround(x)


@pytest.mark.parametrize("seed", range(8))
def test_evaluators_of_from_trec_agree_with_the_trec_measures(tmp_path, seed: int) -> None:
    """The binary evaluators (docno ties, trec_eval10 rounding) and scored_pr.trec compute the same numbers."""
    from scored_pr import MultiQueryEvaluation

    qrels, run = random_collection(4000 + seed)
    multi = MultiQueryEvaluation.from_trec(*write_trec(tmp_path, qrels, run), docno_ties=True)
    iprec = multi.trec.evaluate("iprec_at_recall").per_query
    ap = multi.measure("map").per_query
    for q in multi.queries():
        ev = multi[q]
        got = ev.eleven_point_interpolated_precision(rounding="trec_eval10")
        assert [iprec[q][f"iprec_at_recall_{x:.2f}"] for x in LEVELS] == pytest.approx(got.tolist(), rel=1e-12)
        assert (0.0 if ev.num_positive_ref == 0 else ev.average_precision()) == pytest.approx(ap[q], rel=1e-12)
    assert multi.mean_average_precision() == pytest.approx(multi.measure("map").mean, rel=1e-12)
    assert multi.mean_r_precision() == pytest.approx(multi.measure("Rprec").mean, rel=1e-12)
    assert multi.mean_reciprocal_rank() == pytest.approx(multi.measure("recip_rank").mean, rel=1e-12)

"""scored_pr.trec on hand-worked cases: the measures pytrec_eval lacks (unj, rbp, rbp_resid, dcg,
ideal_dcg), trec_eval 10's options (-c, -M, -J, -l, -N), its output format and its file rules.

Every expected value below is worked out by hand from the definitions in trec_eval 10's sources
(the measure's explanation and its computation), not by running scored_pr.
"""

from __future__ import annotations

import math

import pytest

from scored_pr import MultiQueryEvaluation
from scored_pr._cli.main import main
from scored_pr.trec import TrecEval, parse_measures, read_qrels, read_run

# q1: a (grade 2), x (not in the qrels), c (in the pool, unjudged: grade -1), b (grade 0), d (grade 1);
# e (grade 0) is judged but not retrieved. R = 2 (a, d), judged non-relevant N = 2 (b, e).
QRELS = {"q1": {"a": 2, "b": 0, "c": -1, "d": 1, "e": 0}}
RUN = {"q1": {"a": 5.0, "x": 4.0, "c": 3.0, "b": 2.0, "d": 1.0}}


def value(spec: str, qrels=QRELS, run=RUN, **options) -> float:
    return TrecEval(qrels, run, **options).measure(spec).per_query["q1"]


def test_judged_unjudged_and_not_pooled_documents() -> None:
    assert value("relstring") == "2-.01"
    assert value("num_nonrel_judged_ret") == 1  # b only: x is not in the pool, c unjudged
    assert value("unj.5,10,20".split(",")[0]) == pytest.approx(2 / 5)  # x and c among the top 5
    te = TrecEval(QRELS, RUN)
    assert te.evaluate("unj").per_query["q1"] == {"unj_5": 2 / 5, "unj_10": 2 / 10, "unj_20": 2 / 20}
    # bpref: a has no judged non-relevant above (1), d has b above: 1 - min(1, R)/min(N, R) = 1/2
    assert value("bpref") == 0.75
    # infAP: a at rank 1 counts 1; d at rank 5 (j = 4): 1/5 + 4/5 * (1 + 1 + 1)/4 * (1 + eps)/(1 + 1 + 2 eps)
    eps = 0.00001
    assert value("infAP") == pytest.approx((1 + 1 / 5 + 4 / 5 * 3 / 4 * (1 + eps) / (2 + 2 * eps)) / 2, rel=1e-15)


def test_rank_biased_precision_and_its_residual() -> None:
    # grades 0..2 rescaled to [0, 1] (max gain 2 > 1): a gains 1 at rank 1, d gains 1/2 at rank 5
    assert value("rbp") == pytest.approx(0.1 * (1.0 + 0.5 * 0.9**4), rel=1e-15)
    assert value("rbp.p=0.5") == pytest.approx(0.5 * (1.0 + 0.5 * 0.5**4), rel=1e-15)
    # residual: the weight of the unjudged ranks 2 and 3 plus everything beyond rank 5
    assert value("rbp_resid") == pytest.approx(0.9**5 + 0.1 * (0.9 + 0.9**2), rel=1e-15)
    assert value("rbp_resid", judged_only=True) == 0.0  # nothing unjudged is left
    binary = {"q1": {"a": 1, "d": 1, "b": 0}}
    assert value("rbp", qrels=binary) == pytest.approx(0.1 * (1.0 + 0.9**4), rel=1e-15)  # gains already in [0, 1]


def test_dcg_ideal_dcg_and_ndcg() -> None:
    dcg = 2 / math.log2(2) + 1 / math.log2(6)
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert value("dcg") == pytest.approx(dcg, rel=1e-15)
    assert value("ideal_dcg") == pytest.approx(ideal, rel=1e-15)
    assert value("ndcg") == pytest.approx(dcg / ideal, rel=1e-15)
    # gains by parameter: grade 1 gains 3, grade 2 gains 9
    assert value("ndcg.1=3,2=9") == pytest.approx((9 + 3 / math.log2(6)) / (9 + 3 / math.log2(3)), rel=1e-15)
    assert value("ndcg_cut.1") == 1.0  # a, the best document, first
    assert value("ndcg_cut.3") == pytest.approx(2 / ideal, rel=1e-15)


def test_fractional_gains_rank_as_trec_eval_orders_them() -> None:
    """trec_eval sorts gain levels with a comparator returning (int)(g1 - g2): gain 0.5 ties with gain 0 and
    stays before it, so the ideal ranking stops at gain 0 and leaves the grade-1 document out."""
    qrels = {"q1": {"a": 2, "b": 1, "n": 0}}
    run = {"q1": {"b": 2.0, "a": 1.0}}
    dcg = 0.5 + 2 / math.log2(3)
    assert value("ndcg.1=0.5", qrels=qrels, run=run) == pytest.approx(dcg / 2.0, rel=1e-15)
    assert value("ndcg.1=1.5", qrels=qrels, run=run) == pytest.approx(
        (1.5 + 2 / math.log2(3)) / (2 + 1.5 / math.log2(3)), rel=1e-15
    )


def test_ties_break_by_docno_descending_and_queries_print_in_byte_order(tmp_path, capsys) -> None:
    qrels = {"10": {"d1": 1}, "9": {"d2": 1}, "a": {"d1": 1}}
    run = {"a": {"d1": 1.0, "d2": 1.0}, "9": {"d1": 1.0, "d2": 1.0}, "10": {"d1": 1.0, "d2": 1.0}}
    te = TrecEval(qrels, run)
    assert te.queries() == ["10", "9", "a"]
    assert te.measure("recip_rank").per_query == {"10": 0.5, "9": 1.0, "a": 0.5}  # d2 ranks first
    assert te.measure("relstring").per_query == {"10": "-1", "9": "1-", "a": "-1"}


def test_missing_query_under_complete(tmp_path, capsys) -> None:
    """-c: a judged query without a run is printed and scored as an empty run; counts trec_eval 10 resets."""
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"z": 1, "y": 0}}
    run = {"q1": {"a": 2.0, "b": 1.0}}
    plain = TrecEval(qrels, run).evaluate(["num_q", "map", "gm_map", "num_rel", "utility"])
    assert plain.queries == ["q1"] and plain.summary["num_q"] == 1 and plain.summary["map"] == 1.0
    full = TrecEval(qrels, run, complete=True).evaluate(
        ["num_q", "num_ret", "num_rel", "map", "gm_map", "utility", "relstring", "unj.5", "rbp_resid", "P.1"]
    )
    assert full.queries == ["q1", "q2"]
    assert full.per_query["q2"] == {
        "num_q": 1, "num_ret": 0, "num_rel": 1, "map": 0.0, "gm_map": math.log(0.00001), "utility": 0.0,
        "relstring": "", "unj_5": 0.0, "rbp_resid": 0.0, "P_1": 0.0,
    }  # fmt: skip
    assert full.summary["num_q"] == 2 and full.summary["map"] == 0.5 and full.summary["num_rel"] == 2
    assert full.summary["gm_map"] == pytest.approx(math.exp((0.0 + math.log(0.00001)) / 2), rel=1e-15)
    assert full.summary["utility"] == 0.0  # q1: 1 - 1; q2: reset to 0
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 z 1\nq2 0 y 0\n")
    rp.write_text("q1 Q0 a 1 2.0 r1\nq1 Q0 b 2 1.0 r1\n")
    assert main(["trec", "-c", "-q", "-m", "relstring", "-m", "num_ret", str(qp), str(rp)]) == 0
    assert capsys.readouterr().out == (
        "num_ret               \tq1\t2\n"
        "relstring             \tq1\t'10'\n"
        "num_ret               \tq2\t0\n"
        "relstring             \tq2\t''\n"
        "num_ret               \tall\t2\n"
    )


def test_max_docs_judged_only_relevance_level_and_collection_size() -> None:
    assert value("relstring", max_docs=2) == "2-"
    assert value("P.5", max_docs=2) == 1 / 5
    assert value("num_ret", judged_only=True) == 3
    assert value("relstring", judged_only=True) == "201"
    assert value("map", judged_only=True) == pytest.approx((1 + 2 / 3) / 2)  # a at 1, d at 3
    assert value("num_rel", relevance_level=2) == 1
    assert value("map", relevance_level=2) == 1.0
    assert value("bpref", relevance_level=2) == 1.0  # only a is relevant; b, d, e judged non-relevant
    # utility: p1 a + p2 b + p3 c + p4 d with a = 2 relevant retrieved, b = 3 others, c = 0 missed, d = N - 5
    assert value("utility") == 2 - 3
    assert value("utility.2,-1,0,0") == 2 * 2 - 3
    assert TrecEval(QRELS, RUN, num_docs_in_coll=100).measure("utility.0,0,0,1").mean == 100 + 2 - 5 - 2


def test_complete_resets_only_the_names_trec_eval_resets_and_recounts_num_rel() -> None:
    """-c, as trec_eval 10's main loop and m_num_rel.c do it.

    A judged query without a run is scored against one bogus document, not in the pool; trec_eval then
    resets the values *printed* as num_ret, utility, relstring, rbp_resid (not utility_1,-1,0,0,
    relstring_3 or rbp_resid_p=0.5, which keep the bogus document's values) and every unj_k.
    num_rel's ``all`` line is recounted from the qrels: every judgement with a grade > 0, whatever -l.
    """
    qrels = {"q1": {"a": 1, "b": 2, "c": 0}, "q2": {"z": 1, "y": 0}}
    run = {"q1": {"a": 2.0, "b": 1.0}}
    te = TrecEval(qrels, run, complete=True, relevance_level=2)
    full = te.evaluate(["num_rel", "utility", "relstring", "rbp_resid", "unj.5"])
    with_params = te.evaluate(["utility.1,-1,0,0", "relstring.3", "rbp_resid.p=0.5"]).per_query["q2"]
    q2 = full.per_query["q2"]
    # the bogus document: not relevant, retrieved -> utility 1*0 - 1*1; relstring '-' (not in the pool);
    # rbp_resid: rank 1 unjudged (1 - p) plus the weight beyond the ranking p = 0.5 + 0.5
    assert (q2["utility"], with_params["utility_1,-1,0,0"]) == (0.0, -1.0)
    assert (q2["relstring"], with_params["relstring_3"]) == ("", "-")
    assert (q2["rbp_resid"], with_params["rbp_resid_p=0.5"], q2["unj_5"]) == (0.0, 1.0, 0.0)
    assert (full.per_query["q1"]["num_rel"], q2["num_rel"]) == (1, 0)  # -l 2: only b
    assert full.summary["num_rel"] == 3  # a, b, z: grades > 0
    assert TrecEval(qrels, run, relevance_level=2).evaluate(["num_rel"]).summary["num_rel"] == 1  # no -c: the sum


@pytest.mark.parametrize("grade", [3_000_000_000, 2**62, 2**63 - 1])
def test_huge_grades_take_memory_by_documents_not_by_grade(grade: int) -> None:
    """Grades up to a C long's maximum: the values follow from the definitions, memory stays small.

    q1: d2 (grade 1) at rank 1, d1 (grade G) at rank 2, x (not in the pool) at rank 3; d3 judged 0.
    trec_eval itself allocates a counter per grade up to G and fails ("Can't calculate measure") or
    crashes there; scored_pr kept the same dense table and aborted the interpreter at G = 2**63 - 1.
    """
    import tracemalloc

    qrels = {"q1": {"d1": grade, "d2": 1, "d3": 0}}
    run = {"q1": {"d2": 0.5, "d1": 0.4, "x": 0.3}}
    tracemalloc.start()
    try:
        results = TrecEval(qrels, run).evaluate("all_trec")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20, peak
    q = results.per_query["q1"]
    g = float(grade)
    assert (q["num_rel"], q["num_rel_ret"], q["map"], q["P_5"]) == (2, 2, 1.0, 0.4)
    assert q["relstring"] == "1>-"  # trec_eval's '>' for a grade above 9
    dcg = 1.0 / math.log2(2) + g / math.log2(3)
    ideal = g / math.log2(2) + 1.0 / math.log2(3)
    assert q["ndcg"] == pytest.approx(dcg / ideal, rel=1e-15)
    assert TrecEval(qrels, run).measure("ndcg_cut.1").mean == pytest.approx(1.0 / g, rel=1e-15)
    # rbp rescales gains to [0, 1] by the highest grade: (1 - p)(1/G + p G/G)
    assert q["rbp"] == pytest.approx(0.1 * (1.0 / g + 0.9), rel=1e-12)
    assert TrecEval(qrels, run, relevance_level=grade).measure("num_rel").mean == 1


def test_grades_beyond_a_c_long_are_refused_with_the_line(tmp_path, capsys) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    rp.write_text("1 Q0 d1 1 0.5 r\n")
    for grade in ("9223372036854775808", "-9223372036854775809", "1" + "0" * 400):
        qp.write_text(f"1 0 d2 0\n1 0 d1 {grade}\n")
        assert main(["trec", "-m", "all_trec", str(qp), str(rp)]) == 2
        err = capsys.readouterr().err
        assert f"{qp}:2: grade {grade[:20]!r}" in err and "out of range" in err and "C long" in err, err
        with pytest.raises(ValueError, match="argument 'qrels'.*out of range"):
            TrecEval({"1": {"d1": int(grade)}}, {"1": {"d1": 0.5}})
    qp.write_text("1 0 d2 0\n1 0 d1 -9223372036854775808\n")  # the least long: pooled, unjudged
    assert main(["trec", "-m", "relstring", "-m", "num_rel", str(qp), str(rp)]) == 0
    assert capsys.readouterr().out == "num_rel               \tall\t0\n"


def test_overflowing_measure_parameters_follow_trec_eval_not_a_traceback(tmp_path, capsys) -> None:
    """C converts (long)(1e308 * R + 0.9) and lround(1e308 * R) to LONG_MIN on x86-64; trec_eval's walks
    then never meet that count. q1 ranks a x c b d (a, d relevant): precision 1, 1/2, 1/3, 1/4, 2/5."""
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("".join(f"q1 0 {d} {g}\n" for d, g in QRELS["q1"].items()))
    rp.write_text("".join(f"q1 Q0 {d} {i} {s} r\n" for i, (d, s) in enumerate(RUN["q1"].items())))

    def trec(*args: str) -> tuple[int, str]:
        status = main(["trec", *args, str(qp), str(rp)])
        return status, capsys.readouterr().out

    # Rprec_mult: the walk is stuck at LONG_MIN from the start: the value stays 0; the name is cut as
    # trec_eval's 10-byte buffer cuts "%3.2f" of 1e308
    assert trec("-m", "Rprec_mult.1e308") == (0, "Rprec_mult_10000000   \tall\t0.0000\n")
    # iprec_at_recall: a count never met takes the best precision from the first relevant document on: 1
    assert trec("-m", "iprec_at_recall.1e308") == (0, "iprec_at_recall_10000000\tall\t1.0000\n")
    # An infinite gain for grade 1 (d): trec_eval sorts gain levels by (int)(a - b), INT_MIN for an infinite
    # difference, so it sorts lowest and the ideal ranking stops before it: ideal DCG 2 (a), DCG inf.
    assert trec("-m", "ndcg.1=1e400") == (0, "ndcg_1=1e400          \tall\t   inf\n")
    assert trec("-m", "relstring.1e308", "-q") == (0, "relstring_1e308       \tq1\t''\n")  # (long) 1e308 < 0
    # cutoffs trec_eval would sort by a truncated 32-bit difference: refused, naming -m
    assert main(["trec", "-m", "P.5,9223372036854775807", str(qp), str(rp)]) == 2
    assert "-m: measure 'P.5,9223372036854775807': cutoffs more than 2147483647 apart" in capsys.readouterr().err


def test_ids_split_only_on_the_whitespace_trec_eval_splits_on(tmp_path, capsys) -> None:
    """trec_eval splits fields with C's isspace (C locale): space, tab, \\n, \\v, \\f, \\r. U+2003 (em space),
    U+00A0, U+0085 and \\x1c, which Python's str.split() splits on, are parts of ids."""
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_bytes("q1 0 a\u2003b 1\nq1 0 c\x1cd 2\nq1 0 e\xa0f 0\nq1 0 g\x85h 1\nq\u2003x 0 z 1\n".encode())
    rp.write_bytes("q1 Q0 a\u2003b 1 3 r\u2003un\nq1\tQ0\x0bc\x1cd\x0c2 2 r\u2003un\r\n"
                   "q1 Q0 g\x85h 3 1 r\u2003un\nq\u2003x Q0 z 1 1 r\u2003un\n".encode())  # fmt: skip
    assert main(["trec", "-q", "-m", "num_rel", "-m", "num_rel_ret", "-m", "relstring", "-m", "runid", str(qp), str(rp)]) == 0
    assert capsys.readouterr().out == (
        "num_rel               \tq1\t3\n"
        "num_rel_ret           \tq1\t3\n"
        "relstring             \tq1\t'121'\n"
        "num_rel               \tq\u2003x\t1\n"
        "num_rel_ret           \tq\u2003x\t1\n"
        "relstring             \tq\u2003x\t'1'\n"
        "runid                 \tall\tr\u2003un\n"
        "num_rel               \tall\t4\n"
        "num_rel_ret           \tall\t4\n"
    )


def test_nothing_retrieved_after_judged_only_gives_trec_eval_nan() -> None:
    """trec_eval divides 0 by 0 for iprec_at_recall_0.00 (and 11pt_avg) when -J leaves nothing; glibc prints -nan."""
    te = TrecEval({"q1": {"a": 1}}, {"q1": {"x": 1.0}}, judged_only=True)
    out = te.report(["iprec_at_recall..0,.5", "11pt_avg", "P.1"], per_query=True)
    assert out.splitlines() == [
        "iprec_at_recall_0.00  \tq1\t  -nan",
        "iprec_at_recall_0.50  \tq1\t0.0000",
        "P_1                   \tq1\t0.0000",
        "11pt_avg              \tq1\t  -nan",
        "iprec_at_recall_0.00  \tall\t  -nan",
        "iprec_at_recall_0.50  \tall\t0.0000",
        "P_1                   \tall\t0.0000",
        "11pt_avg              \tall\t  -nan",
    ]


def test_11pt_avg_rounds_recall_levels_with_lround_as_trec_eval_10() -> None:
    """R = 4, ranking a b x y z c (a, b, c relevant; d never retrieved): precision 1, 1, 2/3, 2/4, 2/5, 3/6,
    interpolated: 1 up to the 2nd relevant document, 1/2 at the 3rd, 0 for a 4th (never retrieved).

    trec_eval 10 (m_11pt_avg.c) needs lround(x * 4) relevant documents at level x = 0, .1, ..., 1:
    0 0 1 1 2 2 2 3 3 4 4, so seven levels at 1, two at 1/2, two at 0: 8/11. trec_eval 9's
    (long)(x * 4 + 0.9) gives 0 1 1 2 2 2 3 3 4 4 4: six at 1, two at 1/2, three at 0: 7/11.
    """
    qrels = {"q1": {"a": 1, "b": 1, "c": 1, "d": 1}}
    run = {"q1": {"a": 6.0, "b": 5.0, "x": 4.0, "y": 3.0, "z": 2.0, "c": 1.0}}
    assert value("11pt_avg", qrels, run) == (7 * 1.0 + 2 * 0.5) / 11
    # Levels in the order given: trec_eval walks up the ranking crediting the last level first.
    # 0.2, 0.8 (counts 1, 3): 0.8 is credited 1/2 at the 3rd relevant document, then 0.2 gets 1 at the 1st.
    assert value("11pt_avg.0.2,0.8", qrels, run) == (0.5 + 1.0) / 2
    # 0.8, 0.2 (counts 3, 1): 0.2 is credited 1 at the 1st relevant document; the walk is then past
    # 0.8's count 3, so 0.8 takes the final interpolated precision (1) instead of 1/2.
    assert value("11pt_avg.0.8,0.2", qrels, run) == (1.0 + 1.0) / 2


def test_measure_specifications() -> None:
    names = lambda *specs: [n for s in parse_measures(specs) for n in s.names]  # noqa: E731
    assert names("P.10,5") == ["P_5", "P_10"]
    assert names("iprec_at_recall..25,.1") == ["iprec_at_recall_0.10", "iprec_at_recall_0.25"]
    assert names("utility.2,-1,0,0", "ndcg.1=3,2=9") == ["utility_2,-1,0,0", "ndcg_1=3,2=9"]
    assert names("11pt_avg..25,.5,.75", "relstring.3") == ["relstring_3", "11pt_avg_.25,.5,.75"]
    assert names("ndcg_cut.10,20,23.4") == ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]  # atol, as trec_eval
    assert names("map", "P.5", "all_trec")[:8] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec"]
    assert names("P.5", "P.10") == ["P_5"]  # the first parameters win, as in trec_eval
    # runid..num_rel_ret 5, map..recip_rank 5, iprec 11, P 9, relstring 1, recall 9, infAP gm_bpref 2,
    # Rprec_mult 10, utility 11pt_avg binG G 4, ndcg ndcg_rel Rndcg 3, ndcg_cut map_cut relative_P 27,
    # success 3, set_* 5, num_nonrel_judged_ret 1, rbp rbp_resid 2, unj 3
    assert len(names("all_trec")) == 5 + 5 + 11 + 9 + 1 + 9 + 2 + 10 + 4 + 3 + 27 + 3 + 5 + 1 + 2 + 3 == 100
    assert names("official") == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
                                 "bpref", "recip_rank", *[f"iprec_at_recall_{i / 10:.2f}" for i in range(11)],
                                 *[f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]]  # fmt: skip
    for bad, message in [("P.0", "positive"), ("P.5,5", "duplicate"), ("utility.1,2", "4 coefficients"),
                         ("ndcg.1", "name=number"), ("prefs", "preference"), ("foo", "unknown"), ("P.", "empty")]:  # fmt: skip
        with pytest.raises(ValueError, match=message):
            parse_measures([bad])


def test_measure_by_printed_name_or_specification() -> None:
    te = TrecEval(QRELS, RUN)
    assert te.measure("ndcg_cut_3") == te.measure("ndcg_cut.3")
    assert te.measure("iprec_at_recall_0.50").name == "iprec_at_recall_0.50"
    assert te.measure("Rprec_mult_1.00").per_query["q1"] == te.measure("Rprec").per_query["q1"]
    with pytest.raises(ValueError, match="give one cutoff"):
        te.measure("P")
    with pytest.raises(ValueError, match="unknown"):
        te.measure("nope_3")


def test_output_format_and_the_all_line(tmp_path, capsys) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n")
    rp.write_text("1 Q0 a 1 2 first\n1 Q0 b 2 1 first\n2 Q0 c 1 1 last\n")
    assert main(["trec", "-q", "-m", "runid", "-m", "num_q", "-m", "num_nonrel_judged_ret", "-m", "gm_map",
                 "-m", "P.1", str(qp), str(rp)]) == 0  # fmt: skip
    assert capsys.readouterr().out == (  # trec_eval's order whatever the order of -m
        "P_1                   \t1\t1.0000\n"
        "num_nonrel_judged_ret \t1\t1\n"
        "P_1                   \t2\t1.0000\n"
        "num_nonrel_judged_ret \t2\t0\n"
        "runid                 \tall\tlast\n"
        "num_q                 \tall\t2\n"
        "gm_map                \tall\t1.0000\n"
        "P_1                   \tall\t1.0000\n"
        "num_nonrel_judged_ret \tall\t1\n"
    )
    assert main(["trec", "-n", "-q", "-mP.1", str(qp), str(rp)]) == 0
    assert capsys.readouterr().out.count("all") == 0


def test_file_errors_name_the_file_and_line(tmp_path, capsys) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("1 0 a 1\n1 0 b\n")
    rp.write_text("1 Q0 a 1 2 t\n")
    assert main(["trec", str(qp), str(rp)]) == 2
    assert f"{qp}:2: expected 4 whitespace-separated fields" in capsys.readouterr().err
    qp.write_text("1 0 a 1\n")
    rp.write_text("1 Q0 a 1 2 t\n1 Q0 a 2 1 t\n")
    assert main(["trec", str(qp), str(rp)]) == 2
    assert f"{rp}:2: document 'a' retrieved twice for query '1' (first at line 1)" in capsys.readouterr().err
    rp.write_text("2 Q0 a 1 2 t\n")
    assert main(["trec", str(qp), str(rp)]) == 2
    assert "no query has both judgements and a run" in capsys.readouterr().err
    rp.write_text("1 Q0 a 1 2 t\n")
    assert main(["trec", "-m", "P.0", str(qp), str(rp)]) == 2
    assert "cutoffs must be positive" in capsys.readouterr().err


def test_readers_keep_file_order_and_the_last_run_id(tmp_path) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("#c\nq2 0 b 1\nq1 0 a 3\n")
    rp.write_text("q1 Q0 z 1 1.5 A\n\nq1 Q0 y 2 2.5 B x y z\n")
    assert read_qrels(qp).judgements == {"q2": {"b": 1}, "q1": {"a": 3}}
    run = read_run(rp)
    assert run.rankings == {"q1": [("z", 1.5), ("y", 2.5)]} and run.run_id == "B"


def test_multi_query_means_count_queries_without_relevant_documents_as_zero(tmp_path) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("1 0 a 1\n1 0 b 0\n2 0 c 0\n")
    rp.write_text("1 Q0 b 1 2 t\n1 Q0 a 2 1 t\n2 Q0 c 1 1 t\n")
    multi = MultiQueryEvaluation.from_trec(qp, rp)
    assert math.isnan(multi["2"].average_precision())  # undefined for the query itself
    assert multi.mean_average_precision() == 0.25 == multi.measure("map").mean
    assert multi.mean_reciprocal_rank() == 0.25 == multi.measure("recip_rank").mean
    assert multi.mean_r_precision() == 0.0 == multi.measure("Rprec").mean
    assert multi.mean_average_precision(no_relevant="skip") == 0.5
    with pytest.raises(ValueError, match="'no_relevant'"):
        multi.mean_average_precision(no_relevant="drop")


def test_from_trec_options_select_the_documents_trec_eval_evaluates(tmp_path) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("1 0 a 2\n1 0 b 0\n1 0 c 1\n2 0 z 1\n")
    rp.write_text("1 Q0 x 1 4 t\n1 Q0 a 2 3 t\n1 Q0 b 3 2 t\n1 Q0 c 4 1 t\n")
    m = MultiQueryEvaluation.from_trec(qp, rp, max_docs=2)
    assert (m["1"].num_cases, m["1"].num_misses) == (2, 1)
    m = MultiQueryEvaluation.from_trec(qp, rp, judged_only=True)
    assert m["1"].num_cases == 3 and m["1"].average_precision() == 1.0 - (1 - 2 / 3) / 2
    m = MultiQueryEvaluation.from_trec(qp, rp, relevance_level=2, complete=True)
    assert m.queries() == ["1", "2"] and m["1"].num_positive_ref == 1 and m["2"].num_misses == 0
    assert m["2"].num_positive_ref == 0  # grade 1 < level 2
    assert m.measure("num_q").mean == 2 and m.measure("map").per_query == {"1": 0.5, "2": 0.0}
    with pytest.raises(ValueError, match="from_trec"):
        MultiQueryEvaluation().measure("map")


def test_trec_eval_style_option_spelling(tmp_path, capsys) -> None:
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("1 0 a 1\n2 0 b 1\n")
    rp.write_text("1 Q0 a 1 2 t\n1 Q0 x 2 1 t\n")
    assert main(["trec", "-qc", "-mP.2", "-l1", "-M1", str(qp), str(rp)]) == 0
    assert capsys.readouterr().out == (
        "P_2                   \t1\t0.5000\n"
        "P_2                   \t2\t0.0000\n"
        "P_2                   \tall\t0.2500\n"
    )
    with pytest.raises(SystemExit) as exc:
        main(["trec", "-M", "-1", str(qp), str(rp)])
    assert exc.value.code == 2 and "expected an integer >= 0" in capsys.readouterr().err

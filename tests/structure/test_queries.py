"""The table of queries (scored_pr._kinds.QUERY_TABLE) and every kind that builds its queries from it.

The windowed, bounded, synchronized and distributed kinds answer or refuse each query as its
entry says, with methods built from the table at class creation. A query added to the table
(with the exact evaluator's method, and the bounded and distributed kinds' own where the entry
says they answer it) reaches every kind, the multi-query and multi-label evaluators' rankings,
``summary()`` when it is also a measure, the command line's report and the HTML page, held here
against a slow literal reference. The public names of ``scored_pr`` are listed once too.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import scored_pr
from scored_pr import (
    BoundedEvaluation,
    Bounds,
    MultiLabelEvaluation,
    MultiQueryEvaluation,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
)
from scored_pr import _kinds as K
from scored_pr import _measures as M
from scored_pr._cli.main import main
from scored_pr._core import partitioned_calibration as PC
from scored_pr._core import partitioned_decisions as PD
from scored_pr._core.partitioned import evaluate_blocks
from scored_pr._evaluators.distributed import DistributedEvaluation, DistributedMultiLabelEvaluation
from scored_pr._evaluators.guard import is_guarded
from scored_pr._html import data as html_data

ROOT = Path(__file__).resolve().parents[2]

#: Arguments for each query of the table (the rank-based ones at ranks the distributed kind computed).
ARGS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "average_precision_at": ((5,), {}), "confidence_interval": ((), {"n_resamples": 20, "seed": 0}),
    "confusion_at_threshold": ((0.5,), {}), "e_measure_at": ((5,), {}), "f_measure_at": ((5,), {}),
    "f_measure_at_threshold": ((0.5,), {}), "k_at_recall": ((0.5,), {}), "precision_at": ((5,), {}),
    "precision_at_recall": ((0.5,), {}), "precision_at_threshold": ((0.5,), {}),
    "print_precision_recall_curve": (([[0.5, 1.0]],), {}), "recall_at": ((5,), {}),
    "recall_at_threshold": ((0.5,), {}), "threshold_at_precision": ((0.5,), {}), "threshold_at_recall": ((0.5,), {}),
    "operating_point": (("recall", {"precision": 0.5}), {}), "expected_cost": ((0.5,), {"cost_fn": 3.0}),
    "net_benefit": (([0.1, 0.5],), {}),
    # bins both the bounded kind's 15 stored calibration bins and the cluster's sums give (the bounded
    # kind refuses the default 5, saying so)
    "calibration_curve": ((), {"n_bins": 15}),
}  # fmt: skip
#: The queries whose scores must be probabilities: asked of the cases' scores through a logistic.
#: The queries that need probabilities: they are asked on the sigmoid of the scores.
PROBABILITIES = {"brier_score", "calibration_curve", "calibration_slope_intercept", "expected_calibration_error",
                 "log_loss", "net_benefit", "reliability_diagram"}  # fmt: skip

#: The kinds that build their queries from the table, by class.
DERIVED = {WindowedEvaluation: "windowed", BoundedEvaluation: "bounded", SynchronizedEvaluation: "synchronized",
           DistributedEvaluation: "distributed", DistributedMultiLabelEvaluation: "distributed_multilabel"}  # fmt: skip


def _cases(seed: int = 0, n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    correct = rng.random(n) < 0.4
    return correct, np.round(rng.normal(size=n) + correct, 1)


def _call(ev: Any, name: str) -> Any:
    args, kwargs = ARGS.get(name, ((), {}))
    return getattr(ev, name)(*args, **kwargs)


def _distributed(correct: np.ndarray, scores: np.ndarray) -> DistributedEvaluation:
    """What the engines hand back for these rows, computed in this process (the engines' own protocol)."""
    ranks = (*M.REPORT_RANKS, int(correct.sum()))  # the engines' ranks and R (r_precision)
    maximize, subject_to = ARGS["operating_point"][0]  # the requests the table asks of every kind
    specs = PD.DecisionSpecs(((1.0, 1.0, 0.0, 0.0),), (("recall", ()), (maximize, tuple(subject_to.items()))))
    values = evaluate_blocks([(scores, correct, None)], ranks=ranks, decisions=specs)
    bins, cuts = PC.DEFAULT_BIN_COUNTS, np.array([0.1, 0.5])  # and the row sums of two partitions, added
    half = scores.size // 2
    values["calibration"] = PC.merge([PC.partition_sums(scores[:half], correct[:half], None, bins, cuts),
                                      PC.partition_sums(scores[half:], correct[half:], None, bins, cuts)], bins, cuts)
    return DistributedEvaluation(values, engine="test")


# ------------------------------------------------------------------ the table itself


def test_the_table_is_the_protocols_queries_once_each() -> None:
    names = [q.name for q in K.QUERY_TABLE]
    assert len(names) == len(set(names)) and names == sorted(names)
    # the protocol's queries are the table's but its static text printing (LingPipe's, kept on every
    # kind outside the protocol: K.TEXT)
    assert K.QUERIES == tuple(q.name for q in K.QUERY_TABLE if not q.static)
    assert K.TEXT == tuple(q.name for q in K.QUERY_TABLE if q.static) == ("print_precision_recall_curve",)
    protocol = {n for n, v in vars(K.Queries).items() if not n.startswith("_") and callable(getattr(K.Queries, n))}
    assert protocol == set(K.QUERIES)
    for q in K.QUERY_TABLE:
        assert q.static == isinstance(inspect.getattr_static(ScoredPrecisionRecallEvaluation, q.name), staticmethod)
        for refusal in (q.bounded, q.distributed):
            assert refusal is None or refusal.why, q.name
        assert q.bounded is None or q.bounded.instead, q.name  # a bounded refusal says what to use instead


def test_every_derived_kind_is_registered_for_the_table() -> None:
    assert set(K.DERIVED) == set(DERIVED)


@pytest.mark.parametrize("q", K.QUERY_TABLE, ids=lambda q: q.name)
def test_each_kind_answers_or_refuses_as_its_entry_says(q: K.Query, capsys: pytest.CaptureFixture[str]) -> None:
    correct, scores = _cases()
    if q.name in PROBABILITIES:
        scores = 1.0 / (1.0 + np.exp(-scores))
    exact = ScoredPrecisionRecallEvaluation()
    window, shared, bounded = WindowedEvaluation(size=1000), SynchronizedEvaluation(), BoundedEvaluation(4096)
    for ev in (exact, window, shared, bounded):
        ev.add_cases(correct, scores)
    want = _call(exact, q.name)
    for ev in (window, shared):  # exact kinds: the exact evaluator's answer
        got = _call(ev, q.name)
        if q.name == "confidence_interval":
            assert (got.low, got.high) == (want.low, want.high)
        else:  # arrays, tuples, dicts, NaN: equal element by element
            np.testing.assert_equal(got, want, err_msg=f"{type(ev).__name__}.{q.name}")
    for ev, kind, refusal in ((bounded, "BoundedEvaluation", q.bounded),
                              (_distributed(correct, scores), "DistributedEvaluation", q.distributed)):  # fmt: skip
        if refusal is None:
            got = _call(ev, q.name)  # answers: no refusal
            if isinstance(got, Bounds):
                assert got.lower <= float(want) + 1e-12 and float(want) - 1e-12 <= got.upper, (kind, got, want)
            elif kind == "DistributedEvaluation" and q.name in PROBABILITIES:  # sums added in another order
                np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-12)
        else:
            with pytest.raises(UnsupportedQuery, match=f"^{kind}.{q.name}: ") as err:
                _call(ev, q.name)
            assert refusal.why in str(err.value) and (refusal.instead or "; ") in str(err.value)
    pooled = _distributed(correct, scores)  # a multi-label result of the cluster answers its averages only
    wide = DistributedMultiLabelEvaluation(["a"], [pooled], pooled, num_rows=40, multiclass=False)
    if q.name in ("summary", "average_precision", "area_under_roc_curve"):
        _call(wide, q.name)
    else:
        with pytest.raises(UnsupportedQuery, match=f"^DistributedMultiLabelEvaluation.{q.name}: "):
            _call(wide, q.name)


def _REFUSED_BY_WIDE(cls: type) -> set[str]:
    """The queries a multi-label result of the cluster refuses (every one it does not define itself)."""
    own = {"average_precision", "area_under_roc_curve", "summary"}
    return set(K.QUERIES) - own


@pytest.mark.parametrize("cls", list(DERIVED), ids=lambda c: c.__name__)
def test_built_methods_keep_the_protocols_signature_and_the_guard(cls: type) -> None:
    for q in K.QUERY_TABLE:
        member = inspect.getattr_static(cls, q.name)
        proto = inspect.signature(getattr(ScoredPrecisionRecallEvaluation if q.static else K.Evaluation, q.name))
        if q.static and cls is not DistributedMultiLabelEvaluation:  # which refuses it as a method
            assert isinstance(member, staticmethod), (cls, q.name)
            continue
        if cls is DistributedMultiLabelEvaluation and q.name in vars(cls) and q.name not in _REFUSED_BY_WIDE(cls):
            continue  # its own averaged AP and ROC AUC (average=...) and summary: another interface
        assert list(inspect.signature(member).parameters) == list(proto.parameters), (cls, q.name)
        assert q.name in dir(cls) and (inspect.getdoc(member) or "").strip(), (cls, q.name)
        if cls in (WindowedEvaluation, BoundedEvaluation):  # the thread-guarded kinds
            assert is_guarded(member), (cls, q.name)


# ------------------------------------------------------------------ a query added to the table


def prevalence(self: Any) -> float:
    """Correct cases over all reference cases; NaN with none (a query added by this test)."""
    pos, neg = self.num_positive_ref, self.num_negative_ref
    return pos / (pos + neg) if pos + neg else float("nan")


def _bounded_prevalence(self: BoundedEvaluation) -> Bounds:
    value = prevalence(self)
    return Bounds(value, value, value)  # counts are exact in a summary


def top_correct_score(self: Any) -> float:
    """The highest score of a correct case (a query added by this test, which the bounded and distributed kinds refuse)."""
    ranked, correct = self.ranked_cases()[:2]  # scores descending
    found = np.asarray(ranked)[np.asarray(correct)]
    return float(found[0]) if found.size else float("nan")


_PREVALENCE = K.Query("prevalence")
_TOP = K.Query("top_correct_score", bounded=K.Refusal("the scores inside a bin are not kept", "keep the cases"),
               distributed=K.Refusal("the scores stay in the cluster"))  # fmt: skip
_MEASURE = M.Measure("prevalence", "prevalence", label="Prevalence", bounded=True, headline="Prevalence",
                     headline_order=9)


def _replace_everywhere(monkeypatch: pytest.MonkeyPatch, name: str, old: Any, new: Any) -> None:
    """Replace ``old`` by ``new`` in every scored_pr module holding it under ``name``."""
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("scored_pr") and getattr(module, name, None) is old:
            monkeypatch.setattr(module, name, new)


def _add_queries(monkeypatch: pytest.MonkeyPatch, derive: bool = True) -> list[tuple[type, str]]:
    """Add the two queries (and prevalence as a measure) the way a new query is added; the methods built."""
    table = (*K.QUERY_TABLE, _PREVALENCE, _TOP)
    _replace_everywhere(monkeypatch, "QUERY_TABLE", K.QUERY_TABLE, table)
    _replace_everywhere(monkeypatch, "QUERIES", K.QUERIES, tuple(q.name for q in table))
    _replace_everywhere(monkeypatch, "MEASURES", M.MEASURES, (*M.MEASURES, _MEASURE))
    # the exact evaluator's methods, and the bounded and distributed kinds' own where they answer
    monkeypatch.setattr(ScoredPrecisionRecallEvaluation, "prevalence", prevalence, raising=False)
    monkeypatch.setattr(ScoredPrecisionRecallEvaluation, "top_correct_score", top_correct_score, raising=False)
    monkeypatch.setattr(BoundedEvaluation, "prevalence", _bounded_prevalence, raising=False)
    monkeypatch.setattr(DistributedEvaluation, "prevalence", prevalence, raising=False)
    built: list[tuple[type, str]] = []
    if derive:  # what answers_from_table does at class creation, for the classes already made

        def put(cls: type, name: str, value: Any) -> None:
            monkeypatch.setattr(cls, name, value, raising=False)
            built.append((cls, name))

        for cls in list(K.DERIVED):
            K.install_queries(cls, put=put)
    return built


def test_a_query_added_to_the_table_reaches_every_kind_the_cli_and_the_page(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built = _add_queries(monkeypatch)
    assert {(cls, name) for cls, name in built} == {(cls, name) for cls in DERIVED for name in
                                                    ("prevalence", "top_correct_score")} - {
        (BoundedEvaluation, "prevalence"), (DistributedEvaluation, "prevalence")}  # fmt: skip
    correct, scores = _cases()
    pos = int(correct.sum())
    want = pos / correct.size  # the literal reference: correct cases over cases
    top = float(max(s for c, s in zip(correct, scores) if c))

    exact = ScoredPrecisionRecallEvaluation()
    window, shared, bounded = WindowedEvaluation(size=1000), SynchronizedEvaluation(), BoundedEvaluation(4096)
    for ev in (exact, window, shared, bounded):
        ev.add_cases(correct, scores)
    for ev in (exact, window, shared):
        assert ev.prevalence() == want and ev.top_correct_score() == top, type(ev).__name__
    assert float(bounded.prevalence()) == want
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.top_correct_score: the scores inside a bin "
                                               r"are not kept; keep the cases$"):  # fmt: skip
        bounded.top_correct_score()
    # a window answers over its window: the last 7 cases
    small = WindowedEvaluation(size=7)
    small.add_cases(correct, scores)
    assert small.prevalence() == int(correct[-7:].sum()) / 7
    assert small.top_correct_score() == max((s for c, s in zip(correct[-7:], scores[-7:]) if c), default=np.nan)
    assert "prevalence" in dir(window) and "prevalence" in dir(shared)
    assert inspect.getdoc(WindowedEvaluation.prevalence).startswith("Over the window")  # type: ignore[attr-defined]

    # a result of the cluster: its own method, or the table's refusal
    dist = _distributed(correct, scores)
    assert dist.prevalence() == want  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedQuery, match=r"^DistributedEvaluation.top_correct_score: the scores stay in"):
        dist.top_correct_score()  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedQuery, match=r"^DistributedMultiLabelEvaluation.prevalence: "):
        DistributedMultiLabelEvaluation(["a"], [dist], dist, num_rows=40, multiclass=False).prevalence()  # type: ignore[attr-defined]

    # the rankings of the multi-query and multi-label evaluators (each an evaluator of the interface)
    multi = MultiQueryEvaluation()
    multi.add_cases("q1", correct, scores)
    assert multi["q1"].prevalence() == want
    rng = np.random.default_rng(5)
    y = rng.random((30, 2)) < 0.4
    s = np.round(rng.random((30, 2)), 2)
    for kwargs in ({}, {"window": 100}, {"max_bins": 4096}):
        ml = MultiLabelEvaluation(["a", "b"], **kwargs)
        ml.add_cases(y, s)
        assert float(ml["b"].prevalence()) == y[:, 1].sum() / 30, kwargs

    # summary() of every kind, as a measure of the table
    for ev in (exact, window, shared, dist):
        assert ev.summary()["prevalence"] == want, type(ev).__name__
    got = bounded.summary()
    assert got["prevalence"] == got["prevalence_lower"] == got["prevalence_upper"] == want
    # the command line's report
    path = tmp_path / "cases.csv"
    path.write_text("correct,score\n" + "".join(f"{int(c)},{float(v)!r}\n" for c, v in zip(correct, scores)))
    assert main(["report", str(path), "--format", "json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["prevalence"] == want
    # the HTML page: a headline measure of every single-ranking kind, after the table's others
    for ev in (exact, window, shared, bounded):
        page = html_data.page_data(ev, "t")
        measures = page["rankings"][0]["measures"]
        assert measures[-1]["key"] == "prevalence" and measures[-1]["label"] == "Prevalence", type(ev).__name__
        assert measures[-1]["value"] == want, type(ev).__name__
    assert '"label": "Prevalence"' in exact.to_html() or '"label":"Prevalence"' in exact.to_html()


def test_without_the_derivation_a_new_query_does_not_reach_the_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: a kind whose methods are not rebuilt from the table lacks the query."""
    _add_queries(monkeypatch, derive=False)
    window = WindowedEvaluation(size=10)
    window.add_cases([True, False], [0.9, 0.1])
    with pytest.raises(AttributeError):
        window.prevalence()  # type: ignore[attr-defined]
    bounded = BoundedEvaluation()
    with pytest.raises(AttributeError):
        bounded.top_correct_score()  # type: ignore[attr-defined]


def test_a_bounded_query_the_table_says_it_answers_must_be_defined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind that answers a query boundedly defines it; the derivation refuses to guess one."""
    answered = K.Query("not_defined_anywhere")
    with pytest.raises(TypeError, match="BoundedEvaluation must define not_defined_anywhere"):
        K.install_queries(BoundedEvaluation, table=(answered,), put=lambda *a: None)
    with pytest.raises(TypeError, match="DistributedEvaluation must define not_defined_anywhere"):
        K.install_queries(DistributedEvaluation, table=(answered,), put=lambda *a: None)


# ------------------------------------------------------------------ the public names, listed once


def test_the_public_names_are_listed_once_and_the_type_checkers_imports_agree() -> None:
    """``__all__`` is ``_LAZY``'s names and the version; the TYPE_CHECKING imports are the same pairs."""
    assert scored_pr.__all__ == [*scored_pr._LAZY, "__version__"]
    tree = ast.parse((ROOT / "scored_pr" / "__init__.py").read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom)
                for alias in stmt.names:
                    typed[alias.name] = "." * stmt.level + (stmt.module or "")
    assert typed == scored_pr._LAZY

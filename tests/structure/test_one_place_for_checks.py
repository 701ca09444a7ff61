"""Every check of a caller's argument lives in the package scored_pr/_validation/.

Two halves. The rule: each module of the package is read with :mod:`ast`, and
a ``raise ValueError(...)`` / ``raise TypeError(...)`` whose message mentions an
argument anywhere outside ``_validation/`` fails the test (a module calls a
check instead; see the allow-list for what stays deliberately). The messages:
the checks moved into ``_validation`` raise exactly the errors they raised
before the move, through the public API; the expected texts below are the ones
scored_pr 0.1.x's modules produced for the same calls, and a rejected call
still changes nothing.
"""

from __future__ import annotations

import ast
import importlib
import io
import pathlib
import tempfile

import numpy as np
import pytest

from scored_pr import MultiQueryEvaluation as M
from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr import SynchronizedEvaluation as S
from scored_pr import WindowedEvaluation as W
from scored_pr.integrations import MLflow, Prometheus, TensorBoard, exact_pr_points
from scored_pr.lingpipe import ConfusionMatrix, PrecisionRecallEvaluation, ScoredClassification, ScoredClassifierEvaluator
from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation as LE
from scored_pr.streaming import SummaryLogger
from scored_pr.testing import assert_curve_close, assert_metrics, assert_not_worse
from scored_pr.trec import TrecEval

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "scored_pr"

#: Folders and modules whose errors are about input data or formats, not a
#: caller's arguments: corrupt or foreign state files, lines of input files,
#: trec_eval measure specifications, the command line's own messages.
NOT_ARGUMENT_CHECKS = ("_validation/", "_state/", "_io/", "_cli/", "trec/_registry.py")

#: Argument checks deliberately written outside _validation: (module, line text) -> why.
#: Empty: the hot paths (add_case of the exact, windowed and bounded evaluators)
#: keep their conditions inline, for no extra call per case, and raise an error
#: built by _validation (check_correct/check_score/check_weight on the slow
#: path, _validation.missing_time and _validation.time_off_clock for a window's
#: times). An entry added here must say why the check cannot be a call.
ALLOWED: dict[tuple[str, str], str] = {}


def _message_text(node: ast.AST) -> str:
    """The literal text of an exception's arguments (f-string parts included)."""
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def argument_checks(source: str) -> list[tuple[int, str]]:
    """(line, message text) of every ``raise ValueError/TypeError(...)`` that mentions an argument."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and isinstance(node.exc.func, ast.Name)
            and node.exc.func.id in ("ValueError", "TypeError")
        ):
            text = _message_text(node.exc)
            if "argument" in text:
                found.append((node.lineno, text))
    return found


def scanned(rel: str) -> bool:
    """Whether the rule reads the module at ``rel`` (a path relative to scored_pr/)."""
    return not any(rel == skip or rel.startswith(skip) for skip in NOT_ARGUMENT_CHECKS)


def modules() -> list[pathlib.Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if scanned(path.relative_to(PACKAGE).as_posix())]


def test_the_scanner_finds_an_argument_check_and_only_that():
    source = (
        "def f(x):\n"
        "    if x < 0:\n"
        "        raise ValueError(f'f: argument {\"x\"!r} must be >= 0; got {x!r} instead.')\n"
        "    if x > 9:\n"
        "        raise TypeError('f: arguments a and b differ')\n"
        "    if x == 3:\n"
        "        raise fail(ValueError, 'f', 'x', 'not 3', x)\n"
        "    raise ValueError('unknown trec_eval measure')\n"
    )
    assert [line for line, _ in argument_checks(source)] == [3, 5]


def test_the_rule_covers_the_public_modules_and_skips_the_format_readers():
    names = {p.relative_to(PACKAGE).as_posix() for p in modules()}
    for module in ("streaming.py", "integrations.py", "testing.py", "_report.py", "_uncertainty.py",
                   "_evaluators/windowed.py", "_evaluators/exact.py", "trec/_evaluate.py", "lingpipe/_confusion.py"):
        assert module in names
    assert not any(n.startswith(("_state/", "_io/", "_cli/", "_validation/")) or n == "trec/_registry.py" for n in names)
    # only the package's own modules are exempt: a file named like it anywhere else is read
    assert not scanned("_validation/cases.py") and not scanned("_validation/__init__.py")
    for elsewhere in ("_validation.py", "_validation_extra.py", "lingpipe/_validation.py", "_evaluators/_validation/x.py"):
        assert scanned(elsewhere), elsewhere


def test_the_exempt_package_is_where_the_argument_checks_are():
    """The exemption covers the checks themselves: the scanner finds them in _validation/, not nowhere."""
    found = {
        path.name: len(argument_checks(path.read_text(encoding="utf-8")))
        for path in sorted((PACKAGE / "_validation").glob("*.py"))
    }
    assert found["cases.py"] > 5 and found["kinds.py"] > 5 and found["sinks.py"] > 5
    assert sum(found.values()) > 60


def test_each_check_is_defined_in_one_module_and_re_exported_as_is():
    """``from .._validation import check_x`` is the function of one domain module (no wrapper on a hot path)."""
    package = importlib.import_module("scored_pr._validation")
    homes: dict[str, list[str]] = {}
    for path in sorted((PACKAGE / "_validation").glob("*.py")):
        if path.stem == "__init__":
            continue
        module = importlib.import_module(f"scored_pr._validation.{path.stem}")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                homes.setdefault(node.name, []).append(path.stem)
                if not node.name.startswith("_") and node.name in package.__all__:
                    assert getattr(package, node.name) is getattr(module, node.name), node.name
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}
    assert set(package.__all__) <= set(dir(package))
    for name in ("check_score", "check_correct", "check_batch", "check_weight", "check_weights", "fail", "describe"):
        assert name in package.__all__ and getattr(package, name).__module__.startswith("scored_pr._validation.")


def test_no_argument_check_outside_validation():
    """A check of a caller's argument is a call into scored_pr/_validation/, not a raise of its own."""
    offenders, used = [], set()
    for path in modules():
        rel = path.relative_to(PACKAGE).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for line, text in argument_checks(path.read_text(encoding="utf-8")):
            key = (rel, lines[line - 1].strip())
            if key in ALLOWED:
                used.add(key)
            else:
                offenders.append(f"{rel}:{line}: {text[:100]}")
    assert offenders == [], "argument checks outside _validation/ (add a check there and call it):\n" + "\n".join(offenders)
    assert used == set(ALLOWED), f"allow-list entries that no longer match a line: {sorted(set(ALLOWED) - used)}"


class Odd:
    def __repr__(self) -> str:
        return "<odd>"


def ev() -> E:
    e = E()
    e.add_cases([True, False, True, False], [0.9, 0.8, 0.4, 0.3])
    return e


def mq() -> M:
    m = M()
    m.add_cases("q", [True, False], [0.9, 0.1])
    return m


def timed_on_clock() -> None:
    w = W(seconds=5.0)
    w.add_case(True, 0.5)
    w.add_case(True, 0.4, time=1.0)


def ranked_outside() -> None:
    ScoredClassifierEvaluator(["a", "b"]).addClassification("a", ScoredClassification(["c"], [1.0]))


QRELS = {"q": {"d": 1}}
RUN = {"q": {"d": 1.0}}

#: (call, exception, exact message), the message as each module raised it before its check moved.
MOVED = {
    'logger_window_type': (
        lambda: SummaryLogger(ev(), print, every=1, window=5),
        TypeError,
        "SummaryLogger: argument 'window' must be a WindowedEvaluation or None; got 5 (int) instead.",
    ),
    'logger_window_label': (
        lambda: SummaryLogger(ev(), print, every=1, window=W(10, pos_label="a")),
        ValueError,
        "SummaryLogger: argument 'window' must have the evaluation's pos_label (None); got pos_label='a' instead.",
    ),
    'logger_callback_item': (
        lambda: SummaryLogger(ev(), [print, 3], every=1),
        TypeError,
        "SummaryLogger: argument 'callback' must be callable or a list of callables; got 3 (int) at index 1 instead.",
    ),
    'logger_callback': (
        lambda: SummaryLogger(ev(), 3, every=1),
        TypeError,
        "SummaryLogger: argument 'callback' must be callable or a list of callables; got 3 (int) instead.",
    ),
    'logger_step': (
        lambda: SummaryLogger(ev(), print, every=1, step=3),
        TypeError,
        "SummaryLogger: argument 'step' must be a callable returning the step, or None; got 3 (int) instead.",
    ),
    'logger_cadence': (
        lambda: SummaryLogger(ev(), print),
        ValueError,
        "SummaryLogger: give 'every' (cases), 'seconds' or both; got neither.",
    ),
    'logger_every': (
        lambda: SummaryLogger(ev(), print, every=0),
        ValueError,
        "SummaryLogger: argument 'every' must be an int >= 1; got 0 (int) instead.",
    ),
    'points_type': (
        lambda: exact_pr_points(ev(), max_points=2.5),
        TypeError,
        "exact_pr_points: argument 'max_points' must be an int >= 2 or None; got 2.5 (float) instead.",
    ),
    'points_value': (
        lambda: exact_pr_points(ev(), max_points=1),
        ValueError,
        "exact_pr_points: argument 'max_points' must be an int >= 2; got 1 instead.",
    ),
    'tensorboard_prefix': (
        lambda: TensorBoard(tempfile.gettempdir(), prefix=3),
        TypeError,
        "TensorBoard: argument 'prefix' must be a str; got 3 instead.",
    ),
    'tensorboard_points': (
        lambda: TensorBoard(tempfile.gettempdir(), max_points=True),
        ValueError,
        "TensorBoard: argument 'max_points' must be an int >= 2; got True instead.",
    ),
    'tensorboard_target': (
        lambda: TensorBoard(Odd()),
        TypeError,
        "TensorBoard: argument 'target' must be a log directory (str or path) or a writer with add_scalar and add_pr_curve_raw (torch's or tensorboardX's SummaryWriter); got <odd> (Odd) instead.",
    ),
    'mlflow_prefix': (
        lambda: MLflow(prefix=3),
        TypeError,
        "MLflow: argument 'prefix' must be a str; got 3 instead.",
    ),
    'mlflow_artifact_path': (
        lambda: MLflow(artifact_path=None),
        TypeError,
        "MLflow: argument 'artifact_path' must be a str; got None instead.",
    ),
    'prometheus_registry': (
        lambda: Prometheus(Odd()),
        TypeError,
        "Prometheus: argument 'registry' must be a prometheus_client.CollectorRegistry or None; got <odd> (Odd) instead.",
    ),
    'prometheus_namespace': (
        lambda: Prometheus(namespace="1a"),
        ValueError,
        "Prometheus: argument 'namespace' must be a metric name prefix (letters, digits, '_'); got '1a' instead.",
    ),
    'prometheus_labels': (
        lambda: Prometheus(labels={"scope": "x"}),
        ValueError,
        "Prometheus: argument 'labels' must map label names (str, not 'scope') to str values; got 'scope': 'x' instead.",
    ),
    'metrics_confidence': (
        lambda: assert_metrics(ev(), average_precision=0.5, confidence=0.3),
        ValueError,
        "assert_metrics: argument 'confidence' must be a real number in [0.5, 1) (e.g. 0.95); got 0.3 instead.",
    ),
    'metrics_none': (
        lambda: assert_metrics(ev()),
        ValueError,
        'assert_metrics: give at least one metric=bound.',
    ),
    'metrics_operator': (
        lambda: assert_metrics(ev(), average_precision=("~", 1)),
        ValueError,
        "assert_metrics: the bound of 'average_precision' must be a number, an (operator, number) pair with operator one of >=, >, <=, <, ==, !=, or an object compared with == such as pytest.approx(...); got ('~', 1) instead.",
    ),
    'metrics_bound_type': (
        lambda: assert_metrics(ev(), average_precision=[1]),
        ValueError,
        "assert_metrics: the bound of 'average_precision' must be a number, an (operator, number) pair with operator one of >=, >, <=, <, ==, !=, or an object compared with == such as pytest.approx(...); got [1] instead.",
    ),
    'metrics_mapping_confidence': (
        lambda: assert_metrics(ev().summary(), average_precision=0.5, confidence=0.9),
        ValueError,
        "assert_metrics: 'confidence' needs a ScoredPrecisionRecallEvaluation (a summary dict has no cases to resample); got dict instead.",
    ),
    'not_worse_third': (
        lambda: assert_not_worse(ev(), ev(), ev()),
        TypeError,
        "assert_not_worse: with two evaluators (the unpaired form assert_not_worse(candidate, baseline)) pass 'measure' and the other options by keyword; got a third positional argument ScoredPrecisionRecallEvaluation(ties='grouped', num_cases=4, instead.",
    ),
    'not_worse_baseline': (
        lambda: assert_not_worse([True, False], [0.1, 0.2]),
        TypeError,
        "assert_not_worse: argument 'baseline_scores' is required with labels and scores (the paired form assert_not_worse(correct, candidate_scores, baseline_scores)); got None instead.",
    ),
    'not_worse_margin': (
        lambda: assert_not_worse([True, False], [0.1, 0.2], [0.2, 0.1], margin=-1),
        ValueError,
        "assert_not_worse: argument 'margin' must be a finite real number >= 0; got -1 instead.",
    ),
    'not_worse_confidence': (
        lambda: assert_not_worse([True, False], [0.1, 0.2], [0.2, 0.1], confidence=1.0),
        ValueError,
        "assert_not_worse: argument 'confidence' must be a real number in [0.5, 1) (e.g. 0.95); got 1.0 instead.",
    ),
    'curve_points': (
        lambda: assert_curve_close(ev().pr_curve(), [[1, 2], [3]]),
        ValueError,
        "assert_curve_close: argument 'expected' must be an array of curve points; got [[1, 2], [3]] instead.",
    ),
    'curve_shape': (
        lambda: assert_curve_close(ev().pr_curve(), np.zeros((2, 4))),
        ValueError,
        "assert_curve_close: argument 'expected' must have shape (n, 2) or (n, 3); got shape (2, 4) instead.",
    ),
    'window_extent': (
        lambda: W(),
        ValueError,
        "WindowedEvaluation: give exactly one of 'size' (the last N cases) and 'seconds' (the last T seconds); got size=None and seconds=None instead.",
    ),
    'window_both': (
        lambda: W(3, seconds=1.0),
        ValueError,
        "WindowedEvaluation: give exactly one of 'size' (the last N cases) and 'seconds' (the last T seconds); got size=3 and seconds=1.0 instead.",
    ),
    'window_clock': (
        lambda: W(seconds=1.0, clock=3),
        TypeError,
        "WindowedEvaluation: argument 'clock' must be a callable returning the time, or None; got 3 (int) instead.",
    ),
    'window_no_clock': (
        lambda: W(seconds=5.0, clock=None).add_case(True, 0.5),
        ValueError,
        "add_case: argument 'time' must be given, since this window has no clock (clock=None, or created without clock= and its first item came with a time); got None instead.",
    ),
    'window_off_clock': (
        timed_on_clock,
        ValueError,
        "add_case: argument 'time' was given, but this window times the items added without one by its default clock, time.monotonic, and a time on another scale would expire them at once; give every item a time (the first item with a time makes a window run on explicit times), or create the window with clock= the clock your times come from; got 1.0 instead.",
    ),
    'multi_query': (
        lambda: M().add_case(1.5, True, 0.5),
        TypeError,
        "add_case: argument 'query' must be a query id (str or int); got 1.5 (float) instead.",
    ),
    'multi_measure': (
        lambda: mq().per_query("nope"),
        ValueError,
        "per_query: argument 'name' must name a measure method of ScoredPrecisionRecallEvaluation; got 'nope' instead.",
    ),
    'multi_mutator': (
        lambda: mq().per_query("add_case"),
        ValueError,
        "per_query: argument 'name' must name a measure, not the mutator 'add_case'.",
    ),
    'multi_no_relevant': (
        lambda: mq().mean_average_precision(no_relevant="x"),
        ValueError,
        "mean_average_precision: argument 'no_relevant' must be 'zero' or 'skip'; got 'x' instead.",
    ),
    'synchronized': (
        lambda: S(3),
        TypeError,
        "SynchronizedEvaluation: argument 'evaluation' must be a ScoredPrecisionRecallEvaluation; got int instead.",
    ),
    'merge_type': (
        lambda: ev().merge(3),
        TypeError,
        "merge: argument 'other' must be a ScoredPrecisionRecallEvaluation; got int instead.",
    ),
    'merge_ties': (
        lambda: E(ties="stable").merge(E(ties="grouped")),
        ValueError,
        "merge: argument 'other' must use the same tie policy; got ties='grouped' for ties='stable' instead.",
    ),
    'interval_measure_args': (
        lambda: ev().confidence_interval("precision_at", measure_args={"x": 1}),
        TypeError,
        "confidence_interval: bad arguments {'measure_args': {'x': 1}} for measure 'precision_at': ScoredPrecisionRecallEvaluation.precision_at() got an unexpected keyword argument 'measure_args'",
    ),
    'lingpipe_score_curve': (
        lambda: LE.printScorePrecisionRecallCurve(np.zeros((2, 2)), io.StringIO()),
        ValueError,
        "printScorePrecisionRecallCurve: argument 'prScoreCurve' must have shape (n, 3); got shape (2, 2) instead.",
    ),
    'lingpipe_score_curve_empty': (
        lambda: LE.printScorePrecisionRecallCurve([], io.StringIO()),
        ValueError,
        "printScorePrecisionRecallCurve: argument 'prScoreCurve' must have shape (n, 3); got shape (0, 2) instead.",
    ),
    'trec_qrels': (
        lambda: TrecEval(3, RUN),
        TypeError,
        "TrecEval: argument 'qrels' must be a path, a Qrels or a mapping; got int",
    ),
    'trec_run': (
        lambda: TrecEval(QRELS, 3),
        TypeError,
        "TrecEval: argument 'run' must be a path, a Run or a mapping; got int",
    ),
    'trec_grade': (
        lambda: TrecEval({"q": {"d": 2**70}}, RUN),
        ValueError,
        "TrecEval: argument 'qrels': the grade of 'd' for query 'q' is out of range (trec_eval reads grades as a C long, -9223372036854775808 to 9223372036854775807); got 1180591620717411303424",
    ),
    'trec_level_type': (
        lambda: TrecEval(QRELS, RUN, relevance_level=1.5),
        TypeError,
        "TrecEval: argument 'relevance_level' must be an int; got 1.5",
    ),
    'trec_level_range': (
        lambda: TrecEval(QRELS, RUN, num_docs_in_coll=2**70),
        ValueError,
        "TrecEval: argument 'num_docs_in_coll' must be an int from -9223372036854775808 to 9223372036854775807 (a C long, as trec_eval reads it); got 1180591620717411303424",
    ),
    'trec_max_docs': (
        lambda: TrecEval(QRELS, RUN, max_docs=-1),
        ValueError,
        "TrecEval: argument 'max_docs' must be None or an int from 0 to 9223372036854775807; got -1",
    ),
    'trec_spec': (
        lambda: TrecEval(QRELS, RUN).measure(3),
        TypeError,
        "measure: argument 'spec' must be a str; got 3",
    ),
    'classification_order': (
        lambda: ScoredClassification(["a", "b"], [0.1, 0.2]),
        ValueError,
        "ScoredClassification: argument 'scores' must be in non-increasing order (rank 0 the best); got scores[0]=0.1 < scores[1]=0.2 instead.",
    ),
    'classification_length': (
        lambda: ScoredClassification(["a", "b"], [0.1]),
        ValueError,
        "ScoredClassification: arguments 'categories' and 'scores' must have the same length; got 2 categories and 1 scores instead.",
    ),
    'classification_categories': (
        ranked_outside,
        ValueError,
        "ScoredClassifierEvaluator.addClassification: argument 'classification' must rank only the categories ['a', 'b']; got 'c' at rank 0 instead.",
    ),
    'matrix_rows': (
        lambda: ConfusionMatrix(["a", "b"], [[1]]),
        ValueError,
        "ConfusionMatrix: argument 'matrix' must be a 2x2 matrix (one row and one column per category) of non-negative ints; got 1 rows instead.",
    ),
    'matrix_row': (
        lambda: ConfusionMatrix(["a", "b"], [[1, 2], [3]]),
        ValueError,
        "ConfusionMatrix: argument 'matrix' must be a 2x2 matrix (one row and one column per category) of non-negative ints; got 1 entries in row 1 instead.",
    ),
    'matrix_type': (
        lambda: ConfusionMatrix(["a", "b"], [[1, 2], [3, "x"]]),
        TypeError,
        "ConfusionMatrix: argument 'matrix' must be a 2x2 matrix (one row and one column per category) of non-negative ints; got 'x' (str) at [1][1] instead.",
    ),
    'matrix_negative': (
        lambda: ConfusionMatrix(["a", "b"], [[1, 2], [3, -1]]),
        ValueError,
        "ConfusionMatrix: argument 'matrix' must be a 2x2 matrix (one row and one column per category) of non-negative ints; got -1 at [1][1] instead.",
    ),
    'f_measure_arity': (
        lambda: PrecisionRecallEvaluation(1, 1, 1, 1).fMeasure(1, 2),
        TypeError,
        'PrecisionRecallEvaluation.fMeasure: takes (), (beta) or (beta, recall, precision); got 2 arguments instead.',
    ),
    'f_measure_static_arity': (
        lambda: PrecisionRecallEvaluation.fMeasure(1, 2),
        TypeError,
        'PrecisionRecallEvaluation.fMeasure: the static form takes (beta, recall, precision); got 2 arguments instead.',
    ),
    'interval_level': (
        lambda: ev().confidence_interval(level=1.5),
        ValueError,
        "confidence_interval: argument 'level' must be a real number strictly between 0 and 1; got 1.5 (float) instead.",
    ),
    'interval_resamples': (
        lambda: ev().confidence_interval(method="bootstrap", n_resamples=5),
        ValueError,
        "confidence_interval: argument 'n_resamples' must be an integer >= 10; got 5 (int) instead.",
    ),
    'interval_seed_type': (
        lambda: ev().confidence_interval(seed=1.5),
        TypeError,
        "confidence_interval: argument 'seed' must be None or a non-negative integer; got 1.5 (float) instead.",
    ),
    'interval_seed_value': (
        lambda: ev().confidence_interval(seed=-1),
        ValueError,
        "confidence_interval: argument 'seed' must be None or a non-negative integer; got -1 (int) instead.",
    ),
    'interval_stratified': (
        lambda: ev().confidence_interval(stratified=1),
        TypeError,
        "confidence_interval: argument 'stratified' must be a bool; got 1 (int) instead.",
    ),
}


@pytest.mark.parametrize("name", list(MOVED))
def test_a_moved_check_raises_the_message_it_always_raised(name):
    call, exc, message = MOVED[name]
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == message


def test_a_rejected_window_time_changes_nothing():
    w = W(seconds=5.0)
    w.add_case(True, 0.5)
    before = (w.num_cases, w.pr_curve().tolist())
    with pytest.raises(ValueError, match="'time' was given"):
        w.add_case(False, 0.9, time=1.0)
    assert (w.num_cases, w.pr_curve().tolist()) == before


def test_a_rejected_query_or_merge_changes_nothing():
    m = mq()
    with pytest.raises(TypeError, match="query id"):
        m.add_case(1.5, True, 0.5)
    assert list(m.queries()) == ["q"]
    a, b = E(ties="stable"), E(ties="grouped")
    a.add_case(True, 0.5)
    with pytest.raises(ValueError, match="same tie policy"):
        a.merge(b)
    assert (a.num_cases, b.num_cases) == (1, 0)


def test_a_rejected_classification_changes_nothing():
    evaluator = ScoredClassifierEvaluator(["a", "b"])
    evaluator.addClassification("a", ScoredClassification(["a", "b"], [0.9, 0.1]))
    before = (evaluator.numCases(), evaluator.confusionMatrix().matrix().tolist())
    with pytest.raises(ValueError, match="must rank only the categories"):
        evaluator.addClassification("a", ScoredClassification(["a", "c"], [0.9, 0.1]))
    assert (evaluator.numCases(), evaluator.confusionMatrix().matrix().tolist()) == before

"""``scored-pr report`` on a wide file: multi-class or multi-label scores, one column per class or label.

Also the final report of ``scored-pr stream`` on a wide file (:func:`print_wide`,
called by :mod:`.stream_wide`), and the options both commands take. CSV, TSV,
JSON Lines and Parquet files are read, through the input layer (:mod:`.inputs`).

Two layouts (documented in ``scored-pr report --help`` and the README):

multi-class
    ``--label-col Y`` names the column holding each row's class, and
    ``--score-cols A,B,C`` the score columns, one per class, whose names are
    the classes; or ``--score-prefix P``: every column whose name starts with
    P is a score column and its class is the rest of its name
    (``p_cat`` is class ``cat``).
multi-label
    ``--label-cols A,B,C`` names one indicator column per label (1/0, -1/1,
    true/false, yes/no) and ``--score-cols SA,SB,SC`` their score columns,
    paired by position; or ``--score-prefix P``: the score of label column
    ``A`` is the column ``PA``.

The report is a per-class (per-label) table: positives, negatives and each
measure of the table of measures that is averaged over labels (average
precision and ROC AUC) of that column against the rest, then their averages
(scikit-learn's ``average_precision_score`` and ``roc_auc_score`` rules,
through a :class:`~scored_pr.MultiLabelEvaluation`): macro, weighted and
micro (and samples for multi-label); for multi-class the ROC AUC averages are
:mod:`scored_pr.functional`'s one-vs-rest macro/weighted/micro and one-vs-one
(Hand & Till) macro/weighted. Then the label-ranking measures for
multi-label; top-1 accuracy for multi-class, and at the top-scoring class
(``argmax``, the first class on ties) each class's precision, recall and F1,
their averages, the accuracy and the confusion matrix. ``--format json``
writes it all as one object, NaN as null.
"""

from __future__ import annotations

import argparse
import json
import math
import warnings
from typing import Any

from .._io.formats import open_wide
from .inputs import SkipReporter
from .options import ReportOptions, WideOptions
from .output import error, table

#: Options of ``report`` that read a one-ranking file: an error with the wide options.
_NOT_WIDE = ("correct_col", "positive_label", "score_col", "ties", "misses", "curve", "interpolate", "plot", "ci",
             "calibration")


def column_list(text: str) -> list[str]:
    """An argparse type: comma-separated column names, at least two, none empty or repeated."""
    names = [n.strip() for n in text.split(",")]
    if len(names) < 2 or "" in names:
        raise argparse.ArgumentTypeError(f"expected at least two comma-separated column names; got {text!r}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise argparse.ArgumentTypeError(f"column {repeated[0]!r} is named twice in {text!r}")
    return names


def add_options(p: argparse.ArgumentParser) -> None:
    """The wide-file options of ``report`` and ``stream``."""
    g = p.add_argument_group(
        "wide files (multi-class and multi-label)",
        "One score column per class or label; the (final) report is a per-class table and the averages "
        "(scikit-learn's average_precision_score and roc_auc_score). Give one of --label-col and "
        "--label-cols, and one of --score-cols and --score-prefix.",
    )
    labels = g.add_mutually_exclusive_group()
    labels.add_argument("--label-col", metavar="NAME", help="multi-class: the column holding each row's class name")
    labels.add_argument("--label-cols", type=column_list, metavar="A,B,...",
                        help="multi-label: one indicator column per label (1/0, -1/1, true/false, yes/no)")
    scores = g.add_mutually_exclusive_group()
    scores.add_argument("--score-cols", type=column_list, metavar="SA,SB,...",
                        help="the score columns: with --label-col their names are the classes; with --label-cols "
                        "they pair with the label columns by position")
    scores.add_argument("--score-prefix", metavar="P",
                        help="with --label-col: every column named P<class> is the score of <class>; with "
                        "--label-cols: the score of label column A is column P<A>")


def columns_usage(w: WideOptions) -> str | None:
    """Why these wide-file options do not go together (``report`` and ``stream``), or None."""
    if w.label_col is None and w.label_cols is None:
        return "--score-cols and --score-prefix go with --label-col (multi-class) or --label-cols (multi-label)"
    if w.score_cols is None and w.score_prefix is None:
        option = "--label-col" if w.label_col is not None else "--label-cols"
        return f"{option} needs --score-cols or --score-prefix (the score column of each class or label)"
    if w.label_cols is not None and w.score_cols is not None and len(w.label_cols) != len(w.score_cols):
        return (f"--label-cols names {len(w.label_cols)} columns ({', '.join(w.label_cols)}) and --score-cols "
                f"{len(w.score_cols)} ({', '.join(w.score_cols)}); they pair by position")
    if w.score_prefix is not None and not w.score_prefix:
        return "--score-prefix: expected a non-empty prefix; got ''"
    return None


def _usage(opts: ReportOptions) -> str | None:
    """Why these options do not go together, or None."""
    problem = columns_usage(opts.wide)
    if problem is not None:
        return problem
    given = opts.given(_NOT_WIDE)
    if given:
        return f"{', '.join(given)}: {NOT_FOR_WIDE}"
    return None


#: What is said of a one-ranking option given with the wide options.
NOT_FOR_WIDE = "not for a wide file (--label-col/--label-cols), which is reported per class and averaged"


def _measures(multiclass: bool, truth: Any, scores: Any) -> tuple[dict[str, Any], dict[str, Any], list[str], Any]:
    """Per-column (positives, negatives, each averaged measure) and the averages, and the notes to print.

    The averaged measures are the table's (``scored_pr._measures.MEASURES``,
    entries with ``over_labels``), computed by a :class:`MultiLabelEvaluation`
    of the rows (scikit-learn's rules, as :mod:`scored_pr.functional`): each
    label's value and every average (no "samples" for multi-class). The
    multi-class ROC AUC averages are the functional API's one-vs-rest and
    one-vs-one (Hand & Till) rules; top-1 accuracy (multi-class) and the
    label-ranking measures (multi-label) come from it too. Multi-class rows
    also give the measures at the top-scoring class (the evaluator's):
    per-class precision, recall and F1, their averages, accuracy and the
    confusion matrix (returned last; None for multi-label).
    """
    import numpy as np

    from .. import functional as F
    from .._evaluators.multilabel import MultiLabelEvaluation, label_values
    from .._measures import MEASURES

    n, k = scores.shape
    if multiclass:
        indicator = np.zeros((n, k), dtype=bool)
        indicator[np.arange(n), truth] = True
    else:
        indicator = truth
    ev = MultiLabelEvaluation(k)
    ev.add_cases(indicator, scores)
    summary = ev.summary()
    positives = indicator.sum(axis=0)
    columns: dict[str, Any] = {"positives": positives.tolist(), "negatives": (n - positives).tolist()}
    averages: dict[str, Any] = {}
    for m in MEASURES:
        if m.name in summary and m.over_labels:
            values = label_values(ev, m)  # plain Python floats, one per column
            columns[m.column] = [float(v) for v in values]
            averages[m.column] = {a: v for a, v in summary[m.name].items() if not (multiclass and a == "samples")}
    notes = []
    one_class = [j for j in range(k) if positives[j] == 0 or positives[j] == n]
    if one_class:
        notes.append(f"{len(one_class)} of {k} {'classes' if multiclass else 'labels'} have a single class in "
                     "their column: a measure undefined there is null (average precision 0.0 without a positive, "
                     "scikit-learn's value)")
    if multiclass:
        labels = np.arange(k)
        pairs = np.unique(truth).size >= 2  # one-vs-one needs a pair of classes present: NaN without one
        # the multi-class rules of ROC AUC (one-vs-rest needs scores summing to 1; Hand & Till's one-vs-one)
        averages["roc_auc"] = {
            f"{mc}_{a}": F.area_under_roc_curve(truth, scores, average=a, multi_class=mc, labels=labels)
            if mc == "ovr" or pairs else math.nan
            for mc, avgs in (("ovr", ("macro", "weighted", "micro")), ("ovo", ("macro", "weighted")))
            for a in avgs
        }
        averages["top_1_accuracy"] = F.top_k_accuracy_score(truth, scores, k=1, labels=labels)
        # at the top-scoring class (the first column on ties, as numpy.argmax)
        averages["accuracy"] = summary["accuracy"]
        for name in ("precision", "recall", "f_measure"):
            columns[name] = [summary["classes"][j][name] for j in range(k)]
            averages[name] = summary[name]
        return columns, averages, notes, ev.confusion_matrix()
    else:
        averages["label_ranking_average_precision"] = F.label_ranking_average_precision_score(truth, scores)
        averages["coverage_error"] = F.coverage_error(truth, scores)
        averages["label_ranking_loss"] = F.label_ranking_loss(truth, scores)
    return columns, averages, notes, None


def _nan_notes(multiclass: bool, truth: Any, scores: Any, names: list[str], columns: dict[str, Any],
               averages: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The footnotes of the text report: why each NaN of the per-class table, and of the averages, is undefined.

    Counted from the rows (:mod:`scored_pr._html.notes`, which the HTML page
    shows beside the same values): the labels with no positive (or no
    negative) row, the rows with no positive label, ... Two lists of lines
    (``note: <figure> is nan, undefined: <why>``), empty when nothing is NaN.
    """
    import numpy as np

    from .._evaluators.multilabel import MultiLabelEvaluation
    from .._html import notes as why

    def nan(v: Any) -> bool:
        return isinstance(v, float) and math.isnan(v)

    n, k = scores.shape
    if not any(nan(v) for values in columns.values() for v in values) and not any(
            nan(v) for value in averages.values() for v in (value.values() if isinstance(value, dict) else [value])):
        return [], []
    if multiclass:
        indicator = np.zeros((n, k), dtype=bool)
        indicator[np.arange(n), truth] = True
    else:
        indicator = truth
    ev = MultiLabelEvaluation([str(name) for name in names])
    ev.add_cases(indicator, scores)
    what = "class" if multiclass else "label"
    per_label = [f"note: {key} of {what} {names[j]} is nan, {why.label_reason(key, ev[str(names[j])], 'row')}"
                 for key, values in columns.items() for j, v in enumerate(values) if nan(v)]
    per_average = []
    for key, value in averages.items():
        for average, v in (value.items() if isinstance(value, dict) else [("", value)]):
            if not nan(v):
                continue
            if multiclass and average.startswith("ovo_"):
                present = int(np.unique(truth).size)
                reason = (f"undefined: {present} of {k} classes {'has' if present == 1 else 'have'} rows "
                          "(one-vs-one needs a pair of classes)"
                          if present < 2 else "undefined (0/0)")
            elif average:
                reason = why.label_average_reason(ev, key, average.removeprefix("ovr_"), what)
            else:
                reason = "undefined (0/0)"
            per_average.append(f"note: {key}{f' ({average})' if average else ''} is nan, {reason}")
    return per_label, per_average


def _fmt(value: Any) -> str:
    return str(value) if isinstance(value, int) else repr(float(value))


def report(opts: ReportOptions) -> int:
    """``scored-pr report --label-col/--label-cols ...``: the per-class table and the averages; the exit status."""
    problem = _usage(opts)
    if problem is not None:
        error(problem)
        return 2
    skips = SkipReporter()
    opened = open_wide(opts.path, opts.input.input_format, opts.wide, opts.input.skip_invalid, skips)
    reader = opened.reader
    try:
        truth, scores = reader.read()
    finally:
        opened.close()
    skips.finish(reader.source)
    return print_wide(reader.source, reader.multiclass, reader.names, reader.score_names, truth, scores,
                      reader.skipped, opts.output.format, html=opts.html)


def print_wide(source: str, multiclass: bool, names: list[str], score_names: list[str], truth: Any, scores: Any,
               skipped: int, fmt: str, html: str | None = None, extra: dict[str, Any] | None = None) -> int:
    """The report of a wide file's rows (``report``, and ``stream``'s final report); the exit status.

    ``truth`` holds class indices (n,) when ``multiclass``, else an indicator
    matrix (n, k); ``scores`` is (n, k). ``extra`` rides in the JSON object;
    ``html``, a path, also gets the page of the rows (``--html``).
    """
    from ..streaming import json_safe

    if scores.shape[0] == 0:
        error(f"{source}: no rows to evaluate (a header, or JSON objects, but no valid row)")
        return 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            columns, averages, notes, confusion = _measures(multiclass, truth, scores)
        except ValueError as exc:  # scikit-learn's rules (e.g. multi-class scores whose rows do not sum to 1)
            error(f"{source}: {exc}")
            return 2
    for message in dict.fromkeys([*notes, *(str(w.message) for w in caught)]):
        error(f"note: {message}")
    kind = "multiclass" if multiclass else "multilabel"
    per_label = [
        json_safe({"label": name, "score_column": col, **{key: values[i] for key, values in columns.items()}})
        for i, (name, col) in enumerate(zip(names, score_names))
    ]
    flat = {key: (json_safe(value) if isinstance(value, dict) else json_safe({"v": value})["v"])
            for key, value in averages.items()}
    if fmt == "json":
        obj = {"source": source, "kind": kind, "num_cases": int(scores.shape[0]), "labels": per_label,
               "averages": flat, "skipped_lines": skipped, **(extra or {})}
        if confusion is not None:  # rows: true class, columns: predicted class, both in the order of "labels"
            obj["confusion_matrix"] = confusion.tolist()
        print(json.dumps(obj, allow_nan=False))
        return _html(html, source, multiclass, names, truth, scores)
    what = "class" if multiclass else "label"
    print(f"{source}: {scores.shape[0]} cases, {len(names)} {'classes' if multiclass else 'labels'} "
          f"({kind}), {skipped} skipped lines")
    print()
    top = ("precision", "recall", "f_measure")  # multi-class: at the top-scoring class, in a table of their own
    ranked = {key: values for key, values in columns.items() if key not in top}
    rows = [(str(name), *(_fmt(values[i]) for values in ranked.values())) for i, name in enumerate(names)]
    nan_labels, nan_averages = _nan_notes(multiclass, truth, scores, names, columns, averages)
    print(table(rows, (what, *ranked), names_first=True))
    for line in nan_labels:
        print(line)
    print()
    avg_rows: list[tuple[str, ...]] = []
    for key, value in averages.items():
        if isinstance(value, dict):
            avg_rows.extend((key, mode, _fmt(v)) for mode, v in value.items())
        else:
            avg_rows.append((key, "", _fmt(value)))
    print(table(avg_rows, ("measure", "average", "value"), names_first=True))
    for line in nan_averages:
        print(line)
    if confusion is not None:
        print()
        print("at the top-scoring class (the first class on ties): precision, recall and F1 of each class, and the "
              "confusion matrix (rows: true class, columns: predicted class)")
        rows = [(str(name), *(_fmt(columns[key][i]) for key in top)) for i, name in enumerate(names)]
        print(table(rows, (what, *top), names_first=True))
        print()
        shown = [str(name) for name in names]
        print(table([(name, *(str(int(v)) for v in row)) for name, row in zip(shown, confusion)],
                    ("true \\ predicted", *shown), names_first=True))
    return _html(html, source, multiclass, names, truth, scores)


def _html(path: str | None, source: str, multiclass: bool, names: list[str], truth: Any, scores: Any) -> int:
    """``--html``: the page of a multi-label evaluator of the columns (one-vs-rest for classes); the exit status."""
    if not path:
        return 0
    import numpy as np

    from .._evaluators.multilabel import MultiLabelEvaluation
    from .output import write_report_page

    if multiclass:  # each class against the rest, as the per-class table reports it
        indicator = np.zeros(scores.shape, dtype=bool)
        indicator[np.arange(scores.shape[0]), truth] = True
    else:
        indicator = truth
    ev = MultiLabelEvaluation(labels=[str(name) for name in names])
    ev.add_cases(indicator, scores)
    return write_report_page(ev, source, path)

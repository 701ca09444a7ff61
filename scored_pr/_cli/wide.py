"""``scored-pr report`` on a wide file: multi-class or multi-label scores, one column per class or label.

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

The report is a per-class (per-label) table: positives, negatives, average
precision and ROC AUC of that column against the rest, then the averages of
:mod:`scored_pr.functional` (scikit-learn's ``average_precision_score`` and
``roc_auc_score`` rules): AP macro, weighted and micro (and samples for
multi-label); ROC AUC macro, weighted, micro (and samples) for multi-label,
one-vs-rest macro/weighted/micro and one-vs-one (Hand & Till) macro/weighted
for multi-class; the label-ranking measures for multi-label, top-1 accuracy
for multi-class. ``--format json`` writes both as one object, NaN as null.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import warnings
from typing import Any

from .._io import cases as _io
from .options import ReportOptions
from .output import error, table

#: Options of ``report`` that read a one-ranking file: an error with the wide options.
_NOT_WIDE = ("correct_col", "positive_label", "score_col", "ties", "misses", "curve", "interpolate", "plot", "ci")


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
    """The wide-file options of ``report``."""
    g = p.add_argument_group(
        "wide files (multi-class and multi-label)",
        "One score column per class or label; the report is a per-class table and the averages "
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


def _usage(opts: ReportOptions) -> str | None:
    """Why these options do not go together, or None."""
    w = opts.wide
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
    given = opts.given(_NOT_WIDE)
    if given:
        return f"{', '.join(given)}: not for a wide file (--label-col/--label-cols), which is reported per class and averaged"
    return None


def _measures(multiclass: bool, truth: Any, scores: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Per-column (positives, negatives, AP, ROC AUC) and the averages, from :mod:`scored_pr.functional`."""
    import numpy as np

    from .. import functional as F

    n, k = scores.shape
    if multiclass:
        indicator = np.zeros((n, k), dtype=bool)
        indicator[np.arange(n), truth] = True
    else:
        indicator = truth
    positives = indicator.sum(axis=0)
    columns = {  # plain Python ints and floats, one per column
        "positives": positives.tolist(),
        "negatives": (n - positives).tolist(),
        "average_precision": F.average_precision(indicator, scores, average=None).tolist(),
        "roc_auc": F.area_under_roc_curve(indicator, scores, average=None).tolist(),
    }
    averages: dict[str, Any] = {}
    if multiclass:
        labels = np.arange(k)
        averages["average_precision"] = {
            a: F.average_precision(truth, scores, average=a, labels=labels) for a in ("macro", "weighted", "micro")
        }
        pairs = np.unique(truth).size >= 2  # one-vs-one needs a pair of classes present: NaN without one
        averages["roc_auc"] = {
            f"{mc}_{a}": F.area_under_roc_curve(truth, scores, average=a, multi_class=mc, labels=labels)
            if mc == "ovr" or pairs else math.nan
            for mc, avgs in (("ovr", ("macro", "weighted", "micro")), ("ovo", ("macro", "weighted")))
            for a in avgs
        }
        averages["top_1_accuracy"] = F.top_k_accuracy_score(truth, scores, k=1, labels=labels)
    else:
        modes = ("macro", "weighted", "micro", "samples")
        averages["average_precision"] = {a: F.average_precision(truth, scores, average=a) for a in modes}
        averages["roc_auc"] = {a: F.area_under_roc_curve(truth, scores, average=a) for a in modes}
        averages["label_ranking_average_precision"] = F.label_ranking_average_precision_score(truth, scores)
        averages["coverage_error"] = F.coverage_error(truth, scores)
        averages["label_ranking_loss"] = F.label_ranking_loss(truth, scores)
    return columns, averages


def _fmt(value: Any) -> str:
    return str(value) if isinstance(value, int) else repr(float(value))


def report(opts: ReportOptions) -> int:
    """``scored-pr report --label-col/--label-cols ...``: the per-class table and the averages; the exit status."""
    from ..streaming import json_safe

    problem = _usage(opts)
    if problem is not None:
        error(problem)
        return 2
    stream, source, _ = _io.open_input(opts.path)
    w = opts.wide
    skipped: list[str] = []

    def on_skip(err: _io.InputError) -> None:
        skipped.append(str(err))
        if len(skipped) <= 5:
            error(f"skipped {err}")

    reader = _io.WideReader(
        stream, source=source, input_format=opts.input.input_format or _io.format_from_path(opts.path),
        label_col=w.label_col, label_cols=w.label_cols, score_cols=w.score_cols,
        score_prefix=w.score_prefix, skip_invalid=opts.input.skip_invalid, on_skip=on_skip,
    )
    try:
        truth, scores = reader.read()
    finally:
        if opts.path != "-":
            stream.close()
        elif isinstance(stream, io.TextIOWrapper) and stream is not sys.stdin:
            stream.detach()  # our UTF-8 wrapper around sys.stdin.buffer: leave standard input open
    if skipped:
        error(f"skipped {len(skipped)} invalid line{'' if len(skipped) == 1 else 's'} in {source}")
    if scores.shape[0] == 0:
        error(f"{source}: no rows to evaluate (a header, or JSON objects, but no valid row)")
        return 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            columns, averages = _measures(reader.multiclass, truth, scores)
        except ValueError as exc:  # scikit-learn's rules (e.g. multi-class scores whose rows do not sum to 1)
            error(f"{source}: {exc}")
            return 2
    for message in dict.fromkeys(str(w.message) for w in caught):
        error(f"note: {message}")
    kind = "multiclass" if reader.multiclass else "multilabel"
    per_label = [
        json_safe({"label": name, "score_column": col, **{key: values[i] for key, values in columns.items()}})
        for i, (name, col) in enumerate(zip(reader.names, reader.score_names))
    ]
    flat = {key: (json_safe(value) if isinstance(value, dict) else json_safe({"v": value})["v"])
            for key, value in averages.items()}
    if opts.output.format == "json":
        obj = {"source": source, "kind": kind, "num_cases": int(scores.shape[0]), "labels": per_label,
               "averages": flat, "skipped_lines": reader.skipped}
        print(json.dumps(obj, allow_nan=False))
        return _html(opts, source, reader, truth, scores)
    what = "class" if reader.multiclass else "label"
    print(f"{source}: {scores.shape[0]} cases, {len(reader.names)} {'classes' if reader.multiclass else 'labels'} "
          f"({kind}), {reader.skipped} skipped lines")
    print()
    rows = [(str(name), *(_fmt(values[i]) for values in columns.values())) for i, name in enumerate(reader.names)]
    print(table(rows, (what, *columns), names_first=True))
    print()
    avg_rows: list[tuple[str, ...]] = []
    for key, value in averages.items():
        if isinstance(value, dict):
            avg_rows.extend((key, mode, _fmt(v)) for mode, v in value.items())
        else:
            avg_rows.append((key, "", _fmt(value)))
    print(table(avg_rows, ("measure", "average", "value"), names_first=True))
    return _html(opts, source, reader, truth, scores)


def _html(opts: ReportOptions, source: str, reader: Any, truth: Any, scores: Any) -> int:
    """``--html``: the page of a multi-label evaluator of the columns (one-vs-rest for classes); the exit status."""
    if not opts.html:
        return 0
    import os

    import numpy as np

    from .. import _html as html
    from .._evaluators.multilabel import MultiLabelEvaluation
    from .output import write_html

    if reader.multiclass:  # each class against the rest, as the per-class table reports it
        indicator = np.zeros(scores.shape, dtype=bool)
        indicator[np.arange(scores.shape[0]), truth] = True
    else:
        indicator = truth
    ev = MultiLabelEvaluation(labels=[str(name) for name in reader.names])
    ev.add_cases(indicator, scores)
    return write_html(html.render(ev, title=f"scored_pr report: {os.path.basename(source)}"), opts.html)

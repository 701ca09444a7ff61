"""``scored-pr compare A B``: two models' predictions on the same cases, compared paired.

A sibling of :mod:`.report`: it reads through the input layer (:mod:`.inputs`) and
writes through the output layer (:mod:`.output`, which also holds the interval
helpers ``report --ci`` uses: the measures, the interval of each, the notes).

``compare`` reads two prediction files with an id column, joins them on the
ids (which must match one to one, with the same label on both sides) and
compares the two models paired: DeLong's test for ROC AUC (R's pROC
``roc.test(paired=TRUE)``) and a paired bootstrap for average precision.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from .._io import values as _io
from .._io.formats import FORMATS, KeyColumns, open_keyed
from . import options
from .options import CompareOptions
from .output import COMPARABLE, finite, interval_method, print_notes, table

# numpy and the evaluator are imported where they are used, so that building the
# command line's parser (`scored-pr --help`) does not import them.
if TYPE_CHECKING:
    import numpy as np

    from .._core.stats import Comparison

__all__ = ["add_compare_parser", "run"]

# ----------------------------------------------------------------- compare


def _read_keyed(path: str, opts: CompareOptions, score_col: str) -> tuple[dict[str, tuple[bool, float]], str]:
    opened = open_keyed(path, opts.input_format, KeyColumns(id_col=opts.id_col, correct_col=opts.correct_col,
                                                            score_col=score_col))
    source = opened.source
    cases: dict[str, tuple[bool, float]] = {}
    first_line: dict[str, int] = {}
    try:
        for line, key, correct, score in opened.reader:
            if key in cases:
                raise _io.InputError(source, line, f"id {key!r} appears twice (first on line {first_line[key]}); "
                                     "ids must be unique to join the files one to one")  # fmt: skip
            cases[key] = (correct, score)
            first_line[key] = line
    finally:
        opened.close()
    return cases, source


def join(a: dict[str, tuple[bool, float]], b: dict[str, tuple[bool, float]], src_a: str, src_b: str) -> tuple[
    np.ndarray, np.ndarray, np.ndarray
]:
    import numpy as np

    only_a = [k for k in a if k not in b]
    only_b = [k for k in b if k not in a]
    if only_a or only_b:
        def some(keys: list[str]) -> str:
            shown = ", ".join(repr(k) for k in keys[:3])
            return shown + (", ..." if len(keys) > 3 else "")

        parts = []
        if only_a:
            parts.append(f"{len(only_a)} only in {src_a} ({some(only_a)})")
        if only_b:
            parts.append(f"{len(only_b)} only in {src_b} ({some(only_b)})")
        raise _io.InputError(src_b, None, "the ids do not match one to one: " + "; ".join(parts))
    keys = list(a)
    correct = np.fromiter((a[k][0] for k in keys), dtype=bool, count=len(keys))
    other = np.fromiter((b[k][0] for k in keys), dtype=bool, count=len(keys))
    if not np.array_equal(correct, other):
        k = keys[int(np.flatnonzero(correct != other)[0])]
        n = int(np.count_nonzero(correct != other))
        raise _io.InputError(
            src_b, None, f"the labels disagree for {n} id(s), e.g. {k!r}: {a[k][0]} in {src_a}, {b[k][0]} in {src_b}"
        )
    sa = np.fromiter((a[k][1] for k in keys), dtype=np.float64, count=len(keys))
    sb = np.fromiter((b[k][1] for k in keys), dtype=np.float64, count=len(keys))
    return correct, sa, sb


def run(opts: CompareOptions) -> int:
    """``scored-pr compare A B``: join the two files on their ids and compare the models paired; print the table."""
    if opts.path_a == "-" and opts.path_b == "-":
        raise _io.InputError("<stdin>", None, "only one of A and B can be standard input")
    a, src_a = _read_keyed(opts.path_a, opts, opts.score_col)
    b, src_b = _read_keyed(opts.path_b, opts, opts.score_col_b or opts.score_col)
    correct, sa, sb = join(a, b, src_a, src_b)
    if correct.all() or not correct.any():
        raise _io.InputError(src_a, None, "compare needs correct and incorrect cases (a class is missing)")
    iv = opts.intervals
    results = compare_paired(correct, sa, sb, opts.measures, iv.level, iv.bootstrap, iv.resamples, iv.seed)
    same = same_ranking(sa, sb)
    status = _html(opts.html, correct, sa, sb, (src_a, src_b), results, same) if opts.html else 0
    out = sys.stdout
    if opts.format == "json":
        obj = {
            "a": src_a, "b": src_b, "id_col": opts.id_col, "num_cases": int(correct.size),
            "num_correct": int(correct.sum()), "level": iv.level, "same_ranking": same,
            "comparisons": comparisons_json(results),
        }  # fmt: skip
        print(json.dumps(obj, allow_nan=False), file=out)
        return status
    print(f"A: {src_a}\nB: {src_b}", file=out)
    print(f"{correct.size:,} cases joined on {opts.id_col!r}, {int(correct.sum()):,} correct; paired comparison, "
          f"{100 * iv.level:g}% intervals of A - B\n", file=out)  # fmt: skip
    rows = [(m, *comparison_cells(r)) for m, r in results.items()]
    print(table(rows, ("measure", *COMPARISON_HEADERS), names_first=True), file=out)
    print_notes({m: r.interval.note for m, r in results.items()}, out)
    if same:
        print("\nA and B rank every case identically (the same scores, or the same order and ties): the models "
              "are identical for every measure here, so each difference is 0 (statistic 0, p-value 1).", file=out)
    return status


#: The columns of one comparison in the text table (after the measure's name).
COMPARISON_HEADERS = ("A", "B", "A - B", "low", "high", "statistic", "p-value", "method")


def compare_paired(correct: np.ndarray, sa: np.ndarray, sb: np.ndarray, measures: list[str] | None, level: float,
                   bootstrap: str, resamples: int, seed: int) -> dict[str, Comparison]:
    """Each of ``measures`` (default: every comparable one) of A and B on the same cases, compared paired."""
    from .._uncertainty import compare

    return {
        measure: compare(correct, sa, sb, measure=measure, method=interval_method(measure, bootstrap), level=level,
                         n_resamples=resamples, seed=seed)
        for measure in measures or COMPARABLE
    }  # fmt: skip


def comparisons_json(results: dict[str, Comparison]) -> dict[str, Any]:
    """The ``comparisons`` object of ``--format json``: per measure, both estimates, the difference, its test."""
    return {
        m: {"a": finite(r.estimate_a), "b": finite(r.estimate_b), "difference": finite(r.difference),
            "low": finite(r.interval.low), "high": finite(r.interval.high),
            "statistic": finite(r.statistic), "p_value": finite(r.p_value), "method": r.method,
            **({"note": r.interval.note} if r.interval.note else {})}
        for m, r in results.items()
    }  # fmt: skip


def comparison_cells(r: Comparison) -> tuple[str, ...]:
    """One comparison's cells of the text table, under :data:`COMPARISON_HEADERS`."""
    return (f"{r.estimate_a:.6f}", f"{r.estimate_b:.6f}", f"{r.difference:+.6f}", f"{r.interval.low:+.6f}",
            f"{r.interval.high:+.6f}", f"{r.statistic:.4f}", f"{r.p_value:.4g}", r.method)  # fmt: skip


def _html(path: str, correct: np.ndarray, sa: np.ndarray, sb: np.ndarray, sources: tuple[str, str],
          results: dict[str, Comparison], same: bool) -> int:
    """Write the HTML page of the two models (their curves overlaid) and the comparisons; the exit status."""
    import os

    from .. import _html as html
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation
    from .output import write_html

    models = []
    for scores in (sa, sb):
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(correct, scores)
        models.append(ev)
    names = (f"A: {os.path.basename(sources[0])}", f"B: {os.path.basename(sources[1])}")
    title = f"scored_pr comparison: {os.path.basename(sources[0])} vs {os.path.basename(sources[1])}"
    return write_html(html.render_compare(models[0], models[1], names, results, title, same), path)


def same_ranking(sa: np.ndarray, sb: np.ndarray) -> bool:
    """True when B orders the cases exactly as A, ties included (equal scores or a monotone transform)."""
    import numpy as np

    ranks_a = np.unique(sa, return_inverse=True)[1]
    ranks_b = np.unique(sb, return_inverse=True)[1]
    return bool(np.array_equal(ranks_a, ranks_b))


def add_compare_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``compare`` subcommand to ``scored-pr``'s subparsers."""
    p = commands.add_parser(
        "compare",
        help="compare two models' predictions on the same cases (paired DeLong test, paired bootstrap)",
        description="Compare two models scored on the same cases: two CSV, TSV, JSON Lines or Parquet files with an id, "
        "a correctness and a score column, joined on the id. Prints each model's ROC AUC and average "
        "precision, the difference A - B with its confidence interval, the test statistic and the two-sided "
        "p-value: DeLong's paired test for ROC AUC (as R's pROC roc.test(paired=TRUE)), a paired stratified "
        "bootstrap for average precision.",
        epilog="The ids must match one to one (each id once per file, the same ids in both) and carry the same "
        "label in both files; otherwise compare stops with status 2 and says which ids differ.",
    )
    p.add_argument("path_a", metavar="A", help="model A's predictions ('.gz' allowed; - for standard input)")
    p.add_argument("path_b", metavar="B", help="model B's predictions")
    g = p.add_argument_group("input")
    g.add_argument("--id-col", default="id", metavar="NAME", help="the column that identifies a case (default: id)")
    g.add_argument("--correct-col", metavar="NAME", help="the correctness column (default: correct, else label)")
    g.add_argument("--score-col", default="score", metavar="NAME", help="the score column (default: score)")
    g.add_argument("--score-col-b", metavar="NAME",
                   help="B's score column, when it differs (e.g. two columns of one file: A and B the same path)")  # fmt: skip
    g.add_argument("--input-format", choices=tuple(FORMATS),
                   help="csv, tsv, jsonl or parquet (default: from the extension or Parquet's magic bytes, else guessed "
                   "from the first line)")
    g = p.add_argument_group("comparison and output")
    g.add_argument("--measure", dest="measures", action="append", choices=COMPARABLE,
                   help="a measure to compare (repeatable; default: both)")  # fmt: skip
    options.add_interval_options(g)
    g.add_argument("--format", choices=("text", "json"), default="text", help="text (a Markdown table) or json")
    options.add_html_option(g, "both models' curves, overlaid, with the comparison")
    g.add_argument("--by", action="append", metavar="COL[,COL]", default=None,
                   help="compare per slice: one per value of COL (or per combination of the columns named), beside "
                   "the overall one; repeat for more crossings. A slice holding the same ids in both files is "
                   "compared paired, any other unpaired; an empty field or null is its own slice, (missing)")
    return p

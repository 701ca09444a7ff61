"""``scored-pr report PATH``: a file of cases (:func:`run`) or a state file of any kind (:func:`run_state`).

A wide file's report is :mod:`.wide`'s; ``main`` chooses among the three.

The input is opened through :mod:`.inputs` (the registry of formats), as
every command opens it. Rows a reader yields are already
validated, so they go to the evaluator through its trusted batch entry
point, not through ``add_cases`` (which would check them again).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from .._io.formats import open_ranking
from . import calibration, options, sliced, wide
from .inputs import SkipReporter
from .options import ReportOptions
from .output import (Progress, error, fmt_value, intervals_json, print_calibration, print_intervals, print_report,
                     report_intervals, table, write_plot, write_report_page)  # fmt: skip

# The evaluator is imported by the functions that use it (`scored-pr --help` imports no numpy).
if TYPE_CHECKING:
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

#: Rows per batch added to the evaluator when reading a file; also the progress granularity.
CHUNK_ROWS = 16_384

#: ``report``'s options that read cases from text: a state file holds its cases, tie policy
#: and misses, so giving one of these with a state file is an error, not silently ignored.
_TEXT_ONLY = ("input_format", "correct_col", "positive_label", "score_col", "skip_invalid", "ties", "misses")


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``report`` subcommand to ``scored-pr``'s subparsers."""
    p = commands.add_parser(
        "report",
        help="evaluate a CSV, TSV, JSON Lines or Parquet file of scored predictions",
        description="Evaluate a file of scored predictions: one case per line, with a correctness "
        "column and a score column. CSV and TSV need a header line.",
        epilog="Malformed input stops with status 2 and one line naming the file, the line and the value. "
        "A state file: an exact evaluator's or a window's is reported like a file of its cases (a window as "
        "saved, no clock read); a BoundedEvaluation's as its summary with certified bounds; a "
        "MultiQueryEvaluation's as its totals and means over queries (MAP, MRR, mean R-precision, mean "
        "P@k, a query without relevant documents counting 0). The input options, --ties and --misses do "
        "not apply to a state file; --curve, --plot and --ci need an exact or windowed one. A wide file (one score "
        "column per class or label): see --label-col and --label-cols; it is reported per class and averaged.",
    )
    p.add_argument("path", metavar="PATH", help="the file ('.gz' allowed; Parquet needs pyarrow, the 'parquet' "
                   "extra), or - for standard input; or a state "
                   "file saved by save() of any evaluator kind or by --checkpoint (a .npz), reported as saved")
    options.add_input_options(p)
    options.add_eval_options(p)
    p.add_argument("--curve", choices=("pr", "roc"), help="also print the PR or the ROC curve")
    p.add_argument(
        "--interpolate", action="store_true", help="print and plot the interpolated curves (dominated points pruned)"
    )
    p.add_argument("--plot", metavar="FILE.png", help="draw PR and ROC side by side into FILE (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="never draw the progress bar on stderr")
    options.add_html_option(p, "the report (any input: cases, a wide file, a state file of any kind)")
    options.add_ci_options(p)
    wide.add_options(p)
    sliced.add_option(p)
    calibration.add_option(p)
    return p


# ------------------------------------------------------------------- the command


def run(opts: ReportOptions) -> int:
    """``scored-pr report`` of a file of cases (one ranking), in any registered format; the exit status."""
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation, add_trusted

    skips = SkipReporter()
    opened = open_ranking(opts.path, opts.input.input_format, opts.input, skips, binary=True)  # text parsed in blocks
    reader, source = opened.reader, opened.source
    progress = Progress(sys.stderr, opened.size, enabled=not opts.no_progress)
    ev = ScoredPrecisionRecallEvaluation(ties=opts.ties)
    if opts.misses:  # declared, not read: the count the file's cases join
        ev.add_misses(opts.misses)
    try:
        for correct, scores in reader.chunks(CHUNK_ROWS):
            # parsed rows arrive validated (a bool and a float64 array of equal length, no NaN):
            # committed as they are, not checked a second time by add_cases
            add_trusted(ev, correct, scores, None, "add_cases")
            progress.update(reader.chars_read, ev.num_cases)
    finally:
        progress.close()
        opened.close()
    skips.finish(source)
    return _print(ev, opts, source, reader.skipped, {})


def _print(ev: ScoredPrecisionRecallEvaluation, opts: ReportOptions, source: str, skipped: int, info: dict[str, Any],
           shown: Any = None) -> int:
    """The report of one ranking, its intervals (``--ci``), its plot and its HTML page; the exit status.

    ``shown``: what the HTML page shows (the evaluator as loaded, a window
    with its extent), default ``ev``. The options stay here: the output
    layer is handed plain values.
    """
    fmt, curve, interpolate = opts.output.format, opts.output.curve, opts.output.interpolate
    iv = opts.intervals
    calibrated: dict[str, Any] | None = None
    if opts.calibration:
        try:
            calibrated = calibration.calibration_json(ev)
        except ValueError as exc:  # a score outside [0, 1], named
            error(f"{source}: --calibration: {exc}")
            return 2
    intervals = (report_intervals(ev, source, iv.level, iv.bootstrap, iv.resamples, iv.seed, not iv.no_progress)
                 if iv.ci else {})  # fmt: skip
    extra = {"confidence_intervals": intervals_json(intervals)} if intervals else {}
    if calibrated is not None and fmt == "json":
        extra["calibration"] = calibrated
    print_report(ev, source, skipped, fmt, curve, interpolate, **info, **extra)
    if fmt != "json":
        print_intervals(intervals, iv.resamples, iv.seed, fmt, sys.stdout)
        if calibrated is not None:
            print_calibration(calibrated, fmt, sys.stdout)
    status = 0
    if opts.plot:
        status = write_plot(ev, opts.plot, os.path.basename(source), interpolate)
    if opts.html and status == 0:
        status = write_report_page(ev if shown is None else shown, source, opts.html, intervals)
    return status


# ------------------------------------------------------------------- state files


def run_state(opts: ReportOptions) -> int:
    """``report`` of a saved state file of any kind (exact, bounded, windowed, multi-query, multi-label).

    An exact state is reported as a text file of its cases would be (every
    output option applies); a window as its contents when saved (no clock is
    read, so nothing expires), also with every option; a bounded summary as
    its ``summary()`` (estimates and certified bounds); a multi-query state
    as its totals and means over queries (its ``summary()``); a
    multi-label state as each label's AP and ROC AUC and every average.
    Each kind says how (``scored_pr._kinds.Kind``: ``load``, and ``figures``
    or ``report_view``/``extra``). Curves, plots and intervals need one
    ranking: refused for the kinds that report figures.
    """
    from .. import _kinds
    from .. import _evaluators  # noqa: F401 - every kind registered
    from .._state import statefile as _statefile

    if opts.wide.requested:
        error(f"{opts.path}: --label-col, --label-cols, --score-cols, --score-prefix: not for a state file "
              "(they read a wide CSV, TSV or JSON Lines file)")
        return 2
    source = opts.path
    given = opts.given(_TEXT_ONLY)
    if given:
        error(f"{source}: {', '.join(given)}: not for a state file, which holds its cases, tie policy and misses "
              "(these options read cases from CSV, TSV or JSON Lines)")
        return 2
    try:
        kind = _kinds.KINDS[_statefile.kind_of(source, "report")]
        if kind.figures is not None:  # not one exact ranking: its figures, no curve
            wanted = [opt for opt, on in (("--curve", opts.output.curve), ("--plot", opts.plot),
                                          ("--ci", opts.intervals.ci), ("--calibration", opts.calibration)) if on]  # fmt: skip
            if wanted:
                what = {"bounded": "a summary in bins", "per_query": "one ranking per query", "per_label": "one ranking per label"}
                error(f"{source}: {', '.join(wanted)}: not available for a {kind.name} state file "
                      f"({what.get(kind.holds, kind.holds)}; curves, plots and intervals need one exact ranking)")
                return 2
        assert kind.load is not None  # a kind with a state format has a loader
        loaded = kind.load(source)
        if kind.figures is not None:
            status = _print_state_summary(opts, source, kind.name, loaded.ties, kind.figures(loaded))
            return write_report_page(loaded, source, opts.html) if opts.html and status == 0 else status
        assert kind.report_view is not None
        ev = kind.report_view(loaded)
        info: dict[str, Any] = {"kind": kind.name, **(kind.extra(loaded) if kind.extra is not None else {})}
    except ValueError as exc:  # not a state file, corrupted, inconsistent: named by load
        error(str(exc))
        return 2
    if opts.output.format == "text" and "window" in info:
        w = info["window"]
        length = f"the last {w['size']} items" if w["size"] is not None else f"the last {w['seconds']!r} seconds"
        print(f"  Window={length}, as saved ({w['num_cases_seen']} cases seen)", file=sys.stdout)
    return _print(ev, opts, source, 0, info, shown=loaded)


def _print_state_summary(opts: ReportOptions, source: str, kind: str, ties: str, summary: dict[str, Any]) -> int:
    """A bounded, multi-query or multi-label state's figures: one JSON object, or a table (text and table formats)."""
    from ..streaming import json_safe

    if opts.output.format == "json":
        print(json.dumps({"source": source, "kind": kind, "ties": ties, **json_safe(summary)}, allow_nan=False))
        return 0
    rows = [(k, fmt_value(v)) for k, v in summary.items()]
    print(table([("kind", kind), ("ties", ties), *rows], ("measure", "value"), names_first=True))
    return 0

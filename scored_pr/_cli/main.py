"""The ``scored-pr`` command (also ``python -m scored_pr``).

Subcommands:

``demo``
    The worked example of LingPipe 3.9.2's documentation and the bundled sample, no arguments.
``report PATH``
    Evaluate a CSV, TSV or JSON Lines file (``-`` for standard input).
``stream [PATH]``
    Read cases line by line as they arrive, print a summary line every N
    cases and a report at the end: ``model | scored-pr stream``.
``trec [options] QRELS RUN``
    trec_eval 10: its measures, options and output (:mod:`scored_pr.trec`).
``threshold PATH``
    The score threshold to ship: under constraints, certified with ``--confidence``, or costs
    (:mod:`.threshold`).
``compare A B``
    Two models' predictions joined on an id column, compared paired
    (:mod:`scored_pr._cli.compare`); with ``--by``, per slice (:mod:`.compare_by`).

Exit status: 0 on success, 2 on malformed input or a usage error (one line on
standard error naming the file, the line and the value; never a traceback),
1 when an output file cannot be written (standard output, a plot, a stream
checkpoint) or matplotlib is missing for --plot; ``stream`` stopped by a signal
exits 128 + its number.

This module holds the parser and the dispatch only: each command lives in a
module of its own (:mod:`.report`, :mod:`.stream`, :mod:`.trec`,
:mod:`.compare`, :mod:`.demo`) and takes a small typed options object
(:mod:`.options`), built here from argparse's namespace, which goes no further.
"""

from __future__ import annotations

import argparse
import sys
import zlib

from .._io.values import InputError
from .._version import __version__
from . import compare, compare_by, report, sliced, stream, stream_sliced, stream_wide, threshold, trec, wide
from .inputs import is_state_file
from .options import (CompareOptions, InputOptions, IntervalOptions, OutputOptions, ReportOptions,
                      StreamOptions, TrecOptions, WideOptions)  # fmt: skip
from .output import PROG, GuardedOutput, OutputError, error, silence_stdout


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``scored-pr`` (its help is the command's manual)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Exact precision-recall and ROC evaluation of scored predictions.",
        epilog="Run 'scored-pr COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "demo",
        help="evaluate the embedded worked example and the bundled sample; print the reports",
        description="Evaluate the worked example of LingPipe 3.9.2's documentation and a bundled sample of "
        "3,000 scored predictions; print the reports. No arguments, no network.",
    )
    report.add_parser(commands)
    stream.add_parser(commands)
    trec.add_parser(commands)
    compare.add_compare_parser(commands)
    threshold.add_parser(commands)
    return parser


# ---------------------------------------------------- argparse's namespace -> each command's options


def _input(args: argparse.Namespace) -> InputOptions:
    return InputOptions(input_format=args.input_format, correct_col=args.correct_col,
                        positive_label=args.positive_label, score_col=args.score_col, skip_invalid=args.skip_invalid)


def _intervals(args: argparse.Namespace) -> IntervalOptions:
    return IntervalOptions(ci=getattr(args, "ci", False), level=args.level, bootstrap=args.bootstrap,
                           resamples=args.resamples, seed=args.seed, no_progress=getattr(args, "no_progress", False))


def _wide(args: argparse.Namespace) -> WideOptions:
    return WideOptions(label_col=args.label_col, label_cols=args.label_cols, score_cols=args.score_cols,
                       score_prefix=args.score_prefix)


def _report(args: argparse.Namespace) -> ReportOptions:
    return ReportOptions(
        path=args.path, input=_input(args), ties=args.ties, misses=args.misses,
        output=OutputOptions(format=args.format, curve=args.curve, interpolate=args.interpolate),
        plot=args.plot, no_progress=args.no_progress, intervals=_intervals(args), wide=_wide(args), html=args.html,
        by=tuple(args.by or ()), calibration=args.calibration,
    )


def _stream(args: argparse.Namespace) -> StreamOptions:
    return StreamOptions(
        path=args.path, input=_input(args), ties=args.ties, misses=args.misses, output=OutputOptions(format=args.format),
        every=args.every, window=args.window, window_seconds=args.window_seconds, cumulative=args.cumulative,
        checkpoint=args.checkpoint, checkpoint_every=args.checkpoint_every, resume=args.resume, no_skip=args.no_skip,
        metrics_port=args.metrics_port, metrics_host=args.metrics_host, wide=_wide(args), by=tuple(args.by or ()),
        max_slices=args.max_slices)


def _compare(args: argparse.Namespace) -> CompareOptions:
    return CompareOptions(
        path_a=args.path_a, path_b=args.path_b, id_col=args.id_col, correct_col=args.correct_col,
        score_col=args.score_col, score_col_b=args.score_col_b, input_format=args.input_format,
        measures=args.measures, intervals=_intervals(args), format=args.format, html=args.html, by=tuple(args.by or ()),
    )


def _trec(args: argparse.Namespace) -> TrecOptions:
    return TrecOptions(
        qrels_path=args.qrels_path, run_path=args.run_path, per_query=args.per_query, measures=args.measures,
        complete=args.complete, level=args.level, summary=args.summary, max_docs=args.max_docs,
        judged_only=args.judged_only, num_docs=args.num_docs,
    )


def _threshold(args: argparse.Namespace) -> threshold.ThresholdOptions:
    return threshold.ThresholdOptions(
        path=args.path, input=_input(args), ties=args.ties, misses=args.misses, format=args.format,
        maximize=args.maximize, confidence=args.confidence, seed=args.seed,
        subject_to=tuple((key, getattr(args, opt)) for opt, key in threshold.CONSTRAINT_OPTIONS.items()
                         if getattr(args, opt) is not None),
        costs=tuple((opt, getattr(args, opt)) for opt in threshold.COST_OPTIONS if getattr(args, opt) is not None),
    )


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` names (``demo`` when none); its exit status."""
    # the commands are siblings over one input layer (.inputs): each reads its input itself
    if args.command == "report":
        opts = _report(args)
        if opts.by:  # a file of cases, per slice
            return sliced.run(opts)
        if is_state_file(opts.path):
            return report.run_state(opts)
        return wide.report(opts) if opts.wide.requested else report.run(opts)
    if args.command == "stream":
        s_opts = _stream(args)
        return stream.run(s_opts, stream_sliced.run if s_opts.by else stream_wide.run if s_opts.wide.requested else None)
    if args.command in ("trec", "compare", "threshold"):  # siblings that take their own options
        run = {"trec": lambda: trec.run(_trec(args)), "threshold": lambda: threshold.run(_threshold(args)),
               "compare": lambda: (compare_by.run if args.by else compare.run)(_compare(args))}[args.command]
        return run()
    from . import demo  # imports the evaluator: not at the top, so `scored-pr --help` does not

    demo.run(sys.stdout)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run ``scored-pr`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    Exit status: 0 on success; 2 on malformed or unreadable input and usage
    errors; 1 when output cannot be written (a closed pipe, a full disk, a
    ``stream`` checkpoint or ``--metrics-port`` gauges) or a plot cannot be made; 128 + the signal number
    when ``stream`` is stopped by a signal (the first, if several arrive), 130
    when another command is interrupted.
    """
    args = build_parser().parse_args(argv)
    real_stdout = sys.stdout
    if real_stdout is None:  # started with standard output closed (`>&-`)
        error("cannot write output: standard output is closed")
        return 1
    sys.stdout = GuardedOutput(real_stdout)  # type: ignore[assignment]
    try:
        status = _run(args)
        sys.stdout.flush()  # a full disk shows here, as an output error
        return status
    except InputError as exc:
        error(str(exc))
        return 2
    except BrokenPipeError:  # e.g. `scored-pr demo | head`: the reader left
        silence_stdout()
        return 1
    except OutputError as exc:
        error(f"cannot write output: {exc.args[0]}")
        # What could not be written is still in stdout's buffer, and Python
        # flushes it again at exit ("Exception ignored ...", status 120) when
        # stdout is block-buffered, as it is in a normal shell: drop it.
        silence_stdout()
        return 1
    except KeyboardInterrupt:
        error("interrupted")
        return 130
    except (OSError, EOFError, zlib.error, UnicodeError) as exc:  # e.g. a corrupt .gz, a vanished file
        source = getattr(args, "path", None) or "input"
        error(f"{source}: cannot read input: {type(exc).__name__}: {exc}")
        return 2
    finally:
        sys.stdout = real_stdout


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

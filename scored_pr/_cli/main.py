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
``compare A B``
    Two models' predictions joined on an id column, compared paired
    (:mod:`scored_pr._cli.compare`, which also gives ``report --ci``).

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
from . import compare, report, stream, stream_wide, trec
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
    return parser


# ---------------------------------------------------- argparse's namespace -> each command's options


def _input(args: argparse.Namespace) -> InputOptions:
    return InputOptions(args.input_format, args.correct_col, args.positive_label, args.score_col, args.skip_invalid)


def _intervals(args: argparse.Namespace) -> IntervalOptions:
    return IntervalOptions(getattr(args, "ci", False), args.level, args.bootstrap, args.resamples, args.seed,
                           getattr(args, "no_progress", False))  # fmt: skip


def _wide(args: argparse.Namespace) -> WideOptions:
    return WideOptions(args.label_col, args.label_cols, args.score_cols, args.score_prefix)


def _report(args: argparse.Namespace) -> ReportOptions:
    return ReportOptions(
        args.path, _input(args), args.ties, args.misses, OutputOptions(args.format, args.curve, args.interpolate),
        args.plot, args.no_progress, _intervals(args),
        _wide(args),
        html=args.html,
    )  # fmt: skip


def _stream(args: argparse.Namespace) -> StreamOptions:
    return StreamOptions(
        args.path, _input(args), args.ties, args.misses, OutputOptions(args.format), args.every, args.window,
        args.window_seconds, args.cumulative, args.checkpoint, args.checkpoint_every, args.resume, args.no_skip,
        args.metrics_port, args.metrics_host, _wide(args),
    )  # fmt: skip


def _compare(args: argparse.Namespace) -> CompareOptions:
    return CompareOptions(args.path_a, args.path_b, args.id_col, args.correct_col, args.score_col, args.score_col_b,
                          args.input_format, args.measures, _intervals(args), args.format,
                          html=args.html)  # fmt: skip


def _trec(args: argparse.Namespace) -> TrecOptions:
    return TrecOptions(args.qrels_path, args.run_path, args.per_query, args.measures, args.complete, args.level,
                       args.summary, args.max_docs, args.judged_only, args.num_docs)  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` names (``demo`` when none); its exit status."""
    if args.command == "report":
        return report.run(_report(args))
    if args.command == "stream":
        opts = _stream(args)
        return stream.run(opts, stream_wide.run if opts.wide.requested else None)
    if args.command == "trec":
        return trec.run(_trec(args))
    if args.command == "compare":
        return compare.run(_compare(args))
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

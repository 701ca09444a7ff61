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
Parsing lives in :mod:`scored_pr._io.cases`; this module only wires it to the
evaluator and prints.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import sys
import zlib
from typing import TYPE_CHECKING, Any, TextIO

from .._io import cases as _io
from . import compare as _uncertainty_cli
from . import options
from . import wide as _wide
from .output import Progress, table
from .._version import __version__

# The evaluator, numpy and the rest are imported by the commands that use
# them, so that `scored-pr --help` starts in less time than `import numpy`.
if TYPE_CHECKING:
    from collections.abc import Callable

    from .._evaluators.exact import ScoredPrecisionRecallEvaluation
    from .stopping import GracefulStop, Stopped
    from .._evaluators.windowed import WindowedEvaluation
    from ..streaming import Summary

PROG = "scored-pr"

#: Rows per ``add_cases`` call when reading a file; also the progress granularity.
CHUNK_ROWS = 16_384

#: Skipped lines whose message is printed (then only the count).
MAX_SKIP_MESSAGES = 5

# --------------------------------------------------------------------- output


def _summary_for_json(ev: ScoredPrecisionRecallEvaluation) -> dict[str, Any]:
    from ..streaming import json_safe

    return json_safe(ev.summary())


def _fmt_value(value: Any) -> str:
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def _metrics_table(ev: ScoredPrecisionRecallEvaluation) -> str:
    from .._report import table_rows

    rows = table_rows(ev.summary())  # the break-even point and R-precision: one row
    return table([(k, _fmt_value(v)) for k, v in rows], ("measure", "value"), names_first=True)


def _curve(ev: ScoredPrecisionRecallEvaluation, kind: str, interpolate: bool) -> tuple[list[str], Any]:
    if kind == "pr":
        return ["recall", "precision", "score"], ev.pr_score_curve(interpolate)
    return ["recall", "rejection_recall"], ev.roc_curve(interpolate)


def _print_curve(ev: ScoredPrecisionRecallEvaluation, kind: str, interpolate: bool, fmt: str, out: TextIO) -> None:
    columns, curve = _curve(ev, kind, interpolate)
    title = f"{'Interpolated' if interpolate else 'Uninterpolated'} {'precision-recall' if kind == 'pr' else 'ROC'} curve"
    if fmt == "text":
        print(f"\n{title}:", file=out)
        if kind == "pr":
            type(ev).print_precision_recall_curve(curve, out)
        else:
            print("%8s %8s" % ("RECALL", "REJ.REC."), file=out)
            for r, rr in curve.tolist():
                print("%8.6f %8.6f" % (r, rr), file=out)
        return
    print(f"\n{title}:\n", file=out)
    print(table([tuple(repr(v) for v in row) for row in curve.tolist()], tuple(columns)), file=out)


def _print_report(
    ev: ScoredPrecisionRecallEvaluation, args: argparse.Namespace, source: str, skipped: int, **extra: Any
) -> None:
    out = sys.stdout
    if args.format == "json":
        obj: dict[str, Any] = {
            "source": source, "ties": ev.ties, **_summary_for_json(ev), "skipped_lines": skipped, **extra
        }  # fmt: skip
        if args.curve:
            columns, curve = _curve(ev, args.curve, args.interpolate)
            obj["curve"] = {
                "kind": args.curve,
                "interpolated": args.interpolate,
                "columns": columns,
                "points": [[_io.finite_or_none(v) for v in row] for row in curve.tolist()],
            }
        print(json.dumps(obj, allow_nan=False), file=out)
        return
    if args.format == "table":
        print(_metrics_table(ev), file=out)
    else:
        print(ev, file=out)
    if args.curve:
        _print_curve(ev, args.curve, args.interpolate, args.format, out)


def _write_plot(ev: ScoredPrecisionRecallEvaluation, path: str, title: str, interpolate: bool) -> int:
    """Save PR and ROC side by side; matplotlib is imported only here."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        _error(
            "--plot needs matplotlib, the optional extra 'plot': "
            "pip install matplotlib (or, in a checkout of scored_pr, pip install '.[plot]')"
        )
        return 1
    from ..plot import plot_pr_roc

    fig = plot_pr_roc(ev, interpolate=interpolate, title=title, figure=Figure())
    # matplotlib appends ".png" to a name without a suffix; say the format so
    # that exactly `path` is written, as the message below reports.
    fmt = None if os.path.splitext(path)[1] else "png"
    try:
        fig.savefig(path, dpi=150, bbox_inches="tight", format=fmt)
    except (OSError, ValueError) as exc:
        # an OSError's str() repeats the path ("[Errno 2] No such file or directory: 'x.png'"): its reason only
        _error(f"cannot write the plot {path}: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}")
        return 1
    print(f"{PROG}: wrote {path}", file=sys.stderr)
    return 0


# ------------------------------------------------------------------- progress


# ------------------------------------------------------------------- commands


def _error(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


class _SkipReporter:
    """Print the first few skipped lines to stderr, count the rest."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: _io.InputError) -> None:
        self.count += 1
        if self.count <= MAX_SKIP_MESSAGES:
            _error(f"skipped {error}")

    def finish(self, source: str) -> None:
        if self.count:
            s = "" if self.count == 1 else "s"
            _error(f"skipped {self.count} invalid line{s} in {source}")


def _close(stream: Any, path: str) -> None:
    """Close a file we opened; release (not close) standard input's buffer."""
    if path != "-":
        stream.close()
    elif isinstance(stream, io.TextIOWrapper) and stream is not sys.stdin:
        stream.detach()  # our UTF-8 wrapper around sys.stdin.buffer: leave stdin open
    # else: standard input's own buffer, or a GzipFile over it (which leaves it open)


def _reader(args: argparse.Namespace, stream: Any, source: str, skips: _SkipReporter) -> _io.CaseReader:
    fmt = args.input_format or _io.format_from_path(args.path)
    return _io.CaseReader(
        stream,
        source=source,
        input_format=fmt,
        correct_col=args.correct_col,
        score_col=args.score_col,
        skip_invalid=args.skip_invalid,
        on_skip=skips,
        positive_label=args.positive_label,
    )


def demo(out: TextIO) -> None:
    """Print the worked example's report and tables, then the bundled sample's report."""
    from .demo import worked_example
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

    ev = worked_example()
    print("scored_pr demo: the worked example of LingPipe 3.9.2's ScoredPrecisionRecallEvaluation", file=out)
    print("(10 cases, 4 correct, ranked by descending score)\n", file=out)
    print(ev, file=out)
    print("\nUninterpolated precision-recall curve:", file=out)
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(False), out)
    print("\nInterpolated precision-recall curve:", file=out)
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(True), out)

    correct, scores = _io.read_sample()
    sample = ScoredPrecisionRecallEvaluation()
    sample.add_cases(correct, scores)
    print(
        f"\nThe bundled sample: {sample.num_cases:,} scored predictions of a binary classifier, "
        f"{sample.num_positive_ref} correct",
        file=out,
    )
    print("(scored_pr/data/sample.csv; columns id, label, score)\n", file=out)
    print(sample, file=out)
    print("\nYour own predictions: scored-pr report predictions.csv   (see scored-pr report --help)", file=out)


def cmd_demo(args: argparse.Namespace) -> int:
    demo(sys.stdout)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

    if _wide.requested(args):
        if _is_state_file(args.path):
            _error(f"{args.path}: --label-col, --label-cols, --score-cols, --score-prefix: not for a state file "
                   "(they read a wide CSV, TSV or JSON Lines file)")
            return 2
        return _wide.report(args)
    if _is_state_file(args.path):
        return _report_state(args)
    stream, source, size = _io.open_input(args.path, binary=True)  # parsed in blocks
    skips = _SkipReporter()
    ev = ScoredPrecisionRecallEvaluation(ties=args.ties)
    reader = _reader(args, stream, source, skips)
    progress = Progress(sys.stderr, size, enabled=not args.no_progress)
    try:
        for correct, scores in reader.chunks(CHUNK_ROWS):
            ev.add_cases(correct, scores)
            progress.update(reader.chars_read, ev.num_cases)
    finally:
        progress.close()
        _close(stream, args.path)
    if args.misses:
        ev.add_misses(args.misses)
    skips.finish(source)
    intervals = _uncertainty_cli.report_intervals(ev, args, source)
    extra = {"confidence_intervals": _uncertainty_cli.intervals_json(intervals)} if intervals else {}
    _print_report(ev, args, source, reader.skipped, **extra)
    if args.format != "json":
        _uncertainty_cli.print_intervals(intervals, args, sys.stdout)
    if args.plot:
        return _write_plot(ev, args.plot, os.path.basename(source), args.interpolate)
    return 0


#: The first bytes of a zip archive, which every state file is (an ``.npz``); no CSV, TSV
#: or JSON Lines file starts with them.
_ZIP_MAGIC = b"PK\x03\x04"

#: ``report``'s options that read cases from text, with their defaults: a state file holds its cases,
#: tie policy and misses, so giving one of these with a state file is an error, not silently ignored.
_TEXT_ONLY = {"input_format": None, "correct_col": None, "positive_label": None, "score_col": "score",
              "skip_invalid": False, "ties": "grouped", "misses": 0}


def _is_state_file(path: str) -> bool:
    """Whether ``path`` is a zip archive (a state file saved by ``save()`` or ``--checkpoint``)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == _ZIP_MAGIC
    except OSError:  # reported as a missing or unreadable input by the text path
        return False


def _report_state(args: argparse.Namespace) -> int:
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

    source = args.path
    given = [name for name, default in _TEXT_ONLY.items() if getattr(args, name) != default]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        _error(f"{source}: {options}: not for a state file, which holds its cases, tie policy and misses "
               "(these options read cases from CSV, TSV or JSON Lines)")
        return 2
    try:
        kind = _kinds.KINDS[_statefile.kind_of(source, "report")]
        if kind.figures is not None:  # not one exact ranking: its figures, no curve
            wanted = [opt for opt, on in (("--curve", args.curve), ("--plot", args.plot), ("--ci", getattr(args, "ci", False))) if on]
            if wanted:
                what = {"bounded": "a summary in bins", "per_query": "one ranking per query", "per_label": "one ranking per label"}
                _error(f"{source}: {', '.join(wanted)}: not available for a {kind.name} state file "
                       f"({what.get(kind.holds, kind.holds)}; curves, plots and intervals need one exact ranking)")
                return 2
        assert kind.load is not None  # a kind with a state format has a loader
        loaded = kind.load(source)
        if kind.figures is not None:
            return _print_state_summary(args, source, kind.name, loaded.ties, kind.figures(loaded))
        assert kind.report_view is not None
        ev = kind.report_view(loaded)
        info: dict[str, Any] = {"kind": kind.name, **(kind.extra(loaded) if kind.extra is not None else {})}
    except ValueError as exc:  # not a state file, corrupted, inconsistent: named by load
        _error(str(exc))
        return 2
    if args.format == "text" and "window" in info:
        w = info["window"]
        length = f"the last {w['size']} items" if w["size"] is not None else f"the last {w['seconds']!r} seconds"
        print(f"  Window={length}, as saved ({w['num_cases_seen']} cases seen)", file=sys.stdout)
    intervals = _uncertainty_cli.report_intervals(ev, args, source)
    extra = {"confidence_intervals": _uncertainty_cli.intervals_json(intervals)} if intervals else {}
    _print_report(ev, args, source, 0, **info, **extra)
    if args.format != "json":
        _uncertainty_cli.print_intervals(intervals, args, sys.stdout)
    if args.plot:
        return _write_plot(ev, args.plot, os.path.basename(source), args.interpolate)
    return 0


def _print_state_summary(args: argparse.Namespace, source: str, kind: str, ties: str, summary: dict[str, Any]) -> int:
    """A bounded, multi-query or multi-label state's figures: one JSON object, or a table (text and table formats)."""
    from ..streaming import json_safe

    if args.format == "json":
        print(json.dumps({"source": source, "kind": kind, "ties": ties, **json_safe(summary)}, allow_nan=False))
        return 0
    rows = [(k, _fmt_value(v)) for k, v in summary.items()]
    print(table([("kind", kind), ("ties", ties), *rows], ("measure", "value"), names_first=True))
    return 0


def _resume(args: argparse.Namespace) -> tuple[ScoredPrecisionRecallEvaluation, int]:
    """The evaluator and the input line to continue after, from ``--resume`` (or a fresh start)."""
    from .._state import exact as _serialization
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

    if not args.resume:
        ev = ScoredPrecisionRecallEvaluation(ties=args.ties)
        if args.misses:
            ev.add_misses(args.misses)
        return ev, 0
    try:
        ev, extra = _serialization.load_with_extra(ScoredPrecisionRecallEvaluation, args.resume, "--resume")
    except FileNotFoundError:
        raise _io.InputError(args.resume, None, "no such checkpoint (nothing to resume)") from None
    except OSError as exc:  # a directory, no permission: the checkpoint's fault, not the input's
        raise _io.InputError(args.resume, None, f"cannot read the checkpoint: {exc.strerror or exc}") from None
    except (ValueError, TypeError) as exc:
        # the loader's message starts "--resume: 'path' ...": say the path once
        text = str(exc).removeprefix("--resume: ").removeprefix(repr(args.resume)).lstrip()
        raise _io.InputError(args.resume, None, f"not a stream checkpoint: {text}") from None
    line = extra.get("line") if isinstance(extra, dict) else None
    if isinstance(line, bool) or not isinstance(line, int) or line < 0:
        raise _io.InputError(args.resume, None, "not a stream checkpoint (saved by save(), not by stream --checkpoint)")
    if ev.ties != args.ties:
        raise _io.InputError(args.resume, None, f"the checkpoint was made with --ties {ev.ties}; got --ties {args.ties}")
    return ev, (0 if args.no_skip else line)


def _stream_window(args: argparse.Namespace) -> WindowedEvaluation | None:
    from .._evaluators.windowed import WindowedEvaluation

    """The window of ``stream --window/--window-seconds``, after checking the options that go with it."""
    if args.window is None and args.window_seconds is None:
        if args.cumulative:
            raise _UsageError("--cumulative goes with --window N or --window-seconds T")
        return None
    if args.checkpoint or args.resume:
        raise _UsageError("--checkpoint and --resume keep the cumulative evaluation only; they do not go with --window")
    if args.misses and not args.cumulative:
        raise _UsageError("--misses counts for the whole stream: with --window, add --cumulative")
    if args.window is not None:
        return WindowedEvaluation(size=args.window, ties=args.ties)
    return WindowedEvaluation(seconds=args.window_seconds, ties=args.ties)


class _UsageError(Exception):
    """Options that do not go together (exit status 2)."""


class _StreamOutput:
    """Where ``stream`` prints: the first write error is kept, and ends the stream.

    A summary line that cannot be written (the reader of the pipe left, the
    disk is full) stops the reading instead of being retried, and logged, for
    every later summary; the error is raised again, once, after the exit
    checkpoint, for :func:`main` to report as an output error.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.error: Exception | None = None

    def write(self, *lines: str) -> None:
        """Print ``lines`` and flush (the reader of a pipe sees each at once); never raises."""
        if self.error is not None:
            return
        try:
            for line in lines:
                print(line, file=self.out)
            self.out.flush()
        except (BrokenPipeError, OutputError) as exc:
            self.error = exc


class _Metrics:
    """``--metrics-port``'s sink, whose failure is said in one line and counted, never a traceback.

    The stream goes on (the summary lines, the report and the checkpoint do
    not depend on the gauges); :meth:`finish` says how many summaries were
    not exported, and the exit status is then 1, as for any output error.
    """

    def __init__(self, sink: Any) -> None:
        self.sink = sink
        self.summaries = 0
        self.failed = 0

    def write(self, summary: Summary, evaluation: Any) -> None:
        if self.sink is None:
            return
        self.summaries += 1
        try:
            self.sink.write(summary, evaluation)
        except Exception as exc:  # any failure of the sink: the cases are in, the report will be printed
            self.failed += 1
            if self.failed == 1:
                _error(f"--metrics-port: cannot update the gauges: {type(exc).__name__}: {exc} (the stream goes on)")

    def finish(self) -> bool:
        """Say how many summaries were not exported; whether any was not."""
        if self.failed:
            _error(f"--metrics-port: {self.failed} of {self.summaries} summaries not exported (an output error; "
                   "the report above and the checkpoint cover every case read)")
        return bool(self.failed)


def _check_writable(option: str, path: str) -> None:
    """Raise a usage error unless a file can be written at ``path`` (before any input is read).

    The probe is a uniquely named file created, and removed, where the atomic
    write of :mod:`scored_pr._state.statefile` puts its temporary file: beside ``path``.
    """
    import secrets

    target = os.path.abspath(path)
    if os.path.isdir(target):
        problem = "it is a directory"
    else:
        probe = os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.{secrets.token_hex(6)}.probe")
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(probe)
            return
        except OSError as exc:
            problem = f"{exc.strerror or type(exc).__name__}: {os.path.dirname(target)!r}"
    raise _UsageError(f"{option}: expected a file path in a writable directory; got {path!r} ({problem})")


def _feed(stop: GracefulStop, reader: _io.CaseReader, take: Callable[[int, bool, float], bool]) -> None:
    """The reading loop of :func:`_read_stream`, in a frame of its own.

    A stop signal raises :class:`Stopped` wherever the interpreter runs its
    handler, typically at the loop's backward jump. CPython 3.13's exception
    table leaves that jump, after a ``with`` block, outside the enclosing
    ``try`` of the same function, so the exception escaped the handlers
    below it (seen as a traceback on two stop signals). Raised in this
    frame, it reaches :func:`_read_stream`'s handlers at the call, which
    they cover.
    """
    for line, correct, score in reader:
        with stop.critical():  # a signal waits until the case is in and counted
            more = take(line, correct, score)
        if not more:
            break


def _read_stream(stop: GracefulStop, reader: _io.CaseReader, take: Callable[[int, bool, float], bool]) -> tuple[
        Stopped | None, BaseException | None]:
    """Feed each case to ``take`` until the input ends or ``take`` returns False; return ``(stopped, failure)``.

    ``take(line, correct, score)`` runs inside ``stop.critical()``, so a stop
    signal never cuts a case in half. ``stopped`` is the stop signal that ended
    the reading, ``failure`` the input error (malformed or truncated input).
    Signals are held from the moment the reading ends, whatever ends it: what
    follows (the exit checkpoint, the report) is never cut short by a signal,
    and only the first signal counts.
    """
    from .stopping import Stopped

    stopped: Stopped | None = None
    failure: BaseException | None = None
    try:
        try:
            stop.listen()
            _feed(stop, reader, take)
        finally:
            stop.hold()
    except Stopped as exc:  # Ctrl-C, kill, hang-up: still report what arrived
        stopped = exc
    except KeyboardInterrupt:  # raised directly where no handler could be installed
        stopped = Stopped(signal.SIGINT)
    except (_io.InputError, OSError, EOFError, zlib.error, UnicodeError) as exc:  # malformed or truncated
        failure = exc
    return stopped, failure


def _serve_metrics(args: argparse.Namespace) -> int:
    """``stream --metrics-port``: serve the summaries as Prometheus gauges while the stream runs.

    The gauges (:class:`scored_pr.integrations.Prometheus`, in a registry of
    their own) are set at every summary line; the server stops when the
    command ends.
    """
    if args.metrics_port is None:
        return cmd_stream(args)
    try:
        from prometheus_client import CollectorRegistry, start_http_server

        from ..integrations import Prometheus
    except ImportError:
        _error("--metrics-port needs the prometheus_client package: pip install prometheus-client (or, in a "
               "checkout of scored_pr, pip install '.[prometheus]')")
        return 2
    registry = CollectorRegistry()
    try:
        server, thread = start_http_server(args.metrics_port, addr=args.metrics_host, registry=registry)
    except (OSError, ValueError) as exc:
        where = f"[{args.metrics_host}]" if ":" in args.metrics_host else args.metrics_host
        _error(f"--metrics-port: cannot serve on {where}:{args.metrics_port}: {exc}")
        return 2
    port = server.server_address[1]  # the one picked for --metrics-port 0
    host = f"[{args.metrics_host}]" if ":" in args.metrics_host else args.metrics_host  # an IPv6 address (RFC 3986)
    _error(f"serving Prometheus metrics on http://{host}:{port}/metrics")
    sys.stderr.flush()
    args.metrics_sink = Prometheus(registry)
    try:
        return cmd_stream(args)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def cmd_stream(args: argparse.Namespace) -> int:
    from .stopping import GracefulStop

    # The handlers go in first: a stop signal that arrives while the command
    # starts is recorded, and answered by the report of what was read (nothing
    # yet, or the resumed checkpoint) as soon as reading starts.
    with GracefulStop() as stop:
        try:
            window = _stream_window(args)
            if args.checkpoint:
                _check_writable("--checkpoint", args.checkpoint)
        except _UsageError as exc:
            _error(str(exc))
            return 2
        if window is not None and not args.cumulative:
            return _stream_windowed(args, window, stop)
        return _stream_cumulative(args, window, stop)


def _stream_cumulative(args: argparse.Namespace, window: WindowedEvaluation | None, stop: GracefulStop) -> int:
    from .._state import exact as _serialization
    from ..streaming import SummaryLogger, json_safe

    metrics = _Metrics(getattr(args, "metrics_sink", None))  # --metrics-port (see _serve_metrics)
    ev, skip_to = _resume(args)
    stream, source, _ = _io.open_input(args.path)
    skips = _SkipReporter()
    reader = _reader(args, stream, source, skips)
    output = _StreamOutput(sys.stdout)

    def emit(summary: Summary) -> None:
        if args.format == "json":
            obj = json_safe(summary)
            output.write(json.dumps({**obj, "final": False}, allow_nan=False))
        else:
            output.write(str(summary))
        metrics.write(summary, ev)

    last_line = skip_to
    checkpoint_error: OSError | None = None

    def checkpoint() -> bool:
        """Save the state; a failure is an output error (kept, and ends the stream)."""
        nonlocal checkpoint_error
        if not args.checkpoint:
            return True
        try:
            _serialization.save(ev, args.checkpoint, extra={"line": last_line, "source": source})
        except OSError as exc:
            checkpoint_error = exc
            return False
        return True

    add = SummaryLogger(ev, emit, every=args.every, window=window).add_case
    every_cp = args.checkpoint_every if args.checkpoint else 0
    countdown = every_cp

    def take(line: int, correct: bool, score: float) -> bool:
        nonlocal last_line, countdown
        if line <= skip_to:  # consumed before the checkpoint we resumed from
            return True
        add(correct, score)
        last_line = line
        if every_cp:
            countdown -= 1
            if countdown == 0:
                countdown = every_cp
                if not checkpoint():
                    return False
        return output.error is None

    stopped, failure = _read_stream(stop, reader, take)
    # From here on signals are only recorded: they cannot cut the exit
    # checkpoint or the report short (they are answered by them).
    _close(stream, args.path)
    checkpoint()
    skips.finish(source)
    output.write(*([] if args.format == "json" else [""]))
    if output.error is None:
        try:
            _print_report(ev, args, source, reader.skipped, final=True)
        except (BrokenPipeError, OutputError) as exc:
            output.error = exc
        else:
            output.write()  # flush
    n = ev.num_cases
    status = _stream_status(stopped or _held_stop(stop), failure, checkpoint_error, output.error, source,
                            args.checkpoint, f"the {n} cases read before it", f"after {n} cases", "them", n)
    return 1 if metrics.finish() else status


def _held_stop(stop: GracefulStop) -> Stopped | None:
    """The stop signal that arrived after the reading ended (held, not raised), if any.

    The report then covers the whole input, and the status still says that
    the command was asked to stop (128 + n), whenever the signal came.
    """
    from .stopping import Stopped

    return None if stop.received is None else Stopped(stop.received)


def _stream_status(stopped: Stopped | None, failure: BaseException | None, checkpoint_error: OSError | None,
                   output_error: Exception | None, source: str, checkpoint: str | None, before: str, after: str,
                   covered: str, cases: int) -> int:
    """Say why the stream ended (on stderr) and return its exit status.

    1 when the checkpoint or the output could not be written (an output
    error, never blamed on the input), else 128 + n for the stop signal n,
    else 2 for malformed or unreadable input, else 0. A failed standard output
    is raised again for :func:`main`, which says it (a full disk) or stays
    quiet (a reader that left the pipe).
    """
    reported = output_error is None
    status = 0
    if failure is not None and reported:
        reason = str(failure) if isinstance(failure, _io.InputError) else (
            f"{source}: cannot read input: {type(failure).__name__}: {failure}")
        _error(f"{reason} (the report above covers {before})")
        status = 2
    if stopped is not None:
        if reported:
            _error(f"stopped by {stopped.name} {after}; the report above covers {covered}")
        status = stopped.exit_status
    if checkpoint_error is not None:
        covers = f"; the report above covers the {cases} cases read" if reported else ""
        _error(f"--checkpoint {checkpoint}: cannot write the checkpoint: {checkpoint_error} (an output error{covers})")
        status = 1
    if output_error is not None:
        raise output_error
    return status


# --------------------------------------------------------------------- parser


def _stream_windowed(args: argparse.Namespace, window: WindowedEvaluation, stop: GracefulStop) -> int:
    """``stream --window``: summary lines and the final report of the window only, in bounded memory."""
    from ..streaming import SummaryLogger, json_safe

    metrics = _Metrics(getattr(args, "metrics_sink", None))
    stream, source, _ = _io.open_input(args.path)
    skips = _SkipReporter()
    reader = _reader(args, stream, source, skips)
    output = _StreamOutput(sys.stdout)
    kind = {"window_size": window.size} if window.size is not None else {"window_seconds": window.seconds}

    def emit(summary: Summary) -> None:
        if args.format == "json":
            obj = json_safe(summary)
            output.write(json.dumps({**obj, **kind, "final": False}, allow_nan=False))
        else:
            output.write(str(summary))
        metrics.write(summary, window)

    add = SummaryLogger(window, emit, every=args.every).add_case

    def take(line: int, correct: bool, score: float) -> bool:
        add(correct, score)
        return output.error is None

    stopped, failure = _read_stream(stop, reader, take)
    _close(stream, args.path)
    skips.finish(source)
    what = f"the last {window.size} cases" if window.size is not None else f"the last {window.seconds:g} seconds"
    seen = window.num_cases_seen
    if args.format != "json":
        output.write(f"\nWindow: {what} ({window.num_cases} of {seen} cases read)")
    if output.error is None:
        try:
            _print_report(window.snapshot(), args, source, reader.skipped, final=True, cases_read=seen, **kind)
        except (BrokenPipeError, OutputError) as exc:
            output.error = exc
        else:
            output.write()  # flush
    status = _stream_status(stopped or _held_stop(stop), failure, None, output.error, source, None,
                            f"{what} of the {seen} cases read before it", f"after {seen} cases", what, seen)
    return 1 if metrics.finish() else status


def _add_input_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("input")
    g.add_argument(
        "--input-format",
        choices=_io.FORMATS,
        help="csv, tsv or jsonl; default: from the file extension, else guessed from the first line",
    )
    g.add_argument(
        "--correct-col",
        metavar="NAME",
        help="the correctness column (labels 1/0, -1/1, true/false, yes/no, any case); default: correct, else label",
    )
    g.add_argument(
        "--positive-label",
        metavar="VALUE",
        help="the positive class's label (e.g. spam): a row is correct when its label equals VALUE, and any "
        "other label is negative; default: none (labels must be 1/0, -1/1, true/false or yes/no)",
    )
    g.add_argument("--score-col", metavar="NAME", default="score", help="the score column (default: score)")
    g.add_argument(
        "--skip-invalid",
        action="store_true",
        help="skip malformed lines (reported on stderr, and counted) instead of stopping with status 2",
    )


def _add_eval_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("evaluation and output")
    g.add_argument(
        "--ties",
        choices=("stable", "grouped"),
        default="grouped",
        help="grouped: one threshold per distinct score, independent of line order (default); "
        "stable: equal scores keep file order (LingPipe 3.9.2)",
    )
    g.add_argument(
        "--misses", type=options.non_negative, default=0, metavar="N", help="relevant items the system never returned (default: 0)"
    )
    g.add_argument(
        "--format",
        choices=("text", "json", "table"),
        default="text",
        help="text: the LingPipe-style report; json: one object; table: a Markdown table (default: text)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``scored-pr`` (its help is the command's manual)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Exact precision-recall and ROC evaluation of scored predictions.",
        epilog="Run 'scored-pr COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser(
        "demo",
        help="evaluate the embedded worked example and the bundled sample; print the reports",
        description="Evaluate the worked example of LingPipe 3.9.2's documentation and a bundled sample of "
        "3,000 scored predictions; print the reports. No arguments, no network.",
    )
    p.set_defaults(run=cmd_demo)

    p = commands.add_parser(
        "report",
        help="evaluate a CSV, TSV or JSON Lines file of scored predictions",
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
    p.add_argument("path", metavar="PATH", help="the file ('.gz' allowed), or - for standard input; or a state "
                   "file saved by save() of any evaluator kind or by --checkpoint (a .npz), reported as saved")
    _add_input_options(p)
    _add_eval_options(p)
    p.add_argument("--curve", choices=("pr", "roc"), help="also print the PR or the ROC curve")
    p.add_argument(
        "--interpolate", action="store_true", help="print and plot the interpolated curves (dominated points pruned)"
    )
    p.add_argument("--plot", metavar="FILE.png", help="draw PR and ROC side by side into FILE (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="never draw the progress bar on stderr")
    _uncertainty_cli.add_ci_options(p)
    _wide.add_options(p)
    p.set_defaults(run=cmd_report)

    p = commands.add_parser(
        "stream",
        help="read cases as they arrive; print a summary line every N cases, a report at the end",
        description="Read cases line by line as they arrive (model | scored-pr stream), print a "
        "summary line every --every cases (flushed at once) and the report at end of input, on "
        "SIGINT (Ctrl-C), SIGTERM or SIGHUP, and before stopping on malformed input. With --format "
        "json, the summary lines and the report are JSON objects (JSON Lines).",
        epilog="Exit status: 0 at end of input; 2 on malformed or unreadable input (after the report of "
        "the cases read before it); 128 + the signal number on a stop signal (130 SIGINT, 143 SIGTERM, "
        "129 SIGHUP; only the first of several counts), also after the report; 1 when standard output "
        "or the checkpoint cannot be written (the stream stops there: quietly for a closed pipe, after "
        "the report for a checkpoint).",
    )
    p.add_argument("path", metavar="PATH", nargs="?", default="-", help="input (default: - for standard input)")
    p.add_argument(
        "--every", type=options.positive, default=1000, metavar="N", help="cases between summary lines (default: 1000)"
    )
    g = p.add_argument_group("sliding window")
    wg = g.add_mutually_exclusive_group()
    wg.add_argument("--window", type=options.positive, metavar="N", help="summary lines and report of the last N cases only, "
                    "in memory bounded by N (scored_pr.WindowedEvaluation)")
    wg.add_argument("--window-seconds", type=options.positive_seconds, metavar="T",
                    help="summary lines and report of the cases read in the last T seconds only")
    g.add_argument("--cumulative", action="store_true", help="with a window: also keep every case, print the "
                   "cumulative figures and the window's side by side, and end with the cumulative report")
    g = p.add_argument_group("checkpoints")
    g.add_argument("--checkpoint", metavar="PATH", help="save the state atomically to PATH every "
                   "--checkpoint-every cases and at exit (also on a signal or malformed input); checked "
                   "before any input is read")
    g.add_argument("--checkpoint-every", type=options.positive, default=10_000, metavar="N",
                   help="cases between checkpoints (default: 10000)")
    g.add_argument("--resume", metavar="PATH", help="continue from a checkpoint: its cases are kept and the input "
                   "lines it had consumed are skipped, so rerunning on the same input continues where it stopped")
    g.add_argument("--no-skip", action="store_true", help="with --resume: the input does not replay what the "
                   "checkpoint consumed (a live feed); skip nothing")
    g = p.add_argument_group("metrics")
    g.add_argument("--metrics-port", type=options.port, metavar="PORT", help="while streaming, serve the summary "
                   "figures (cumulative and window side by side) as Prometheus gauges on "
                   "http://HOST:PORT/metrics, updated at every summary line; 0 picks a free port, printed on "
                   "stderr (needs prometheus_client: the 'prometheus' extra); gauges that cannot be updated are "
                   "said in one line, the stream goes on, and the exit status is 1")
    g.add_argument("--metrics-host", default="127.0.0.1", metavar="HOST",
                   help="the address --metrics-port listens on (default: 127.0.0.1; 0.0.0.0 for every interface)")
    _add_input_options(p)
    _add_eval_options(p)
    p.set_defaults(run=_serve_metrics, curve=None, interpolate=False)

    from ..trec._command import add_parser as add_trec_parser

    add_trec_parser(commands)
    _uncertainty_cli.add_compare_parser(commands)
    return parser


class OutputError(Exception):
    """Writing to standard output failed (a full disk, a closed file), not reading input."""


class _GuardedOutput:
    """Standard output whose write errors are told apart from input errors."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the flush at exit cannot fail.

    This is what the Python documentation recommends (signal module, "Note on
    SIGPIPE").
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (e.g. captured in tests)
        pass


def main(argv: list[str] | None = None) -> int:
    """Run ``scored-pr`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    Exit status: 0 on success; 2 on malformed or unreadable input and usage
    errors; 1 when output cannot be written (a closed pipe, a full disk, a
    ``stream`` checkpoint or ``--metrics-port`` gauges) or a plot cannot be made; 128 + the signal number
    when ``stream`` is stopped by a signal (the first, if several arrive), 130
    when another command is interrupted.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args.run = cmd_demo
    real_stdout = sys.stdout
    if real_stdout is None:  # started with standard output closed (`>&-`)
        _error("cannot write output: standard output is closed")
        return 1
    sys.stdout = _GuardedOutput(real_stdout)  # type: ignore[assignment]
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a full disk shows here, as an output error
        return status
    except _io.InputError as exc:
        _error(str(exc))
        return 2
    except BrokenPipeError:  # e.g. `scored-pr demo | head`: the reader left
        _silence_stdout()
        return 1
    except OutputError as exc:
        _error(f"cannot write output: {exc.args[0]}")
        # What could not be written is still in stdout's buffer, and Python
        # flushes it again at exit ("Exception ignored ...", status 120) when
        # stdout is block-buffered, as it is in a normal shell: drop it.
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except (OSError, EOFError, zlib.error, UnicodeError) as exc:  # e.g. a corrupt .gz, a vanished file
        source = getattr(args, "path", None) or "input"
        _error(f"{source}: cannot read input: {type(exc).__name__}: {exc}")
        return 2
    finally:
        sys.stdout = real_stdout


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``scored-pr stream [PATH]``: cases read as they arrive, a summary line every N cases, the report at the end.

The stream loop (a stop signal never cuts a case in half: :mod:`.stopping`),
checkpoints and ``--resume``, the sliding window, and ``--metrics-port``'s
Prometheus gauges. Its report is ``report``'s (:func:`.output.print_report`).
A wide file (``--label-col``/``--label-cols``) streams through
:mod:`.stream_wide` (``main`` hands it to :func:`run`), which shares this loop.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import zlib
from typing import TYPE_CHECKING, Any, TextIO

from .._io import values as _io
from .._io.formats import open_ranking
from . import options, wide
from .inputs import SkipReporter
from .options import StreamOptions
from .output import OutputError, error, print_report

# The evaluator, numpy and the rest are imported by the functions that use
# them, so that `scored-pr --help` starts in less time than `import numpy`.
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .._evaluators.exact import ScoredPrecisionRecallEvaluation
    from .._evaluators.windowed import WindowedEvaluation
    from ..streaming import Summary
    from .stopping import GracefulStop, Stopped


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``stream`` subcommand to ``scored-pr``'s subparsers."""
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
    g = p.add_argument_group("slices")
    g.add_argument("--by", action="append", metavar="COL[,COL]", default=None,
                   help="every slice while streaming: one per value of COL (or per combination of the columns "
                   "named), beside the overall one; repeat for more crossings. Summary lines hold every slice, "
                   "--metrics-port's gauges carry a label per column, and the end is report --by's table")
    g.add_argument("--max-slices", type=options.positive, metavar="N", default=None,
                   help="with --by: the most slices (default: 10000, SlicedEvaluation's). A case that would open one "
                   "more is left out and the stream goes on: said once on stderr, counted at the end")
    options.add_input_options(p)
    options.add_eval_options(p)
    wide.add_options(p)
    return p


def _resume(opts: StreamOptions) -> tuple[ScoredPrecisionRecallEvaluation, int]:
    """The evaluator and the input line to continue after, from ``--resume`` (or a fresh start)."""
    from .._state import exact as _exact_state
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

    if not opts.resume:
        ev = ScoredPrecisionRecallEvaluation(ties=opts.ties)
        if opts.misses:
            ev.add_misses(opts.misses)
        return ev, 0
    path = opts.resume
    ev, line = load_checkpoint(path, lambda: _exact_state.load_with_extra(ScoredPrecisionRecallEvaluation, path,
                                                                          "--resume"))
    if ev.ties != opts.ties:
        raise _io.InputError(opts.resume, None, f"the checkpoint was made with --ties {ev.ties}; got --ties {opts.ties}")
    return ev, (0 if opts.no_skip else line)


def load_checkpoint(path: str, load: Callable[[], tuple[Any, Any]], noun: str = "stream checkpoint") -> tuple[Any, int]:
    """What ``load()`` reads from the checkpoint at ``path`` and the input line it consumed; each fault one
    ``InputError`` naming ``path`` (missing, unreadable, not a ``noun``, saved by ``save()`` without its line)."""
    try:
        got, extra = load()
    except FileNotFoundError:
        raise _io.InputError(path, None, "no such checkpoint (nothing to resume)") from None
    except OSError as exc:  # a directory, no permission: the checkpoint's fault, not the input's
        raise _io.InputError(path, None, f"cannot read the checkpoint: {exc.strerror or exc}") from None
    except (ValueError, TypeError) as exc:
        # the loader's message starts "--resume: 'path' ...": say the path once
        text = str(exc).removeprefix("--resume: ").removeprefix(repr(path)).lstrip()
        raise _io.InputError(path, None, f"not a {noun}: {text}") from None
    line = extra.get("line") if isinstance(extra, dict) else None
    if isinstance(line, bool) or not isinstance(line, int) or line < 0:
        raise _io.InputError(path, None, "not a stream checkpoint (saved by save(), not by stream --checkpoint)")
    return got, line


def _stream_window(opts: StreamOptions) -> WindowedEvaluation | None:
    """The window of ``stream --window/--window-seconds``, after checking the options that go with it."""
    from .._evaluators.windowed import WindowedEvaluation

    if opts.window is None and opts.window_seconds is None:
        if opts.cumulative:
            raise _UsageError("--cumulative goes with --window N or --window-seconds T")
        return None
    if opts.checkpoint or opts.resume:
        raise _UsageError("--checkpoint and --resume keep the cumulative evaluation only; they do not go with --window")
    if opts.misses and not opts.cumulative:
        raise _UsageError("--misses counts for the whole stream: with --window, add --cumulative")
    if opts.window is not None:
        return WindowedEvaluation(size=opts.window, ties=opts.ties)
    return WindowedEvaluation(seconds=opts.window_seconds, ties=opts.ties)


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
                error(f"--metrics-port: cannot update the gauges: {type(exc).__name__}: {exc} (the stream goes on)")

    def finish(self) -> bool:
        """Say how many summaries were not exported; whether any was not."""
        if self.failed:
            error(f"--metrics-port: {self.failed} of {self.summaries} summaries not exported (an output error; "
                   "the report above and the checkpoint cover every case read)")
        return bool(self.failed)


def _check_writable(option: str, path: str) -> None:
    """Raise a usage error unless a file can be written at ``path`` (before any input is read).

    The probe is a uniquely named file created, and removed, where the atomic
    write of :mod:`scored_pr._atomic` puts its temporary file: beside the file
    ``path`` names (a symlink's target).
    """
    from .._atomic import target_of, temporary_path

    target = target_of(path)
    if os.path.isdir(target):
        problem = "it is a directory"
    else:
        probe = temporary_path(target, ".probe")
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(probe)
            return
        except OSError as exc:
            problem = f"{exc.strerror or type(exc).__name__}: {os.path.dirname(target)!r}"
    raise _UsageError(f"{option}: expected a file path in a writable directory; got {path!r} ({problem})")


def _feed(stop: GracefulStop, reader: Iterable[tuple[int, Any, Any]], take: Callable[[int, Any, Any], bool]) -> None:
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


def _read_stream(stop: GracefulStop, reader: Iterable[tuple[int, Any, Any]], take: Callable[[int, Any, Any], bool]) -> tuple[
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


def run(opts: StreamOptions, body: Callable[[StreamOptions, Any], int] | None = None) -> int:
    """``scored-pr stream``; the exit status.

    ``body(opts, sink)`` reads the stream (default: one ranking, :func:`_stream`;
    :func:`.stream_wide.run` for a wide file). With ``--metrics-port``: serve the
    summaries as Prometheus gauges while the stream runs.

    The gauges (:class:`scored_pr.integrations.Prometheus`, in a registry of
    their own) are set at every summary line; the server stops when the
    command ends.
    """
    if opts.max_slices is not None and not opts.by:
        error("--max-slices goes with --by COL (the most slices of a stream by slice)")
        return 2
    if body is None:
        body = _stream
    if opts.metrics_port is None:
        return body(opts, None)
    try:
        from prometheus_client import CollectorRegistry, start_http_server

        from ..integrations import Prometheus
    except ImportError:
        error("--metrics-port needs the prometheus_client package: pip install prometheus-client (or, in a "
               "checkout of scored_pr, pip install '.[prometheus]')")
        return 2
    registry = CollectorRegistry()
    try:
        server, thread = start_http_server(opts.metrics_port, addr=opts.metrics_host, registry=registry)
    except (OSError, ValueError) as exc:
        where = f"[{opts.metrics_host}]" if ":" in opts.metrics_host else opts.metrics_host
        error(f"--metrics-port: cannot serve on {where}:{opts.metrics_port}: {exc}")
        return 2
    port = server.server_address[1]  # the one picked for --metrics-port 0
    host = f"[{opts.metrics_host}]" if ":" in opts.metrics_host else opts.metrics_host  # an IPv6 address (RFC 3986)
    error(f"serving Prometheus metrics on http://{host}:{port}/metrics")
    sys.stderr.flush()
    try:
        return body(opts, Prometheus(registry))
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _stream(opts: StreamOptions, sink: Any) -> int:
    """The stream, its summaries also written to ``sink`` (``--metrics-port``'s gauges) unless None."""
    from .stopping import GracefulStop

    # The handlers go in first: a stop signal that arrives while the command
    # starts is recorded, and answered by the report of what was read (nothing
    # yet, or the resumed checkpoint) as soon as reading starts.
    with GracefulStop() as stop:
        try:
            window = _stream_window(opts)
            if opts.checkpoint:
                _check_writable("--checkpoint", opts.checkpoint)
        except _UsageError as exc:
            error(str(exc))
            return 2
        if window is not None and not opts.cumulative:
            return _stream_windowed(opts, window, stop, sink)
        return _stream_cumulative(opts, window, stop, sink)


def _stream_cumulative(opts: StreamOptions, window: WindowedEvaluation | None, stop: GracefulStop, sink: Any) -> int:
    from .._state import exact as _exact_state
    from ..streaming import SummaryLogger, json_safe

    metrics = _Metrics(sink)  # --metrics-port (see run)
    ev, skip_to = _resume(opts)
    skips = SkipReporter()
    opened = open_ranking(opts.path, opts.input.input_format, opts.input, skips, binary=False)
    reader, source = opened.reader, opened.source
    output = _StreamOutput(sys.stdout)

    def emit(summary: Summary) -> None:
        if opts.output.format == "json":
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
        if not opts.checkpoint:
            return True
        try:
            _exact_state.save(ev, opts.checkpoint, extra={"line": last_line, "source": source})
        except OSError as exc:
            checkpoint_error = exc
            return False
        return True

    add = SummaryLogger(ev, emit, every=opts.every, window=window).add_case
    every_cp = opts.checkpoint_every if opts.checkpoint else 0
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
    opened.close()
    checkpoint()
    skips.finish(source)
    output.write(*([] if opts.output.format == "json" else [""]))
    if output.error is None:
        try:
            print_report(ev, source, reader.skipped, opts.output.format, final=True)
        except (BrokenPipeError, OutputError) as exc:
            output.error = exc
        else:
            output.write()  # flush
    n = ev.num_cases
    status = _stream_status(stopped or _held_stop(stop), failure, checkpoint_error, output.error, source,
                            opts.checkpoint, f"the {n} cases read before it", f"after {n} cases", "them", n)
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
        error(f"{reason} (the report above covers {before})")
        status = 2
    if stopped is not None:
        if reported:
            error(f"stopped by {stopped.name} {after}; the report above covers {covered}")
        status = stopped.exit_status
    if checkpoint_error is not None:
        covers = f"; the report above covers the {cases} cases read" if reported else ""
        error(f"--checkpoint {checkpoint}: cannot write the checkpoint: {checkpoint_error} (an output error{covers})")
        status = 1
    if output_error is not None:
        raise output_error
    return status


def _stream_windowed(opts: StreamOptions, window: WindowedEvaluation, stop: GracefulStop, sink: Any) -> int:
    """``stream --window``: summary lines and the final report of the window only, in bounded memory."""
    from ..streaming import SummaryLogger, json_safe

    metrics = _Metrics(sink)
    skips = SkipReporter()
    opened = open_ranking(opts.path, opts.input.input_format, opts.input, skips, binary=False)
    reader, source = opened.reader, opened.source
    output = _StreamOutput(sys.stdout)
    kind = {"window_size": window.size} if window.size is not None else {"window_seconds": window.seconds}

    def emit(summary: Summary) -> None:
        if opts.output.format == "json":
            obj = json_safe(summary)
            output.write(json.dumps({**obj, **kind, "final": False}, allow_nan=False))
        else:
            output.write(str(summary))
        metrics.write(summary, window)

    add = SummaryLogger(window, emit, every=opts.every).add_case

    def take(line: int, correct: bool, score: float) -> bool:
        add(correct, score)
        return output.error is None

    stopped, failure = _read_stream(stop, reader, take)
    opened.close()
    skips.finish(source)
    what = f"the last {window.size} cases" if window.size is not None else f"the last {window.seconds:g} seconds"
    seen = window.num_cases_seen
    if opts.output.format != "json":
        output.write(f"\nWindow: {what} ({window.num_cases} of {seen} cases read)")
    if output.error is None:
        try:
            print_report(window.snapshot(), source, reader.skipped, opts.output.format, final=True, cases_read=seen,
                         **kind)
        except (BrokenPipeError, OutputError) as exc:
            output.error = exc
        else:
            output.write()  # flush
    status = _stream_status(stopped or _held_stop(stop), failure, None, output.error, source, None,
                            f"{what} of the {seen} cases read before it", f"after {seen} cases", what, seen)
    return 1 if metrics.finish() else status



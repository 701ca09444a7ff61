"""What the command line writes: its messages, its one table writer, the report of one ranking, the plot,
the progress bar, and standard output whose write errors are told apart from input errors."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .. import _atomic
from .._io.values import finite_or_none
from .options import OutputOptions

# The evaluator is imported by the commands that use it (`scored-pr --help` imports no numpy).
if TYPE_CHECKING:
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

PROG = "scored-pr"

#: Seconds before the progress bar appears (short inputs never show one), and
#: between two redraws.
PROGRESS_DELAY = 0.5
PROGRESS_INTERVAL = 0.1


def table(rows: Sequence[tuple[str, ...]], headers: tuple[str, ...], names_first: bool = False) -> str:
    """A Markdown table that reads well in a terminal: numbers right-aligned, names left-aligned.

    ``names_first``: the first column holds names (left-aligned); every other
    cell is right-aligned. Every table the command prints goes through here.
    """
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    left = [names_first and i == 0 for i in range(len(widths))]

    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(f"{c:<{w}}" if a else f"{c:>{w}}" for c, w, a in zip(cells, widths, left)) + " |"

    rule = "|" + "|".join(":" + "-" * (w + 1) if a else "-" * (w + 1) + ":" for w, a in zip(widths, left)) + "|"
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


class Progress:
    """A one-line progress bar on a terminal's standard error.

    Drawn only when ``stream.isatty()``, and only once the work has taken
    more than PROGRESS_DELAY seconds, so short inputs and redirected stderr
    (files, pipes, CI logs) never see it. With a known size it shows a bar
    and a percentage, otherwise the number of rows; always the rate. A
    ``label`` (``report --ci``'s resampling) replaces the rows and rate with
    ``done of total UNITS`` and the time left.
    """

    def __init__(self, stream: TextIO, total: int | None, enabled: bool, label: tuple[str, str] | None = None) -> None:
        self._stream = stream
        self._total = total
        self._label = label  # (prefix, units)
        self._enabled = enabled and bool(getattr(stream, "isatty", lambda: False)())
        self._start = time.monotonic()
        self._next = self._start + PROGRESS_DELAY
        self._width = 0

    def __call__(self, done: int) -> None:
        """``update(done, done)``: the callback form the bootstrap calls."""
        self.update(done, done)

    def update(self, done: int, rows: int) -> None:
        if not self._enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + PROGRESS_INTERVAL
        rate = rows / max(now - self._start, 1e-9)
        if self._total:
            frac = min(done / self._total, 1.0)
            filled = int(30 * frac)
            bar = f"[{'#' * filled}{'.' * (30 - filled)}] {100 * frac:3.0f}%  "
            if self._label is not None:
                prefix, units = self._label
                left = (self._total - done) / rate if rate > 0 else math.inf
                text = f"{prefix}{bar}{done:,} of {self._total:,} {units}  {left:,.0f} s left"
            else:
                text = f"{bar}{rows:,} rows  {rate:,.0f} rows/s"
        else:
            text = f"{rows:,} rows  {rate:,.0f} rows/s"
        self._width = max(self._width, len(text))
        self._stream.write(f"\r{text:<{self._width}}")
        self._stream.flush()

    def close(self) -> None:
        if self._enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()


def error(message: str) -> None:
    """One line on standard error, after the command's name."""
    print(f"{PROG}: {message}", file=sys.stderr)


# --------------------------------------------------------------------- the report of one ranking


def summary_for_json(ev: ScoredPrecisionRecallEvaluation) -> dict[str, Any]:
    from ..streaming import json_safe

    return json_safe(ev.summary())


def fmt_value(value: Any) -> str:
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def _metrics_table(ev: ScoredPrecisionRecallEvaluation) -> str:
    from .._report import table_rows

    rows = table_rows(ev.summary())  # the break-even point and R-precision: one row
    return table([(k, fmt_value(v)) for k, v in rows], ("measure", "value"), names_first=True)


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


def print_report(
    ev: ScoredPrecisionRecallEvaluation, opts: OutputOptions, source: str, skipped: int, **extra: Any
) -> None:
    """The report of one ranking on standard output: text, one JSON object, or a Markdown table; a curve if asked."""
    out = sys.stdout
    if opts.format == "json":
        obj: dict[str, Any] = {
            "source": source, "ties": ev.ties, **summary_for_json(ev), "skipped_lines": skipped, **extra
        }  # fmt: skip
        if opts.curve:
            columns, curve = _curve(ev, opts.curve, opts.interpolate)
            obj["curve"] = {
                "kind": opts.curve,
                "interpolated": opts.interpolate,
                "columns": columns,
                "points": [[finite_or_none(v) for v in row] for row in curve.tolist()],
            }
        print(json.dumps(obj, allow_nan=False), file=out)
        return
    if opts.format == "table":
        print(_metrics_table(ev), file=out)
    else:
        print(ev, file=out)
    if opts.curve:
        _print_curve(ev, opts.curve, opts.interpolate, opts.format, out)


def write_plot(ev: ScoredPrecisionRecallEvaluation, path: str, title: str, interpolate: bool) -> int:
    """Save PR and ROC side by side; matplotlib is imported only here."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        error(
            "--plot needs matplotlib, the optional extra 'plot': "
            "pip install matplotlib (or, in a checkout of scored_pr, pip install '.[plot]')"
        )
        return 1
    from ..plot import plot_pr_roc

    fig = plot_pr_roc(ev, interpolate=interpolate, title=display_name(title), figure=Figure())
    # matplotlib appends ".png" to a name without a suffix; say the format so
    # that exactly `path` is written, as the message below reports (and because
    # the figure is drawn into a temporary file, whose name says nothing).
    fmt = os.path.splitext(path)[1][1:] or "png"
    try:
        _atomic.write_file(path, lambda fh: fig.savefig(fh, dpi=150, bbox_inches="tight", format=fmt))
    except (OSError, ValueError) as exc:
        # an OSError's str() repeats the path ("[Errno 2] No such file or directory: 'x.png'"): its reason only
        error(f"cannot write the plot {path}: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}")
        return 1
    print(f"{PROG}: wrote {path}", file=sys.stderr)
    return 0


def display_name(text: str) -> str:
    """``text`` (a file name) as it can be drawn: each byte that is not UTF-8 shown as U+FFFD.

    A name read from a file system that is not UTF-8 holds lone surrogates
    (``os.fsdecode``'s surrogate escapes), which no font draws and no UTF-8
    text can hold.
    """
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that is no escaped byte
        return text.encode("utf-8", "replace").decode("utf-8")


def write_html(document: str, path: str) -> int:
    """Write an HTML report to ``path``; the exit status (1, with a message, when it cannot be written)."""
    from .._html import write

    try:
        write(document, path)  # atomic: on failure the previous report is kept
    except OSError as exc:
        error(f"cannot write the HTML report {path}: {exc.strerror or exc}")
        return 1
    print(f"{PROG}: wrote {path}", file=sys.stderr)
    return 0


# --------------------------------------------------------------------- standard output


class OutputError(Exception):
    """Writing to standard output failed (a full disk, a closed file), not reading input."""


class GuardedOutput:
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


def silence_stdout() -> None:
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

"""What the command line writes: its messages, its one table writer, the report of one ranking (with its
confidence intervals and calibration tables), the plot, the HTML page, the progress bar, and standard output
whose write errors are told apart from input errors.

This is the output layer every command shares; it takes plain values (a format name, a path, a level), never
a command's options object, which stays in the command's own module."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .. import _atomic
from .._io.values import InputError, finite_or_none
from .._measures import comparable_measures, query

# The evaluator is imported by the commands that use it (`scored-pr --help` imports no numpy).
if TYPE_CHECKING:
    from .._core.stats import Interval
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

PROG = "scored-pr"

#: Seconds before the progress bar appears (short inputs never show one), and
#: between two redraws.
PROGRESS_DELAY = 0.5
PROGRESS_INTERVAL = 0.1

#: Measures with an interval in ``report --ci`` and a test in ``compare``:
#: those of scored_pr._measures with a closed-form or vectorised interval,
#: fast on millions of cases.
COMPARABLE = comparable_measures()


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
    ev: ScoredPrecisionRecallEvaluation, source: str, skipped: int, fmt: str = "text", curve: str | None = None,
    interpolate: bool = False, **extra: Any,
) -> None:
    """The report of one ranking on standard output: text, one JSON object, or a Markdown table (``fmt``); a
    curve (``curve``: "pr" or "roc", ``interpolate``d or not) if asked."""
    out = sys.stdout
    if fmt == "json":
        obj: dict[str, Any] = {
            "source": source, "ties": ev.ties, **summary_for_json(ev), "skipped_lines": skipped, **extra
        }  # fmt: skip
        if curve:
            columns, points = _curve(ev, curve, interpolate)
            obj["curve"] = {
                "kind": curve,
                "interpolated": interpolate,
                "columns": columns,
                "points": [[finite_or_none(v) for v in row] for row in points.tolist()],
            }
        print(json.dumps(obj, allow_nan=False), file=out)
        return
    if fmt == "table":
        print(_metrics_table(ev), file=out)
    else:
        print(ev, file=out)
    if curve:
        _print_curve(ev, curve, interpolate, fmt, out)


# --------------------------------------------------------------------- confidence intervals (report --ci, compare)


def interval_method(measure: str, bootstrap: str) -> str:
    """The interval of ``measure``: its closed form (DeLong for ROC AUC), else the bootstrap ``--bootstrap`` names."""
    default = query(measure).intervals[0]
    if default != "bootstrap":
        return default
    return "bca" if bootstrap == "bca" else "bootstrap"


def finite(value: float) -> float | None:
    """``value``, or None (JSON's null) when it is NaN or infinite."""
    return value if math.isfinite(value) else None


def report_intervals(ev: ScoredPrecisionRecallEvaluation, source: str, level: float, bootstrap: str, resamples: int,
                     seed: int, progress: bool = True) -> dict[str, Interval]:
    """The intervals of ``report --ci``: one per measure of :data:`COMPARABLE`, at ``level``.

    The bootstrap shows its progress on a terminal's standard error (``progress``), as
    ``report`` shows its reading (the command line's progress bar: only on a
    terminal, not with ``--no-progress``, after a short delay, erased when
    the measure is done); 2,000 resamples of 1.5 million cases take about a
    minute. A query that refuses (e.g. sample weights) is one :class:`InputError` naming ``source``.
    """
    from .._uncertainty import confidence_interval

    out = {}
    for measure in COMPARABLE:
        bar = Progress(sys.stderr, resamples, progress, label=(f"--ci {measure}: ", "resamples"))
        try:
            out[measure] = confidence_interval(
                ev, measure, level, interval_method(measure, bootstrap), resamples, seed, progress=bar
            )
        except ValueError as exc:  # e.g. sample weights: one clear line, exit status 2
            raise InputError(source, None, f"--ci: {exc}") from None
        finally:
            bar.close()
    return out


def intervals_json(intervals: dict[str, Interval]) -> dict[str, Any]:
    """The ``confidence_intervals`` object of ``report --ci --format json``."""
    obj: dict[str, Any] = {}
    for name, iv in intervals.items():
        obj[name] = {
            "estimate": finite(iv.estimate), "low": finite(iv.low), "high": finite(iv.high),
            "level": iv.level, "method": iv.method, "std_error": finite(iv.std_error),
        }  # fmt: skip
        if iv.note:  # why the bounds are null (an undefined BCa interval)
            obj[name]["note"] = iv.note
    return obj


def print_intervals(intervals: dict[str, Interval], resamples: int, seed: int, fmt: str, out: TextIO) -> None:
    """The intervals as text or a Markdown table (``fmt`` "table"), after the report."""
    if not intervals:
        return
    level = next(iter(intervals.values())).level
    boot = any(iv.method in ("bootstrap", "bca") for iv in intervals.values())
    how = f", {resamples:,} stratified resamples, seed {seed}" if boot else ""
    print(f"\nConfidence intervals ({100 * level:g}%{how}):", file=out)
    rows = [(n, repr(iv.estimate), repr(iv.low), repr(iv.high), iv.method) for n, iv in intervals.items()]
    if fmt == "table":
        print(table(rows, ("measure", "estimate", "low", "high", "method"), names_first=True), file=out)
    else:
        for name, est, low, high, method in rows:
            print(f"  {name:<22} {float(est):.6f}  [{float(low):.6f}, {float(high):.6f}]  {method}", file=out)
    print_notes({n: iv.note for n, iv in intervals.items()}, out)


def print_notes(notes: dict[str, str], out: TextIO) -> None:
    """One line per interval whose bounds are NaN for a stated reason."""
    for name, note in notes.items():
        if note:
            print(f"  note: {name}: {note}", file=out)


# --------------------------------------------------------------------- calibration (report --calibration)


def print_calibration(data: dict[str, Any], fmt: str, out: TextIO) -> None:
    """The calibration measures and bins (``calibration.calibration_json``) as two tables (text and table formats)."""
    print("", file=out)
    print(table([(k, fmt_value(v)) for k, v in data["measures"].items()], ("calibration", "value"),
                names_first=True), file=out)  # fmt: skip
    print("", file=out)
    rows = []
    for b in data["bins"]:
        low = "[" if b["low"] == 0.0 else "("
        rows.append((f"{low}{b['low']:.1f}, {b['high']:.1f}]", str(b["cases"]),
                     "" if b["mean_score"] is None else f"{b['mean_score']:.6f}",
                     "" if b["fraction_correct"] is None else f"{b['fraction_correct']:.6f}"))  # fmt: skip
    print(table(rows, ("bin", "cases", "mean score", "fraction correct"), names_first=True), file=out)


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
    from .._html import encoded

    try:
        _atomic.write_bytes(path, encoded(document))  # atomic: on failure the previous report is kept
    except OSError as exc:
        error(f"cannot write the HTML report {path}: {exc.strerror or exc}")
        return 1
    print(f"{PROG}: wrote {path}", file=sys.stderr)
    return 0


def write_report_page(obj: Any, source: str, path: str, intervals: dict[Any, Any] | None = None,
                      gaps: dict[str, Any] | None = None) -> int:
    """Write the HTML report of ``obj`` (any evaluator kind, read from ``source``) to ``path``; the exit status.

    ``gaps``: a sliced evaluation's gaps table (``report --by --ci``), drawn on the page.
    """
    from .. import _html as html

    return write_html(html.render(obj, title=f"scored_pr report: {os.path.basename(source)}", intervals=intervals,
                                  gaps=gaps), path)


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

"""``scored-pr stream`` on a wide file: multi-class or multi-label rows as they arrive.

The rows go, one at a time, into a :class:`~scored_pr.MultiLabelEvaluation`
(a multi-class row is one-vs-rest: its class is its one positive label).
Every ``--every`` rows a summary line is printed from its ``summary()``:
the rows, each label's positives and the macro and micro averages of AP
and ROC AUC (``--format json``: the whole summary, NaN as null). The final
report is ``report``'s of the same rows (:func:`.wide.print_wide`), so a
stream that reads a whole file ends with what ``scored-pr report`` prints
for it. Checkpoints, ``--resume``, ``--window N`` (with ``--cumulative``),
``--metrics-port`` and the stop signals behave as in the binary stream
(:mod:`.stream`), whose loop, output and exit statuses this module shares.
"""

from __future__ import annotations

import json
import math
import sys
import time
from typing import TYPE_CHECKING, Any

from .._io import values as _io
from .._io.formats import open_wide
from . import wide
from .inputs import SkipReporter
from .options import StreamOptions
from .output import OutputError, error

if TYPE_CHECKING:
    from .._evaluators.multilabel import MultiLabelEvaluation
    from .stopping import GracefulStop

#: The averages a summary line shows, with their short names.
_LINE_AVERAGES = (("average_precision", "AP"), ("area_under_roc_curve", "AUC"))
_LINE_MODES = ("macro", "micro")

#: Prefix of a window's figures in a summary that also holds cumulative ones (as streaming.WINDOW_PREFIX).
WINDOW_PREFIX = "window_"


def usage(opts: StreamOptions) -> str | None:
    """Why these options do not go with a wide file (or with each other), or None."""
    problem = wide.columns_usage(opts.wide)
    if problem is not None:
        return problem
    defaults = (("correct_col", opts.input.correct_col, None), ("positive_label", opts.input.positive_label, None),
                ("score_col", opts.input.score_col, "score"), ("ties", opts.ties, "grouped"), ("misses", opts.misses, 0))
    given = ["--" + name.replace("_", "-") for name, value, default in defaults if value != default]
    if given:
        return f"{', '.join(given)}: {wide.NOT_FOR_WIDE}"
    if opts.window_seconds is not None:
        return ("--window-seconds: not for a wide file (its evaluation keeps a window of rows, not of time): "
                "use --window N")
    if opts.window is None and opts.cumulative:
        return "--cumulative goes with --window N or --window-seconds T"
    if opts.window is not None and (opts.checkpoint or opts.resume):
        return "--checkpoint and --resume keep the cumulative evaluation only; they do not go with --window"
    return None


def json_ready(value: Any) -> Any:
    """A nested summary as JSON: NaN and infinities as None, numpy numbers as Python's (dicts and lists walked)."""
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return value
    if hasattr(value, "dtype") and getattr(value.dtype, "kind", "") in "iub":
        return int(value) if value.dtype.kind != "b" else bool(value)
    return number if math.isfinite(number) else None


def format_line(summary: dict[str, Any], prefix: str = "", digits: int = 4) -> str:
    """One short line of a multi-label summary: rows, each label's positives, the macro and micro AP and AUC.

    Examples
    --------
    >>> s = {"num_rows": 4, "labels": {"a": {"num_positive_ref": 2}, "b": {"num_positive_ref": 1}},
    ...      "average_precision": {"macro": 0.75, "micro": 0.5}, "area_under_roc_curve": {"macro": float("nan"), "micro": 1.0}}
    >>> format_line(s)
    'rows=4 pos: a=2 b=1 | AP macro=0.7500 micro=0.5000 | AUC macro=nan micro=1.0000'
    """
    labels = summary[prefix + "labels"]
    pos = " ".join(f"{name}={int(own['num_positive_ref'])}" for name, own in labels.items())
    parts = [f"rows={summary[prefix + 'num_rows']} pos: {pos}"]
    for key, short in _LINE_AVERAGES:
        values = summary[prefix + key]
        shown = []
        for mode in _LINE_MODES:
            v = float(values[mode])
            shown.append(f"{mode}=nan" if math.isnan(v) else f"{mode}={v:.{digits}f}")
        parts.append(f"{short} " + " ".join(shown))
    return " | ".join(parts)


def _resume(opts: StreamOptions) -> tuple[MultiLabelEvaluation | None, dict[str, Any] | None, int]:
    """The evaluation, the layout it was made from and the input line to continue after (``--resume``)."""
    from .._evaluators.multilabel import from_state
    from .._state import multilabel as _ml_state
    from .._state import statefile as _statefile

    if not opts.resume:
        return None, None, 0
    try:
        kind = _statefile.kind_of(opts.resume, "--resume")
        if kind != "multilabel":
            raise _io.InputError(opts.resume, None, f"the checkpoint holds a {kind!r} evaluation, not a wide stream's "
                                 "('multilabel'): resume it without --label-col/--label-cols")
        st, extra = _ml_state.load_with_extra(opts.resume, "--resume")
        ev = from_state(st, "--resume")
    except FileNotFoundError:
        raise _io.InputError(opts.resume, None, "no such checkpoint (nothing to resume)") from None
    except OSError as exc:
        raise _io.InputError(opts.resume, None, f"cannot read the checkpoint: {exc.strerror or exc}") from None
    except (ValueError, TypeError) as exc:
        if isinstance(exc, _io.InputError):
            raise
        text = str(exc).removeprefix("--resume: ").removeprefix(repr(opts.resume)).lstrip()
        raise _io.InputError(opts.resume, None, f"not a stream checkpoint: {text}") from None
    line = extra.get("line") if isinstance(extra, dict) else None
    layout = extra.get("layout") if isinstance(extra, dict) else None
    if isinstance(line, bool) or not isinstance(line, int) or line < 0 or not isinstance(layout, dict):
        raise _io.InputError(opts.resume, None, "not a stream checkpoint (saved by save(), not by stream --checkpoint)")
    return ev, layout, (0 if opts.no_skip else line)


def _layout(reader: Any) -> dict[str, Any]:
    return {"kind": "multiclass" if reader.multiclass else "multilabel", "labels": list(reader.names),
            "score_columns": list(reader.score_names)}


def run(opts: StreamOptions, sink: Any) -> int:
    """``scored-pr stream --label-col/--label-cols ...``, its summaries also written to ``sink`` unless None; the exit status."""
    from .stopping import GracefulStop

    with GracefulStop() as stop:  # first, as in the binary stream: a signal while starting is answered by the report
        return _run(opts, stop, sink)


def _run(opts: StreamOptions, stop: GracefulStop, sink: Any) -> int:
    import numpy as np

    from .._evaluators.multilabel import MultiLabelEvaluation, add_rows_trusted, state_of
    from .._state import multilabel as _ml_state
    from .stream import _check_writable, _held_stop, _Metrics, _read_stream, _stream_status, _StreamOutput, _UsageError

    try:
        problem = usage(opts)
        if problem is not None:
            raise _UsageError(problem)
        if opts.checkpoint:
            _check_writable("--checkpoint", opts.checkpoint)
    except _UsageError as exc:
        error(str(exc))
        return 2
    resumed, saved_layout, skip_to = _resume(opts)
    metrics = _Metrics(sink)
    skips = SkipReporter()
    opened = open_wide(opts.path, opts.input.input_format, opts.wide, opts.input.skip_invalid, skips)
    reader, source = opened.reader, opened.source
    output = _StreamOutput(sys.stdout)
    json_out = opts.output.format == "json"
    window_size = opts.window
    window_info = {} if window_size is None else {"window_size": window_size}

    cumulative: MultiLabelEvaluation | None = resumed
    window: MultiLabelEvaluation | None = None
    # what the report names: the checkpoint's layout until the input's header (or first object) is read
    layout: dict[str, Any] = saved_layout or {"kind": "multilabel", "labels": [], "score_columns": []}
    k = 0
    multiclass = False

    def start() -> None:
        """At the first row: the evaluations, of the labels the header (or first object) named."""
        nonlocal cumulative, window, k, multiclass
        found = _layout(reader)
        if saved_layout is not None and saved_layout != found:
            raise _io.InputError(opts.resume or "", None, f"the checkpoint was made from a {saved_layout.get('kind')} "
                                 f"file of labels {saved_layout.get('labels')!r:.200} and score columns "
                                 f"{saved_layout.get('score_columns')!r:.200}; this input is a {found['kind']} "
                                 f"file of labels {found['labels']!r:.200} and score columns {found['score_columns']!r:.200}")
        layout.update(found)
        k, multiclass = len(reader.names), reader.multiclass
        if window_size is not None:
            window = MultiLabelEvaluation(reader.names, window=window_size)
        if cumulative is None and (window is None or opts.cumulative):
            cumulative = MultiLabelEvaluation(reader.names)

    def summary() -> dict[str, Any]:
        out: dict[str, Any] = {}
        if cumulative is not None:
            out.update(cumulative.summary())
        if window is not None:
            own = window.summary()
            out.update({(WINDOW_PREFIX + key if cumulative is not None else key): v for key, v in own.items()})
        return out

    def emit() -> None:
        s = summary()
        stamp = {"step": seen, "time": time.time()}  # rows read (the checkpoint's included), as SummaryLogger's step
        if json_out:
            output.write(json.dumps({**json_ready(s), **window_info, **stamp, "final": False}, allow_nan=False))
        else:
            line = format_line(s)
            if cumulative is not None and window is not None:
                line += " | window: " + format_line(s, WINDOW_PREFIX)
            output.write(line)
        # each evaluator's nested summary as it is: the sink writes every label's figures and every average,
        # under scope="cumulative" or scope="window" (the evaluator says which)
        for ev in (cumulative, window):
            if ev is not None:
                metrics.write({**ev.summary(), **stamp}, ev)  # type: ignore[arg-type]

    last_line = skip_to
    checkpoint_error: OSError | None = None

    def checkpoint() -> bool:
        nonlocal checkpoint_error
        if not opts.checkpoint or cumulative is None:
            return True
        try:
            _ml_state.save(state_of(cumulative), opts.checkpoint,
                           extra={"line": last_line, "source": source, "layout": layout})
        except OSError as exc:
            checkpoint_error = exc
            return False
        return True

    every_cp = opts.checkpoint_every if opts.checkpoint else 0
    countdown = every_cp
    every = opts.every
    until_line = every
    started = False
    seen = 0 if resumed is None else resumed.num_rows

    def take(line: int, truth: Any, scores: Any) -> bool:
        nonlocal last_line, countdown, until_line, started, seen
        if not started:
            start()
            started = True
        if line <= skip_to:  # consumed before the checkpoint we resumed from
            return True
        row = np.zeros((1, k), dtype=bool)
        if multiclass:
            row[0, truth] = True
        else:
            row[0] = truth
        values = np.array([scores], dtype=np.float64)
        # parsed rows arrive validated (bools, and scores without NaN): committed as they are
        if cumulative is not None:
            add_rows_trusted(cumulative, row, values, None)
        if window is not None:
            add_rows_trusted(window, row.copy(), values.copy(), None)
        last_line = line
        seen += 1
        until_line -= 1
        if until_line == 0:
            until_line = every
            emit()
        if every_cp:
            countdown -= 1
            if countdown == 0:
                countdown = every_cp
                if not checkpoint():
                    return False
        return output.error is None

    stopped, failure = _read_stream(stop, reader, take)
    opened.close()
    if not started and reader.names and failure is None:
        start()  # a header and no row: the evaluations exist, empty
    checkpoint()
    skips.finish(source)
    final = window if cumulative is None else cumulative
    n = 0 if final is None else final.num_rows
    if n and output.error is None:
        if not json_out:
            output.write("")
            if window is not None and cumulative is None:
                output.write(f"Window: the last {window_size} rows ({window.num_rows} rows in it)")
        truth, scores, _ = final.rows()  # type: ignore[union-attr]
        is_multiclass = layout["kind"] == "multiclass"
        truth_out = truth.argmax(axis=1) if is_multiclass else truth
        try:
            status = wide.print_wide(source, is_multiclass, layout["labels"], layout["score_columns"], truth_out, scores,
                                     reader.skipped, opts.output.format,
                                     extra={"final": True, **window_info} if json_out else None)
        except (BrokenPipeError, OutputError) as exc:
            output.error = exc
            status = 0
        else:
            output.write()  # flush
    else:
        status = 0
        if output.error is None and failure is None and stopped is None and _held_stop(stop) is None:
            error(f"{source}: no rows to evaluate (a header, or JSON objects, but no valid row)")
            status = 2
    code = _stream_status(stopped or _held_stop(stop), failure, checkpoint_error, output.error, source,
                          opts.checkpoint, f"the {n} rows read before it", f"after {n} rows", "them", n)
    if metrics.finish():
        return 1
    return code if code else status

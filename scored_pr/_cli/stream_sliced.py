"""``scored-pr stream --by COL[,COL]``: every slice of a stream of cases, while it arrives.

The rows are read as ``report --by`` reads them (:func:`.sliced.open_cases`: CSV,
TSV, JSON Lines, Parquet, gzip, standard input; each row's label, score and
feature columns by the readers' rules and messages) and go to a
:class:`~scored_pr.SlicedEvaluation` through a :class:`~scored_pr.streaming.SummaryLogger`:
a summary every ``--every`` cases (one line per slice, or one JSON object
holding every slice), ``--metrics-port``'s gauges with a label per key, and at
the end the table ``report --by`` prints of the same rows.

With ``--window N`` (or ``--window-seconds T``) each slice is a window of its
own last N cases (T seconds): a ``SlicedEvaluation(kind="windowed")``. With
``--checkpoint PATH`` the sliced state (every slice's evaluator, a window's
cases included) is saved atomically every ``--checkpoint-every`` cases and at
exit, with the input line it consumed; ``--resume PATH`` continues from it
(refused, in one line with status 2, when its keys, crossings, window, ties or
``--max-slices`` differ from the command's).

At ``--max-slices`` the stream goes on: a case that would open one slice too
many is left out (of every slice, the overall one included: a refused call
changes nothing), the first such case is said in one line on stderr naming its
slice and the count, and the end of the stream says how many cases were left
out and of which slices (the JSON report carries both). The slices already
open keep being exact; the exit status is 0, as for ``--skip-invalid``.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from .._io import values as _io
from . import sliced
from .inputs import SkipReporter
from .options import StreamOptions
from .output import OutputError, error

if TYPE_CHECKING:
    from ..streaming import Summary
    from .stopping import GracefulStop

#: Refused slices named in the closing line (then only their count).
MAX_REFUSED_NAMED = 5


def usage(opts: StreamOptions) -> str | None:
    """Why ``opts`` cannot stream by slice (one line), or None."""
    if opts.cumulative:
        return "--by: --cumulative (a window beside every case) does not go with --by; run --by with and without --window"
    if opts.window_seconds is not None and (opts.checkpoint or opts.resume):
        return ("--by: --window-seconds keeps times of this process only; it does not go with --checkpoint or "
                "--resume (use --window N)")
    if opts.misses:
        return "--by: --misses has no slice; it does not go with --by"
    if opts.wide.requested:
        return "--by: the wide-file options (--label-col, --label-cols) do not go with --by"
    return None


def summary_lines(summary: Summary) -> list[str]:
    """The text form of one summary: a line per slice, ``region=eu: cases=... AP=...``."""
    from ..streaming import format_summary

    step = summary.get("step")
    head = [f"step {step}:"] if step is not None else []
    return head + [f"  {name}: {format_summary(one)}" for name, one in summary.items() if isinstance(one, dict)]


class _Refusals:
    """The cases left out at ``--max-slices``: said once when the first arrives, counted, summed up at the end."""

    def __init__(self, source: str, max_slices: int) -> None:
        self.source = source
        self.max_slices = max_slices
        self.cases = 0
        self.slices: dict[str, int] = {}  # the refused slice of each left-out case -> its cases

    def __call__(self, line: int, name: str, count: int) -> None:
        self.cases += 1
        self.slices[name] = self.slices.get(name, 0) + 1
        if self.cases == 1:
            error(f"{self.source}:{line}: --max-slices {self.max_slices}: the slice {name} would be slice {count}; "
                  "its cases are left out and the stream goes on (every case of a new slice from here on is "
                  "counted, and said at the end)")

    def finish(self) -> None:
        if not self.cases:
            return
        names = list(self.slices)
        shown = "; ".join(names[:MAX_REFUSED_NAMED]) + (f" and {len(names) - MAX_REFUSED_NAMED} more" if len(names) > MAX_REFUSED_NAMED else "")
        s = "" if self.cases == 1 else "s"
        error(f"--max-slices {self.max_slices}: {self.cases} case{s} left out (of every slice, overall included), "
              f"of {len(names)} slice{'' if len(names) == 1 else 's'} not opened: {shown}")

    def report(self) -> dict[str, Any]:
        """The JSON report's fields."""
        return {"max_slices": self.max_slices, "refused_cases": self.cases, "refused_slices": len(self.slices)}


def _new_slice(ev: Any, specs: tuple[tuple[str, ...], ...], values: dict[str, Any]) -> tuple[str, int] | None:
    """(the first slice ``values`` would open, the count it would make) when that is over ``ev.max_slices``, else None."""
    from .._validation.slices import slice_text

    count = len(ev) - (1 if () in ev else 0)
    first = None
    for spec in specs:
        if not spec:
            continue
        pairs = tuple((k, values[k]) for k in spec)
        if pairs not in ev:
            count += 1
            first = first or slice_text(pairs)
    return (first, count) if first is not None and count > ev.max_slices else None


def run(opts: StreamOptions, sink: Any) -> int:
    """``scored-pr stream --by ...``, its summaries also written to ``sink`` (``--metrics-port``) unless None."""
    from .stopping import GracefulStop

    keys, specs = sliced.crossings(list(opts.by))
    problem = "--by: expected one or more column names (--by region or --by region,device)" if not keys else usage(opts)
    if problem is not None:
        error(problem)
        return 2
    skips = SkipReporter()
    # the header (a JSON Lines file's first object) is read before the stream starts: a --by column
    # the input lacks is one line and status 2, before any summary
    from .stream import _check_writable, _UsageError

    try:
        if opts.checkpoint:
            _check_writable("--checkpoint", opts.checkpoint)
        ev, skip_to = _resume(opts, keys, ((), *specs))
    except _UsageError as exc:
        error(str(exc))
        return 2
    except _io.InputError as exc:
        error(str(exc))
        return 2
    opened = sliced.open_cases(opts.path, opts.input, keys, skips)
    if isinstance(opened, int):
        return opened
    with GracefulStop() as stop:
        return _run(opts, ev, skip_to, keys, ((), *specs), opened, skips, stop, sink)


def _failure(write: Any) -> OSError | None:
    """The OSError ``write()`` raised, or None when it wrote."""
    try:
        write()
    except OSError as exc:
        return exc
    return None


def _fresh(opts: StreamOptions, keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...]) -> Any:
    """The empty evaluation of the command's options: exact slices, or a window per slice."""
    from .._evaluators.sliced import SlicedEvaluation

    options: dict[str, Any] = {} if opts.max_slices is None else {"max_slices": opts.max_slices}
    if opts.window is not None:
        options.update(kind="windowed", size=opts.window)
    elif opts.window_seconds is not None:
        options.update(kind="windowed", seconds=opts.window_seconds)
    return SlicedEvaluation(keys, slices=specs, ties=opts.ties, **options)


def _resume(opts: StreamOptions, keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...]) -> tuple[Any, int]:
    """The evaluation and the input line to continue after, from ``--resume`` (or a fresh start)."""
    from .._evaluators.sliced import from_state, state_of
    from .._state import sliced as _sliced_state
    from .stream import load_checkpoint

    fresh = _fresh(opts, keys, specs)
    if not opts.resume:
        return fresh, 0
    path = opts.resume

    def load() -> tuple[Any, Any]:
        st, extra = _sliced_state.load_with_extra(path, "--resume")
        return (st, from_state(st)), extra

    (st, ev), line = load_checkpoint(path, load, "stream --by checkpoint")
    want = state_of(fresh)
    for field, what in (("keys", "--by keys"), ("specs", "--by crossings"), ("kind", "window"),
                        ("options", "window and --ties"), ("max_slices", "--max-slices")):
        if getattr(st, field) != getattr(want, field):
            raise _io.InputError(opts.resume, None, f"the checkpoint was made with other {what} "
                                 f"({getattr(st, field)!r:.100}); this command has {getattr(want, field)!r:.100}")
    return ev, (0 if opts.no_skip else line)


def _run(opts: StreamOptions, ev: Any, skip_to: int, keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...],
         opened: tuple[str, Any], skips: SkipReporter, stop: GracefulStop, sink: Any) -> int:
    from .._evaluators.sliced import state_of
    from .._state import sliced as _sliced_state
    from ..streaming import SummaryLogger, json_safe
    from .stream import _held_stop, _Metrics, _read_stream, _stream_status, _StreamOutput

    source, cases = opened
    metrics = _Metrics(sink)
    output = _StreamOutput(sys.stdout)
    refusals = _Refusals(source, ev.max_slices)

    def emit(summary: Summary) -> None:
        if opts.output.format == "json":
            output.write(json.dumps({**json_safe(summary), "final": False}, allow_nan=False))
        else:
            output.write(*summary_lines(summary))
        metrics.write(summary, ev)

    add = SummaryLogger(ev, emit, every=opts.every).add_case
    last_line = skip_to
    checkpoint_error: OSError | None = None

    def checkpoint() -> bool:
        """Save the sliced state atomically; the first failure is an output error (kept, and ends the stream)."""
        nonlocal checkpoint_error
        if opts.checkpoint and checkpoint_error is None:
            checkpoint_error = _failure(lambda: _sliced_state.save(state_of(ev), opts.checkpoint,
                                                                   extra={"line": last_line, "source": source}))
        return checkpoint_error is None

    every_cp = opts.checkpoint_every if opts.checkpoint else 0
    countdown = every_cp

    def take(line: int, correct: bool, item: tuple[float, dict[str, Any]]) -> bool:
        nonlocal last_line, countdown
        if line <= skip_to:  # consumed before the checkpoint we resumed from
            return True
        last_line = line
        if every_cp:
            countdown -= 1
            if countdown == 0:
                countdown = every_cp
                if not add_one(line, correct, item):
                    return False
                return checkpoint() and output.error is None
        return add_one(line, correct, item)

    def add_one(line: int, correct: bool, item: tuple[float, dict[str, Any]]) -> bool:
        score, values = item
        try:
            add(correct, score, **values)
        except ValueError as exc:  # the slice limit (counted, the stream goes on), or a feature value refused
            over = _new_slice(ev, specs, values)
            if over is not None:
                refusals(line, *over)
            elif opts.input.skip_invalid:
                skips(_io.InputError(source, line, str(exc)))
            else:
                raise _io.InputError(source, line, str(exc)) from None
        return output.error is None

    def reader() -> Any:
        for line, correct, score, values in cases:
            yield line, correct, (score, values)

    stopped, failure = _read_stream(stop, reader(), take)
    # From here on signals are only recorded: they cannot cut the exit checkpoint or the report short.
    checkpoint()
    skips.finish(source)
    refusals.finish()
    output.write(*([] if opts.output.format == "json" else [""]))
    if output.error is None:
        try:
            sliced.print_slices(ev, source, skips.count, keys, opts.output.format, {}, None,
                                extra={"final": True, **refusals.report()})
        except (BrokenPipeError, OutputError) as exc:
            output.error = exc
        else:
            output.write()  # flush
    n = ev.num_cases_seen
    status = _stream_status(stopped or _held_stop(stop), failure, checkpoint_error, output.error, source, opts.checkpoint,
                            f"the {n} cases read before it", f"after {n} cases", "them", n)
    return 1 if metrics.finish() else status


__all__ = ["run", "summary_lines", "usage"]

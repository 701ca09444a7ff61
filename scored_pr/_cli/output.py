"""What the command line writes: its one table writer and its progress bar."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TextIO

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

"""Stopping a long-running command cleanly on SIGINT, SIGTERM or SIGHUP.

``scored-pr stream`` runs under systemd, Kubernetes, ``timeout`` and terminals
alike; each stops it with a different signal. :class:`GracefulStop` turns all
three into one exception, :class:`Stopped`, raised at a point where no case is
half-added: while a case is being added (inside :meth:`GracefulStop.critical`)
a signal is only recorded and takes effect right after the case is complete;
anywhere else (typically a read blocked on a pipe) it takes effect at once.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType

#: The signals that stop a stream, and the exit status of each (128 + number).
STOP_SIGNALS = tuple(
    s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP")) if s is not None
)


class Stopped(BaseException):
    """A stop signal arrived (a BaseException, so no ``except Exception`` swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        """128 + the signal number, as a shell reports a process killed by it."""
        return 128 + self.signum


class GracefulStop:
    """Install handlers for :data:`STOP_SIGNALS` for the duration of a ``with`` block.

    Outside the main thread (where Python cannot install handlers) it does
    nothing, and the default behaviour stays.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._critical = False
        self._previous: dict[int, object] = {}

    def __enter__(self) -> GracefulStop:
        for sig in STOP_SIGNALS:
            try:
                self._previous[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread
                break
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is None:
            self.received = signum
        if not self._critical:
            raise Stopped(self.received)

    def hold(self) -> None:
        """From now on only record stop signals (for the final report and checkpoint)."""
        self._critical = True

    @contextmanager
    def critical(self) -> Iterator[None]:
        """A block during which a stop signal is deferred until the block ends."""
        self._critical = True
        try:
            yield
        finally:
            self._critical = False
        if self.received is not None:
            raise Stopped(self.received)

"""Stopping a long-running command cleanly on SIGINT, SIGTERM or SIGHUP.

``scored-pr stream`` runs under systemd, Kubernetes, ``timeout`` and terminals
alike; each stops it with a different signal, and some send two at once (a
hang-up followed by a TERM when a terminal closes, a Ctrl-C followed by the
supervisor's TERM). :class:`GracefulStop` turns all of them into one exception,
:class:`Stopped`, raised once, for the first signal, at a point where no case
is half-added:

* until :meth:`GracefulStop.listen` (while the command sets up) and after
  :meth:`GracefulStop.hold` (while it writes the final checkpoint and report),
  a signal is only recorded;
* between the two, a signal raises :class:`Stopped` at once (typically in a
  read blocked on a pipe), except inside :meth:`GracefulStop.critical`, while
  a case is being added, where it takes effect right after the case is
  complete;
* only the first signal counts: a second or third one, whenever it arrives, is
  ignored (the stop it asks for is already under way), so it can never cut
  the final checkpoint or report short; after a stop, leaving the ``with``
  block leaves the stop signals ignored (the command is about to exit with
  the first one's status), not restored to a default that would kill it.

The pattern that keeps the stop inside the ``try`` that handles it::

    with GracefulStop() as stop:
        try:
            try:
                stop.listen()
                ...  # read and add cases, each inside stop.critical()
            finally:
                stop.hold()
        except Stopped as exc:
            ...
        # checkpoint, report: no signal raises here
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

    Signals are only recorded until :meth:`listen`; see the module docstring
    for the states. :attr:`received` is the first stop signal (None if none
    came). Outside the main thread (where Python cannot install handlers) it
    does nothing, and the default behaviour stays.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        # True while a signal may raise Stopped at once: after listen(), outside
        # critical() and hold(), and only until the one Stopped is raised.
        self._live = False
        self._previous: dict[int, object] = {}

    def __enter__(self) -> GracefulStop:
        for sig in STOP_SIGNALS:
            try:
                self._previous[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread
                break
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self._live = False
        for sig, handler in self._previous.items():
            # After a stop the command only returns its status and exits: a
            # later stop signal must not kill it (with the default action)
            # between its report and its exit, so stop signals stay ignored.
            signal.signal(sig, handler if self.received is None else signal.SIG_IGN)  # type: ignore[arg-type]
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            return  # a stop is already under way; the first signal decides its status
        self.received = signum
        if self._live:
            self._live = False  # never raise twice
            raise Stopped(signum)

    def _raise_if_received(self) -> None:
        # Called with _live True: a signal arriving during this check raises by
        # itself (and clears _live), so Stopped is raised exactly once.
        signum = self.received
        if signum is not None and self._live:
            self._live = False
            raise Stopped(signum)

    def listen(self) -> None:
        """From now on a stop signal raises :class:`Stopped`; one recorded before raises now."""
        self._live = True
        self._raise_if_received()

    def hold(self) -> None:
        """From now on only record stop signals (for the final checkpoint and report)."""
        self._live = False

    @contextmanager
    def critical(self) -> Iterator[None]:
        """A block during which a stop signal is deferred until the block ends."""
        live = self._live
        self._live = False
        try:
            yield
        finally:
            self._live = live
        self._raise_if_received()

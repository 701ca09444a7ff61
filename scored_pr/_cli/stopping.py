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

"First" is the order the signals arrived in, not the order the interpreter
runs their handlers: when two are pending together (``kill -TERM; kill -INT``),
CPython runs the handlers in signal-number order, so the SIGINT handler would
run first. The arrival order is read from the interpreter's wake-up file
(:func:`signal.set_wakeup_fd`), to which the C-level handler writes each
signal's number as it arrives. Two signals sent within microseconds, before
the process could run at all, are both pending in the kernel, which keeps no
order among them; Linux then runs the handler of the higher-numbered one first
(SIGTERM before SIGINT before SIGHUP), and that one decides, in a process of
one thread. With other threads (BLAS workers, a metrics server), the kernel
may hand the second signal to another thread while the first waits for the
main one, whose C-level handler may then run first: either may decide.

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

import os
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
        # The wake-up pipe (read end, write end) and the wake-up fd it replaced, while installed.
        self._wakeup: tuple[int, int] | None = None
        self._previous_wakeup = -1

    def __enter__(self) -> GracefulStop:
        for sig in STOP_SIGNALS:
            try:
                self._previous[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread
                break
        if self._previous:
            self._install_wakeup()
        return self

    def _install_wakeup(self) -> None:
        """Have the C-level handler write each signal's number, as it arrives, to a pipe of ours."""
        r, w = os.pipe()
        try:
            os.set_blocking(r, False)
            os.set_blocking(w, False)
            self._previous_wakeup = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except (OSError, ValueError):  # a platform that takes only sockets: the handlers' order stands
            os.close(r)
            os.close(w)
            return
        self._wakeup = (r, w)

    def _first_arrived(self, signum: int) -> int:
        """The stop signal that arrived first among those written to the wake-up pipe (else ``signum``)."""
        if self._wakeup is None:
            return signum
        first = None
        while True:  # drain it, so that it never fills
            try:
                chunk = os.read(self._wakeup[0], 512)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                break
            if not chunk:
                break
            if first is None:
                first = next((b for b in chunk if b in STOP_SIGNALS), None)
        return signum if first is None else first

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self._live = False
        for sig, handler in self._previous.items():
            # After a stop the command only returns its status and exits: a
            # later stop signal must not kill it (with the default action)
            # between its report and its exit, so stop signals stay ignored.
            signal.signal(sig, handler if self.received is None else signal.SIG_IGN)  # type: ignore[arg-type]
        self._previous.clear()
        if self._wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            for fd in self._wakeup:
                os.close(fd)
            self._wakeup = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        first = self._first_arrived(signum)  # the handlers run in signal-number order, not arrival order
        if self.received is not None:
            return  # a stop is already under way; the first signal decides its status
        self.received = first
        if self._live:
            self._live = False  # never raise twice
            raise Stopped(first)

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

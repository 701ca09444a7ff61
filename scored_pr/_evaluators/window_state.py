"""The state of a ``WindowedEvaluation``: equality, pickling, copies, ``to_dict``/``from_dict`` and ``save``/``load``.

:class:`WindowState` turns a window into plain data (its settings, the items
in it with their times, the misses) and back, through the state formats of
``scored_pr._state.windowed``; ``WindowedEvaluation`` (``_evaluators/windowed.py``)
is the class that uses it.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Any, TypeVar

from .._state import windowed as _state
from .._validation import check_clock
from .guard import claim
from .window_machinery import WindowMachinery, _default_clock

_W = TypeVar("_W", bound="WindowState")


class WindowState(WindowMachinery):
    """The state methods of a sliding window (the base of ``WindowedEvaluation``)."""

    __slots__ = ()

    _ties: str

    def _init_state(self) -> None:  # pragma: no cover - WindowedEvaluation's
        raise NotImplementedError

    # ------------------------------------------------------- combining and state

    def __eq__(self, other: object) -> bool:
        """Equal when the kind, length, policy, label and the items in the window (with their times) agree."""
        if not isinstance(other, WindowState):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> dict[str, Any]:
        """The window as plain data: settings, the cases in insertion order, the misses.

        No clock readings are taken: the state is the window as it stands
        (query first to expire by the clock).
        """
        self._count_lean()
        return {
            "size": self._size,
            "seconds": self._seconds,
            "clock": _state.pickle_clock(self._clock, _default_clock),
            "clock_auto": self._clock_auto,
            "ties": self._ties,
            "pos_label": self._pos_label,
            "first_id": self._first_id,
            "now": self._now,
            "scores": list(self._scores),
            "correct": list(self._correct),
            "weights": None if self._weights is None else list(self._weights),
            "times": None if self._times is None else list(self._times),
            "runs": [list(r) for r in self._runs],
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        claim(self)
        self._read_only = False
        self._size = state["size"]
        self._seconds = state["seconds"]
        self._clock = _state.unpickle_clock(state["clock"], _default_clock)
        self._clock_auto = state.get("clock_auto", False)  # states pickled before it existed: settled
        self._ties = state["ties"]
        self._grouped = self._ties == "grouped"
        self._pos_label = state["pos_label"]
        self._init_state()
        self._scores = deque(state["scores"])
        self._correct = deque(state["correct"])
        if state["weights"] is not None:
            self._weights = deque(state["weights"])
            self._unit_off = sum(1 for w in self._weights if w != 1.0)
        if state["times"] is not None:
            self._times = deque(state["times"])
        self._runs = deque(list(r) for r in state["runs"])
        self._misses = sum(r[1] for r in self._runs if r[2])
        self._negative_misses = sum(r[1] for r in self._runs if not r[2])
        self._n_correct = sum(1 for c in self._correct if c)
        # The sorted containers are empty and invalid: the next ROC AUC query fills them (_sync).
        self._first_id = self._s_lo = self._s_hi = state["first_id"]
        self._valid = False
        self._now = state["now"]
        self._lean_if_plain()

    def to_dict(self) -> dict[str, Any]:
        """The window's state as a JSON-safe dict (``json.dumps`` works on it).

        Keys: ``format`` (``"scored_pr.WindowedEvaluation"``), ``kind``
        (``"windowed"``), ``version`` (1), ``size``, ``seconds`` (one of them
        null), ``clock`` (``"auto"``, ``"monotonic"``, ``"none"`` or
        ``"custom"``: which clock the window runs on; the clock itself is not
        saved), ``ties``, ``first_id`` (the stream number of the oldest case),
        ``now`` (the window's current time, ``"-Infinity"`` before any),
        ``scores`` (arrival order; infinities as ``"Infinity"`` and
        ``"-Infinity"``), ``correct``, ``weights`` and ``times`` (lists or
        null), ``runs`` (the misses in the window: ``[key, count, positive]``,
        ``key`` the id of the next case or the time) and, with a positive
        label, ``pos_label``. No clock is read: query first to expire by the
        clock. :meth:`from_dict` gives a window that answers every query
        identically and keeps sliding as this one would.

        Examples
        --------
        >>> from scored_pr import WindowedEvaluation
        >>> w = WindowedEvaluation(size=2)
        >>> for correct, score in [(True, 0.9), (False, 0.8), (True, 0.7)]:
        ...     w.add_case(correct, score)
        >>> d = w.to_dict(); d["scores"], d["correct"], d["first_id"]
        ([0.8, 0.7], [False, True], 1)
        >>> WindowedEvaluation.from_dict(d) == w
        True
        """
        return _state.to_dict(self.__getstate__())

    @classmethod
    def from_dict(cls: type[_W], d: dict[str, Any], *, clock: Any = _state.SAVED) -> _W:
        """The window whose :meth:`to_dict` is ``d``; every field is validated first.

        Parameters
        ----------
        d : dict
            From :meth:`to_dict`.
        clock : callable or None, optional
            Time windows only: the clock of the restored window. Not given,
            a window saved on the default clock gets the default clock
            (``time.monotonic``; a monotonic clock's readings are comparable
            only on the machine, and boot, that took them) and one saved
            with ``clock=None`` none; a window saved with a clock of its own
            needs this argument. Ignored by size windows.

        Raises
        ------
        TypeError, ValueError
            If a field is missing, unexpected, of the wrong type or
            inconsistent (times out of order or outside the window, more
            items than ``size``, NaN scores), if ``d`` is another kind's state
            (the message names it), or if the window had a clock of its own
            and ``clock`` is not given. Nothing is built then.
        """
        if clock is not _state.SAVED:
            check_clock(clock, "from_dict")
        return cls._from_state(_state.from_dict(d, clock))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` as an uncompressed ``.npz`` (no pickle), atomically.

        About 8.1 bytes per case (scores as float64, correctness bits
        packed), 8 more per case with weights or times, 16 per run of misses,
        and a small JSON header. The write is atomic as for
        :meth:`ScoredPrecisionRecallEvaluation.save`. The clock is not saved
        (see :meth:`from_dict`).
        """
        _state.save(self.__getstate__(), path)

    @classmethod
    def load(cls: type[_W], path: str | os.PathLike[str], *, clock: Any = _state.SAVED) -> _W:
        """Read a window written by :meth:`save`, without pickle.

        ``clock`` is as for :meth:`from_dict`. Memory is bounded by the file:
        the header's counts fix every array's shape, checked before any data
        is read.

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        ValueError
            If the file is not a scored_pr state file, is corrupted or
            inconsistent, or holds another kind of state (the message names
            the kind found and the class whose ``load`` reads it).
        """
        if clock is not _state.SAVED:
            check_clock(clock, "load")
        return cls._from_state(_state.load(path, clock))

    @classmethod
    def _from_state(cls: type[_W], state: dict[str, Any]) -> _W:
        """The window of a validated plain state (from the state formats)."""
        window = cls.__new__(cls)
        window.__setstate__(state)
        return window

    def __copy__(self: _W) -> _W:
        other = type(self).__new__(type(self))
        other.__setstate__(self.__getstate__())
        return other

    def __deepcopy__(self: _W, memo: dict[int, Any]) -> _W:
        return self.__copy__()

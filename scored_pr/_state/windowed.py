"""State of a WindowedEvaluation as a JSON-safe dict, a pickle-free file, and for pickle.

The state is what every answer of a window depends on: its length (``size``
or ``seconds``), the tie policy and positive label, the cases in the window in
arrival order (score, correct, and the weight and time where there are any),
the misses still in it (runs of ``[key, count, positive]`` in arrival order,
``key`` the id of the next case in a size window or the time in a time
window), the id of the oldest case (``first_id``), the window's current time
(``now``) and which clock it runs on. A clock is a callable and is not saved:
the state records which kind it was (``"auto"``: the default clock, not yet
settled by a first item; ``"monotonic"``: ``time.monotonic``; ``"none"``:
explicit times only; ``"custom"``: a clock of the caller's), and loading gives
the window back its default clock, no clock, or the ``clock=`` passed to
``load``/``from_dict`` (required for ``"custom"``).

This module knows no evaluator class: it turns the window's plain state (the
dict of ``WindowedEvaluation.__getstate__``, with the clock as a marker) into
a dict or a file and back, checking everything on the way in, so a bad input
raises ValueError or TypeError and never yields a half-built window.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from . import statefile as _statefile
from .exact import _bad, _count, check_format_and_kind, check_pos_label, decode_bools, decode_numbers
from .._validation import TIE_POLICIES

FORMAT = "scored_pr.WindowedEvaluation"
VERSION = 1
CLOCKS = ("auto", "monotonic", "none", "custom")
#: The marker that stands for the default clock (``time.monotonic``) in a window's plain state.
DEFAULT_CLOCK = "default"
class _Saved:
    """``load``'s ``clock`` when not given: the window gets back the clock it was saved with."""

    def __repr__(self) -> str:
        return "<the saved clock>"


SAVED: Any = _Saved()

_SETTINGS = ("size", "seconds", "clock", "ties", "first_id", "now")
_KEYS = {"format", "kind", "version", *_SETTINGS, "scores", "correct", "weights", "times", "runs"}
_OPTIONAL = {"pos_label"}


def _encode(values: list[float]) -> list[Any]:
    return [v if math.isfinite(v) else ("Infinity" if v > 0 else "-Infinity") for v in values]


def clock_name(state: dict[str, Any]) -> str:
    """How a plain state's clock is saved (one of :data:`CLOCKS`)."""
    clock = state["clock"]
    if clock is None:
        return "none"
    if isinstance(clock, str) and clock == DEFAULT_CLOCK:
        return "auto" if state["clock_auto"] else "monotonic"
    return "custom"


def _settings(state: dict[str, Any]) -> dict[str, Any]:
    d: dict[str, Any] = {
        "format": FORMAT, "kind": "windowed", "version": VERSION, "size": state["size"],
        "seconds": state["seconds"], "clock": clock_name(state), "ties": state["ties"],
        "first_id": state["first_id"], "now": _encode([state["now"]])[0],
    }
    if state["pos_label"] is not None:
        d["pos_label"] = state["pos_label"]
    return d


def to_dict(state: dict[str, Any]) -> dict[str, Any]:
    """The JSON-safe dict of a window's plain state."""
    d = _settings(state)
    d["scores"] = _encode(state["scores"])
    d["correct"] = list(state["correct"])
    d["weights"] = None if state["weights"] is None else list(state["weights"])
    d["times"] = None if state["times"] is None else list(state["times"])
    d["runs"] = [[r[0], r[1], r[2]] for r in state["runs"]]
    return d


def _number(value: Any, func: str, name: str) -> float:
    if isinstance(value, str) and value in ("Infinity", "-Infinity"):
        return math.inf if value == "Infinity" else -math.inf
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{func}: field {name!r} must be a number; got {value!r:.60} instead.")
    return float(value)


def check(
    settings: dict[str, Any],
    scores: npt.NDArray[np.float64],
    correct: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.float64] | None,
    times: npt.NDArray[np.float64] | None,
    runs: list[Any],
    clock: Any,
    func: str,
) -> dict[str, Any]:
    """Validate a saved window; its plain state (``WindowedEvaluation.__setstate__``'s input)."""
    size, seconds = settings.get("size"), settings.get("seconds")
    if (size is None) == (seconds is None):
        raise _bad(func, f"exactly one of fields 'size' and 'seconds' must be set; got {size!r:.40} and {seconds!r:.40}.")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise _bad(func, f"field 'size' must be an int >= 1; got {size!r:.60} instead.")
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds <= 0
    ):
        raise _bad(func, f"field 'seconds' must be a finite number > 0; got {seconds!r:.60} instead.")
    ties = settings.get("ties")
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise _bad(func, f"field 'ties' must be one of {TIE_POLICIES}; got {ties!r:.60} instead.")
    pos_label = check_pos_label(settings.get("pos_label"), func)
    first_id = _count(settings.get("first_id"), func, "first_id")
    now = _number(settings.get("now"), func, "now")
    if math.isnan(now) or now == math.inf:
        raise _bad(func, f"field 'now' must be a finite time (or -Infinity before any); got {now!r}.")
    name = settings.get("clock")
    if not isinstance(name, str) or name not in CLOCKS:
        raise _bad(func, f"field 'clock' must be one of {CLOCKS}; got {name!r:.60} instead.")
    if size is not None and name != "none":
        raise _bad(func, f"a size window has no clock: field 'clock' must be 'none'; got {name!r}.")
    n = scores.size
    if scores.ndim != 1 or correct.shape != scores.shape:
        raise _bad(func, f"fields 'scores' and 'correct' must be lists of equal length; got {n} and {correct.size}.")
    if np.isnan(scores).any():
        raise _bad(func, f"field 'scores' must not hold NaN (index {int(np.argmax(np.isnan(scores)))}).")
    if weights is not None:
        bad = ~(np.isfinite(weights) & (weights >= 0.0))
        if weights.shape != scores.shape or bad.any():
            raise _bad(func, f"field 'weights' must be null or one finite weight >= 0 per case ({n}).")
    if (times is None) != (seconds is None):
        raise _bad(func, "field 'times' must be a list in a time window and null in a size window.")
    cutoff = now - seconds if seconds is not None else -math.inf
    if times is not None:
        ok = np.isfinite(times) & (times >= cutoff) & (times <= now)
        if times.shape != scores.shape or not ok.all() or (times[1:] < times[:-1]).any():
            raise _bad(func, f"field 'times' must hold one time per case ({n}), in order, within the window "
                             f"[now - seconds, now] = [{cutoff!r}, {now!r}].")
    if not isinstance(runs, list):
        raise TypeError(f"{func}: field 'runs' must be a list of [key, count, positive].")
    plain_runs: list[list[Any]] = []
    total = 0
    last = -math.inf
    for i, run in enumerate(runs):
        if not isinstance(run, (list, tuple)) or len(run) != 3 or not isinstance(run[2], (bool, np.bool_)):
            raise _bad(func, f"field 'runs' must hold [key, count, positive (bool)] triples; got {run!r:.60} at index {i}.")
        count = _count(run[1], func, "runs count")
        if count == 0:
            raise _bad(func, f"a run of misses must count at least one (index {i}).")
        key: Any = run[0]
        if size is not None:  # the id of the next case: from the oldest case in the window to one past the newest
            if isinstance(key, float) and key.is_integer():
                key = int(key)
            if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not first_id <= key <= first_id + n:
                raise _bad(func, f"a size window's run key must be a case id in [{first_id}, {first_id + n}]; "
                                 f"got {run[0]!r:.60} at index {i}.")
            key = int(key)
        else:
            key = _number(key, func, "runs key")
            if not (math.isfinite(key) and cutoff <= key <= now):
                raise _bad(func, f"a time window's run key must be a time in the window; got {key!r} at index {i}.")
        if key < last:
            raise _bad(func, f"the runs of misses must be in arrival order (index {i}).")
        last = key
        total += count
        plain_runs.append([key, count, bool(run[2])])
    if size is not None and n + total > size:
        raise _bad(func, f"holds {n} cases and {total} misses, more than its size {size}.")
    if name == "custom" and clock is SAVED:
        raise _bad(func, "the window was saved with a clock of its own, which a state cannot hold; pass "
                         "clock= (that clock, or None to run on explicit times).")
    if seconds is None:
        resolved, auto = None, False
    elif clock is not SAVED:
        resolved, auto = clock, False
    else:
        resolved = None if name == "none" else DEFAULT_CLOCK
        auto = name == "auto"
    if auto and (n or plain_runs):
        raise _bad(func, "field 'clock' is 'auto' (not settled by a first item) but the window holds items.")
    return {
        "size": size, "seconds": None if seconds is None else float(seconds), "clock": resolved,
        "clock_auto": auto, "ties": ties, "pos_label": pos_label, "first_id": first_id, "now": now,
        "scores": scores.tolist(), "correct": correct.tolist(),
        "weights": None if weights is None else weights.tolist(),
        "times": None if times is None else times.tolist(), "runs": plain_runs,
    }


def from_dict(d: Any, clock: Any = SAVED, func: str = "from_dict") -> dict[str, Any]:
    """The plain state of a dict from ``to_dict``, every field checked."""
    if not isinstance(d, dict):
        raise TypeError(f"{func}: argument 'd' must be a dict from to_dict(); got {type(d).__name__} instead.")
    if not _KEYS <= set(d) <= _KEYS | _OPTIONAL:
        missing, extra = sorted(_KEYS - set(d)), sorted(set(d) - _KEYS - _OPTIONAL)
        raise _bad(func, f"fields must be {sorted(_KEYS)} (optionally {sorted(_OPTIONAL)}); missing {missing}, unexpected {extra}.")
    check_format_and_kind(d, func, FORMAT, "windowed")
    if isinstance(d["version"], bool) or d["version"] != VERSION:
        raise _bad(func, f"field 'version' must be {VERSION}; got {d['version']!r:.60} instead.")
    scores = decode_numbers(d["scores"], func, "scores")
    correct = decode_bools(d["correct"], func, "correct")
    weights = None if d["weights"] is None else decode_numbers(d["weights"], func, "weights", nonfinite=False)
    times = None if d["times"] is None else decode_numbers(d["times"], func, "times", nonfinite=False)
    return check(d, scores, correct, weights, times, d["runs"], clock, func)


def save(state: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a window's plain state to ``path`` as an uncompressed ``.npz``, atomically."""
    meta = _settings(state)
    n, runs = len(state["scores"]), state["runs"]
    meta.update(num_cases=n, num_runs=len(runs), weighted=state["weights"] is not None)
    arrays: dict[str, np.ndarray] = {
        "meta": _statefile.encode_meta(meta),
        "scores": np.array(state["scores"], dtype=np.float64),
        "correct": np.packbits(np.array(state["correct"], dtype=bool)),
        # run keys are case ids (ints below 2**53, exact in float64) or times
        "run_keys": np.array([r[0] for r in runs], dtype=np.float64),
        "run_counts": np.array([r[1] for r in runs], dtype=np.int64),
        "run_positive": np.packbits(np.array([r[2] for r in runs], dtype=bool)),
    }
    if state["weights"] is not None:
        arrays["weights"] = np.array(state["weights"], dtype=np.float64)
    if state["times"] is not None:
        arrays["times"] = np.array(state["times"], dtype=np.float64)
    _statefile.write_npz(path, arrays)


@_statefile.file_reader
def load(path: str | os.PathLike[str], clock: Any = SAVED, func: str = "load") -> dict[str, Any]:
    """The plain state of a window saved at ``path``; memory bounded by the header's counts."""
    with _statefile.NpzReader(path, func) as npz:
        meta = _statefile.read_meta(npz, "windowed")
        if isinstance(meta.get("version"), bool) or meta.get("version") != VERSION:
            raise npz.error(f"has state format version {meta.get('version')!r:.60}; this scored_pr reads {VERSION}.")
        counts_of = {}
        for name in ("num_cases", "num_runs"):
            v = meta.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise npz.error(f"has an invalid {name} {v!r:.60}.")
            counts_of[name] = v
        n, m, weighted = counts_of["num_cases"], counts_of["num_runs"], meta.get("weighted")
        if not isinstance(weighted, bool):
            raise npz.error(f"has an invalid 'weighted' flag {weighted!r:.60}.")
        timed = meta.get("seconds") is not None
        expected = {"meta", "scores", "correct", "run_keys", "run_counts", "run_positive"}
        expected |= {"weights"} if weighted else set()
        expected |= {"times"} if timed else set()
        if npz.names != expected:
            raise npz.error(f"is not a scored_pr window state file (arrays {npz.listing}).")
        scores = npz.read("scores", np.float64, shape=(n,))
        correct = np.unpackbits(npz.read("correct", np.uint8, shape=((n + 7) // 8,)), count=n).astype(bool)
        weights = npz.read("weights", np.float64, shape=(n,)) if weighted else None
        times = npz.read("times", np.float64, shape=(n,)) if timed else None
        keys = npz.read("run_keys", np.float64, shape=(m,))
        counts = npz.read("run_counts", np.int64, shape=(m,))
        positive = np.unpackbits(npz.read("run_positive", np.uint8, shape=((m + 7) // 8,)), count=m).astype(bool)
    runs = [[k, c, p] for k, c, p in zip(keys.tolist(), counts.tolist(), positive.tolist())]
    return check(meta, scores, correct, weights, times, runs, clock, func)


def pickle_clock(clock: Callable[[], float] | None, default: Any) -> Any:
    """A window's clock as pickled: the default clock by a marker, so no pickle names a private function."""
    return DEFAULT_CLOCK if clock is default else clock


def unpickle_clock(clock: Any, default: Any) -> Any:
    """The clock of a pickled state: the marker (or 0.1.0's reference to the default clock) is the default clock."""
    return default if isinstance(clock, str) and clock == DEFAULT_CLOCK else clock

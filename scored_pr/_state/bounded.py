"""State of a BoundedEvaluation as a JSON-safe dict, a pickle-free file, and for pickle.

The state is the bins (score ranges and the weight of each class in them),
the counters, the budget, the positive label and (version 2) the calibration
sums (:mod:`scored_pr._core.calibration_sums`). A version 1 state (scored_pr
0.1.0) has no calibration sums: it loads with ``calibration_bins`` 15 and,
when it holds cases, no sums (the calibration queries refuse, saying so). Every loader validates
everything before it builds anything: a bad input raises ValueError or
TypeError and never yields a half-built summary.

This module knows no evaluator class: it checks a :class:`BoundedState` (the
bins and counters as plain arrays and numbers) on the way in and out; the
summary gives its state (``BoundedEvaluation._state``) and builds itself from
one (``_from_state``). :func:`restore` is the name pickles of scored_pr 0.1.0
call, kept for them.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._core import bins as B
from .._core import calibration_sums as CS
from .._kinds import state_hooks
from . import statefile as _statefile
from .exact import _bad, _count, check_pos_label, decode_numbers  # the evaluator's state checks, shared

#: Largest bin budget (a summary of 2**24 bins is already 512 MiB).
MAX_BINS = 1 << 24

#: Largest number of calibration bins (their sums take 160 bytes a bin).
MAX_CALIBRATION_BINS = 1 << 16
#: The calibration bins of a state written before summaries kept calibration sums (version 1).
DEFAULT_CALIBRATION_BINS = 15

FORMAT = "scored_pr.BoundedEvaluation"
#: The version written when the state holds calibration sums (or no calibration bins); a state
#: without sums and with the default 15 bins (one loaded from 0.1.0) is written as version 1, as then.
VERSION = 2
_VERSIONS = (1, 2)
_KEYS = {"format", "version", "max_bins", "hi", "lo", "pos", "neg", "level", "num_cases", "num_correct",
         "misses", "negative_misses", "weighted"}
_OPTIONAL = {"pos_label"}
_ARRAYS = ("hi", "lo", "pos", "neg", "level")
#: Version 2's header fields: the bin count (None: not kept), whether the sums are kept, the first score outside [0, 1].
_CAL_KEYS = {"calibration_bins", "calibration"}
_CAL_OPTIONAL = {"calibration_bad"}
#: Version 2's calibration arrays (when kept): per cell (2 * calibration_bins + 1), and the three totals.
_CAL_ARRAYS = ("calibration_weight", "calibration_positive", "calibration_score", "calibration_square",
               "calibration_totals")


class BoundedState(NamedTuple):
    """Everything a bounded summary's answers depend on, as plain data."""

    max_bins: int
    bins: B.Bins
    num_cases: int
    num_correct: int
    misses: int
    negative_misses: int
    weighted: bool
    pos_label: Any = None
    calibration_bins: int | None = DEFAULT_CALIBRATION_BINS
    calibration: CS.CalibrationSums | None = None


def check(meta: dict[str, Any], arrays: dict[str, npt.NDArray[np.float64]], func: str) -> BoundedState:
    """Validate a state (header fields and the bin arrays); the state they make."""
    max_bins = meta.get("max_bins")
    if isinstance(max_bins, bool) or not isinstance(max_bins, int) or not 1 <= max_bins <= MAX_BINS:
        raise _bad(func, f"field 'max_bins' must be an int between 1 and {MAX_BINS}; got {max_bins!r:.60} instead.")
    weighted = meta.get("weighted")
    if not isinstance(weighted, bool):
        raise TypeError(f"{func}: field 'weighted' must be a bool; got {weighted!r:.60} instead.")
    pos_label = check_pos_label(meta.get("pos_label"), func)
    num_cases = _count(meta.get("num_cases"), func, "num_cases")
    num_correct = _count(meta.get("num_correct"), func, "num_correct")
    misses = _count(meta.get("misses"), func, "misses")
    negative_misses = _count(meta.get("negative_misses"), func, "negative_misses")
    if num_correct > num_cases:
        raise _bad(func, f"field 'num_correct' ({num_correct}) exceeds 'num_cases' ({num_cases}).")
    hi, lo, pos, neg, level = (arrays[k] for k in _ARRAYS)
    n = hi.size
    if any(a.ndim != 1 or a.size != n for a in (hi, lo, pos, neg, level)):
        raise _bad(func, "fields 'hi', 'lo', 'pos', 'neg' and 'level' must be 1-dimensional of equal length.")
    if n > max_bins:
        raise _bad(func, f"holds {n} bins, more than its max_bins {max_bins}.")
    if np.isnan(hi).any() or np.isnan(lo).any():
        raise _bad(func, "bin scores must not be NaN.")
    if not (lo <= hi).all() or not (hi[1:] < lo[:-1]).all():
        raise _bad(func, "bins must be disjoint score ranges in descending order (hi >= lo > next hi).")
    if not ((level >= 0) & (level <= 64) & (level == np.floor(level))).all():
        raise _bad(func, "bin levels must be whole numbers between 0 and 64.")
    lv = level.astype(np.int64)
    if not (lo[lv == 0] == hi[lv == 0]).all():
        raise _bad(func, "a bin of level 0 must hold one score (lo == hi).")
    bins = B.make(hi + 0.0, lo + 0.0, pos.astype(np.float64), neg.astype(np.float64), lv)
    start, end = B.blocks(bins)
    if not (B.keys(bins.hi) <= end).all() or not (end[1:] < start[:-1]).all():
        raise _bad(func, "bin blocks must hold their scores and be disjoint in descending order.")
    counts = np.concatenate((pos, neg))
    if not (np.isfinite(counts) & (counts >= 0.0)).all() or not (pos + neg > 0.0).all():
        raise _bad(func, "bin weights must be finite and >= 0, with some weight in every bin.")
    if not weighted:
        if not (counts == np.floor(counts)).all():
            raise _bad(func, "an unweighted summary must hold whole counts.")
        if float(pos.sum()) != num_correct or float(pos.sum() + neg.sum()) != num_cases:
            raise _bad(func, "the bin counts disagree with 'num_cases' and 'num_correct'.")
    calibration_bins, calibration = _check_calibration(meta, arrays, func)
    return BoundedState(
        max_bins, bins, num_cases, num_correct, misses, negative_misses, weighted, pos_label, calibration_bins,
        calibration,
    )


def _check_calibration(
    meta: dict[str, Any], arrays: dict[str, npt.NDArray[np.float64]], func: str
) -> tuple[int | None, CS.CalibrationSums | None]:
    """The calibration bin count and sums of a state; a version 1 state has neither (15 bins, no sums)."""
    if meta.get("version") == 1:
        return DEFAULT_CALIBRATION_BINS, None
    n = meta.get("calibration_bins")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_CALIBRATION_BINS):
        raise _bad(func, f"field 'calibration_bins' must be null or an int between 1 and {MAX_CALIBRATION_BINS}; "
                   f"got {n!r:.60} instead.")  # fmt: skip
    kept = meta.get("calibration")
    if not isinstance(kept, bool) or (kept and n is None):
        raise _bad(func, f"field 'calibration' must be a bool (false when 'calibration_bins' is null); got {kept!r:.60} instead.")
    if not kept:
        return n, None
    assert n is not None
    bad = meta.get("calibration_bad")
    if bad is not None:
        if isinstance(bad, str) and bad in ("Infinity", "-Infinity"):
            bad = math.inf if bad == "Infinity" else -math.inf
        if isinstance(bad, bool) or not isinstance(bad, (int, float)) or 0.0 <= bad <= 1.0 or bad != bad:
            raise _bad(func, f"field 'calibration_bad' must be a score outside [0, 1]; got {bad!r:.60} instead.")
        bad = float(bad)
    cells = [arrays[k] for k in _CAL_ARRAYS]
    if any(a.shape != (2 * n + 1,) for a in cells[:4]) or cells[4].shape != (3,):
        raise _bad(func, f"the calibration arrays must hold {2 * n + 1} cells (and 3 totals).")
    # squared weights may overflow to +inf (weights up to 2**970), as the exact evaluator's do
    if not all(np.isfinite(a).all() for a in cells if a is not cells[3]) or np.isnan(cells[3]).any():
        raise _bad(func, "the calibration sums must be finite (the squared weights may be +inf).")
    weight, positive, score, square, totals = cells
    if (weight < 0).any() or (positive < 0).any() or (score < 0).any() or (square < 0).any() or totals[0] < 0 \
            or totals[1] < 0 or totals[2] > 0:  # fmt: skip
        raise _bad(func, "the calibration sums must be >= 0 (the log terms <= 0).")
    return n, CS.CalibrationSums(n, weight + 0.0, positive + 0.0, score + 0.0, square + 0.0, totals + 0.0, bad)


def _calibration_meta(st: BoundedState) -> dict[str, Any]:
    cal = st.calibration
    meta: dict[str, Any] = {"calibration_bins": st.calibration_bins, "calibration": cal is not None}
    if cal is not None and cal.bad is not None:
        meta["calibration_bad"] = _encode(np.array([cal.bad]))[0]
    return meta


def _calibration_arrays(st: BoundedState) -> dict[str, npt.NDArray[np.float64]]:
    cal = st.calibration
    if cal is None:
        return {}
    return dict(zip(_CAL_ARRAYS, (cal.weight, cal.positive, cal.score, cal.square, cal.totals)))


def _version_of(st: BoundedState) -> int:
    """1 for a state without calibration sums and with the default bin count (what 0.1.0 wrote and reads), else 2."""
    return 1 if st.calibration is None and st.calibration_bins == DEFAULT_CALIBRATION_BINS else VERSION


def _meta(st: BoundedState) -> dict[str, Any]:
    version = _version_of(st)
    meta: dict[str, Any] = {
        "format": FORMAT, "version": version, "max_bins": st.max_bins, "num_cases": st.num_cases,
        "num_correct": st.num_correct, "misses": st.misses, "negative_misses": st.negative_misses,
        "weighted": st.weighted, **(_calibration_meta(st) if version == 2 else {}),
    }
    if st.pos_label is not None:
        meta["pos_label"] = st.pos_label
    return meta


def _encode(values: npt.NDArray[np.float64]) -> list[Any]:
    return [v if math.isfinite(v) else ("Infinity" if v > 0 else "-Infinity") for v in values.tolist()]


def to_dict(st: BoundedState) -> dict[str, Any]:
    d = _meta(st)
    b = st.bins
    d.update(hi=_encode(b.hi), lo=_encode(b.lo), pos=b.pos.tolist(), neg=b.neg.tolist(), level=b.level.tolist())
    d.update({k: _encode(a) for k, a in _calibration_arrays(st).items()})
    return d


def from_dict(d: Any, func: str = "from_dict") -> BoundedState:
    if not isinstance(d, dict):
        raise TypeError(f"{func}: argument 'd' must be a dict from to_dict(); got {type(d).__name__} instead.")
    version = d.get("version")
    if isinstance(version, bool) or version not in _VERSIONS:
        raise _bad(func, f"field 'version' must be one of {_VERSIONS}; got {version!r:.60} instead.")
    keys, optional = _KEYS, _OPTIONAL
    if version == 2:
        keys = keys | _CAL_KEYS
        optional = optional | _CAL_OPTIONAL | (set(_CAL_ARRAYS) if d.get("calibration") is True else set())
    if not keys <= set(d) <= keys | optional:
        missing, extra = sorted(keys - set(d)), sorted(set(d) - keys - optional)
        raise _bad(func, f"fields must be {sorted(keys)} (optionally {sorted(optional)}); missing {missing}, unexpected {extra}.")
    if d["format"] != FORMAT:
        raise _bad(func, f"field 'format' must be {FORMAT!r}; got {d['format']!r:.60} instead.")
    names = _ARRAYS + (_CAL_ARRAYS if version == 2 and d.get("calibration") is True else ())
    missing_arrays = [k for k in names if k not in d]
    if missing_arrays:
        raise _bad(func, f"fields {missing_arrays} are missing.")
    arrays = {k: decode_numbers(d[k], func, k, nonfinite=k in ("hi", "lo", "calibration_square")) for k in names}
    return check(d, arrays, func)


def _count_dtype(st: BoundedState) -> str:
    """The narrowest exact dtype for the bin weights: whole counts fit uint32 or uint64."""
    if st.weighted:
        return "float64"
    top = max(float(st.bins.pos.max(initial=0.0)), float(st.bins.neg.max(initial=0.0)))
    return "uint32" if top < 2**32 else "uint64"


def pack(st: BoundedState) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The compact binary state: header fields and arrays.

    ``hi`` (float64, one per bin), ``exact`` (one bit per bin, packed),
    ``lo`` (float64) and ``level`` (uint8), one per range bin only, and
    ``pos``/``neg`` as uint32 (unweighted, counts below 2**32), uint64 or
    float64 (weighted): 25 bytes per range bin unweighted, 33 weighted.
    """
    b = st.bins
    meta = _meta(st)
    exact = b.lo == b.hi
    dtype = _count_dtype(st)
    meta.update(num_bins=int(b.hi.size), num_range=int(np.count_nonzero(~exact)), count_dtype=dtype)
    arrays = {
        "hi": b.hi, "lo": b.lo[~exact], "level": b.level[~exact].astype(np.uint8), "exact": np.packbits(exact),
        "pos": b.pos.astype(dtype), "neg": b.neg.astype(dtype), **_calibration_arrays(st),
    }
    return meta, arrays


_PACKED = {"hi", "lo", "level", "exact", "pos", "neg"}
_DTYPES = ("uint32", "uint64", "float64")


def unpack(meta: dict[str, Any], read: Any, func: str) -> dict[str, npt.NDArray[np.float64]]:
    """The four bin arrays from a packed state; ``read(name, dtype, shape)`` returns one array.

    The header's counts fix every array's shape and dtype before it is read.
    """
    n, m, dtype = meta.pop("num_bins", None), meta.pop("num_range", None), meta.pop("count_dtype", None)
    for name, v in (("num_bins", n), ("num_range", m)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise _bad(func, f"the state has an invalid {name} {v!r:.60}.")
    max_bins = meta.get("max_bins")
    if not isinstance(max_bins, int) or n > max_bins or m > n:
        raise _bad(func, f"the state's bin counts ({n!r:.30}, {m!r:.30}) exceed its max_bins {max_bins!r:.30}.")
    if dtype not in _DTYPES or (dtype == "float64") != (meta.get("weighted") is True):
        raise _bad(func, f"the state has an invalid count dtype {dtype!r:.60}.")
    hi = read("hi", np.float64, (n,))
    exact = np.unpackbits(read("exact", np.uint8, ((n + 7) // 8,)), count=n).astype(bool)
    if int(np.count_nonzero(~exact)) != m:
        raise _bad(func, "the state's exactness bits disagree with its number of range bins.")
    lo = hi.copy()
    lo[~exact] = read("lo", np.float64, (m,))
    level = np.zeros(n, dtype=np.float64)
    level[~exact] = read("level", np.uint8, (m,))
    pos = read("pos", np.dtype(dtype), (n,)).astype(np.float64)
    neg = read("neg", np.dtype(dtype), (n,)).astype(np.float64)
    out = {"hi": hi, "lo": lo, "pos": pos, "neg": neg, "level": level}
    if _has_calibration_arrays(meta, func):
        cells = 2 * int(meta["calibration_bins"]) + 1
        for name in _CAL_ARRAYS:
            out[name] = read(name, np.float64, (3,) if name == "calibration_totals" else (cells,))
    return out


def _has_calibration_arrays(meta: dict[str, Any], func: str) -> bool:
    """Whether a packed state holds the calibration arrays (version 2, kept), after checking the count that shapes them."""
    if meta.get("version") != 2 or meta.get("calibration") is not True:
        return False
    n = meta.get("calibration_bins")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_CALIBRATION_BINS:
        raise _bad(func, f"field 'calibration_bins' must be an int between 1 and {MAX_CALIBRATION_BINS}; got {n!r:.60} instead.")
    return True


def save(st: BoundedState, path: str | os.PathLike[str]) -> None:
    meta, arrays = pack(st)
    arrays["meta"] = _statefile.encode_meta({**meta, "kind": "bounded"})
    _statefile.write_npz(path, arrays)


@_statefile.file_reader
def load(path: str | os.PathLike[str], func: str = "load") -> BoundedState:
    with _statefile.NpzReader(path, func) as npz:
        meta = _statefile.read_meta(npz, "bounded")
        meta.pop("kind", None)
        if isinstance(meta.get("version"), bool) or meta.get("version") not in _VERSIONS:
            raise npz.error(f"has state format version {meta.get('version')!r:.60}; this scored_pr reads {_VERSIONS}.")
        with_sums = meta.get("version") == 2 and meta.get("calibration") is True
        if npz.names != {"meta", *_PACKED, *(_CAL_ARRAYS if with_sums else ())}:
            raise npz.error(f"is not a scored_pr summary state file (arrays {npz.listing}).")
        try:
            arrays = unpack(meta, lambda name, dtype, shape: npz.read(name, dtype, shape=shape), func)
        except ValueError as exc:
            raise npz.error(str(exc).split(": ", 1)[-1]) from None
    return check(meta, arrays, func)


def pickle_state(st: BoundedState) -> dict[str, Any]:
    meta, arrays = pack(st)
    meta.update(arrays)
    return meta


def from_pickle(state: Any, func: str = "unpickle") -> BoundedState:
    """The state of a pickled state dict (validated like every other loader)."""
    keys = _KEYS - set(_ARRAYS) | _PACKED | {"num_bins", "num_range", "count_dtype"}
    optional = _OPTIONAL
    if isinstance(state, dict) and state.get("version") == 2:
        keys = keys | _CAL_KEYS
        optional = optional | _CAL_OPTIONAL | (set(_CAL_ARRAYS) if state.get("calibration") is True else set())
    if not isinstance(state, dict) or not keys <= set(state) <= keys | optional:
        raise _bad(func, "the pickled state is not a scored_pr BoundedEvaluation's.")
    if state["format"] != FORMAT or isinstance(state["version"], bool) or state["version"] not in _VERSIONS:
        raise _bad(func, f"the pickled state has format {state['format']!r:.60} version {state['version']!r:.60}.")
    state = dict(state)

    def read(name: str, dtype: Any, shape: tuple[int, ...]) -> np.ndarray:
        a = state.pop(name)
        if not isinstance(a, np.ndarray) or a.dtype != np.dtype(dtype) or a.shape != shape:
            raise _bad(func, f"the pickled array {name!r} is not {np.dtype(dtype)} of shape {shape}.")
        return a

    arrays = unpack(state, read, func)
    return check(state, arrays, func)


def restore(cls: Any, state: Any) -> Any:
    """The unpickling entry point of scored_pr 0.1.0's pickles: ``cls`` built from ``state``."""
    return state_hooks(cls)[1](cls, from_pickle(state))

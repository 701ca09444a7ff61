"""Every slice's ``summary()`` at once for the exact kind: one segmented pass instead of one evaluator query per slice.

:class:`~scored_pr.SlicedEvaluation` asks :func:`summaries` for the table and
the nested summary. The slices' ranked cases are laid end to end (each slice
already in rank order, so the whole is ordered by (slice, score)) and
:func:`scored_pr._core.segmented.segment_summaries` computes every measure of
the measure table for all of them from cumulative counts over that one
array. The values equal each slice's own ``summary()`` bit for bit
(``tests/evaluators/test_sliced_table.py``, ``tests/core/test_segmented.py``);
a slice holding sample weights or more than :data:`KERNEL_MAX_CASES` cases
(where its own summary is faster) takes its own ``summary()``, and a
measure the kernel does not know sends every slice to its own ``summary()``.
For the one store of the exact kind (:func:`segment_summaries_of`) the
calibration entries of every slice come from one vectorised pass too
(:func:`scored_pr._core.calibration.segment_calibration`), equal bit for bit;
when the store hands (slice, score) groups instead of ranked cases
(``Segments.groups``: rounded scores), both passes take the groups.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numpy as np
import numpy.typing as npt

from .._core import calibration as K
from .._core.segmented import segment_group_summaries, segment_summaries
from .._measures import MEASURES, REPORT_RANKS

__all__ = ["Groups", "Segments", "segment_summaries_of", "summaries"]


#: Summary keys the kernel computes under another name (equal by definition, see ``pr_breakeven_point``).
_SAME = {"pr_breakeven_point": "r_precision"}


#: Cases above which a slice's own ``summary()`` is the faster route: an evaluator's summary
#: costs a few milliseconds of fixed work plus about 0.05 microseconds per case (its untied fast
#: paths), the kernel about 0.15-0.3 microseconds per case and no fixed cost per slice
#: (``benchmarks/bench_sliced.py``); both give the same values.
KERNEL_MAX_CASES = 32_768


def summaries(evaluators: list[Any], ties: str, memo: dict[str, Any]) -> list[dict[str, Any]]:
    """``[ev.summary() for ev in evaluators]`` of exact evaluators sharing the tie policy ``ties``, computed at once.

    O(n + S) numpy work for n cases in S slices (the slices' sorted arrays
    are read, not re-sorted), against S separate summaries of a few
    milliseconds of fixed cost each. ``memo`` (a dict the caller keeps)
    holds the last result with the ranked-case arrays it was computed
    from: while no slice has changed (every evaluator returns the same
    array objects, which the memo keeps alive), the rows are returned
    again, as each evaluator's own summary is cached. A slice with sample
    weights, or of more than :data:`KERNEL_MAX_CASES` cases, answers with
    its own ``summary()``.
    """
    ranked = [ev.ranked_cases() for ev in evaluators]
    stamp = [(r[1], ev.num_misses, ev.num_negative_misses) for r, ev in zip(ranked, evaluators)]
    old = memo.get("stamp")
    if old is not None and len(old) == len(stamp) and all(
        a[0] is b[0] and a[1:] == b[1:] for a, b in zip(old, stamp)
    ):
        return [dict(row) for row in memo["rows"]]
    rows = _compute(evaluators, ranked, ties)
    memo["stamp"], memo["rows"] = stamp, rows
    return [dict(row) for row in rows]


def _kernel_rows(neg: Any, correct: Any, offsets: Any, misses: Any, negative_misses: Any,
                 ties: str, groups: Groups | None = None) -> list[dict[str, Any]] | None:
    """Each segment's summary entries but the calibration ones (None: a measure the kernel does not compute)."""
    if groups is not None:
        table = segment_group_summaries(groups.counts, groups.positives, groups.offsets, misses, negative_misses,
                                        REPORT_RANKS)
    else:
        table = segment_summaries(neg, correct, offsets, misses, negative_misses, ties, REPORT_RANKS)
    columns: list[tuple[str, list[Any]]] = []
    for m in MEASURES:
        if not m.summary or m.applies != "always":  # the calibration entries: per slice, by the caller
            continue
        for name in m.keys():
            key = _SAME.get(name, name)
            if key not in table:
                return None
            columns.append((name, table[key].tolist()))
    return [{name: values[row] for name, values in columns} for row in range(offsets.size - 1)]


def _calibration(ev: Any) -> dict[str, Any]:
    """The entries that apply to some evaluators only (calibration: every score in [0, 1]), as its summary() has them."""
    return {m.name: m.compute(ev) for m in MEASURES if m.summary and m.applies != "always" and m.applies_to(ev)}


#: The calibration entries of ``summary()`` as the exact evaluator computes them (its methods' defaults:
#: 15 uniform bins, l1), for every segment at once: name -> its position in ``K.segment_calibration``'s
#: result. ``tests/evaluators/test_sliced_table.py`` holds them equal to each slice's own ``summary()``.
_CALIBRATION = {"expected_calibration_error": 0, "brier_score": 1}
_CALIBRATION_BINS = 15


def _compute(evaluators: list[Any], ranked: list[Any], ties: str) -> list[dict[str, Any]]:
    plain = [i for i, ev in enumerate(evaluators) if not ev.weighted and ranked[i][1].size <= KERNEL_MAX_CASES]
    out: list[dict[str, Any] | None] = [None] * len(evaluators)
    if len(plain) > 1:
        negs, cors, sizes, misses, negative_misses = [], [], [], [], []
        for i in plain:
            ev = evaluators[i]
            scores, correct, _ = ranked[i]
            negs.append(np.negative(scores))
            cors.append(correct)
            sizes.append(correct.size)
            misses.append(ev.num_misses)
            negative_misses.append(ev.num_negative_misses)
        offsets = np.zeros(len(plain) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        rows = _kernel_rows(np.concatenate(negs), np.concatenate(cors), offsets, np.asarray(misses, dtype=np.int64),
                            np.asarray(negative_misses, dtype=np.int64), ties)
        if rows is None:  # a measure the kernel does not compute: every slice answers itself
            return [ev.summary() for ev in evaluators]
        for row, i in enumerate(plain):
            rows[row].update(_calibration(evaluators[i]))  # after the others, as summary() puts them
            out[i] = rows[row]
    return [ev.summary() if s is None else s for ev, s in zip(evaluators, out)]


class Groups(NamedTuple):
    """Every slice's cases as groups of one score (grouped ties, no weights): see ``segment_group_summaries``."""

    neg: npt.NDArray[np.float64]  # each group's negated score; a slice's groups ascending
    counts: npt.NDArray[np.int64]
    positives: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]  # slice s's groups: [offsets[s], offsets[s + 1])


class Segments(NamedTuple):
    """Every slice's ranked cases end to end (see ``segment_order``), its offsets and its misses."""

    seg_neg: npt.NDArray[np.float64]
    seg_c: npt.NDArray[np.bool_]
    seg_w: npt.NDArray[np.float64] | None
    offsets: npt.NDArray[np.int64]
    misses: npt.NDArray[np.int64]
    negative_misses: npt.NDArray[np.int64]
    #: every case ranked (negated scores, correct, weights or None): the overall slice's, when it is kept
    overall: tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.float64] | None] | None = None
    #: every slice's groups of equal scores, the overall slice's too (then ``seg_neg`` and ``seg_c`` are empty
    #: and ``overall`` None: only the groups are read)
    groups: Groups | None = None


def segment_summaries_of(seg: Segments, ties: str, make: Callable[[int, bool], Any],
                         overall: int | None) -> list[dict[str, Any]]:
    """Every slice's ``summary()`` from the store's segments, without an evaluator per slice.

    The overall slice (``overall``, its id) and the slices holding a weight
    other than 1 answer with their own evaluator's ``summary()`` (``make(sid,
    ranked)`` makes it); every other entry from one segmented pass
    (:func:`scored_pr._core.segmented.segment_summaries`) and, where a
    slice's scores are probabilities, the calibration entries from one
    vectorised pass over every slice
    (:func:`scored_pr._core.calibration.segment_calibration`). Each value
    equals the slice's own ``summary()`` bit for bit (the calibration sums
    too: numpy's pairwise summation is followed run by run). O(n) numpy
    work beyond the ranking, whatever the number of slices.
    """
    offsets = seg.offsets
    count = offsets.size - 1
    own = np.zeros(count, dtype=bool)
    if overall is not None and seg.groups is None:  # (the groups hold the overall slice's too)
        own[overall] = True
    if seg.seg_w is not None:
        seg_of = np.repeat(np.arange(count, dtype=np.int64), np.diff(offsets))
        own |= np.bincount(seg_of[seg.seg_w != 1.0], minlength=count) > 0
    grp = seg.groups
    rows = _kernel_rows(seg.seg_neg, seg.seg_c, offsets, seg.misses, seg.negative_misses, ties, grp)
    def ranked(sid: int) -> bool:  # the segments hold the slice's ranked cases (not with groups)
        return grp is None

    if rows is None:
        return [make(sid, ranked(sid)).summary() for sid in range(count)]
    neg, sizes = seg.seg_neg, np.diff(offsets)
    if grp is not None:  # a slice's lowest and highest scores are those of its last and first groups
        neg, offsets = grp.neg, grp.offsets
    full = sizes > 0
    # a segment's scores are probabilities when its lowest and highest lie in [0, 1] (-0.0 >= 0.0)
    lowest = np.where(full, -neg[np.maximum(offsets[1:] - 1, 0)] if neg.size else 0.0, -1.0)
    highest = np.where(full, -neg[np.minimum(offsets[:-1], max(neg.size - 1, 0))] if neg.size else 0.0, 2.0)
    probabilities = full & (lowest >= 0.0) & (highest <= 1.0) & ~own
    values: list[list[float]] | None = None
    if probabilities.any() and all(m.name in _CALIBRATION for m in _CALIBRATED):
        # every segment's calibration entries in one pass (equal to each slice's own, bit for bit)
        values = [a.tolist() for a in (
            K.segment_calibration(neg, seg.seg_c, offsets, _CALIBRATION_BINS) if grp is None
            else K.segment_group_calibration(grp.neg, grp.counts, grp.positives, grp.offsets, _CALIBRATION_BINS))]
    for sid in range(count):
        if own[sid]:
            rows[sid] = make(sid, ranked(sid)).summary()
        elif probabilities[sid]:  # the calibration entries
            if values is not None:
                rows[sid].update((m.name, values[_CALIBRATION[m.name]][sid]) for m in _CALIBRATED)
            else:  # pragma: no cover (a calibration entry added to the table and not above)
                rows[sid].update(_calibration(make(sid, ranked(sid))))
    return rows


_CALIBRATED = tuple(m for m in MEASURES if m.summary and m.applies != "always")

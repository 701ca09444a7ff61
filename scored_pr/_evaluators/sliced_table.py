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
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.segmented import segment_summaries
from .._measures import MEASURES, REPORT_RANKS

__all__ = ["summaries"]


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
        table = segment_summaries(
            np.concatenate(negs), np.concatenate(cors), offsets, np.asarray(misses, dtype=np.int64),
            np.asarray(negative_misses, dtype=np.int64), ties, REPORT_RANKS,
        )  # fmt: skip
        columns: list[tuple[str, list[Any]]] = []
        for m in MEASURES:
            if not m.summary or m.applies != "always":  # the calibration entries: below, per slice
                continue
            for name in m.keys():
                key = _SAME.get(name, name)
                if key not in table:  # a measure the kernel does not compute: every slice answers itself
                    return [ev.summary() for ev in evaluators]
                columns.append((name, table[key].tolist()))
        for row, i in enumerate(plain):
            ev = evaluators[i]
            row_values = {name: values[row] for name, values in columns}
            # the entries that apply to some evaluators only (calibration: every score in [0, 1]), after
            # the others, as the evaluator's own summary() puts them
            row_values.update((m.name, m.compute(ev)) for m in MEASURES
                              if m.summary and m.applies != "always" and m.applies_to(ev))
            out[i] = row_values
    return [ev.summary() if s is None else s for ev, s in zip(evaluators, out)]

"""Every slice's ``summary()`` at once for the exact kind: one segmented pass instead of one evaluator query per slice.

:class:`~scored_pr.SlicedEvaluation` asks :func:`summaries` for the table and
the nested summary. The slices' ranked cases are laid end to end (each slice
already in rank order, so the whole is ordered by (slice, score)) and
:func:`scored_pr._core.segmented.segment_summaries` computes every measure of
the measure table for all of them from cumulative counts over that one
array. The values equal each slice's own ``summary()`` bit for bit
(``tests/evaluators/test_sliced_table.py``); a slice holding sample weights
takes its own ``summary()``, and a measure the kernel does not know sends
every slice to its own ``summary()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.segmented import segment_summaries
from .._measures import MEASURES, REPORT_RANKS

__all__ = ["summaries"]


#: Summary keys the kernel computes under another name (equal by definition, see ``pr_breakeven_point``).
_SAME = {"pr_breakeven_point": "r_precision"}


def summaries(evaluators: list[Any], ties: str) -> list[dict[str, Any]]:
    """``[ev.summary() for ev in evaluators]`` of exact evaluators sharing the tie policy ``ties``, computed at once.

    O(n + S) numpy work for n cases in S slices (the slices' sorted arrays
    are read, not re-sorted), against S separate summaries of a few
    milliseconds of fixed cost each.
    """
    plain = [i for i, ev in enumerate(evaluators) if not ev.weighted]
    out: list[dict[str, Any] | None] = [None] * len(evaluators)
    if plain:
        negs, cors, sizes, misses, negative_misses = [], [], [], [], []
        for i in plain:
            ev = evaluators[i]
            scores, correct, _ = ev.ranked_cases()
            negs.append(np.negative(scores))
            cors.append(correct)
            sizes.append(correct.size)
            misses.append(ev.num_misses)
            negative_misses.append(ev.num_negative_misses)
        offsets = np.zeros(len(plain) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        table = segment_summaries(
            np.concatenate(negs) if negs else np.zeros(0), np.concatenate(cors) if cors else np.zeros(0, dtype=bool),
            offsets, np.asarray(misses, dtype=np.int64), np.asarray(negative_misses, dtype=np.int64), ties,
            REPORT_RANKS,
        )  # fmt: skip
        columns: list[tuple[str, list[Any]]] = []
        for m in MEASURES:
            if not m.summary:
                continue
            for name in m.keys():
                key = _SAME.get(name, name)
                if key not in table:  # a measure the kernel does not compute: every slice answers itself
                    return [ev.summary() for ev in evaluators]
                columns.append((name, table[key].tolist()))
        for row, i in enumerate(plain):
            out[i] = {name: values[row] for name, values in columns}
    return [ev.summary() if s is None else s for ev, s in zip(evaluators, out)]

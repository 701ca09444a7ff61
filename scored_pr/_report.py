"""Text output: the evaluation report and the PR-curve table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from ._measures import BEP_LABEL, MEASURES, REPORT_LINES, REPORT_RANKS, by_name
from ._validation import check_curve_rows

if TYPE_CHECKING:
    from ._kinds import Evaluation

__all__ = ["BEP_LABEL", "REPORT_RANKS", "curve_rows", "print_curve", "report", "table_rows"]


def report(ev: Evaluation) -> str:
    """LingPipe's report lines plus counts; the break-even point line is also R-precision.

    Unlike LingPipe 3.9.2 (whose inverted loop condition prints the
    precision-at lines only when they are NaN), the lines ``Precision at k``
    appear for every k in (5, 10, 25, 100, 500) with k <= num_cases. The
    break-even point and R-precision coincide by definition (see
    ``pr_breakeven_point``), so one line, labelled :data:`BEP_LABEL`, gives
    both. Numbers are Python's shortest round-trip ``repr``.
    ``scored_pr.lingpipe`` keeps LingPipe's own ``toString()`` text.
    """
    lines = [f"  Tie Policy={ev.ties}"]
    if ev.pos_label is not None:
        lines.append(f"  Positive Label={ev.pos_label!r}")
    lines += [
        f"  Number of Cases={ev.num_cases}",
        f"  Positive Reference Cases={ev.num_positive_ref} (misses={ev.num_misses})",
        f"  Negative Reference Cases={ev.num_negative_ref}",
    ]
    if ev.weighted:
        lines += [f"  Positive Weight={ev.positive_weight!r}", f"  Negative Weight={ev.negative_weight!r}"]
    weighted = ev.weighted
    for name in REPORT_LINES:  # the measures: labels and order from scored_pr._measures
        m = by_name(name)
        if (weighted and m.rank_based) or not m.applies_to(ev):  # rank-based: cases, not weight; calibration: probabilities
            continue
        label = m.label or m.name
        if m.kind == "per_rank":
            lines += [f"  {label.format(k=k)}={m.compute(ev, k=k)!r}" for k in REPORT_RANKS if k <= ev.num_cases]
        else:
            lines.append(f"  {label}={m.compute(ev)!r}")
    return "\n".join(lines)


def table_rows(summary: dict[str, Any]) -> list[tuple[str, Any]]:
    """``summary()`` as (measure, value) rows for a table, the break-even point once.

    ``pr_breakeven_point`` and ``r_precision`` are one number by definition:
    they become the single row ``pr_breakeven_point (= r_precision)``. The
    summary dict itself (and JSON output) keeps both keys, for programs that
    read either.
    """
    rows: list[tuple[str, Any]] = []
    for key, value in summary.items():
        same = _EQUALS.get(key)
        if same is not None and same in summary:  # shown once, on the row of the measure it equals
            continue
        also = [k for k, v in _EQUALS.items() if v == key and k in summary]
        if also:
            key = f"{key} (= {', '.join(also)})"
        rows.append((key, value))
    return rows


#: name -> the name of the measure it equals by definition (r_precision -> pr_breakeven_point).
_EQUALS = {m.name: m.equals for m in MEASURES if m.equals is not None}


def curve_rows(curve: Any, func: str = "print_precision_recall_curve", name: str = "curve") -> np.ndarray:
    """``curve`` as a float64 array of shape (n, 2) or (n, 3); see :func:`scored_pr._validation.check_curve_rows`."""
    return check_curve_rows(curve, func, name)


def print_curve(curve: Any, file: TextIO) -> None:
    """Columns PRECI., RECALL, F (F1 = 2PR / (P + R)), ``%8.6f`` each."""
    rows = curve_rows(curve)
    print("%8s %8s %8s" % ("PRECI.", "RECALL", "F"), file=file)
    with np.errstate(divide="ignore", invalid="ignore"):
        for r, p in rows[:, :2].tolist():
            f = 2.0 * p * r / (p + r) if p + r != 0 else 0.0
            print("%8.6f %8.6f %8.6f" % (p, r, f), file=file)

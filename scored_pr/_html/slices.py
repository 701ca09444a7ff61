"""What the sliced pages add: light overlay curves, the gaps table, and ``compare --by``'s table per slice.

A slice's curves are drawn over the overall ones when its row is clicked. The
first :data:`~scored_pr._html.data.MAX_ITEMS_WITH_CURVES` slices have full
entries (threshold table, curves, threshold control); every further slice, up
to :data:`MAX_OVERLAYS`, carries an *overlay*: at most :data:`OVERLAY_POINTS`
of its PR operating points and as many of its ROC points, chosen evenly along
each curve as the page's interpolated curves are (:func:`subset`, the ends kept), each value
rounded to :data:`OVERLAY_DIGITS` decimals (a tenth of a pixel on a 1,000-pixel
chart). That is about 1 KB per slice: 1,000 slices add about 1 MB to the
page (``tests/integrations/test_html_sliced.py`` measures it); slices beyond
:data:`MAX_OVERLAYS` are in the table without curves, and the page says so.

The gaps table is :meth:`scored_pr.SlicedEvaluation.gaps` of the page's headline
measure, as given (the command line computes it with ``--ci``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _kinds
from .._display.steps import pr_points, roc_points_xy
from .._validation.slices import slice_text

#: Operating points kept per curve of a slice's overlay.
OVERLAY_POINTS = 32
#: Decimals kept of each overlay value (the axes run from 0 to 1).
OVERLAY_DIGITS = 4
#: Slices (beyond those with full entries) that carry an overlay; the rest are in the table only.
MAX_OVERLAYS = 1000


def subset(rows: np.ndarray, budget: int) -> np.ndarray:
    """At most ``budget`` of ``rows`` (evenly by index, the ends kept): a subset, never new points.

    How the page thins a curve it draws through (the interpolated curves of every entry, a slice's overlay).
    """
    rows = np.asarray(rows, dtype=np.float64)
    if rows.shape[0] <= budget:
        return rows
    return rows[np.unique(np.linspace(0, rows.shape[0] - 1, budget).astype(np.int64))]


def overlay(ev: Any, points: int = OVERLAY_POINTS) -> dict[str, Any]:
    """A slice's light curves: ``pr`` (recall, precision) and ``roc`` (fpr, tpr, from (0, 0)) rows, rounded.

    Read through the same queries as the page's full curves (``pr_curve()``
    and ``roc_curve()``, or a bounded summary's estimates).
    """
    kind = _kinds.kind_of(ev)
    bounded = kind is not None and kind.holds == "bounded"
    view = ev if bounded or kind is None or not kind.snapshot else ev.snapshot()
    pr = pr_points(view, False, bounded)
    roc = roc_points_xy(view.roc_band().estimate if bounded else view.roc_curve())
    roc = np.vstack(([[0.0, 0.0]], subset(roc, points))) if roc.size else roc.reshape(0, 2)
    return {"pr": np.round(subset(pr, points), OVERLAY_DIGITS), "roc": np.round(roc, OVERLAY_DIGITS)}


def gaps(found: dict[str, Any]) -> dict[str, Any]:
    """The gaps table's data from ``{"measure", "label", "level", "correction", "rows": [SliceGap, ...]}``."""
    rows = [{"name": slice_text(tuple(g.slice)), "estimate": g.estimate, "reference": g.reference,
             "difference": g.difference, "low": g.low, "high": g.high, "p_value": g.p_value,
             "p_adjusted": g.p_adjusted, "method": g.method, "num_cases": g.num_cases} for g in found["rows"]]
    return {"measure": found["measure"], "label": found["label"], "level": found["level"],
            "correction": found["correction"], "rows": rows}


def comparison_row(measure: str, r: Any) -> dict[str, Any]:
    """One comparison (a ``Comparison``) as the page's tables show it: A, B, A - B, the interval, the test."""
    return {"measure": measure, "a": r.estimate_a, "b": r.estimate_b, "difference": r.difference, "low": r.interval.low,
            "high": r.interval.high, "level": r.interval.level, "statistic": r.statistic, "p_value": r.p_value,
            "method": r.method}


def comparisons(found: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The per-slice comparison table's rows from ``compare --by``'s ``[(slice name, its comparison)]``.

    A slice's comparison holds ``num_cases_a``/``num_cases_b``, ``paired``, ``results`` ({measure:
    Comparison}) and, when it has none, the ``note`` saying why: a row per measure, or one row with the note.
    """
    rows: list[dict[str, Any]] = []
    for name, s in found:
        head = {"name": name, "num_cases_a": s["num_cases_a"], "num_cases_b": s["num_cases_b"], "paired": s["paired"]}
        if not s["results"]:
            rows.append({**head, "measure": None, "note": s.get("note", "")})
        for m, r in s["results"].items():
            rows.append({**head, **comparison_row(m, r), "note": r.interval.note or None})
    return rows


__all__ = ["MAX_OVERLAYS", "OVERLAY_DIGITS", "OVERLAY_POINTS", "comparison_row", "comparisons", "gaps", "overlay", "subset"]

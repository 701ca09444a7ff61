"""Write the golden state files of scored_pr 0.1.0 (run once, from the repository root).

    python tests/data/golden-0.1.0/make_golden.py

For every evaluator kind that keeps state, this writes the state by every route the kind
offers, with the code of scored_pr 0.1.0 as it stood before its modules were moved:

- ``<name>.npz``: ``save(path)`` (the exact and the bounded evaluator);
- ``<name>.json``: ``to_dict()`` as JSON (the same two);
- ``<name>.pkl``: ``pickle.dumps`` (every kind: the exact, bounded, windowed, synchronized and
  multi-query evaluators and the LingPipe compatibility class);

and ``<name>.expected.json``: its kind, its routes and the value of every query listed in
:func:`measures` computed now, floats as ``repr`` strings (exact, NaN included), so
``tests/state/test_golden_state.py`` can check, bit for bit, that every file still loads by every
route and answers as 0.1.0 did. Do not rerun this after a change to the package: the point of
the files is that they were written by the old code. The cases are small (tens per evaluator)
and fixed below, so each file is a few KB.
"""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent

#: Queries of the exact evaluator that do not depend on weights.
K_VALUES = (1, 5, 10, 40)

# 40 cases: scores with ties (0.9 x3, 0.5 x4, 0.3 x2, ...), both classes, fixed by hand.
SCORES = [
    0.97, 0.9, 0.9, 0.9, 0.88, 0.81, 0.8, 0.77, 0.74, 0.7,
    0.69, 0.66, 0.63, 0.6, 0.58, 0.55, 0.5, 0.5, 0.5, 0.5,
    0.47, 0.45, 0.41, 0.4, 0.38, 0.35, 0.33, 0.3, 0.3, 0.27,
    0.25, 0.21, 0.2, 0.16, 0.12, 0.1, 0.08, 0.05, 0.03, -0.5,
]  # fmt: skip
CORRECT = [
    True, True, False, True, True, False, True, False, True, True,
    False, True, False, False, True, False, True, False, False, True,
    False, True, False, False, True, False, False, True, False, False,
    False, True, False, False, False, True, False, False, False, False,
]  # fmt: skip
WEIGHTS = [
    1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.0, 2.0, 1.0, 1.5,
    1.0, 1.0, 2.0, 1.0, 0.25, 1.0, 1.0, 4.0, 1.0, 1.0,
    2.0, 1.0, 1.0, 0.5, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0,
    1.0, 1.0, 1.0, 1.0, 2.5, 1.0, 1.0, 1.0, 0.75, 1.0,
]  # fmt: skip
MISSES = 3
NEGATIVE_MISSES = 2


def encode(value: Any) -> Any:
    """JSON for a query's value: floats as repr strings, bounds with their limits, arrays and tuples as lists."""
    from scored_pr import Bounds

    if isinstance(value, Bounds):
        return {"estimate": repr(float(value)), "lower": repr(value.lower), "upper": repr(value.upper), "exact": value.exact}
    if isinstance(value, (bool,)) or value is None:
        return value
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return encode(value.tolist())
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {value!r}")


def query(call: Callable[[], Any]) -> Any:
    try:
        return encode(call())
    except ValueError as exc:  # rank-based queries on weighted evaluators, documented
        return {"raises": type(exc).__name__}


def exact_measures(ev: Any) -> dict[str, Any]:
    out = {f"summary.{k}": query(lambda v=v: v) for k, v in ev.summary().items()}
    for interpolate in (False, True):
        out[f"pr_curve({interpolate})"] = query(lambda: ev.pr_curve(interpolate))
        out[f"pr_score_curve({interpolate})"] = query(lambda: ev.pr_score_curve(interpolate))
        out[f"roc_curve({interpolate})"] = query(lambda: ev.roc_curve(interpolate))
    out["roc_points()"] = query(lambda: ev.roc_points())
    for ties in ("stable", "grouped", "expected"):
        out[f"average_precision(ties={ties!r})"] = query(lambda: ev.average_precision(ties=ties))
    for beta in (0.5, 2.0):
        out[f"maximum_f_measure({beta})"] = query(lambda: ev.maximum_f_measure(beta))
    out["area_under_roc_curve(max_fpr=0.5)"] = query(lambda: ev.area_under_roc_curve(max_fpr=0.5))
    for k in K_VALUES:
        out[f"precision_at({k})"] = query(lambda: ev.precision_at(k))
        out[f"recall_at({k})"] = query(lambda: ev.recall_at(k))
        out[f"average_precision_at({k})"] = query(lambda: ev.average_precision_at(k))
        out[f"f_measure_at({k}, 1.0)"] = query(lambda: ev.f_measure_at(k, 1.0))
        out[f"e_measure_at({k}, 1.0)"] = query(lambda: ev.e_measure_at(k, 1.0))
    out["k_at_recall(0.5)"] = query(lambda: ev.k_at_recall(0.5))
    out["precision_at_recall(0.5)"] = query(lambda: ev.precision_at_recall(0.5))
    out["hit_curve()"] = query(lambda: ev.hit_curve())
    for rounding in ("exact", "trec_eval9", "trec_eval10"):
        out[f"eleven_point_interpolated_precision({rounding!r})"] = query(
            lambda: ev.eleven_point_interpolated_precision(rounding=rounding)
        )
    out["threshold_at_precision(0.5)"] = query(lambda: ev.threshold_at_precision(0.5))
    out["threshold_at_recall(0.5)"] = query(lambda: ev.threshold_at_recall(0.5))
    out["maximum_f_measure_threshold(1.0)"] = query(lambda: ev.maximum_f_measure_threshold(1.0))
    return out


def bounded_measures(ev: Any) -> dict[str, Any]:
    out = {f"summary.{k}": query(lambda v=v: v) for k, v in ev.summary().items()}
    out["num_bins"] = ev.num_bins
    out["bins"] = query(lambda: list(ev.bins()))
    for name in ("average_precision", "area_under_pr_curve", "area_under_roc_curve", "maximum_f_measure",
                 "r_precision", "pr_breakeven_point", "reciprocal_rank"):  # fmt: skip
        out[f"{name}()"] = query(getattr(ev, name))
    for k in K_VALUES:
        out[f"precision_at({k})"] = query(lambda: ev.precision_at(k))
        out[f"recall_at({k})"] = query(lambda: ev.recall_at(k))
    for t in (0.9, 0.5, 0.1):
        out[f"precision_at_threshold({t})"] = query(lambda: ev.precision_at_threshold(t))
        out[f"recall_at_threshold({t})"] = query(lambda: ev.recall_at_threshold(t))
    out["pr_curve()"] = query(lambda: ev.pr_curve())
    out["roc_curve()"] = query(lambda: ev.roc_curve())
    out["pr_band()"] = query(lambda: tuple(ev.pr_band()))
    out["roc_band()"] = query(lambda: tuple(ev.roc_band()))
    return out


def windowed_measures(ev: Any) -> dict[str, Any]:
    out = {f"summary.{k}": query(lambda v=v: v) for k, v in ev.summary().items()}
    out["area_under_roc_curve()"] = query(lambda: ev.area_under_roc_curve())
    out["average_precision()"] = query(lambda: ev.average_precision())
    out["pr_curve(False)"] = query(lambda: ev.pr_curve(False))
    out["num_cases"] = ev.num_cases
    out.update({f"snapshot.summary.{k}": query(lambda v=v: v) for k, v in ev.snapshot().summary().items()})
    return out


def multi_measures(ev: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"queries": [str(q) for q in ev.queries()]}
    for no_relevant in ("zero", "skip"):
        out[f"mean_average_precision({no_relevant!r})"] = query(lambda: ev.mean_average_precision(no_relevant))
        out[f"mean_reciprocal_rank({no_relevant!r})"] = query(lambda: ev.mean_reciprocal_rank(no_relevant))
        out[f"mean_r_precision({no_relevant!r})"] = query(lambda: ev.mean_r_precision(no_relevant))
    for k in K_VALUES:
        out[f"mean_precision_at({k})"] = query(lambda: ev.mean_precision_at(k))
    for q in ev.queries():
        out.update({f"[{q}].summary.{k}": query(lambda v=v: v) for k, v in ev[q].summary().items()})
    return out


def lingpipe_measures(ev: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"version": ev.version, "toString()": ev.toString()}
    for interpolate in (False, True):
        out[f"prCurve({interpolate})"] = query(lambda: ev.prCurve(interpolate))
        out[f"rocCurve({interpolate})"] = query(lambda: ev.rocCurve(interpolate))
        out[f"areaUnderPrCurve({interpolate})"] = query(lambda: ev.areaUnderPrCurve(interpolate))
        out[f"areaUnderRocCurve({interpolate})"] = query(lambda: ev.areaUnderRocCurve(interpolate))
    for name in ("averagePrecision", "maximumFMeasure", "prBreakevenPoint", "reciprocalRank", "numCases"):
        out[f"{name}()"] = query(getattr(ev, name))
    for k in (0, *K_VALUES, 100):
        out[f"precisionAt({k})"] = query(lambda: ev.precisionAt(k))
    return out


MEASURES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "exact": exact_measures,
    "bounded": bounded_measures,
    "windowed": windowed_measures,
    "synchronized": lambda ev: exact_measures(ev.snapshot()),
    "multi": multi_measures,
    "lingpipe": lingpipe_measures,
}

#: Routes each kind offers: save/load (.npz), to_dict/from_dict (.json), pickle (.pkl).
ROUTES = {
    "exact": ("npz", "json", "pkl"),
    "bounded": ("npz", "json", "pkl"),
    "windowed": ("pkl",),
    "synchronized": ("pkl",),
    "multi": ("pkl",),
    "lingpipe": ("pkl",),
}


def measures(kind: str, ev: Any) -> dict[str, Any]:
    """Every query recorded for an evaluator of ``kind``, encoded as in expected.json."""
    return MEASURES[kind](ev)


def build() -> dict[str, tuple[str, Any]]:
    """name -> (kind, evaluator), each fed the fixed cases above."""
    from scored_pr import (
        BoundedEvaluation,
        MultiQueryEvaluation,
        ScoredPrecisionRecallEvaluation,
        SynchronizedEvaluation,
        WindowedEvaluation,
    )
    from scored_pr import lingpipe

    made: dict[str, tuple[str, Any]] = {}
    for ties in ("grouped", "stable"):
        for weighted in (False, True):
            ev = ScoredPrecisionRecallEvaluation(ties=ties)
            ev.add_cases(CORRECT[:30], SCORES[:30], sample_weight=WEIGHTS[:30] if weighted else None)
            for c, s, w in zip(CORRECT[30:], SCORES[30:], WEIGHTS[30:]):  # one at a time too
                ev.add_case(c, s, weight=w if weighted else 1.0)
            ev.add_misses(MISSES)
            ev.add_negative_misses(NEGATIVE_MISSES)
            made[f"exact-{ties}-{'weighted' if weighted else 'unweighted'}"] = ("exact", ev)
    labelled = ScoredPrecisionRecallEvaluation(ties="grouped", pos_label="spam")
    labelled.add_cases(["spam" if c else "ham" for c in CORRECT[:12]], SCORES[:12])
    made["exact-pos-label"] = ("exact", labelled)
    made["exact-empty"] = ("exact", ScoredPrecisionRecallEvaluation(ties="stable"))

    for max_bins, weighted in ((8, False), (8, True), (4096, False)):
        b = BoundedEvaluation(max_bins=max_bins)
        b.add_cases(CORRECT, SCORES, sample_weight=WEIGHTS if weighted else None)
        b.add_misses(MISSES)
        b.add_negative_misses(NEGATIVE_MISSES)
        made[f"bounded-{max_bins}-{'weighted' if weighted else 'unweighted'}"] = ("bounded", b)

    for ties, weighted in (("grouped", False), ("stable", True)):
        w = WindowedEvaluation(size=16, ties=ties)
        w.add_cases(CORRECT[:25], SCORES[:25], sample_weight=WEIGHTS[:25] if weighted else None)
        w.add_misses(2)
        for c, s, wt in zip(CORRECT[25:], SCORES[25:], WEIGHTS[25:]):
            w.add_case(c, s, weight=wt if weighted else 1.0)
        made[f"windowed-{ties}-{'weighted' if weighted else 'unweighted'}"] = ("windowed", w)

    shared = SynchronizedEvaluation(ties="stable")
    shared.add_cases(CORRECT, SCORES)
    shared.add_misses(MISSES)
    made["synchronized-stable"] = ("synchronized", shared)

    multi = MultiQueryEvaluation(ties="grouped")
    multi.add_cases("q1", CORRECT[:15], SCORES[:15])
    multi.add_cases("q2", CORRECT[15:], SCORES[15:])
    multi.add_misses("q2", 2)
    multi.add_cases("q3", [False, False], [0.4, 0.2])  # a query with nothing relevant
    made["multi-grouped"] = ("multi", multi)

    for version in ("3.9.2", "4.1"):
        port = lingpipe.ScoredPrecisionRecallEvaluation(version=version)
        for c, s in zip(CORRECT[:20], SCORES[:20]):
            port.addCase(c, s)
        port.addMisses(2)
        if version == "4.1":
            port.addNegativeMisses(1)
        made[f"lingpipe-{version}"] = ("lingpipe", port)
    return made


def main() -> int:
    sys.path.insert(0, str(HERE.parents[2]))  # the repository root: its scored_pr
    import scored_pr

    for name, (kind, ev) in build().items():
        routes = ROUTES[kind]
        if "npz" in routes:
            ev.save(HERE / f"{name}.npz")
        if "json" in routes:
            (HERE / f"{name}.json").write_text(json.dumps(ev.to_dict(), indent=1, allow_nan=False) + "\n", encoding="utf-8")
        if "pkl" in routes:
            (HERE / f"{name}.pkl").write_bytes(pickle.dumps(ev, protocol=4))
        expected = measures(kind, ev)
        lines = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, separators=(',', ':'), allow_nan=False)}" for k, v in expected.items())
        head = json.dumps({"scored_pr_version": scored_pr.__version__, "kind": kind, "routes": list(routes)})
        (HERE / f"{name}.expected.json").write_text(head[:-1] + ', "measures": {\n' + lines + "\n}}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

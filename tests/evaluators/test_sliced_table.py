"""SlicedEvaluation.table() and summary() of the exact kind, computed for every slice at once.

Each row must equal, bit for bit and of the same Python type, the
``summary()`` of an exact evaluator fed only that slice's cases (Hypothesis:
both tie policies, ties, misses, negative misses, one slice weighted, which
takes its own summary); ``table(measures)`` picks the same values.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation as E, SlicedEvaluation


def _same(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys where the two summaries differ (value, NaN-ness or type)."""
    assert list(a) == list(b)
    bad = []
    for k in a:
        x, y = a[k], b[k]
        if type(x) is not type(y):
            bad.append(k)
        elif isinstance(x, float) and math.isnan(x):
            if not math.isnan(y):
                bad.append(k)
        elif x != y:
            bad.append(k)
    return bad


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ties=st.sampled_from(["stable", "grouped"]),
    rows=st.lists(st.tuples(st.booleans(), st.sampled_from([0.1, 0.5, 0.9, 0.5]), st.sampled_from(["a", "b", "c"]),
                            st.sampled_from([1.0, 1.0, 2.0])), max_size=25),
    weighted_group=st.sampled_from([None, "a", "b"]),
    misses=st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 2), st.integers(0, 2)), max_size=3),
)
def test_table_and_summary_equal_evaluators_fed_one_slice(
    ties: str, rows: list[Any], weighted_group: str | None, misses: list[Any]
) -> None:
    ev = SlicedEvaluation(("g",), ties=ties)
    refs: dict[Any, E] = {(): E(ties=ties)}
    weights = [w if g == weighted_group else 1.0 for _, _, g, w in rows]
    ev.add_cases([r[0] for r in rows], [r[1] for r in rows], weights, g=[r[2] for r in rows])
    for (c, s, g, _), w in zip(rows, weights):
        for key in ((), (("g", g),)):
            refs.setdefault(key, E(ties=ties)).add_case(c, s, w)
    for g, m, nm in misses:
        ev.add_misses(m, g=g)
        ev.add_negative_misses(nm, g=g)
        for key in ((), (("g", g),)):
            refs.setdefault(key, E(ties=ties)).add_misses(m)
            refs[key].add_negative_misses(nm)
    table = ev.table()
    summary = ev.summary()
    assert [r["slice"] for r in table] == ev.slices()
    assert set(ev.slices()) == set(refs)
    for row in table:
        expected = refs[row["slice"]].summary()
        got = {k: row[k] for k in expected}
        assert _same(expected, got) == [], row["slice"]
        assert _same(expected, summary[str(row["slice"])]) == []
    names = ["area_under_roc_curve_interpolated", "precision_at_5", "reciprocal_rank"]
    for mine, full in zip(ev.table(names), table):
        assert _same({k: full[k] for k in names}, {k: mine[k] for k in names}) == []


def test_a_repeated_table_is_the_kept_one_and_every_change_is_seen() -> None:
    ev = SlicedEvaluation(("g",))
    ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1], g=["a", "a", "b", "b"])
    first = ev.table()
    assert ev.table() == first
    steps = [
        lambda: ev.add_case(False, 0.95, g="a"),
        lambda: ev.add_misses(2, g="b"),
        lambda: ev.add_negative_misses(1, g="a"),
        lambda: ev.add_cases([True], [0.05], g=["c"]),
    ]
    for step in steps:
        before = ev.table()
        step()
        after = ev.table()
        assert after != before
        for row in after:
            expected = ev[row["slice"]].summary()
            assert _same(expected, {k: row[k] for k in expected}) == []
            assert _same(expected, ev.summary()[str(row["slice"])]) == []

"""SlicedEvaluation.table() and summary() of the exact kind, computed for every slice at once.

Each row must equal, bit for bit and of the same Python type, the
``summary()`` of an exact evaluator fed only that slice's cases (Hypothesis:
both tie policies, ties, misses, negative misses, one slice weighted, which
takes its own summary); ``table(measures)`` picks the same values.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation as E, SlicedEvaluation
from summaries import differing


_same = differing


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


step = st.one_of(
    st.tuples(st.just("case"), st.booleans(), st.sampled_from([0.25, 0.5, -0.0, 0.0, 1.5, -2.0]),
              st.sampled_from(["a", "b"]), st.sampled_from([0, 1, None])),
    st.tuples(st.just("batch"), st.lists(st.tuples(st.booleans(), st.sampled_from([0.25, 0.5, -0.0, 0.0, 1.0]),
                                                   st.sampled_from(["a", "b"]), st.sampled_from([0, 1, None])),
                                         max_size=6)),
    st.tuples(st.just("misses"), st.integers(0, 2), st.sampled_from(["a", "b"]), st.sampled_from([0, 1])),
    st.tuples(st.just("view"), st.sampled_from(["a", "b"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ties=st.sampled_from(["stable", "grouped"]), steps=st.lists(step, max_size=12))
def test_the_one_store_equals_evaluators_fed_each_slice_through_crossings_views_and_state(
    ties: str, steps: list[Any]
) -> None:
    """Two keys and their crossing over one store: single cases, batches, misses, zeros of both signs,
    scores in and out of [0, 1], a slice's evaluator asked for midway (then fed by later cases); every
    row, every view, the state and a merge of two halves equal evaluators fed each slice's cases."""
    specs = [(), ("g",), ("d",), ("g", "d")]
    ev = SlicedEvaluation(("g", "d"), slices=specs, ties=ties)
    half = [SlicedEvaluation(("g", "d"), slices=specs, ties=ties) for _ in range(2)]
    refs: dict[Any, E] = {}
    views = {}

    def keys(g: str, d: Any) -> list[Any]:
        values = {"g": g, "d": d}
        return [tuple((k, values[k]) for k in spec) for spec in specs]

    for i, s in enumerate(steps):
        if s[0] == "case":
            _, c, x, g, d = s
            for target in (ev, half[i % 2]):
                target.add_case(c, x, g=g, d=d)
            for key in keys(g, d):
                refs.setdefault(key, E(ties=ties)).add_case(c, x)
        elif s[0] == "batch":
            rows = s[1]
            for target in (ev, half[i % 2]):
                target.add_cases([r[0] for r in rows], [r[1] for r in rows], g=[r[2] for r in rows], d=[r[3] for r in rows])
            for r in rows:
                for key in keys(r[2], r[3]):
                    refs.setdefault(key, E(ties=ties)).add_case(r[0], r[1])
        elif s[0] == "misses":
            _, m, g, d = s
            for target in (ev, half[i % 2]):
                target.add_misses(m, g=g, d=d)
            for key in keys(g, d):
                refs.setdefault(key, E(ties=ties)).add_misses(m)
        elif (("g", s[1]),) in ev:
            views[s[1]] = ev.slice(g=s[1])
    refs.setdefault((), E(ties=ties))
    assert set(ev.slices()) == set(refs)
    for row in ev.table():
        expected = refs[row["slice"]].summary()
        assert _same(expected, {k: row[k] for k in expected}) == [], row["slice"]
    for g, view in views.items():
        assert view == refs[(("g", g),)] and view is ev.slice(g=g)
    for key in ev.slices():
        assert ev[key] == refs[key]
    assert SlicedEvaluation.from_dict(ev.to_dict()) == ev
    merged = half[0] + half[1]
    for key in merged.slices():
        assert _same(merged[key].summary(), (half[0][key] if key in half[0] else E(ties=ties)).merge(
            half[1][key] if key in half[1] else E(ties=ties)).summary()) == []


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), digits=st.sampled_from([1, 2]), crossed=st.booleans(),
       ties=st.sampled_from(["grouped", "stable"]), weighted=st.booleans())
def test_rounded_scores_table_by_slice_score_groups_equals_evaluators_fed_each_slice(
    seed: int, digits: int, crossed: bool, ties: str, weighted: bool
) -> None:
    """Few distinct scores (the few-values hash needs 2,048 cases): the slices counted as (slice, score) groups
    (grouped ties, no weights: checked taken), NaN and None keys, misses and a crossing of two keys; every row
    equals an evaluator fed that slice's cases, bit for bit. Stable ties or weights take the ranked cases."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = 2_500
    y = rng.random(n) < 0.3
    s = np.round(rng.random(n), digits)
    g = rng.choice(np.array([1.0, 2.0, np.nan]), n)
    d = rng.choice(np.array(["x", "y", None], dtype=object), n)
    w = np.where(rng.random(n) < 0.1, 2.0, 1.0) if weighted else None
    specs = [(), ("g",), ("g", "d")] if crossed else [(), ("g",)]
    ev = SlicedEvaluation(("g", "d"), slices=specs, ties=ties)
    ev.add_cases(y, s, w, g=g, d=d)
    ev.add_misses(2, g=1.0, d="x")
    ev.add_negative_misses(3, g=np.nan, d=None)
    seg = ev._segments(table=True)
    assert (seg.groups is not None) == (ties == "grouped" and not weighted)
    for row in ev.table():
        ref = E(ties=ties)
        fixed = dict(row["slice"])
        mask = np.ones(n, dtype=bool)
        if "g" in fixed:
            mask &= np.isnan(g) if fixed["g"] is None else g == fixed["g"]
        if "d" in fixed:
            mask &= np.array([v == fixed["d"] for v in d])
        ref.add_cases(y[mask], s[mask], None if w is None else w[mask])
        if all(fixed.get(k, v) == v for k, v in (("g", 1.0), ("d", "x"))):
            ref.add_misses(2)
        if all(fixed.get(k) is None for k in ("g", "d")):
            ref.add_negative_misses(3)
        expected = ref.summary()
        assert _same(expected, {k: row[k] for k in expected}) == [], row["slice"]

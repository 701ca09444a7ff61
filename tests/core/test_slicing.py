"""Factorising and crossing feature columns: the counting path equals the sorting path (np.unique)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr._core import slicing as G


def _by_sorting(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` with the counting path switched off (every span too wide)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(G, "DENSE_PER_ROW", 0)
        m.setattr(G, "DENSE_EXTRA", 0)
        return fn(*args)


integers = st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.uint16, np.uint64])


@settings(max_examples=80, deadline=None)
@given(dtype=integers, values=st.lists(st.integers(0, 40), max_size=30), shift=st.sampled_from([0, 3, 100]))
def test_factorize_counts_integers_as_np_unique_numbers_them(dtype: Any, values: list[int], shift: int) -> None:
    info = np.iinfo(dtype)
    arr = np.array([min(v + shift, int(info.max)) if info.min == 0 else v - 20 for v in values], dtype=dtype)
    slow = _by_sorting(G.factorize, arr)
    fast = G.factorize(arr)
    assert fast[0].dtype == slow[0].dtype == np.int64
    assert fast[0].tolist() == slow[0].tolist()
    assert fast[1] == slow[1] and [type(v) for v in fast[1]] == [type(v) for v in slow[1]]
    assert fast[2] is slow[2] is False
    codes, uniques, _ = fast
    assert [uniques[k] for k in codes.tolist()] == arr.tolist()  # each code names its value


def test_factorize_of_extreme_and_wide_integers_takes_the_sort() -> None:
    for arr in (np.array([2**64 - 1, 0, 5], dtype=np.uint64), np.array([-(2**63), 2**63 - 1, 0], dtype=np.int64),
                np.array([0, 10**9], dtype=np.int64)):
        codes, uniques, missing = G.factorize(arr)
        assert uniques == sorted(set(arr.tolist())) and not missing
        assert [uniques[k] for k in codes.tolist()] == arr.tolist()


@settings(max_examples=80, deadline=None)
@given(data=st.data(), sizes=st.lists(st.integers(1, 6), min_size=1, max_size=3), n=st.integers(0, 25))
def test_cross_by_counting_equals_cross_by_sorting(data: Any, sizes: list[int], n: int) -> None:
    codes = [np.array(data.draw(st.lists(st.integers(0, s - 1), min_size=n, max_size=n)), dtype=np.int64) for s in sizes]
    slow = _by_sorting(G.cross, codes, sizes)
    fast = G.cross(codes, sizes)
    assert fast[0].tolist() == slow[0].tolist() and fast[1].tolist() == slow[1].tolist()
    assert fast[0].dtype == slow[0].dtype and fast[1].dtype == slow[1].dtype
    # the literal reference: the rows' tuples of codes, numbered in sorted order
    rows = list(zip(*[c.tolist() for c in codes])) if n else []
    combos = sorted(set(rows))
    assert fast[0].tolist() == [combos.index(r) for r in rows]
    if n:
        assert [tuple(r) for r in fast[1].tolist()] == combos


scores = st.lists(st.sampled_from([0.0, -0.0, 0.25, 0.5, 0.5, 0.75, 1.0, -3.0, 0.1]), max_size=40)


@settings(max_examples=100, deadline=None)
@given(values=scores)
def test_stable_ranking_is_the_stable_argsort(values: list[float]) -> None:
    neg = -np.array(values, dtype=np.float64)
    assert G.stable_ranking(neg).tolist() == np.argsort(neg, kind="stable").tolist()


@pytest.mark.parametrize("distinct", [50, 400_000])
def test_stable_ranking_of_many_cases_with_few_values_and_with_scattered_ties(distinct: int) -> None:
    """The few-values hash path (rounded scores) and the unstable argsort with a few runs of ties put in order."""
    rng = np.random.default_rng(distinct)
    neg = rng.choice(-rng.random(distinct), size=200_000)
    neg[rng.random(neg.size) < 0.01] = -0.0
    neg[rng.random(neg.size) < 0.01] = 0.0
    assert np.array_equal(G.stable_ranking(neg), np.argsort(neg, kind="stable"))


def _is_stable_ranking(neg: np.ndarray, got: tuple[np.ndarray, np.ndarray]) -> bool:
    """``got`` is ``(o, neg[o])`` of ``o`` the stable argsort, the scores bit for bit (the signs of zeros too)."""
    order, ranked = got
    want = np.argsort(neg, kind="stable")
    return (order.dtype == np.int64 and order.tolist() == want.tolist()
            and ranked.view(np.int64).tolist() == neg[want].view(np.int64).tolist())


wide = st.lists(st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, 1.0 + 2**-52, 1.0 + 2**-51, np.inf, -np.inf, 5e-324, -5e-324, 1e300, -1e300]),
    st.floats(allow_nan=False, width=64)), max_size=40)


@settings(max_examples=150, deadline=None)
@given(values=wide, key_bits=st.sampled_from([64, 24, 12]), limit=st.sampled_from([8, 0]))
def test_packed_ranking_is_the_stable_argsort_when_keys_clash(values: list[float], key_bits: int, limit: int) -> None:
    """Scores of any span, ties and both zeros: keys of fewer bits than the span (lowered ``KEY_BITS``) make
    different scores share a key, put in order by the sort of those cases (``_CLASH_LIMIT`` 0: never the
    argsort instead)."""
    neg = -np.array(values, dtype=np.float64)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(G, "KEY_BITS", key_bits)
        m.setattr(G, "_CLASH_LIMIT", limit)
        assert _is_stable_ranking(neg, G.rank_with_scores(neg))
        assert G.stable_ranking(neg).tolist() == np.argsort(neg, kind="stable").tolist()


def _draw_columns(data: Any, n: int, columns: int) -> tuple[list[np.ndarray], int]:
    """``columns`` crossings' slice ids of ``n`` cases, each crossing's ids after the previous one's; and their count."""
    per = [data.draw(st.integers(1, 4)) for _ in range(columns)]
    first = np.cumsum([0, *per[:-1]])
    cols = [np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int32) + f
            for k, f in zip(per, first)]
    return cols, int(sum(per))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), values=wide, key_bits=st.sampled_from([64, 24, 16]), limit=st.sampled_from([8, 0]),
       columns=st.integers(1, 3))
def test_slice_ranking_is_segment_order_when_keys_clash(data: Any, values: list[float], key_bits: int, limit: int,
                                                        columns: int) -> None:
    """The one sort of (slice, score, index) keys gives segment_order's rows and the ranked scores bit for bit
    (signs of zeros too), keys of fewer bits than the span (lowered ``KEY_BITS``) making scores of one slice
    share a key (``_CLASH_LIMIT`` 0: never refused for clashes); else None."""
    n = len(values)
    neg = -np.array(values, dtype=np.float64)
    cols, count = _draw_columns(data, n, columns)
    rows, offsets = G.segment_order(neg, cols, count)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(G, "KEY_BITS", key_bits)
        m.setattr(G, "_CLASH_LIMIT", limit)
        got = G.slice_ranking(neg, cols, count)
    if got is None:  # more cases in shared keys than the limit allows, or no bit left for the score
        assert limit or key_bits - max((n * columns - 1).bit_length(), 1) - max((count - 1).bit_length(), 1) < 1
        return
    assert got[0].dtype == np.int64 and got[0].tolist() == rows.tolist() and got[1].tolist() == offsets.tolist()
    assert got[2].view(np.int64).tolist() == neg[rows].view(np.int64).tolist()


def test_slice_ranking_refuses_a_nan_and_many_clashes() -> None:
    """A NaN score (which no evaluator holds), or more cases in shared keys than ``_CLASH_LIMIT`` allows: None
    (the caller ranks, then groups)."""
    rng = np.random.default_rng(9)
    neg = -rng.random(5_000)
    cols = [rng.integers(0, 3, 5_000).astype(np.int32)]
    assert G.slice_ranking(neg, cols, 3) is not None
    with pytest.MonkeyPatch.context() as m:
        m.setattr(G, "KEY_BITS", 24)  # 13 bits of index, 2 of slice id: 9 of score, most keys shared
        assert G.slice_ranking(neg, cols, 3) is None
    neg[17] = np.nan
    assert G.slice_ranking(neg, cols, 3) is None


def test_packed_ranking_of_many_probabilities_with_clashing_keys_and_a_nan() -> None:
    """1,000,000 cases leave 44 bits of a 64-bit key to the score: probabilities down to 1e-12 span more, so
    neighbours a few ulps apart share keys (sorted apart), and a NaN (which no evaluator holds) takes the argsort."""
    rng = np.random.default_rng(44)
    neg = -rng.random(1_000_000) ** 8
    neg[:4_000] = -np.nextafter(0.5, 1.0, dtype=np.float64) - rng.integers(0, 4_000, 4_000) * 2**-53
    neg[rng.integers(0, neg.size, 1_000)] = -0.0
    neg[rng.integers(0, neg.size, 1_000)] = -0.25
    shuffled = rng.permutation(neg)
    k = np.add(shuffled, 0.0).view(np.int64)
    assert G._packed_ranking(shuffled) is not None  # the packed path, not the argsort
    assert _is_stable_ranking(shuffled, G.rank_with_scores(shuffled))
    assert int(np.unique(k >> 20).size) < int(np.unique(k).size)  # keys did clash
    shuffled[7] = np.nan
    assert G._packed_ranking(shuffled) is None
    assert _is_stable_ranking(shuffled, G.rank_with_scores(shuffled))


@settings(max_examples=80, deadline=None)
@given(data=st.data(), values=scores, columns=st.integers(1, 3))
def test_slice_order_of_the_ranked_columns_is_segment_order(data: Any, values: list[float], columns: int) -> None:
    """Ranking every case, then grouping the ranked cases by slice, gives segment_order's rows."""
    n = len(values)
    neg = -np.array(values, dtype=np.float64)
    cols, count = _draw_columns(data, n, columns)
    rows, offsets = G.segment_order(neg, cols, count)
    ranking = G.stable_ranking(neg)
    positions, offsets2 = G.slice_order([c[ranking] for c in cols], count)
    assert ranking[positions].tolist() == rows.tolist() and offsets2.tolist() == offsets.tolist()


@pytest.mark.parametrize("count", [3, 1 << 15, (1 << 15) + 1, 1 << 16, (1 << 16) + 1, 1 << 19, (1 << 19) + 1])
@pytest.mark.parametrize("columns", [1, 2])
@pytest.mark.parametrize("packed32", [32, 0])
def test_slice_order_on_both_sides_of_the_16_bit_radix_path_is_the_stable_grouping(
        count: int, columns: int, packed32: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids and positions in 32 bits (packed uint32 keys; 5,000 cases leave 19 bits to the ids), ids of 16 bits
    (int16 and uint16 radix argsorts, or all of them with ``PACKED32_BITS`` 0) and wider ones (packed 64-bit
    keys): each the stable argsort by id."""
    rng = np.random.default_rng(count + columns)
    monkeypatch.setattr(G, "PACKED32_BITS", packed32)
    bounds = [count * j // columns for j in range(columns + 1)]  # each crossing's ids follow the previous one's
    cols = [rng.integers(a, b, size=5_000).astype(np.int32) for a, b in zip(bounds, bounds[1:])]
    cols[0][0], cols[-1][0] = 0, count - 1  # the lowest and the highest id present
    positions, offsets = G.slice_order(cols, count)
    sid = np.concatenate(cols)
    assert positions.dtype == np.int64
    assert positions.tolist() == (np.argsort(sid, kind="stable") % 5_000).tolist()
    assert offsets.tolist() == [0, *np.cumsum(np.bincount(sid, minlength=count)).tolist()]


@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(0, 60), count=st.integers(1, 6), columns=st.integers(1, 3), whole=st.booleans())
def test_slice_score_groups_count_every_slice_score_cell(data: Any, n: int, count: int, columns: int, whole: bool) -> None:
    """The groups equal the (slice, score) cells counted one case at a time, in (slice, score rank) order; with
    ``whole``, slice 0 (in no column) holds every case."""
    distinct = np.array([-1.0, -0.5, 0.0, 0.25])
    rank = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=np.uint16)
    correct = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    cols = [int(whole) + j * count + np.array(data.draw(st.lists(st.integers(0, count - 1), min_size=n, max_size=n)),
                                              dtype=np.int16)
            for j in range(columns)]
    total = count * columns + int(whole)
    got = G.slice_score_groups(distinct, rank, correct, cols, total, 0 if whole else None)
    if total * distinct.size > 2 * n * columns:
        assert got is None
        return
    assert got is not None
    cells: dict[tuple[int, int], list[int]] = {}
    for col in cols + ([np.zeros(n, dtype=np.int16)] if whole else []):
        for s, r, c in zip(col.tolist(), rank.tolist(), correct.tolist()):
            cell = cells.setdefault((s, r), [0, 0])
            cell[0] += 1
            cell[1] += int(c)
    keys = sorted(cells)
    neg, counts, positives, offsets = got
    assert neg.tolist() == [distinct[r] for _, r in keys]
    assert counts.tolist() == [cells[k][0] for k in keys] and positives.tolist() == [cells[k][1] for k in keys]
    assert counts.dtype == positives.dtype == offsets.dtype == np.int64
    assert offsets.tolist() == [sum(1 for s, _ in keys if s < k) for k in range(total + 1)]

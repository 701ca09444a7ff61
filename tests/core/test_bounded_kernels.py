"""The bounded summary's kernels against slow literal references, bit for bit.

compress, merge_costs, merge_bins and the sort-free batch kernel were
rewritten for speed (issue 28); each must still produce exactly the bins of
the straightforward version kept here: every bound a summary certifies is a
function of its bins, so equal bins mean unchanged results.
"""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr import BoundedEvaluation
from scored_pr._core import bins as B


def same_bins(a: B.Bins, b: B.Bins) -> bool:
    return all(x.dtype == y.dtype and x.tobytes() == y.tobytes() for x, y in zip(a, b))


def raw_bins(rng: np.random.Generator, n: int, max_bins: int, weighted: bool, ties: bool) -> B.Bins:
    """Uncompressed bins of random cases, as add_sorted leaves them before compress."""
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    z = rng.normal(size=n) * 10.0 ** rng.uniform(-3, 3)
    if ties:
        z = np.round(z, 1)
    z = z + 0.0
    if weighted:
        w = rng.random(n) * 3.0
        op, on = np.argsort(z[y]), np.argsort(z[~y])
        return B.add_sorted(B.empty_bins(), z[y][op], w[y][op], z[~y][on], w[~y][on], max_bins)
    return B.add_sorted(B.empty_bins(), np.sort(z[y]), None, np.sort(z[~y]), None, max_bins)


# ---------------------------------------------------------------- compress


def literal_merge_costs(b: B.Bins, pos_ref: float, neg_ref: float, total: float, budget: int) -> np.ndarray:
    """merge_costs over every adjacent pair, term by term as first written."""
    pos, neg = b.pos, b.neg
    exact = b.lo == b.hi
    c = np.concatenate(([0.0], np.cumsum(pos)[:-1]))
    f = np.concatenate(([0.0], np.cumsum(neg)[:-1]))
    t = c + f
    rq = pos_ref * neg_ref if pos_ref > 0 and neg_ref > 0 else 1.0
    r = pos_ref if pos_ref > 0 else 1.0
    own_auc = np.where(exact, 0.0, pos * neg)
    own_ap = np.where(exact, 0.0, B._ap_width(pos, neg, c, t))
    mp, mn = pos[:-1] + pos[1:], neg[:-1] + neg[1:]
    auc = (mp * mn - own_auc[:-1] - own_auc[1:]) / rq
    ap = (B._ap_width(mp, mn, c[:-1], t[:-1]) - own_ap[:-1] - own_ap[1:]) / r
    size = (mp + mn) / (total if total > 0 else 1.0) * (1e-3 / budget)
    return np.maximum(auc, 0.0) + np.maximum(ap, 0.0) + size


def literal_compress(b: B.Bins, max_bins: int, pos_ref: float, neg_ref: float) -> B.Bins:
    """compress as first written: every pair costed, every array copied each round."""
    total = float(b.pos.sum() + b.neg.sum())
    while b.hi.size > max_bins:
        n = b.hi.size
        part = B.bit_length(b.start[:-1] ^ b.start[1:])
        left = np.concatenate(([65], part[:-1]))
        right = np.concatenate((part[1:], [65]))
        cand = np.flatnonzero((part < left) & (part < right))
        cost = literal_merge_costs(b, pos_ref, neg_ref, total, max_bins)[cand]
        k = min(n - max_bins, max(1, (cand.size + 1) // 2))
        if k < cand.size:
            cand = np.sort(cand[np.argpartition(cost, k - 1)[:k]])
        keep = np.ones(n, dtype=bool)
        keep[cand + 1] = False
        level, start, end = b.level.copy(), b.start.copy(), b.end.copy()
        mask = B._mask(part[cand])
        level[cand] = part[cand]
        start[cand] &= ~mask
        end[cand] = start[cand] | mask
        lo, pos, neg = b.lo.copy(), b.pos.copy(), b.neg.copy()
        lo[cand] = b.lo[cand + 1]
        pos[cand] += b.pos[cand + 1]
        neg[cand] += b.neg[cand + 1]
        b = B.Bins(b.hi[keep], lo[keep], pos[keep], neg[keep], level[keep], start[keep], end[keep])
    return b


@pytest.mark.parametrize("seed", range(40))
def test_compress_makes_the_literal_rounds_bins(seed: int) -> None:
    """Tied, weighted, with misses, tiny and large: compress equals the every-pair version bit for bit."""
    rng = np.random.default_rng(seed)
    max_bins = int(rng.choice([1, 2, 3, 16, 256, 2048]))
    n = int(rng.choice([2, 7, 300, 5000, 60_000])) if max_bins >= 16 else int(rng.choice([2, 7, 300, 2000]))
    b = raw_bins(rng, n, max_bins, weighted=seed % 3 == 0, ties=seed % 4 == 1)
    pos_ref, neg_ref = float(b.pos.sum()) + seed % 5, float(b.neg.sum()) + seed % 2
    got, want = B.compress(b, max_bins, pos_ref, neg_ref), literal_compress(b, max_bins, pos_ref, neg_ref)
    assert got.hi.size <= max_bins
    assert same_bins(got, want)
    total = float(b.pos.sum() + b.neg.sum())
    if b.hi.size > 1:
        every = B.merge_costs(b, pos_ref, neg_ref, total, max_bins)
        assert every.tobytes() == literal_merge_costs(b, pos_ref, neg_ref, total, max_bins).tobytes()
        pairs = np.flatnonzero(rng.random(b.hi.size - 1) < 0.3)
        assert B.merge_costs(b, pos_ref, neg_ref, total, max_bins, pairs).tobytes() == every[pairs].tobytes()


def many_equal_keys(layout: list[float]) -> B.Bins:
    """Exact bins whose blocks are the keys of ``layout`` as given: repeated or unordered starts (not a summary's)."""
    s = np.array(layout, dtype=np.float64)
    k = B.keys(s)
    n = s.size
    return B.Bins(s.copy(), s.copy(), np.ones(n), np.ones(n), np.zeros(n, dtype=np.int64), k, k.copy())


@pytest.mark.parametrize(
    "layout",
    [
        [0.5] * 3,  # one start key thrice: both pairs part at level 0, neither below the other
        [0.5] * 40,
        [0.9, 0.5, 0.5, 0.5, 0.5, 0.1],  # a run of equal keys between distinct ones
        [0.5, 0.75, 0.625],  # starts not in rank order: keys 100, 110, 101 part at the same level
    ],
)
def test_compress_raises_instead_of_looping_when_no_pair_can_merge(layout: list[float]) -> None:
    """Bins with no minimal node (equal neighbouring levels everywhere it matters): a clear error, not an endless loop."""
    b = many_equal_keys(layout)
    part = B.bit_length(b.start[:-1] ^ b.start[1:])
    with pytest.raises(RuntimeError, match="no two adjacent bins of"):
        B.compress(b, 1, float(b.pos.sum()), float(b.neg.sum()))
    assert (np.diff(part) == 0).any()  # the state the guard is for: two neighbouring pairs part alike


@pytest.mark.parametrize("layout", [[0.5, 0.5], [0.9, 0.5, 0.5], [0.5, 0.5, 0.1, 0.1]])
def test_compress_merges_equal_keys_while_a_pair_parts_below_its_neighbours(layout: list[float]) -> None:
    """Equal keys are merged as before where a minimal node exists: the guard changes no state that can merge."""
    b = many_equal_keys(layout)
    got = B.compress(b, 1, float(b.pos.sum()), float(b.neg.sum()))
    assert got.hi.size == 1
    assert got.pos[0] == got.neg[0] == len(layout)
    assert (got.hi[0], got.lo[0]) == (max(layout), min(layout))


@pytest.mark.parametrize("seed", range(12))
def test_summary_bins_always_have_a_pair_to_merge(seed: int) -> None:
    """Why the guard never fires on a summary: block starts strictly descend, so neighbouring pairs never part alike."""
    rng = np.random.default_rng(500 + seed)
    b = raw_bins(rng, int(rng.choice([50, 3000, 20_000])), 16, weighted=seed % 2 == 0, ties=seed % 3 == 0)
    for max_bins in (4096, 256, 16, 1):
        b = B.compress(b, max_bins, float(b.pos.sum()), float(b.neg.sum()))
        assert b.hi.size <= max_bins
        assert (b.start[:-1] > b.start[1:]).all()
        part = B.bit_length(b.start[:-1] ^ b.start[1:])
        assert not (part[:-1] == part[1:]).any()


# ------------------------------------------------------------------ merges


def literal_merge_bins(a: B.Bins, b: B.Bins) -> B.Bins:
    """Both lists sorted by (descending block end, larger block first, a first), groups summed in a loop."""
    rows = [((~int(src.end[i])) & 0xFFFFFFFFFFFFFFFF, -int(src.level[i]), k, i) for k, src in ((0, a), (1, b)) for i in range(src.hi.size)]
    rows.sort()
    out: list[list] = []
    reach = None
    for _, _, k, i in rows:
        src = (a, b)[k]
        start, end = int(src.start[i]), int(src.end[i])
        if reach is not None and end >= reach:  # inside a block before it: joins the open group
            g = out[-1]
            g[0] = max(g[0], float(src.hi[i]))
            g[1] = min(g[1], float(src.lo[i]))
            g[2] += float(src.pos[i])
            g[3] += float(src.neg[i])
        else:
            out.append([float(src.hi[i]), float(src.lo[i]), float(src.pos[i]), float(src.neg[i]), int(src.level[i]), start, end])
        reach = start if reach is None else min(reach, start)
    cols = list(zip(*out)) if out else [()] * 7
    f = [np.array(c, dtype=np.float64) for c in cols[:4]]
    return B.Bins(*f, np.array(cols[4], dtype=np.int64), np.array(cols[5], dtype=np.uint64), np.array(cols[6], dtype=np.uint64))


def summary_bins(rng: np.random.Generator, max_bins: int, weighted: bool, ties: bool) -> B.Bins:
    n = int(rng.choice([1, 5, 200, 3000, 20_000]))
    b = raw_bins(rng, n, max_bins, weighted, ties)
    return B.compress(b, max_bins, float(b.pos.sum()), float(b.neg.sum()))


@pytest.mark.parametrize("seed", range(40))
def test_merge_bins_makes_the_literal_merge_bins(seed: int) -> None:
    """Nested and equal blocks from either side, weighted sums in rank order: the loop's bins, bit for bit."""
    rng = np.random.default_rng(1000 + seed)
    weighted, ties = seed % 2 == 0, seed % 3 == 0
    a = summary_bins(rng, int(rng.choice([2, 8, 64, 512])), weighted, ties)
    b = summary_bins(rng, int(rng.choice([2, 8, 64, 512])), weighted, ties)
    for x, y in ((a, b), (b, a), (a, a)):
        assert same_bins(B.merge_bins(x, y), literal_merge_bins(x, y))


def test_merging_many_summaries_keeps_the_literal_bins() -> None:
    """A chain of merges of similar summaries (runs of two and more nested bins) agrees with the loop at every step."""
    rng = np.random.default_rng(7)
    total = summary_bins(rng, 64, True, False)
    for _ in range(12):
        part = summary_bins(rng, 64, True, False)
        merged = B.merge_bins(total, part)
        assert same_bins(merged, literal_merge_bins(total, part))
        total = B.compress(merged, 64, float(merged.pos.sum()), float(merged.neg.sum()))


def test_empty_bins_are_shared_and_never_written() -> None:
    """Every new summary starts from one read-only empty bin list; filling one leaves the others empty."""
    a, b = BoundedEvaluation(4), BoundedEvaluation(4)
    assert all(not x.flags.writeable for x in B.empty_bins())
    a.add_cases([True, False, True], [0.5, 0.25, 0.75])
    (a + b).add_cases([False], [0.1])
    assert b.num_bins == 0 and all(x.size == 0 for x in b.bins()) and all(x.size == 0 for x in B.empty_bins())


# --------------------------------------------------------- the sort-free kernel


def literal_level(sample: np.ndarray, target: int) -> int:
    """The least level at which the ascending keys fall in at most target blocks, level by level."""
    for level in range(63):
        if len(set((sample >> np.uint64(level)).tolist())) <= target:
            return level
    return 63


@pytest.mark.parametrize("seed", range(12))
def test_level_for_is_the_least_level_that_fits(seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = rng.normal(size=int(rng.choice([1, 2, 50, 4000]))) * 10.0 ** rng.uniform(-5, 5)
    if seed % 3 == 0:
        s = np.round(s, 2)
    k = np.sort(B.keys(s + 0.0))
    for target in (1, 2, 3, 17, 500, 10_000):
        assert B._level_for(k, target) == literal_level(k, target)


@pytest.mark.parametrize("kind", ["signed", "binormal"])
def test_unsorted_kernel_takes_minus_zero_as_zero_and_ignores_its_block_size(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Raw scores with -0.0 give the bins of the same scores with +0.0, whatever the cases per index block."""
    rng = np.random.default_rng(3)
    n = 200_003
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + 1.2 * y
    if kind == "signed":
        s[:500] = -0.0
        s[500:900] = 0.0
    else:
        s = 1.0 / (1.0 + np.exp(-s))
    clean = s + 0.0
    want = B.unsorted_block_bins(y, clean, 4096)
    assert want is not None
    sp, sn = np.sort(clean[y]), np.sort(clean[~y])
    k = np.sort(B.keys(clean))
    coarse = B._level_for(k[:: max(1, n // (8 * 4096))], 512)
    assert same_bins(want, B.block_bins(sp, None, sn, None, 4096, coarse_level=coarse))
    for block in (1, 1000, 1 << 16, 1 << 22):
        monkeypatch.setattr(B, "SUB_BLOCK", block)
        got = B.unsorted_block_bins(y, s, 4096)
        assert got is not None and same_bins(got, want)

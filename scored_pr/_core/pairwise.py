"""numpy's pairwise float64 summation of many contiguous runs at once: ``np.sum(x[a:b])`` per run, bit for bit.

``np.sum`` of a contiguous float64 array does not add left to right: it
starts from 0 and adds numpy's ``pairwise_sum`` of the array, which splits
a run longer than 128 at ``n // 2`` rounded down to a multiple of 8, sums
each half the same way and adds the halves; a run of 8 to 128 values goes
into eight accumulators (value ``i`` into accumulator ``i % 8``, up to the
last full block of eight), which are added as ``((r0 + r1) + (r2 + r3)) +
((r4 + r5) + (r6 + r7))`` before the remaining values are added one by one;
a run of fewer than 8 is added left to right. :func:`run_sums` follows the
same tree for every run together (one numpy call per level and per
position inside a block, not one per run), so a per-slice calibration sum
computed for every slice at once equals the slice evaluator's ``np.sum``
bit for bit (``tests/core/test_pairwise.py`` holds it against ``np.sum``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["run_sums", "tree_matches_numpy"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

#: numpy's ``PW_BLOCKSIZE``: a run of at most this many values is summed by the eight accumulators.
BLOCK = 128


def _leaf_sums(x: F64, start: I64, n: I64) -> F64:
    """numpy's sum of each run of at most :data:`BLOCK` values (``x[start:start + n]``), ``x`` followed by 16 zeros.

    The values past a run's end are read as +0.0, which changes no sum but the sign of a zero one
    (``run_sums`` returns ``+0.0`` there, as ``np.sum`` does).
    """
    size = x.size - 16  # the values (then the 16 zeros: a whole row of them for every first value mod 8)
    last = max(size - 1, 0)

    def padded(first: I64, count: I64, width: int) -> F64:  # (runs, width): x[first + i] for i < count, else 0.0
        at = first[:, None] + np.arange(width, dtype=np.int64)
        out: F64 = np.where(np.arange(width) < count[:, None], x[np.minimum(at, last)], 0.0)
        return out

    out = np.zeros(start.size, dtype=np.float64)
    short = n < 8
    if short.any():  # fewer than 8: left to right from 0
        rows = padded(start[short], n[short], 7)
        acc = np.zeros(rows.shape[0], dtype=np.float64)
        for i in range(7):
            acc += rows[:, i]
        out[short] = acc
    long = ~short
    if not long.any():
        return out
    s, m = start[long], n[long]
    full = m - m % 8  # the values in whole blocks of eight
    blocks = full // 8
    # every leaf's blocks of eight as rows of x seen as rows of eight from the leaf's first value on (one view of
    # x per first value mod 8, each row a whole 64 bytes: an eighth of the indices of a gather per value), row b
    # of a leaf being x[first + 8 b : first + 8 b + 8] and, past its blocks, a row of the zeros that end x; then
    # accumulator j adds column j block after block, as numpy's loop does
    acc8 = np.empty((s.size, 8), dtype=np.float64)
    phase = s % 8
    for p in range(8):
        of = np.flatnonzero(phase == p)
        if not of.size:
            continue
        rows_p = x[p:p + 8 * ((x.size - p) // 8)].reshape(-1, 8)
        zero = (size + (p - size) % 8 - p) // 8  # a row of the trailing zeros
        width = int(blocks[of].max())
        step = np.arange(width, dtype=np.int64)[:, None]
        at = np.where(step < blocks[of], (s[of] - p) // 8 + step, zero)  # (block, leaf)
        r = np.take(rows_p, at, axis=0)
        acc = r[0].copy()
        for b in range(1, width):  # accumulator j adds values j, j + 8, j + 16... in order
            acc += r[b]
        acc8[of] = acc
    res = ((acc8[:, 0] + acc8[:, 1]) + (acc8[:, 2] + acc8[:, 3])) + ((acc8[:, 4] + acc8[:, 5]) + (acc8[:, 6] + acc8[:, 7]))
    rest = padded(s + full, m - full, 7)
    for i in range(7):  # the remainder, left to right
        res += rest[:, i]
    out[long] = res
    return out


#: Few long runs (at most one per this many values: 1,000 slices of 1,000,000 cases) are summed one ``np.sum``
#: call each, which costs less than the tree's passes then (a few microseconds per call against about 10 ns per
#: value: the calibration pass of ``benchmarks/bench_sliced.py --steps``); the same sums either way.
LOOP_RUNS_PER_VALUE = 550

#: Whether this numpy's ``np.sum`` follows the tree above (checked once, on first use).
_FOLLOWS: list[bool] = []


def tree_matches_numpy() -> bool:
    """Whether the tree :func:`run_sums` follows is this numpy's ``np.sum``, checked once on a probe.

    numpy 2's contiguous float64 ``np.sum`` is the tree described in the module docstring; older
    releases (numpy 1.23, the oldest supported) also cut a long array into buffers of 8,192 values,
    so their sums of long runs differ in the last bits. Where the probe's runs (short, a block, past
    one and several buffers) do not all match, :func:`run_sums` sums run by run with ``np.sum``.
    """
    if not _FOLLOWS:
        x = np.random.default_rng(20261202).random(60_000) * 2.0 - 0.7
        start = np.array([0, 3, 50, 200, 1_000, 9_000, 20_000], dtype=np.int64)
        n = np.array([3, 40, 129, 700, 8_193, 10_000, 40_000], dtype=np.int64)
        got = _tree_sums(x, start, n)
        want = np.array([np.sum(x[a:a + k]) for a, k in zip(start.tolist(), n.tolist())])
        _FOLLOWS.append(bool(np.array_equal(got.view(np.int64), want.view(np.int64))))
    return _FOLLOWS[0]


def run_sums(x: F64, start: I64, n: I64) -> F64:
    """``[np.sum(x[a:a + k]) for a, k in zip(start, n)]`` of a contiguous float64 ``x``, bit for bit.

    Parameters
    ----------
    x : float64 array
        The values.
    start, n : int64 arrays of the same length
        Each run's first index and length (0 gives 0.0).

    Returns
    -------
    float64 array
        Each run's sum, as numpy's ``np.sum`` of that run alone.

    Notes
    -----
    O(len(x) + runs) work in O(log(longest run)) levels, each a few numpy calls, where
    :func:`tree_matches_numpy` and the runs are many (more than one per
    :data:`LOOP_RUNS_PER_VALUE` values); otherwise one ``np.sum`` per run.

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.pairwise import run_sums
    >>> x = np.random.default_rng(0).random(1000)
    >>> got = run_sums(x, np.array([0, 3, 200]), np.array([3, 197, 800]))
    >>> got.tolist() == [np.sum(x[0:3]), np.sum(x[3:200]), np.sum(x[200:1000])]
    True
    """
    start = np.asarray(start, dtype=np.int64)
    n = np.asarray(n, dtype=np.int64)
    if not tree_matches_numpy() or LOOP_RUNS_PER_VALUE * start.size <= x.size:
        return np.array([np.sum(x[a:a + k]) for a, k in zip(start.tolist(), n.tolist())], dtype=np.float64)
    return _tree_sums(x, start, n)


def _tree_sums(x: F64, start: I64, n: I64) -> F64:
    """:func:`run_sums` by numpy 2's summation tree, every run together."""
    if not x.size:  # only empty runs
        return np.zeros(start.size, dtype=np.float64)
    # split every run longer than BLOCK as numpy does, level by level, keeping each node's parent
    levels: list[tuple[I64, I64]] = []  # per level: (parent of each left child, parent of each right child)
    node_start, node_n = start, n
    leaf_start: list[I64] = []
    leaf_n: list[I64] = []
    leaf_at: list[I64] = []  # per level: the leaves' positions among that level's nodes
    while True:
        big = node_n > BLOCK
        leaf_start.append(node_start[~big])
        leaf_n.append(node_n[~big])
        leaf_at.append(np.flatnonzero(~big))
        if not big.any():
            levels.append((np.zeros(0, np.int64), np.zeros(0, np.int64)))
            break
        b = np.flatnonzero(big)
        half = node_n[b] // 2
        half -= half % 8
        levels.append((b, b))
        node_start = np.concatenate((node_start[b], node_start[b] + half))
        node_n = np.concatenate((half, node_n[b] - half))
    # sums bottom up: a level's node is a leaf's sum or its two children's sum (left + right)
    below: F64 | None = None
    x = np.concatenate((x, np.zeros(16)))  # (the leaves' padding, see _leaf_sums)
    for depth in range(len(levels) - 1, -1, -1):
        count = (start.size if depth == 0 else 2 * levels[depth - 1][0].size)
        sums = np.zeros(count, dtype=np.float64)
        sums[leaf_at[depth]] = _leaf_sums(x, leaf_start[depth], leaf_n[depth])
        parents = levels[depth][0]
        if parents.size:
            assert below is not None
            k = parents.size
            sums[parents] = below[:k] + below[k:]
        below = sums
    assert below is not None
    return below + 0.0  # np.sum starts from 0 (turns a lone -0.0 into 0.0, as numpy does)

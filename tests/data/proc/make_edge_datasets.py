"""Write the degenerate and small random datasets whose pROC values tests/core/test_stats.py checks.

Run from the repository root: ``python tests/data/proc/make_edge_datasets.py``,
then ``Rscript tests/data/proc/edge_golden.R`` (needs R and pROC 1.18, not
needed by CI). Columns as in datasets.csv: each dataset has one label vector
and two score vectors (``a``, ``b``) on the same cases for the paired test;
the unpaired test compares dataset ``k``'s ``a`` with dataset ``k+1``'s ``b``.

The first datasets are the degenerate cases DeLong's test meets: both
variances zero (perfect rankings), one case of a class, equal AUCs with zero
variance (identical models, monotone transforms), inverted rankings; then 400
random small datasets with heavy ties, many of them degenerate by chance.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _named() -> list[tuple[str, list[int], list[float], list[float]]]:
    c4 = [1, 1, 0, 0]
    return [
        ("perfect_both", c4, [0.9, 0.8, 0.2, 0.1], [0.7, 0.6, 0.3, 0.2]),
        # unpaired with perfect_both's a: both variances zero
        ("perfect_other", [1, 0, 1, 0, 0], [0.9, 0.1, 0.8, 0.2, 0.3], [5, 1, 4, 2, 3]),
        ("identical", [1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]),
        ("monotone_transform", [1, 0, 1, 0, 1, 0, 0], [5, 4, 3, 3, 1, 0, 2], [50, 40, 30, 30, 10, 0, 20]),
        ("identical_tied", [1, 0, 1, 0, 1, 0], [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]),
        ("one_each", [1, 0], [0.9, 0.1], [0.7, 0.6]),
        ("one_each_equal", [1, 0], [0.9, 0.1], [0.9, 0.1]),
        ("one_each_tied", [1, 0], [0.5, 0.5], [0.9, 0.1]),
        ("one_positive", [1, 0, 0, 0], [0.5, 0.9, 0.1, 0.2], [0.5, 0.1, 0.9, 0.2]),
        ("one_negative", [1, 1, 1, 0], [0.5, 0.9, 0.1, 0.2], [0.5, 0.1, 0.9, 0.2]),
        ("perfect_vs_inverted", c4, [0.9, 0.8, 0.2, 0.1], [0.1, 0.2, 0.8, 0.9]),
        ("inverted_both", c4, [0.1, 0.2, 0.8, 0.9], [0.2, 0.3, 0.6, 0.7]),
        ("perfect_vs_some", [1, 1, 0, 0, 1, 0], [6, 5, 2, 1, 4, 3], [6, 2, 5, 1, 4, 3]),
    ]


def main() -> None:
    rng = np.random.default_rng(27)
    rows = ["dataset,correct,a,b"]
    for name, c, a, b in _named():
        rows += [f"{name},{x},{float(y)!r},{float(z)!r}" for x, y, z in zip(c, a, b)]
    for k in range(400):
        n = int(rng.integers(2, 41))
        while True:
            correct = rng.random(n) < rng.uniform(0.1, 0.9)
            if correct.any() and not correct.all():
                break
        levels = int(rng.integers(2, 8))  # few distinct scores: ties within and across classes
        a = rng.integers(0, levels, n) + correct * rng.integers(0, 3)
        kind = k % 4
        if kind == 0:
            b = rng.integers(0, levels, n) + correct * rng.integers(0, 3)
        elif kind == 1:
            b = a.copy()  # identical models
        elif kind == 2:
            b = 3 * a + 1  # a monotone transform: the same ranking
        else:
            b = np.where(rng.random(n) < 0.2, rng.integers(0, levels, n), a)  # a few cases changed
        for x, y, z in zip(correct, a, b):
            rows.append(f"random_{k:03d},{int(x)},{float(y)!r},{float(z)!r}")
    Path(__file__).with_name("edge_datasets.csv").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

"""Write the deterministic datasets whose pROC values tests/core/test_stats.py checks.

Run from the repository root: ``python tests/data/proc/make_datasets.py``, then
``Rscript tests/data/proc/generate.R`` (needs R and pROC, not needed by CI).
Each dataset has one label vector and two score vectors (``a``, ``b``) on the
same cases (for the paired test); the unpaired test compares dataset ``k``'s
``a`` with dataset ``k+1``'s ``a``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def main() -> None:
    rng = np.random.default_rng(20131)
    rows = ["dataset,correct,a,b"]
    for n, kind in [(8, "distinct"), (8, "tied"), (12, "integer"), (30, "distinct"), (50, "tied"),
                    (100, "integer"), (250, "distinct"), (500, "tied"), (1000, "integer"),
                    (2000, "distinct"), (5000, "tied"), (5000, "integer")]:
        while True:
            correct = rng.random(n) < rng.uniform(0.25, 0.6)
            if 2 <= correct.sum() <= n - 2:
                break
        shift = correct * rng.uniform(0.3, 1.2)
        a = rng.normal(size=n) + shift
        b = 0.6 * a + 0.8 * rng.normal(size=n) + 0.5 * shift
        if kind == "tied":
            a, b = np.round(a, 1), np.round(b, 1)
        elif kind == "integer":
            a, b = np.floor(a * 2).astype(int), np.floor(b * 2).astype(int)
        name = f"{kind}_{n}"
        for c, x, y in zip(correct, a, b):
            # repr() of a float64 is the shortest string that reads back exactly
            rows.append(f"{name},{int(c)},{float(x)!r},{float(y)!r}")
    out = Path(__file__).with_name("datasets.csv")
    out.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

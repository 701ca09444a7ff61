#!/usr/bin/env python3
"""Time ``scored-pr report --ci --misses N``: the misses must not cost time or memory.

The claim (issue 27, item 9): the misses are tied and interchangeable, so the
bootstrap draws how many of them a resample holds (one multinomial share), and
DeLong's variance and the jackknife take the count; an interval with 100
million misses costs what one without misses costs. Before, every miss was an
array element drawn in every resample: 35 s at 1M misses, 131 s at 3M.

Workload: 1,000 returned cases (40 % correct, scores N(0, 1) + 1.2 * label,
seed 1), ``report --ci`` (DeLong for ROC AUC, 2,000 stratified resamples for
AP; ``--bootstrap bca`` adds the jackknife), run as a subprocess in a clean
environment; wall time and peak resident memory (``/usr/bin/time``).

Usage::

    python benchmarks/ci_misses.py [--md benchmarks/results-ci-misses.md]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def run(path: str, misses: int, bca: bool) -> tuple[float, int]:
    cmd = ["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "scored_pr", "report", path, "--ci"]
    if misses:
        cmd += ["--misses", str(misses)]
    if bca:
        cmd += ["--bootstrap", "bca"]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""), "LANG": "C.UTF-8",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    seconds, kb = proc.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kb)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--md", help="also write the table to this Markdown file")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    c = rng.random(1000) < 0.4
    s = rng.normal(size=1000) + 1.2 * c
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.csv")
        Path(path).write_text("label,score\n" + "".join(f"{int(x)},{float(y)!r}\n" for x, y in zip(c, s)))
        rows = ["| misses | percentile: s | MB | BCa: s | MB |", "| ---: | ---: | ---: | ---: | ---: |"]
        for misses in (0, 1_000_000, 10_000_000, 100_000_000):
            (t1, m1), (t2, m2) = run(path, misses, False), run(path, misses, True)
            rows.append(f"| {misses:,} | {t1:.2f} | {m1 / 1024:.0f} | {t2:.2f} | {m2 / 1024:.0f} |")
    load = os.getloadavg()[0]
    text = "\n".join(rows) + f"\n\nLoad average {load:.1f} (shared 2-core machine); times include starting Python.\n"
    print(text)
    if args.md:
        Path(args.md).write_text("# report --ci --misses N\n\n" + text)


if __name__ == "__main__":
    main()

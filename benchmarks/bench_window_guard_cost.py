#!/usr/bin/env python3
"""What the owner's check costs in ``WindowedEvaluation(1000).add_case``, against the 0.25x target.

Copies this checkout's ``scored_pr`` twice into a temporary folder and edits the
window's ``add_case`` in each copy (the edits are asserted to apply):

``no-busy``
    the owner check without the ``_busy`` flag (``_get_ident()`` and one read
    of ``_owner`` only): NOT safe, another thread's call could overlap the
    owner's unnoticed (docs/architecture.md, "The owner's fast path").
``no-check``
    no owner check at all: NOT safe either; the body alone.

Then times 100,000 ``add_case`` calls of one bound method (probabilities,
30 % positive, as ``bench_perf4.py`` section 1) on the exact evaluator, this
checkout's window and the two copies, all in one process taking turns; the
minimum of ``--reps`` CPU times each. The machine is shared: read the ratios.

Usage::

    python benchmarks/bench_window_guard_cost.py --reps 5
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import sys
import tempfile
import time
from typing import Any

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CALLS = 100_000

_CHECK = """        me = _get_ident()
        if self._owner == me:
            was = self._busy
            self._busy = me
            try:
                if self._owner == me:
                    if (type(score)"""
_RESTORE = "            finally:\n                self._busy = was\n        if self._read_only:"
EDITS = {
    "no-busy": (_CHECK, """        me = _get_ident()
        if self._owner == me:
            try:
                if True:
                    if (type(score)"""),
    "no-check": (_CHECK, """        if True:
            try:
                if True:
                    if (type(score)"""),
}


def variant(tmp: str, name: str) -> str:
    """A copy of scored_pr whose window add_case has the edit ``name``; the folder to put on sys.path."""
    dest = os.path.join(tmp, name)
    shutil.copytree(os.path.join(ROOT, "scored_pr"), os.path.join(dest, "scored_pr"))
    path = os.path.join(dest, "scored_pr", "_evaluators", "windowed.py")
    with open(path) as f:
        text = f.read()
    old, new = EDITS[name]
    assert text.count(old) == 1 and text.count(_RESTORE) == 1, "add_case changed: update the edits"
    text = text.replace(old, new).replace(_RESTORE, "            finally:\n                pass\n        if self._read_only:")
    with open(path, "w") as f:
        f.write(text)
    return dest


def load(folder: str) -> tuple[Any, Any]:
    """(WindowedEvaluation, ScoredPrecisionRecallEvaluation) of the scored_pr in ``folder``."""
    for key in [k for k in sys.modules if k == "scored_pr" or k.startswith("scored_pr.")]:
        del sys.modules[key]
    sys.path.insert(0, folder)
    try:
        pkg = importlib.import_module("scored_pr")
        classes = (pkg.WindowedEvaluation, pkg.ScoredPrecisionRecallEvaluation)
        assert classes[0].add_case.__code__.co_filename.startswith(folder)
        return classes
    finally:
        sys.path.pop(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(1)
    y = rng.random(CALLS) < 0.3
    yl, sl = y.tolist(), (1.0 / (1.0 + np.exp(-(rng.normal(size=CALLS) + y)))).tolist()

    def loop(make: Any) -> None:
        add = make().add_case
        for c, v in zip(yl, sl):
            add(c, v)

    with tempfile.TemporaryDirectory() as tmp:
        window, exact = load(ROOT)
        fns = {"exact add_case": lambda: loop(exact), "window, as it is": lambda: loop(lambda: window(1000))}
        for name, label in (("no-busy", "window, no _busy flag (unsafe)"), ("no-check", "window, no owner check (unsafe)")):
            cls = load(variant(tmp, name))[0]
            fns[label] = lambda cls=cls: loop(lambda: cls(1000))
        best = {k: float("inf") for k in fns}
        for _ in range(args.reps):
            for k, fn in fns.items():
                t = time.process_time()
                fn()
                best[k] = min(best[k], time.process_time() - t)
    ex = best["exact add_case"]
    print(f"add_case, {CALLS:,} calls, min of {args.reps} CPU times (shared machine: read the ratios)\n")
    print("| add_case | ns per call | / exact (target <= 0.25x) |")
    print("|---|---|---|")
    for k, v in best.items():
        print(f"| {k} | {v / CALLS * 1e9:.0f} ns | {v / ex:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

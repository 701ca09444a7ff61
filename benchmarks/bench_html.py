#!/usr/bin/env python3
"""HTML report benchmark: file size, Python build time and browser render time, up to 1,000,000 cases.

For each input (``--n`` cases, default 1,000,000; 30 % positives, scores
N(0, 1) + label, seed 0) in the forms users bring (float64 probabilities
through a logistic, raw logits, float32 logits, probabilities rounded to 3
decimals) and for a 20-label multi-label evaluator:

- ``to_html()``: CPU seconds of this process to build the page (the
  evaluator's queries are answered once before, so this is the page's own
  cost plus ``roc_points``/``confusion_at_threshold`` on warm caches; the
  first, cold build is also shown);
- the file's size in bytes;
- render time in headless Chromium: from navigation start to the end of the
  page's script (``performance.now()``, which the page records in
  ``body[data-render-ms]``), median of ``--reps`` loads from ``file://``,
  each in a new page; plus the wall time of ``page.goto`` to that moment.

Targets: a 1,000,000-case page <= 2 MB and rendered within 1 s; a typical page
(<= 100,000 cases) <= 1 MB.

Needs ``/usr/bin/chromium`` (``apt-get install chromium``) and
``pip install playwright`` (no browser download: the system's is used).

Usage::

    python benchmarks/bench_html.py                   # ~1 min
    python benchmarks/bench_html.py --md results.md   # also write the table
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import scored_pr

CHROMIUM = os.environ.get("SCORED_PR_CHROMIUM", "/usr/bin/chromium")


def inputs(n: int) -> dict[str, object]:
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    logits = rng.normal(0.0, 1.0, n) + y
    probs = 1.0 / (1.0 + np.exp(-logits))
    out: dict[str, object] = {}
    for name, scores in (("probabilities (float64)", probs), ("logits (float64)", logits),
                         ("logits (float32)", logits.astype(np.float32)), ("probabilities rounded to 3 d.p.", np.round(probs, 3))):  # fmt: skip
        ev = scored_pr.ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, scores)
        out[f"exact, {n:,} cases, {name}"] = ev
    k = 20
    rows = max(n // k, 1)
    Y = rng.random((rows, k)) < 0.2
    labels = scored_pr.MultiLabelEvaluation(labels=[f"class {i}" for i in range(k)])
    labels.add_cases(Y, rng.normal(Y * 1.0, 1.0))
    out[f"multilabel, {rows:,} rows x {k} labels"] = labels
    typical = scored_pr.ScoredPrecisionRecallEvaluation()
    typical.add_cases(y[:100_000], probs[:100_000])
    out["exact, 100,000 cases, probabilities (float64)"] = typical
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--md", metavar="PATH")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, ev in inputs(args.n).items():
            t0 = time.process_time()
            ev.to_html()  # type: ignore[attr-defined]
            cold = time.process_time() - t0
            t0 = time.process_time()
            document = ev.to_html()  # type: ignore[attr-defined]
            warm = time.process_time() - t0
            path = Path(tmp) / "page.html"
            path.write_text(document, encoding="utf-8")
            render, wall = [], []
            for _ in range(args.reps):
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                t0 = time.perf_counter()
                page.goto(path.as_uri())
                page.wait_for_selector("body[data-ready='1']")
                wall.append(1000 * (time.perf_counter() - t0))
                render.append(float(page.get_attribute("body", "data-render-ms")))
                page.close()
            rows.append((name, len(document.encode()), cold, warm, statistics.median(render), statistics.median(wall)))
            print(f"{name}: {rows[-1][1]:,} bytes, build {cold:.2f} s cold / {warm:.2f} s warm, "
                  f"render {rows[-1][4]:.0f} ms (goto to ready {rows[-1][5]:.0f} ms)", flush=True)  # fmt: skip
        browser.close()
    lines = [
        f"# HTML report: size and render time (`benchmarks/bench_html.py --n {args.n}`)",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}, "
        f"numpy {np.__version__}, scored_pr {scored_pr.__version__}; headless Chromium (`{CHROMIUM}`), "
        f"1280x1000 viewport; render: median of {args.reps} loads from file://.",
        "",
        "| input | file size | build, cold (CPU s) | build, warm (CPU s) | render: navigation start to script end (ms) | goto to ready, wall (ms) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, size, cold, warm, render, wall in rows:
        lines.append(f"| {name} | {size / 1e6:.2f} MB | {cold:.2f} | {warm:.2f} | {render:.0f} | {wall:.0f} |")
    lines += ["", "Targets: a 1,000,000-case page <= 2 MB, rendered within 1,000 ms; a typical page (<= 100,000 cases) <= 1 MB."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.md:
        Path(args.md).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

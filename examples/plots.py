"""Plots: PR and ROC curves drawn as the step functions whose areas scored_pr reports.

Usage: python examples/plots.py [OUTPUT_DIR]

Writes three PNG files into OUTPUT_DIR (default: a new temporary directory,
never the repository) and prints their paths:

- pr_roc.png: one system, PR and ROC side by side (what `scored-pr report --plot` draws);
- compare.png: two systems on the same axes;
- interpolation.png: the ten-case worked example, uninterpolated and interpolated.

Needs matplotlib (pip install matplotlib, or pip install '.[plot]' in a checkout). It draws on matplotlib.figure.Figure
objects, so no display or GUI backend is involved; in a notebook, call
plot_pr(ev) / plot_roc(ev) without an ``ax`` and pyplot shows the figure.
"""

import sys
import tempfile
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.plot import plot_pr, plot_pr_roc, plot_roc

out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="scored_pr_plots_"))
out.mkdir(parents=True, exist_ok=True)

# Two systems scoring the same 2,000 items, 30 % of them relevant; system B separates better.
rng = np.random.default_rng(7)
relevant = rng.random(2000) < 0.3
scores_a = rng.normal(np.where(relevant, 1.0, 0.0), 1.0)
scores_b = rng.normal(np.where(relevant, 1.8, 0.0), 1.0)
a = ScoredPrecisionRecallEvaluation()
a.add_cases(relevant, scores_a)
b = ScoredPrecisionRecallEvaluation()
b.add_cases(relevant, scores_b)

# 1. One system, side by side; areas shaded.
fig = plot_pr_roc(b, title="System B", figure=Figure())
fig.savefig(out / "pr_roc.png", dpi=150)

# 2. Two systems on shared axes: call each function once per system with the same ax.
fig = Figure(figsize=(9.0, 4.4), layout="constrained")
ax_pr, ax_roc = fig.subplots(1, 2)
plot_pr(a, ax_pr, label="system A", show_breakeven=False, show_chance=False)
plot_pr(b, ax_pr, label="system B", show_breakeven=False)
plot_roc(a, ax_roc, label="system A", show_chance=False)
plot_roc(b, ax_roc, label="system B")
fig.savefig(out / "compare.png", dpi=150)

# 3. The worked example (10 cases): every step is visible; the interpolated curve
#    keeps only the points no later point beats, and the BEP lies on it.
ev = ScoredPrecisionRecallEvaluation()
ev.add_cases(
    [False, True, False, True, True, False, False, False, True, False],
    [-1.21, -1.27, -1.39, -1.47, -1.60, -1.65, -1.79, -1.80, -2.01, -3.70],
)
fig = Figure(figsize=(9.0, 4.4), layout="constrained")
ax_pr, ax_roc = fig.subplots(1, 2)
plot_pr(ev, ax_pr, label="uninterpolated", show_breakeven=False, show_chance=False, fill=True)
plot_pr(ev, ax_pr, interpolate=True, label="interpolated", linestyle="--")
plot_roc(ev, ax_roc, label="worked example", fill=True)
fig.suptitle("LingPipe's worked example: 10 cases, 4 correct")
fig.savefig(out / "interpolation.png", dpi=150)

print(f"system A: AP={a.average_precision():.3f} AUC={a.area_under_roc_curve():.3f}")
print(f"system B: AP={b.average_precision():.3f} AUC={b.area_under_roc_curve():.3f}")
for name in ("pr_roc.png", "compare.png", "interpolation.png"):
    print(f"wrote {out / name}")

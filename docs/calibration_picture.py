"""Draw docs/images/calibration_reliability.png: the CORP diagrams of a calibrated and an overconfident model.

    python docs/calibration_picture.py [OUT.png]

5,000 cases, probabilities rounded to 2 decimals, seed 0: on the left outcomes drawn from the
scores themselves (calibrated), on the right from scores pulled towards 0.5 (the model is
overconfident: its scores are too extreme).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scored_pr import ScoredPrecisionRecallEvaluation  # noqa: E402
from scored_pr.plot import plot_reliability  # noqa: E402


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "images" / "calibration_reliability.png"
    rng = np.random.default_rng(0)
    p = np.round(rng.beta(0.7, 0.7, 5000), 2)
    truth = {"calibrated": p, "overconfident": 0.5 + 0.6 * (p - 0.5)}
    fig = Figure(figsize=(9.0, 4.6), layout="constrained")
    for ax, (name, q) in zip(fig.subplots(1, 2), truth.items()):
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(rng.random(p.size) < q, p)
        plot_reliability(ev, ax, n_bins=10, n_resamples=200)
        ece = ev.expected_calibration_error()
        slope, intercept = ev.calibration_slope_intercept()
        ax.set_title(f"{name}: ECE {ece:.3f}, slope {slope:.2f}, intercept {intercept:.2f}", fontsize="small")
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Screenshot of TensorBoard's PR-curves plugin showing the exact PR curve written by scored_pr's sink.

Writes a stream of 200,000 scored cases through
``scored_pr.streaming.SummaryLogger`` into ``scored_pr.integrations.TensorBoard``
(a summary, with its exact PR curve, every 40,000 cases), starts
``tensorboard --logdir LOGDIR --port PORT`` on 127.0.0.1 in a subprocess,
opens the PR-curves dashboard in headless Chromium (``/usr/bin/chromium``,
driven by Playwright) and saves the screenshot (default
``docs/images/tensorboard_pr_curves.png``). The server is stopped at the end.

Needs the ``tensorboard`` and ``playwright`` packages (the test extra) and
Debian's ``chromium``. Not run in CI: it makes a documentation image.

Usage::

    python docs/tensorboard_screenshot.py [--out PATH] [--port 6123]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scored_pr import ScoredPrecisionRecallEvaluation  # noqa: E402
from scored_pr.integrations import TensorBoard  # noqa: E402
from scored_pr.streaming import SummaryLogger  # noqa: E402


def write_logs(logdir: str) -> None:
    rng = np.random.default_rng(0)
    n = 200_000
    correct = rng.random(n) < 0.3
    scores = 1.0 / (1.0 + np.exp(-(rng.normal(0.0, 1.0, n) + 1.5 * correct)))
    with SummaryLogger(ScoredPrecisionRecallEvaluation(), TensorBoard(logdir, prefix="scored_pr"), every=40_000) as ev:
        for start in range(0, n, 10_000):
            ev.add_cases(correct[start:start + 10_000], scores[start:start + 10_000])


def wait_for_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.25)
    raise RuntimeError(f"tensorboard did not listen on 127.0.0.1:{port} within {seconds} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "images" / "tensorboard_pr_curves.png"))
    ap.add_argument("--port", type=int, default=6123)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as logdir:
        write_logs(os.path.join(logdir, "stream"))  # the run's name in TensorBoard
        server = subprocess.Popen(
            [sys.executable, "-m", "tensorboard.main", "--logdir", logdir, "--port", str(args.port), "--host", "127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_port(args.port, 60)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=os.environ.get("SCORED_PR_CHROMIUM", "/usr/bin/chromium"),
                                            args=["--no-sandbox"])  # fmt: skip
                page = browser.new_page(viewport={"width": 1200, "height": 660})
                page.goto(f"http://127.0.0.1:{args.port}/#pr_curves", wait_until="networkidle")
                # the plugin draws into nested frames: wait until a PR-curve card has its canvas/svg chart
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and not any(
                    f.locator("tf-pr-curve-card").count() for f in page.frames
                ):
                    time.sleep(0.5)
                time.sleep(4)  # let the charts finish drawing
                page.screenshot(path=args.out)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The environment the command-line tests run ``scored-pr`` in: a user's, not this machine's.

A developer's or CI machine's shell may set variables that change how the
command behaves: ``PYTHONUNBUFFERED=1`` makes standard output unbuffered, which
hides every output error that only shows when a buffer is flushed at exit
(``scored-pr demo > /dev/full`` in a normal shell). So every subprocess of the
command-line tests gets an environment built here, explicitly, from nothing:
the ``PATH``, ``HOME`` and a UTF-8 locale a login shell has, and
``PYTHONPATH`` pointing at this checkout so that the code under test is the
code beside the tests (installed or not).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: ``python -m scored_pr``, as a user runs the command.
CMD = [sys.executable, "-m", "scored_pr"]


def clean_env(**extra: str) -> dict[str, str]:
    """A fresh environment: PATH, HOME, LANG=C.UTF-8, PYTHONPATH=the checkout, and ``extra``."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": os.environ.get("HOME", str(ROOT)),
        "LANG": "C.UTF-8",
        "PYTHONPATH": str(ROOT),
    }
    env.update(extra)
    return env


def metrics_stream(*args: str) -> tuple[subprocess.Popen[str], str]:
    """``scored-pr stream ARGS --metrics-port 0`` started with pipes in a clean environment, and its metrics URL."""
    proc = subprocess.Popen([*CMD, "stream", *args, "--metrics-port", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=clean_env(), cwd=ROOT)
    assert proc.stderr is not None and proc.stdin is not None and proc.stdout is not None
    match = re.search(r"serving Prometheus metrics on (http://127\.0\.0\.1:\d+/metrics)", proc.stderr.readline())
    if match is None:
        proc.kill()
        proc.wait()
    assert match
    return proc, match.group(1)


def scrape_after(url: str, step: int) -> str:
    """The exposition at ``url`` once it holds the summary of ``step`` (a bounded wait: 30 s, a loaded machine).

    The gauges are set right after the summary line is printed, so a scrape may come just before.
    """
    import time
    import urllib.request

    text = ""
    for _ in range(600):
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
        if f"scored_pr_summary_step {float(step)!r}" in text:
            break
        time.sleep(0.05)
    return text

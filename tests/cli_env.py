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

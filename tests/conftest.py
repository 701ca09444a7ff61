"""The test suite's root: its helper modules importable from every folder.

The tests live in folders by the layer they test (``core/``, ``evaluators/``, ``state/``,
``cli/``, ``compat/``, ``integrations/``, ``structure/``; ``structure/test_test_layout.py``
holds which private modules each folder may import). They are plain directories, not
packages, so pytest's default ``prepend`` import mode imports each test file by its basename
(basenames are therefore unique across folders). The helpers shared between folders stay here
(``cli_env.py``, ``faults.py``, ``lingpipe_vectors.py``, ``reference.py``, ``data/``), and this
file puts this directory first on ``sys.path`` so ``from reference import Reference`` works
from any folder, whichever subset of the suite runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

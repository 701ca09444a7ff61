"""``python -m scored_pr``: the same as the ``scored-pr`` command."""

import sys

from ._cli.main import main

if __name__ == "__main__":
    sys.exit(main())

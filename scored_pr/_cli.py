"""The ``scored-pr`` command (also ``python -m scored_pr``)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from ._demo import worked_example
from ._evaluation import ScoredPrecisionRecallEvaluation
from ._version import __version__


def demo(out: TextIO) -> None:
    ev = worked_example()
    print("scored_pr demo: the worked example of LingPipe 3.9.2's ScoredPrecisionRecallEvaluation", file=out)
    print("(10 cases, 4 correct, ranked by descending score)\n", file=out)
    print(ev, file=out)
    print("\nUninterpolated precision-recall curve:", file=out)
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(False), out)
    print("\nInterpolated precision-recall curve:", file=out)
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(True), out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scored-pr", description="Evaluate scored predictions.")
    parser.add_argument("--version", action="version", version=f"scored-pr {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("demo", help="evaluate the embedded worked example and print the report")
    args = parser.parse_args(argv)
    try:
        if args.command in (None, "demo"):
            demo(sys.stdout)
            return 0
    except BrokenPipeError:  # e.g. `scored-pr demo | head`: the reader left, not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (silence the flush at exit)
        return 0
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover (argparse rejects first)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

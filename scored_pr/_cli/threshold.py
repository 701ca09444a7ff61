"""``scored-pr threshold PATH``: the threshold to ship, under constraints (optionally certified) or costs.

``--maximize recall --min-precision 0.9 [--confidence 0.95]`` asks
``operating_point``; ``--cost-fp 1 --cost-fn 20`` asks ``min_cost_threshold``. The input is
opened through :mod:`.inputs`, as every command opens it, so every input format is read.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from dataclasses import dataclass
from typing import Any

from .._io.formats import open_ranking
from . import options
from .inputs import SkipReporter
from .options import InputOptions
from .output import error

#: Constraint options -> the key of ``subject_to``.
CONSTRAINT_OPTIONS = {
    "min_precision": "precision", "min_recall": "recall", "max_fpr": "fpr", "min_tnr": "tnr",
    "max_accepted_fraction": "accepted_fraction",
}  # fmt: skip
COST_OPTIONS = ("cost_fp", "cost_fn", "gain_tp", "gain_tn")
MAXIMIZE = ("precision", "recall", "tnr", "f1", "accuracy", "youden", "net_benefit")
_SIGNS = {"precision": ">=", "recall": ">=", "tnr": ">=", "fpr": "<=", "accepted_fraction": "<="}
CHUNK_ROWS = 16_384


@dataclass(frozen=True)
class ThresholdOptions:
    """What ``scored-pr threshold`` reads from its command line."""

    path: str
    input: InputOptions
    ties: str = "grouped"
    misses: int = 0
    format: str = "text"
    maximize: str = "recall"
    subject_to: tuple[tuple[str, float], ...] = ()
    confidence: float | None = None
    seed: int = 0
    costs: tuple[tuple[str, float], ...] = ()


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``threshold`` subcommand to ``scored-pr``'s subparsers."""
    p = commands.add_parser(
        "threshold",
        help="choose the score threshold to ship: under constraints (optionally certified) or costs",
        description="Choose a score threshold from a file of scored predictions: the one of greatest --maximize "
        "meeting the --min-/--max- constraints (with --confidence, certified to hold on new data from the same "
        "distribution with that probability), or, with --cost-fp/--cost-fn, the one of least expected cost. "
        "A threshold accepts every case scored at or above it.",
        epilog="Exit status 0 when a threshold was chosen, 3 when no threshold meets the constraints (the nearest "
        "point is printed), 2 on malformed input or a usage error.",
    )
    p.add_argument("path", metavar="PATH", help="the file of cases ('.gz' allowed), or - for standard input")
    options.add_input_options(p)
    options.add_eval_options(p)
    g = p.add_argument_group("the choice")
    g.add_argument("--maximize", choices=MAXIMIZE, default="recall", help="the measure to maximize (default: recall)")
    for opt, key in CONSTRAINT_OPTIONS.items():
        word = "at least" if _SIGNS[key] == ">=" else "at most"
        g.add_argument("--" + opt.replace("_", "-"), type=float, metavar="X", help=f"{key} must be {word} X")
    g.add_argument("--confidence", type=float, metavar="LEVEL",
                   help="certify the constraints on new data with this probability (e.g. 0.95): Learn-then-Test")
    g.add_argument("--seed", type=int, default=0, help="the seed of the split that orders the tests (default: 0)")
    for opt in COST_OPTIONS:
        g.add_argument("--" + opt.replace("_", "-"), type=float, metavar="C",
                       help=f"{opt.replace('_', ' ')} per case (choose the least expected cost; default costs 1, gains 0)")
    return p


def run(opts: ThresholdOptions) -> int:
    """``scored-pr threshold``: read the cases, choose, print; the exit status."""
    from .._core.jsonsafe import json_ready
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation, add_trusted

    if opts.costs and (opts.subject_to or opts.confidence is not None):
        error("threshold: give constraints (--min-precision ...) or costs (--cost-fp ...), not both")
        return 2
    skips = SkipReporter()
    opened = open_ranking(opts.path, opts.input.input_format, opts.input, skips, binary=True)
    reader, source = opened.reader, opened.source
    ev = ScoredPrecisionRecallEvaluation(ties=opts.ties)
    try:
        for correct, scores in reader.chunks(CHUNK_ROWS):
            add_trusted(ev, correct, scores, None, "add_cases")
    finally:
        opened.close()
    if opts.misses:
        ev.add_misses(opts.misses)
    skips.finish(source)
    try:
        if opts.costs:
            costs = {"cost_fp": 1.0, "cost_fn": 1.0, "gain_tp": 0.0, "gain_tn": 0.0, **dict(opts.costs)}
            point = ev.min_cost_threshold(**costs)
            asked = "least expected cost with " + ", ".join(f"{k} {v:g}" for k, v in costs.items())
        else:
            point = ev.operating_point(opts.maximize, dict(opts.subject_to), opts.confidence, seed=opts.seed)
            wanted = ", ".join(f"{k} {_SIGNS[k]} {v:g}" for k, v in opts.subject_to) or "no constraint"
            asked = f"maximize {opts.maximize} subject to {wanted}"
            if opts.confidence is not None:
                asked += f", certified at confidence {opts.confidence:g}"
    except ValueError as exc:
        error(f"threshold: {exc}")
        return 2
    fields = dataclasses.asdict(point)
    if opts.format == "json":
        out = {"source": source, "cases": ev.num_cases, "positive": ev.num_positive_ref, "asked": asked, **fields}
        print(json.dumps(json_ready(out, str_keys=True), allow_nan=False))
    else:
        print(f"{source}: {ev.num_cases} cases, {ev.num_positive_ref} positive")
        print(asked)
        shown = {k: v for k, v in fields.items() if v is not None and k not in ("maximize", "bounds", "confidence")}
        if not point.feasible:
            print("no threshold meets the constraints; the nearest point:")
        width = max(len(k) for k in shown)
        for k, v in shown.items():
            print(f"  {k.ljust(width)}  {v}")
        for k, v in (point.bounds or {}).items():
            side = "lower" if _SIGNS[k] == ">=" else "upper"
            print(f"  {k} {side} bound at {opts.confidence:g}: {v}")
    sys.stdout.flush()
    return 0 if point.feasible else 3

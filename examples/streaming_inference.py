"""Streaming inference: evaluate as predictions are made, and log a summary periodically.

Usage: python examples/streaming_inference.py [ROUNDS]

A model scores requests one at a time; each request's true label becomes known
right away (a click, a human check...). SummaryLogger feeds the evaluator and
hands its summary() to a logging.Logger every 2,000 cases and every 0.25
seconds, whichever comes first, plus once at the end.

The second part measures what the wrapper costs per case against a bare
add_case loop, on this machine: the best of ROUNDS interleaved rounds (default 7).
"""

import logging
import math
import random
import sys
import time

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.streaming import SummaryLogger

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger("eval")


def requests(n, seed=1):
    """(features, label) pairs as they arrive; 20 % positives."""
    rng = random.Random(seed)
    for _ in range(n):
        label = rng.random() < 0.2
        yield rng.gauss(1.2 if label else 0.0, 1.0), label


def model(x):
    """The model being monitored: a logistic score of one feature."""
    return 1.0 / (1.0 + math.exp(-2.0 * (x - 0.6)))


# --- 1. the inference loop -------------------------------------------------------------------

with SummaryLogger(ScoredPrecisionRecallEvaluation(), log.info, every=2000, seconds=0.25) as ev:
    for x, label in requests(10_000):
        score = model(x)  # ... serve the prediction ...
        ev.add_case(label, score)  # ... and evaluate it when the label is known
# leaving the block logs the final summary; the evaluator stays available:
print(f"\nfinal: {ev.num_cases} cases, AP={ev.average_precision():.4f}, {ev.calls} log calls")
print(ev.evaluation)

# Any callable works: print, a metrics client, a list's append...
history = []
stream = SummaryLogger(ScoredPrecisionRecallEvaluation(), history.append, every=500)
for x, label in requests(2000, seed=2):
    stream.add_case(label, model(x))
print("\nAP after every 500 cases:", [round(s["average_precision"], 3) for s in history])


# --- 2. what the wrapper costs per case ------------------------------------------------------


def one_run(make_add, cases):
    add = make_add()
    start = time.perf_counter()
    for correct, score in cases:
        add(correct, score)
    return time.perf_counter() - start


def ignore(summary):
    pass


cases = [(label, model(x)) for x, label in requests(100_000, seed=3)]
variants = {
    "bare add_case": lambda: ScoredPrecisionRecallEvaluation().add_case,
    "SummaryLogger(every=N)": lambda: SummaryLogger(ScoredPrecisionRecallEvaluation(), ignore, every=10**9).add_case,
    "SummaryLogger(every=N, seconds=T)": lambda: SummaryLogger(
        ScoredPrecisionRecallEvaluation(), ignore, every=10**9, seconds=3600.0
    ).add_case,
    "SummaryLogger(every=1000), summary() included": lambda: SummaryLogger(
        ScoredPrecisionRecallEvaluation(), ignore, every=1000
    ).add_case,
}
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
best = dict.fromkeys(variants, math.inf)
for _ in range(rounds):  # interleaved rounds, the best of them: the machine may be busy
    for name, make_add in variants.items():
        best[name] = min(best[name], one_run(make_add, cases) / len(cases))
bare = best["bare add_case"]
print(f"\nper case, {len(cases):,} cases, best of {rounds}:")
for name, t in best.items():
    extra = "" if name == "bare add_case" else f"  (+{(t - bare) * 1e9:.0f} ns, +{(t - bare) / bare:.0%})"
    print(f"  {name:<46} {t * 1e9:6.0f} ns{extra}")

"""Decisions: speed of operating_point, min_cost_threshold and net_benefit, and the coverage of confidence=.

Part 1 (speed): 1,000,000 cases: probabilities, logits (the same ranking), float32 logits and
probabilities rounded to 3 digits (ties), each query timed cold on a fresh evaluator whose ranking is
built and nothing else is cached, against one full ``summary()`` timed the same way (the ratio is the
claim: at most 1), ``confidence=0.95`` against the plain query (at most 2), with scikit-learn's
``TunedThresholdClassifierCV`` (scoring the same fixed predictions through a frozen identity model,
its default 100-threshold grid) and torchmetrics' ``BinaryRecallAtFixedPrecision`` (exact
thresholds) beside. ``--part kernels --before OLD_SOURCE``: every query's kernel, the old source's
and this one's, interleaved in one process, against this process's ``summary()``.

Part 2 (coverage): calibration draws from a known distribution (positives N(2, 1), negatives
N(0, 1), prevalence 0.3; scores passed through a logistic so that MAPIE's thresholds are
probabilities); the certified constraint's truth at the chosen threshold is computed exactly. The
violation rate must be <= 5% + 3 standard errors. MAPIE's ``BinaryClassificationController``
(Learn-then-Test, Bonferroni-Holm over its 100-threshold grid) runs on the same draws.

Run: ``PYTHONPATH=. python benchmarks/bench_decisions.py [--draws 1000] [--n 1000000] [--quick] [--part speed]
[--reps 3] [--before OLD_SOURCE]`` (``PYTHONPATH`` at an older checkout's source times that version: the
before/after table; ``--before`` times that source's split certification beside this one's in one process;
``--part kernels --before OLD_SOURCE`` every decision kernel of both sources in one process;
``--part steps`` the split certification's cost step by step).
"""

from __future__ import annotations

import argparse
import importlib
import math
import time
import warnings
from typing import Any, Callable

import numpy as np

from scored_pr import ScoredPrecisionRecallEvaluation


def _best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _fresh(y: np.ndarray, s: np.ndarray) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    ev.ranked_cases()  # the ranking built: what every query then shares
    return ev


#: Repetitions of each timing (the minimum is reported); ``--reps``.
REPS = 3


def _timed(y: np.ndarray, s: np.ndarray, query: Callable[[ScoredPrecisionRecallEvaluation], Any]) -> float:
    """Best of ``REPS``, each on a fresh evaluator whose ranking is built but nothing else is cached."""
    best = math.inf
    for _ in range(REPS):
        ev = _fresh(y, s)
        t = time.perf_counter()
        query(ev)
        best = min(best, time.perf_counter() - t)
    return best


def speed(n: int) -> None:
    y, inputs = _inputs(n)
    print(f"## Speed: {n:,} cases (seconds, best of {REPS}; each query timed cold on a fresh evaluator whose ranking "
          "is built and nothing else is cached, summary() likewise)\n")
    print("| scores | query | seconds | / summary() | / the query without confidence |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, s in inputs.items():
        base = _timed(y, s, lambda ev: ev.summary())
        rows = [("summary()", base)]
        queries: list[tuple[str, Callable[[ScoredPrecisionRecallEvaluation], Any]]] = [
            ("operating_point(recall, precision >= 0.9)", lambda ev: ev.operating_point("recall", {"precision": 0.9})),
            ("operating_point(..., confidence=0.95) [split]",
             lambda ev: ev.operating_point("recall", {"precision": 0.9}, 0.95)),
            ("operating_point(precision, recall >= 0.8)", lambda ev: ev.operating_point("precision", {"recall": 0.8})),
            ("operating_point(..., confidence=0.95) [monotone]",
             lambda ev: ev.operating_point("precision", {"recall": 0.8}, 0.95)),
            ("min_cost_threshold(1, 20)", lambda ev: ev.min_cost_threshold(1.0, 20.0)),
        ]  # fmt: skip
        if name.startswith("probabilities"):
            queries.append(("net_benefit() (every distinct score)", lambda ev: ev.net_benefit()))
        for label, q in queries:
            rows.append((label, _timed(y, s, q)))
        for i, (label, sec) in enumerate(rows):
            # a certified query against the same query without confidence= (the row above it)
            vs = f"{sec / rows[i - 1][1]:.2f}" if "confidence" in label else ""
            print(f"| {name} | {label} | {sec:.3f} | {sec / base:.2f} | {vs} |")
    print()
    _others(y, inputs["probabilities"])


def _others(y: np.ndarray, p: np.ndarray) -> None:
    print("### Beside (same predictions)\n")
    print("| tool | what | seconds |")
    print("| --- | --- | ---: |")
    ev_t = _timed(y, p, lambda ev: ev.operating_point("f1"))
    print(f"| scored_pr | operating_point(maximize='f1'), every distinct score | {ev_t:.3f} |")
    try:
        from sklearn.base import BaseEstimator, ClassifierMixin
        from sklearn.frozen import FrozenEstimator
        from sklearn.model_selection import TunedThresholdClassifierCV

        class Identity(ClassifierMixin, BaseEstimator):
            """The fixed predictions: column 0 of X is P(positive)."""

            def fit(self, X: Any, y: Any) -> Identity:
                self.classes_ = np.array([False, True])
                return self

            def predict_proba(self, X: Any) -> np.ndarray:
                col = np.asarray(X)[:, 0]
                return np.column_stack((1 - col, col))

            def predict(self, X: Any) -> np.ndarray:
                return np.asarray(X)[:, 0] >= 0.5

        frozen = FrozenEstimator(Identity().fit(None, None))
        X = p.reshape(-1, 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tuned = TunedThresholdClassifierCV(frozen, scoring="f1", cv=0.5, refit=False)
            sec = _best_of(lambda: tuned.fit(X, y), repeat=1)
        print(f"| scikit-learn {__import__('sklearn').__version__} | TunedThresholdClassifierCV(scoring='f1', cv=0.5), "
              f"100-threshold grid | {sec:.3f} |")  # fmt: skip
    except Exception as exc:  # noqa: BLE001 - a missing or changed optional reference is reported, not fatal
        print(f"| scikit-learn | not run: {type(exc).__name__}: {exc} | |")
    try:
        import torch
        from torchmetrics.classification import BinaryRecallAtFixedPrecision

        pt, yt = torch.tensor(p, dtype=torch.float32), torch.tensor(y.astype(np.int64))
        sec = _best_of(lambda: BinaryRecallAtFixedPrecision(min_precision=0.9)(pt, yt))
        ours = _timed(y, p, lambda ev: ev.operating_point("recall", {"precision": 0.9}))
        print(f"| torchmetrics | BinaryRecallAtFixedPrecision(0.9), exact thresholds | {sec:.3f} |")
        print(f"| scored_pr | operating_point('recall', {{'precision': 0.9}}) | {ours:.3f} |")
    except Exception as exc:  # noqa: BLE001
        print(f"| torchmetrics | not run: {type(exc).__name__}: {exc} | |")
    print()


# ------------------------------------------------------------------ coverage

PREVALENCE, SHIFT = 0.3, 2.0


def _truth_precision(t_logit: float) -> float:
    from scipy.stats import norm

    tp, fp = PREVALENCE * norm.sf(t_logit - SHIFT), (1 - PREVALENCE) * norm.sf(t_logit)
    return float(tp / (tp + fp)) if tp + fp > 0 else math.nan


def _truth_recall(t_logit: float) -> float:
    from scipy.stats import norm

    return float(norm.sf(t_logit - SHIFT))


def _logit(p: float) -> float:
    return math.inf if p >= 1.0 else (-math.inf if p <= 0.0 else math.log(p / (1 - p)))


def _core_of(source: str) -> Any:
    """The ``_core`` package of another checkout's source, imported under its own name (pure numpy, relative imports)."""
    import importlib.util
    import sys
    from pathlib import Path

    init = Path(source) / "scored_pr" / "_core" / "__init__.py"
    spec = importlib.util.spec_from_file_location("before_core", init, submodule_search_locations=[str(init.parent)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["before_core"] = module
    spec.loader.exec_module(module)
    return importlib.import_module("before_core.decisions")


def split_before_after(n: int, before: str) -> None:
    """The split certification (precision >= 0.9), this source against ``before``'s, in one process, interleaved.

    Both take the same candidates and cases; the plain (uncertified) choice of this source is the
    reference of each ratio: the issue's "confidence= adds at most 2x".
    """
    from scored_pr._core import decisions as after

    old = _core_of(before)
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    logits = rng.normal(size=n) + 2.0 * y
    print(f"## The split certification, {n:,} distinct scores: before ({before}) and after, one process "
          f"(best of {REPS}, interleaved)\n")
    print("| scores | plain choice (s) | before: certified (s) | before / plain | after: certified (s) | after / plain | same answer |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, s in (("probabilities", 1.0 / (1.0 + np.exp(-logits))), ("logits", logits)):
        ev = _fresh(y, s)
        scores, correct, weights = ev.ranked_cases()
        c = ev._candidates()  # noqa: SLF001 - the evaluator's cached candidates, as its query reads them
        cases = (scores, correct, weights, 0, 0)
        sub = {"precision": 0.9}
        best = {"plain": math.inf, "before": math.inf, "after": math.inf}
        answers = {}
        for _ in range(REPS):
            for key, run in (("plain", lambda: after.choose(c, "recall", sub)),
                             ("before", lambda: old.choose_certified(c, "recall", sub, 0.95, cases, 0)),
                             ("after", lambda: after.choose_certified(c, "recall", sub, 0.95, cases, 0))):  # fmt: skip
                t = time.perf_counter()
                answers[key] = run()
                best[key] = min(best[key], time.perf_counter() - t)
        same = (answers["before"].threshold, answers["before"].tp, answers["before"].bounds) == (
            answers["after"].threshold, answers["after"].tp, answers["after"].bounds)
        print(f"| {name} | {best['plain']:.3f} | {best['before']:.3f} | {best['before'] / best['plain']:.2f} | "
              f"{best['after']:.3f} | {best['after'] / best['plain']:.2f} | {same} |")
    print()


def _inputs(n: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The scores users bring: probabilities, logits (the same ranking), float32 logits and rounded probabilities."""
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    logits = rng.normal(size=n) + 2.0 * y
    p = 1.0 / (1.0 + np.exp(-logits))
    return y, {"probabilities": p, "logits": logits, "float32 logits": logits.astype(np.float32).astype(np.float64),
               "probabilities rounded to 3 digits": np.round(p, 3)}


def speed_before_after(n: int, before: str) -> None:
    """Each decision query's kernel, ``before``'s source against this one's, in one process, interleaved.

    Cold, as on a fresh evaluator whose ranking is built: each call builds the candidates from the
    ranked arrays (before: the cut-offs, then their candidates; after: ``ranking_candidates``) and
    answers. The reference of every ratio is one full ``summary()`` of a fresh evaluator of the same
    cases (ranking built), timed in the same process: the issue's "at most one summary()".
    """
    from scored_pr._core import decisions as after

    old = _core_of(before)
    old_cut = importlib.import_module("before_core.thresholds")
    y, inputs = _inputs(n)
    print(f"## Decision kernels, {n:,} cases: before ({before}) and after, one process (best of {REPS} rounds, each "
          "a cold summary() then every kernel of both sources, interleaved; cold: candidates built in each call)\n")
    print("| scores | distinct | query | before (s) | before / summary() | after (s) | after / summary() | "
          "after / before | same answer |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, s in inputs.items():
        ev = _fresh(y, s)
        scores, correct, _ = ev.ranked_cases()
        neg = -scores
        pos, negref = ev.num_positive_ref, ev.num_negative_ref
        cases = (scores, correct, None, 0, 0)

        def old_c() -> Any:
            return old.candidates(old_cut.threshold_cutoffs(neg, correct, None), pos, negref)

        def new_c() -> Any:
            return after.ranking_candidates(neg, correct, None, pos, negref)

        queries: list[tuple[str, Callable[[Any, Any], Any]]] = [
            ("operating_point(recall, precision >= 0.9)", lambda m, c: m.choose(c, "recall", {"precision": 0.9})),
            ("operating_point(precision, recall >= 0.8)", lambda m, c: m.choose(c, "precision", {"recall": 0.8})),
            ("operating_point(..., confidence=0.95) [monotone]",
             lambda m, c: m.choose_certified(c, "precision", {"recall": 0.8}, 0.95, cases, 0)),
            ("operating_point(..., confidence=0.95) [split]",
             lambda m, c: m.choose_certified(c, "recall", {"precision": 0.9}, 0.95, cases, 0)),
            ("min_cost_threshold(1, 20)", lambda m, c: m.min_cost(c, 1.0, 20.0, 0.0, 0.0)),
        ]  # fmt: skip
        if name.startswith("probabilities"):
            queries.append(("net_benefit() (every distinct score)", lambda m, c: m.net_benefit(c)))
        best = {(label, key): math.inf for label, _ in queries for key in ("before", "after")}
        base = math.inf
        got: dict[tuple[str, str], Any] = {}
        for _ in range(REPS):  # each round: one cold summary(), then every kernel of both sources
            fresh = _fresh(y, s)
            t = time.perf_counter()
            fresh.summary()
            base = min(base, time.perf_counter() - t)
            del fresh
            for label, q in queries:
                for key, mod, build in (("before", old, old_c), ("after", after, new_c)):
                    t = time.perf_counter()
                    got[label, key] = q(mod, build())
                    best[label, key] = min(best[label, key], time.perf_counter() - t)
        distinct = int(np.unique(s).size)
        print(f"| {name} | {distinct:,} | summary() | | 1.00 | {base:.3f} | 1.00 | | |")
        for label, _ in queries:
            a, b = got[label, "before"], got[label, "after"]
            same = (a.threshold.tobytes(), a.model.tobytes()) == (b.threshold.tobytes(), b.model.tobytes()) \
                if label.startswith("net_benefit") else repr(a) == repr(b)
            tb, ta = best[label, "before"], best[label, "after"]
            print(f"| {name} | {distinct:,} | {label} | {tb:.3f} | {tb / base:.2f} | {ta:.3f} | {ta / base:.2f} | "
                  f"{ta / tb:.2f} | {same} |")
    print()


def split_steps(n: int) -> None:
    """What the split certification (precision >= 0.9, confidence 0.95) spends beyond the plain query, step by step.

    Each step of ``choose_certified``'s unweighted path timed alone (best of ``REPS``) on the
    cases and candidates of a fresh evaluator, beside the plain query's two parts (the candidates
    built from the ranking, the choice), for every score kind of the speed part.
    """
    from scored_pr._core import decisions as D, split_prefix as SP, split_walk as SW

    y, inputs = _inputs(n)
    sub, delta = {"precision": 0.9}, 0.05
    print(f"## The split certification step by step, {n:,} cases (ms, best of {REPS} each)\n")
    print("| scores | candidates | plain choice | coins | kept blocks' counts | z-scores | test half | walk | "
          "Clopper-Pearson bound | whole certified query (kernel) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def ms(fn: Callable[[], Any]) -> tuple[float, Any]:
        best, out = math.inf, None
        for _ in range(REPS):
            t = time.perf_counter()
            out = fn()
            best = min(best, time.perf_counter() - t)
        return best * 1e3, out

    for name, s in inputs.items():
        ev = _fresh(y, s)
        neg, correct = ev._store.arrays()  # noqa: SLF001 - the ranking as the evaluator holds it
        pos_ref, neg_ref = ev.num_positive_ref, ev.num_negative_ref
        t_cands, c = ms(lambda: D.ranking_candidates(neg, correct, None, pos_ref, neg_ref))
        t_plain, _ = ms(lambda: D.choose(c, "recall", sub))
        t_coins, drawn = ms(lambda: D.split_cases(correct, None, 0, 0, 0))
        first = drawn[0]
        t_kept, kept = ms(lambda: SP.kept_halves(sub, c.ends, correct, first, 0.0, 0.0, D._surely_feasible))
        if kept is None:
            print(f"| {name} | {t_cands:.1f} | {t_plain:.1f} | {t_coins:.1f} | every candidate counted | | | | | |")
            continue
        t_z, z = ms(lambda: D._order_statistic(sub, kept.tp, kept.fp, kept.pos, kept.neg))
        t_test, (tp_t, fp_t) = ms(lambda: (c.tp[kept.at] - kept.tp, c.fp[kept.at] - kept.fp))
        pos, neg_t = c.pos - kept.pos, c.neg - kept.neg
        t_walk, before = ms(lambda: SW.certified_unsorted(sub, z, tp_t, fp_t, pos, neg_t, delta, cumulative=True))
        certified = kept.at[before] if before is not None else kept.at
        i = int(certified[-1]) if certified.size else 0
        tp_i, fp_i = float(c.tp[i]) - kept.count_at(i)[0], float(c.fp[i]) - kept.count_at(i)[1]
        t_cp, _ = ms(lambda: D.bound("precision", tp_i, tp_i + fp_i, 0.95))
        cases = (None, correct, None, 0, 0)
        t_all, _ = ms(lambda: D.choose_certified(c, "recall", sub, 0.95, cases, 0))
        print(f"| {name} | {t_cands:.1f} | {t_plain:.1f} | {t_coins:.1f} | {t_kept:.1f} | {t_z:.1f} | {t_test:.1f} | "
              f"{t_walk:.1f} | {t_cp:.1f} | {t_all:.1f} |")
    print()


def coverage(draws: int, n: int) -> None:
    print(f"## Coverage: {draws:,} calibration draws of {n:,} cases, confidence 0.95\n")
    print("| constraint | method | violation rate | bound (5% + 3 SE) | feasible | mean recall or precision at the choice | seconds |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    se = math.sqrt(0.05 * 0.95 / draws)
    try:
        from mapie.risk_control import BinaryClassificationController
    except Exception:  # noqa: BLE001
        BinaryClassificationController = None  # type: ignore[assignment,misc]
    for constraint, target, maximize, truth in (("precision", 0.9, "recall", _truth_precision),
                                                ("recall", 0.8, "precision", _truth_recall)):  # fmt: skip
        rng = np.random.default_rng(99)
        results: dict[str, list[Any]] = {"scored_pr": [], "point estimate": [], "MAPIE": []}
        times = {k: 0.0 for k in results}
        for i in range(draws):
            y = rng.random(n) < PREVALENCE
            p = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + SHIFT * y)))
            t0 = time.perf_counter()
            ev = ScoredPrecisionRecallEvaluation()
            ev.add_cases(y, p)
            point = ev.operating_point(maximize, {constraint: target}, confidence=0.95, seed=i)
            times["scored_pr"] += time.perf_counter() - t0
            results["scored_pr"].append(point.threshold if point.feasible else None)
            est = ev.operating_point(maximize, {constraint: target})
            results["point estimate"].append(est.threshold if est.feasible else None)
            if BinaryClassificationController is not None:
                t0 = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ctl = BinaryClassificationController(
                        predict_function=lambda X: np.column_stack((1 - X[:, 0], X[:, 0])),
                        risk=constraint, target_level=target, confidence_level=0.95,
                        best_predict_param_choice=maximize,
                    )  # fmt: skip
                    ctl.calibrate(p.reshape(-1, 1), y.astype(int))
                times["MAPIE"] += time.perf_counter() - t0
                best = getattr(ctl, "best_predict_param", None)
                results["MAPIE"].append(None if best is None or (isinstance(best, float) and math.isnan(best))
                                        else float(best))  # fmt: skip
        for method, chosen in results.items():
            if not chosen:
                continue
            feasible = [t for t in chosen if t is not None]
            viol = sum(truth(_logit(t)) < target for t in feasible)
            other = _truth_recall if constraint == "precision" else _truth_precision
            gain = float(np.mean([other(_logit(t)) for t in feasible])) if feasible else math.nan
            print(f"| {constraint} >= {target} | {method} | {viol / draws:.4f} | {0.05 + 3 * se:.4f} | "
                  f"{len(feasible) / draws:.3f} | {gain:.4f} | {times[method]:.1f} |")  # fmt: skip
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="cases for the speed part")
    ap.add_argument("--draws", type=int, default=1000, help="calibration draws for the coverage part")
    ap.add_argument("--calibration", type=int, default=4000, help="cases per calibration draw")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 20,000 cases, 20 draws")
    ap.add_argument("--part", choices=("all", "speed", "coverage", "split", "kernels", "steps"),
                    default="all", help="run one part only (split: --before's comparison alone; kernels: every "
                    "query's kernel, --before's and this one's, in one process; steps: the split certification's "
                    "cost step by step)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of each timing; the minimum is reported")
    ap.add_argument("--before", help="another checkout's source: time its split certification beside this one's")
    args = ap.parse_args()
    globals()["REPS"] = max(1, args.reps)
    if args.quick:
        args.n, args.draws = 20_000, 20
    if args.part == "steps":
        split_steps(args.n)
        return
    if args.part == "kernels":
        if not args.before:
            ap.error("--part kernels needs --before OLD_SOURCE")
        speed_before_after(args.n, args.before)
        return
    if args.before:
        split_before_after(args.n, args.before)
    elif args.part == "split":
        ap.error("--part split needs --before OLD_SOURCE")
    if args.part in ("all", "speed"):
        speed(args.n)
    if args.part in ("all", "coverage"):
        coverage(args.draws, args.calibration)


if __name__ == "__main__":
    main()

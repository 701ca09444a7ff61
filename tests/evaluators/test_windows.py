"""WindowedEvaluation: the exactness contract, the sorted container, expiry, misses, state.

The differential state machine at the end is the contract: after every step,
every query of the window equals the same query on a fresh
ScoredPrecisionRecallEvaluation fed the items still in the window, in
insertion order (bit for bit; the incremental ROC AUC to 1e-12 and exactly
equal to the rational Mann-Whitney value rounded once).
"""

from __future__ import annotations

import copy
import gc
import math
import pickle
import random
import sys
import tracemalloc
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import scored_pr._evaluators.windowed as W
from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr import WindowedEvaluation
import scored_pr._core.sortedblocks as SB
import scored_pr._evaluators.window_machinery as WM
from scored_pr._core.sortedblocks import PairedBlocks
from faults import run_with_fault


def set_load(load: int) -> tuple[int, int, int]:
    """Make blocks hold about ``load`` scores (the window's short path calls PairedBlocks); returns the old setting."""
    old = (SB.LOAD, SB.HALF, SB.TWICE)
    SB.LOAD, SB.HALF, SB.TWICE = load, load >> 1, 2 * load
    return old


def restore_load(old: tuple[int, int, int]) -> None:
    SB.LOAD, SB.HALF, SB.TWICE = old


@pytest.fixture
def small_blocks() -> Any:
    """Blocks of 2 to 8 floats, so that a few cases split and join them."""
    old = set_load(4)
    yield
    restore_load(old)


# ------------------------------------------------------------ literal references


def mann_whitney(items: list[tuple[bool, float]], misses: int, negative_misses: int, ties: str) -> float:
    """The ROC AUC of a window as a rational, by counting every pair (slow, literal)."""
    pos = [(i, s) for i, (c, s) in enumerate(items) if c]
    neg = [(i, s) for i, (c, s) in enumerate(items) if not c]
    p, n = len(pos) + misses, len(neg) + negative_misses
    if p == 0 or n == 0:
        return math.nan
    u = Fraction(0)
    for i, sp in pos:
        for j, sn in neg:
            if sp > sn or (sp == sn and ties == "stable" and i < j):
                u += 1
            elif sp == sn and ties == "grouped":
                u += Fraction(1, 2)
        u += negative_misses  # a returned positive ranks above every unreturned negative
    if ties == "grouped":
        u += Fraction(misses * negative_misses, 2)  # unreturned items tie at the bottom
    return float(u / (p * n))


def same(a: Any, b: Any) -> bool:
    """Bit for bit: floats by their bytes (NaN == NaN, -0.0 != 0.0), arrays by dtype, shape and bytes."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return np.float64(a).tobytes() == np.float64(b).tobytes()
    return type(a) is type(b) and a == b


def outcome(f: Any) -> Any:
    """A query's value, or the type and message of the exception it raised."""
    try:
        return f()
    except (ValueError, TypeError) as exc:
        return (type(exc).__name__, str(exc))


QUERIES: list[tuple[str, Any]] = [
    ("num_cases", lambda e: e.num_cases),
    ("num_positive_ref", lambda e: e.num_positive_ref),
    ("num_negative_ref", lambda e: e.num_negative_ref),
    ("num_misses", lambda e: e.num_misses),
    ("num_negative_misses", lambda e: e.num_negative_misses),
    ("weighted", lambda e: e.weighted),
    ("positive_weight", lambda e: e.positive_weight),
    ("negative_weight", lambda e: e.negative_weight),
    ("pr_curve", lambda e: e.pr_curve()),
    ("pr_curve(True)", lambda e: e.pr_curve(True)),
    ("pr_score_curve", lambda e: e.pr_score_curve()),
    ("roc_curve", lambda e: e.roc_curve()),
    ("roc_curve(True)", lambda e: e.roc_curve(True)),
    ("roc_points", lambda e: e.roc_points()),
    ("area_under_pr_curve", lambda e: e.area_under_pr_curve()),
    ("area_under_pr_curve(True)", lambda e: e.area_under_pr_curve(True)),
    ("area_under_roc_curve(True)", lambda e: e.area_under_roc_curve(True)),
    ("area_under_roc_curve(max_fpr)", lambda e: e.area_under_roc_curve(max_fpr=0.5)),
    ("average_precision", lambda e: e.average_precision()),
    ("average_precision(stable)", lambda e: e.average_precision("stable")),
    ("average_precision(expected)", lambda e: e.average_precision("expected")),
    ("maximum_f_measure", lambda e: e.maximum_f_measure()),
    ("maximum_f_measure(2)", lambda e: e.maximum_f_measure(2.0)),
    ("pr_breakeven_point", lambda e: e.pr_breakeven_point()),
    ("precision_at(3)", lambda e: e.precision_at(3)),
    ("reciprocal_rank", lambda e: e.reciprocal_rank()),
    ("r_precision", lambda e: e.r_precision()),
    ("recall_at(2)", lambda e: e.recall_at(2)),
    ("average_precision_at(3)", lambda e: e.average_precision_at(3)),
    ("k_at_recall(0.5)", lambda e: e.k_at_recall(0.5)),
    ("precision_at_recall(0.5)", lambda e: e.precision_at_recall(0.5)),
    ("f_measure_at(2)", lambda e: e.f_measure_at(2)),
    ("e_measure_at(2)", lambda e: e.e_measure_at(2)),
    ("hit_curve", lambda e: e.hit_curve()),
    ("eleven_point", lambda e: e.eleven_point_interpolated_precision()),
    ("threshold_at_precision", lambda e: e.threshold_at_precision(0.5)),
    ("threshold_at_recall", lambda e: e.threshold_at_recall(0.5)),
    ("maximum_f_measure_threshold", lambda e: e.maximum_f_measure_threshold()),
    ("summary", lambda e: e.summary()),
    ("str", lambda e: str(e)),
]


def assert_matches(w: WindowedEvaluation, ref: E, items: list[tuple[bool, float]], misses: int, negative_misses: int) -> None:
    for name, q in QUERIES:
        a, b = outcome(lambda: q(w)), outcome(lambda: q(ref))
        assert same(a, b), (name, a, b)
    auc, expected = w.area_under_roc_curve(), ref.area_under_roc_curve()
    if ref.weighted:
        assert same(auc, expected)  # a weighted window asks its evaluator
    else:
        exact = mann_whitney(items, misses, negative_misses, w.ties)
        assert same(auc, exact), (auc, exact)  # the exact statistic, rounded once
        assert same(auc, expected), (auc, expected)  # and so is the evaluator's


# --------------------------------------------------------------- the container


def test_paired_blocks_against_sorted_lists(small_blocks: None) -> None:
    rng = random.Random(7)
    blocks = PairedBlocks()
    model: dict[bool, list[float]] = {True: [], False: []}
    for step in range(4000):
        c = rng.random() < 0.4
        if model[c] and rng.random() < 0.45:
            x = rng.choice(model[c])
            blocks.remove(x, c)
            model[c].remove(x)
        else:
            x = float(rng.randint(-20, 20)) if rng.random() < 0.5 else rng.uniform(-20, 20)
            if rng.random() < 0.05:
                x = -0.0 if rng.random() < 0.5 else 0.0
            blocks.add(x, c)
            model[c].append(x)
            model[c].sort()
        blocks._check()
        for k in (True, False):
            assert blocks.items(k) == model[k] and blocks.count(k) == len(model[k])
            q = float(rng.randint(-21, 21))
            assert blocks.rank(q, k) == (sum(v < q for v in model[k]), sum(v <= q for v in model[k]))
    assert len(blocks.maxes) > 3  # the test split and joined blocks
    with pytest.raises(ValueError, match="not among"):
        blocks.remove(99.5, True)


def test_enter_and_leave_are_rank_then_add_and_remove_then_rank(small_blocks: None) -> None:
    """The written-out enter/leave (the window's per-case path) against the general methods, step by step."""
    rng = random.Random(11)
    fast, slow = PairedBlocks(), PairedBlocks()
    held: dict[bool, list[float]] = {True: [], False: []}
    for step in range(4000):
        c = rng.random() < 0.4
        if held[c] and rng.random() < 0.45:
            x = held[c].pop(rng.randrange(len(held[c])))
            slow.remove(x, c)
            assert fast.leave(x, c) == slow.rank(x, not c)
        else:
            x = float(rng.randint(-20, 20)) if rng.random() < 0.6 else rng.uniform(-20, 20)
            want = slow.rank(x, not c)
            slow.add(x, c)
            assert fast.enter(x, c) == want
            held[c].append(x)
        fast._check()
        assert (fast.maxes, fast.pos, fast.neg, fast.plen, fast.nlen) == (slow.maxes, slow.pos, slow.neg, slow.plen, slow.nlen)
    assert len(fast.maxes) > 3  # the walk split and joined blocks
    before = (list(fast.maxes), [list(b) for b in fast.pos], [list(b) for b in fast.neg])
    for x, c in ((99.5, True), (-99.5, False), (0.25, True)):  # absent (beyond the bounds, or inside): refused
        with pytest.raises(ValueError, match="not among"):
            fast.leave(x, c)
    assert (fast.maxes, fast.pos, fast.neg) == before  # a refused leave changes nothing
    with pytest.raises(ValueError, match="not among"):
        PairedBlocks().leave(1.0, False)


def test_slide_is_enter_then_leave(small_blocks: None) -> None:
    """The full window's one-call path (slide) against enter and leave, step by step, ties and splits included."""
    rng = random.Random(12)
    fast, slow = PairedBlocks(), PairedBlocks()
    held: list[tuple[float, bool]] = []
    for step in range(4000):
        c = rng.random() < 0.4
        x = float(rng.randint(-20, 20)) if rng.random() < 0.6 else rng.uniform(-20, 20)
        if len(held) < 60 + (step // 500) % 3 * 40:  # the window grows and shrinks: splits and joins
            assert fast.enter(x, c) == slow.enter(x, c)
        else:
            y, yc = held.pop(rng.randrange(len(held)) if rng.random() < 0.2 else 0)
            want = (*slow.enter(x, c), *slow.leave(y, yc))
            assert fast.slide(x, c, y, yc) == want
        held.append((x, c))
        fast._check()
        assert (fast.maxes, fast.pos, fast.neg, fast.plen, fast.nlen) == (slow.maxes, slow.pos, slow.neg, slow.plen, slow.nlen)
    assert len(fast.maxes) > 3  # the walk split and joined blocks
    with pytest.raises(ValueError, match="not among"):
        fast.slide(0.5, True, 99.5, False)


def test_a_long_tie_run_stays_in_one_block(small_blocks: None) -> None:
    """A block whose list is one repeated score cannot be split; ranks stay exact."""
    blocks = PairedBlocks()
    for i in range(40):
        blocks.add(1.0, True)
        blocks.add(float(i % 3), False)
        blocks._check()
    assert blocks.rank(1.0, True) == (0, 40)
    assert blocks.rank(1.0, False) == (14, 27) and blocks.rank(1.5, False) == (27, 27)
    for i in range(40):
        blocks.remove(1.0, True)
        blocks._check()
    assert blocks.count(True) == 0 and blocks.rank(5.0, False) == (40, 40)


def test_short_path_does_what_the_methods_do(small_blocks: None) -> None:
    """add_case's short path (PairedBlocks.enter/.leave after an AUC query) leaves what the general path leaves."""
    rng = random.Random(3)
    for ties in ("grouped", "stable"):
        fast, slow = WindowedEvaluation(size=30, ties=ties), WindowedEvaluation(size=30, ties=ties)
        fast.area_under_roc_curve()
        taken = 0
        for step in range(3000):
            c = rng.random() < 0.5
            x = float(rng.randint(-6, 6)) if rng.random() < 0.7 else rng.uniform(-6, 6)
            taken += fast._hot == 2
            fast.add_case(c, x)
            slow._cool()  # the general path, which calls the methods (leaving the lean state properly: plain deques)
            slow.add_case(c, x)
            a = fast.area_under_roc_curve()
            assert same(a, slow.area_under_roc_curve())
            assert fast._pairs2 == slow._pairs2
            pf, ps = fast._pb, slow._pb
            assert (pf.maxes, pf.pos, pf.neg, pf.plen, pf.nlen) == (ps.maxes, ps.pos, ps.neg, ps.plen, ps.nlen)
            fast._check()
            slow._check()
        assert taken == 3000 and len(fast._pb.maxes) > 3


def test_lean_state_counts_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lean state (maxlen deques; _first_id, _n_correct and the evaluator renewed by their readers).

    A random walk of plain cases (the lean path), other cases and batches
    (which leave the state), ROC AUC queries (which enter it again, the
    rebuild limit lowered), other queries, properties, state and copies,
    each read first in a random order, held to a literal list of the stream.
    """
    monkeypatch.setattr(W, "_REBUILD_MIN", 4)
    rng = random.Random(8)
    for size, ties in ((7, "grouped"), (1, "stable"), (40, "stable")):
        w = WindowedEvaluation(size=size, ties=ties)
        stream: list[tuple[bool, float]] = []
        lean_adds = 0
        for step in range(1500):
            c = rng.random() < 0.4
            x = float(rng.randint(0, 4)) if rng.random() < 0.5 else rng.random()
            op = rng.random()
            if op < 0.55:
                lean_adds += w._hot < 0
                w.add_case(c, x)
                stream.append((c, x))
            elif op < 0.6:
                w.add_case(int(c), x)  # not a bool: the general path
                stream.append((c, x))
            elif op < 0.65:
                w.add_cases([c, not c], [x, 0.25])
                stream += [(c, x), (not c, 0.25)]
            elif op < 0.72:
                assert same(w.area_under_roc_curve(), fresh(stream[-size:], ties).area_under_roc_curve())
            elif op < 0.75:
                assert same(w.average_precision(), fresh(stream[-size:], ties).average_precision())
            elif op < 0.78:
                assert w == pickle.loads(pickle.dumps(w)) == copy.copy(w)
                assert WindowedEvaluation.from_dict(w.to_dict()) == w
            window = stream[-size:]
            want = {
                "num_cases_seen": len(stream),
                "num_positive_ref": sum(c for c, _ in window),
                "num_negative_ref": sum(not c for c, _ in window),
                "num_cases": len(window),
                "first_id": len(stream) - len(window),
            }
            reads = list(want)
            rng.shuffle(reads)  # each reader renews the counts itself
            for name in reads:
                got = w.to_dict()["first_id"] if name == "first_id" else getattr(w, name)
                assert got == want[name], (size, step, name)
            d = w.to_dict()
            assert d["scores"] == [s for _, s in window] and d["correct"] == [c for c, _ in window]
            if w._hot < 0 or step % 97 == 0:  # _check syncs valid containers: now and then, so lean comes back
                w._check()
        assert lean_adds > 20, (size, lean_adds)  # the lean path ran, from every state it is entered from
    w = WindowedEvaluation(size=3)
    w.add_cases([True, False], [0.5, 0.25])
    w.area_under_roc_curve()
    w.reset()
    for c, x in [(True, 0.9), (False, 0.8), (True, 0.7), (False, 0.6)]:
        w.add_case(c, x)  # lean again after reset
    w.add_misses(1)  # leaves the state: the oldest two cases leave for the miss
    assert (w.num_cases_seen, w.num_positive_ref, w.num_negative_ref, len(w)) == (4, 2, 1, 2)
    w._check()


def test_from_sorted_builds_valid_blocks(small_blocks: None) -> None:
    for n in range(0, 30):
        x = np.array([float(i // 3) for i in range(n)])
        c = np.arange(n) % 2 == 0
        b = PairedBlocks.from_sorted(x, c)
        b._check()
        assert b.items(True) == x[c].tolist() and b.items(False) == x[~c].tolist()


# ------------------------------------------------------------------ golden values


def test_size_window_keeps_the_last_n_cases() -> None:
    w = WindowedEvaluation(size=3, ties="stable")
    w.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.95])
    assert len(w) == 3 and w.num_positive_ref == 1
    assert w.pr_curve().tolist() == [[1.0, 1 / 3]]
    assert w.area_under_roc_curve() == 0.0  # 0.95 F, 0.8 F, 0.7 T
    w.add_case(True, 1.0)  # 0.8 F leaves: 0.7 T, 0.95 F, 1.0 T
    assert w.num_cases == 3 and w.area_under_roc_curve() == 0.5


def test_ties_count_one_half_grouped_and_by_arrival_stable() -> None:
    g = WindowedEvaluation(size=10, ties="grouped")
    s = WindowedEvaluation(size=10, ties="stable")
    for w in (g, s):
        w.add_case(True, 0.5)
        w.add_case(False, 0.5)
        w.add_case(False, 0.5)
        w.add_case(True, 0.5)
    assert g.area_under_roc_curve() == 0.5
    # stable: the first positive ranks above both negatives, the second below both
    assert s.area_under_roc_curve() == 0.5
    s.add_case(False, 0.5)  # the newest: below both positives
    assert s.area_under_roc_curve() == 4 / 6
    t = WindowedEvaluation(size=3, ties="stable")
    for c in (True, False, False, True, False):
        t.add_case(c, 0.5)
    assert t.area_under_roc_curve() == 1 / 2  # F, T, F: the positive beats the later negative


def test_misses_take_places_in_a_size_window() -> None:
    w = WindowedEvaluation(size=4)
    w.add_case(True, 0.9)
    w.add_misses(2)
    w.add_case(False, 0.5)
    assert (w.num_cases, w.num_misses) == (2, 2)
    w.add_negative_misses(1)  # 5 items: the oldest, the correct case, leaves
    assert (w.num_cases, w.num_misses, w.num_negative_misses, w.num_positive_ref) == (1, 2, 1, 2)
    w.add_case(True, 0.1)  # the first miss leaves
    assert (w.num_cases, w.num_misses) == (2, 1)
    w.add_misses(10)  # more than the window: only the last 4 items stay, all misses
    assert (w.num_cases, w.num_misses, w.num_negative_misses) == (0, 4, 0)
    assert math.isnan(w.area_under_roc_curve()) and w.average_precision() == 0.0


def test_time_window_expires_by_time_and_by_the_clock_at_a_query() -> None:
    now = [100.0]
    w = WindowedEvaluation(seconds=10.0, clock=lambda: now[0])
    w.add_case(True, 0.9)
    now[0] = 105.0
    w.add_case(False, 0.3)
    w.add_misses(1)
    assert (len(w), w.num_misses) == (2, 1)
    now[0] = 110.0  # 100 is exactly 10 s old: still in
    assert len(w) == 2
    now[0] = 110.5  # nothing added, but a query reads the clock
    assert (len(w), w.num_positive_ref) == (1, 1)  # the miss at 105 remains
    now[0] = 200.0
    assert (len(w), w.num_misses) == (0, 0) and w.now == 200.0
    assert math.isnan(w.area_under_roc_curve())


def test_explicit_times_and_clock_none() -> None:
    w = WindowedEvaluation(seconds=5, clock=None)
    w.add_cases([True, False, True], [0.3, 0.2, 0.1], times=[0, 1, 6])
    assert len(w) == 2 and w.now == 6.0  # time 0 is more than 5 s before 6
    with pytest.raises(ValueError, match="'time' must be given"):
        w.add_case(True, 0.5)
    with pytest.raises(ValueError, match="must not be earlier than the window's current time 6.0"):
        w.add_case(True, 0.5, time=5.5)
    with pytest.raises(ValueError, match="non-decreasing; got 7.0 at index 2 after 8.0"):
        w.add_cases([True] * 3, [1, 2, 3], times=[7, 8, 7])
    with pytest.raises(ValueError, match=r"must not be earlier.*got 1.0 at index 0"):
        w.add_cases([True], [1], times=[1.0])
    with pytest.raises(ValueError, match="finite real number"):
        w.add_case(True, 0.5, time=math.nan)
    with pytest.raises(TypeError, match="finite real number"):
        w.add_case(True, 0.5, time="7")
    assert len(w) == 2 and w.now == 6.0  # every rejected call changed nothing


def test_rejected_calls_change_nothing() -> None:
    w = WindowedEvaluation(size=3)
    w.add_cases([True, False], [0.5, 0.4])
    before = pickle.dumps(w)
    for bad in (
        lambda: w.add_case("yes", 0.5),
        lambda: w.add_case(True, math.nan),
        lambda: w.add_case(True, 0.5, -1.0),
        lambda: w.add_case(True, 0.5, time=3.0),
        lambda: w.add_cases([True, 2], [0.1, 0.2]),
        lambda: w.add_cases([True], [0.1], times=[1.0]),
        lambda: w.add_misses(-1),
        lambda: w.add_misses(1, time=1.0),
    ):
        with pytest.raises((TypeError, ValueError)):
            bad()
        assert pickle.dumps(w) == before


def test_constructor_validation() -> None:
    with pytest.raises(ValueError, match="exactly one of 'size'"):
        WindowedEvaluation()
    with pytest.raises(ValueError, match="exactly one of 'size'"):
        WindowedEvaluation(3, seconds=1.0)
    with pytest.raises(ValueError, match="'size' must be an int >= 1; got 0"):
        WindowedEvaluation(size=0)
    with pytest.raises(TypeError, match="'size' must be an int >= 1"):
        WindowedEvaluation(size=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'seconds' must be a finite real number > 0"):
        WindowedEvaluation(seconds=math.inf)
    with pytest.raises(TypeError, match="'clock' must be a callable"):
        WindowedEvaluation(seconds=1.0, clock=5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'ties'"):
        WindowedEvaluation(size=3, ties="random")
    assert WindowedEvaluation(size=3).clock is None  # a size window has no clock
    assert WindowedEvaluation(seconds=2).seconds == 2.0


def test_a_weighted_window_and_pos_label() -> None:
    w = WindowedEvaluation(size=3, pos_label="spam")
    w.add_cases(["spam", "ham", "spam"], [0.9, 0.8, 0.1], sample_weight=[1.0, 2.0, 1.0])
    assert w.weighted and w.pos_label == "spam" and w.snapshot().pos_label == "spam"
    ref = E(pos_label="spam")
    ref.add_cases(["spam", "ham", "spam"], [0.9, 0.8, 0.1], sample_weight=[1.0, 2.0, 1.0])
    assert w.area_under_roc_curve() == ref.area_under_roc_curve()
    with pytest.raises(ValueError, match="not defined with sample weights"):
        w.precision_at(1)
    w.add_cases(["ham", "spam"], [0.3, 0.2])  # the weight-2 case leaves: unweighted again
    assert not w.weighted and w.precision_at(1) == 0.0  # the top case is the ham at 0.3
    assert w._weights is None  # nothing stored for weights any more


def test_snapshot_is_independent_and_a_window_has_no_merge() -> None:
    w = WindowedEvaluation(size=2)
    w.add_cases([True, False, True], [0.3, 0.2, 0.1])
    snap = w.snapshot()
    snap.add_case(True, 5.0)
    assert w.num_cases == 2 and snap.num_cases == 3
    assert w.snapshot() == w.snapshot()
    # a window is a span of one stream: no merge method that always raises, no +
    assert not hasattr(w, "merge")
    with pytest.raises(TypeError, match="unsupported operand"):
        w + w  # noqa: B018
    with pytest.raises(TypeError, match="unsupported operand"):
        snap + w  # noqa: B018
    assert (w.snapshot() + w.snapshot()).num_cases == 4


@pytest.mark.parametrize("kind", ["size", "seconds"])
def test_pickle_copy_and_deepcopy_round_trip(kind: str) -> None:
    w = WindowedEvaluation(size=5) if kind == "size" else WindowedEvaluation(seconds=3.0, clock=None)
    t = 0.0
    rng = random.Random(1)
    for i in range(12):
        t += 0.5
        kw = {} if kind == "size" else {"time": t}
        if i % 5 == 4:
            w.add_misses(1, **kw)
        else:
            w.add_case(rng.random() < 0.5, float(rng.randint(0, 3)), 1.0 if i != 10 else 2.0, **kw)
    for other in (pickle.loads(pickle.dumps(w)), copy.copy(w), copy.deepcopy(w)):
        assert other == w and other is not w
        assert same(other.summary(), w.summary())
        assert same(other.area_under_roc_curve(), w.area_under_roc_curve())
        kw = {} if kind == "size" else {"time": t + 1}
        other.add_case(True, 9.0, **kw)
        assert other != w


def test_repr_shows_the_window_and_its_auc() -> None:
    w = WindowedEvaluation(size=10)
    w.add_cases([True, False], [0.9, 0.1])
    assert repr(w) == (
        "WindowedEvaluation(size=10, ties='grouped', num_cases=2, num_positive_ref=1, "
        "num_negative_ref=1, area_under_roc_curve=1.0)"
    )


def test_auc_after_every_case_equals_the_lazy_and_rebuilt_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The three ways to the rank sum agree: eager per case, replayed at a query, rebuilt from the ranking."""
    monkeypatch.setattr(SB, "LOAD", 8)
    monkeypatch.setattr(SB, "HALF", 4)
    monkeypatch.setattr(SB, "TWICE", 16)
    monkeypatch.setattr(W, "_REBUILD_MIN", 0)  # rebuild beyond 200 / 8 = 25 changes
    monkeypatch.setattr(W, "_REBUILD_SHIFT", 3)
    rng = np.random.default_rng(5)
    y = rng.random(3000) < 0.4
    s = np.round(rng.normal(size=3000), 1)  # many ties
    gaps = random.Random(2)
    paths = {"replayed": 0, "rebuilt": 0, "lean": 0}
    for ties in ("grouped", "stable"):
        eager, lazy = WindowedEvaluation(size=200, ties=ties), WindowedEvaluation(size=200, ties=ties)
        due = 0
        for i, (c, v) in enumerate(zip(y.tolist(), s.tolist())):
            eager.add_case(c, v)
            a = eager.area_under_roc_curve()
            paths["lean"] += lazy._hot == W._LEAN
            lazy.add_case(c, v)
            if i == due:
                valid = lazy._valid
                assert same(lazy.area_under_roc_curve(), a)
                paths["replayed" if valid and lazy._valid else "rebuilt"] += 1
                due = i + gaps.choice([1, 3, 3, 40])
        eager._check()
        lazy._check()
        assert eager._valid and paths["replayed"] > 50 and paths["rebuilt"] > 20 and paths["lean"] > 100, paths
        items = list(zip(y[-200:].tolist(), s[-200:].tolist()))
        assert eager.area_under_roc_curve() == mann_whitney(items, 0, 0, ties)


@pytest.mark.parametrize("first", ["average_precision", "area_under_roc_curve"])
def test_periodic_queries_on_batches_reuse_the_windows_evaluator(first: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Queries after each add_cases batch: the ROC AUC comes from the window's evaluator, not a case-by-case replay.

    The workload of benchmarks/bench_windows.py's "batches" section, scaled
    down: replaying the 2 x 1,000 cases that entered and left through the
    sorted containers cost more than all three queries together, whether the
    AP query had just built the evaluator or the ROC AUC was asked first.
    """
    moved = {"n": 0}
    enter, leave = PairedBlocks.enter, PairedBlocks.leave

    def counting_enter(self: PairedBlocks, x: float, correct: bool) -> tuple[int, int]:
        moved["n"] += 1
        return enter(self, x, correct)

    def counting_leave(self: PairedBlocks, x: float, correct: bool) -> tuple[int, int]:
        moved["n"] += 1
        return leave(self, x, correct)

    monkeypatch.setattr(PairedBlocks, "enter", counting_enter)
    monkeypatch.setattr(PairedBlocks, "leave", counting_leave)
    rng = np.random.default_rng(11)
    size, batch, n = 20_000, 1_000, 24_000
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 2)  # ties, both classes in some groups
    others = [q for q in ("average_precision", "area_under_roc_curve", "maximum_f_measure") if q != first]
    for ties in ("grouped", "stable"):
        w = WindowedEvaluation(size=size, ties=ties)
        w.add_cases(y[:size], s[:size])
        w.area_under_roc_curve()  # the containers in sync: the next ROC AUC query could replay
        moved["n"] = 0
        for i in range(size, n, batch):
            w.add_cases(y[i : i + batch], s[i : i + batch])
            lo = i + batch - size
            ref = fresh(list(zip(y[lo : i + batch].tolist(), s[lo : i + batch].tolist())), ties)
            for q in (first, *others):
                assert same(getattr(w, q)(), getattr(ref, q)()), q
        assert moved["n"] == 0, moved
        w._check()


def test_memory_is_bounded_by_the_window() -> None:
    def retained(adds: int) -> int:
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        w = WindowedEvaluation(size=1000)
        rng = random.Random(0)
        for i in range(adds):
            w.add_case(rng.random() < 0.3, rng.random())
            if i % 5000 == 0:
                w.area_under_roc_curve()
        w.area_under_roc_curve()
        w.average_precision()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        return held

    small, large = retained(10_000), retained(200_000)
    assert large <= 1.2 * small, (small, large)
    assert small < 400 * 1000  # well under 400 bytes per case in the window



# ------------------------------------------------------- SummaryLogger and the CLI


def test_summary_logger_feeds_a_window_beside_the_evaluator() -> None:
    from scored_pr.streaming import SummaryLogger

    lines: list[Any] = []
    logger = SummaryLogger(E(), lines.append, every=3, window=WindowedEvaluation(size=2))
    logger.add_case(True, 0.9)
    logger.add_cases((c for c in [False, True]), iter([0.8, 0.1]))  # iterables, read once by each
    logger.add_misses(1)
    logger.add_case(False, 0.05)
    logger.close()
    assert len(lines) == 2
    last = lines[-1]
    ref = E()
    ref.add_cases([True, False, True, False], [0.9, 0.8, 0.1, 0.05])
    ref.add_misses(1)
    window = E()
    window.add_cases([False], [0.05])
    window.add_misses(1)  # size 2: the miss and the last case
    assert last["step"] == 4  # cases seen by the evaluator (the window's are under window_)
    cumulative = {k: v for k, v in last.items() if not k.startswith("window_") and k not in ("step", "time")}
    assert same(cumulative, ref.summary())
    assert same({k[7:]: v for k, v in last.items() if k.startswith("window_")}, window.summary())
    assert " | window: cases=1 pos=1 " in str(last)
    with pytest.raises(TypeError, match="'window' must be a WindowedEvaluation"):
        SummaryLogger(E(), print, every=1, window=E())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must have the evaluation's pos_label"):
        SummaryLogger(E(), print, every=1, window=WindowedEvaluation(size=3, pos_label="spam"))


def test_summary_logger_over_a_window_counts_cases_that_left() -> None:
    from scored_pr.streaming import SummaryLogger

    lines: list[Any] = []
    w = WindowedEvaluation(size=2)
    logger = SummaryLogger(w, lines.append, every=3)
    logger.add_cases([True, False, True, False], [4, 3, 2, 1])  # 4 arrived though the window holds 2
    assert len(lines) == 1 and lines[0]["num_cases"] == 2 and w.num_cases_seen == 4


# ------------------------------------------------------- the differential machine

SCORES = st.one_of(
    st.integers(-2, 2).map(float), st.floats(-10, 10, allow_nan=False), st.sampled_from([math.inf, -math.inf, -0.0])
)
STEPS = {"examples": 0, "steps": 0, "short": 0, "lean": 0}


class WindowMachine(RuleBasedStateMachine):
    """Random additions, misses and clock ticks; every query checked against a fresh evaluator."""

    @initialize(
        kind=st.sampled_from(["size", "seconds"]),
        size=st.integers(1, 12),
        seconds=st.sampled_from([0.5, 2.0, 5.0]),
        ties=st.sampled_from(["grouped", "stable"]),
        load=st.sampled_from([2, 4, 1000]),
        rebuild=st.sampled_from([0, 4, 10**9]),
        replay=st.sampled_from([0, 2, 10**9]),
    )
    def start(self, kind: str, size: int, seconds: float, ties: str, load: int, rebuild: int, replay: int) -> None:
        self._saved = (set_load(load), W._REBUILD_MIN, W._REPLAY_MAX)
        W._REBUILD_MIN = rebuild
        W._REPLAY_MAX = replay
        self.kind, self.size, self.seconds, self.ties = kind, size, seconds, ties
        self.clock = 0.0
        if kind == "size":
            self.w = WindowedEvaluation(size=size, ties=ties)
        else:
            self.w = WindowedEvaluation(seconds=seconds, clock=lambda: self.clock, ties=ties)
        #: every item ever added: ("case", correct, score, weight, time) or ("miss"/"negative", time)
        self.items: list[tuple[Any, ...]] = []
        self.now = -math.inf
        STEPS["examples"] += 1

    def teardown(self) -> None:
        if hasattr(self, "_saved"):
            restore_load(self._saved[0])
            W._REBUILD_MIN = self._saved[1]
            W._REPLAY_MAX = self._saved[2]

    def _t(self) -> dict[str, float]:
        return {}

    @rule(correct=st.booleans(), score=SCORES, weighted=st.sampled_from([False, False, False, True]))
    def add_case(self, correct: bool, score: float, weighted: bool) -> None:
        weight = 2.5 if weighted else 1.0
        self.now = max(self.now, self.clock)
        if not weighted:  # the short paths of add_case (see WindowedEvaluation._hot)
            STEPS["short"] += self.w._hot == 2
            STEPS["lean"] += self.w._hot == W._LEAN
        self.w.add_case(correct, score, weight)
        self.items.append(("case", correct, score, weight, self.clock))

    @rule(correct=st.booleans(), score=SCORES)
    def auc_then_add_case(self, correct: bool, score: float) -> None:
        # The ROC AUC asked, then a plain case: the order that sets up the short path (_hot == 2),
        # drawn as one rule so the walks reach it more often than two rules drawn in turn would.
        self.w.area_under_roc_curve()
        self.add_case(correct, score, False)

    @rule(batch=st.lists(st.tuples(st.booleans(), SCORES), max_size=6))
    def add_cases(self, batch: list[tuple[bool, float]]) -> None:
        if batch:
            self.now = max(self.now, self.clock)
        self.w.add_cases([c for c, _ in batch], [s for _, s in batch])
        self.items.extend(("case", c, s, 1.0, self.clock) for c, s in batch)

    @rule(count=st.integers(0, 3), positive=st.booleans())
    def add_misses(self, count: int, positive: bool) -> None:
        if positive:
            self.w.add_misses(count)
        else:
            self.w.add_negative_misses(count)
        if count:
            self.now = max(self.now, self.clock)
        self.items.extend(("miss" if positive else "negative", self.clock) for _ in range(count))

    @rule(dt=st.sampled_from([0.0, 0.25, 0.5, 1.0, 3.0]))
    def tick(self, dt: float) -> None:
        self.clock += dt

    @rule()
    def auc(self) -> None:
        self.w.area_under_roc_curve()  # keeps the incremental path busy between checks

    @rule()
    def round_trip(self) -> None:
        self.w = pickle.loads(pickle.dumps(self.w)) if self.kind == "size" else copy.copy(self.w)

    def live(self) -> list[tuple[Any, ...]]:
        if self.kind == "size":
            return self.items[-self.size :]
        now = max(self.now, self.clock)
        return [it for it in self.items if it[-1] >= now - self.seconds]

    @invariant()
    def matches_a_fresh_evaluator(self) -> None:
        STEPS["steps"] += 1
        live = self.live()
        ref = E(ties=self.ties)
        cases = [it for it in live if it[0] == "case"]
        for _, c, s, wt, _t in cases:
            ref.add_case(c, s, wt)
        misses = sum(1 for it in live if it[0] == "miss")
        negative = sum(1 for it in live if it[0] == "negative")
        ref.add_misses(misses)
        ref.add_negative_misses(negative)
        assert_matches(self.w, ref, [(c, s) for _, c, s, _w, _t in cases], misses, negative)
        assert same(self.w.snapshot().summary(), ref.summary())
        self.w._check()


WindowMachine.TestCase.settings = settings(
    max_examples=int(__import__("os").environ.get("SCORED_PR_WINDOW_EXAMPLES", "150")),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestWindowMachine = WindowMachine.TestCase


def test_the_state_machine_took_the_short_paths() -> None:
    """Runs after TestWindowMachine: its random walks went through both short paths of add_case."""
    if not STEPS["examples"]:
        pytest.skip("run together with TestWindowMachine")
    print(f"window state machine: {STEPS}")
    assert STEPS["short"] > 0, STEPS  # the lean path: also test_auc_after_every_case_equals_the_lazy_and_rebuilt_paths


# ------------------------------------------------------------- explicit times and the clock


def fresh(cases: list[tuple[bool, float]], ties: str = "grouped") -> E:
    ev = E(ties=ties)
    if cases:
        ev.add_cases([c for c, _ in cases], [s for _, s in cases])
    return ev


def test_explicit_times_without_a_clock_argument_run_on_those_times() -> None:
    """The issue's reproducer: seconds=10 fed times 0, 5, 12 held 0 cases (the queries read time.monotonic)."""
    w = WindowedEvaluation(seconds=10)
    w.add_case(True, 0.9, time=0.0)
    w.add_case(False, 0.4, time=5.0)
    w.add_case(True, 0.2, time=12.0)
    assert (len(w), w.now, w.clock) == (2, 12.0, None)  # time 0 is more than 10 s before 12
    assert w.area_under_roc_curve() == fresh([(False, 0.4), (True, 0.2)]).area_under_roc_curve()
    before = pickle.dumps(w)
    with pytest.raises(ValueError, match="argument 'time' must be given.*first item came with a time"):
        w.add_case(True, 0.5)
    assert pickle.dumps(w) == before
    w2 = pickle.loads(before)
    w2.add_cases([True, False], [0.3, 0.1], times=[20.0, 21.0])
    assert (len(w2), w2.now) == (3, 21.0)  # 12, 20, 21
    w3 = WindowedEvaluation(seconds=10)
    w3.add_misses(2, time=3.0)
    assert w3.clock is None and w3.num_misses == 2


def test_an_explicit_time_after_default_clock_times_is_a_clear_error() -> None:
    w = WindowedEvaluation(seconds=10)
    assert w.clock is __import__("time").monotonic
    w.add_case(True, 0.9)  # timed by time.monotonic: the window runs on that clock now
    before = pickle.dumps(w)
    for bad in (lambda: w.add_case(False, 0.1, time=5.0), lambda: w.add_cases([False], [0.1], times=[5.0]),
                lambda: w.add_misses(1, time=5.0)):
        with pytest.raises(ValueError, match="argument 'times?' was given, but this window times .* default clock"):
            bad()
        assert pickle.dumps(w) == before
    assert len(w) == 1


def test_a_clock_that_steps_back_is_tolerated_in_additions() -> None:
    """Queries already tolerated it; additions raised, naming a 'time' argument the caller never passed."""
    now = [100.0]
    w = WindowedEvaluation(seconds=10.0, clock=lambda: now[0])
    w.add_case(True, 0.9)
    now[0] = 50.0  # NTP step, a VM restore: the clock goes back
    w.add_case(False, 0.5)
    w.add_cases([True, False], [0.3, 0.2])
    w.add_misses(1)
    w.add_negative_misses(1)
    assert (len(w), w.now, w.num_misses, w.num_negative_misses) == (4, 100.0, 1, 1)
    w._check()
    now[0] = 110.0  # every item took the window's current time, 100: still in
    assert len(w) == 4
    now[0] = 110.5
    assert len(w) == 0
    explicit = WindowedEvaluation(seconds=10.0, clock=lambda: now[0])
    explicit.add_case(True, 0.9, time=200.0)
    with pytest.raises(ValueError, match="argument 'time' must not be earlier"):  # the caller's own time: an error
        explicit.add_case(True, 0.9, time=150.0)


# ------------------------------------------------------------- add_cases under Ctrl-C


def window_setup(kind: str) -> WindowedEvaluation:
    """A window with cases, a miss and a ROC AUC query behind it (sorted containers in sync)."""
    if kind == "size":
        w = WindowedEvaluation(size=6)
        w.add_cases([True, False, True, False], [0.5, 0.4, 0.4, 0.1])
        w.add_misses(1)
    else:
        w = WindowedEvaluation(seconds=3.0, clock=None)
        w.add_cases([True, False, True, False], [0.5, 0.4, 0.4, 0.1], times=[0.0, 1.0, 2.0, 2.5])
        w.add_misses(1, time=2.5)
    w.area_under_roc_curve()
    w.add_case(False, 0.45, **({} if kind == "size" else {"time": 2.5}))
    w.area_under_roc_curve()
    return w


def window_batch(kind: str) -> dict[str, Any]:
    batch: dict[str, Any] = {"correct": [True, False, False, True, True], "scores": [0.3, 0.45, 0.2, 0.9, 0.4]}
    if kind == "time":
        batch["times"] = [3.0, 4.0, 4.5, 6.0, 6.0]
    return batch


def window_answers(w: WindowedEvaluation) -> list[Any]:
    values = [w.area_under_roc_curve(), w.average_precision(), w.num_positive_ref, w.num_negative_ref, w.num_cases]
    return ["nan" if v != v else v for v in values]


@pytest.mark.parametrize("kind", ["size", "time"])
@pytest.mark.parametrize(("where", "at"), [("_leaving", 1), ("_drop_oldest", 1), ("_drop_oldest", 2), ("_drop_oldest", 4)])
def test_add_cases_interrupted_part_way_changes_nothing(kind: str, where: str, at: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a batch goes in (the at-th oldest item leaving it): the window is as before, consistent, and answers as before."""
    w = window_setup(kind)
    before = w.__getstate__()
    answers = window_answers(window_setup(kind))
    real = getattr(WindowedEvaluation, where)
    calls = 0

    def interrupted(self: WindowedEvaluation, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == at:
            raise KeyboardInterrupt
        return real(self, *args)

    monkeypatch.setattr(WindowedEvaluation, where, interrupted)
    with pytest.raises(KeyboardInterrupt):
        w.add_cases(**window_batch(kind))
    monkeypatch.undo()
    assert w.__getstate__() == before
    w._check()
    assert window_answers(w) == answers
    w.add_cases(**window_batch(kind))  # and it goes on as the untouched window does
    other = window_setup(kind)
    other.add_cases(**window_batch(kind))
    assert w == other and window_answers(w) == window_answers(other)


@pytest.mark.parametrize("kind", ["size", "time"])
def test_add_cases_is_add_case_in_a_loop(kind: str) -> None:
    """The batch path gives the window a loop of add_case gives, weights and misses included."""
    rng = np.random.default_rng(4)
    for trial in range(30):
        a = WindowedEvaluation(size=7) if kind == "size" else WindowedEvaluation(seconds=2.0, clock=None)
        b = copy.copy(a)
        now = 0.0
        for step in range(6):
            n = int(rng.integers(0, 6))
            y, s = (rng.random(n) < 0.5).tolist(), rng.integers(0, 4, n).astype(float).tolist()
            wts = rng.choice([1.0, 0.5, 2.0], n).tolist() if trial % 2 else None
            ts = (now + np.cumsum(rng.random(n))).tolist() if kind == "time" else None
            a.add_cases(y, s, wts, **({"times": ts} if ts is not None else {}))
            for i in range(n):
                b.add_case(y[i], s[i], 1.0 if wts is None else wts[i], **({"time": ts[i]} if ts is not None else {}))
            if ts:
                now = ts[-1]
            if step % 2:
                a.add_misses(1, **({"time": now} if kind == "time" else {}))
                b.add_misses(1, **({"time": now} if kind == "time" else {}))
            a._check()
            assert a == b and window_answers(a) == window_answers(b), (trial, step)


class _Fault(Exception):
    pass


@pytest.mark.parametrize("kind", ["size", "time"])
def test_add_cases_failing_at_any_line_leaves_the_window_as_before_or_after(kind: str) -> None:
    watched = {W.__file__, WM.__file__, SB.__file__}

    def run(op: Any, at: int | None) -> int:
        return run_with_fault(op, at, watched, _Fault)

    before = window_setup(kind).__getstate__()
    after_w = window_setup(kind)
    total = run(lambda: after_w.add_cases(**window_batch(kind)), None)
    after = after_w.__getstate__()
    assert total > 20
    for at in range(1, total + 1):
        w = window_setup(kind)
        with pytest.raises(_Fault):
            run(lambda: w.add_cases(**window_batch(kind)), at)
        state = w.__getstate__()
        assert state in (before, after), f"inconsistent window after a fault at line event {at}/{total}"
        w._check()
        expect = after_w if state == after else window_setup(kind)
        assert window_answers(w) == window_answers(expect), at

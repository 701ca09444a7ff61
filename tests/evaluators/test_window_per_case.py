"""A full window's per-case paths: PairedBlocks.slide_pairs against a literal pair count, and the window's
keyword-only parameters (taken behind a marker parameter, see scored_pr/_evaluators/fastcall.py).

The rest of the window's contract (the differential state machine, the container's other methods,
the short paths against the general ones) is in test_windows.py.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scored_pr._core.sortedblocks as SB
from scored_pr import WindowedEvaluation
from scored_pr._core.sortedblocks import PairedBlocks

P = inspect.Parameter


def set_load(load: int) -> tuple[int, int, int]:
    """Blocks of about ``load`` scores, so that a few cases split and join them; returns the old setting."""
    old = (SB.LOAD, SB.HALF, SB.TWICE)
    SB.LOAD, SB.HALF, SB.TWICE = load, load >> 1, 2 * load
    return old


@pytest.fixture
def small_blocks() -> Any:
    old = set_load(4)
    yield
    SB.LOAD, SB.HALF, SB.TWICE = old


def pairs2_of(items: list[tuple[float, bool]], ties: str) -> int:
    """Twice the Mann-Whitney count of a window (oldest first), by counting every pair (slow, literal)."""
    total = 0
    for i, (sp, cp) in enumerate(items):
        for j, (sn, cn) in enumerate(items):
            if cp and not cn:
                if sp > sn:
                    total += 2
                elif sp == sn:
                    total += 1 if ties == "grouped" else 2 * (i < j)
    return total


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ties=st.sampled_from(["grouped", "stable"]),
    size=st.integers(1, 40),
    load=st.sampled_from([2, 4, 8]),
    cases=st.lists(
        st.tuples(
            st.one_of(st.sampled_from([-1.0, -0.0, 0.0, 0.5, 1.0, 2.0]), st.floats(-3, 3, allow_nan=False)),
            st.booleans(),
        ),
        min_size=1,
        max_size=160,
    ),
)
def test_slide_pairs_is_the_literal_pair_count(ties: str, size: int, load: int, cases: list[tuple[float, bool]]) -> None:
    """slide_pairs (the full window's per-case path) against a literal count of the window's pairs after every case.

    Ties (repeated scores, -0.0 beside 0.0), both policies, same- and
    mixed-class slides, blocks small enough to split and join; the blocks
    end exactly as slide (enter, then leave) leaves them.
    """
    old = set_load(load)
    try:
        grouped = ties == "grouped"
        fast, slow = PairedBlocks(), PairedBlocks()
        window: list[tuple[float, bool]] = []
        pairs2 = 0
        for x, c in cases:
            if len(window) < size:
                fast.enter(x, c)
                slow.enter(x, c)
                window.append((x, c))
                pairs2 = pairs2_of(window, ties)
                continue
            y, yc = window.pop(0)
            window.append((x, c))
            n_correct = sum(1 for _, k in window[:-1] if k) + yc  # before the slide
            pairs2 += fast.slide_pairs(x, c, y, yc, grouped, n_correct)
            slow.slide(x, c, y, yc)
            assert pairs2 == pairs2_of(window, ties)
            fast._check()
            assert (fast.maxes, fast.pos, fast.neg, fast.plen, fast.nlen) == (slow.maxes, slow.pos, slow.neg, slow.plen, slow.nlen)
    finally:
        SB.LOAD, SB.HALF, SB.TWICE = old


def test_slide_pairs_refuses_an_absent_score_and_changes_nothing(small_blocks: None) -> None:
    blocks = PairedBlocks()
    for i in range(30):
        blocks.enter(float(i % 7) + (0.0 if i % 3 == 0 else 0.25), i % 3 == 0)
    before = (list(blocks.maxes), [list(b) for b in blocks.pos], [list(b) for b in blocks.neg], list(blocks.plen), list(blocks.nlen))
    for y, yc in ((99.5, False), (-99.5, True), (0.5, True), (1.25, True)):  # beyond the bounds, inside, the other class's
        for x in (0.25, 99.0):  # x inside the bounds, or a new maximum
            with pytest.raises(ValueError, match="not among"):
                blocks.slide_pairs(x, True, y, yc, True, 10)
    assert (blocks.maxes, blocks.pos, blocks.neg, blocks.plen, blocks.nlen) == before
    with pytest.raises(ValueError, match="not among"):
        PairedBlocks().slide_pairs(1.0, True, 1.0, False, False, 0)


@pytest.mark.parametrize("extent", [{"size": 3}, {"seconds": 10.0, "clock": None}])
def test_keyword_only_parameters_refuse_a_positional_argument_and_change_nothing(extent: dict[str, Any]) -> None:
    """add_case's time and area_under_roc_curve's max_fpr/standardized are keyword-only, as their signatures say.

    (Their code takes them behind a marker parameter, so that CPython
    specialises the per-case calls: see _evaluators/fastcall.py.)
    """
    w = WindowedEvaluation(**extent)
    timed = {"time": 1.0} if "seconds" in extent else {}
    w.add_case(True, 0.9, **timed)
    w.add_case(False, 0.4, **timed)
    assert w.area_under_roc_curve() == 1.0
    before, seen = w.to_dict(), w.num_cases_seen
    for call in (
        lambda: w.add_case(False, 0.5, 1.0, 2.0),
        lambda: w.add_case(False, 0.5, 1.0, 2.0, time=2.0),
        lambda: w.add_case(False, 0.5, _kw=2.0),
        lambda: w.area_under_roc_curve(False, 0.5),
        lambda: w.area_under_roc_curve(True, None, True),
    ):
        with pytest.raises(TypeError, match="keyword-only"):
            call()
        assert w.to_dict() == before and w.num_cases_seen == seen
    assert w.area_under_roc_curve() == 1.0 and w.area_under_roc_curve(max_fpr=0.5) == 1.0
    kinds = {name: p.kind for name, p in inspect.signature(w.add_case).parameters.items()}
    assert kinds == {"correct": P.POSITIONAL_OR_KEYWORD, "score": P.POSITIONAL_OR_KEYWORD, "weight": P.POSITIONAL_OR_KEYWORD, "time": P.KEYWORD_ONLY}
    kinds = {name: p.kind for name, p in inspect.signature(w.area_under_roc_curve).parameters.items()}
    assert kinds == {"interpolate": P.POSITIONAL_OR_KEYWORD, "max_fpr": P.KEYWORD_ONLY, "standardized": P.KEYWORD_ONLY}

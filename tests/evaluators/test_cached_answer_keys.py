"""The exact evaluator's kept answers: a one-argument call is looked up before its type is checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation


def _fresh() -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True, False, True], [0.9, 0.8, 0.7, 0.3, 0.1])
    return ev


def test_an_argument_of_another_type_finds_no_kept_answer() -> None:
    """3, 3.0 and True are equal and hash alike: each is answered (and kept) for its own type."""
    ev = _fresh()
    assert ev.precision_at(3) == pytest.approx(2 / 3)
    with pytest.raises(TypeError, match="k"):
        ev.precision_at(3.0)  # a float rank is refused, not answered from the int's entry
    with pytest.raises(TypeError, match="k"):
        ev.precision_at(True)


def test_an_unhashable_argument_takes_the_guarded_path() -> None:
    """A list is no key (its lookup raises TypeError inside): the query answers or refuses as before."""
    ev = _fresh()
    ev.precision_at(3)
    with pytest.raises((TypeError, ValueError)):
        ev.precision_at([3])  # type: ignore[arg-type]
    assert ev.precision_at(3) == pytest.approx(2 / 3)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([1, 2, 3, 5]), st.sampled_from([False, True]))
def test_a_repeated_call_returns_the_first_answer(k: int, interpolate: bool) -> None:
    """Asked twice, or after a fresh evaluator answered it, the same value, bit for bit."""
    ev = _fresh()
    first = (ev.precision_at(k), ev.area_under_roc_curve(interpolate), ev.average_precision())
    again = (ev.precision_at(k), ev.area_under_roc_curve(interpolate), ev.average_precision())
    other = _fresh()
    alone = (other.precision_at(k), other.area_under_roc_curve(interpolate), other.average_precision())
    assert np.array_equal(np.array(first), np.array(again)) and np.array_equal(np.array(first), np.array(alone))

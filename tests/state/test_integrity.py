"""Regression tests for the integrity issues: each was reproduced before its fix.

Numbers in the test names refer to the items of the integrity report (what was
lost, double-counted, accepted without validation, or crashed).
"""

from __future__ import annotations

import json
import math
import pickle
import warnings

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._validation import MAX_COUNT


def unchanged(ev: E) -> tuple[object, ...]:
    return (ev.num_cases, ev.num_positive_ref, ev.num_negative_ref, ev.to_dict()["scores"])


# 3. masked arrays -------------------------------------------------------------------------------


def test_3_masked_arrays_with_masked_entries_are_rejected() -> None:
    ev = E(ties="grouped")
    ev.add_case(True, 0.5)
    before = unchanged(ev)
    with pytest.raises(ValueError, match=r"add_cases: argument 'scores' must not hold masked values.*index 1"):
        ev.add_cases([True, False, True], np.ma.masked_invalid([0.9, np.nan, 0.1]))
    with pytest.raises(ValueError, match=r"argument 'correct' must not hold masked values.*index 0"):
        ev.add_cases(np.ma.masked_array([True, False], mask=[True, False]), [0.1, 0.2])
    assert unchanged(ev) == before
    ev.save  # the state stays saveable: nothing masked got in
    ev.add_cases(np.ma.masked_array([True, False]), np.ma.masked_array([0.9, 0.1]))  # fully unmasked: fine
    assert ev.num_cases == 3 and json.dumps(ev.to_dict()) and pickle.loads(pickle.dumps(ev)) == ev


# 4. counts beyond float range ---------------------------------------------------------------------


@pytest.mark.parametrize("method", ["add_misses", "add_negative_misses"])
def test_4_counts_beyond_2_to_53_are_rejected_at_the_call(method: str) -> None:
    ev = E(ties="grouped")
    ev.add_case(True, 1.0)
    with pytest.raises(ValueError, match=rf"{method}: argument 'count' must be a non-negative int of at most 2\*\*53"):
        getattr(ev, method)(10**309)
    getattr(ev, method)(MAX_COUNT - 1)
    with pytest.raises(ValueError, match=r"the total must stay within 2\*\*53"):
        getattr(ev, method)(2)
    str(ev), ev.summary()  # every query still works: no OverflowError anywhere


def test_4_counts_beyond_2_to_53_are_rejected_by_every_loader(tmp_path) -> None:
    d = E(ties="grouped").to_dict()
    with pytest.raises(ValueError, match="misses"):
        E.from_dict({**d, "misses": 10**309})
    state = {"version": 1, "ties": "grouped", "neg_scores": np.zeros(0), "correct": np.zeros(0, bool),
             "misses": 10**309, "negative_misses": 0}
    from scored_pr._state import exact as _exact_state

    with pytest.raises(ValueError, match="misses"):
        _exact_state.restore(E, state)


# 7. overflow and warnings through the API ---------------------------------------------------------


@pytest.mark.parametrize("bad, where", [
    (10**400, "float64"),
    (np.longdouble("1e400"), "float64"),
    (2**53 + 1, "exactly representable"),
    (np.int64(1700000000000000143), "exactly representable"),
])
def test_7_overflowing_or_inexact_scores_are_rejected_without_warnings(bad: object, where: str) -> None:
    ev = E(ties="grouped")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=where):
            ev.add_case(True, bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=rf"{where}.* at index 1"):
            ev.add_cases([False, True], [0.5, bad])
        array = np.array([0.5, bad], dtype=np.longdouble if isinstance(bad, np.longdouble) else object)
        with pytest.raises(ValueError, match=rf"{where}.* at index 1"):
            ev.add_cases([False, True], array)
    assert ev.num_cases == 0


def test_7_distinct_integer_scores_are_never_merged_into_a_tie() -> None:
    ev = E(ties="grouped")
    with pytest.raises(ValueError, match=r"exactly representable as a float64.* at index 0"):
        ev.add_cases([0, 1], np.array([1700000000000000143, 1700000000000000189]))
    ev.add_cases([0, 1], np.array([2**53, 2**53 + 2]))  # both exact in float64: accepted, and distinct
    assert ev.area_under_roc_curve() == 1.0


# 12. smaller items --------------------------------------------------------------------------------


@pytest.mark.parametrize("beta", [1e-300, 1e-20, 1e20, 1e154, 1e155, 1e300])
def test_12_f_measure_is_stable_for_huge_and_tiny_beta(beta: float) -> None:
    ev = E(ties="stable")
    ev.add_cases([True, False, True, False], [4.0, 3.0, 2.0, 1.0])
    ev.add_misses(1)
    # beta -> infinity: F -> recall at the best point (2/3); beta -> 0: F -> precision (1.0 at rank 1)
    want = 2 / 3 if beta > 1 else 1.0
    assert math.isclose(ev.maximum_f_measure(beta), want, rel_tol=1e-9)
    assert math.isclose(ev.f_measure_at(3, beta), 2 / 3, rel_tol=1e-9)
    assert not math.isnan(ev.maximum_f_measure_threshold(beta).precision)


@pytest.mark.parametrize("unordered", [{0.1, 0.2}, {0.1: 1, 0.2: 2}, frozenset({0.3, 0.4})])
def test_12_unordered_iterables_are_rejected(unordered: object) -> None:
    ev = E(ties="grouped")
    with pytest.raises(TypeError, match=r"argument 'scores' must be an ordered sequence or array"):
        ev.add_cases([True, False], unordered)
    with pytest.raises(TypeError, match=r"argument 'correct' must be an ordered sequence or array"):
        ev.add_cases({True, False}, [0.1, 0.2])
    assert ev.num_cases == 0


def test_12_pickled_state_is_versioned_and_checked() -> None:
    from scored_pr._state import exact as _exact_state

    ev = E(ties="grouped")
    ev.add_cases([True, False], [0.5, 0.25])
    state = _exact_state.pickle_state(ev)
    assert state["version"] == 1  # no weights and no positive label: format 1, which every release reads
    assert pickle.loads(pickle.dumps(ev)) == ev
    old = {k: v for k, v in state.items() if k != "version"}  # pickles made before the field existed
    assert _exact_state.restore(E, old) == ev
    with pytest.raises(ValueError, match=r"missing \['misses'\]"):
        _exact_state.restore(E, {k: v for k, v in state.items() if k != "misses"})
    with pytest.raises(ValueError, match="format version 3"):
        _exact_state.restore(E, {**state, "version": 3})
    with pytest.raises(ValueError, match=r"unexpected \['weights'\]"):  # format 1 has no weights
        _exact_state.restore(E, {**state, "weights": np.ones(2)})
    with pytest.raises(ValueError, match="format version True"):
        _exact_state.restore(E, {**state, "version": True})


@pytest.mark.parametrize("version", [True, 1.0, "1", 3])
def test_12_load_and_from_dict_agree_on_the_version_field(tmp_path, version: object) -> None:
    import zipfile
    import io

    ev = E(ties="grouped")
    ev.add_case(True, 1.0)
    with pytest.raises(ValueError, match="version"):
        E.from_dict({**ev.to_dict(), "version": version})
    path = tmp_path / "s.npz"
    ev.save(path)
    with np.load(path) as npz:
        arrays = {k: npz[k] for k in npz.files}
    meta = json.loads(arrays["meta"].tobytes())
    meta["version"] = version
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    path.write_bytes(buf.getvalue())
    assert zipfile.is_zipfile(path)
    with pytest.raises(ValueError, match="version"):
        E.load(path)


def test_an_n_by_1_column_is_accepted_as_1d_and_wider_arrays_are_not() -> None:
    ev = E(ties="grouped")
    ev.add_cases(np.array([[True], [False], [True]]), np.array([[0.9], [0.5], [0.1]]))
    flat = E(ties="grouped")
    flat.add_cases([True, False, True], [0.9, 0.5, 0.1])
    assert ev == flat
    with pytest.raises(ValueError, match=r"argument 'scores' must be 1-dimensional or an \(n, 1\) column; got an array of shape \(3, 2\)"):
        ev.add_cases([True, False, True], np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"shape \(1, 3\)"):
        ev.add_cases([True, False, True], np.zeros((1, 3)))
    assert ev.num_cases == 3

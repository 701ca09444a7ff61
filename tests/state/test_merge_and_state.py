"""merge / + / +=, to_dict / from_dict, save / load and pickle."""

from __future__ import annotations

import copy
import json
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation as E

case_lists = st.lists(
    st.tuples(st.booleans(), st.one_of(st.integers(-2, 2).map(float), st.sampled_from([math.inf, -math.inf, -0.0]))),
    max_size=25,
)
policies = st.sampled_from(["stable", "grouped"])


def fed(cases: list, ties: str, misses: int = 0, neg_misses: int = 0, query: bool = False) -> E:
    ev = E(ties=ties)
    for i, (c, s) in enumerate(cases):
        ev.add_case(c, s)
        if query and i % 3 == 0:
            ev.summary()  # leave part of the cases merged, part pending
    ev.add_misses(misses)
    ev.add_negative_misses(neg_misses)
    return ev


def results(ev: E) -> str:
    """Every result, as comparable text (repr makes NaN equal to NaN)."""
    return repr((
        repr(ev),
        repr(sorted(ev.summary().items())),
        ev.pr_score_curve().tolist(), ev.pr_score_curve(True).tolist(),
        ev.roc_curve().tolist(), ev.roc_curve(True).tolist(),
        repr(ev.average_precision(ties="expected")), ev.hit_curve().tolist(),
        ev.eleven_point_interpolated_precision().tolist(), str(ev),
    ))


@settings(max_examples=200, deadline=None)
@given(case_lists, case_lists, st.integers(0, 3), st.integers(0, 3), policies, st.booleans())
def test_merge_equals_one_evaluator_fed_both(a: list, b: list, ma: int, mb: int, ties: str, query: bool) -> None:
    left, right = fed(a, ties, ma, 1, query), fed(b, ties, mb, 2, query)
    before = (results(left), results(right))
    both = fed(a + b, ties, ma + mb, 3)
    assert left.merge(right) == both
    assert results(left + right) == results(both)
    assert (results(left), results(right)) == before  # inputs unchanged
    left += right
    assert results(left) == results(both)


def test_merge_puts_self_first_on_ties() -> None:
    a, b = E(ties="stable"), E(ties="stable")
    a.add_case(True, 1.0)
    b.add_case(False, 1.0)
    assert (a + b).precision_at(1) == 1.0 and (b + a).precision_at(1) == 0.0


def test_merge_rejects_other_policies_and_types() -> None:
    a = E(ties="stable")
    with pytest.raises(ValueError, match="ties='grouped'"):
        a.merge(E(ties="grouped"))
    with pytest.raises(TypeError, match="'other'.*int"):
        a.merge(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        a + 3  # type: ignore[operator]
    with pytest.raises(TypeError):
        a += "x"  # type: ignore[operator]
    with pytest.raises(ValueError):
        a += E(ties="grouped")
    assert a.num_cases == 0


def test_merge_tree_of_many_shards_equals_one_evaluator() -> None:
    rng = np.random.default_rng(5)
    y, s = rng.random(10_000) < 0.2, np.round(rng.normal(size=10_000), 1)
    shards = []
    for part in np.array_split(np.arange(10_000), 13):
        ev = E()
        ev.add_cases(y[part], s[part])
        shards.append(ev)
    while len(shards) > 1:
        shards = [shards[i] + shards[i + 1] if i + 1 < len(shards) else shards[i] for i in range(0, len(shards), 2)]
    whole = E()
    whole.add_cases(y, s)
    assert shards[0] == whole


# ----------------------------------------------------------------------- state


@settings(max_examples=150, deadline=None)
@given(case_lists, st.integers(0, 3), st.integers(0, 3), policies, st.booleans())
def test_round_trips_reproduce_every_result(cases: list, m: int, nm: int, ties: str, query: bool) -> None:
    ev = fed(cases, ties, m, nm, query)
    want = results(ev)
    via_json = E.from_dict(json.loads(json.dumps(ev.to_dict(), allow_nan=False)))
    assert results(via_json) == want
    assert results(pickle.loads(pickle.dumps(ev))) == want
    assert results(copy.deepcopy(ev)) == want
    # and they keep accepting cases exactly as the original would
    for other in (via_json, pickle.loads(pickle.dumps(ev))):
        other.add_case(True, 0.0)
    ev.add_case(True, 0.0)
    assert results(via_json) == results(ev)


def test_save_and_load(tmp_path) -> None:
    ev = fed([(True, 0.5), (False, math.inf), (True, -0.0), (False, 0.0)], "grouped", 2, 1)
    path = tmp_path / "state.bin"
    ev.save(path)
    assert path.exists() and not (tmp_path / "state.bin.npz").exists()
    assert results(E.load(path)) == results(ev)
    big = E()
    rng = np.random.default_rng(0)
    big.add_cases(rng.random(100_000) < 0.3, rng.normal(size=100_000))
    big.save(path)
    assert path.stat().st_size < 100_000 * 8.2 + 2000  # ~8.1 bytes per case
    assert E.load(path) == big


GOOD = {"format": "scored_pr.ScoredPrecisionRecallEvaluation", "version": 1, "ties": "stable",
        "scores": ["Infinity", 0.5, 0.5], "correct": [True, False, True], "misses": 1, "negative_misses": 0}

BAD_DICTS = [
    ({**GOOD, "version": 3}, ValueError, "version"),
    ({**GOOD, "version": True}, ValueError, "version"),
    ({**GOOD, "format": "other"}, ValueError, "format"),
    ({**GOOD, "ties": "random"}, ValueError, "ties"),
    ({k: v for k, v in GOOD.items() if k != "misses"}, ValueError, "missing \\['misses'\\]"),
    ({**GOOD, "extra": 1}, ValueError, "unexpected \\['extra'\\]"),
    ({**GOOD, "scores": [0.5, 1.0, 0.0]}, ValueError, "rank order"),
    ({**GOOD, "scores": [1.0, 0.5]}, ValueError, "equal length"),
    ({**GOOD, "scores": [1.0, "NaN", 0.0]}, TypeError, "'NaN' at index 1"),
    ({**GOOD, "scores": [1.0, None, 0.0]}, TypeError, "None at index 1"),
    ({**GOOD, "correct": [True, 1, False]}, TypeError, "1 at index 1"),
    ({**GOOD, "misses": -1}, ValueError, "misses"),
    ({**GOOD, "misses": 1.5}, TypeError, "misses"),
    ({**GOOD, "negative_misses": "2"}, TypeError, "negative_misses"),
    ({**GOOD, "scores": "1,2,3"}, TypeError, "lists"),
    ([1, 2], TypeError, "dict"),
]


@pytest.mark.parametrize("d,exc,match", BAD_DICTS)
def test_from_dict_rejects_bad_state(d: object, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        E.from_dict(d)  # type: ignore[arg-type]


def test_from_dict_accepts_the_good_state() -> None:
    ev = E.from_dict(GOOD)
    assert ev.num_cases == 3 and ev.num_positive_ref == 3 and ev.pr_score_curve()[:, 2].tolist() == [math.inf, 0.5]


def test_load_rejects_bad_files(tmp_path) -> None:
    good = tmp_path / "good.npz"
    fed([(True, 1.0), (False, 0.0)] * 10, "stable").save(good)
    raw = good.read_bytes()
    cases = {
        "truncated": raw[: len(raw) // 2],
        "empty": b"",
        "garbage": bytes(range(256)) * 4,
        "flipped": raw[:100] + bytes([raw[100] ^ 0xFF]) + raw[101:],
    }
    for name, data in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(ValueError):
            E.load(p)
    # a hostile .npz: an object array that would need pickle to load
    hostile = tmp_path / "hostile.npz"
    with open(hostile, "wb") as fh:
        np.savez(fh, meta=np.array([{"x": 1}], dtype=object), neg_scores=np.zeros(1), correct=np.zeros(1, np.uint8))
    with pytest.raises(ValueError, match="holds Python objects") as info:
        E.load(hostile)
    assert "pickle" not in str(info.value)  # no unsafe advice from a loader meant for untrusted files
    wrong_version = tmp_path / "v2.npz"
    with open(wrong_version, "wb") as fh:
        meta = json.dumps({"format": "scored_pr.ScoredPrecisionRecallEvaluation", "version": 3}).encode()
        np.savez(fh, meta=np.frombuffer(meta, np.uint8), neg_scores=np.zeros(1), correct=np.zeros(1, np.uint8))
    with pytest.raises(ValueError, match="version 3"):
        E.load(wrong_version)
    with pytest.raises(FileNotFoundError):
        E.load(tmp_path / "missing.npz")

"""State written by scored_pr 0.1.0 still loads, by every route, and answers bit for bit as it did.

``tests/data/golden-0.1.0/`` holds, for every evaluator kind that keeps state, the files that
0.1.0 wrote (``save`` → ``.npz``, ``to_dict`` → ``.json``, ``pickle`` → ``.pkl``) and
``<name>.expected.json``, every query's value as 0.1.0 computed it (floats as ``repr``, so
equal strings are equal bits). ``make_golden.py`` there wrote them, from fixed cases, before
any module moved; it is not to be rerun. A module that moves or a state format that changes
must keep these files loading (pickles name private modules such as
``scored_pr._state.exact``) and their numbers unchanged.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import scored_pr
from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation
from scored_pr import lingpipe

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden-0.1.0"


def _make_golden() -> Any:
    spec = importlib.util.spec_from_file_location("make_golden_0_1_0", GOLDEN / "make_golden.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _make_golden()
NAMES = sorted(p.name[: -len(".expected.json")] for p in GOLDEN.glob("*.expected.json"))

#: The public class each kind loads as.
CLASSES = {
    "exact": ScoredPrecisionRecallEvaluation,
    "bounded": BoundedEvaluation,
    "windowed": scored_pr.WindowedEvaluation,
    "synchronized": scored_pr.SynchronizedEvaluation,
    "multi": scored_pr.MultiQueryEvaluation,
    "lingpipe": lingpipe.ScoredPrecisionRecallEvaluation,
}

#: numpy 2 pickles arrays by ``numpy._core``, a module numpy 1.x does not have.
NUMPY_1 = int(np.__version__.split(".")[0]) < 2


def expected(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))


def load(name: str, route: str, cls: type) -> Any:
    path = GOLDEN / f"{name}.{route}"
    if route == "npz":
        return cls.load(path)
    if route == "json":
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))
    if NUMPY_1 and b"numpy._core" in path.read_bytes():
        pytest.skip("written by numpy 2, whose pickled arrays name numpy._core, which numpy 1.x lacks")
    return pickle.loads(path.read_bytes())


def cases() -> list[Any]:
    out = []
    for name in NAMES:
        for route in expected(name)["routes"]:
            out.append(pytest.param(name, route, id=f"{name}.{route}"))
    return out


def test_the_golden_set_covers_every_kind_and_route() -> None:
    assert len(NAMES) == 15
    kinds = {expected(n)["kind"] for n in NAMES}
    assert kinds == set(CLASSES)
    for name in NAMES:
        exp = expected(name)
        assert exp["scored_pr_version"] == "0.1.0"
        for route in exp["routes"]:
            assert (GOLDEN / f"{name}.{route}").stat().st_size < 4096  # small, as the files should stay
    # each exact and bounded state by all three routes; the others pickle
    assert {tuple(expected(n)["routes"]) for n in NAMES if expected(n)["kind"] in ("exact", "bounded")} == {
        ("npz", "json", "pkl")
    }


@pytest.mark.parametrize(("name", "route"), cases())
def test_every_file_loads_and_answers_every_query_as_0_1_0_did(name: str, route: str) -> None:
    exp = expected(name)
    kind = exp["kind"]
    ev = load(name, route, CLASSES[kind])
    assert type(ev) is CLASSES[kind]
    now = MAKE.measures(kind, ev)
    weighted = "weighted" in name and "unweighted" not in name
    same = (lambda key, then, now: _same_bounds(key, then, now, weighted)) if kind == "bounded" else _same
    differ = [
        f"{key}: 0.1.0 gave {value!r}, now {now.get(key, '<missing>')!r}"
        for key, value in exp["measures"].items()
        if not same(key, value, now.get(key, "<missing>"))
    ]
    assert not differ, "\n".join(differ[:20])


def _same(key: str, then: Any, now: Any) -> bool:
    return bool(then == now)


#: How far a certified limit of a bounded summary may have moved since 0.1.0, relative to its value.
#: The rounding margin that widens every inexact limit counts the cases as well as the bins since
#: 0.2 (so that a bound still holds the evaluator's float when many cases are summed): limits moved
#: outward by about 1e-13, never inward. Estimates, exact values and the ``exact`` flags stay equal
#: bit for bit, except on a weighted summary: since 0.2 its results are never ``exact`` (it sums
#: weights bin by bin, the evaluator case by case, so the last bits may differ), and a result 0.1.0
#: called exact is now the same estimate inside bounds a few ulps wide. The same holds for
#: ``area_under_pr_curve()`` of any summary: the evaluator's PR area may differ from AP in the
#: last bits, so since 0.2 a summary's area is AP inside bounds widened by that rounding.
MARGIN_DRIFT = 1e-12


def _same_bounds(key: str, then: Any, now: Any, weighted: bool) -> bool:
    """Bit for bit, except the certified limits (``lower``/``upper``, band columns), which may widen."""
    if then == now:
        return True
    if isinstance(then, dict) and isinstance(now, dict) and then.keys() == now.keys() and "estimate" in then:
        was_exact_now_bounded = (weighted or key.startswith("area_under_pr_curve")) and then["exact"] and not now["exact"]
        return (then["estimate"] == now["estimate"] and (then["exact"] == now["exact"] or was_exact_now_bounded)
                and not now["exact"]
                and float(now["lower"]) <= float(then["lower"]) and float(now["upper"]) >= float(then["upper"])
                and all(_near(then[k], now[k]) for k in ("lower", "upper")))
    if key.endswith(("_lower", "_upper")) and isinstance(then, str) and isinstance(now, str):
        outward = float(now) <= float(then) if key.endswith("_lower") else float(now) >= float(then)
        return outward and _near(then, now)
    if key.endswith("_band()") and isinstance(then, list) and isinstance(now, list) and len(then) == len(now) == 3:
        curve_then, band_then, exact_then = then
        curve_now, band_now, exact_now = now
        if curve_then != curve_now or exact_then != exact_now or len(band_then) != len(band_now):
            return False
        for row_then, row_now in zip(band_then, band_now):  # [x_low, x_high, y_low, y_high]
            lo_hi = [float(a) <= float(b) if i % 2 else float(a) >= float(b)
                     for i, (a, b) in enumerate(zip(row_then, row_now))]
            if not all(lo_hi) or not all(_near(a, b) for a, b in zip(row_then, row_now)):
                return False
        return True
    return False


def _near(then: str, now: str) -> bool:
    a, b = float(then), float(now)
    return abs(a - b) <= MARGIN_DRIFT * max(1.0, abs(a))


@pytest.mark.parametrize("name", [n for n in NAMES if expected(n)["kind"] in ("exact", "bounded")])
def test_the_three_routes_give_the_same_state(name: str) -> None:
    cls = CLASSES[expected(name)["kind"]]
    loaded = [load(name, route, cls) for route in ("npz", "json", "pkl")]
    assert loaded[0] == loaded[1] == loaded[2]
    assert loaded[0].to_dict() == json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "route"), cases())
def test_a_loaded_state_keeps_accumulating_like_the_original(name: str, route: str) -> None:
    """Loaded, then fed more cases, it answers as the evaluator it was saved from, fed the same."""
    exp = expected(name)
    kind = exp["kind"]
    original = MAKE.build()[name][1]
    loaded = load(name, route, CLASSES[kind])
    for ev in (original, loaded):
        if kind == "multi":
            ev.add_cases("q4", [True, False, True], [0.6, 0.55, 0.1])
        elif kind == "lingpipe":
            ev.addCase(True, 0.42)
            ev.addCase(False, 0.9)
            ev.addMisses(1)
        else:
            labels = [True, False, True, False]
            if ev.pos_label is not None:
                labels = [ev.pos_label if y else "other" for y in labels]
            ev.add_cases(labels, [0.42, 0.9, 0.05, 0.5])
            ev.add_misses(1)
    assert MAKE.measures(kind, loaded) == MAKE.measures(kind, original)

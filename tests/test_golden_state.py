"""State written by scored_pr 0.1.0 still loads, by every route, and answers bit for bit as it did.

``tests/data/golden-0.1.0/`` holds, for every evaluator kind that keeps state, the files that
0.1.0 wrote (``save`` → ``.npz``, ``to_dict`` → ``.json``, ``pickle`` → ``.pkl``) and
``<name>.expected.json``, every query's value as 0.1.0 computed it (floats as ``repr``, so
equal strings are equal bits). ``make_golden.py`` there wrote them, from fixed cases, before
any module moved; it is not to be rerun. A module that moves or a state format that changes
must keep these files loading (pickles name private modules such as
``scored_pr._serialization``) and their numbers unchanged.
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

GOLDEN = Path(__file__).resolve().parent / "data" / "golden-0.1.0"


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
    differ = [
        f"{key}: 0.1.0 gave {value!r}, now {now.get(key, '<missing>')!r}"
        for key, value in exp["measures"].items()
        if now.get(key, "<missing>") != value
    ]
    assert not differ, "\n".join(differ[:20])


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

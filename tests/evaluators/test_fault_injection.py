"""Strong exception guarantee: a failure at any line leaves the evaluator as before or as after.

An exception (standing for MemoryError or KeyboardInterrupt) is raised at
every line boundary that the operation executes in scored_pr's store, kernel,
evaluator and serialisation modules, one run per line. After each injected
failure the evaluator must pass its structural checks, hold exactly the cases
and counts it held before the operation or exactly those it holds after it,
and answer every query as a fresh evaluator fed those cases does (no stale
cache). A subprocess test does the same with real MemoryErrors under an
address-space limit.
"""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import scored_pr
from scored_pr import ScoredPrecisionRecallEvaluation as E
import faults
from faults import InjectedFault

from scored_pr._core import curves as _curves, points as _points, ranking as _ranking, scalars as _scalars
from scored_pr._evaluators import exact as _exact, store as _store
from scored_pr._state import exact as _exact_state


def _files(*modules: Any) -> set[str]:
    """The source files of ``modules``, named by import so that a moved module cannot drop out unnoticed."""
    return {str(Path(m.__file__).resolve()) for m in modules}


WATCHED = _files(_store, _ranking, _points, _curves, _scalars, _exact, _exact_state)


def run_with_fault(op: Callable[[], Any], at: int | None) -> int:
    """Run ``op``, raising InjectedFault at the ``at``-th watched line event; return the events seen."""
    return faults.run_with_fault(op, at, WATCHED)


def state(ev: E) -> tuple[Any, ...]:
    d = ev.to_dict()
    return (d["ties"], tuple(map(str, d["scores"])), tuple(d["correct"]), d["misses"], d["negative_misses"])


def answers(ev: E) -> list[float]:
    s = ev.summary()
    out = [float(v) for v in s.values()]
    out += ev.pr_curve(True).ravel().tolist() + ev.roc_curve(False).ravel().tolist()
    return [round(v, 12) if math.isfinite(v) else (0.0 if math.isnan(v) else v) for v in out]


def fresh_answers(snapshot: tuple[Any, ...]) -> list[float]:
    ties, scores, correct, misses, negative_misses = snapshot
    ev = E(ties=ties)
    ev.add_cases(list(correct), [float(x) for x in scores])  # rank order = insertion order of ties
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    return answers(ev)


def setup(ties: str) -> E:
    """An evaluator with merged cases, a pending batch, pending single cases and a warm cache."""
    rng = np.random.default_rng(1)
    ev = E(ties=ties)
    ev.add_cases(rng.random(40) < 0.4, rng.integers(0, 6, 40).astype(float))
    ev.add_misses(2)
    ev.average_precision()  # merged + cached
    ev.add_cases(rng.random(10) < 0.5, rng.integers(0, 6, 10).astype(float))
    for i in range(5):
        ev.add_case(bool(i % 2), float(i))
    ev.summary()
    ev.add_case(True, 2.0)  # and one pending case after the last query
    return ev


OPS: dict[str, Callable[[E], Any]] = {
    "add_case": lambda ev: ev.add_case(False, 3.0),
    "add_case_correct": lambda ev: ev.add_case(True, 2.0),  # ties with pending and merged cases
    "add_cases": lambda ev: ev.add_cases([True, False, True], [2.0, 2.0, 9.0]),
    "add_misses": lambda ev: ev.add_misses(3),
    "add_negative_misses": lambda ev: ev.add_negative_misses(2),
    "query": lambda ev: ev.average_precision(),
    "summary": lambda ev: ev.summary(),
    "iadd": lambda ev: ev.__iadd__(setup(ev.ties)),
    "to_dict": lambda ev: ev.to_dict(),
    "pickle": lambda ev: pickle.dumps(ev),
}


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@pytest.mark.parametrize("name", list(OPS))
def test_a_failure_at_any_line_leaves_before_or_after(name: str, ties: str) -> None:
    op = OPS[name]
    before_ev = setup(ties)
    before = state(before_ev)
    after_ev = setup(ties)
    total = run_with_fault(lambda: op(after_ev), None)
    after = state(after_ev)
    assert total > 0
    for at in range(1, total + 1):
        ev = setup(ties)
        with pytest.raises(InjectedFault):
            run_with_fault(lambda: op(ev), at)
        ev._store._check()
        now = state(ev)
        assert now in (before, after), f"{name}: inconsistent state after a fault at line event {at}/{total}"
        assert ev.num_cases == len(now[1]) and ev.num_positive_ref == sum(now[2]) + now[3]
        assert answers(ev) == fresh_answers(now), f"{name}: stale or wrong answers after a fault at {at}/{total}"
    INJECTED.append(total)


INJECTED: list[int] = []


def test_report_how_many_injection_points_were_exercised() -> None:
    """Runs after the parametrized test in file order; the count goes to the test log."""
    if not INJECTED:
        pytest.skip("run together with test_a_failure_at_any_line_leaves_before_or_after")
    print(f"\nfault injection: {sum(INJECTED)} injection points over {len(INJECTED)} operations")
    assert sum(INJECTED) > 500


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS semantics are Linux's")
def test_real_memory_errors_lose_nothing(tmp_path: Path) -> None:
    """Under an address-space limit the merge of a big batch fails for real; nothing is lost."""
    script = textwrap.dedent(
        """
        import resource, numpy as np
        from scored_pr import ScoredPrecisionRecallEvaluation as E
        n = 2_000_000
        ev = E(ties="stable")
        ev.add_cases(np.ones(n // 10, bool), np.arange(n // 10, dtype=float))
        ev.average_precision()  # a small merged part: the big merge below needs fresh memory
        ev.add_cases(np.ones(2 * n - n // 10, bool), np.arange(2 * n - n // 10, dtype=float) + 0.5)
        for i in range(100):
            ev.add_case(True, -float(i))
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        import os
        page = os.sysconf("SC_PAGE_SIZE")
        failures = 0
        # raise the limit step by step: every allocation of the merge fails once somewhere
        for extra_mb in range(1, 300, 3):
            used = int(open("/proc/self/statm").read().split()[0]) * page
            resource.setrlimit(resource.RLIMIT_AS, (used + extra_mb * 1_000_000, hard))
            try:
                ev.recall_at(ev.num_cases)
                break
            except MemoryError:
                failures += 1
            finally:
                resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
            ev._store._check()
            assert ev.num_cases == 2 * n + 100, ev.num_cases
        ev._store._check()
        assert ev.num_cases == 2 * n + 100, ev.num_cases
        assert ev.recall_at(ev.num_cases) == 1.0 and ev.average_precision() == 1.0
        print("memory errors:", failures)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    failures = int(proc.stdout.split("memory errors:")[1])
    assert failures >= 5, proc.stdout  # the limit really bit, at several points of the merge


# ------------------------------------------------------------ BoundedEvaluation

import json  # noqa: E402

from scored_pr import BoundedEvaluation  # noqa: E402
from scored_pr._core import bins as _B  # noqa: E402
from scored_pr._core import binning as _binning  # noqa: E402
from scored_pr._evaluators import bounded as _BE  # noqa: E402
from scored_pr._evaluators import bounded_queries as _BQ  # noqa: E402
from scored_pr._state import bounded as _bounded_state  # noqa: E402

BOUNDED_WATCHED = _files(_B, _binning, _BE, _BQ, _bounded_state)


def run_bounded_with_fault(op: Callable[[], Any], at: int | None, exc: type[BaseException] = InjectedFault) -> int:
    """As run_with_fault, over the summary's modules; ``exc`` is raised (KeyboardInterrupt too)."""
    return faults.run_with_fault(op, at, BOUNDED_WATCHED, exc)


def bounded_setup() -> BoundedEvaluation:
    """A summary over its budget (range bins), with misses, a warm cache and single cases in the buffer."""
    rng = np.random.default_rng(3)
    s = BoundedEvaluation(max_bins=6)
    s.add_cases(rng.random(40) < 0.4, rng.integers(0, 12, 40).astype(float))
    s.add_misses(2)
    s.average_precision()
    for i in range(5):
        s.add_case(bool(i % 2), float(i) + 0.5)
    return s


def bounded_state(s: BoundedEvaluation) -> str:
    """The full state (to_dict bins the buffer first; binning is deterministic)."""
    return json.dumps(s.to_dict(), sort_keys=True)


#: merged into the summary by the "iadd" operation; built (and its buffer binned) outside the traced call
BOUNDED_OTHER = bounded_setup()
BOUNDED_OTHER.to_dict()

BOUNDED_OPS: dict[str, Callable[[BoundedEvaluation], Any]] = {
    "add_case_fills_buffer": lambda s: s.add_case(True, 7.25),
    "add_cases_in_chunks": lambda s: s.add_cases(np.arange(20) % 3 == 0, np.arange(20) * 0.57 - 2.0),
    "add_cases_weighted": lambda s: s.add_cases([True, False, True], [2.0, 20.0, -3.0], sample_weight=[1.0, 2.5, 0.5]),
    "add_misses": lambda s: s.add_misses(3),
    "query": lambda s: s.average_precision(),
    "reciprocal_rank": lambda s: s.reciprocal_rank(),
    "iadd": lambda s: s.__iadd__(BOUNDED_OTHER),
    "to_dict": lambda s: s.to_dict(),
    "pickle": lambda s: pickle.dumps(s),
}


@pytest.mark.parametrize("name", list(BOUNDED_OPS))
def test_bounded_failure_at_any_line_leaves_before_or_after(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A fault at every line of the summary's code: the summary is as before or as after, and it saves and loads."""
    monkeypatch.setattr(_BE, "CHUNK", 8)  # add_cases of 20 cases bins 3 chunks
    monkeypatch.setattr(_BE, "PENDING", 6)  # the sixth single case bins the buffer
    op = BOUNDED_OPS[name]
    before = bounded_state(bounded_setup())
    after_s = bounded_setup()
    total = run_bounded_with_fault(lambda: op(after_s), None)
    after = bounded_state(after_s)
    assert total > 0
    for at in range(1, total + 1):
        s = bounded_setup()
        with pytest.raises(InjectedFault):
            run_bounded_with_fault(lambda: op(s), at)
        now = bounded_state(s)
        assert now in (before, after), f"{name}: inconsistent state after a fault at line event {at}/{total}"
        d = s.to_dict()
        assert s.num_cases == sum(d["pos"]) + sum(d["neg"]) or d["weighted"]
        if at % 5 == 0 or at == total:  # the state file round trip (a state equal to before/after always loads)
            s.save(tmp_path / "s.npz")
            loaded = BoundedEvaluation.load(tmp_path / "s.npz")
            assert loaded == s and repr(loaded.average_precision()) == repr(BoundedEvaluation.from_dict(d).average_precision())


def test_bounded_add_cases_interrupted_at_a_chunk_changes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-C while the third chunk of a batch is binned: no case of the batch is counted, the state still loads."""
    monkeypatch.setattr(_BE, "CHUNK", 1000)
    s = bounded_setup()
    before = bounded_state(s)
    real = _B.add_sorted
    calls = 0

    def interrupted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(_B, "add_sorted", interrupted)
    rng = np.random.default_rng(0)
    with pytest.raises(KeyboardInterrupt):
        s.add_cases(rng.random(3500) < 0.5, rng.normal(size=3500))
    assert calls == 3
    assert bounded_state(s) == before and s.num_cases == 45
    s.save(tmp_path / "s.npz")
    assert BoundedEvaluation.load(tmp_path / "s.npz") == s


def test_bounded_query_whose_flush_fails_keeps_the_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    s = bounded_setup()
    before = bounded_state(bounded_setup())

    def fail(*args: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(_B, "add_sorted", fail)
    with pytest.raises(MemoryError):
        s.area_under_roc_curve()
    assert s.num_cases == 45
    monkeypatch.undo()
    assert bounded_state(s) == before

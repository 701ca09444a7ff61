"""A Hypothesis state machine: random mutations, merges, round trips and queries vs the reference."""

from __future__ import annotations

import json
import os
import math
import pickle
import shutil
import tempfile

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from reference import Reference
import numpy as np

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr import SynchronizedEvaluation
from scored_pr._state import exact as _exact_state

scores = st.one_of(st.integers(-3, 3).map(float), st.floats(-1e3, 1e3, allow_nan=False), st.sampled_from([math.inf, -math.inf, -0.0]))
batches = st.lists(st.tuples(st.booleans(), scores), max_size=8)


def close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


class EvaluatorMachine(RuleBasedStateMachine):
    @initialize(ties=st.sampled_from(["stable", "grouped"]), shared=st.booleans())
    def start(self, ties: str, shared: bool) -> None:
        # every evaluator kind on main: the plain one and the thread-safe wrapper
        self.ev = SynchronizedEvaluation(E(ties=ties)) if shared else E(ties=ties)
        self.shared = shared
        self.ref = Reference(ties)
        self.dir = tempfile.mkdtemp(prefix="scored_pr_state_")

    def teardown(self) -> None:
        if hasattr(self, "dir"):
            shutil.rmtree(self.dir, ignore_errors=True)

    def _wrap(self, ev: E) -> object:
        return SynchronizedEvaluation(ev) if self.shared else ev

    @rule(correct=st.booleans(), score=scores)
    def add_case(self, correct: bool, score: float) -> None:
        self.ev.add_case(correct, score)
        self.ref.add_case(correct, score)

    @rule(batch=batches)
    def add_cases(self, batch: list) -> None:
        self.ev.add_cases([c for c, _ in batch], [s for _, s in batch])
        for c, s in batch:
            self.ref.add_case(c, s)

    @rule(n=st.integers(0, 3))
    def add_misses(self, n: int) -> None:
        self.ev.add_misses(n)
        self.ref.add_misses(n)

    @rule(n=st.integers(0, 3))
    def add_negative_misses(self, n: int) -> None:
        self.ev.add_negative_misses(n)
        self.ref.add_negative_misses(n)

    @rule(batch=batches, misses=st.integers(0, 2), in_place=st.booleans())
    def merge_another(self, batch: list, misses: int, in_place: bool) -> None:
        other = E(ties=self.ref.ties)
        other.add_cases([c for c, _ in batch], [s for _, s in batch])
        other.add_misses(misses)
        if in_place:
            self.ev += other
        else:
            self.ev = self.ev + other
        for c, s in batch:
            self.ref.add_case(c, s)
        self.ref.add_misses(misses)

    @rule(how=st.sampled_from(["json", "pickle", "file", "checkpoint"]))
    def round_trip(self, how: str) -> None:
        if how == "json":
            self.ev = self._wrap(E.from_dict(json.loads(json.dumps(self.ev.to_dict(), allow_nan=False))))
        elif how == "pickle":
            self.ev = pickle.loads(pickle.dumps(self.ev))
        elif how == "file":  # atomic save over the previous file, bounded load
            path = os.path.join(self.dir, "state.npz")
            self.ev.save(path)
            self.ev = self._wrap(E.load(path))
        else:  # a stream checkpoint: the same file with a header extra
            path = os.path.join(self.dir, "checkpoint.npz")
            plain = self.ev.snapshot() if self.shared else self.ev
            _exact_state.save(plain, path, extra={"line": len(self.ref.cases)})
            loaded, extra = _exact_state.load_with_extra(E, path)
            assert extra == {"line": len(self.ref.cases)}
            self.ev = self._wrap(loaded)
        if self.shared:
            assert isinstance(self.ev, SynchronizedEvaluation)

    @rule(bad=st.sampled_from([("add_case", ("yes", 1.0)), ("add_case", (True, math.nan)),
                               ("add_cases", ([True, False], [1.0])), ("add_misses", (-1,)),
                               ("add_cases", ([True, 0.5], [1.0, 2.0])),
                               ("add_case", (True, 10**400)), ("add_case", (False, 2**53 + 1)),
                               ("add_cases", ([True, False], np.ma.masked_invalid([1.0, math.nan]))),
                               ("add_cases", ([True, False], {0.5, 0.25})),
                               ("add_misses", (2**53 + 1,)), ("add_negative_misses", (10**309,))]))
    def rejected_call_changes_nothing(self, bad: tuple) -> None:
        before = (self.ev.num_cases, self.ev.num_positive_ref, self.ev.num_negative_ref)
        with pytest.raises((TypeError, ValueError)):
            getattr(self.ev, bad[0])(*bad[1])
        assert (self.ev.num_cases, self.ev.num_positive_ref, self.ev.num_negative_ref) == before

    @invariant()
    def counts_agree(self) -> None:
        if not hasattr(self, "ev"):
            return
        assert self.ev.num_cases == len(self.ref.cases)
        assert self.ev.num_positive_ref == self.ref.P
        assert self.ev.num_negative_ref == self.ref.N

    @precondition(lambda self: hasattr(self, "ev"))
    @rule(k=st.integers(1, 12))
    def query(self, k: int) -> None:
        ev, ref = self.ev, self.ref
        (ev.snapshot() if self.shared else ev)._store._check()
        assert close(ev.average_precision(), ref.average_precision())
        assert close(ev.area_under_pr_curve(True), ref.area_under_pr_curve(True))
        assert close(ev.area_under_roc_curve(False), ref.area_under_roc_curve(False))
        assert close(ev.maximum_f_measure(), ref.maximum_f_measure())
        assert close(ev.pr_breakeven_point(), ref.pr_breakeven_point())
        assert close(ev.reciprocal_rank(), ref.reciprocal_rank())
        assert close(ev.r_precision(), ref.r_precision())
        assert close(ev.precision_at(k), ref.precision_at(k))
        got, want = ev.pr_score_curve().tolist(), ref.pr_score_curve()
        assert len(got) == len(want)
        assert all(close(a, b) for g, w in zip(got, want) for a, b in zip(g, w))


TestEvaluatorMachine = EvaluatorMachine.TestCase
# Bounded for CI; SCORED_PR_STATEFUL_EXAMPLES=5000 runs it longer.
TestEvaluatorMachine.settings = settings(
    max_examples=int(os.environ.get("SCORED_PR_STATEFUL_EXAMPLES", "150")), stateful_step_count=30, deadline=None
)

"""No thread can lose or double-count a case: every public entry point of every kind, by introspection.

The owner thread (the one that made the evaluator) adds cases while a second
thread calls one public method, dunder or property of the same evaluator in a
loop. Every call either completes or is refused with the guard's RuntimeError;
at the end the evaluator holds exactly the cases (and misses) of the calls
that completed. The methods are enumerated from the classes themselves, so a
method added later is covered without editing this file; a new required
parameter needs a sample value in ``SAMPLES`` (the test says which).

Binary operations are run with the fed evaluator on either side (``ev.merge(x)``
and ``x.merge(ev)``, ``ev == x`` and ``x == ev``...). A short
``sys.setswitchinterval`` makes the threads interleave every few bytecodes, so
a race shows within a fraction of a second.
"""

from __future__ import annotations

import copy
import inspect
import io
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from scored_pr import (
    BoundedEvaluation,
    MultiLabelEvaluation,
    MultiQueryEvaluation,
    ScoredPrecisionRecallEvaluation,
    SlicedEvaluation,
    SynchronizedEvaluation,
    WindowedEvaluation,
)
from scored_pr._evaluators.guard import DUNDERS, guarded_members, is_guarded

BIG = 10**9  # a window that never drops a case during the test


@dataclass(frozen=True)
class Kind:
    name: str
    make: Callable[[], Any]
    add: Callable[[Any, int], None]  # the owner's addition of case number i
    counts: Callable[[Any], tuple[int, ...]]  # (cases or rows, misses, negative misses)


def _add_single(ev: Any, i: int) -> None:
    ev.add_case(i % 3 == 0, (i % 101) / 101.0)


def _single_counts(ev: Any) -> tuple[int, ...]:
    return (ev.num_cases, ev.num_misses, ev.num_negative_misses)


def _multi_counts(ev: MultiQueryEvaluation) -> tuple[int, ...]:
    evs = [ev[q] for q in ev.queries()]
    return (sum(e.num_cases for e in evs), sum(e.num_misses for e in evs), sum(e.num_negative_misses for e in evs))


def _add_label_row(ev: MultiLabelEvaluation, i: int) -> None:
    ev.add_case([i % 3 == 0, i % 2 == 0, i % 5 == 0], [(i % 101) / 101.0, (i % 7) / 7.0, (i % 13) / 13.0])


def _label_counts(ev: MultiLabelEvaluation) -> tuple[int, ...]:
    return (ev.num_rows, 0, 0)


KINDS = [
    Kind("exact", ScoredPrecisionRecallEvaluation, _add_single, _single_counts),
    Kind("exact-stable", lambda: ScoredPrecisionRecallEvaluation(ties="stable"), _add_single, _single_counts),
    Kind("windowed", lambda: WindowedEvaluation(BIG), _add_single, _single_counts),
    Kind("bounded", lambda: BoundedEvaluation(64), _add_single, _single_counts),
    Kind("synchronized", SynchronizedEvaluation, _add_single, _single_counts),
    Kind("multiquery", MultiQueryEvaluation, lambda ev, i: ev.add_case(f"q{i % 3}", i % 3 == 0, (i % 101) / 101.0), _multi_counts),
    Kind("multilabel", lambda: MultiLabelEvaluation(3), _add_label_row, _label_counts),
    Kind("multilabel-windowed", lambda: MultiLabelEvaluation(3, window=BIG), _add_label_row, _label_counts),
    Kind("multilabel-bounded", lambda: MultiLabelEvaluation(3, max_bins=64), _add_label_row, _label_counts),
    Kind("sliced", lambda: SlicedEvaluation("g"), lambda ev, i: ev.add_case(i % 3 == 0, (i % 101) / 101.0, g=f"g{i % 4}"),
         lambda ev: (ev.num_cases_seen, 0, 0)),
]
KIND_OF_CLASS = {
    ScoredPrecisionRecallEvaluation: "exact", WindowedEvaluation: "windowed", BoundedEvaluation: "bounded",
    SynchronizedEvaluation: "synchronized", MultiQueryEvaluation: "multiquery", MultiLabelEvaluation: "multilabel",
    SlicedEvaluation: "sliced",
}


def _fed(kind: Kind, n: int = 30) -> Any:
    ev = kind.make()
    for i in range(n):
        kind.add(ev, i)
    return ev


def _public_names(cls: type) -> list[str]:
    """Every public callable and property of ``cls`` (SynchronizedEvaluation's forwarded names too)."""
    return sorted(n for n in dir(cls) if (not n.startswith("_") or n in DUNDERS) and n not in {"__class__"})


def _trec_files(tmp: Path) -> tuple[Path, Path]:
    qrels, run = tmp / "qrels", tmp / "run"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    run.write_text("q1 Q0 d1 1 0.9 r\nq1 Q0 d2 2 0.1 r\n")
    return qrels, run


def _single_batch(kind: Kind) -> tuple[Any, ...]:
    if kind.name.startswith("multilabel"):
        return (np.array([[True, False, True], [False, True, False]]), np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]))
    return ([True, False], [0.25, 0.75])


def _args(kind: Kind, cls: type, name: str, param: str, ev: Any, other: Any, tmp: Path) -> Any:
    """A sample value for ``param`` of ``cls.name``; KeyError names a parameter this table lacks."""
    samples: dict[str, Callable[[], Any]] = {
        "k": lambda: 3, "recall": lambda: 0.5, "precision": lambda: 0.5, "threshold": lambda: 0.5,
        "count": lambda: 1, "curve": lambda: [[0.5, 1.0]], "path": lambda: tmp / f"{kind.name}-{name}.npz",
        "d": lambda: other.to_dict(), "other": lambda: other, "value": lambda: other, "evaluation": lambda: other,
        "memo": dict, "protocol": lambda: 4, "name": lambda: "average_precision", "spec": lambda: "map",
        "qrels_path": lambda: _trec_files(tmp)[0], "run_path": lambda: _trec_files(tmp)[1],
        "query": lambda: "q0", "label": lambda: 0, "pi": lambda: 0.2,
        "correct": lambda: ([True, False] if name == "add_cases" else True),
        "scores": lambda: [0.25, 0.75], "score": lambda: 0.5,
        "Y": lambda: _single_batch(kind)[0], "S": lambda: _single_batch(kind)[1],
        "y_row": lambda: [True, False, True], "s_row": lambda: [0.1, 0.2, 0.3],
        "pairs": lambda: (),
    }
    return samples[param]()


#: What a completed call of a writer adds to (cases or rows, misses, negative misses).
def _contribution(kind: Kind, name: str, other: Any) -> tuple[int, ...] | None:
    if name == "add_case":
        return (1, 0, 0)
    if name == "add_cases":
        return (2, 0, 0)
    if name == "add_misses":
        return (0, 1, 0)
    if name == "add_negative_misses":
        return (0, 0, 1)
    if name == "__iadd__":
        return kind.counts(other)
    return (0, 0, 0)


def _cases() -> list[Any]:
    out = []
    for kind in KINDS:
        cls = type(kind.make())
        for name in _public_names(cls):
            out.append(pytest.param(kind, name, "self", id=f"{kind.name}-{name}"))
            if _binary_params(cls, name):
                out.append(pytest.param(kind, name, "argument", id=f"{kind.name}-{name}-fed-as-argument"))
    return out


def _signature(cls: type, name: str) -> inspect.Signature | None:
    attr = getattr(cls, name)
    if isinstance(inspect.getattr_static(cls, name, None), property) or not callable(attr):
        return None
    try:
        return inspect.signature(attr)
    except (TypeError, ValueError):  # builtins without a signature
        return None


def _binary_params(cls: type, name: str) -> list[str]:
    sig = _signature(cls, name)
    return [] if sig is None else [p for p in sig.parameters if p in ("other", "value", "evaluation")]


def _call_for(kind: Kind, cls: type, name: str, target: Any, other: Any, tmp: Path) -> Callable[[], Any]:
    """A closure calling ``target.name`` with sample arguments (``other`` for the evaluator ones)."""
    static = inspect.getattr_static(cls, name, None)
    if isinstance(static, property) or (not callable(getattr(cls, name)) and static is not None):
        return lambda: getattr(target, name)
    sig = _signature(cls, name)
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    if sig is not None:
        for p in sig.parameters.values():
            if p.name in ("self", "cls") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.default is not p.empty and p.name != "file":
                continue
            value = io.StringIO() if p.name == "file" else _args(kind, cls, name, p.name, target, other, tmp)
            if p.kind is p.KEYWORD_ONLY:
                kwargs[p.name] = value
            else:
                args.append(value)
    method = getattr(target, name)
    if name == "confidence_interval":
        kwargs.update(n_resamples=20, seed=0)
    return lambda: method(*args, **kwargs)


def _outcome(call: Callable[[], Any]) -> type[BaseException] | None:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the type is what the race must reproduce
        return type(exc)
    return None


@pytest.fixture(autouse=True)
def _switch_often() -> Any:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


@pytest.mark.parametrize(("kind", "name", "side"), _cases())
def test_a_second_thread_never_loses_or_doubles_a_case(kind: Kind, name: str, side: str, tmp_path: Path) -> None:
    ev = _fed(kind)
    cls = type(ev)
    other = _fed(kind, 5)
    if side == "self":
        target, argument = ev, other
    else:
        target, argument = other, ev
    # What the call does on a quiet evaluator of the same state: the race may refuse it, never change it.
    quiet_target = copy.deepcopy(target) if name not in ("__deepcopy__",) else target
    quiet_arg = copy.deepcopy(argument)
    try:
        expected = _outcome(_call_for(kind, cls, name, quiet_target, quiet_arg, tmp_path))
    except KeyError as exc:
        pytest.fail(f"{cls.__name__}.{name} has a required parameter {exc} with no sample value in this test")
    call = _call_for(kind, cls, name, target, argument, tmp_path)
    per_call = _contribution(kind, name, argument) if side == "self" and expected is None else (0, 0, 0)
    if side == "self" and name == "__iadd__" and kind.name == "synchronized":
        per_call = kind.counts(argument)

    done = threading.Event()
    completed = refused = 0
    unexpected: list[BaseException] = []
    started = threading.Event()

    def second() -> None:
        nonlocal completed, refused
        started.set()
        while not done.is_set():
            try:
                call()
            except Exception as exc:  # noqa: BLE001
                if type(exc) is RuntimeError and "another thread" in str(exc):
                    refused += 1  # the guard's refusal (UnsupportedQuery is a RuntimeError too: not this)
                    continue
                if expected is None or not isinstance(exc, expected):
                    unexpected.append(exc)
                    return
                continue
            completed += 1

    before = kind.counts(ev)
    thread = threading.Thread(target=second)
    thread.start()
    started.wait()
    added = owner_refused = 0
    deadline = time.monotonic() + 3.0
    i = 0
    while (completed + refused < 5 or i < 300) and time.monotonic() < deadline and not unexpected:
        try:
            kind.add(ev, 1000 + i)
            added += 1
        except RuntimeError as exc:
            assert "another thread" in str(exc)
            owner_refused += 1
        i += 1
    done.set()
    thread.join()
    assert not unexpected, f"{cls.__name__}.{name}: {unexpected[0]!r}"
    if name == "reset" and side == "self" and completed:
        # a reset empties it at some point of the race: what is left was added after the last one
        assert kind.counts(ev)[0] <= added and kind.counts(ev)[1:] == (0, 0)
    elif name == "reset" and side == "self":
        # every reset was refused (a loaded machine can keep the owner inside its calls at each try): nothing lost
        want = tuple(b + (added if j == 0 else 0) for j, b in enumerate(before))
        assert kind.counts(ev) == want, f"{cls.__name__}.reset refused {refused} times: counts {kind.counts(ev)}, expected {want}"
    else:
        want = tuple(b + (a if j == 0 else 0) + completed * c for j, (b, a, c) in enumerate(zip(before, (added, 0, 0), per_call)))
        assert kind.counts(ev) == want, (
            f"{cls.__name__}.{name} from a second thread ({completed} completed, {refused} refused) while the "
            f"owner added {added} ({owner_refused} refused): counts {kind.counts(ev)}, expected {want}"
        )
    # and the evaluator is whole: its saved state rebuilds an equal evaluator
    state = ev.to_dict()
    assert type(ev).from_dict(state).to_dict() == state


def test_every_public_member_of_every_kind_is_guarded() -> None:
    """The structural half of the promise: every public method, dunder and property runs under the guard."""
    for kind in KINDS:
        cls = type(kind.make())
        if cls is SynchronizedEvaluation:
            continue  # one lock around every call (its own design), checked by the race test
        members = guarded_members(cls)
        assert len(members) > 10
        unguarded = sorted(
            n for n, m in members.items()
            if not is_guarded(m) and any(n in vars(k) for k in cls.__mro__ if k is not object)
        )
        assert not unguarded, f"{cls.__name__}: {unguarded} do not run under the guard"


def test_the_guard_covers_methods_defined_after_the_fact() -> None:
    """A kind defined with the decorator guards a method it gained by inheritance or definition."""
    from scored_pr._evaluators.guard import guarded

    class Base:
        _KIND = "Fake"
        _read_only = False

        def __init__(self) -> None:
            self._guard = threading.RLock()
            self.n = 0

        def _acquire(self, what: str) -> None:
            if not self._guard.acquire(False):
                raise RuntimeError(f"{what}: another thread")

        def inherited(self) -> int:
            return self.n

    @guarded
    class Fake(Base):
        def add(self) -> None:
            self.n += 1

    assert is_guarded(vars(Fake)["add"]) and is_guarded(vars(Base)["inherited"])
    fake = Fake()
    holder = threading.Thread(target=lambda: (fake._guard.acquire(), time.sleep(0.2), fake._guard.release()))
    holder.start()
    time.sleep(0.05)
    with pytest.raises(RuntimeError, match="another thread"):
        fake.add()
    holder.join()
    fake.add()
    assert fake.inherited() == 1


def test_add_misses_from_two_threads_counts_every_accepted_call() -> None:
    """The race measured on 0.x: 173,154 calls accepted, 128,913 misses counted."""
    for kind in ("exact", "windowed", "bounded", "synchronized"):
        ev = next(k for k in KINDS if k.name == kind).make()
        accepted = [[0, 0], [0, 0]]

        def work(slot: int, ev: Any = ev) -> None:
            for j in range(20_000):
                which = j % 2
                try:
                    (ev.add_misses if which == 0 else ev.add_negative_misses)(1)
                except RuntimeError as exc:
                    assert "another thread" in str(exc)
                    continue
                accepted[slot][which] += 1

        threads = [threading.Thread(target=work, args=(j,)) for j in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert (ev.num_misses, ev.num_negative_misses) == (
            accepted[0][0] + accepted[1][0], accepted[0][1] + accepted[1][1]
        ), kind


# --------------------------------------------------------------------------- fork


class _HeldPath:
    """A path whose first reading waits for ``release``: a thread saving to it stays inside the
    guarded call (``save`` holds the guard, and reads the path inside it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.inside = threading.Event()
        self.release = threading.Event()

    def __fspath__(self) -> str:
        self.inside.set()
        self.release.wait(30)
        return str(self.path)


def _forked_child_answers(ev: Any, tmp_path: Path) -> dict[str, Any]:
    """Fork while another thread is inside a guarded call of ``ev``; the child's answers (via a pipe)."""
    import json
    import os
    import pickle
    import select
    import signal

    held = _HeldPath(tmp_path / "held.npz")
    holder = threading.Thread(target=ev.save, args=(held,))
    holder.start()
    try:
        assert held.inside.wait(30)
        if not isinstance(ev, SynchronizedEvaluation):  # (a shared one would wait for the holder)
            with pytest.raises(RuntimeError):
                ev.add_case(True, 0.5)  # refused in the parent: the holder is inside
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report and leave at once, whatever happens
            try:
                os.close(r)
                answers: dict[str, Any] = {"num_cases": ev.num_cases}
                ev.add_case(True, 0.95)
                ev.add_cases([False, True], [0.85, 0.15])
                answers["after"] = ev.num_cases
                answers["ap"] = float(ev.average_precision())
                answers["pickled"] = pickle.loads(pickle.dumps(ev)).num_cases
                ev.save(tmp_path / "child.npz")  # the call the holder was in, in the child
                answers["saved"] = type(ev).load(tmp_path / "child.npz").num_cases
                os.write(w, json.dumps(answers).encode())
            except BaseException as exc:  # noqa: BLE001 - reported to the parent
                os.write(w, json.dumps({"error": repr(exc)}).encode())
            finally:
                os._exit(0)
        os.close(w)
        try:
            ready, _, _ = select.select([r], [], [], 60)
            if not ready:  # the child hangs (a lock it waits for will never be released)
                os.kill(pid, signal.SIGKILL)
                pytest.fail("the child of the fork blocked")
            data = b""
            while chunk := os.read(r, 65536):
                data += chunk
        finally:
            os.close(r)
            os.waitpid(pid, 0)
    finally:
        held.release.set()
        holder.join()
    return json.loads(data)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork")
@pytest.mark.parametrize("make", [ScoredPrecisionRecallEvaluation, SynchronizedEvaluation,
                                  lambda: WindowedEvaluation(size=100)],
                         ids=["exact", "synchronized", "windowed"])
def test_the_child_of_a_fork_gets_a_usable_evaluator(make: Callable[[], Any], tmp_path: Path) -> None:
    """``os.fork()`` (multiprocessing's default on Linux) while another thread is inside a call: the
    child has only the forking thread, so a guard the other thread held would be held for ever. The
    child gets the evaluator as it was (the call under way was a query: nothing half-changed) and
    every call works: counts, adds, queries, pickling."""
    ev = make()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.2])
    answers = _forked_child_answers(ev, tmp_path)
    # the case order: 0.95 T, 0.9 T, 0.85 F, 0.5 F, 0.2 T, 0.15 T -> AP = (1 + 1 + 3/5 + 4/6) / 4
    assert answers == {"num_cases": 3, "after": 6, "ap": pytest.approx((1 + 1 + 3 / 5 + 4 / 6) / 4, rel=1e-12),
                       "pickled": 6, "saved": 6}
    assert ev.num_cases == 3  # the parent is untouched, and usable once the holder is out
    ev.add_case(True, 0.5)
    assert ev.num_cases == 4


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork")
def test_the_child_of_a_fork_from_inside_a_call_keeps_the_call_going(tmp_path: Path) -> None:
    """A fork from the thread that holds the guard (a callback inside a call) leaves that guard held
    in the child, where the same call goes on and releases it."""
    import os

    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.9, 0.1])
    r, w = os.pipe()
    pid = -1

    class ForkingPath:
        def __fspath__(self) -> str:
            nonlocal pid
            if pid == -1:
                pid = os.fork()
            return str(tmp_path / f"saved-{os.getpid()}.npz")

    ev.save(ForkingPath())
    if pid == 0:
        try:
            ev.add_case(True, 0.5)  # the call above has returned: the guard is free again
            os.write(w, str(ev.num_cases).encode())
        finally:
            os._exit(0)
    os.close(w)
    try:
        assert os.read(r, 100) == b"3"
    finally:
        os.close(r)
        os.waitpid(pid, 0)

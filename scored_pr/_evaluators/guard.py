"""One guard for every entry point of every evaluator kind.

An evaluator is not thread-safe: its store is rebuilt by queries (pending cases
are merged into sorted arrays) as much as by additions. The promise is that a
call overlapping another thread's call on the same evaluator is *refused* with
RuntimeError, never that it silently loses or doubles cases. That promise is a
property of every entry point, so it is not left to each method to remember:
:func:`guarded` wraps every public method, dunder and property of a kind, once,
when the class is defined, and the test suite enumerates the public surface by
introspection to hold every kind to it (``tests/evaluators/test_thread_guard.py``).

A guarded call, before it runs:

- takes the guard of ``self`` (``self._acquire(name)``: without waiting, so a
  call from a second thread is refused instead of blocking or interleaving);
- takes, the same way, the guard of every evaluator among its arguments (the
  other operand of ``merge``, ``==``, ``+``, ``+=``, ``from_evaluation``...),
  so that neither operand of a binary operation can change under it (a method
  whose parameters are all annotated as plain scalars, such as ``add_case``,
  skips that search: it costs about a microsecond on the hot path);
- for a writer (:data:`WRITERS`), refuses a read-only evaluator (a label's
  evaluator handed out by ``MultiLabelEvaluation[label]``).

The guards are re-entrant locks, so a guarded method may call another. The
exact evaluator's ``add_case`` is the one method that guards itself (the
owner thread's lock-free path, see ``exact.py``); it is marked with
:func:`guards_itself` and its slow path takes the same guard.

Fork: only the forking thread survives ``os.fork()``, so a guard that another
thread held at that instant would be held forever in the child, and every call
refused (a SynchronizedEvaluation's lock, waited for, would block forever).
Every guard is made by :func:`new_guard`, which records its evaluator in a
weak dictionary (one insertion per evaluator made, about half a microsecond); in the child,
``os.register_at_fork(after_in_child=...)`` gives each recorded evaluator
whose guard a vanished thread held a new, free guard, and hands the exact
evaluator's lock-free ``add_case`` path to the surviving thread
(docs/reliability.md, "Fork", states what the child then holds).
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
import weakref
from typing import Any, Callable, TypeVar

import numpy as np

from .._validation import read_only_evaluation

_C = TypeVar("_C", bound=type)
_F = TypeVar("_F", bound=Callable[..., Any])

#: The dunders that read or write an evaluator's state (``__init__`` builds a new one; the
#: pickle and copy protocols read it; ``__repr__``/``__str__`` read counts and queries).
DUNDERS = (
    "__add__", "__radd__", "__iadd__", "__eq__", "__ne__", "__len__", "__iter__", "__contains__",
    "__getitem__", "__reduce__", "__reduce_ex__", "__getstate__", "__copy__", "__deepcopy__",
    "__repr__", "__str__",
)  # not __init__ nor __setstate__: they make a new evaluator, whose guard does not exist yet
#: The methods that change an evaluator: refused on a read-only one.
WRITERS = frozenset({
    "add_case", "add_cases", "add_misses", "add_negative_misses", "reset", "expire", "__iadd__",
})

#: Every evaluator (and SynchronizedEvaluation) alive: the child of a fork frees the
#: guards a vanished thread held (see _after_fork_in_child).
#: Keyed by id (evaluators compare by value and are unhashable); an entry goes with its evaluator.
_LIVE: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
#: The ``_owner`` of an exact evaluator that more than one thread has called (see ``exact.py``).
SHARED_OWNER = -1


def new_guard(evaluation: Any) -> threading.RLock:
    """A new guard (re-entrant lock) for ``evaluation``, which is recorded for the child of a fork."""
    _LIVE[id(evaluation)] = evaluation
    return threading.RLock()


def _after_fork_in_child() -> None:
    """In the child of ``os.fork()``: free the guards held by the threads the fork did not copy.

    A guard free or held by the forking thread (a fork from inside a guarded
    call, whose call goes on in the child) stays as it is; a guard held by
    another thread is replaced by a free one. The exact evaluator's
    ``_owner``, when it was another thread (now gone), becomes the forking
    thread, and its ``_busy`` flag (that thread's lock-free add_case) is cleared.
    Attributes are read and written directly: a SynchronizedEvaluation
    forwards unknown attribute reads to its evaluator under its lock.
    """
    me = threading.get_ident()
    for ev in list(_LIVE.values()):
        for name in ("_guard", "_lock"):
            try:
                lock = object.__getattribute__(ev, name)
            except AttributeError:
                continue
            if lock.acquire(False):  # free, or held by this thread (re-entrant): it stays
                lock.release()
            else:  # held by a thread that does not exist in this process
                object.__setattr__(ev, name, threading.RLock())
        try:
            owner = object.__getattribute__(ev, "_owner")
        except AttributeError:
            continue
        if owner != me:
            object.__setattr__(ev, "_busy", False)
            if owner != SHARED_OWNER:
                object.__setattr__(ev, "_owner", me)


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_after_fork_in_child)

#: The functions that run under the guard: the wrappers made here and those marked guards_itself.
#: A set, not an attribute: functools.wraps copies a function's attributes to whatever wraps it,
#: so an attribute would mark a forwarding function (``base.forward``) as guarded when it is not.
_GUARDED: set[Callable[..., Any]] = set()

#: The guarded classes: an argument that is one of them is guarded with ``self``.
_KINDS: list[type] = []
_kinds: tuple[type, ...] = ()


def guards_itself(method: _F) -> _F:
    """Mark ``method`` as taking the guard itself (it must, on every path that touches the state)."""
    _GUARDED.add(method)
    return method


def is_guarded(obj: Any) -> bool:
    """Whether ``obj`` (a function, property or classmethod found on a kind) runs under the guard."""
    if isinstance(obj, property):
        return obj.fget is None or is_guarded(obj.fget)
    if isinstance(obj, (classmethod, staticmethod)):
        obj = obj.__func__
    return obj in _GUARDED


#: Argument types that are never an evaluator: skipped at the cost of one set lookup (add_case's
#: bool and float, a batch's arrays), so that the hot paths pay for no isinstance.
_PLAIN = frozenset({bool, int, float, str, bytes, type(None), np.ndarray, np.bool_, np.float64, np.float32,
                    np.int64, np.int32, dict})


def _operands(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """The evaluators among a call's arguments (and inside list or tuple arguments), once each."""
    found: list[Any] = []
    kinds = _kinds
    plain = _PLAIN
    for a in (*args, *kwargs.values()) if kwargs else args:
        t = type(a)
        if t in plain:
            continue
        if t is list or t is tuple:
            for b in a:
                if type(b) not in plain and isinstance(b, kinds) and not any(b is f for f in found):
                    found.append(b)
        elif isinstance(a, kinds) and not any(a is f for f in found):
            found.append(a)
    return found


def take(ev: Any, what: str, *, writer: bool = False) -> None:
    """Take ``ev``'s guard for ``what`` without waiting, as its own methods take it.

    Raises RuntimeError when another thread is inside ``ev``, and, with
    ``writer``, TypeError first when ``ev`` is read-only (a
    ``MultiLabelEvaluation``'s ``ev[label]``). Re-entrant: ``ev``'s own
    methods run under it. Release with :func:`release`. For the layers above
    that hold an evaluator across several of its calls (``SummaryLogger``).
    """
    if writer and ev._read_only:
        raise read_only_evaluation(ev._KIND, what)
    ev._acquire(what)


def release(ev: Any) -> None:
    """Release the guard :func:`take` took."""
    ev._guard.release()


def holder(ev: Any) -> tuple[Callable[[str], object], Callable[[], None]] | None:
    """``(take, release)`` of ``ev``'s guard as bound methods, or None for a kind without this guard.

    What :func:`take` (without ``writer``) and :func:`release` do, with no
    call in between: for a caller that takes the guard on every call it
    forwards (``SummaryLogger``'s add methods).
    """
    if not (hasattr(type(ev), "_acquire") and hasattr(ev, "_guard")):
        return None
    return ev._acquire, ev._guard.release


def _call_holding(others: list[Any], name: str, call: Callable[[], Any]) -> Any:
    """``call()`` holding the guard of each evaluator in ``others`` (taken in order, all or none)."""
    held: list[Any] = []
    try:
        for ev in others:
            ev._acquire(name)
            held.append(ev)
        return call()
    finally:
        for ev in reversed(held):
            ev._guard.release()


#: Annotations (as written: the modules use ``from __future__ import annotations``) of a parameter
#: that cannot hold an evaluator. A method whose parameters all carry one of these skips the
#: search for evaluator operands (add_case of every kind, the queries' k, beta, thresholds).
_PLAIN_ANNOTATIONS = frozenset({
    "bool", "int", "float", "str", "None", "float | None", "int | None", "str | None", "bool | None",
    "int | float", "TextIO | None",
})


def _may_take_evaluators(func: Callable[..., Any]) -> bool:
    """Whether a parameter of ``func`` (past ``self``) may hold an evaluator: unannotated or not plainly scalar."""
    params = list(inspect.signature(func).parameters.values())[1:]
    return any(
        p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.annotation is p.empty
        or not (isinstance(p.annotation, str) and p.annotation in _PLAIN_ANNOTATIONS)
        for p in params
    )


def _wrap_method(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    writer = name in WRITERS
    operands = _may_take_evaluators(func)

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if writer and self._read_only:
            raise read_only_evaluation(self._KIND, name)
        self._acquire(name)
        try:
            if operands and (args or kwargs):
                others = _operands(args, kwargs)
                if others and not (len(others) == 1 and others[0] is self):
                    return _call_holding([o for o in others if o is not self], name, lambda: func(self, *args, **kwargs))
            return func(self, *args, **kwargs)
        finally:
            self._guard.release()

    functools.update_wrapper(call, func)
    _GUARDED.add(call)
    return call


def _wrap_unbound(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A classmethod's or staticmethod's function: only its evaluator arguments are guarded."""

    def call(*args: Any, **kwargs: Any) -> Any:
        others = _operands(args, kwargs)
        if not others:
            return func(*args, **kwargs)
        return _call_holding(others, name, lambda: func(*args, **kwargs))

    functools.update_wrapper(call, func)
    _GUARDED.add(call)
    return call


def _public(name: str) -> bool:
    return not name.startswith("_") or name in DUNDERS


def guarded(cls: _C) -> _C:
    """Class decorator: every public method, dunder and property of ``cls`` runs under its guard.

    ``cls`` provides ``_guard`` (a re-entrant lock), ``_acquire(name)`` (take
    the guard without waiting, or raise RuntimeError), ``_read_only`` and
    ``_KIND``. An inherited member is wrapped where it is defined (a base
    class's method is guarded once, for every kind that inherits it); a
    member already guarded (or marked :func:`guards_itself`) is left as it is.
    """
    global _kinds
    for name in sorted({n for klass in cls.__mro__[:-1] for n in vars(klass)}):
        if not _public(name):
            continue
        owner = next(klass for klass in cls.__mro__ if name in vars(klass))
        if owner is object:
            continue
        member = vars(owner)[name]
        if is_guarded(member):
            continue
        wrapped: Any
        if isinstance(member, property):
            wrapped = property(_wrap_method(member.fget, name), None if member.fset is None else _wrap_method(member.fset, name), None, member.__doc__) if member.fget is not None else member
        elif isinstance(member, classmethod):
            wrapped = classmethod(_wrap_unbound(member.__func__, name))
        elif isinstance(member, staticmethod):
            wrapped = staticmethod(_wrap_unbound(member.__func__, name))
        elif inspect.isfunction(member):
            wrapped = _wrap_method(member, name)
        else:
            continue  # class attributes, __hash__ = None, slots
        setattr(owner, name, wrapped)  # where it is defined: a base's method is guarded once, for every kind
    _KINDS.append(cls)
    _kinds = tuple(_KINDS)
    return cls


def guarded_members(cls: type) -> dict[str, Any]:
    """Every public member of ``cls`` that :func:`guarded` covers (for the tests and the docs)."""
    out = {}
    for name in dir(cls):
        if not _public(name):
            continue
        member = inspect.getattr_static(cls, name)
        if isinstance(member, (property, classmethod, staticmethod)) or inspect.isfunction(member):
            out[name] = member
    return out

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

The guards are re-entrant locks, so a guarded method may call another.

The owner's fast path: a kind whose instances are made with :func:`claim`
(every kind built on ``EvaluationBase``, and ``MultiLabelEvaluation``)
belongs to the thread that made it until another thread calls it. Its
``add_case`` and ``add_cases`` are wrapped by :func:`owner_fast_path`
instead: from the owner they take no lock, only raise the ``_busy`` flag
around the call and re-read ``_owner``; the first call from another thread
marks the evaluator shared for good (:func:`foreign_call`, in the kind's
``_acquire``) before it reads ``_busy``, so, one bytecode at a time under the
GIL, either that call sees the flag and is refused, or the owner sees the
mark and takes the lock. The exact, windowed and bounded kinds' ``add_case``
have the same path written out inline (``exact.py``, ``windowed.py``,
``bounded.py``, marked with :func:`guards_itself`).

Cached answers: on a kind that sets ``_CACHED_ANSWERS`` (the exact
evaluator), a query of :data:`CACHED_QUERIES` called again with the same
plain arguments is answered from the memo before the guard is taken (see
:func:`_wrap_query` for why this is safe).

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
import sys
import threading
import weakref
from typing import Any, Callable, TypeVar

import numpy as np

from .._kinds import QUERY_TABLE
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
#: The ``_owner`` of an evaluator that more than one thread has called: every call takes the lock.
SHARED_OWNER = -1
#: Free-threaded CPython (no GIL) does not order plain attribute writes between threads, which
#: the owner's lock-free path relies on: there every evaluator starts shared.
GIL = bool(getattr(sys, "_is_gil_enabled", lambda: True)())
_get_ident = threading.get_ident


def new_guard(evaluation: Any) -> threading.RLock:
    """A new guard (re-entrant lock) for ``evaluation``, which is recorded for the child of a fork."""
    _LIVE[id(evaluation)] = evaluation
    return threading.RLock()


def claim(evaluation: Any) -> None:
    """Give ``evaluation`` a new guard, owned by the calling thread (see :func:`owner_fast_path`).

    Sets ``_guard``, ``_owner`` (this thread, or :data:`SHARED_OWNER` without
    a GIL) and ``_busy`` (0: no lock-free call under way; else the ident of
    the thread making one).
    """
    evaluation._guard = new_guard(evaluation)
    evaluation._owner = _get_ident() if GIL else SHARED_OWNER
    evaluation._busy = 0


def foreign_call(evaluation: Any) -> bool:
    """For a kind's ``_acquire``: mark ``evaluation`` shared if the caller is not its owner; whether the
    owner is inside a lock-free call (the caller must then refuse).

    The mark is written before ``_busy`` is read: see :func:`owner_fast_path`.
    A call from the thread that set ``_busy`` (a lock-free call that takes
    the guard inside, after another thread marked the evaluator shared) is
    not refused.
    """
    me = _get_ident()
    if evaluation._owner != me:
        evaluation._owner = SHARED_OWNER  # before reading _busy
        busy = evaluation._busy
        return bool(busy) and busy != me
    return False


def locked_write(evaluation: Any, name: str, method: Callable[..., Any], *args: Any) -> Any:
    """``method(*args)`` as :func:`guarded` runs a writer: refused on a read-only evaluator, else holding its guard.

    The general path of an ``add_case`` that writes the owner's lock-free path
    out itself (:func:`guards_itself`): a call from another thread, or any
    call once the evaluator is shared. ``name``: the public method, for the
    messages.
    """
    if evaluation._read_only:
        raise read_only_evaluation(evaluation._KIND, name)
    evaluation._acquire(name)
    try:
        return method(*args)
    finally:
        evaluation._guard.release()


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
            if object.__getattribute__(ev, "_busy") != me:  # a lock-free call of a vanished thread
                object.__setattr__(ev, "_busy", 0)
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


#: The methods :func:`guarded` gives the owner's fast path on a kind made with :func:`claim`.
OWNER_FAST = ("add_case", "add_cases")


def owner_fast_path(method: _F, *, name: str | None = None) -> _F:
    """``method`` guarded, lock-free from the thread that owns the evaluator (see :func:`claim`).

    From the owner: ``_busy`` is set to this thread's ident around the call
    and ``_owner`` is read again after it is set; no lock is taken. Another
    thread's first call (its ``_acquire``, through :func:`foreign_call`)
    writes :data:`SHARED_OWNER` into ``_owner`` *before* it reads ``_busy``,
    and the owner writes ``_busy`` *before* it re-reads ``_owner``: with the
    GIL's one-bytecode-at-a-time order, either the other call sees ``_busy``
    and raises RuntimeError before it touches anything, or the owner sees the
    mark and takes the lock like every other caller. Once shared, an
    evaluator stays shared (every call takes the lock). ``_busy`` is
    restored, not cleared, after the call, so a fast-path call inside
    another keeps the outer one announced.

    Otherwise, and on a read-only evaluator, the call is what :func:`guarded`
    makes of any writer: refused if read-only, then run holding the guard.
    The method's own parameters must not hold evaluators (they are not
    guarded as operands). A kind gets this for ``add_case`` and
    ``add_cases`` from :func:`guarded` when its instances are made with
    :func:`claim`; decorate another method with it by hand. ``name``: the
    method's public name, for the messages, when ``method`` is a private
    part of it (default: its own name).
    """
    name = name or method.__name__
    writer = name in WRITERS
    # The wrapper is written with the method's own parameters: passing them on by name costs a
    # fraction of forwarding *args and **kwargs (this is the per-case path of the streaming kinds).
    # Its own names start with an underscore, which no public parameter does.
    params, forward = _parameters(method)
    source = (
        f"def {name}({params}):\n"
        "    _me = _get_ident_()\n"
        "    if self._owner == _me:\n"
        "        _was = self._busy\n"
        "        self._busy = _me\n"
        "        try:\n"
        "            if self._owner == _me:\n"
        f"                return _method({forward})\n"
        "        finally:\n"
        "            self._busy = _was\n"
        "    if _writer and self._read_only:\n"
        "        raise _read_only_evaluation(self._KIND, _name)\n"
        "    self._acquire(_name)\n"
        "    try:\n"
        f"        return _method({forward})\n"
        "    finally:\n"
        "        self._guard.release()\n"
    )
    scope: dict[str, Any] = {
        "_get_ident_": _get_ident, "_method": method, "_writer": writer, "_name": name,
        "_read_only_evaluation": read_only_evaluation, "_DEFAULTS": _defaults(method),
    }
    exec(compile(source, f"<owner_fast_path {method.__qualname__}>", "exec"), scope)  # noqa: S102 - our own text
    call = scope[name]
    if sys.version_info >= (3, 11):  # Python's own TypeErrors (a missing argument) quote co_qualname
        call.__code__ = call.__code__.replace(co_qualname=method.__qualname__)
    functools.update_wrapper(call, method)
    _GUARDED.add(call)
    return call  # type: ignore[no-any-return]


def _parameters(func: Callable[..., Any]) -> tuple[str, str]:
    """``func``'s parameter list (defaults read from ``_DEFAULTS``) and the call passing each on."""
    params: list[str] = []
    forward: list[str] = []
    star = False
    signature = list(inspect.signature(func).parameters)
    if signature[:1] != ["self"]:
        raise TypeError(f"owner_fast_path: {func.__qualname__} is not a method whose first parameter is self")
    for p in inspect.signature(func).parameters.values():
        default = "" if p.default is p.empty else f"=_DEFAULTS[{p.name!r}]"
        if p.kind is p.VAR_POSITIONAL:
            params.append(f"*{p.name}")
            forward.append(f"*{p.name}")
            star = True
        elif p.kind is p.VAR_KEYWORD:
            params.append(f"**{p.name}")
            forward.append(f"**{p.name}")
        elif p.kind is p.KEYWORD_ONLY:
            if not star:
                params.append("*")
                star = True
            params.append(p.name + default)
            forward.append(f"{p.name}={p.name}")
        elif p.kind is p.POSITIONAL_ONLY:
            raise TypeError(f"owner_fast_path: {func.__qualname__} has positional-only parameters")
        else:
            params.append(p.name + default)
            forward.append(p.name)
    return ", ".join(params), ", ".join(forward)


def _defaults(func: Callable[..., Any]) -> dict[str, Any]:
    return {p.name: p.default for p in inspect.signature(func).parameters.values() if p.default is not p.empty}


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


#: The queries answered from the memo before the guard (on a kind with ``_CACHED_ANSWERS``): the
#: table's, but those whose answer is not a function of the state and the arguments alone
#: (``confidence_interval`` draws resamples) and the static text printing.
CACHED_QUERIES = frozenset(q.name for q in QUERY_TABLE if not q.static) - {"confidence_interval"}
#: The answers kept for a repeated call: immutable values only (an array or a dict could be
#: changed by its caller; the curves keep their own cache of weak references).
_ANSWER_TYPES = frozenset({float, int, bool, np.float64, type(None)})
#: The arguments a kept answer may be called with (the key holds their types too: 3 == 3.0 == True).
_KEY_TYPES = frozenset({bool, int, float, str, type(None)})


def _wrap_query(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A query of a kind that sets ``_CACHED_ANSWERS``: a repeated call is answered before the guard.

    The answer of a call whose result is an immutable number is kept in
    ``self._memo`` under a key made of a tag of its own (a new object per
    query, so no other memo key can equal it: hashed by identity, with no
    tuple to build for a call without arguments), the arguments and their
    types (a lone ``True`` or ``False``: a tag of its own per value, found
    by identity, so no tuple either); the same
    call (positional scalar arguments of the same types and values, no
    keywords) finds it there with one dictionary lookup, without the guard.
    Why that is safe:

    - every answer was computed under the guard, so from a state no call
      was changing (no mutation overlaps a guarded call);
    - every mutation of such a kind replaces ``_memo`` by a new dict (the
      adds before they store anything, ``merge``/``+=``/``reset`` in the
      assignment that commits the change) and never writes into it, and a
      query stores into ``_memo`` only under the guard, so an answer found
      there is the answer for the state as it is, or as it was just before
      a mutation now under way: the call returns what it would have
      returned had it run just before that mutation;
    - the lookup reads one attribute and one dict entry (each atomic under
      the GIL, and internally locked without it) and writes nothing, so it
      can neither lose nor half-change anything; the query itself is
      deterministic, so the same arguments give the same answer or the
      same error (an error is never kept).

    Everything else (a first call, keywords, a non-scalar argument) takes
    the guard as :func:`guarded` makes every method do.
    """
    guarded_call = _wrap_method(func, name)
    answer_types = _ANSWER_TYPES
    key_types = _KEY_TYPES
    tag = object()  # this query's answers: tag alone, or (tag, argument, its type), or (tag, args, types)
    # A lone bool argument (area_under_roc_curve(False), pr_curve(True)) has a tag of its own per
    # value, found by identity (``arg is False``: the bool singletons only, never 0 or 0.0), so the
    # commonest repeated call builds and hashes no tuple.
    tag_false, tag_true = object(), object()

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            return guarded_call(self, *args, **kwargs)
        if len(args) == 1:  # area_under_roc_curve(False), precision_at(k)
            arg = args[0]
            if arg is False:
                key: Any = tag_false
            elif arg is True:
                key = tag_true
            else:
                key = (tag, arg, type(arg))
                # Looked up before the argument's type is checked: only keys of the types in
                # key_types are ever stored, so another type finds nothing (an unhashable one
                # raises TypeError).
                try:
                    return self._memo[key]
                except (KeyError, TypeError):
                    pass
                if type(arg) not in key_types:
                    return guarded_call(self, arg)
        elif args:
            types = tuple(map(type, args))
            if not key_types.issuperset(types):
                return guarded_call(self, *args)
            key = (tag, args, types)
        else:
            key = tag
        memo = self._memo
        try:
            return memo[key]
        except KeyError:
            pass
        self._acquire(name)
        try:
            value = func(self, *args)
            if type(value) in answer_types:
                self._memo[key] = value  # under the guard: the current memo, of the state just queried
        finally:
            self._guard.release()
        return value

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

    A kind whose ``_OWNED`` is true (its instances are made with
    :func:`claim`: every kind built on ``EvaluationBase``) gets
    :func:`owner_fast_path` on ``add_case`` and ``add_cases``; one whose
    ``_CACHED_ANSWERS`` is true gets :func:`_wrap_query`'s cached answers on
    the queries of :data:`CACHED_QUERIES`. As every wrapper is put where its
    member is defined, a base shared with a kind without them must define
    neither (the kinds' bases do not).
    """
    global _kinds
    owned = getattr(cls, "_OWNED", False)
    answers = getattr(cls, "_CACHED_ANSWERS", False)
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
        elif inspect.isfunction(member) and name in OWNER_FAST and owned:
            wrapped = owner_fast_path(member)
        elif inspect.isfunction(member) and name in CACHED_QUERIES and answers:
            wrapped = _wrap_query(member, name)
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

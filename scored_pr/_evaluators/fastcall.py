"""Keyword-only parameters on a per-case path, without the price CPython charges for them.

CPython 3.11 (the version the benchmarks ran on) specialises a call to a
Python function only if the function has no keyword-only parameters; a
method that has them takes the generic call path, about 40 ns more per call
(``benchmarks/results-perf4.md``, round 9):
a sixth of a window's lean ``add_case`` and of the ``area_under_roc_curve()``
a streaming loop asks after every case.

:func:`keyword_only` keeps such a method's public signature (what
:func:`inspect.signature`, ``help`` and the documentation show: the
parameters after ``_kw`` keyword-only) while its code takes them as ordinary
parameters behind a marker, ``_kw``, whose default is :data:`KW`. A call that
fills ``_kw`` (a positional argument too many, or ``_kw=`` by name) is the
call Python would have refused: the method raises :func:`too_many_positional`
first thing, before it reads or changes anything.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, TypeVar

__all__ = ["KW", "keyword_only", "too_many_positional"]

_F = TypeVar("_F", bound=Callable[..., Any])


class _Marker:
    """The default of the ``_kw`` marker parameter: no argument took its place."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<keyword-only parameters follow>"


#: ``_kw``'s default: a call that leaves it alone passed nothing positional past the public ones.
KW: Any = _Marker()


def keyword_only(method: _F) -> _F:
    """Give ``method`` the public signature in which its parameters after ``_kw`` are keyword-only.

    ``method`` declares ``_kw=KW`` just before those parameters and calls
    :func:`too_many_positional` when ``_kw is not KW``.
    """
    sig = inspect.signature(method)
    params = list(sig.parameters.values())
    at = [p.name for p in params].index("_kw")
    assert params[at].default is KW
    public = params[:at] + [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params[at + 1 :]]
    method.__signature__ = sig.replace(parameters=public)  # type: ignore[attr-defined]
    return method


def too_many_positional(owner: str, func: str, public: int, value: Any) -> TypeError:
    """The TypeError of a call that gave ``func`` more than its ``public`` positional arguments (self excluded)."""
    return TypeError(
        f"{owner}.{func}() takes at most {public} positional argument{'' if public == 1 else 's'}; "
        f"the ones after {'it' if public == 1 else 'them'} are keyword-only "
        f"(got {value!r} in the place after the last positional one)."
    )

"""Fault injection for the exception-safety tests: raise at the n-th traced line of chosen modules."""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection
from typing import Any


class InjectedFault(Exception):
    pass


def run_with_fault(op: Callable[[], Any], at: int | None, watched: Collection[str],
                   exc: type[BaseException] = InjectedFault) -> int:
    """Run ``op``, raising ``exc(at)`` at the ``at``-th line event in the files ``watched``.

    Returns the number of line events seen (all of them when ``at`` is None,
    which counts the places a fault can be injected).
    """
    seen = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal seen
        if frame.f_code.co_filename not in watched:
            return None
        if event == "line":
            seen += 1
            if at is not None and seen == at:
                raise exc(at)
        return tracer

    sys.settrace(tracer)
    try:
        op()
    finally:
        sys.settrace(None)
    return seen

"""The errors of the checks: one message pattern, and the error of a query a kind cannot answer.

:func:`fail` builds the ``<function>: argument '<name>' must be <expectation>;
got <repr> instead.`` error every check raises; :func:`describe` is the
``<repr> (<type>)`` part of it. They are public inside the package (every
module of ``_validation`` uses them, and the few modules that raise an error
built inline import them from here, through ``scored_pr._validation``).
"""

from __future__ import annotations

from typing import Any


class UnsupportedQuery(NotImplementedError):
    """A query this evaluator kind cannot answer, with the reason in the message.

    Every evaluator kind answers the same queries (:class:`scored_pr.Evaluation`);
    where one kind cannot answer a query at all (for example a confidence
    interval from a bounded summary, which no longer holds the cases a
    resampling needs), it raises this error, never ``AttributeError``. The
    message names the kind, the query and why, and what to use instead.
    Subclasses :class:`NotImplementedError`, so ``except NotImplementedError``
    also catches it.
    """

    __module__ = "scored_pr"


def describe(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int of more digits than Python converts to text
        text = f"<an int of {value.bit_length()} bits>"
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def fail(exc: type[Exception], func: str, name: str, expected: str, value: Any, index: int | None = None) -> Exception:
    where = "" if index is None else f" at index {index}"
    return exc(f"{func}: argument '{name}' must be {expected}; got {describe(value)}{where} instead.")


def clipped(value: Any, width: int) -> str:
    """``repr(value)`` cut at ``width`` characters, then its type: ``'abc...' (str)``."""
    return f"{value!r:.{width}} ({type(value).__name__})"

"""The checks of :mod:`scored_pr.trec`'s arguments: qrels and runs, grades, trec_eval's C-long options.

trec_eval measure specifications are parsed (and refused) by the trec
registry itself; here only their type is checked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any


def check_trec_source(value: Any, cls: type, func: str, name: str) -> Any:
    """trec_eval input: a path, an instance of ``cls`` (Qrels, Run) or a mapping."""
    if not isinstance(value, (cls, str, os.PathLike, Mapping)):
        raise TypeError(f"{func}: argument '{name}' must be a path, a {cls.__name__} or a mapping; got {type(value).__name__}")
    return value


def check_grades(judgements: Mapping[str, Mapping[str, int]], low: int, high: int, shown: str, func: str) -> None:
    """Every relevance grade of a qrels mapping within [low, high] (``shown`` says the range)."""
    for q, docs in judgements.items():
        for d, g in docs.items():
            if not low <= g <= high:
                raise ValueError(f"{func}: argument 'qrels': the grade of {d!r} for query {q!r} is out of range ({shown}); got {g!r}")


def check_c_long(value: Any, low: int, high: int, func: str, name: str) -> int:
    """An int within a C long's range [low, high], as trec_eval reads its options."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{func}: argument {name!r} must be an int; got {value!r}")
    if not low <= value <= high:
        raise ValueError(
            f"{func}: argument {name!r} must be an int from {low} to {high} (a C long, as trec_eval reads it); got {value!r}"
        )
    return value


def check_max_docs(value: Any, high: int, func: str) -> int | None:
    """None or an int from 0 to ``high``: trec_eval's ``-M``."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high):
        raise ValueError(f"{func}: argument 'max_docs' must be None or an int from 0 to {high}; got {value!r}")
    return value


def check_measure_spec(value: Any, func: str) -> str:
    """A trec_eval measure name or specification: a str (parsed by trec's registry)."""
    if not isinstance(value, str):
        raise TypeError(f"{func}: argument 'spec' must be a str; got {value!r}")
    return value

"""Values made JSON-ready: the one rule every JSON writer of scored_pr follows.

JSON has no NaN and no infinity (``json.dumps`` would write the invalid
tokens ``NaN`` and ``Infinity``) and knows no numpy scalar, so before a
value is written, :func:`json_ready` turns every non-finite float into
``None`` and every numpy scalar into the Python number it holds. The HTML
report's data (``scored_pr._html.data``), ``streaming.json_safe`` (the
summaries that ``scored-pr report/stream --format json`` and the sinks
write) and the readers' ``finite_or_none`` all call it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["json_ready"]


def json_ready(value: Any, *, str_keys: bool = False) -> Any:
    """``value`` with every non-finite float as None and numpy scalars as Python numbers (JSON-ready).

    Parameters
    ----------
    value : any
        A number, or a mapping, list, tuple or numpy array of them (nested
        to any depth).
    str_keys : bool, default False
        Turn every mapping key into ``str`` (what ``json.dumps`` would do to
        an int key; the HTML page's data needs them as strings up front).

    Returns
    -------
    any
        bools (numpy's too) as ``bool``; integers (numpy's too) as ``int``;
        floats (numpy's, and float subclasses such as ``scored_pr.Bounds``)
        as ``float``, or ``None`` when NaN or infinite; mappings as ``dict``
        (same key order), lists, tuples and arrays as ``list``, their items
        made ready the same way; anything else unchanged.

    Notes
    -----
    O(size of ``value``). Bools are tested before integers (``bool`` is an
    ``int`` subclass, and ``True`` must stay ``true``, not become ``1``).

    Examples
    --------
    >>> json_ready({"a": float("nan"), "b": [np.float32(0.5), np.int64(3)], 1: np.inf}, str_keys=True)
    {'a': None, 'b': [0.5, 3], '1': None}
    >>> json_ready(np.array([1.0, -np.inf])), json_ready(np.bool_(True)), json_ready("x")
    ([1.0, None], True, 'x')
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, Mapping):
        return {(str(k) if str_keys else k): json_ready(v, str_keys=str_keys) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [json_ready(v, str_keys=str_keys) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [json_ready(v, str_keys=str_keys) for v in value]
    return value

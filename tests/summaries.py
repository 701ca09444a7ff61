"""Comparing two ``summary()`` dicts bit for bit: the one helper of the segmented-table tests."""

from __future__ import annotations

import math
from typing import Any


def differing(a: dict[str, Any], b: dict[str, Any], skip: tuple[str, ...] = ()) -> list[str]:
    """The keys where two summaries differ (value, NaN-ness or Python type); ``skip``: keys of ``a`` left out.

    The keys (less ``skip``) must be the same, in the same order.
    """
    a = {k: v for k, v in a.items() if k not in skip}
    assert list(a) == list(b)
    bad = []
    for k in a:
        x, y = a[k], b[k]
        if type(x) is not type(y):
            bad.append(k)
        elif isinstance(x, float) and math.isnan(x):
            if not math.isnan(y):
                bad.append(k)
        elif x != y:
            bad.append(k)
    return bad

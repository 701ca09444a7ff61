"""trec_eval's output format, byte for byte.

Each line is ``printf("%-22s\\t%s\\t...\\n", name, query, value)`` with the value
as ``%6.4f`` (measures), ``%ld`` (counts) or ``%s`` (runid; relstring in single
quotes). With ``-q`` the lines of each query come first, query by query, each
query's measures in trec_eval's order; then the ``all`` lines.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from collections.abc import Mapping, Sequence
from typing import Any

from ._registry import Selected

__all__ = ["format_float", "format_lines", "format_value"]


def format_float(value: float) -> str:
    """C ``%6.4f``, NaN printed as glibc prints it (``nan``/``-nan``, by the sign bit).

    Examples
    --------
    >>> format_float(0.5), format_float(1 / 3), format_float(-0.0), format_float(12.34567)
    ('0.5000', '0.3333', '-0.0000', '12.3457')
    """
    if math.isnan(value):
        return f"{'-nan' if math.copysign(1.0, value) < 0 else 'nan':>6}"
    return f"{value:6.4f}"


def format_value(kind: str, value: Any) -> str:
    """One value as trec_eval prints it for a measure whose values are ``kind`` (float, long, string)."""
    if kind == "long":
        return str(int(value))
    if kind == "string":
        return str(value)
    return format_float(float(value))


def _line(name: str, query: str, text: str) -> str:
    return f"{name:<22}\t{query}\t{text}"


def format_lines(
    selection: Sequence[Selected],
    queries: Sequence[str],
    per_query_values: Mapping[str, Mapping[str, Any]],
    summary_values: Mapping[str, Any],
    per_query: bool = False,
    summary: bool = True,
) -> Iterator[str]:
    """The lines (without newlines) trec_eval prints for these values (``TrecResults``' fields)."""
    if per_query:
        for q in queries:
            values = per_query_values[q]
            for s in selection:
                m = s.measure
                if not m.per_query:
                    continue
                for name in s.names:
                    text = format_value(m.value, values[name])
                    yield _line(name, q, f"'{text}'" if m.name == "relstring" else text)
    if summary:
        for s in selection:
            for name in s.names:
                if name in summary_values:
                    yield _line(name, "all", format_value(s.measure.value, summary_values[name]))

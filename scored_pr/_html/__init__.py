"""Self-contained HTML reports of every evaluator kind: ``to_html()``, ``_repr_html_`` and ``scored-pr report --html``.

:func:`render` turns an evaluator of any registered kind into one HTML file
(:mod:`.data` chooses what to draw, through the kind registry; :mod:`.page`
inlines the script, style and data); :func:`render_compare` does the same for
two models compared on the same cases. The page's script is scored_pr's own
(``assets/report.js``), drawn on ``<canvas>``: no library, no network.
"""

from __future__ import annotations

import os
from typing import Any

from . import data as _data
from . import page as _page

__all__ = ["render", "render_compare", "write", "notebook"]


def render(obj: Any, title: str | None = None, intervals: dict[str, Any] | None = None,
           budget: int = _data.BUDGET) -> str:
    """The HTML page of ``obj`` (any evaluator kind); ``intervals``: {measure: Interval} to show beside the values."""
    return _page.page(_data.page_data(obj, title or "scored_pr report", intervals, budget))


def render_compare(a: Any, b: Any, names: tuple[str, str], comparisons: dict[str, Any], title: str | None = None,
                   same_ranking: bool = False, budget: int = _data.BUDGET) -> str:
    """The HTML page of two models on the same cases, overlaid, with their paired comparisons."""
    return _page.page(_data.compare_data(a, b, names, comparisons, title or "scored_pr comparison", budget, same_ranking))


def write(document: str, path: str | os.PathLike[str]) -> None:
    """Write ``document`` to ``path`` (UTF-8)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(document)


def notebook(document: str) -> str:
    """``document`` as a notebook cell shows it (an isolated ``<iframe srcdoc>``)."""
    return _page.iframe(document)

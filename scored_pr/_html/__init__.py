"""Self-contained HTML reports of every evaluator kind: ``to_html()``, ``_repr_html_`` and ``scored-pr report --html``.

:func:`render` turns an evaluator of any registered kind into one HTML file
(:mod:`.data` chooses what to draw, through the kind registry; :mod:`.page`
inlines the script, style and data); :func:`render_compare` does the same for
two models compared on the same cases. The page's script is scored_pr's own
(``assets/report.js``), drawn on ``<canvas>``: no library, no network.
"""

from __future__ import annotations

import os
import re
from typing import Any

from .. import _atomic
from . import data as _data
from . import page as _page

__all__ = ["render", "render_compare", "write", "notebook"]

#: A Python str holds a character beyond U+FFFF as one code point, so any surrogate in it is a lone one.
_SURROGATE = re.compile("[\ud800-\udfff]")


def render(obj: Any, title: str | None = None, intervals: dict[str, Any] | None = None,
           budget: int = _data.BUDGET, gaps: dict[str, Any] | None = None) -> str:
    """The HTML page of ``obj`` (any evaluator kind); ``intervals``: {measure: Interval} to show beside the values
    ({slice: {measure: Interval}} for a sliced evaluation: a column per measure in the slice table);
    ``gaps``: a sliced evaluation's gaps table, ``{"measure", "label", "level", "correction", "rows"}``
    (``rows``: what :meth:`~scored_pr.SlicedEvaluation.gaps` returned).

    The page is valid text: a lone surrogate in ``title`` shows as U+FFFD (see :func:`write`).
    """
    return _valid_text(_page.page(_data.page_data(obj, title or "scored_pr report", intervals, budget, gaps)))


def render_compare(a: Any, b: Any, names: tuple[str, str], comparisons: dict[str, Any], title: str | None = None,
                   same_ranking: bool = False, budget: int = _data.BUDGET, slices: list[dict[str, Any]] | None = None,
                   paired: bool = True) -> str:
    """The HTML page of two models, overlaid, with their comparisons (valid text, as :func:`render`).

    ``slices``: ``compare --by``'s comparison of every slice (:func:`scored_pr._html.slices.comparisons`),
    a sortable table below the overall comparison; ``paired``: whether ``comparisons`` are paired.
    """
    return _valid_text(_page.page(_data.compare_data(a, b, names, comparisons, title or "scored_pr comparison", budget,
                                                     same_ranking, slices, paired)))


def write(document: str, path: str | os.PathLike[str]) -> None:
    """Write ``document`` to ``path`` (UTF-8), atomically.

    The page is encoded before the file is touched: a lone surrogate (a
    title made from a file name that is not UTF-8, ``os.fsdecode`` style)
    becomes U+FFFD, the replacement character, so every page is valid UTF-8.
    The write goes through :func:`scored_pr._atomic.write_file`: on any
    failure ``path`` keeps its previous content; its mode is kept and a
    symlink is followed.
    """
    _atomic.write_bytes(path, encoded(document))


def encoded(document: str) -> bytes:
    """``document`` as the bytes of a page (UTF-8, each lone surrogate as U+FFFD), ready for an atomic write."""
    return _valid_text(document).encode("utf-8")


def _valid_text(text: str) -> str:
    """``text`` with every lone surrogate (U+D800 to U+DFFF: never valid in UTF-8) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def notebook(document: str) -> str:
    """``document`` as a notebook cell shows it (an isolated ``<iframe srcdoc>``)."""
    return _page.iframe(document)

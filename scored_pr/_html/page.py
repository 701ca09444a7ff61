"""The HTML page: one file, its script, style and data inlined (no network request of any kind)."""

from __future__ import annotations

import html
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .._version import __version__

ASSETS = Path(__file__).resolve().parent / "assets"


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    """The text of a file shipped in ``scored_pr/_html/assets``."""
    return (ASSETS / name).read_text(encoding="utf-8")


def _script_json(data: dict[str, Any]) -> str:
    """``data`` as JSON safe inside ``<script>``: no ``</`` or ``<!--`` can end or open anything."""
    text = json.dumps(data, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(data: dict[str, Any]) -> str:
    """The whole page for ``data`` (from :mod:`scored_pr._html.data`)."""
    data = {**data, "version": __version__}
    title = html.escape(str(data.get("title", "scored_pr report")))
    # default-src 'none': the page may load nothing at all (no fetch, image, font or frame);
    # only its own inline script and style run.
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<meta name=\"generator\" content=\"scored_pr {html.escape(__version__)}\">\n"
        f"<title>{title}</title>\n<style>\n{asset('report.css')}</style>\n</head>\n<body>\n"
        "<main id=\"scored-pr\"></main>\n"
        "<noscript><p>This report draws its curves and tables with JavaScript; enable it to see them.</p></noscript>\n"
        f"<script type=\"application/json\" id=\"scored-pr-data\">{_script_json(data)}</script>\n"
        f"<script>\n{asset('report.js')}{asset('decisions.js')}</script>\n</body>\n</html>\n"
    )


def iframe(document: str, height: int = 1150) -> str:
    """``document`` in an ``<iframe srcdoc>``: a notebook cell's HTML, isolated from the notebook's page."""
    return (f"<iframe srcdoc=\"{html.escape(document, quote=True)}\" style=\"width:100%;height:{height}px;border:0\" "
            "sandbox=\"allow-scripts\" title=\"scored_pr report\"></iframe>")

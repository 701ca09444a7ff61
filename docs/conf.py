"""Sphinx configuration for the scored_pr documentation.

Build locally with ``pip install '.[docs]'`` and
``python -m sphinx -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import os
import sys

import sphinx

sys.path.insert(0, os.path.abspath(".."))

from scored_pr import __version__  # noqa: E402

project = "scored_pr"
author = "the scored_pr developers"
copyright = "the scored_pr developers"
release = __version__
version = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# numpydoc: the class pages list their methods through autodoc, so numpydoc's
# own member tables (which need autosummary stubs) are off.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
# No type comments are used. Reading them makes Sphinx 9 parse the source of a class whose
# __module__ is the public package: on Python 3.13, where classes record __firstlineno__, that
# source is read from scored_pr/__init__.py at the defining file's line, which fails for
# UnsupportedQuery (an exception whose __init__ is built in). Sphinx 8 has no such setting.
if sphinx.version_info >= (9,):
    autodoc_use_type_comments = False

myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]
suppress_warnings = ["myst.header"]

intersphinx_mapping = {}

html_theme = "alabaster"
html_title = f"scored_pr {__version__}"
html_static_path: list[str] = []

"""trec_eval in Python: every measure of ``trec_eval -m all_trec`` (trec_eval 10), its options and its output.

:class:`TrecEval` reads a qrels and a run file (or mappings), ranks each
query's documents as trec_eval does (score descending, ties by document id
descending) and computes any trec_eval measure by its trec_eval name, per
query and over all queries, with trec_eval's definitions: graded gains for the
nDCG family, G and RBP; judged non-relevant documents told apart from unjudged
ones for bpref, infAP, unj and rbp_resid; 0 where a definition divides by
nothing. ``scored-pr trec`` prints the same text as ``trec_eval``.

Layout: :mod:`._parse` reads the files, :mod:`._ranking` builds one query's
ranked relevance values, one module per family holds the definitions
(:mod:`._counts`, :mod:`._precision`, :mod:`._judged`, :mod:`._graded`,
:mod:`._set`), :mod:`._registry` names them and parses ``-m``,
:mod:`._evaluate` averages, :mod:`._format` prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._imports import lazy_names

if TYPE_CHECKING:
    from ._evaluate import TrecEval, TrecMeasure, TrecResults
    from ._parse import Qrels, Run, read_qrels, read_run
    from ._ranking import RankedRels, rank_query, trec_order
    from ._registry import MEASURES, NICKNAMES, parse_measures
    from ._columns import match

#: Public name -> defining module; imported on first use, so that building
#: ``scored-pr``'s argument parser (which registers ``trec``) stays cheap.
_LAZY = {
    "TrecEval": "._evaluate",
    "TrecMeasure": "._evaluate",
    "TrecResults": "._evaluate",
    "Qrels": "._parse",
    "Run": "._parse",
    "read_qrels": "._parse",
    "read_run": "._parse",
    "RankedRels": "._ranking",
    "rank_query": "._ranking",
    "trec_order": "._ranking",
    "MEASURES": "._registry",
    "NICKNAMES": "._registry",
    "parse_measures": "._registry",
    # for MultiQueryEvaluation.from_trec, not part of the public list below
    "match": "._columns",
}

__all__ = [
    "MEASURES",
    "NICKNAMES",
    "Qrels",
    "RankedRels",
    "Run",
    "TrecEval",
    "TrecMeasure",
    "TrecResults",
    "parse_measures",
    "rank_query",
    "read_qrels",
    "read_run",
    "trec_order",
]


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY, __all__)
